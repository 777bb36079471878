/**
 * Secrets generated once and kept in the database (`system_secrets`), so
 * every node of a cluster, and every restart, uses the same one: the first
 * node to ask stores its candidate, the others read it.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"

const insertIfAbsent = SqlSchema.findAll({
  Request: Schema.Struct({ name: Schema.String, candidate: Schema.String }),
  Result: Schema.Struct({}),
  execute: (r) => ["INSERT INTO system_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [r.name, r.candidate]]
})

const findSecret = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ value: Schema.String }),
  execute: (name) => ["SELECT value FROM system_secrets WHERE name = $1", [name]]
})

/** The secret named `name`: stored as `candidate` when there is none yet, else the one stored. */
export const storedSecret = (name: string, candidate: string) =>
  Effect.gen(function* () {
    yield* insertIfAbsent({ name, candidate })
    const row = yield* findSecret(name)
    return row!.value
  })
