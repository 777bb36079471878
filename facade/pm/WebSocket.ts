/** pm tag "WebSocket" (1): tickets for the live-update streams (raw WebSocket and Socket.IO). */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { SOCKET_IO_PATH } from "../../streams/SocketIoStreams.ts"
import { RAW_SOCKET_PATH } from "../../streams/StreamSocket.ts"
import { TICKET_TTL_SECONDS } from "../../streams/WebSocketTickets.ts"
import { workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { streamTicket, streamTicketFields } from "../StreamTickets.ts"
import { webSocketExamples } from "./WebSocket.examples.ts"

const WebSocketTicket = Schema.Struct({
  ...streamTicketFields,
  socketIo: streamTicketFields.socketIo.annotate({ description: "How to connect with Socket.IO instead: io(url, { path, auth })" })
}).annotate({ identifier: "WebSocketTicket" })

const { operation } = tagGroup("pm", "WebSocket", webSocketExamples)

export const webSocketOperations = [
  operation({
    operationId: "createWebSocketTicket",
    method: "POST",
    path: "/v1/ws/ticket",
    summary: "Get a single-use ticket to open a live-update stream for a workspace",
    description:
      `The ticket is bound to the caller and the workspace, is valid for ${TICKET_TTL_SECONDS} seconds and works once, on any node. ` +
      `Open \`${RAW_SOCKET_PATH}?ticket=…\` (JSON frames) or Socket.IO at path \`${SOCKET_IO_PATH}\` with \`auth: {ticket}\`. ` +
      `Then subscribe: \`{"type":"subscribe","scope":"workspace"|"space"|"list"|"task","id":"…","lastSeq"?:n}\` ` +
      `(Socket.IO: \`emit("subscribe", {scope, id, lastSeq})\`). Events arrive as \`{seq, type, workspaceId, scope, entityId, path, data, actorId, at}\`; ` +
      `\`seq\` increases without gaps per workspace — reconnect with the last one seen as \`lastSeq\` to get what was missed, or a ` +
      `\`{"type":"resync"}\` notice when the log no longer has it. A used or expired ticket is refused with close code 4401. ` +
      `Add \`&batch=1\` (Socket.IO: \`auth: {ticket, batch: true}\`) to also accept \`{"type":"batch","frames":[…]}\`: several frames, ` +
      `in order, sent together while the workspace is busy.`,
    auth: "both",
    scopes: ["events:subscribe"],
    body: Schema.Struct({ workspaceId: Id }),
    responses: {
      201: { description: "Ticket issued", schema: WebSocketTicket },
      404: { description: "No such workspace (or not the caller's)" }
    },
    handler: ({ body }, context) => Effect.andThen(workspaceRole(context, body.workspaceId), streamTicket(context, body.workspaceId))
  })
]
