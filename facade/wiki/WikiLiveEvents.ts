/**
 * wiki tag "Wiki Live Events" (1, beyond the seed's tags): a ticket to follow a
 * space's changes (its page tree and comments) on the live-update stream, the
 * one the web app's wiki uses to update the tree for everyone at once.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { callerOf, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { SOCKET_IO_PATH } from "../../streams/SocketIoStreams.ts"
import { RAW_SOCKET_PATH } from "../../streams/StreamSocket.ts"
import { issueTicket } from "../../streams/WebSocketTickets.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { wikiLiveEventsExamples } from "./WikiLiveEvents.examples.ts"

const SpaceStreamTicket = Schema.Struct({
  ticket: Schema.String.annotate({ description: "Single use; valid for 30 seconds" }),
  url: Schema.String.annotate({ description: "The raw WebSocket URL, ticket included" }),
  socketIo: Schema.Struct({ url: Schema.String, path: Schema.String, auth: Schema.Struct({ ticket: Schema.String }) }),
  subscribe: Schema.Struct({ type: Schema.Literal("subscribe"), scope: Schema.Literal("wikiSpace"), id: Schema.String }).annotate({
    description: "Send this frame once the socket is open (add lastSeq to resume)"
  }),
  expiresAt: Timestamp
}).annotate({ identifier: "WikiSpaceStreamTicket" })

const { operation } = tagGroup("wiki", "Wiki Live Events", wikiLiveEventsExamples)

export const wikiLiveEventsOperations = [
  operation({
    operationId: "createWikiSpaceStreamTicket",
    method: "POST",
    path: "/v1/spaces/{spaceId}/stream-ticket",
    summary: "A ticket to follow a space's changes live on the WebSocket stream (scope wikiSpace)",
    description:
      "The space's changes travel on the pm live-update stream (raw WebSocket or Socket.IO, same ticket rules). Subscribe with " +
      '`{"type":"subscribe","scope":"wikiSpace","id":<spaceId>}`. Events arrive as `{seq, type, scope: "wikiSpace", entityId: <spaceId>, ' +
      "data: {pageId, …}}`: page.created, page.moved, page.updated (title or icon), page.archived, page.restored, page.deleted, " +
      "comment.created, comment.updated, comment.deleted, comment.resolved, comment.reopened. They carry ids only: read the page " +
      "or the tree to see what changed, as your page rights allow.",
    auth: "both",
    scopes: ["wiki:read", "events:subscribe"],
    params: Schema.Struct({ spaceId: Id }),
    responses: {
      201: { description: "Ticket", schema: SpaceStreamTicket },
      404: { description: "No such space, or not readable by the caller" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        const access = yield* spaceAccess(callerOf(principal), params.spaceId)
        const { ticket, expiresAt } = yield* issueTicket({
          userId: principal.userId,
          workspaceId: access.space.workspaceId,
          apiKeyId: principal.kind === "apiKey" ? principal.keyId : null
        }).pipe(Effect.orDie)
        return {
          ticket,
          url: `${context.origin.replace(/^http/, "ws")}${RAW_SOCKET_PATH}?ticket=${ticket}`,
          socketIo: { url: context.origin, path: SOCKET_IO_PATH, auth: { ticket } },
          subscribe: { type: "subscribe" as const, scope: "wikiSpace" as const, id: params.spaceId },
          expiresAt
        }
      })
  })
]
