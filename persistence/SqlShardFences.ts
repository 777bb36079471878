/**
 * `ShardFences` on the `Sql` service: the epoch of every shard in
 * `shard_epochs`. `acquire` bumps it in one statement; the UPDATE waits for
 * the row locks (FOR SHARE) that the former owner's open transactions took
 * when they checked their fence (see `internal/driver.ts`), so it returns only
 * once they have committed or rolled back, and every later check of the old
 * epoch fails. Those transactions cannot hold it for long: each runs with the
 * statement and idle-in-transaction timeouts of `Fencing`.
 */
import { Effect, Layer } from "effect"
import { ShardFences, type ShardFencesShape } from "../runtime/ShardFences.ts"
import * as Fencing from "./internal/fencing.ts"
import { Sql } from "./Sql.ts"

export const make: Effect.Effect<ShardFencesShape, never, Sql> = Effect.gen(function* () {
  const sql = yield* Sql
  return {
    acquire: (shard, nodeId) =>
      sql
        .transaction(
          Effect.andThen(
            sql.query("select set_config('lock_timeout', $1, true)", [String(Fencing.acquireTimeoutMillis)]),
            sql.query<{ epoch: number }>(
              `insert into shard_epochs (shard, epoch, owner, acquired_at) values ($1, 1, $2, now())
               on conflict (shard) do update set epoch = shard_epochs.epoch + 1, owner = excluded.owner, acquired_at = now()
               returning epoch`,
              [shard, nodeId]
            )
          )
        )
        .pipe(Effect.map((rows) => Number(rows[0]!.epoch)))
  }
})

export const layer: Layer.Layer<ShardFences, never, Sql> = Layer.effect(ShardFences, make)
