/**
 * Tickets for the live-update stream, as the operations hand them out: the
 * ticket, the raw WebSocket URL carrying it, the Socket.IO connection, and —
 * for a ticket that follows one thing (a board, a wiki space) — the subscribe
 * frame to send once the socket is open. One shape for every service's
 * ticket operation; the tickets themselves are `streams/WebSocketTickets.ts`.
 */
import { Effect, Schema } from "effect"
import { Timestamp } from "../actors/Fields.ts"
import { SOCKET_IO_PATH } from "../streams/SocketIoStreams.ts"
import { RAW_SOCKET_PATH } from "../streams/StreamSocket.ts"
import { issueTicket } from "../streams/WebSocketTickets.ts"
import { principalOf } from "./Access.ts"
import type { RequestContext } from "./Operation.ts"

const TicketString = Schema.String.annotate({ description: "Single use; valid for 30 seconds" })
const TicketUrl = Schema.String.annotate({ description: "The raw WebSocket URL, ticket included" })
const SocketIoConnection = Schema.Struct({ url: Schema.String, path: Schema.String, auth: Schema.Struct({ ticket: Schema.String }) })

/** The workspace-wide ticket's fields (the caller subscribes to scopes itself). */
export const streamTicketFields = { ticket: TicketString, url: TicketUrl, socketIo: SocketIoConnection, expiresAt: Timestamp }

/** A ticket that follows one `scope` (e.g. `board`), named `identifier` in the OpenAPI documents. */
export const ScopedStreamTicket = <Scope extends string>(scope: Scope, identifier: string) =>
  Schema.Struct({
    ticket: TicketString,
    url: TicketUrl,
    socketIo: SocketIoConnection,
    subscribe: Schema.Struct({ type: Schema.Literal("subscribe"), scope: Schema.Literal(scope), id: Schema.String }).annotate({
      description: "Send this frame once the socket is open (add lastSeq to resume)"
    }),
    expiresAt: Timestamp
  }).annotate({ identifier })

/** Issues a ticket for the caller in `workspaceId` (bound to its API key when it calls with one). */
export const streamTicket = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const { ticket, expiresAt } = yield* issueTicket({
      userId: principal.userId,
      workspaceId,
      apiKeyId: principal.kind === "apiKey" ? principal.keyId : null
    }).pipe(Effect.orDie)
    return {
      ticket,
      url: `${context.origin.replace(/^http/, "ws")}${RAW_SOCKET_PATH}?ticket=${ticket}`,
      socketIo: { url: context.origin, path: SOCKET_IO_PATH, auth: { ticket } },
      expiresAt
    }
  })

/** Issues a ticket and the frame that follows `scope`/`id` with it. */
export const scopedStreamTicket = <Scope extends string>(context: RequestContext, workspaceId: string, scope: Scope, id: string) =>
  Effect.map(streamTicket(context, workspaceId), (issued) => ({
    ...issued,
    subscribe: { type: "subscribe" as const, scope, id }
  }))

const exampleTicket = "wst_3q2-7wY0bXJ0aWNrZXQtZXhhbXBsZS1ub3QtcmVhbC0xMjM"

/** The examples' ticket (a scoped one when `follows` is given). */
export const exampleStreamTicket = (follows?: { readonly scope: string; readonly id: string }) => ({
  ticket: exampleTicket,
  url: `ws://localhost:8080${RAW_SOCKET_PATH}?ticket=${exampleTicket}`,
  socketIo: { url: "http://localhost:8080", path: SOCKET_IO_PATH, auth: { ticket: exampleTicket } },
  ...(follows ? { subscribe: { type: "subscribe", ...follows } } : {}),
  expiresAt: "2026-11-21T12:00:30.000Z"
})
