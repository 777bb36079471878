/**
 * Versioned SQL migrations: plain files `NNN_name.sql` in
 * `persistence/migrations/`, applied in numeric order when the database layer
 * starts, each in its own transaction, and recorded in
 * `schema_migrations(version, name, applied_at)`.
 *
 * - The same SQL runs on PostgreSQL and PGlite.
 * - On PostgreSQL every migration transaction first takes a transaction-level
 *   advisory lock, then re-checks `schema_migrations`, so processes starting
 *   at once apply each migration exactly once.
 * - A version already recorded under another name fails the start (two files
 *   were given the same number on different branches), as do two files with
 *   the same version in the folder or a `.sql` file not named `NNN_name.sql`.
 * - A migration file must not contain transaction control (BEGIN/COMMIT) or
 *   statements that cannot run in a transaction (CREATE INDEX CONCURRENTLY).
 */
import { readdir, readFile } from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { Sql, SqlError } from "./Sql.ts"
import { TimeLimit } from "./internal/driver.ts"

export interface Migration {
  readonly version: number
  readonly name: string
  /** The file name, e.g. "001_core.sql". */
  readonly file: string
  readonly sql: string
}

/** The folder of Atrium's migrations. */
export const directory: string = fileURLToPath(new URL("./migrations/", import.meta.url))

const FILE_NAME = /^(\d+)_([A-Za-z0-9_-]+)\.sql$/

const migrationError = (message: string) => new SqlError({ message: `Migrations: ${message}` })

/** Reads every `NNN_name.sql` of `dir`, in numeric order. */
export const load = (dir: string = directory): Effect.Effect<ReadonlyArray<Migration>, SqlError> =>
  Effect.tryPromise({
    try: async () => {
      const migrations: Array<Migration> = []
      for (const file of await readdir(dir)) {
        if (!file.endsWith(".sql")) continue
        const match = FILE_NAME.exec(file)
        if (match === null) throw migrationError(`"${file}" is not named NNN_name.sql`)
        migrations.push({
          version: Number(match[1]),
          name: match[2],
          file,
          sql: await readFile(path.join(dir, file), "utf8")
        })
      }
      migrations.sort((a, b) => a.version - b.version)
      for (let i = 1; i < migrations.length; i++) {
        if (migrations[i].version === migrations[i - 1].version) {
          throw migrationError(`version ${migrations[i].version} is used by both "${migrations[i - 1].name}" and "${migrations[i].name}"`)
        }
      }
      return migrations
    },
    catch: (cause) => (cause instanceof SqlError ? cause : migrationError(`cannot read ${dir}: ${String(cause)}`))
  })

const CREATE_TABLE = `create table if not exists schema_migrations (
  version integer primary key,
  name text not null,
  applied_at timestamptz not null default now()
)`

/**
 * Applies the migrations not yet recorded, in order, each in its own
 * transaction. Returns the ones it applied (empty when up to date).
 */
export const apply = (migrations: ReadonlyArray<Migration>): Effect.Effect<ReadonlyArray<Migration>, SqlError, Sql> =>
  Effect.provideService(applyAll(migrations), TimeLimit, migrationTimeLimitMillis)

/** A migration may wait for another process's migrations (the advisory lock) and rewrite large tables. */
const migrationTimeLimitMillis = 30 * 60_000

const applyAll = (migrations: ReadonlyArray<Migration>): Effect.Effect<ReadonlyArray<Migration>, SqlError, Sql> =>
  Effect.gen(function* () {
    const sql = yield* Sql
    const lock = sql.backend === "postgres" ? sql.query("select pg_advisory_xact_lock(hashtext('atrium/schema_migrations'))") : Effect.void

    const recorded = (version: number) =>
      Effect.map(sql.query<{ name: string }>("select name from schema_migrations where version = $1", [version]), (rows) => rows[0]?.name)

    const checkName = (migration: Migration, name: string) =>
      name === migration.name
        ? Effect.void
        : Effect.fail(migrationError(`version ${migration.version} is recorded as "${name}" but the file is "${migration.file}"`))

    yield* sql.transaction(Effect.andThen(lock, sql.executeScript(CREATE_TABLE)))

    const known = new Map(
      (yield* sql.query<{ version: number; name: string }>("select version, name from schema_migrations")).map(
        (row) => [row.version, row.name] as const
      )
    )

    const applied: Array<Migration> = []
    for (const migration of migrations) {
      const knownName = known.get(migration.version)
      if (knownName !== undefined) {
        yield* checkName(migration, knownName)
        continue
      }
      const didApply = yield* sql.transaction(
        Effect.gen(function* () {
          yield* lock
          const name = yield* recorded(migration.version) // another process may have applied it meanwhile
          if (name !== undefined) {
            yield* checkName(migration, name)
            return false
          }
          yield* sql.executeScript(migration.sql).pipe(
            Effect.mapError(
              (error) =>
                new SqlError({
                  message: `Migration ${migration.file} failed: ${error.message}`,
                  ...(error.code === undefined ? {} : { code: error.code })
                })
            )
          )
          yield* sql.query("insert into schema_migrations (version, name) values ($1, $2)", [migration.version, migration.name])
          return true
        })
      )
      if (didApply) {
        applied.push(migration)
        yield* Effect.logDebug(`Applied migration ${migration.file}`)
      }
    }
    return applied
  })

/** Loads the migrations of `dir` and applies the missing ones. */
export const run = (dir: string = directory): Effect.Effect<ReadonlyArray<Migration>, SqlError, Sql> => Effect.flatMap(load(dir), apply)

/** Runs the migrations of `dir` when the layer is built. */
export const layer = (dir: string = directory): Layer.Layer<never, SqlError, Sql> => Layer.effectDiscard(run(dir))
