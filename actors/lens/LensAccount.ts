/**
 * The Lens account actor (kind "lensAccount", one per workspace): the single
 * writer of the workspace's credit balance. It holds the balance in memory
 * (rebuilt from `lens_credits`, opening the account on first use) and
 * answers balance checks from there; a charge or an admin's change commits
 * the balance with its ledger entries (the account's change log) and usage
 * records in one transaction before the reply, so two runs never spend the
 * same credit.
 */
import { Effect, Schema } from "effect"
import { isoTimestampSql, query, Sql } from "../../persistence/Sql.ts"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { now, Timestamp } from "../Fields.ts"
import { OutOfCredits } from "./LensErrors.ts"
import { creditsOfRun, initialCredits } from "./Metering.ts"

export const AccountState = Schema.Struct({ balance: Schema.Number, updatedAt: Timestamp })
export type AccountState = typeof AccountState.Type

const Engine = Schema.Literals(["local", "model"])

/** One metered run (local engine or model call) to record and pay for. */
export const UsageInput = Schema.Struct({
  userId: Schema.String,
  engine: Engine,
  purpose: Schema.String,
  model: Schema.NullOr(Schema.String),
  promptTokens: Schema.Number,
  completionTokens: Schema.Number,
  durationMs: Schema.Number
})
export type UsageInput = typeof UsageInput.Type

const load = (workspaceId: string) =>
  Effect.gen(function* () {
    yield* query("INSERT INTO lens_credits (workspace_id, balance) VALUES ($1, $2) ON CONFLICT (workspace_id) DO NOTHING", [
      workspaceId,
      initialCredits()
    ])
    const [row] = yield* query<AccountState>(
      `SELECT balance, ${isoTimestampSql("updated_at")} AS "updatedAt" FROM lens_credits WHERE workspace_id = $1`,
      [workspaceId]
    )
    return row!
  })

interface Entry {
  readonly delta: number
  readonly reason: string
  readonly userId: string | null
}

/** Commits the new balance with its ledger entries and usage rows, then takes it as the state. */
const commit = (
  ctx: ActorContext<AccountState>,
  entries: ReadonlyArray<Entry>,
  usages: ReadonlyArray<UsageInput & { readonly credits: number }> = []
) =>
  Effect.gen(function* () {
    const workspaceId = ctx.address.id
    const balance = entries.reduce((sum, entry) => Math.max(0, sum + entry.delta), ctx.state.balance)
    const updatedAt = now()
    yield* Effect.orDie(
      Sql.use((sql) =>
        sql.transaction(
          Effect.gen(function* () {
            for (const usage of usages) {
              yield* sql.query(
                `INSERT INTO lens_usage (id, workspace_id, user_id, engine, purpose, model, prompt_tokens, completion_tokens, credits, duration_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
                [
                  crypto.randomUUID(),
                  workspaceId,
                  usage.userId,
                  usage.engine,
                  usage.purpose,
                  usage.model,
                  usage.promptTokens,
                  usage.completionTokens,
                  usage.credits,
                  Math.round(usage.durationMs)
                ]
              )
            }
            for (const entry of entries) {
              yield* sql.query("INSERT INTO lens_credit_ledger (id, workspace_id, delta, reason, user_id) VALUES ($1, $2, $3, $4, $5)", [
                crypto.randomUUID(),
                workspaceId,
                entry.delta,
                entry.reason,
                entry.userId
              ])
            }
            yield* sql.query("UPDATE lens_credits SET balance = $2, updated_at = $3 WHERE workspace_id = $1", [
              workspaceId,
              balance,
              updatedAt
            ])
          })
        )
      )
    )
    const next = { balance, updatedAt }
    ctx.setState(next)
    return next
  })

export const LensAccount = Actor<AccountState>()({
  kind: "lensAccount",
  state: AccountState,
  initial: () => ({ balance: initialCredits(), updatedAt: now() }),
  rebuild: (workspaceId) => load(workspaceId),
  readOnly: ["balance", "require"],
  messages: {
    balance: { payload: Schema.Struct({}), success: AccountState, error: Schema.Never },
    /** The balance, or 402 when the workspace has no credits left. */
    require: { payload: Schema.Struct({}), success: Schema.Number, error: OutOfCredits },
    /** Records runs and deducts their credits (never below zero). */
    charge: {
      payload: Schema.Struct({ usages: Schema.Array(UsageInput) }),
      success: Schema.Struct({ credits: Schema.Number, balance: Schema.Number }),
      error: Schema.Never
    },
    /** An admin's change: add `delta`, or set the balance to `balance` (the difference enters the ledger). */
    change: {
      payload: Schema.Struct({
        userId: Schema.String,
        reason: Schema.String,
        change: Schema.Union([Schema.Struct({ delta: Schema.Number }), Schema.Struct({ balance: Schema.Number })])
      }),
      success: AccountState,
      error: Schema.Never
    },
    /** Deletes the usage records older than `before` (an ISO date); the balance and ledger are unchanged. */
    purgeUsage: {
      payload: Schema.Struct({ before: Schema.String }),
      success: Schema.Struct({ deleted: Schema.Number }),
      error: Schema.Never
    }
  },
  handlers: {
    balance: (_, ctx) => Effect.succeed(ctx.state),
    require: (_, ctx) => (ctx.state.balance > 0 ? Effect.succeed(ctx.state.balance) : Effect.fail(new OutOfCredits())),
    charge: ({ usages }, ctx) =>
      Effect.gen(function* () {
        const priced = usages.map((usage) => ({ ...usage, credits: creditsOfRun(usage) }))
        const entries = priced.map((usage) => ({ delta: -usage.credits, reason: `lens:${usage.purpose}`, userId: usage.userId }))
        const next = yield* commit(ctx, entries, priced)
        return { credits: priced.reduce((sum, usage) => sum + usage.credits, 0), balance: next.balance }
      }),
    change: ({ userId, reason, change }, ctx) =>
      commit(ctx, [{ delta: "delta" in change ? change.delta : change.balance - ctx.state.balance, reason, userId }]),
    purgeUsage: ({ before }, ctx) =>
      Effect.map(
        Effect.orDie(
          query<{ id: string }>("DELETE FROM lens_usage WHERE workspace_id = $1 AND created_at < $2::timestamptz RETURNING id", [
            ctx.address.id,
            before
          ])
        ),
        (rows) => ({ deleted: rows.length })
      )
  }
})

/** Refuses with 402 when the workspace has no credits left. */
export const requireCredits = (workspaceId: string) =>
  Effect.flatMap(ActorSystem, (actors) => LensAccount.client(actors)(workspaceId).require({}))

/** Records the runs and deducts their credits; answers the credits they cost. */
export const charge = (workspaceId: string, usages: ReadonlyArray<UsageInput>) =>
  Effect.flatMap(ActorSystem, (actors) =>
    Effect.map(LensAccount.client(actors)(workspaceId).charge({ usages }), (charged) => charged.credits)
  )
