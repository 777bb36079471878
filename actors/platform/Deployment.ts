/** What this deployment runs, for the version endpoint: the latest schema migration applied to its database. */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"

const findLatest = SqlSchema.findOne({
  Request: Schema.Void,
  Result: Schema.Struct({ version: Schema.Number, name: Schema.String }),
  execute: () => ["SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1", []]
})

/** The latest applied migration, or version 0 and no name when none is. */
export const schemaVersion = Effect.map(findLatest(undefined), (row) => row ?? { version: 0, name: "" })
