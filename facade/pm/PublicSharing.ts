/**
 * pm tag "Public Sharing" (6): public read-only links to tasks. Members make
 * a link to a task (optionally expiring, optionally showing subtasks and
 * comments), list the links of a task or of the whole workspace, change or
 * revoke them (the link's creator or a workspace admin); anyone holding the
 * link reads the task without credentials until it expires or is revoked.
 * The token is shown once; a workspace can turn public sharing off (links
 * stop working) and require links to expire (its security policy).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { PmOrganization } from "../../actors/pm/OrganizationActors.ts"
import {
  getLink,
  LinkOptions,
  LinkStatus,
  linksOfTask,
  linksOfWorkspace,
  openLink,
  ShareLink,
  SharedTask,
  ShareToken,
  sharedView
} from "../../actors/pm/ShareLinks.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { DateTime, isoDate, Page } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { inWorkspace, Limit, Offset, onTask, orDieSql, pageOf } from "./WorkAccess.ts"
import { publicSharingExamples } from "./PublicSharing.examples.ts"

const Expiry = Schema.NullOr(DateTime).annotate({
  description: "When the link stops working (null: never, unless the workspace requires an expiry)"
})
// As the actor takes it, except the expiry: any date here, normalized before it is sent.
const LinkBody = Schema.Struct({ ...LinkOptions.fields, expiresAt: Schema.optionalKey(Expiry) })
const CreatedLink = Schema.Struct({
  link: ShareLink,
  token: ShareToken,
  url: Schema.String.annotate({ description: "The public address (shown once: keep it)" })
}).annotate({ identifier: "CreatedShareLink" })

/** Normalizes a date-time (400 naming the field when it is no real date). */
const expiryOf = (value: string | null | undefined) =>
  value === undefined || value === null
    ? Effect.succeed(value)
    : Effect.fromNullishOr(isoDate(value)).pipe(
        Effect.mapError(() =>
          reject("invalid", "Invalid body.expiresAt: not a real date", [{ path: "body.expiresAt", message: "not a real date" }])
        )
      )

/** The link, when the caller may manage it: member on its task, and its creator or a workspace admin. */
const manageable = (context: RequestContext, linkId: string) =>
  Effect.gen(function* () {
    const link = yield* orDieSql(getLink(linkId))
    const caller = yield* onTask(context, link.taskId, "viewer").pipe(
      Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such share link") : e))
    )
    if (caller.role === "viewer") return yield* reject("forbidden", "Requires the member role in this workspace")
    if (link.createdBy.id !== caller.userId && !caller.admin)
      return yield* reject("forbidden", "Only the link's creator or a workspace admin may change it")
    return { link, caller }
  })

const StatusQuery = Schema.optionalKey(LinkStatus.annotate({ description: "Only links in this state (default: all)" }))

const { operation } = tagGroup("pm", "Public Sharing", publicSharingExamples)

export const publicSharingOperations = [
  operation({
    operationId: "createTaskShareLink",
    method: "POST",
    path: "/v1/tasks/{taskId}/share-links",
    summary: "Make a public read-only link to a task (the token is shown once)",
    description:
      "Members and above. Refused (403) when the workspace turned public sharing off; 400 when its policy requires an expiry sooner than asked.",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ taskId: Id }),
    body: LinkBody,
    responses: {
      201: { description: "Created", schema: CreatedLink },
      403: { description: "Viewer, or public sharing is off" },
      404: { description: "No such task" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const expiresAt = yield* expiryOf(body.expiresAt)
        const created = yield* send(PmOrganization, caller.at.workspaceId, "createShareLink", caller.userId, {
          taskId: params.taskId,
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(body.includeSubtasks !== undefined ? { includeSubtasks: body.includeSubtasks } : {}),
          ...(body.includeComments !== undefined ? { includeComments: body.includeComments } : {})
        })
        return { ...created, url: `${context.origin}/pm/v1/public/shared-tasks/${created.token}` }
      })
  }),
  operation({
    operationId: "listTaskShareLinks",
    method: "GET",
    path: "/v1/tasks/{taskId}/share-links",
    summary: "The public links of a task, newest first",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ taskId: Id }),
    query: Schema.Struct({ status: StatusQuery }),
    responses: { 200: { description: "Links (tokens are never shown again)", schema: Schema.Struct({ items: Schema.Array(ShareLink) }) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        return { items: yield* orDieSql(linksOfTask(params.taskId, q.status)) }
      })
  }),
  operation({
    operationId: "listWorkspaceShareLinks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/share-links",
    summary: "Every public link of the workspace's tasks the caller may see, newest first (an overview of what is shared)",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({
      status: StatusQuery,
      createdBy: Schema.optionalKey(Id.annotate({ description: "Only links made by this user" })),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "A page of links", schema: Page(ShareLink).annotate({ identifier: "ShareLinkPage" }) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(
          linksOfWorkspace(params.workspaceId, caller.viewer, {
            ...pageOf(q),
            ...(q.status ? { status: q.status } : {}),
            ...(q.createdBy ? { createdBy: q.createdBy } : {})
          })
        )
      })
  }),
  operation({
    operationId: "updateShareLink",
    method: "PATCH",
    path: "/v1/share-links/{linkId}",
    summary: "Change a link's expiry or what it shows (its creator or a workspace admin)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ linkId: Id }),
    body: LinkBody,
    responses: { 200: { description: "Updated", schema: ShareLink }, 409: { description: "The link is revoked" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { link, caller } = yield* manageable(context, params.linkId)
        const expiresAt = yield* expiryOf(body.expiresAt)
        return yield* send(PmOrganization, link.workspaceId, "updateShareLink", caller.userId, {
          linkId: link.id,
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(body.includeSubtasks !== undefined ? { includeSubtasks: body.includeSubtasks } : {}),
          ...(body.includeComments !== undefined ? { includeComments: body.includeComments } : {})
        })
      })
  }),
  operation({
    operationId: "revokeShareLink",
    method: "DELETE",
    path: "/v1/share-links/{linkId}",
    summary: "Revoke a link: it stops working at once (its creator or a workspace admin)",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ linkId: Id }),
    responses: { 200: { description: "Revoked", schema: ShareLink }, 409: { description: "Already revoked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { link, caller } = yield* manageable(context, params.linkId)
        return yield* send(PmOrganization, link.workspaceId, "revokeShareLink", caller.userId, { linkId: link.id })
      })
  }),
  operation({
    operationId: "getSharedTask",
    method: "GET",
    path: "/v1/public/shared-tasks/{shareToken}",
    summary: "Read a shared task by its public link (no credentials)",
    description:
      "Only the task's safe fields: names but no e-mail addresses, no internal ids. 404 for an unknown, expired or revoked link, " +
      "a deleted task, or a workspace that turned public sharing off.",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ shareToken: ShareToken }),
    responses: { 200: { description: "The shared task", schema: SharedTask }, 404: { description: "No such link, or it no longer works" } },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const link = yield* orDieSql(openLink(params.shareToken))
        const view = yield* orDieSql(sharedView(link))
        yield* send(PmOrganization, link.workspaceId, "recordShareView", link.id, { linkId: link.id })
        return view
      })
  })
]
