/**
 * A feedback board as a scope of the live stream (`{"scope":"board","id"}`):
 * who may follow it is who may see the board — workspace members for public
 * and members boards, workspace admins and the board's members for private
 * ones — and anyone else is told it does not exist. Board events are filed
 * as private (`privateSpace`), so a workspace subscription carries them only
 * for workspace admins.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { atLeast } from "../identity/Workspace.ts"
import type { ScopeTarget, Viewer } from "../pm/Viewer.ts"
import { Board } from "./Board.ts"

export const boardScope = (viewer: Viewer, boardId: string) =>
  Effect.gen(function* () {
    const notFound = reject("not_found", "No such board in this workspace")
    const view = yield* Board.client(yield* ActorSystem)(boardId)
      .view({})
      .pipe(Effect.mapError(() => notFound))
    if (view.board.workspaceId !== viewer.workspaceId) return yield* notFound
    const member = view.members.some((m) => m.userId === viewer.userId)
    if (view.board.visibility === "private" && !member && !atLeast(viewer.role, "admin")) return yield* notFound
    return { scope: "board", id: boardId, privateSpace: true } satisfies ScopeTarget
  })
