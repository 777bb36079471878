/**
 * wiki tag "Wiki Spaces" (12): spaces within a workspace — create, list,
 * read, change, archive/restore, delete, the home page, the trash (archived
 * pages) and recent changes, and space-key availability.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { disposeRemoved } from "../../actors/wiki/PageDisposal.ts"
import {
  callerOf,
  pagesVisibleIn,
  type SpaceAccess,
  spaceAccess,
  visibleSpaces,
  type WikiCaller,
  workspaceAccess
} from "../../actors/wiki/WikiAccess.ts"
import { spaceByKey, spacesOfWorkspace } from "../../actors/wiki/WikiQueries.ts"
import { SpaceVisibility } from "../../actors/wiki/WikiRoles.ts"
import { WikiSpace } from "../../actors/wiki/WikiSpace.ts"
import { Icon, pageSummary, spaceView, WikiPageSummary, WikiSpaceView } from "../../actors/wiki/WikiViews.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiSpacesExamples } from "./WikiSpaces.examples.ts"

export const SpaceKey = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, { expected: "1 to 50 letters, digits, _ or -, starting with a letter or digit" })
).annotate({ description: "Short key unique within the workspace (case-insensitive, stored upper case), e.g. ENG", examples: ["ENG"] })

const SpaceName = Schema.String.check(Schema.isMaxLength(100), Schema.isPattern(/\S/, { expected: "a non-blank name" }))
const Description = Schema.String.check(Schema.isMaxLength(2000))

export const SpaceParams = Schema.Struct({ spaceId: Id })

export const callerFrom = (context: RequestContext) => Effect.map(principalOf(context), callerOf)

/** The space as the caller sees it (their role, the pages they can see). */
export const viewOf = (caller: WikiCaller, access: SpaceAccess) =>
  Effect.map(pagesVisibleIn(caller, access), (pages) =>
    spaceView(access.space, access.role, pages.filter(({ page }) => page.archivedAt === null).length)
  )

const refreshed = (caller: WikiCaller, spaceId: string) => Effect.flatMap(spaceAccess(caller, spaceId), (access) => viewOf(caller, access))

const SpaceList = Schema.Struct({ items: Schema.Array(WikiSpaceView) }).annotate({ identifier: "WikiSpaceList" })
const PageList = Schema.Struct({ items: Schema.Array(WikiPageSummary) }).annotate({ identifier: "WikiPageList" })

/** A free key derived from `seed` (a name or a wanted key): initials or the first letters, then 2, 3… */
const suggestKey = (seed: string, taken: ReadonlySet<string>): string => {
  const words = seed
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9\s]/g, " ")
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
  let base = words.length > 1 ? words.map((w) => w[0]).join("") : (words[0] ?? "")
  base = base
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, 10)
  if (base.length < 2) base = `${base}SPACE`
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`
}

const { operation } = tagGroup("wiki", "Wiki Spaces", wikiSpacesExamples)

export const wikiSpacesOperations = [
  operation({
    operationId: "createWikiSpace",
    method: "POST",
    path: "/v1/spaces",
    summary: "Create a space in a workspace",
    description:
      "Workspace members and admins may create spaces (viewers may not); the creator becomes the space's admin. A restricted space is seen only by listed users and roles (and workspace admins).",
    auth: "both",
    scopes: ["wiki:write"],
    body: Schema.Struct({
      workspaceId: Id,
      name: SpaceName,
      key: Schema.optionalKey(
        SpaceKey.annotate({
          description:
            "Short key unique within the workspace (case-insensitive, stored upper case); omitted: a free key is made from the name"
        })
      ),
      description: Schema.optionalKey(Description),
      icon: Schema.optionalKey(Icon),
      visibility: Schema.optionalKey(SpaceVisibility)
    }),
    responses: { 201: { description: "Created", schema: WikiSpaceView }, 409: { description: "The key is taken" } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* workspaceAccess(caller, body.workspaceId, "member")
        const key =
          body.key ??
          suggestKey(body.name, new Set((yield* Effect.orDie(spacesOfWorkspace(body.workspaceId))).map((s) => s.key.toUpperCase())))
        const space = yield* (yield* ActorSystem).ask(WikiSpace, randomUUID(), "create", {
          by: caller.userId,
          workspaceId: body.workspaceId,
          key,
          name: body.name,
          description: body.description ?? "",
          icon: body.icon ?? null,
          visibility: body.visibility ?? "workspace"
        })
        return yield* refreshed(caller, space.id)
      })
  }),
  operation({
    operationId: "listWikiSpaces",
    method: "GET",
    path: "/v1/spaces",
    summary: "List the spaces of a workspace the caller can see",
    description: "Active spaces by default; `status=archived` or `status=all` to include archived ones. Sorted by name.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, status: Schema.optionalKey(Schema.Literals(["active", "archived", "all"])) }),
    responses: { 200: { description: "Spaces", schema: SpaceList } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const status = query.status ?? "active"
        const spaces = (yield* visibleSpaces(caller, query.workspaceId)).filter(
          ({ space }) => status === "all" || (status === "archived") === (space.archivedAt !== null)
        )
        return { items: yield* Effect.forEach(spaces, (access) => viewOf(caller, access)) }
      })
  }),
  operation({
    operationId: "checkWikiSpaceKey",
    method: "GET",
    path: "/v1/spaces/key-availability",
    summary: "Check whether a space key is free, or get a free key for a name",
    description: "Give `key` to check it, `name` to have a key suggested from it (initials), or both. The suggestion is always free.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, key: Schema.optionalKey(SpaceKey), name: Schema.optionalKey(SpaceName) }),
    responses: {
      200: {
        description: "Availability",
        schema: Schema.Struct({
          key: Schema.NullOr(Schema.String),
          available: Schema.NullOr(Schema.Boolean),
          suggestion: Schema.String
        }).annotate({ identifier: "WikiSpaceKeyAvailability" })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* workspaceAccess(caller, query.workspaceId)
        if (query.key === undefined && query.name === undefined) {
          return yield* reject("invalid", "Give a key to check, or a name to suggest a key from", [
            { path: "query.key", message: "key or name required" }
          ])
        }
        const taken = new Set((yield* Effect.orDie(spacesOfWorkspace(query.workspaceId))).map((space) => space.key.toUpperCase()))
        const key = query.key?.toUpperCase()
        const available = key === undefined ? null : (yield* Effect.orDie(spaceByKey(query.workspaceId, key))) === undefined
        return { key: key ?? null, available, suggestion: key !== undefined && available ? key : suggestKey(query.name ?? key!, taken) }
      })
  }),
  operation({
    operationId: "getWikiSpace",
    method: "GET",
    path: "/v1/spaces/{spaceId}",
    summary: "Get a space",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    responses: {
      200: { description: "The space", schema: WikiSpaceView },
      404: { description: "No such space (or not visible to the caller)" }
    },
    handler: ({ params }, context) => Effect.flatMap(callerFrom(context), (caller) => refreshed(caller, params.spaceId))
  }),
  operation({
    operationId: "updateWikiSpace",
    method: "PATCH",
    path: "/v1/spaces/{spaceId}",
    summary: "Change a space's name, key, description, icon or visibility (space admin)",
    description: "Fields left out are unchanged; `icon: null` removes the icon. Changing the key changes the Lite addresses of its pages.",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    body: Schema.Struct({
      name: Schema.optionalKey(SpaceName),
      key: Schema.optionalKey(SpaceKey),
      description: Schema.optionalKey(Description),
      icon: Schema.optionalKey(Schema.NullOr(Icon)),
      visibility: Schema.optionalKey(SpaceVisibility)
    }),
    responses: { 200: { description: "Updated", schema: WikiSpaceView }, 409: { description: "Key taken, or the space is archived" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "update", { by: caller.userId, ...body })
        return yield* refreshed(caller, params.spaceId)
      })
  }),
  operation({
    operationId: "deleteWikiSpace",
    method: "DELETE",
    path: "/v1/spaces/{spaceId}",
    summary: "Delete a space and all its pages for good (space admin)",
    description: "Pages, their versions, comments, attachments and live documents are deleted. Archive the space instead to keep it.",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        const removed = yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "remove", { by: caller.userId })
        yield* disposeRemoved(removed)
      })
  }),
  operation({
    operationId: "archiveWikiSpace",
    method: "POST",
    path: "/v1/spaces/{spaceId}/archive",
    summary: "Archive a space (space admin): it stays readable but nobody can change it",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    responses: { 200: { description: "Archived", schema: WikiSpaceView }, 409: { description: "Already archived" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "archive", { by: caller.userId })
        return yield* refreshed(caller, params.spaceId)
      })
  }),
  operation({
    operationId: "restoreWikiSpace",
    method: "POST",
    path: "/v1/spaces/{spaceId}/restore",
    summary: "Restore an archived space (space admin)",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    responses: { 200: { description: "Restored", schema: WikiSpaceView }, 409: { description: "Not archived" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "restore", { by: caller.userId })
        return yield* refreshed(caller, params.spaceId)
      })
  }),
  operation({
    operationId: "setWikiSpaceHomePage",
    method: "PUT",
    path: "/v1/spaces/{spaceId}/home-page",
    summary: "Set (or clear, with null) the page a space opens on (space admin)",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    body: Schema.Struct({ pageId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Updated", schema: WikiSpaceView }, 404: { description: "No such page in this space" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        yield* (yield* ActorSystem)
          .ask(WikiSpace, params.spaceId, "setHomePage", { by: caller.userId, pageId: body.pageId })
          .pipe(
            Effect.catchTag(["WikiSpaceNotFound", "WikiPageNotInSpace"], (error) =>
              Effect.fail(reject("not_found", error.message, [{ path: "body.pageId", message: "no such page in this space" }]))
            )
          )
        return yield* refreshed(caller, params.spaceId)
      })
  }),
  operation({
    operationId: "listWikiSpaceTrash",
    method: "GET",
    path: "/v1/spaces/{spaceId}/trash",
    summary: "List the space's archived pages (the trash)",
    description: "Each entry is a page archived with its subtree (pages below it are restored or deleted with it). Newest first.",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    responses: { 200: { description: "Archived pages", schema: PageList } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceAccess(caller, params.spaceId)
        const pages = yield* pagesVisibleIn(caller, access)
        const archivedIds = new Set(pages.filter(({ page }) => page.archivedAt !== null).map(({ page }) => page.id))
        const roots = pages
          .map(({ page }) => page)
          .filter((page) => page.archivedAt !== null && (page.parentId === null || !archivedIds.has(page.parentId)))
          .sort((a, b) => b.archivedAt!.localeCompare(a.archivedAt!))
        return { items: roots.map(pageSummary) }
      })
  }),
  operation({
    operationId: "emptyWikiSpaceTrash",
    method: "DELETE",
    path: "/v1/spaces/{spaceId}/trash",
    summary: "Delete every archived page of the space for good (space admin)",
    auth: "both",
    scopes: ["wiki:write"],
    params: SpaceParams,
    responses: {
      200: {
        description: "What was deleted",
        schema: Schema.Struct({ deletedPageIds: Schema.Array(Id) }).annotate({ identifier: "WikiDeletedPages" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* spaceAccess(caller, params.spaceId, "admin")
        const removed = yield* (yield* ActorSystem).ask(WikiSpace, params.spaceId, "emptyTrash", { by: caller.userId })
        yield* disposeRemoved(removed)
        return { deletedPageIds: removed.pageIds }
      })
  }),
  operation({
    operationId: "listRecentWikiPages",
    method: "GET",
    path: "/v1/spaces/{spaceId}/recent",
    summary: "Recently changed pages of a space, newest first",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Pages", schema: PageList } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceAccess(caller, params.spaceId)
        const pages = (yield* pagesVisibleIn(caller, access))
          .map(({ page }) => page)
          .filter((page) => page.archivedAt === null)
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
        return { items: pages.slice(0, query.limit ?? 20).map(pageSummary) }
      })
  })
]
