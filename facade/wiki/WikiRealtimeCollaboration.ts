/**
 * wiki tag "Wiki Real-time Collaboration" (2): how to join the live editing
 * of pages, and who is in a page's session now. Following a space's changes
 * (its tree and comments) is WikiLiveEvents.ts.
 *
 * The endpoint itself is `GET {wiki}/v1/collab` upgraded to a WebSocket
 * (Hocuspocus protocol: Yjs sync and awareness), served by the collab
 * extension on the same path; a plain GET there (no upgrade) is
 * `getWikiCollabInfo` and describes the protocol, URL, document naming and
 * authentication.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"

import { callerOf, documentRightOf, pageAccess } from "../../actors/wiki/WikiAccess.ts"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { CollabServer } from "../../collab/LiveDocumentsLive.ts"

import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { wikiRealtimeCollaborationExamples, closeCodes } from "./WikiRealtimeCollaboration.examples.ts"

const Right = Schema.Literals(["edit", "read", "none"]).annotate({
  description:
    "edit: changes are applied and broadcast; read: the document syncs but changes are refused; none: the connection is refused (4403)"
})

const CollabInfo = Schema.Struct({
  protocol: Schema.Literal("hocuspocus"),
  description: Schema.String,
  url: Schema.String.annotate({ description: "WebSocket URL to give the Hocuspocus provider" }),
  documentName: Schema.String.annotate({ description: "How documents are named" }),
  fragment: Schema.String.annotate({ description: "The Y.XmlFragment the editor binds to (Tiptap Collaboration default)" }),
  authentication: Schema.String,
  closeCodes: Schema.Record(Schema.String, Schema.String),
  limits: Schema.Struct({
    maxMessageBytes: Schema.NullOr(Schema.Number),
    idleSeconds: Schema.NullOr(Schema.Number)
  }),
  page: Schema.NullOr(Schema.Struct({ pageId: Schema.String, right: Right })).annotate({
    description: "The caller's right on `pageId`, when asked"
  })
}).annotate({ identifier: "WikiCollabInfo" })

const Editor = Schema.Struct({
  userId: Schema.String,
  name: Schema.String,
  since: Schema.String.annotate({ description: "When they opened the page" })
}).annotate({ identifier: "WikiCollabEditor" })

const wsUrl = (context: RequestContext) => `${context.origin.replace(/^http/, "ws")}/wiki/v1/collab`

const { operation } = tagGroup("wiki", "Wiki Real-time Collaboration", wikiRealtimeCollaborationExamples)

export const wikiRealtimeCollaborationOperations = [
  operation({
    operationId: "getWikiCollabInfo",
    method: "GET",
    path: "/v1/collab",
    summary: "How to connect to live editing (a plain GET on the collab WebSocket endpoint)",
    description:
      "Upgrade this same URL to a WebSocket to edit pages live with a Hocuspocus provider (Yjs). This plain GET describes the protocol, URL, " +
      "document naming, authentication and close codes; with `pageId` it also tells which right the caller's token would get on that page.",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ pageId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Connection details", schema: CollabInfo } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        const server = yield* Effect.serviceOption(CollabServer)
        const options = server._tag === "Some" ? server.value.options : undefined
        const right = query.pageId === undefined ? undefined : yield* documentRightOf(caller, query.pageId)
        return {
          protocol: "hocuspocus" as const,
          description: "Hocuspocus v2 over WebSocket: Yjs sync and awareness per document; the content is a ProseMirror (Tiptap) document",
          url: wsUrl(context),
          documentName: "The page id: connect one provider per page (its `name` is the page id)",
          fragment: "default",
          authentication:
            "Pass an access token (from POST /pm/v1/auth/login) or an API key as the provider's `token`. " +
            "API keys need wiki:read to follow a page and wiki:write to edit it; the caller's page rights apply (restricted and archived pages are read-only or refused).",
          closeCodes,
          limits: { maxMessageBytes: options?.maxMessageBytes ?? null, idleSeconds: options?.idleSeconds ?? null },
          page: query.pageId === undefined ? null : { pageId: query.pageId, right: right! }
        }
      })
  }),
  operation({
    operationId: "getWikiPageCollabSession",
    method: "GET",
    path: "/v1/collab/pages/{pageId}",
    summary: "A page's live editing session: who has it open now, and how the caller joins",
    description:
      "Everyone connected to the page's document across the cluster (from the live server), with the caller's right and the document name to connect with.",
    auth: "both",
    scopes: ["wiki:read"],
    params: Schema.Struct({ pageId: Id }),
    responses: {
      200: {
        description: "The session",
        schema: Schema.Struct({
          pageId: Schema.String,
          url: Schema.String,
          documentName: Schema.String,
          right: Right,
          editors: Schema.Array(Editor),
          active: Schema.Boolean.annotate({ description: "Someone has the page open" })
        }).annotate({ identifier: "WikiCollabSession" })
      },
      404: { description: "No such page, or not readable by the caller" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = callerOf(yield* principalOf(context))
        yield* pageAccess(caller, params.pageId)
        const right = yield* documentRightOf(caller, params.pageId)
        const editors = yield* (yield* LiveDocuments).editors(params.pageId)
        return { pageId: params.pageId, url: wsUrl(context), documentName: params.pageId, right, editors, active: editors.length > 0 }
      })
  })
]
