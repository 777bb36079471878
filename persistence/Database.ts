/**
 * Atrium's database: the `Sql` service with every migration applied.
 *
 * - `DATABASE_URL` set → PostgreSQL (`PostgresSql`)
 * - otherwise → embedded PGlite in `<DATA_DIR>/pglite` (`DATA_DIR` defaults
 *   to `./data`), or in memory when `DATA_DIR` is `memory://`.
 *
 * ```ts
 * import * as Database from "./persistence/Database.ts"
 * program.pipe(Effect.provide(Database.layer))
 * ```
 */
import { Layer } from "effect"
import * as Migrations from "./Migrations.ts"
import * as PgliteSql from "./PgliteSql.ts"
import * as PostgresSql from "./PostgresSql.ts"
import type { Sql, SqlError } from "./Sql.ts"

/** `DATA_DIR`, or `./data`. */
export const dataDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.DATA_DIR !== undefined && env.DATA_DIR !== "" ? env.DATA_DIR : "./data"

const migrated = (sql: Layer.Layer<Sql, SqlError>): Layer.Layer<Sql, SqlError> => Migrations.layer().pipe(Layer.provideMerge(sql))

/** PostgreSQL at `url`, migrated. */
export const postgres = (url: string, options?: PostgresSql.PostgresSqlOptions): Layer.Layer<Sql, SqlError> =>
  migrated(PostgresSql.layer(url, options))

/** PGlite in `<dataDir>/pglite`, or in memory for `"memory://"`, migrated. */
export const pglite = (dataDirOrMemory: string): Layer.Layer<Sql, SqlError> => migrated(PgliteSql.layer(dataDirOrMemory))

/** The database the environment asks for (read when the layer is built), migrated. */
export const fromEnv = (env: NodeJS.ProcessEnv = process.env): Layer.Layer<Sql, SqlError> =>
  env.DATABASE_URL !== undefined && env.DATABASE_URL !== "" ? postgres(env.DATABASE_URL) : pglite(dataDir(env))

/** `fromEnv()`, reading `process.env` when the layer is built. */
export const layer: Layer.Layer<Sql, SqlError> = Layer.suspend(() => fromEnv())
