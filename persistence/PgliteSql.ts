/**
 * `Sql` on embedded PGlite (PostgreSQL compiled to WASM), persisted in a
 * directory or kept in memory (`"memory://"`, for tests).
 *
 * Same semantics as `PostgresSql`: `$n` parameters inferred by the server and
 * serialized by the shared tables of `internal/sqlValues.ts` (jsonb objects
 * stay objects; a JS string bound to jsonb is a JSON string, as on
 * postgres.js), identical result values, `TimeZone=UTC`, SQLSTATE codes.
 * Statements run through `internal/pgliteStatement.ts`: bytea crosses as
 * bytes both ways (a stored 1 MB document is no 2 MB hex string on the way),
 * and a statement is two calls into PGlite instead of its `query`'s six.
 *
 * Concurrency: PGlite is one session. A transaction holds PGlite's
 * transaction mutex (`PGlite#transaction`) until it commits or rolls back, and
 * every statement issued outside it (`PGlite#query`/`exec`) waits on that same
 * mutex, so another fiber's statement is queued behind the transaction instead
 * of running inside it.
 *
 * Durability (what PGlite 0.5.16 does, read from its source):
 * - PGlite starts postgres with `-F` (fsync off) and its Node filesystem
 *   (emscripten NODEFS) has no `fsync` operation, so no file is ever fsynced.
 * - NODEFS writes through to the host files synchronously (`fs.writeSync`),
 *   and postgres writes its WAL at COMMIT; `relaxedDurability: false` (the
 *   default, set explicitly here) makes every query await `syncToFs` (a no-op
 *   for NODEFS) before resolving. So once a commit has resolved its WAL is in
 *   the OS page cache: it survives the process being killed (tested with
 *   SIGKILL in `test/persistence.test.ts`), but not an OS crash or power loss.
 *   Use PostgreSQL (`DATABASE_URL`) where that matters.
 * - One directory is opened by one PGlite at a time: PGlite itself happily
 *   opens a directory twice (two processes then each see their own database
 *   and corrupt it), so the layer holds `<dataDir>/pglite.lock` (the owner's
 *   pid) while open and refuses a directory open elsewhere. A lock left by a
 *   dead process (killed, crashed) is taken over.
 * - `close()` (a clean shutdown with checkpoint) runs when the layer is released.
 */
import { PGlite, type Transaction } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs"
import * as path from "node:path"
import { Effect, Layer } from "effect"
import { Sql, type SqlError, type SqlShape } from "./Sql.ts"
import * as Driver from "./internal/driver.ts"
import { runStatement } from "./internal/pgliteStatement.ts"
import * as SqlValues from "./internal/sqlValues.ts"

/** Pass as `dataDir` to keep the database in memory. */
export const memory = "memory://"

/** Where the PGlite files live for a `DATA_DIR`: `<dataDir>/pglite`, or `memory://`. */
export const directoryOf = (dataDir: string): string => (dataDir.startsWith(memory) ? memory : path.resolve(dataDir, "pglite"))

/** Directories opened by this process. */
const openHere = new Set<string>()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Takes `<directory>.lock` for this process, or throws if another PGlite has the directory open. */
const lock = (directory: string): void => {
  const file = `${directory}.lock`
  if (openHere.has(directory)) throw new Error(`PGlite directory ${directory} is already open in this process`)
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o644)
      try {
        writeSync(fd, `${process.pid}\n`)
      } finally {
        closeSync(fd)
      }
      openHere.add(directory)
      return
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw cause
      const owner = Number.parseInt(readFileSync(file, "utf8"), 10)
      // our own pid in a leftover file: a previous run of a process that got the same pid (containers)
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) {
        throw new Error(`PGlite directory ${directory} is in use by process ${owner} (${file})`)
      }
      rmSync(file, { force: true }) // stale: its owner died
    }
  }
}

const unlock = (directory: string): void => {
  openHere.delete(directory)
  rmSync(`${directory}.lock`, { force: true })
}

const closed = () => Promise.reject(new Error("PGlite is closed"))

/**
 * The members of PGlite this module drives statements through besides its public `query`: its lock helpers
 * (underscore-named, so a release may change them without notice) and the raw protocol call with the instance's
 * type tables. Checked once at open, so an upgrade that changes them stops the server at startup instead of
 * failing its first statement.
 */
const refuseUnlessSupported = (db: PGlite): void => {
  const missing = [
    typeof db._runExclusiveQuery === "function" ? undefined : "_runExclusiveQuery",
    typeof db._runExclusiveTransaction === "function" ? undefined : "_runExclusiveTransaction",
    typeof db.execProtocolRawStream === "function" ? undefined : "execProtocolRawStream",
    typeof db.parsers === "object" && db.parsers !== null ? undefined : "parsers",
    typeof db.serializers === "object" && db.serializers !== null ? undefined : "serializers"
  ].filter((name) => name !== undefined)
  if (missing.length > 0)
    throw new Error(
      `PGlite lacks what persistence/PgliteSql.ts relies on: ${missing.join(", ")} (check the pinned @electric-sql/pglite version)`
    )
}

/**
 * Statements go through `internal/pgliteStatement.ts` (bytea as bytes), under
 * the locks `PGlite#query` takes: outside a transaction the transaction mutex
 * too, so a statement never runs inside another fiber's open transaction;
 * inside one (`transaction` given) the query mutex only, which the
 * transaction's own statements share. Scripts take PGlite's `exec`.
 */
const connectionOf = (db: PGlite, transaction?: Transaction): Driver.Connection => ({
  run: (text, params) => {
    if (transaction === undefined) {
      if (db.closed) return closed()
      return db._runExclusiveTransaction(() => db._runExclusiveQuery(() => runStatement(db, text, params, true)))
    }
    if (transaction.closed) return Promise.reject(new Error("Transaction is closed"))
    return db._runExclusiveQuery(() => runStatement(db, text, params, false))
  },
  runScript: (script) => (transaction ?? db).exec(script).then(() => undefined)
})

/** The `Sql` service of an open PGlite instance. */
export const make = (db: PGlite): SqlShape =>
  Driver.make({
    backend: "pglite",
    ...connectionOf(db),
    begin: (use) => db.transaction((transaction) => use(connectionOf(db, transaction)))
  })

/**
 * Opens PGlite in `<dataDir>/pglite` (created if missing), or in memory when
 * `dataDir` is `"memory://"`, and closes it when the layer is released.
 */
export const layer = (dataDir: string): Layer.Layer<Sql, SqlError> =>
  Layer.effect(
    Sql,
    Effect.gen(function* () {
      const directory = directoryOf(dataDir)
      const db = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            if (directory !== memory) {
              mkdirSync(directory, { recursive: true })
              lock(directory)
            }
            let db: PGlite | undefined
            try {
              db = await PGlite.create({
                dataDir: directory,
                relaxedDurability: false,
                // the trigram indexes of substring search (migration 070); PostgreSQL ships it too
                extensions: { pg_trgm },
                parsers: SqlValues.parsers,
                serializers: SqlValues.serializers
              })
              await db.exec("SET TimeZone TO 'UTC'")
              refuseUnlessSupported(db)
              return db
            } catch (cause) {
              await db?.close().catch(() => {})
              if (directory !== memory) unlock(directory)
              throw cause
            }
          },
          catch: Driver.toSqlError
        }),
        (db) =>
          Effect.promise(async () => {
            try {
              if (!db.closed) await db.close()
            } finally {
              if (directory !== memory) unlock(directory)
            }
          })
      )
      return make(db)
    })
  )
