/**
 * Who is asking, for pm's live-data operations (notifications, activity,
 * users, teams): the workspaces the caller may see (an API key: only its own)
 * and the caller as a Viewer of one workspace, with their role.
 */
import { Effect } from "effect"
import { workspacesOf } from "../../actors/identity/IdentityQueries.ts"
import type { Role } from "../../actors/identity/Workspace.ts"
import type { Viewer } from "../../actors/pm/Visibility.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"

/** Ids of the workspaces the caller is a member of (for an API key: its workspace, while its creator is a member). */
export const visibleWorkspaceIds = (context: RequestContext) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const ids = (yield* workspacesOf(principal.userId).pipe(Effect.orDie)).map((ws) => ws.id)
    return principal.kind === "apiKey" ? ids.filter((id) => id === principal.workspaceId) : ids
  })

/** The visible workspaces, narrowed to `workspaceId` when given (404 when that one is not visible). */
export const workspaceScope = (context: RequestContext, workspaceId: string | undefined) =>
  Effect.gen(function* () {
    const ids = yield* visibleWorkspaceIds(context)
    if (workspaceId === undefined) return ids
    if (!ids.includes(workspaceId)) return yield* reject("not_found", "No such workspace", [{ path: "workspaceId", message: "not found" }])
    return [workspaceId]
  })

/** The caller as a viewer of `workspaceId` (404 when not a member, 403 below `minimum`). */
export const viewerOf = (context: RequestContext, workspaceId: string, minimum: Role = "viewer") =>
  Effect.gen(function* () {
    const role = yield* workspaceRole(context, workspaceId, minimum)
    const principal = yield* principalOf(context)
    return { userId: principal.userId, workspaceId, role } satisfies Viewer
  })
