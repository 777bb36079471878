/**
 * hub tag "Chat Ingestion Resource" (5): chat conversations from third-party
 * apps (team chat, meeting chat, e-mail threads…) ingested into the
 * workspace's knowledge, where the assistant finds them. Ingesting the same
 * (source, externalId) again replaces the conversation; appending skips
 * messages already stored. Members write, viewers read.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import {
  ChatDocument,
  ChatDocumentSummary,
  ChatMessageInput,
  ChatSource,
  documentWithMessages,
  MAX_MESSAGES_PER_REQUEST
} from "../../../actors/hub/chat/ChatDocuments.ts"
import { ChatLibrary } from "../../../actors/hub/chat/ChatLibrary.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { operation } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"

const service = "hub"
const tag = "Chat Ingestion Resource"

const Messages = Schema.Array(ChatMessageInput).check(Schema.isMaxLength(MAX_MESSAGES_PER_REQUEST))
const DocumentParams = Schema.Struct({ workspaceId: Id, documentId: Id })
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

const exampleWorkspaceId = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"
const exampleDocumentId = "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9e"
const exampleMessages = [
  {
    externalId: "1732190400.000100",
    author: "Alice",
    authorEmail: "alice@example.com",
    sentAt: "2026-11-21T12:00:00.000Z",
    text: "Can we ship the beta on Friday?"
  },
  {
    externalId: "1732190460.000200",
    author: "Bob",
    authorEmail: "bob@example.com",
    sentAt: "2026-11-21T12:01:00.000Z",
    text: "Yes, I'll cut the release Thursday night."
  }
]
const exampleSummary = {
  id: exampleDocumentId,
  workspaceId: exampleWorkspaceId,
  source: "chatapp",
  externalId: "C024BE91L",
  channel: "#release",
  title: "Beta release thread",
  url: "https://chat.example.com/archives/C024BE91L/p1732190400000100",
  ingestedBy: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  messageCount: 2,
  firstMessageAt: "2026-11-21T12:00:00.000Z",
  lastMessageAt: "2026-11-21T12:01:00.000Z",
  createdAt: "2026-11-21T12:05:00.000Z",
  updatedAt: "2026-11-21T12:05:00.000Z"
}
const exampleDocument = { ...exampleSummary, messages: exampleMessages.map((m, i) => ({ position: i + 1, ...m })) }

const cursorOf = (summary: { readonly updatedAt: string; readonly id: string }) =>
  Buffer.from(`${summary.updatedAt}|${summary.id}`).toString("base64url")
const parseCursor = (cursor: string) => {
  const [updatedAt, id] = Buffer.from(cursor, "base64url").toString().split("|")
  return updatedAt !== undefined && id !== undefined && !Number.isNaN(Date.parse(updatedAt)) ? { updatedAt, id } : undefined
}

export const chatIngestionResourceOperations = [
  operation({
    service,
    tag,
    operationId: "createChatDocument",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/chat-documents",
    summary: "Ingest a chat conversation (a channel's thread, a meeting chat, an e-mail thread) into the workspace's knowledge",
    description: `Ingesting the same source and externalId again replaces the conversation's messages (201 either way; \`created\` says which). At most ${MAX_MESSAGES_PER_REQUEST} messages per request.`,
    auth: "both",
    scopes: ["chat-ingestion:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      source: ChatSource,
      externalId: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      title: Name(300),
      channel: Schema.optionalKey(Schema.NullOr(Text(200))),
      url: Schema.optionalKey(Schema.NullOr(Text(2000))),
      messages: Messages
    }),
    responses: {
      201: { description: "The conversation", schema: Schema.Struct({ ...ChatDocumentSummary.fields, created: Schema.Boolean }) }
    },
    examples: [
      {
        name: "thread",
        request: {
          params: { workspaceId: exampleWorkspaceId },
          body: {
            source: "chatapp",
            externalId: "C024BE91L",
            title: exampleSummary.title,
            channel: "#release",
            url: exampleSummary.url,
            messages: exampleMessages
          }
        },
        response: { status: 201, body: { ...exampleSummary, created: true } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const { summary, created } = yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "ingest", {
          source: body.source,
          externalId: body.externalId,
          title: body.title,
          channel: body.channel ?? null,
          url: body.url ?? null,
          by: context.principal!.userId,
          messages: body.messages
        })
        return { ...summary, created }
      })
  }),
  operation({
    service,
    tag,
    operationId: "listChatDocuments",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/chat-documents",
    summary: "The workspace's ingested conversations, most recently changed first; filter by source or channel, page with cursor",
    auth: "both",
    scopes: ["chat-ingestion:read"],
    params: WorkspaceParams,
    query: Schema.Struct({
      source: Schema.optionalKey(ChatSource),
      channel: Schema.optionalKey(Text(200)),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))),
      cursor: Schema.optionalKey(Text(300))
    }),
    responses: {
      200: {
        description: "One page",
        schema: Schema.Struct({ items: Schema.Array(ChatDocumentSummary), nextCursor: Schema.NullOr(Schema.String) })
      }
    },
    examples: [
      {
        name: "list",
        request: { params: { workspaceId: exampleWorkspaceId }, query: { source: "chatapp" } },
        response: { status: 200, body: { items: [exampleSummary], nextCursor: null } }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const after = query.cursor === undefined ? undefined : parseCursor(query.cursor)
        if (query.cursor !== undefined && after === undefined)
          return yield* reject("invalid", "Not a cursor of this list", [{ path: "query.cursor", message: "malformed" }])
        const limit = query.limit ?? 50
        const { items, more } = yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "list", {
          limit,
          ...(query.source !== undefined ? { source: query.source } : {}),
          ...(query.channel !== undefined ? { channel: query.channel } : {}),
          ...(after !== undefined ? { after } : {})
        })
        return { items, nextCursor: more ? cursorOf(items[items.length - 1]!) : null }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getChatDocument",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/chat-documents/{documentId}",
    summary: "One ingested conversation with its messages in time order",
    auth: "both",
    scopes: ["chat-ingestion:read"],
    params: DocumentParams,
    responses: { 200: { description: "The conversation", schema: ChatDocument } },
    examples: [
      {
        name: "get",
        request: { params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId } },
        response: { status: 200, body: exampleDocument }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        // Known to the library first (404 from memory), then its messages from SQL.
        yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "summary", { documentId: params.documentId })
        return yield* Effect.catchTag(documentWithMessages(params.workspaceId, params.documentId), "SqlError", Effect.die)
      })
  }),
  operation({
    service,
    tag,
    operationId: "appendChatMessages",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/chat-documents/{documentId}/messages",
    summary: "Add new messages to an ingested conversation (messages whose externalId is stored already are skipped)",
    auth: "both",
    scopes: ["chat-ingestion:write"],
    params: DocumentParams,
    body: Schema.Struct({ messages: Messages.check(Schema.isMinLength(1)) }),
    responses: {
      200: {
        description: "The conversation and how many messages were added",
        schema: Schema.Struct({ ...ChatDocumentSummary.fields, added: Schema.Number })
      }
    },
    examples: [
      {
        name: "append",
        request: {
          params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId },
          body: {
            messages: [{ externalId: "1732190520.000300", author: "Alice", sentAt: "2026-11-21T12:02:00.000Z", text: "Great, thanks!" }]
          }
        },
        response: { status: 200, body: { ...exampleSummary, messageCount: 3, lastMessageAt: "2026-11-21T12:02:00.000Z", added: 1 } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const { summary, added } = yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "append", {
          documentId: params.documentId,
          messages: body.messages
        })
        return { ...summary, added }
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteChatDocument",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/chat-documents/{documentId}",
    summary: "Remove an ingested conversation and its messages from the workspace's knowledge",
    auth: "both",
    scopes: ["chat-ingestion:write"],
    params: DocumentParams,
    responses: { 204: { description: "Deleted" } },
    examples: [
      { name: "delete", request: { params: { workspaceId: exampleWorkspaceId, documentId: exampleDocumentId } }, response: { status: 204 } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "delete", { documentId: params.documentId })
      })
  })
]
