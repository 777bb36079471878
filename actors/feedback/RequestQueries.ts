/**
 * Reads of a request's history that the Board actor does not hold in memory:
 * status history, voters, subscribers, change-log entries, comments,
 * attachments, and a user's contributions on a board. Read-only; the actor
 * writes these rows.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { ATTACHMENT_COLUMNS, COMMENT_COLUMNS, toAttachment, toComment } from "./Discussion.ts"

export interface StatusChange {
  readonly id: string
  readonly fromStatusId: string | null
  readonly toStatusId: string | null
  readonly fromName: string | null
  readonly toName: string | null
  readonly note: string
  readonly changedBy: string
  readonly changedAt: string
}

export const statusHistory = (requestId: string) =>
  Effect.map(
    query<Record<string, any>>(
      "SELECT id, from_status_id, to_status_id, from_name, to_name, note, changed_by, changed_at FROM feedback_status_history WHERE request_id = $1 ORDER BY changed_at, id",
      [requestId]
    ),
    (rows): Array<StatusChange> =>
      rows.map((r) => ({
        id: r.id,
        fromStatusId: r.from_status_id,
        toStatusId: r.to_status_id,
        fromName: r.from_name,
        toName: r.to_name,
        note: r.note,
        changedBy: r.changed_by,
        changedAt: r.changed_at
      }))
  )

export interface VoteRow {
  readonly id: string
  readonly kind: "user" | "customer" | "anonymous"
  readonly userId: string | null
  readonly customerEmail: string | null
  readonly customerName: string | null
  readonly castBy: string | null
  readonly mergedFrom: string | null
  readonly createdAt: string
}

export const votersOf = (requestId: string, offset: number, limit: number) =>
  Effect.gen(function* () {
    const rows = yield* query<Record<string, any>>(
      `SELECT id, voter_key, user_id, customer_email, customer_name, cast_by, merged_from, created_at, count(*) OVER () AS total
         FROM feedback_votes WHERE request_id = $1 ORDER BY created_at, id OFFSET $2 LIMIT $3`,
      [requestId, offset, limit]
    )
    const items = rows.map(
      (r): VoteRow => ({
        id: r.id,
        kind: r.cast_by !== null ? "customer" : String(r.voter_key).startsWith("anon:") ? "anonymous" : "user",
        userId: r.user_id,
        customerEmail: r.customer_email,
        customerName: r.customer_name,
        castBy: r.cast_by,
        mergedFrom: r.merged_from,
        createdAt: r.created_at
      })
    )
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : Number((yield* query<{ n: number }>("SELECT count(*) AS n FROM feedback_votes WHERE request_id = $1", [requestId]))[0]!.n)
    return { items, total }
  })

/** The voters of a board with the most votes (customers by e-mail, users by id). */
export const topVoters = (boardId: string, limit: number) =>
  query<{ user_id: string | null; customer_email: string | null; customer_name: string | null; votes: number }>(
    `SELECT user_id, customer_email, max(customer_name) AS customer_name, count(*) AS votes FROM feedback_votes
      WHERE board_id = $1 AND (user_id IS NOT NULL OR customer_email IS NOT NULL)
      GROUP BY user_id, customer_email ORDER BY count(*) DESC, min(created_at) LIMIT $2`,
    [boardId, limit]
  ).pipe(
    Effect.map((rows) => rows.map((r) => ({ userId: r.user_id, email: r.customer_email, name: r.customer_name, votes: Number(r.votes) })))
  )

export const subscribersOf = (requestId: string) =>
  Effect.map(
    query<{ user_id: string; created_at: string }>(
      "SELECT user_id, created_at FROM feedback_subscribers WHERE request_id = $1 ORDER BY created_at, user_id",
      [requestId]
    ),
    (rows) => rows.map((r) => ({ userId: r.user_id, since: r.created_at }))
  )

export const isSubscribed = (requestId: string, userId: string) =>
  Effect.map(
    query("SELECT 1 FROM feedback_subscribers WHERE request_id = $1 AND user_id = $2", [requestId, userId]),
    (rows) => rows.length > 0
  )

export const isBoardSubscribed = (boardId: string, userId: string) =>
  Effect.map(
    query("SELECT 1 FROM feedback_board_subscribers WHERE board_id = $1 AND user_id = $2", [boardId, userId]),
    (rows) => rows.length > 0
  )

export interface EventRow {
  readonly seq: number
  readonly type: string
  readonly entityId: string
  readonly data: Record<string, unknown>
  readonly actorId: string
  readonly at: string
}

const toEvent = (r: Record<string, any>): EventRow => ({
  seq: Number(r.seq),
  type: r.type,
  entityId: r.entity_id,
  data: r.data,
  actorId: r.actor_id,
  at: r.at
})

/** Change-log entries of a board (newest first), before `beforeSeq` when given. */
export const boardEvents = (boardId: string, beforeSeq: number | undefined, limit: number) =>
  Effect.map(
    query<Record<string, any>>(
      "SELECT seq, type, entity_id, data, actor_id, at FROM feedback_events WHERE board_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3",
      [boardId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit]
    ),
    (rows) => rows.map(toEvent)
  )

/** Change-log entries about one request: its own and its comments', attachments' (newest first). */
export const requestEvents = (requestId: string, limit: number) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT seq, type, entity_id, data, actor_id, at FROM feedback_events
        WHERE entity_id = $1 OR data->>'requestId' = $1 OR data->>'intoId' = $1 ORDER BY seq DESC LIMIT $2`,
      [requestId, limit]
    ),
    (rows) => rows.map(toEvent)
  )

/** Comments of requests (a request and the duplicates merged into it), oldest first. */
export const commentsOf = (requestIds: ReadonlyArray<string>) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT ${COMMENT_COLUMNS} FROM feedback_comments WHERE request_id = ANY($1::text[]) ORDER BY created_at, id`,
      [[...requestIds]]
    ),
    (rows) => rows.map(toComment)
  )

export const attachmentsOf = (requestId: string) =>
  Effect.map(
    query<Record<string, any>>(`SELECT ${ATTACHMENT_COLUMNS} FROM feedback_attachments WHERE request_id = $1 ORDER BY created_at, id`, [
      requestId
    ]),
    (rows) => rows.map(toAttachment)
  )

export const attachmentById = (attachmentId: string) =>
  Effect.map(query<Record<string, any>>(`SELECT ${ATTACHMENT_COLUMNS} FROM feedback_attachments WHERE id = $1`, [attachmentId]), (rows) =>
    rows[0] === undefined ? undefined : toAttachment(rows[0])
  )

/** What a user did on a board: the requests they posted, voted on, commented on. */
export const contributionsOf = (boardId: string, userId: string) =>
  Effect.map(
    query<{ request_id: string; kind: string }>(
      `SELECT id AS request_id, 'posted' AS kind FROM feedback_requests WHERE board_id = $1 AND author_id = $2
       UNION SELECT request_id, 'voted' FROM feedback_votes WHERE board_id = $1 AND user_id = $2
       UNION SELECT request_id, 'commented' FROM feedback_comments WHERE board_id = $1 AND author_id = $2 AND deleted_at IS NULL`,
      [boardId, userId]
    ),
    (rows) => {
      const kinds = new Map<string, Set<string>>()
      for (const row of rows) kinds.set(row.request_id, (kinds.get(row.request_id) ?? new Set()).add(row.kind))
      return kinds
    }
  )

/** The user's notification preference for the board; absent rows mean instant. */
export const notificationModeOf = (boardId: string, userId: string) =>
  Effect.map(
    query<{ mode: "instant" | "digest" | "off"; updated_at: string }>(
      "SELECT mode, updated_at FROM feedback_notification_preferences WHERE board_id = $1 AND user_id = $2",
      [boardId, userId]
    ),
    (rows) => ({ mode: rows[0]?.mode ?? ("instant" as const), updatedAt: rows[0]?.updated_at ?? null })
  )
