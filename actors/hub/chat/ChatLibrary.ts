/**
 * A workspace's ingested chat conversations as an actor: one `hubChatLibrary`
 * per workspace, rebuilt from `hub_chat_documents` on activation, serving
 * the list from memory and the single writer of the workspace's documents
 * (messages are written and read in SQL by `ChatDocuments.ts`).
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { ChatDocumentFull, ChatDocumentNotFound, ChatDuplicateMessage } from "../HubErrors.ts"
import { Id } from "../../Fields.ts"
import {
  appendMessages,
  ChatDocumentSummary,
  ChatMessageInput,
  ChatSource,
  deleteDocument,
  ingestDocument,
  summariesOf
} from "./ChatDocuments.ts"

const Summaries = Schema.Array(ChatDocumentSummary)
type Summaries = typeof Summaries.Type

/** Most recently changed first (the list order), ties by id. */
const newestFirst = (a: ChatDocumentSummary, b: ChatDocumentSummary) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)

const upsert = (docs: Summaries, next: ChatDocumentSummary): Summaries =>
  [next, ...docs.filter((doc) => doc.id !== next.id)].sort(newestFirst)

export const ChatLibrary = Actor<Summaries>()({
  kind: "hubChatLibrary",
  state: Summaries,
  initial: () => [],
  rebuild: (workspaceId) => Effect.map(summariesOf(workspaceId), (docs) => [...docs].sort(newestFirst)),
  messages: {
    /** One page, newest-changed first; `after` is the last (updatedAt, id) of the previous page. */
    list: {
      payload: Schema.Struct({
        source: Schema.optionalKey(ChatSource),
        channel: Schema.optionalKey(Schema.String),
        limit: Schema.Number,
        after: Schema.optionalKey(Schema.Struct({ updatedAt: Schema.String, id: Schema.String }))
      }),
      success: Schema.Struct({ items: Summaries, more: Schema.Boolean }),
      error: Schema.Never
    },
    summary: { payload: Schema.Struct({ documentId: Id }), success: ChatDocumentSummary, error: ChatDocumentNotFound },
    ingest: {
      payload: Schema.Struct({
        source: ChatSource,
        externalId: Schema.String,
        channel: Schema.NullOr(Schema.String),
        title: Schema.String,
        url: Schema.NullOr(Schema.String),
        by: Id,
        messages: Schema.Array(ChatMessageInput)
      }),
      success: Schema.Struct({ summary: ChatDocumentSummary, created: Schema.Boolean }),
      error: ChatDuplicateMessage
    },
    append: {
      payload: Schema.Struct({ documentId: Id, messages: Schema.Array(ChatMessageInput) }),
      success: Schema.Struct({ summary: ChatDocumentSummary, added: Schema.Number }),
      error: Schema.Union([ChatDocumentNotFound, ChatDuplicateMessage, ChatDocumentFull])
    },
    delete: { payload: Schema.Struct({ documentId: Id }), success: Schema.Struct({}), error: ChatDocumentNotFound }
  },
  handlers: {
    list: ({ source, channel, limit, after }, ctx) =>
      Effect.sync(() => {
        const matching = ctx.state.filter(
          (doc) =>
            (source === undefined || doc.source === source) &&
            (channel === undefined || doc.channel === channel) &&
            (after === undefined || doc.updatedAt < after.updatedAt || (doc.updatedAt === after.updatedAt && doc.id < after.id))
        )
        return { items: matching.slice(0, limit), more: matching.length > limit }
      }),
    summary: ({ documentId }, ctx) => {
      const doc = ctx.state.find((candidate) => candidate.id === documentId)
      return doc === undefined ? Effect.fail(new ChatDocumentNotFound()) : Effect.succeed(doc)
    },
    ingest: (input, ctx) =>
      Effect.gen(function* () {
        const result = yield* Effect.catchTag(ingestDocument({ workspaceId: ctx.address.id, ...input }), "SqlError", Effect.die)
        ctx.setState(upsert(ctx.state, result.summary))
        return result
      }),
    append: ({ documentId, messages }, ctx) =>
      Effect.gen(function* () {
        if (!ctx.state.some((doc) => doc.id === documentId)) return yield* new ChatDocumentNotFound()
        const result = yield* Effect.catchTag(appendMessages(ctx.address.id, documentId, messages), "SqlError", Effect.die)
        ctx.setState(upsert(ctx.state, result.summary))
        return result
      }),
    delete: ({ documentId }, ctx) =>
      Effect.gen(function* () {
        if (!(yield* Effect.orDie(deleteDocument(ctx.address.id, documentId)))) return yield* new ChatDocumentNotFound()
        ctx.setState(ctx.state.filter((doc) => doc.id !== documentId))
        return {}
      })
  }
})
