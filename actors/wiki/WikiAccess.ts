/**
 * Resolves what a caller may do with a wiki workspace, space or page, from
 * the persisted rows (so the collab endpoint, which runs beside the actors,
 * asks the same rules as the REST operations). Anything the caller may not
 * see is "not found", exactly like something that does not exist; seeing
 * without the needed role is "forbidden".
 */
import { Effect } from "effect"
import type { Principal } from "../../facade/Principal.ts"
import { reject } from "../../runtime/Rejection.ts"
import { atLeast, type Role } from "../identity/Workspace.ts"
import {
  ancestorsOf,
  pageById,
  type PageRow,
  pagePermissionsOf,
  pagesOfSpace,
  spaceById,
  spaceByKey,
  spacePermissions,
  spacePermissionsOf,
  type SpaceRow,
  spacesOfWorkspace,
  workspaceRoleOf
} from "./WikiQueries.ts"
import {
  capByScopes,
  type PageRight,
  pageRightOf,
  rightAtLeast,
  type SpaceRole,
  spaceRoleAtLeast,
  spaceRoleOf
} from "./WikiRoles.ts"

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
    : Effect.orDie(workspaceRoleOf(workspaceId, caller.userId))

/** The caller's workspace role, failing 404 when they may not see the workspace and 403 below `minimum`. */
export const workspaceAccess = (caller: WikiCaller, workspaceId: string, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const role = yield* callerWorkspaceRole(caller, workspaceId)
    if (role === undefined) return yield* reject("not_found", "No such workspace")
    if (!atLeast(role, minimum)) return yield* reject("forbidden", `Requires the ${minimum} role in this workspace`)
    return role
  })

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

/** The caller's role in a space, `undefined` when they may not see it. */
export const roleInSpace = (caller: WikiCaller, space: SpaceRow) =>
  Effect.gen(function* () {
    const workspaceRole = yield* callerWorkspaceRole(caller, space.workspaceId)
    if (workspaceRole === undefined) return undefined
    const entries = yield* Effect.orDie(spacePermissions(space.id))
    const role = spaceRoleOf({ userId: caller.userId, workspaceRole, visibility: space.visibility, entries })
    return role === undefined ? undefined : { role, workspaceRole }
  })

const checkSpace = (caller: WikiCaller, space: SpaceRow | undefined, need: SpaceRole) =>
  Effect.gen(function* () {
    if (space === undefined) return yield* reject("not_found", "No such space")
    const access = yield* roleInSpace(caller, space)
    if (access === undefined) return yield* reject("not_found", "No such space")
    if (!spaceRoleAtLeast(access.role, need)) return yield* reject("forbidden", spaceNeed[need])
    return { space, role: access.role, workspaceRole: access.workspaceRole } satisfies SpaceAccess
  })

export const spaceAccess = (caller: WikiCaller, spaceId: string, need: SpaceRole = "viewer") =>
  Effect.flatMap(Effect.orDie(spaceById(spaceId)), (space) => checkSpace(caller, space, need))

export const spaceAccessByKey = (caller: WikiCaller, workspaceId: string, key: string, need: SpaceRole = "viewer") =>
  Effect.gen(function* () {
    yield* workspaceAccess(caller, workspaceId)
    const space = yield* Effect.orDie(spaceByKey(workspaceId, key))
    return yield* checkSpace(caller, space, need)
  })

/** Spaces of the workspace the caller may see, with their role in each. */
export const visibleSpaces = (caller: WikiCaller, workspaceId: string) =>
  Effect.gen(function* () {
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
}

/** The caller's right on one page given their space access: restrictions of the page and its ancestors apply. */
export const rightOnPage = (caller: WikiCaller, access: SpaceAccess, page: PageRow) =>
  Effect.gen(function* () {
    const ancestors = yield* Effect.orDie(ancestorsOf(page.id))
    const restricted = [page, ...ancestors].filter((node) => node.restriction !== "open")
    const entries = yield* Effect.orDie(pagePermissionsOf(restricted.map((node) => node.id)))
    return pageRightOf({
      userId: caller.userId,
      workspaceRole: access.workspaceRole,
      spaceRole: access.role,
      chain: restricted.map((node) => ({ restriction: node.restriction, entries: entries.get(node.id) ?? [] }))
    })
  })

/** The page if the caller may `need` it: 404 when they may not see it, 403 when they may only read. */
export const pageAccess = (caller: WikiCaller, pageId: string, need: "read" | "edit" = "read") =>
  Effect.gen(function* () {
    const page = yield* Effect.orDie(pageById(pageId))
    if (page === undefined) return yield* reject("not_found", "No such page")
    const space = yield* Effect.orDie(spaceById(page.spaceId))
    if (space === undefined) return yield* reject("not_found", "No such page")
    const access = yield* roleInSpace(caller, space)
    if (access === undefined) return yield* reject("not_found", "No such page")
    const right = yield* rightOnPage(caller, { space, ...access }, page)
    if (right === "none") return yield* reject("not_found", "No such page")
    if (!rightAtLeast(right, need)) return yield* reject("forbidden", "You may read this page but not change it")
    return { page, space, spaceRole: access.role, workspaceRole: access.workspaceRole, right } satisfies PageAccess
  })

/**
 * Rights on many pages of one space at once (listings, trees): each page's
 * right narrowed by every restriction above it.
 */
export const rightsInSpace = (caller: WikiCaller, access: SpaceAccess, pages: ReadonlyArray<PageRow>) =>
  Effect.gen(function* () {
    const restricted = pages.filter((page) => page.restriction !== "open")
    const entries = yield* Effect.orDie(pagePermissionsOf(restricted.map((page) => page.id)))
    const byId = new Map(pages.map((page) => [page.id, page] as const))
    const rights = new Map<string, PageRight>()
    const rightOf = (page: PageRow, depth = 0): PageRight => {
      const known = rights.get(page.id)
      if (known !== undefined) return known
      const parent = page.parentId === null ? undefined : byId.get(page.parentId)
      const above: PageRight = parent === undefined || depth > 1000 ? (access.role === "viewer" ? "read" : "edit") : rightOf(parent, depth + 1)
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
  Effect.gen(function* () {
    const page = yield* Effect.orDie(pageById(pageId))
    if (page === undefined) return "none" as PageRight
    const space = yield* Effect.orDie(spaceById(page.spaceId))
    if (space === undefined) return "none" as PageRight
    const access = yield* roleInSpace(caller, space)
    if (access === undefined) return "none" as PageRight
    let right = yield* rightOnPage(caller, { space, ...access }, page)
    if (right === "edit" && (space.archivedAt !== null || page.archivedAt !== null)) right = "read"
    return capByScopes(right, caller.scopes)
  })

/** Pages of the space the caller may see (archived ones too), each with the caller's right. */
export const pagesVisibleIn = (caller: WikiCaller, access: SpaceAccess) =>
  Effect.gen(function* () {
    const pages = yield* Effect.orDie(pagesOfSpace(access.space.id))
    const rights = yield* rightsInSpace(caller, access, pages)
    return pages.flatMap((page) => {
      const right = rights.get(page.id) ?? "none"
      return right === "none" ? [] : [{ page, right }]
    })
  })
