/**
 * Lens threads as rows: a thread belongs to one user in one workspace; each
 * turn keeps the message, the query it was resolved to (so a follow-up can
 * be resolved against it), the answer with its citations and trace, the
 * experiment variant it ran under, and the proposals of an agent-loop answer.
 * The `LensThread` actor is their single writer; here are the schemas, the
 * load of one thread's aggregate and the lookups that find a thread.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"
import { Trace } from "./Engine.ts"
import { Proposal, PROPOSAL_COLUMNS } from "./Proposals.ts"
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

/** A turn as the thread actor holds it: with its resolved query and variant. */
export const StoredTurn = Schema.Struct({ ...Turn.fields, resolvedQuery: Schema.String, variant: Schema.NullOr(Schema.String) })
export type StoredTurn = typeof StoredTurn.Type

/** One thread's aggregate: the thread, its turns in order and its proposals. */
export const ThreadState = Schema.Struct({
  id: Id,
  workspaceId: Id,
  userId: Schema.String,
  title: Schema.String,
  turns: Schema.Array(StoredTurn),
  proposals: Schema.Array(Proposal),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type ThreadState = typeof ThreadState.Type

export const loadThread = (threadId: string) =>
  Effect.gen(function* () {
    const [row] = yield* query<Omit<ThreadState, "turns" | "proposals">>(
      `SELECT id, workspace_id AS "workspaceId", user_id AS "userId", title, ${isoTimestampSql("created_at")} AS "createdAt",
              ${isoTimestampSql("updated_at")} AS "updatedAt" FROM lens_threads WHERE id = $1`,
      [threadId]
    )
    if (row === undefined) return null
    const turns = yield* query<StoredTurn>(
      `SELECT id AS "answerId", message, answer, citations, trace, follow_ups AS "followUps", ${isoTimestampSql("created_at")} AS "createdAt",
              resolved_query AS "resolvedQuery", variant
         FROM lens_turns WHERE thread_id = $1 ORDER BY position`,
      [threadId]
    )
    const proposals = yield* query<Proposal>(
      `SELECT ${PROPOSAL_COLUMNS} FROM lens_proposals WHERE answer_id IN (SELECT id FROM lens_turns WHERE thread_id = $1)
        ORDER BY created_at, id`,
      [threadId]
    )
    return { ...row, turns, proposals } satisfies ThreadState
  })

/** The thread holding answer `answerId`, if any. */
export const threadOfAnswer = (answerId: string) =>
  Effect.map(
    query<{ threadId: string }>('SELECT thread_id AS "threadId" FROM lens_turns WHERE id = $1', [answerId]),
    (rows) => rows[0]?.threadId
  )

/** The thread whose answer proposed `proposalId`, if any. */
export const threadOfProposal = (proposalId: string) =>
  Effect.map(
    query<{ threadId: string }>(
      'SELECT u.thread_id AS "threadId" FROM lens_proposals p JOIN lens_turns u ON u.id = p.answer_id WHERE p.id = $1',
      [proposalId]
    ),
    (rows) => rows[0]?.threadId
  )
