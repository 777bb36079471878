/**
 * Resolves what a caller may do with a wiki workspace, space or page (so the
 * collab endpoint, which runs beside the actors, asks the same rules as the
 * REST operations). Checks of one space or page come from memory: the
 * caller's workspace role from the Workspace actor, the space and its entries
 * from the WikiSpace actor, the page with its entries and its ancestors'
 * restrictions from the WikiPage actor; no SQL once they are warm. Listings
 * (many pages or spaces at once) read their rows in one query each.
 *
 * Anything the caller may not see is "not found", exactly like something
 * that does not exist; seeing without the needed role is "forbidden".
 */
import { Effect } from "effect"
import type { Principal } from "../identity/Principal.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { ActorError } from "../../runtime/ActorError.ts"
import { reject } from "../../runtime/Rejection.ts"
import { atLeast, type Role } from "../identity/Workspace.ts"
import type { AncestorNode, PageModel } from "./PageModel.ts"
import type { SpaceModel } from "./SpaceModel.ts"
import { WikiPage } from "./WikiPage.ts"
import {
  type PagePermissionRow,
  type PageRow,
  pagePermissionsOf,
  pagesOfSpace,
  spaceByKey,
  spacePermissionsOf,
  type SpacePermissionRow,
  type SpaceRow,
  spacesOfWorkspace
} from "./WikiQueries.ts"
import { capByScopes, type PageRight, pageRightOf, rightAtLeast, type SpaceRole, spaceRoleAtLeast, spaceRoleOf } from "./WikiRoles.ts"
import { WikiSpace } from "./WikiSpace.ts"
import type { WikiPageNotFound, WikiSpaceNotFound } from "./WikiErrors.ts"
import { workspaceRoleOf } from "./WorkspaceRole.ts"

/** The acting user, and for an API key the one workspace it may see and its scopes. */
export interface WikiCaller {
  readonly userId: string
  readonly keyWorkspaceId?: string
  readonly scopes?: ReadonlyArray<string>
}

export const callerOf = (principal: Principal): WikiCaller =>
  principal.kind === "apiKey"
    ? { userId: principal.userId, keyWorkspaceId: principal.workspaceId, scopes: principal.scopes }
    : { userId: principal.userId }

/** The caller's workspace role, `undefined` when they may not see the workspace. */
export const callerWorkspaceRole = (caller: WikiCaller, workspaceId: string) =>
  caller.keyWorkspaceId !== undefined && caller.keyWorkspaceId !== workspaceId
    ? Effect.succeed(undefined)
    : workspaceRoleOf(workspaceId, caller.userId)

/** The caller's workspace role, failing 404 when they may not see the workspace and 403 below `minimum`. */
export const workspaceAccess = Effect.fnUntraced(function* (caller: WikiCaller, workspaceId: string, minimum: Role = "viewer") {
  const role = yield* callerWorkspaceRole(caller, workspaceId)
  if (role === undefined) return yield* reject("not_found", "No such workspace")
  if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
  return role
})

/** A model from its actor's memory; `undefined` when there is no such space or page. */
const modelOf = <A>(ask: Effect.Effect<A, WikiSpaceNotFound | WikiPageNotFound | ActorError, ActorSystem>) =>
  ask.pipe(
    Effect.catchTag(["WikiSpaceNotFound", "WikiPageNotFound"], () => Effect.succeed(undefined)),
    // An actor that cannot answer leaves the request undecided: a failure, never an answer.
    Effect.orDie
  )

export const spaceModel = (spaceId: string): Effect.Effect<SpaceModel | undefined, never, ActorSystem> =>
  modelOf(ActorSystem.use((system) => system.ask(WikiSpace, spaceId, "view", {})))

export const pageModel = (pageId: string): Effect.Effect<PageModel | undefined, never, ActorSystem> =>
  modelOf(ActorSystem.use((system) => system.ask(WikiPage, pageId, "view", {})))

export interface SpaceAccess {
  readonly space: SpaceRow
  readonly role: SpaceRole
  readonly workspaceRole: Role
}

const spaceNeed: Record<SpaceRole, string> = {
  viewer: "Requires access to this space",
  editor: "Requires the editor role in this space",
  admin: "Requires the admin role in this space"
}

/** The caller's role in the space its model describes, `undefined` when they may not see it. */
const roleInModel = (caller: WikiCaller, model: SpaceModel) =>
  Effect.map(callerWorkspaceRole(caller, model.space.workspaceId), (workspaceRole) => {
    if (workspaceRole === undefined) return undefined
    const role = spaceRoleOf({ userId: caller.userId, workspaceRole, visibility: model.space.visibility, entries: model.entries })
    return role === undefined ? undefined : { role, workspaceRole }
  })

/** The caller's role in a space, `undefined` when they may not see it. */
export const roleInSpace = (caller: WikiCaller, space: SpaceRow) =>
  Effect.flatMap(spaceModel(space.id), (model) => (model === undefined ? Effect.succeed(undefined) : roleInModel(caller, model)))

const checkSpace = Effect.fnUntraced(function* (caller: WikiCaller, model: SpaceModel | undefined, need: SpaceRole) {
  if (model === undefined) return yield* reject("not_found", "No such space")
  const access = yield* roleInModel(caller, model)
  if (access === undefined) return yield* reject("not_found", "No such space")
  if (!spaceRoleAtLeast(access.role, need)) return yield* reject("forbidden", spaceNeed[need])
  return { space: model.space, entries: model.entries, role: access.role, workspaceRole: access.workspaceRole } satisfies SpaceAccess & {
    readonly entries: ReadonlyArray<SpacePermissionRow>
  }
})

/** The space (with its permission entries) if the caller has at least `need` in it. */
export const spaceAccess = (caller: WikiCaller, spaceId: string, need: SpaceRole = "viewer") =>
  Effect.flatMap(spaceModel(spaceId), (model) => checkSpace(caller, model, need))

export const spaceAccessByKey = Effect.fnUntraced(function* (
  caller: WikiCaller,
  workspaceId: string,
  key: string,
  need: SpaceRole = "viewer"
) {
  yield* workspaceAccess(caller, workspaceId)
  const space = yield* Effect.orDie(spaceByKey(workspaceId, key))
  return yield* checkSpace(caller, space === undefined ? undefined : yield* spaceModel(space.id), need)
})

/** Spaces of the workspace the caller may see, with their role in each. */
export const visibleSpaces = Effect.fnUntraced(function* (caller: WikiCaller, workspaceId: string) {
  const workspaceRole = yield* workspaceAccess(caller, workspaceId)
  const spaces = yield* Effect.orDie(spacesOfWorkspace(workspaceId))
  const entries = yield* Effect.orDie(spacePermissionsOf(spaces.map((s) => s.id)))
  return spaces.flatMap((space) => {
    const role = spaceRoleOf({ userId: caller.userId, workspaceRole, visibility: space.visibility, entries: entries.get(space.id) ?? [] })
    return role === undefined ? [] : [{ space, role, workspaceRole } satisfies SpaceAccess]
  })
})

export interface PageAccess {
  readonly page: PageRow
  readonly space: SpaceRow
  readonly spaceRole: SpaceRole
  readonly workspaceRole: Role
  /** "edit" or "read" (a caller with "none" never gets a PageAccess). */
  readonly right: PageRight
  /** The page's own permission entries. */
  readonly entries: ReadonlyArray<PagePermissionRow>
  /** Its ancestors, nearest first, with their restrictions. */
  readonly ancestors: ReadonlyArray<AncestorNode>
}

/** The caller's right on a page given their space access: restrictions of the page and its ancestors apply. */
const rightInModel = (caller: WikiCaller, access: { readonly role: SpaceRole; readonly workspaceRole: Role }, model: PageModel) =>
  pageRightOf({
    userId: caller.userId,
    workspaceRole: access.workspaceRole,
    spaceRole: access.role,
    chain: [{ restriction: model.page.restriction, entries: model.entries }, ...model.ancestors]
  })

/** The page, its space and the caller's right on it; `undefined` when the caller may not see it. */
const pageSeenBy = Effect.fnUntraced(function* (caller: WikiCaller, pageId: string) {
  const model = yield* pageModel(pageId)
  if (model === undefined) return undefined
  const space = yield* spaceModel(model.page.spaceId)
  if (space === undefined) return undefined
  const access = yield* roleInModel(caller, space)
  if (access === undefined) return undefined
  const right = rightInModel(caller, access, model)
  if (right === "none") return undefined
  return {
    page: model.page,
    space: space.space,
    spaceRole: access.role,
    workspaceRole: access.workspaceRole,
    right,
    entries: model.entries,
    ancestors: model.ancestors
  } satisfies PageAccess
})

/** The page if the caller may `need` it: 404 when they may not see it, 403 when they may only read. */
export const pageAccess = Effect.fnUntraced(function* (caller: WikiCaller, pageId: string, need: "read" | "edit" = "read") {
  const access = yield* pageSeenBy(caller, pageId)
  if (access === undefined) return yield* reject("not_found", "No such page")
  if (!rightAtLeast(access.right, need)) return yield* reject("forbidden", "You may read this page but not change it")
  return access
})

/**
 * Rights on many pages of one space at once (listings, trees): each page's
 * right narrowed by every restriction above it.
 */
export const rightsInSpace = Effect.fnUntraced(function* (caller: WikiCaller, access: SpaceAccess, pages: ReadonlyArray<PageRow>) {
  const restricted = pages.filter((page) => page.restriction !== "open")
  const entries = yield* Effect.orDie(pagePermissionsOf(restricted.map((page) => page.id)))
  const byId = new Map(pages.map((page) => [page.id, page] as const))
  const rights = new Map<string, PageRight>()
  const rightOf = (page: PageRow, depth = 0): PageRight => {
    const known = rights.get(page.id)
    if (known !== undefined) return known
    const parent = page.parentId === null ? undefined : byId.get(page.parentId)
    const above: PageRight =
      parent === undefined || depth > 1000 ? (access.role === "viewer" ? "read" : "edit") : rightOf(parent, depth + 1)
    const own = pageRightOf({
      userId: caller.userId,
      workspaceRole: access.workspaceRole,
      spaceRole: access.role,
      chain: page.restriction === "open" ? [] : [{ restriction: page.restriction, entries: entries.get(page.id) ?? [] }]
    })
    const right: PageRight = above === "none" || own === "none" ? "none" : above === "read" || own === "read" ? "read" : "edit"
    rights.set(page.id, right)
    return right
  }
  for (const page of pages) rightOf(page)
  return rights
})

/** Conflict when the space or page is archived: restore it before changing it. */
export const ensureActive = (space: SpaceRow, page?: PageRow) => {
  if (space.archivedAt !== null) return Effect.fail(reject("conflict", "The space is archived; restore it first"))
  if (page !== undefined && page.archivedAt !== null) return Effect.fail(reject("conflict", "The page is archived; restore it first"))
  return Effect.void
}

/**
 * The right on a page's live document (for the collab endpoint): pages of
 * an archived space or archived pages are read-only; API keys are capped by
 * their scopes.
 */
export const documentRightOf = (caller: WikiCaller, pageId: string) =>
  Effect.map(pageSeenBy(caller, pageId), (access): PageRight => {
    if (access === undefined) return "none"
    const right = access.right === "edit" && (access.space.archivedAt !== null || access.page.archivedAt !== null) ? "read" : access.right
    return capByScopes(right, caller.scopes)
  })

/** Pages of the space the caller may see (archived ones too), each with the caller's right. */
export const pagesVisibleIn = Effect.fnUntraced(function* (caller: WikiCaller, access: SpaceAccess) {
  const pages = yield* Effect.orDie(pagesOfSpace(access.space.id))
  const rights = yield* rightsInSpace(caller, access, pages)
  return pages.flatMap((page) => {
    const right = rights.get(page.id) ?? "none"
    return right === "none" ? [] : [{ page, right }]
  })
})
