/**
 * Lens threads and their answered turns, in SQL: a thread belongs to one
 * user in one workspace; each turn keeps the message, the query it was
 * resolved to (so a follow-up can be resolved against it), the answer with
 * its citations and trace, and the proposals of an agent-loop answer.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"
import { type EngineAnswer, Trace } from "./Engine.ts"
import { Citation } from "./Synthesis.ts"

export const Turn = Schema.Struct({
  answerId: Id,
  message: Schema.String,
  answer: Schema.String,
  citations: Schema.Array(Citation),
  trace: Trace,
  followUps: Schema.Array(Schema.String),
  createdAt: Timestamp
}).annotate({ identifier: "LensTurn" })
export type Turn = typeof Turn.Type

export const Thread = Schema.Struct({
  id: Id,
  workspaceId: Id,
  title: Schema.String,
  turns: Schema.Array(Turn),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "LensThread" })
export type Thread = typeof Thread.Type

interface ThreadRow {
  id: string
  workspaceId: string
  userId: string
  title: string
  createdAt: string
  updatedAt: string
}

const THREAD_COLUMNS = `id, workspace_id AS "workspaceId", user_id AS "userId", title, ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

/** The caller's thread: 404 when it does not exist, 403 when it is another user's. */
export const ownThread = (threadId: string, userId: string) =>
  Effect.gen(function* () {
    const [row] = yield* query<ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM lens_threads WHERE id = $1`, [threadId])
    if (row === undefined)
      return yield* reject("not_found", "No such Lens thread", [{ path: "body.threadId", message: "unknown thread id" }])
    if (row.userId !== userId)
      return yield* reject("forbidden", "This Lens thread belongs to another user", [
        { path: "body.threadId", message: "another user's thread" }
      ])
    return row
  })

export const lastResolvedQuery = (threadId: string) =>
  Effect.map(
    query<{ resolved_query: string }>("SELECT resolved_query FROM lens_turns WHERE thread_id = $1 ORDER BY position DESC LIMIT 1", [
      threadId
    ]),
    (rows) => rows[0]?.resolved_query
  )

export interface NewTurn {
  readonly threadId: string
  readonly isNewThread: boolean
  readonly workspaceId: string
  readonly userId: string
  readonly answerId: string
  readonly message: string
  readonly resolvedQuery: string
  readonly result: EngineAnswer
  readonly variant: string | null
}

/** Stores the turn (and the thread when new); run inside the caller's transaction. */
export const storeTurn = (turn: NewTurn) =>
  Effect.gen(function* () {
    if (turn.isNewThread) {
      yield* query("INSERT INTO lens_threads (id, workspace_id, user_id, title) VALUES ($1, $2, $3, $4)", [
        turn.threadId,
        turn.workspaceId,
        turn.userId,
        turn.message.slice(0, 120)
      ])
    } else {
      yield* query("UPDATE lens_threads SET updated_at = now() WHERE id = $1", [turn.threadId])
    }
    yield* query(
      `INSERT INTO lens_turns (id, thread_id, position, message, resolved_query, answer, route, citations, trace, follow_ups, variant)
       VALUES ($1, $2, (SELECT coalesce(max(position), 0) + 1 FROM lens_turns WHERE thread_id = $2), $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        turn.answerId,
        turn.threadId,
        turn.message,
        turn.resolvedQuery,
        turn.result.answer,
        turn.result.trace.route,
        turn.result.citations,
        turn.result.trace,
        turn.result.followUps,
        turn.variant
      ]
    )
  })

export const threadWithTurns = (threadId: string, userId: string) =>
  Effect.gen(function* () {
    const row = yield* ownThread(threadId, userId)
    const turns = yield* query<Turn>(
      `SELECT id AS "answerId", message, answer, citations, trace, follow_ups AS "followUps", ${isoTimestampSql("created_at")} AS "createdAt"
         FROM lens_turns WHERE thread_id = $1 ORDER BY position`,
      [threadId]
    )
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      title: row.title,
      turns,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt
    } satisfies Thread
  })

/** The answer `answerId` with its thread's owner and workspace (feedback, proposals). */
export const answerOwner = (answerId: string) =>
  Effect.gen(function* () {
    const [row] = yield* query<{ userId: string; workspaceId: string; variant: string | null }>(
      `SELECT t.user_id AS "userId", t.workspace_id AS "workspaceId", u.variant FROM lens_turns u JOIN lens_threads t ON t.id = u.thread_id WHERE u.id = $1`,
      [answerId]
    )
    if (row === undefined) return yield* reject("not_found", "No such Lens answer")
    return row
  })
