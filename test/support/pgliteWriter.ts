/**
 * Child process of the PGlite durability test: opens PGlite in the DATA_DIR
 * given as argument, then inserts rows 1, 2, 3… in separate autocommit
 * statements, printing "committed <n>" after each commit resolved, until the
 * parent kills it.
 */
import { Effect } from "effect"
import * as Database from "../../persistence/Database.ts"
import { Sql } from "../../persistence/Sql.ts"

const dataDir = process.argv[2]
if (dataDir === undefined) throw new Error("usage: pgliteWriter.ts <dataDir>")

const program = Effect.gen(function* () {
  const sql = yield* Sql
  for (let n = 1; ; n++) {
    yield* sql.query("insert into actor_state (kind, id, state, version) values ('durability', $1, $2, 1)", [String(n), { n }])
    process.stdout.write(`committed ${n}\n`)
  }
})

await Effect.runPromise(Effect.provide(program, Database.pglite(dataDir)))
