/**
 * Who may do what on a feedback board. The caller's workspace role comes from
 * the identity Workspace actor, the board (visibility, settings, its members)
 * from the Board actor's memory: no SQL when both are warm.
 *
 * - see: public and members boards — the workspace's members (viewers
 *   included: customers invited to the workspace) and the board's members;
 *   private boards — workspace admins and the board's members. Anyone else
 *   gets 404 (visitors of a public board use the public operations, without
 *   credentials). An API key acts only in its own workspace.
 * - team: workspace members from the member role up, and board members; they
 *   see internal notes and pending posts, vote for customers, and skip
 *   moderation.
 * - admin: workspace owners/admins and board admins; they configure the board,
 *   change statuses, merge, triage.
 * - post / vote: as the board's settings say (whoMayPost, whoMayVote).
 */
import { Effect } from "effect"
import { atLeast, type Role, Workspace } from "../../actors/identity/Workspace.ts"
import type { BoardView } from "../../actors/feedback/Board.ts"
import { boardIdOfRequest } from "../../actors/feedback/BoardRows.ts"
import type { RequestRecord } from "../../actors/feedback/FeedbackModel.ts"
import { visibleTo } from "../../actors/feedback/BoardReads.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { principalOf } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"
import { board } from "./BoardAsk.ts"

export type BoardNeed = "see" | "post" | "vote" | "team" | "admin"

export interface BoardCaller {
  readonly userId: string
  readonly role: Role | null
  readonly view: BoardView
  readonly team: boolean
  readonly admin: boolean
}

const noBoard = reject("not_found", "No such board")

/** The caller's workspace role, or null when they are not a member. */
export const roleIn = (userId: string, workspaceId: string) =>
  Effect.flatMap(ActorSystem, (system) =>
    Workspace.client(system)(workspaceId)
      .roleOf({ userId })
      .pipe(
        Effect.map((role): Role | null => role),
        Effect.catchTag(["WorkspaceNotFound", "WorkspaceSuspended"], () => Effect.succeed(null))
      )
  )

export const callerOn = Effect.fnUntraced(function* (context: RequestContext, view: BoardView) {
  const principal = yield* principalOf(context)
  if (principal.kind === "apiKey" && principal.workspaceId !== view.board.workspaceId) return yield* noBoard
  const role = yield* roleIn(principal.userId, view.board.workspaceId)
  const boardRole = view.members.find((m) => m.userId === principal.userId)?.role ?? null
  const admin = (role !== null && atLeast(role, "admin")) || boardRole === "admin"
  const team = (role !== null && atLeast(role, "member")) || boardRole !== null
  const visible = view.board.visibility === "private" ? admin || boardRole !== null : role !== null || boardRole !== null
  if (!visible) return yield* noBoard
  return { userId: principal.userId, role, view, team, admin } satisfies BoardCaller
})

const allowed = (caller: BoardCaller, need: BoardNeed): string | undefined => {
  const { settings } = caller.view.board
  switch (need) {
    case "see":
      return undefined
    case "team":
      return caller.team ? undefined : "Only the board's team may do this"
    case "admin":
      return caller.admin ? undefined : "Only admins of this board may do this"
    case "post":
      return settings.whoMayPost === "anyone" || (settings.whoMayPost === "members" ? caller.team : caller.admin)
        ? undefined
        : `Only ${settings.whoMayPost === "members" ? "workspace members" : "board admins"} may post on this board`
    case "vote":
      return settings.whoMayVote === "anyone" || caller.team ? undefined : "Only workspace members may vote on this board"
  }
}

/** The board and the caller's standing on it, failing 404 when they may not see it and 403 without `need`. */
export const boardAccess = Effect.fnUntraced(function* (context: RequestContext, boardId: string, need: BoardNeed = "see") {
  const view = yield* board(boardId).view({})
  const caller = yield* callerOn(context, view)
  const refusal = allowed(caller, need)
  if (refusal !== undefined) return yield* reject("forbidden", refusal)
  return caller
})

/** A feature request and the caller's standing on its board (404 when they may not see either). */
export const requestAccess = Effect.fnUntraced(function* (context: RequestContext, requestId: string, need: BoardNeed = "see") {
  const boardId = yield* Effect.orDie(boardIdOfRequest(requestId))
  if (boardId === undefined) return yield* reject("not_found", "No such feature request")
  const caller = yield* boardAccess(context, boardId, need).pipe(
    Effect.catchIf(
      (e) => refusalCode(e) === "not_found",
      () => Effect.fail(reject("not_found", "No such feature request"))
    )
  )
  const request: RequestRecord = yield* board(boardId).request({ requestId })
  if (!visibleTo(request, caller.userId, caller.team)) return yield* reject("not_found", "No such feature request")
  return { caller, request, boardId }
})
