/**
 * `RequestLog` on the `Sql` service: the `actor_requests` table (migration
 * 158). Keys are inserted by the fence check of the message's transactions
 * (`internal/fencing.ts`), so this service only reads them and fills in
 * replies; `layer` also sweeps, once a minute, rows older than the
 * retention (`retentionMillis`, see `runtime/RequestLog.ts`).
 */
import { Effect, Layer } from "effect"
import { RequestLog, type RequestLogShape, retentionMillis } from "../runtime/RequestLog.ts"
import { CurrentFence } from "../runtime/ShardFences.ts"
import { Sql, type SqlError } from "./Sql.ts"

export { retentionMillis }
const sweepMillis = 60_000

export const make: Effect.Effect<RequestLogShape, never, Sql> = Effect.gen(function* () {
  const sql = yield* Sql
  // Called by an activation between messages: never part of a message's fenced writes (nor recorded as one).
  const unfenced = <A>(effect: Effect.Effect<A, SqlError>) => Effect.provideService(effect, CurrentFence, undefined)
  return {
    lookup: (key) =>
      unfenced(
        Effect.map(sql.query<{ reply: string | null }>("select reply from actor_requests where key = $1", [key]), (rows) =>
          rows.length === 0 ? undefined : { reply: rows[0]!.reply ?? undefined }
        )
      ),
    complete: (key, reply) =>
      unfenced(Effect.asVoid(sql.query("update actor_requests set reply = $2 where key = $1 and reply is null", [key, reply])))
  }
})

/** Deletes the records older than `retentionMillis`; returns how many. */
export const sweep: Effect.Effect<number, SqlError, Sql> = Sql.use((sql) =>
  Effect.map(
    sql.query<{ n: number }>(
      "with gone as (delete from actor_requests where created_at < now() - make_interval(secs => $1) returning 1) select count(*) as n from gone",
      [retentionMillis / 1000]
    ),
    (rows) => Number(rows[0]?.n ?? 0)
  )
)

export const layer: Layer.Layer<RequestLog, never, Sql> = Layer.effect(
  RequestLog,
  Effect.gen(function* () {
    const log = yield* make
    const context = yield* Effect.context<Sql>()
    const scope = yield* Effect.scope
    const once = Effect.provideContext(sweep, context).pipe(
      Effect.catchCause((cause) => Effect.logWarning("actor_requests: sweeping old idempotency keys failed", cause))
    )
    yield* Effect.forkIn(Effect.forever(Effect.andThen(Effect.sleep(sweepMillis), once)), scope)
    return log
  })
)
