/**
 * feedback tag "Board Resource", part 5 (1 of 29): live updates of a board.
 * A board's changes travel on the same WebSocket stream as pm's (ticket,
 * raw socket or Socket.IO); this hands out a ticket and the frame that
 * follows the board: `{"type":"subscribe","scope":"board","id":<boardId>}`.
 * Events arrive as `{seq, type, scope: "board", entityId: <boardId>, data:
 * {entityId: <the request, comment…>, …}}` (request.created, request.voted,
 * request.status_changed, request.merged, comment.created, board.updated …).
 */
import { Effect, Schema } from "effect"
import { Timestamp } from "../../actors/Fields.ts"
import { SOCKET_IO_PATH } from "../../streams/SocketIoStreams.ts"
import { RAW_SOCKET_PATH } from "../../streams/StreamSocket.ts"
import { issueTicket } from "../../streams/WebSocketTickets.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { BoardParams } from "./BoardAsk.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { boardLiveExamples } from "./BoardLive.examples.ts"

const BoardStreamTicket = Schema.Struct({
  ticket: Schema.String.annotate({ description: "Single use; valid for 30 seconds" }),
  url: Schema.String.annotate({ description: "The raw WebSocket URL, ticket included" }),
  socketIo: Schema.Struct({ url: Schema.String, path: Schema.String, auth: Schema.Struct({ ticket: Schema.String }) }),
  subscribe: Schema.Struct({ type: Schema.Literal("subscribe"), scope: Schema.Literal("board"), id: Schema.String }).annotate({
    description: "Send this frame once the socket is open (add lastSeq to resume)"
  }),
  expiresAt: Timestamp
}).annotate({ identifier: "FeedbackBoardStreamTicket" })

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
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        const principal = yield* principalOf(context)
        const { ticket, expiresAt } = yield* issueTicket({
          userId: caller.userId,
          workspaceId: caller.view.board.workspaceId,
          apiKeyId: principal.kind === "apiKey" ? principal.keyId : null
        }).pipe(Effect.orDie)
        return {
          ticket,
          url: `${context.origin.replace(/^http/, "ws")}${RAW_SOCKET_PATH}?ticket=${ticket}`,
          socketIo: { url: context.origin, path: SOCKET_IO_PATH, auth: { ticket } },
          subscribe: { type: "subscribe" as const, scope: "board" as const, id: params.boardId },
          expiresAt
        }
      })
  })
]
