/**
 * `ActorStore` on the `Sql` service: one `actor_state` row per actor, its
 * encoded state as jsonb and a `version` that starts at 1 and grows by one on
 * every save. A save is conditional on the version the activation loaded
 * (an insert for version 0): if someone else saved since, nothing is written
 * and the save fails with `StaleState`. Called inside `Sql.transaction`, it
 * joins that transaction; called by a handler, it is fenced like every other
 * write (see `SqlShardFences.ts`).
 *
 * `layer` provides the store, the shard fences and the request log (the
 * idempotency keys of writes), which live in the same database: a system
 * whose actors persist in SQL is always fenced and deduplicates re-sent writes.
 */
import { Effect, Layer } from "effect"
import type { ActorAddress } from "../runtime/Actor.ts"
import { ActorStore, type ActorStoreShape, StaleState } from "../runtime/ActorStore.ts"
import type { RequestLog } from "../runtime/RequestLog.ts"
import { CurrentFence, type ShardFences } from "../runtime/ShardFences.ts"
import * as SqlRequestLog from "./SqlRequestLog.ts"
import * as SqlShardFences from "./SqlShardFences.ts"
import { Sql, type SqlError } from "./Sql.ts"

/** The stored row of an actor, for tooling and tests. */
export interface ActorStateRow {
  readonly state: unknown
  readonly version: number
  readonly updatedAt: string
}

export interface SqlActorStoreShape extends ActorStoreShape {
  /** The state with its version and last update, or `undefined` if never saved. */
  readonly loadRow: (address: ActorAddress) => Effect.Effect<ActorStateRow | undefined, SqlError>
}

export const make: Effect.Effect<SqlActorStoreShape, never, Sql> = Effect.gen(function* () {
  const sql = yield* Sql

  const loadRow = (address: ActorAddress) =>
    Effect.map(
      sql.query<{ state: unknown; version: number; updated_at: string }>(
        "select state, version, updated_at from actor_state where kind = $1 and id = $2",
        [address.kind, address.id]
      ),
      (rows): ActorStateRow | undefined =>
        rows.length === 0 ? undefined : { state: rows[0].state, version: Number(rows[0].version), updatedAt: rows[0].updated_at }
    )

  const conditional: ActorStoreShape["save"] = (address, encodedState, expected) =>
    Effect.flatMap(
      expected === 0
        ? sql.query<{ version: number }>(
            // a JS null is bound as SQL NULL: store it as the JSON value null
            `insert into actor_state (kind, id, state, version, updated_at)
             values ($1, $2, coalesce($3::jsonb, 'null'::jsonb), 1, now())
             on conflict (kind, id) do nothing
             returning version`,
            [address.kind, address.id, encodedState]
          )
        : sql.query<{ version: number }>(
            `update actor_state set state = coalesce($3::jsonb, 'null'::jsonb), version = version + 1, updated_at = now()
             where kind = $1 and id = $2 and version = $4
             returning version`,
            [address.kind, address.id, encodedState, expected]
          ),
      (rows) => (rows.length === 0 ? Effect.fail(new StaleState({ address, expected })) : Effect.succeed(Number(rows[0]!.version)))
    )

  // Fenced (a handler's save): one transaction, so a stale save also rolls back the idempotency keys its fence
  // check recorded (the message was not applied and will be retried).
  const save: ActorStoreShape["save"] = (address, encodedState, expected) =>
    Effect.flatMap(CurrentFence, (fence) =>
      fence === undefined ? conditional(address, encodedState, expected) : sql.transaction(conditional(address, encodedState, expected))
    )

  return {
    loadRow,
    load: (address) =>
      Effect.map(
        sql.query<{ state: unknown; version: number }>("select state, version from actor_state where kind = $1 and id = $2", [
          address.kind,
          address.id
        ]),
        (rows) => (rows.length === 0 ? undefined : { state: rows[0].state, version: Number(rows[0].version) })
      ),
    save,
    remove: (address) => Effect.asVoid(sql.query("delete from actor_state where kind = $1 and id = $2", [address.kind, address.id]))
  }
})

export const layer: Layer.Layer<ActorStore | ShardFences | RequestLog, never, Sql> = Layer.mergeAll(
  Layer.effect(ActorStore, make),
  SqlShardFences.layer,
  SqlRequestLog.layer
)
