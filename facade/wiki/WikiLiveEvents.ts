/**
 * wiki tag "Wiki Live Events" (1, beyond the seed's tags): a ticket to follow a
 * space's changes (its page tree and comments) on the live-update stream, the
 * one the web app's wiki uses to update the tree for everyone at once.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { callerOf, spaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { ScopedStreamTicket, scopedStreamTicket } from "../StreamTickets.ts"
import { wikiLiveEventsExamples } from "./WikiLiveEvents.examples.ts"

const SpaceStreamTicket = ScopedStreamTicket("wikiSpace", "WikiSpaceStreamTicket")

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
        return yield* scopedStreamTicket(context, access.space.workspaceId, "wikiSpace", params.spaceId)
      })
  })
]
