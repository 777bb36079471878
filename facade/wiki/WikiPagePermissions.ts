/**
 * wiki tag "Wiki Page Permissions" (4): page restrictions. A page is open
 * (the space's roles apply), edit-restricted (everyone in the space reads,
 * only listed users/roles edit) or view-restricted (only listed users/roles
 * see it). Restrictions hold for the page's whole subtree; space admins pass
 * them all. Changing them takes edit rights on the page; whoever restricts a
 * page keeps editing it.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { blameEmail, resolveSubject, subjectFields, SubjectView, withUsers } from "../../actors/wiki/PermissionSubjects.ts"
import { ensureActive, pageAccess, type WikiCaller } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"
import { PageAccessLevel, PageRestriction } from "../../actors/wiki/WikiRoles.ts"

import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { tagGroup } from "../Operation.ts"
import { PageParams } from "./WikiPages.ts"
import { callerFrom } from "./WikiSpaces.ts"
import { wikiPagePermissionsExamples } from "./WikiPagePermissions.examples.ts"

const PagePermission = Schema.Struct({ id: Id, pageId: Id, access: PageAccessLevel, ...SubjectView }).annotate({
  identifier: "WikiPagePermission"
})

const PagePermissions = Schema.Struct({
  pageId: Id,
  restriction: PageRestriction,
  entries: Schema.Array(PagePermission),
  inherited: Schema.Array(Schema.Struct({ pageId: Id, title: Schema.String, restriction: PageRestriction })).annotate({
    description: "Restricted ancestors: their restrictions apply to this page too"
  }),
  yourAccess: Schema.Literals(["edit", "read"])
}).annotate({ identifier: "WikiPagePermissions" })

const permissionsView = (caller: WikiCaller, pageId: string) =>
  Effect.gen(function* () {
    const access = yield* pageAccess(caller, pageId)
    const entries = yield* withUsers(access.entries)
    return {
      pageId,
      restriction: access.page.restriction,
      entries,
      inherited: access.ancestors
        .filter((page) => page.restriction !== "open")
        .map((page) => ({ pageId: page.id, title: page.title, restriction: page.restriction })),
      yourAccess: access.right === "edit" ? ("edit" as const) : ("read" as const)
    }
  })

const { operation } = tagGroup("wiki", "Wiki Page Permissions", wikiPagePermissionsExamples)

export const wikiPagePermissionsOperations = [
  operation({
    operationId: "getWikiPagePermissions",
    method: "GET",
    path: "/v1/pages/{pageId}/permissions",
    summary: "A page's restriction, its entries, the restrictions it inherits, and your access",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    responses: { 200: { description: "Permissions", schema: PagePermissions } },
    handler: ({ params }, context) => Effect.flatMap(callerFrom(context), (caller) => permissionsView(caller, params.pageId))
  }),
  operation({
    operationId: "setWikiPageRestriction",
    method: "PUT",
    path: "/v1/pages/{pageId}/permissions",
    summary: "Open a page, or restrict who may edit it or who may see it",
    description:
      "`open` removes the page's own entries. When restricting, you are added as an editor (unless you are a space admin, who passes restrictions anyway), so you cannot lock yourself out.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: PageParams,
    body: Schema.Struct({ restriction: PageRestriction }),
    responses: { 200: { description: "Permissions", schema: PagePermissions } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        yield* (yield* ActorSystem).ask(WikiPage, params.pageId, "setRestriction", {
          by: caller.userId,
          restriction: body.restriction,
          keepEditor: access.spaceRole !== "admin"
        })
        return yield* permissionsView(caller, params.pageId)
      })
  }),
  operation({
    operationId: "addWikiPagePermission",
    method: "POST",
    path: "/v1/pages/{pageId}/permissions/entries",
    summary: "Let a user (by id or e-mail) or a workspace role view or edit a restricted page",
    description:
      "Name exactly one of `userId`, `email` or `workspaceRole`; an existing entry for the same subject is changed. The page must be restricted first. Entries never give more than the subject's space role: a space viewer listed with `edit` still only reads.",
    auth: "both",
    scopes: ["wiki:admin"],
    params: PageParams,
    body: Schema.Struct({ ...subjectFields, access: PageAccessLevel }),
    responses: { 201: { description: "The entry", schema: PagePermission }, 409: { description: "The page is open: restrict it first" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        const subject = yield* resolveSubject(body)
        const entry = yield* (yield* ActorSystem)
          .ask(WikiPage, params.pageId, "grantAccess", { by: caller.userId, subject, access: body.access })
          .pipe(blameEmail(body))
        return (yield* withUsers([entry]))[0]!
      })
  }),
  operation({
    operationId: "removeWikiPagePermission",
    method: "DELETE",
    path: "/v1/pages/{pageId}/permissions/entries/{entryId}",
    summary: "Remove an entry from a restricted page",
    auth: "both",
    scopes: ["wiki:admin"],
    params: Schema.Struct({ pageId: Id, entryId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such entry" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId, "edit")
        yield* ensureActive(access.space, access.page)
        yield* (yield* ActorSystem).ask(WikiPage, params.pageId, "revokeAccess", { by: caller.userId, entryId: params.entryId })
      })
  })
]
