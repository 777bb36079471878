/**
 * The Lens thread actor (kind "lensThread", one per thread id): the single
 * writer of a thread, its turns, their feedback and the proposals of its
 * agent-loop answers. It holds the thread with its history in memory
 * (rebuilt from the rows on activation) and serves reads from there; a
 * follow-up is resolved against the last turn it holds. An answered turn
 * commits with its proposals in one transaction before the reply.
 *
 * Proposals live here, per thread, because each is born in one turn of one
 * user's thread: it commits atomically with the answer that proposed it, and
 * two decisions of the same proposal are serialised by this actor.
 */
import { Effect, Schema } from "effect"
import { Sql } from "../../persistence/Sql.ts"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import { clientIn } from "../../runtime/ActorSystem.ts"
import { Id, now, Timestamp } from "../Fields.ts"
import { resolveAgainstThread, Trace } from "./Engine.ts"
import {
  LensAnswerNotFound,
  LensProposalNotFound,
  ProposalDecided,
  ThreadNotFound,
  ThreadOfAnotherUser,
  ThreadOfAnotherWorkspace
} from "./LensErrors.ts"
import { decidedProposal, Proposal, ProposedWrite } from "./Proposals.ts"
import { Citation } from "./Synthesis.ts"
import { loadThread, Thread, ThreadState, Turn } from "./Threads.ts"

type State = ThreadState | null

/** A thread is another user's (403) or none (404). */
const Owned = Schema.Union([ThreadNotFound, ThreadOfAnotherUser])
type Ctx = ActorContext<State>

const By = { by: Schema.String }

const Rating = Schema.Literals(["up", "down"])
export const Feedback = Schema.Struct({ answerId: Id, rating: Rating, reason: Schema.NullOr(Schema.String), createdAt: Timestamp })

export const ProposalRef = Schema.Struct({ id: Id, title: Schema.String, status: Schema.Literal("proposed") })

/** The thread when `by` owns it: 404 when it does not exist, 403 when it is another user's. */
const owned = (ctx: Ctx, by: string): Effect.Effect<ThreadState, ThreadNotFound | ThreadOfAnotherUser> => {
  if (ctx.state === null) return Effect.fail(new ThreadNotFound())
  if (ctx.state.userId !== by) return Effect.fail(new ThreadOfAnotherUser())
  return Effect.succeed(ctx.state)
}

/** Another user's answers and proposals answer 404, as if they did not exist. */
const ownAnswer = (ctx: Ctx, by: string, answerId: string) => {
  const turn = ctx.state?.userId === by ? ctx.state.turns.find((t) => t.answerId === answerId) : undefined
  return turn === undefined ? Effect.fail(new LensAnswerNotFound()) : Effect.succeed({ state: ctx.state!, turn })
}

const ownProposal = (ctx: Ctx, by: string, proposalId: string) => {
  const proposal = ctx.state?.userId === by ? ctx.state.proposals.find((p) => p.id === proposalId) : undefined
  return proposal === undefined ? Effect.fail(new LensProposalNotFound()) : Effect.succeed({ state: ctx.state!, proposal })
}

const threadView = (state: ThreadState): Thread => ({
  id: state.id,
  workspaceId: state.workspaceId,
  title: state.title,
  turns: state.turns.map(({ resolvedQuery: _q, variant: _v, ...turn }) => turn),
  createdAt: state.createdAt,
  updatedAt: state.updatedAt
})

const Append = Schema.Struct({
  ...By,
  workspaceId: Id,
  answerId: Id,
  message: Schema.String,
  resolvedQuery: Schema.String,
  answer: Schema.String,
  citations: Schema.Array(Citation),
  trace: Trace,
  followUps: Schema.Array(Schema.String),
  variant: Schema.NullOr(Schema.String),
  proposals: Schema.Array(ProposedWrite)
})

/** Writes the turn (and the thread when new) with its proposals in one transaction. */
const append = (ctx: Ctx, input: typeof Append.Type) =>
  Effect.gen(function* () {
    const at = now()
    const current: ThreadState =
      ctx.state === null
        ? {
            id: ctx.address.id,
            workspaceId: input.workspaceId,
            userId: input.by,
            title: input.message.slice(0, 120),
            turns: [],
            proposals: [],
            createdAt: at,
            updatedAt: at
          }
        : yield* owned(ctx, input.by)
    if (current.workspaceId !== input.workspaceId) return yield* new ThreadOfAnotherWorkspace()
    const { by: _by, workspaceId: _w, proposals: proposed, ...turnInput } = input
    const turn = { ...turnInput, createdAt: at }
    const proposals: Array<Proposal> = proposed.map((p) => ({
      id: crypto.randomUUID(),
      workspaceId: current.workspaceId,
      answerId: input.answerId,
      operationId: p.operationId,
      title: p.title,
      input: p.input,
      status: "proposed",
      result: null,
      createdAt: at,
      decidedAt: null
    }))
    yield* Effect.orDie(
      Sql.use((sql) =>
        sql.transaction(
          Effect.gen(function* () {
            if (ctx.state === null) {
              yield* sql.query(
                "INSERT INTO lens_threads (id, workspace_id, user_id, title, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)",
                [current.id, current.workspaceId, current.userId, current.title, at]
              )
            } else {
              yield* sql.query("UPDATE lens_threads SET updated_at = $2 WHERE id = $1", [current.id, at])
            }
            yield* sql.query(
              `INSERT INTO lens_turns (id, thread_id, position, message, resolved_query, answer, route, citations, trace, follow_ups, variant, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
              [
                turn.answerId,
                current.id,
                current.turns.length + 1,
                turn.message,
                turn.resolvedQuery,
                turn.answer,
                turn.trace.route,
                turn.citations,
                turn.trace,
                turn.followUps,
                turn.variant,
                at
              ]
            )
            for (const p of proposals) {
              yield* sql.query(
                `INSERT INTO lens_proposals (id, workspace_id, user_id, answer_id, operation_id, title, input, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                [p.id, p.workspaceId, current.userId, p.answerId, p.operationId, p.title, p.input, at]
              )
            }
          })
        )
      )
    )
    ctx.setState({ ...current, turns: [...current.turns, turn], proposals: [...current.proposals, ...proposals], updatedAt: at })
    return proposals.map((p) => ({ id: p.id, title: p.title, status: "proposed" as const }))
  })

export const LensThread = Actor<State>()({
  kind: "lensThread",
  state: Schema.NullOr(ThreadState),
  initial: () => null,
  rebuild: (threadId) => loadThread(threadId),
  readOnly: ["owner", "view", "resolve", "turn", "proposal"],
  messages: {
    /** The workspace of `by`'s thread (403/404 otherwise). */
    owner: { payload: Schema.Struct(By), success: Schema.Struct({ workspaceId: Id }), error: Owned },
    view: { payload: Schema.Struct(By), success: Thread, error: Owned },
    /** `message` resolved against the thread's last turn (a follow-up carries its words). */
    resolve: { payload: Schema.Struct({ ...By, message: Schema.String }), success: Schema.String, error: Owned },
    /** Stores an answered turn (starting the thread when new) with the writes it proposes. */
    append: {
      payload: Append,
      success: Schema.Array(ProposalRef),
      error: Schema.Union([ThreadNotFound, ThreadOfAnotherUser, ThreadOfAnotherWorkspace])
    },
    turn: {
      payload: Schema.Struct({ ...By, answerId: Id }),
      success: Schema.Struct({ workspaceId: Id, turn: Turn }),
      error: LensAnswerNotFound
    },
    rate: {
      payload: Schema.Struct({ ...By, answerId: Id, rating: Rating, reason: Schema.NullOr(Schema.String) }),
      success: Feedback,
      error: LensAnswerNotFound
    },
    proposal: { payload: Schema.Struct({ ...By, proposalId: Id }), success: Proposal, error: LensProposalNotFound },
    /** Decides a proposal once: a second decision is a conflict. */
    decide: {
      payload: Schema.Struct({
        ...By,
        proposalId: Id,
        status: Schema.Literals(["applied", "rejected", "failed"]),
        result: Schema.NullOr(Schema.Unknown)
      }),
      success: Proposal,
      error: Schema.Union([LensProposalNotFound, ProposalDecided])
    }
  },
  handlers: {
    owner: ({ by }, ctx) => Effect.map(owned(ctx, by), (state) => ({ workspaceId: state.workspaceId })),
    view: ({ by }, ctx) => Effect.map(owned(ctx, by), threadView),
    resolve: ({ by, message }, ctx) =>
      Effect.map(owned(ctx, by), (state) => resolveAgainstThread(message, state.turns.at(-1)?.resolvedQuery)),
    append: (input, ctx) => append(ctx, input),
    turn: ({ by, answerId }, ctx) =>
      Effect.map(ownAnswer(ctx, by, answerId), ({ state, turn: { resolvedQuery: _q, variant: _v, ...turn } }) => ({
        workspaceId: state.workspaceId,
        turn
      })),
    rate: ({ by, answerId, rating, reason }, ctx) =>
      Effect.gen(function* () {
        yield* ownAnswer(ctx, by, answerId)
        const createdAt = now()
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.query(
              `INSERT INTO lens_feedback (answer_id, user_id, rating, reason, created_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (answer_id, user_id) DO UPDATE SET rating = EXCLUDED.rating, reason = EXCLUDED.reason, created_at = EXCLUDED.created_at`,
              [answerId, by, rating, reason, createdAt]
            )
          )
        )
        return { answerId, rating, reason, createdAt }
      }),
    proposal: ({ by, proposalId }, ctx) => Effect.map(ownProposal(ctx, by, proposalId), ({ proposal }) => proposal),
    decide: ({ by, proposalId, status, result }, ctx) =>
      Effect.gen(function* () {
        const { state, proposal } = yield* ownProposal(ctx, by, proposalId)
        if (proposal.status !== "proposed") return yield* new ProposalDecided()
        const decided = decidedProposal(proposal, status, result, now())
        yield* Effect.orDie(
          Sql.use((sql) =>
            sql.query("UPDATE lens_proposals SET status = $2, result = $3, decided_at = $4 WHERE id = $1", [
              proposalId,
              status,
              decided.result,
              decided.decidedAt
            ])
          )
        )
        ctx.setState({ ...state, proposals: state.proposals.map((p) => (p.id === proposalId ? decided : p)) })
        return decided
      })
  }
})

/** Thread `threadId`'s actor, asked through the ActorSystem in context. */
export const askThread = clientIn(LensThread)
