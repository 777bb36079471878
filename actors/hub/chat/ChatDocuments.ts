/**
 * Chat conversations from third-party apps ingested into a workspace's
 * knowledge (`hub_chat_documents`, `hub_chat_messages`): the rows' queries,
 * written only through the workspace's `hubChatLibrary` actor. A document is keyed by (source, external id):
 * ingesting it again replaces its messages; appending skips messages whose
 * external id is already stored, so a connector can resend safely. Every
 * change runs in one transaction.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query, Sql } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { ChatDocumentFull, ChatDocumentNotFound, ChatDuplicateMessage } from "../HubErrors.ts"
import { Email, Id, Timestamp } from "../../Fields.ts"
import { Instant } from "../calendar/CalendarEvent.ts"

export const MAX_MESSAGES_PER_DOCUMENT = 50_000
export const MAX_MESSAGES_PER_REQUEST = 5_000

export const ChatSource = Schema.Literals(["chatapp", "workchat", "videomeet", "suite", "email", "other"]).annotate({
  description:
    "The app the conversation comes from: chatapp (team chat), workchat (team meeting chat), videomeet, suite (office suite), email, other"
})

export const ChatMessageInput = Schema.Struct({
  externalId: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  author: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  authorEmail: Schema.optionalKey(Schema.NullOr(Email)),
  sentAt: Instant,
  text: Schema.String.check(Schema.isMaxLength(40_000))
})
export type ChatMessageInput = typeof ChatMessageInput.Type

export const ChatMessage = Schema.Struct({
  position: Schema.Number,
  externalId: Schema.NullOr(Schema.String),
  author: Schema.String,
  authorEmail: Schema.NullOr(Schema.String),
  sentAt: Timestamp,
  text: Schema.String
}).annotate({ identifier: "ChatMessage" })

export const ChatDocumentSummary = Schema.Struct({
  id: Id,
  workspaceId: Id,
  source: ChatSource,
  externalId: Schema.String,
  channel: Schema.NullOr(Schema.String),
  title: Schema.String,
  url: Schema.NullOr(Schema.String),
  ingestedBy: Id,
  messageCount: Schema.Number,
  firstMessageAt: Schema.NullOr(Timestamp),
  lastMessageAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "ChatDocumentSummary" })
export type ChatDocumentSummary = typeof ChatDocumentSummary.Type

export const ChatDocument = Schema.Struct({ ...ChatDocumentSummary.fields, messages: Schema.Array(ChatMessage) }).annotate({
  identifier: "ChatDocument"
})

const COLUMNS = `id, workspace_id AS "workspaceId", source, external_id AS "externalId", channel, title, url, ingested_by AS "ingestedBy",
  message_count AS "messageCount", first_message_at AS "firstMessageAt", last_message_at AS "lastMessageAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`

export interface NewDocument {
  readonly workspaceId: string
  readonly source: typeof ChatSource.Type
  readonly externalId: string
  readonly channel: string | null
  readonly title: string
  readonly url: string | null
  readonly by: string
  readonly messages: ReadonlyArray<ChatMessageInput>
}

/** Two messages of one request with the same external id: refused, naming the second. */
const duplicateIn = (messages: ReadonlyArray<ChatMessageInput>) => {
  const seen = new Set<string>()
  return messages.findIndex((m) => m.externalId !== undefined && (seen.has(m.externalId) || !seen.add(m.externalId)))
}

const checkMessages = (messages: ReadonlyArray<ChatMessageInput>) => {
  const duplicate = duplicateIn(messages)
  return duplicate >= 0 ? Effect.fail(new ChatDuplicateMessage({ index: duplicate })) : Effect.void
}

/** Inserts messages after `start`, in time order (ties keep the given order). */
const insertMessages = (documentId: string, start: number, messages: ReadonlyArray<ChatMessageInput>) => {
  if (messages.length === 0) return Effect.void
  const ordered = messages.map((m, i) => ({ m, i })).sort((a, b) => Date.parse(a.m.sentAt) - Date.parse(b.m.sentAt) || a.i - b.i)
  return Effect.asVoid(
    query(
      `INSERT INTO hub_chat_messages (document_id, position, external_id, author, author_email, sent_at, text)
       SELECT $1, m.position, m.external_id, m.author, m.author_email, m.sent_at::timestamptz, m.text
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS m(position, external_id, author, author_email, sent_at, text)`,
      [
        documentId,
        ordered.map((_, i) => start + i + 1),
        ordered.map(({ m }) => m.externalId ?? null),
        ordered.map(({ m }) => m.author),
        ordered.map(({ m }) => m.authorEmail ?? null),
        ordered.map(({ m }) => new Date(Date.parse(m.sentAt)).toISOString()),
        ordered.map(({ m }) => m.text)
      ]
    )
  )
}

const refreshCounts = (documentId: string) =>
  query(
    `UPDATE hub_chat_documents d SET message_count = s.n, first_message_at = s.first, last_message_at = s.last, updated_at = now()
       FROM (SELECT count(*) AS n, min(sent_at) AS first, max(sent_at) AS last FROM hub_chat_messages WHERE document_id = $1) AS s
      WHERE d.id = $1`,
    [documentId]
  )

export const summaryOf = (workspaceId: string, documentId: string) =>
  Effect.map(
    query<ChatDocumentSummary>(`SELECT ${COLUMNS} FROM hub_chat_documents WHERE workspace_id = $1 AND id = $2`, [workspaceId, documentId]),
    (rows) => rows[0]
  )

/** Ingests (or re-ingests, replacing the messages) a conversation; returns its summary and whether it was new. */
export const ingestDocument = (input: NewDocument) =>
  Effect.gen(function* () {
    yield* checkMessages(input.messages)
    const sql = yield* Sql
    return yield* sql.transaction(
      Effect.gen(function* () {
        const rows = yield* query<{ id: string; inserted: boolean }>(
          `INSERT INTO hub_chat_documents (id, workspace_id, source, external_id, channel, title, url, ingested_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (workspace_id, source, external_id) DO UPDATE
             SET channel = excluded.channel, title = excluded.title, url = excluded.url, ingested_by = excluded.ingested_by
           RETURNING id, (xmax = 0) AS inserted`,
          [randomUUID(), input.workspaceId, input.source, input.externalId, input.channel, input.title, input.url, input.by]
        )
        const { id, inserted } = rows[0]!
        yield* query("DELETE FROM hub_chat_messages WHERE document_id = $1", [id])
        yield* insertMessages(id, 0, input.messages)
        yield* refreshCounts(id)
        return { summary: (yield* summaryOf(input.workspaceId, id))!, created: inserted }
      })
    )
  })

/** Appends messages; ones whose external id is stored already are skipped. Returns the summary and how many were added. */
export const appendMessages = (workspaceId: string, documentId: string, messages: ReadonlyArray<ChatMessageInput>) =>
  Effect.gen(function* () {
    yield* checkMessages(messages)
    const sql = yield* Sql
    return yield* sql.transaction(
      Effect.gen(function* () {
        const locked = yield* query<{ id: string; message_count: number }>(
          "SELECT id, message_count FROM hub_chat_documents WHERE workspace_id = $1 AND id = $2 FOR UPDATE",
          [workspaceId, documentId]
        )
        if (locked[0] === undefined) return yield* new ChatDocumentNotFound()
        const ids = messages.flatMap((m) => (m.externalId === undefined ? [] : [m.externalId]))
        const known =
          ids.length === 0
            ? new Set<string>()
            : new Set(
                (yield* query<{ external_id: string }>(
                  "SELECT external_id FROM hub_chat_messages WHERE document_id = $1 AND external_id = ANY($2::text[])",
                  [documentId, ids]
                )).map((row) => row.external_id)
              )
        const fresh = messages.filter((m) => m.externalId === undefined || !known.has(m.externalId))
        if (Number(locked[0].message_count) + fresh.length > MAX_MESSAGES_PER_DOCUMENT)
          return yield* new ChatDocumentFull({ max: MAX_MESSAGES_PER_DOCUMENT })
        const last = yield* query<{ p: number | null }>("SELECT max(position) AS p FROM hub_chat_messages WHERE document_id = $1", [
          documentId
        ])
        yield* insertMessages(documentId, Number(last[0]?.p ?? 0), fresh)
        yield* refreshCounts(documentId)
        return { summary: (yield* summaryOf(workspaceId, documentId))!, added: fresh.length }
      })
    )
  })

export const documentWithMessages = (workspaceId: string, documentId: string) =>
  Effect.gen(function* () {
    const summary = yield* summaryOf(workspaceId, documentId)
    if (summary === undefined) return yield* reject("not_found", "No such chat document")
    const messages = yield* query<typeof ChatMessage.Type>(
      `SELECT position, external_id AS "externalId", author, author_email AS "authorEmail", ${isoTimestampSql("sent_at")} AS "sentAt", text
         FROM hub_chat_messages WHERE document_id = $1 ORDER BY position`,
      [documentId]
    )
    return { ...summary, messages }
  })

/** Every document of the workspace (the library actor's read model). */
export const summariesOf = (workspaceId: string) =>
  query<ChatDocumentSummary>(`SELECT ${COLUMNS} FROM hub_chat_documents WHERE workspace_id = $1`, [workspaceId])

export const deleteDocument = (workspaceId: string, documentId: string) =>
  Effect.map(
    query<{ id: string }>("DELETE FROM hub_chat_documents WHERE workspace_id = $1 AND id = $2 RETURNING id", [workspaceId, documentId]),
    (rows) => rows.length > 0
  )
