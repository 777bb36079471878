/**
 * feedback tag "Board Resource", part 5 (1 of 29): live updates of a board.
 * A board's changes travel on the same WebSocket stream as pm's (ticket,
 * raw socket or Socket.IO); this hands out a ticket and the frame that
 * follows the board: `{"type":"subscribe","scope":"board","id":<boardId>}`.
 * Events arrive as `{seq, type, scope: "board", entityId: <boardId>, data:
 * {entityId: <the request, comment…>, …}}` (request.created, request.voted,
 * request.status_changed, request.merged, comment.created, board.updated …).
 */
import { Effect } from "effect"
import { tagGroup } from "../Operation.ts"
import { ScopedStreamTicket, scopedStreamTicket } from "../StreamTickets.ts"
import { BoardParams } from "./BoardAsk.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { boardLiveExamples } from "./BoardLive.examples.ts"

const BoardStreamTicket = ScopedStreamTicket("board", "FeedbackBoardStreamTicket")

const { operation } = tagGroup(service, "Board Resource", boardLiveExamples)

export const boardLiveOperations = [
  operation({
    operationId: "createBoardStreamTicket",
    method: "POST",
    path: "/v1/boards/{boardId}/stream-ticket",
    summary: "A ticket to follow the board's changes live on the WebSocket stream (scope board)",
    auth: "both",
    scopes: ["feedback:read", "events:subscribe"],
    params: BoardParams,
    responses: { 201: { description: "Ticket", schema: BoardStreamTicket } },
    handler: ({ params }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId), (caller) =>
        scopedStreamTicket(context, caller.view.board.workspaceId, "board", params.boardId)
      )
  })
]
