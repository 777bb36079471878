/**
 * What a workspace member may see of the change log: a space, list or task of
 * their workspace (anything elsewhere is "not found"), private spaces only as
 * a member of them or as a workspace admin. Shared by the live streams and
 * the activity log, so both answer the same question the same way.
 */
import { Effect } from "effect"
import { atLeast } from "../identity/Workspace.ts"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { ChangeScope } from "./ChangeLog.ts"
import { locateList, locateSpace, locateTask } from "./Locate.ts"
import { boardScope } from "../feedback/BoardStream.ts"
import { wikiSpaceScope } from "../wiki/WikiSpaceStream.ts"
import type { ScopeTarget, Viewer } from "./Viewer.ts"

export type { ScopeTarget, Viewer } from "./Viewer.ts"

const notFound = (scope: ChangeScope) => reject("not_found", `No such ${scope} in this workspace`)

/** Private spaces the viewer belongs to, or "all" for workspace admins. */
export const visiblePrivateSpaces = (viewer: Viewer) =>
  atLeast(viewer.role, "admin")
    ? Effect.succeed<ReadonlyArray<string> | "all">("all")
    : Effect.map(
        query<{ id: string }>(
          `SELECT s.id FROM pm_spaces s JOIN pm_space_members m ON m.space_id = s.id
          WHERE s.workspace_id = $1 AND s.is_private AND m.user_id = $2`,
          [viewer.workspaceId, viewer.userId]
        ),
        (rows): ReadonlyArray<string> | "all" => rows.map((row) => row.id)
      )

const maySeeSpace = (viewer: Viewer, spaceId: string, isPrivate: boolean) =>
  !isPrivate || atLeast(viewer.role, "admin")
    ? Effect.succeed(true)
    : Effect.map(
        query<{ one: number }>("SELECT 1 AS one FROM pm_space_members WHERE space_id = $1 AND user_id = $2", [spaceId, viewer.userId]),
        (rows) => rows.length > 0
      )

/** The scope `id` names, if the viewer may see it; otherwise `not_found` (as if it did not exist). */
export const resolveScope = (viewer: Viewer, scope: ChangeScope, id: string) =>
  Effect.gen(function* () {
    if (scope === "workspace") {
      if (id !== viewer.workspaceId) return yield* notFound(scope)
      return { scope, id, privateSpace: false } satisfies ScopeTarget
    }
    if (scope === "board") return yield* boardScope(viewer, id)
    if (scope === "wikiSpace") return yield* wikiSpaceScope(viewer, id)
    const located = yield* (scope === "space" ? locateSpace(id) : scope === "list" ? locateList(id) : locateTask(id)).pipe(
      Effect.catchTag("PlaceNotFound", () => Effect.fail(notFound(scope)))
    )
    if (located.workspaceId !== viewer.workspaceId) return yield* notFound(scope)
    if (!(yield* maySeeSpace(viewer, located.spaceId, located.isPrivate))) return yield* notFound(scope)
    return {
      scope,
      id,
      spaceId: located.spaceId,
      ...(located.listId !== null ? { listId: located.listId } : {}),
      privateSpace: located.isPrivate
    } satisfies ScopeTarget
  })
