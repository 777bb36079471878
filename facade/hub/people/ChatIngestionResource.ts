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
import { tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { chatIngestionResourceExamples } from "./ChatIngestionResource.examples.ts"

const Messages = Schema.Array(ChatMessageInput).check(Schema.isMaxLength(MAX_MESSAGES_PER_REQUEST))
const DocumentParams = Schema.Struct({ workspaceId: Id, documentId: Id })
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

const cursorOf = (summary: { readonly updatedAt: string; readonly id: string }) =>
  Buffer.from(`${summary.updatedAt}|${summary.id}`).toString("base64url")
const parseCursor = (cursor: string) => {
  const [updatedAt, id] = Buffer.from(cursor, "base64url").toString().split("|")
  return updatedAt !== undefined && id !== undefined && !Number.isNaN(Date.parse(updatedAt)) ? { updatedAt, id } : undefined
}

const { operation } = tagGroup("hub", "Chat Ingestion Resource", chatIngestionResourceExamples)

export const chatIngestionResourceOperations = [
  operation({
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
    operationId: "getChatDocument",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/chat-documents/{documentId}",
    summary: "One ingested conversation with its messages in time order",
    auth: "both",
    scopes: ["chat-ingestion:read"],
    params: DocumentParams,
    responses: { 200: { description: "The conversation", schema: ChatDocument } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        // Known to the library first (404 from memory), then its messages from SQL.
        yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "summary", { documentId: params.documentId })
        return yield* Effect.catchTag(documentWithMessages(params.workspaceId, params.documentId), "SqlError", Effect.die)
      })
  }),
  operation({
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
    operationId: "deleteChatDocument",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/chat-documents/{documentId}",
    summary: "Remove an ingested conversation and its messages from the workspace's knowledge",
    auth: "both",
    scopes: ["chat-ingestion:write"],
    params: DocumentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        yield* (yield* ActorSystem).ask(ChatLibrary, params.workspaceId, "delete", { documentId: params.documentId })
      })
  })
]
