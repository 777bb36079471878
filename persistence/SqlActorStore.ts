/**
 * `ActorStore` on the `Sql` service: one `actor_state` row per actor, its
 * encoded state as jsonb and a `version` that starts at 1 and grows by one on
 * every save. Called inside `Sql.transaction`, it joins that transaction.
 */
import { Effect, Layer } from "effect"
import type { ActorAddress } from "../runtime/Actor.ts"
import { ActorStore, type ActorStoreShape } from "../runtime/ActorStore.ts"
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

  return {
    loadRow,
    load: (address) =>
      Effect.map(
        sql.query<{ state: unknown }>("select state from actor_state where kind = $1 and id = $2", [address.kind, address.id]),
        (rows) => (rows.length === 0 ? undefined : rows[0].state)
      ),
    save: (address, encodedState) =>
      Effect.asVoid(
        sql.query(
          // a JS null is bound as SQL NULL: store it as the JSON value null
          `insert into actor_state (kind, id, state, version, updated_at)
         values ($1, $2, coalesce($3::jsonb, 'null'::jsonb), 1, now())
         on conflict (kind, id) do update
           set state = excluded.state, version = actor_state.version + 1, updated_at = now()`,
          [address.kind, address.id, encodedState]
        )
      ),
    remove: (address) => Effect.asVoid(sql.query("delete from actor_state where kind = $1 and id = $2", [address.kind, address.id]))
  }
})

export const layer: Layer.Layer<ActorStore, never, Sql> = Layer.effect(ActorStore, make)
