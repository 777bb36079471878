/**
 * The Lite operations' references: a space by its key, a page by its slug
 * or its title, instead of UUIDs. An API key knows its workspace; a user in
 * several workspaces names one only when the key alone is ambiguous.
 */
import { Effect } from "effect"
import { workspacesOf } from "../identity/IdentityQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { pagesVisibleIn, roleInSpace, type SpaceAccess, spaceAccessByKey, type WikiCaller } from "./WikiAccess.ts"
import { spaceByKey } from "./WikiQueries.ts"
import type { PageRow } from "./WikiRecords.ts"
import type { PageRight } from "./WikiRoles.ts"

/** The space with key `key`: in `workspaceId` when given, else in the caller's only workspace that has it. */
export const spaceByRef = (caller: WikiCaller, key: string, workspaceId: string | undefined) =>
  Effect.gen(function* () {
    const scope = workspaceId ?? caller.keyWorkspaceId
    if (scope !== undefined) {
      if (caller.keyWorkspaceId !== undefined && caller.keyWorkspaceId !== scope) return yield* reject("not_found", "No such workspace")
      return yield* spaceAccessByKey(caller, scope, key)
    }
    const workspaces = yield* Effect.orDie(workspacesOf(caller.userId))
    const candidates: Array<SpaceAccess> = []
    for (const workspace of workspaces) {
      const space = yield* Effect.orDie(spaceByKey(workspace.id, key))
      if (space === undefined) continue
      const access = yield* roleInSpace(caller, space)
      if (access !== undefined) candidates.push({ space, ...access })
    }
    if (candidates.length === 0) return yield* reject("not_found", `No space with key ${key.toUpperCase()}`)
    if (candidates.length > 1) {
      return yield* reject("invalid", `Several of your workspaces have a space ${key.toUpperCase()}; give workspaceId`, [
        { path: "query.workspaceId", message: "required: the key is ambiguous" }
      ])
    }
    return candidates[0]!
  })

export interface LivePages {
  readonly access: SpaceAccess
  readonly pages: ReadonlyArray<{ readonly page: PageRow; readonly right: PageRight }>
}

/** The space's pages the caller can see, not archived. */
export const livePages = (caller: WikiCaller, access: SpaceAccess) =>
  Effect.map(
    pagesVisibleIn(caller, access),
    (pages): LivePages => ({ access, pages: pages.filter(({ page }) => page.archivedAt === null) })
  )

/** A page by slug (exact) or else by title (case-insensitive); `field` names the reference in errors. */
export const pageByRef = (live: LivePages, ref: string, field: string) =>
  Effect.gen(function* () {
    const wanted = ref.trim().toLowerCase()
    const bySlug = live.pages.find(({ page }) => page.slug === wanted)
    if (bySlug !== undefined) return bySlug
    const byTitle = live.pages.filter(({ page }) => page.title.trim().toLowerCase() === wanted)
    if (byTitle.length === 1) return byTitle[0]!
    if (byTitle.length > 1) {
      return yield* reject(
        "conflict",
        `Several pages are titled "${ref}"; use a slug: ${byTitle.map(({ page }) => page.slug).join(", ")}`,
        [{ path: field, message: "ambiguous title" }]
      )
    }
    return yield* reject("not_found", `No page "${ref}" in space ${live.access.space.key}`, [
      { path: field, message: "no page with this slug or title" }
    ])
  })
