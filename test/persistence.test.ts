/**
 * The persistence layer against every backend: PGlite in memory, PGlite in a
 * directory, and PostgreSQL in a database of its own (skipped with a warning
 * when PostgreSQL is unreachable, failed when ATRIUM_REQUIRE_SERVICES=1).
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Layer, ManagedRuntime } from "effect"
import { BlobStore } from "../persistence/BlobStore.ts"
import * as Database from "../persistence/Database.ts"
import * as FileBlobStore from "../persistence/FileBlobStore.ts"
import * as Migrations from "../persistence/Migrations.ts"
import * as PgliteSql from "../persistence/PgliteSql.ts"
import { Sql, SqlError } from "../persistence/Sql.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import { ActorStore, StaleState } from "../runtime/ActorStore.ts"
import { CurrentFence, type Fence, Fenced, ShardFences } from "../runtime/ShardFences.ts"
import { seedPglite } from "../tools/PgliteTemplate.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"

const postgresReady = await checkPostgres("test/persistence.test.ts > PostgreSQL backend")

const temporaryDirectory = () => mkdtemp(path.join(tmpdir(), "atrium-persistence-"))

/** A place a backend can be opened on repeatedly (one opening at a time). */
interface Location {
  readonly open: () => Layer.Layer<Sql, SqlError>
  readonly cleanup: () => Promise<void>
}

interface Backend {
  readonly name: string
  /** Whether reopening a location finds the data written before (not for memory). */
  readonly durable: boolean
  readonly location: () => Promise<Location>
}

const pgliteMemory: Backend = {
  name: "PGlite (memory)",
  durable: false,
  location: async () => ({ open: () => Database.pglite(PgliteSql.memory), cleanup: async () => {} })
}

const pgliteDirectory: Backend = {
  name: "PGlite (directory)",
  durable: true,
  location: async () => {
    const dir = await temporaryDirectory()
    return { open: () => Database.pglite(dir), cleanup: () => rm(dir, { recursive: true, force: true }) }
  }
}

const postgresDatabase: Backend = {
  name: "PostgreSQL",
  durable: true,
  location: async () => {
    const database: TestDatabase = await createTestDatabase({ empty: true })
    return { open: () => Database.postgres(database.url, { max: 5 }), cleanup: database.drop }
  }
}

type Services = Sql | ActorStore | ShardFences | BlobStore

const allMigrations = await Effect.runPromise(Migrations.load())

const suite = (backend: Backend) => {
  let location: Location
  let blobDir: string
  let runtime: ManagedRuntime.ManagedRuntime<Services, unknown>
  const run = <A, E>(effect: Effect.Effect<A, E, Services>): Promise<A> => runtime.runPromise(effect)
  /** Runs `effect` and returns its failure (fails the test if it succeeds). */
  const failure = <A, E>(effect: Effect.Effect<A, E, Services>): Promise<E> => runtime.runPromise(Effect.flip(effect))

  beforeAll(async () => {
    location = await backend.location()
    blobDir = await temporaryDirectory()
    runtime = ManagedRuntime.make(
      Layer.mergeAll(SqlActorStore.layer, FileBlobStore.layer(blobDir)).pipe(Layer.provideMerge(location.open()))
    )
    await runtime.runPromise(Effect.void) // build now, so a broken layer fails here
  })

  afterAll(async () => {
    await runtime?.dispose()
    await location?.cleanup()
    if (blobDir !== undefined) await rm(blobDir, { recursive: true, force: true })
  })

  describe("migrations", () => {
    it("records every migration file once, in order", async () => {
      const rows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query<{ version: number; name: string; applied_at: string }>(
            "select version, name, applied_at from schema_migrations order by version"
          )
        )
      )
      expect(rows.map((row) => [row.version, row.name])).toEqual(allMigrations.map((m) => [m.version, m.name]))
      expect(rows[0]).toMatchObject({ version: 1, name: "core" })
      for (const row of rows) expect(row.applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      const tables = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query<{ table_name: string }>(
            "select table_name from information_schema.tables where table_schema = 'public' order by table_name"
          )
        )
      )
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["actor_state", "blobs", "schema_migrations"]))
    })

    it("is idempotent when run again", async () => {
      const before = await run(Effect.flatMap(Sql, (sql) => sql.query("select * from schema_migrations order by version")))
      const applied = await run(Migrations.run())
      expect(applied).toEqual([])
      const after = await run(Effect.flatMap(Sql, (sql) => sql.query("select * from schema_migrations order by version")))
      expect(after).toEqual(before)
    })

    if (backend.durable)
      it("applies nothing when the database is reopened", async () => {
        const fresh = await backend.location()
        try {
          const read = Effect.flatMap(Sql, (sql) => sql.query("select * from schema_migrations order by version"))
          const first = await Effect.runPromise(Effect.provide(read, fresh.open()))
          expect(first).toHaveLength(allMigrations.length)
          const second = await Effect.runPromise(Effect.provide(Effect.all([Migrations.run(), read]), fresh.open()))
          expect(second[0]).toEqual([])
          expect(second[1]).toEqual(first) // same rows, same applied_at
        } finally {
          await fresh.cleanup()
        }
      })

    it("applies a new migration file once and refuses a renamed version", async () => {
      const dir = await temporaryDirectory()
      try {
        const { writeFile } = await import("node:fs/promises")
        await writeFile(path.join(dir, "900_extra.sql"), "create table test_extra (n int); insert into test_extra values (1), (2);")
        await writeFile(path.join(dir, "README.md"), "not a migration")
        const first = await run(Migrations.run(dir))
        expect(first.map((m) => m.version)).toEqual([900])
        const second = await run(Migrations.run(dir))
        expect(second).toEqual([])
        const rows = await run(Effect.flatMap(Sql, (sql) => sql.query<{ n: number }>("select count(*) as n from test_extra")))
        expect(rows[0].n).toBe(2)

        await rm(path.join(dir, "900_extra.sql"))
        await writeFile(path.join(dir, "900_other.sql"), "select 1;")
        const error = await failure(Migrations.run(dir))
        expect(error).toBeInstanceOf(SqlError)
        expect(error.message).toContain('recorded as "extra"')

        await writeFile(path.join(dir, "900_extra.sql"), "select 1;")
        const duplicate = await failure(Migrations.load(dir))
        expect(duplicate.message).toContain("version 900 is used by both")
      } finally {
        await run(
          Effect.flatMap(Sql, (sql) =>
            sql.executeScript("drop table if exists test_extra; delete from schema_migrations where version = 900")
          )
        )
        await rm(dir, { recursive: true, force: true })
      }
    })

    it("rolls back a failing migration entirely", async () => {
      const dir = await temporaryDirectory()
      try {
        const { writeFile } = await import("node:fs/promises")
        await writeFile(path.join(dir, "901_broken.sql"), "create table test_broken (n int);\nselect * from no_such_table;")
        const error = await failure(Migrations.run(dir))
        expect(error.message).toContain("Migration 901_broken.sql failed")
        expect(error.code).toBe("42P01")
        const rows = await run(
          Effect.flatMap(Sql, (sql) =>
            sql.query<{ t: string | null; m: number }>(
              "select to_regclass('test_broken')::text as t, (select count(*) from schema_migrations where version = 901) as m"
            )
          )
        )
        expect(rows[0]).toEqual({ t: null, m: 0 })
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    })
  })

  describe("queries", () => {
    it("binds $n parameters as values, never as SQL", async () => {
      const evil = "'); drop table actor_state; --"
      const rows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query<{ sum: number; text: string; again: string; missing: null }>(
            "select $1::int + $2::int as sum, $3::text as text, $3 as again, $4::text as missing",
            [2, 3, evil, null]
          )
        )
      )
      expect(rows).toEqual([{ sum: 5, text: evil, again: evil, missing: null }])
      const tables = await run(Effect.flatMap(Sql, (sql) => sql.query("select to_regclass('actor_state')::text as t")))
      expect(tables[0]).toEqual({ t: "actor_state" })
    })

    it("returns the documented JS values", async () => {
      const rows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query(`select 42::int8 as small, 9007199254740993::int8 as huge, count(*) as counted,
          1.50::numeric as exact, 7::int4 as int, 0.5::float8 as float, true as bool,
          '2024-05-01 12:00:00.123456+02'::timestamptz as tstz, '2024-05-01 12:00:00'::timestamp as ts,
          '2024-05-01'::date as day, 'infinity'::timestamptz as forever, '\\x00ff'::bytea as bytes,
          array[1, 2]::int8[] as ints, '{"a": [1, {"b": null}]}'::jsonb as doc, null::int8 as nothing`)
        )
      )
      expect(rows).toEqual([
        {
          small: 42,
          huge: "9007199254740993",
          counted: 1,
          exact: "1.50",
          int: 7,
          float: 0.5,
          bool: true,
          tstz: "2024-05-01T10:00:00.123Z",
          ts: "2024-05-01T12:00:00.000Z",
          day: "2024-05-01",
          forever: "infinity",
          bytes: new Uint8Array([0, 255]),
          ints: [1, 2],
          doc: { a: [1, { b: null }] },
          nothing: null
        }
      ])
      expect(Array.isArray(rows)).toBe(true)
      expect(Object.getPrototypeOf(rows)).toBe(Array.prototype)
    })

    it("serializes parameters by the type the server infers", async () => {
      const rows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query(
            `select $1::timestamptz as at, $2::int8 as big, $3::bytea as bytes, $4::date as day, $5::text[] as texts,
            $6::boolean as flag`,
            [
              new Date("2024-01-02T03:04:05.678Z"),
              1234567890123456789n,
              new Uint8Array([1, 2, 3]),
              new Date("2024-03-04T00:00:00Z"),
              ["a", "b,c", 'd"e'],
              false
            ]
          )
        )
      )
      expect(rows).toEqual([
        {
          at: "2024-01-02T03:04:05.678Z",
          big: "1234567890123456789",
          bytes: new Uint8Array([1, 2, 3]),
          day: "2024-03-04",
          texts: ["a", "b,c", 'd"e'],
          flag: false
        }
      ])
    })

    it("stores objects passed for jsonb as JSON objects, not strings", async () => {
      const state = { title: "Hello", tags: ["a", "b"], nested: { n: 1, ok: true, none: null } }
      const rows = await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          yield* sql.query("insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1)", ["json", "object", state])
          yield* sql.query("insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1)", ["json", "array", [1, { two: 2 }]])
          yield* sql.query("insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1)", ["json", "string", "just text"])
          return yield* sql.query<{ id: string; state: unknown; type: string; title: string | null }>(
            `select id, state, jsonb_typeof(state) as type, state->>'title' as title
           from actor_state where kind = 'json' order by id`
          )
        })
      )
      expect(rows).toEqual([
        { id: "array", state: [1, { two: 2 }], type: "array", title: null },
        { id: "object", state, type: "object", title: "Hello" },
        { id: "string", state: "just text", type: "string", title: null }
      ])
      const typed = await run(Effect.flatMap(Sql, (sql) => sql.query<{ t: string }>("select jsonb_typeof($1) as t", [{ a: 1 }])))
      expect(typed).toEqual([{ t: "object" }])
    })

    it("refuses undefined parameters", async () => {
      const error = await failure(Effect.flatMap(Sql, (sql) => sql.query("select $1::text as x", [undefined])))
      expect(error).toBeInstanceOf(SqlError)
      expect(error.message).toContain("$1 is undefined")
    })

    it("fails a unique violation with SqlError code 23505", async () => {
      const insert = Effect.flatMap(Sql, (sql) =>
        sql.query("insert into blobs (key, content_type, size) values ($1, 'text/plain', 1)", ["unique-key"])
      )
      await run(insert)
      const error = await failure(insert)
      expect(error).toBeInstanceOf(SqlError)
      expect(error._tag).toBe("SqlError")
      expect(error.code).toBe("23505")
      expect(error.message).toContain("duplicate key")
      const syntax = await failure(Effect.flatMap(Sql, (sql) => sql.query("selec 1")))
      expect(syntax.code).toBe("42601")
    })

    it("answers a statement after its table changed, and past the prepared statements kept", async () => {
      const results = await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          yield* sql.executeScript("create table prepared_test (n int); insert into prepared_test values (1);")
          const read = sql.query("select * from prepared_test")
          const before = yield* read
          // The result type changes: a prepared statement of the text must be parsed again.
          yield* sql.executeScript("alter table prepared_test add column label text default 'one'")
          const altered = yield* read
          // More distinct texts than a PGlite instance keeps prepared (256): the oldest are closed, and still answer.
          const many: Array<unknown> = []
          for (let i = 0; i < 300; i++) many.push(...(yield* sql.query(`select ${i}::int as i from prepared_test`)))
          const after = yield* read
          yield* sql.executeScript("drop table prepared_test")
          return { before, altered, many, after }
        })
      )
      expect(results.before).toEqual([{ n: 1 }])
      expect(results.altered).toEqual([{ n: 1, label: "one" }])
      expect(results.many).toEqual(Array.from({ length: 300 }, (_, i) => ({ i })))
      expect(results.after).toEqual([{ n: 1, label: "one" }])
    })

    it("runs multi-statement scripts", async () => {
      const rows = await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          yield* sql.executeScript("create temporary table script_test (n int); insert into script_test values (1), (2), (3);")
          const rows = yield* sql.query<{ total: number }>("select sum(n)::int as total from script_test")
          yield* sql.executeScript("drop table script_test")
          return rows
        })
      )
      expect(rows).toEqual([{ total: 6 }])
    })
  })

  describe("transactions", () => {
    const count = (kind: string) =>
      Effect.flatMap(Sql, (sql) =>
        Effect.map(sql.query<{ n: number }>("select count(*) as n from actor_state where kind = $1", [kind]), (rows) => rows[0].n)
      )

    const insert = (kind: string, id: string) =>
      Effect.flatMap(Sql, (sql) =>
        sql.query("insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1)", [kind, id, { id }])
      )

    it("commits on success", async () => {
      const result = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(Effect.andThen(Effect.andThen(insert("tx-commit", "a"), insert("tx-commit", "b")), Effect.succeed("done")))
        )
      )
      expect(result).toBe("done")
      expect(await run(count("tx-commit"))).toBe(2)
    })

    it("sends and reads arrays inside a transaction as outside one", async () => {
      const rows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            sql.query("select $1::text[] as texts, $2::int8[] as ints", [
              ["a", "b,c"],
              [1, 2]
            ])
          )
        )
      )
      expect(rows).toEqual([{ texts: ["a", "b,c"], ints: [1, 2] }])
    })

    it("rolls back on failure and keeps the error", async () => {
      const error = await failure(
        Effect.flatMap(Sql, (sql) => sql.transaction(Effect.andThen(insert("tx-rollback", "a"), Effect.fail("boom" as const))))
      )
      expect(error).toBe("boom")
      expect(await run(count("tx-rollback"))).toBe(0)
    })

    it("rolls back on a defect", async () => {
      const exit = await runtime.runPromiseExit(
        Effect.flatMap(Sql, (sql) => sql.transaction(Effect.andThen(insert("tx-defect", "a"), Effect.die(new Error("bug")))))
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(await run(count("tx-defect"))).toBe(0)
    })

    it("binds Sql to the transaction and joins nested transactions", async () => {
      const txid = Effect.flatMap(Sql, (sql) =>
        Effect.map(sql.query<{ id: string }>("select txid_current()::text as id"), (rows) => rows[0].id)
      )
      const [outer, nested, captured, afterwards1, afterwards2] = await run(
        Effect.gen(function* () {
          const root = yield* Sql
          const ids = yield* root.transaction(
            Effect.gen(function* () {
              const outer = yield* txid
              const nested = yield* (yield* Sql).transaction(txid)
              const captured = yield* Effect.map(root.query<{ id: string }>("select txid_current()::text as id"), (r) => r[0].id)
              return [outer, nested, captured] as const
            })
          )
          return [...ids, yield* txid, yield* txid] as const
        })
      )
      expect(nested).toBe(outer)
      expect(captured).toBe(outer)
      expect(afterwards1).not.toBe(outer)
      expect(afterwards2).not.toBe(afterwards1)

      const error = await failure(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            Effect.gen(function* () {
              yield* insert("tx-nested", "outer")
              yield* sql.transaction(insert("tx-nested", "inner"))
              return yield* Effect.fail("outer fails" as const)
            })
          )
        )
      )
      expect(error).toBe("outer fails")
      expect(await run(count("tx-nested"))).toBe(0)
    })

    it("refuses to commit after a handled statement error", async () => {
      const error = await failure(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            Effect.gen(function* () {
              yield* insert("tx-aborted", "a")
              yield* insert("tx-aborted", "a").pipe(Effect.catch(() => Effect.void)) // 23505, swallowed
              return "would be lost"
            })
          )
        )
      )
      expect(error).toBeInstanceOf(SqlError)
      expect((error as SqlError).code).toBe("25P02")
      expect(await run(count("tx-aborted"))).toBe(0)
    })

    it("runs a statement with COMMIT: its rows after the commit, its failure rolls everything back", async () => {
      const seen: Array<string> = []
      const committed = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            Effect.gen(function* () {
              yield* insert("tx-closing", "a")
              yield* sql.queryWithCommit<{ id: string }>(
                "insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1) returning id",
                ["tx-closing", "b", { id: "b" }],
                (rows) => Effect.sync(() => void seen.push(...rows.map((row) => row.id)))
              )
              // Not run yet: it goes out with COMMIT.
              seen.push("body done")
              return "done"
            })
          )
        )
      )
      expect(committed).toBe("done")
      expect(seen).toEqual(["body done", "b"])
      expect(await run(count("tx-closing"))).toBe(2)

      // A closing statement that fails (a unique violation) takes the body's writes with it.
      const error = await failure(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            Effect.andThen(
              insert("tx-closing", "c"),
              sql.queryWithCommit(
                "insert into actor_state (kind, id, state, version) values ($1, $2, $3, 1)",
                ["tx-closing", "a", { id: "a" }],
                () => Effect.sync(() => void seen.push("never"))
              )
            )
          )
        )
      )
      expect(error).toBeInstanceOf(SqlError)
      expect((error as SqlError).code).toBe("23505")
      expect(seen).not.toContain("never")
      expect(await run(count("tx-closing"))).toBe(2)

      // Outside a transaction it runs at once.
      await run(
        Effect.flatMap(Sql, (sql) =>
          sql.queryWithCommit("select 1 as n", [], (rows) => Effect.sync(() => void seen.push(`outside ${rows.length}`)))
        )
      )
      expect(seen.at(-1)).toBe("outside 1")
      // The connection is usable after the rolled-back one.
      expect(await run(count("tx-closing"))).toBe(2)
    })

    it("queues statements from other fibers behind an open transaction", async () => {
      const events: Array<string> = []
      await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          const started = yield* Deferred.make<void>()
          const transaction = yield* Effect.forkChild(
            sql
              .transaction(
                Effect.gen(function* () {
                  yield* insert("tx-queue", "in-transaction")
                  yield* Deferred.succeed(started, undefined)
                  yield* Effect.sleep("300 millis")
                  events.push("transaction ends")
                  return yield* Effect.fail("roll back" as const)
                })
              )
              .pipe(Effect.ignore)
          )
          yield* Deferred.await(started)
          // issued while the transaction is open, from another fiber, outside it
          yield* insert("tx-queue", "outside")
          events.push("outside done")
          yield* Fiber.join(transaction)
        })
      )
      const ids = await run(
        Effect.flatMap(Sql, (sql) => sql.query<{ id: string }>("select id from actor_state where kind = 'tx-queue' order by id"))
      )
      // the outside insert was not swallowed by the rolled back transaction
      expect(ids).toEqual([{ id: "outside" }])
      if (backend.name.startsWith("PGlite")) {
        // one session: the outside statement waited for the transaction to end
        expect(events).toEqual(["transaction ends", "outside done"])
      }
    })

    it("rolls back an interrupted transaction and stays usable", async () => {
      await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          const started = yield* Deferred.make<void>()
          const fiber = yield* Effect.forkChild(
            sql.transaction(
              Effect.gen(function* () {
                yield* insert("tx-interrupt", "a")
                yield* Deferred.succeed(started, undefined)
                return yield* Effect.never
              })
            )
          )
          yield* Deferred.await(started)
          yield* Fiber.interrupt(fiber)
        })
      )
      expect(await run(count("tx-interrupt"))).toBe(0)
      expect(await run(Effect.flatMap(Sql, (sql) => sql.query("select 1 as one")))).toEqual([{ one: 1 }])
    })

    it("rolls back a transaction interrupted while another one is open", async () => {
      await run(
        Effect.gen(function* () {
          const sql = yield* Sql
          const release = yield* Deferred.make<void>()
          const first = yield* Effect.forkChild(sql.transaction(Effect.andThen(insert("tx-waiting", "first"), Deferred.await(release))))
          yield* Effect.sleep("50 millis")
          // on PGlite this one waits for `first` to end; on PostgreSQL it runs on another connection
          const second = yield* Effect.forkChild(sql.transaction(Effect.andThen(insert("tx-waiting", "second"), Effect.never)))
          yield* Effect.sleep("50 millis")
          yield* Fiber.interrupt(second)
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(first)
        })
      )
      const ids = await run(
        Effect.flatMap(Sql, (sql) => sql.query<{ id: string }>("select id from actor_state where kind = 'tx-waiting' order by id"))
      )
      expect(ids).toEqual([{ id: "first" }])
      expect(await run(Effect.flatMap(Sql, (sql) => sql.query("select 2 as two")))).toEqual([{ two: 2 }])
    })
  })

  describe("blob store", () => {
    it("puts, gets, overwrites and deletes", async () => {
      const bytes = new TextEncoder().encode("hello blob")
      const info = await run(Effect.flatMap(BlobStore, (store) => store.put("docs/2024/hello.txt", bytes, "text/plain")))
      expect(info).toEqual({ key: "docs/2024/hello.txt", size: bytes.byteLength, contentType: "text/plain" })
      expect(await readFile(path.join(blobDir, "blobs", "docs", "2024", "hello.txt"), "utf8")).toBe("hello blob")

      const got = await run(Effect.flatMap(BlobStore, (store) => store.get("docs/2024/hello.txt")))
      expect(got?.info).toEqual(info)
      expect(Array.from(got!.bytes)).toEqual(Array.from(bytes))

      const meta = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query<{ content_type: string; size: number }>("select content_type, size from blobs where key = $1", ["docs/2024/hello.txt"])
        )
      )
      expect(meta).toEqual([{ content_type: "text/plain", size: bytes.byteLength }])

      const replaced = new Uint8Array([0, 1, 2, 254, 255])
      await run(Effect.flatMap(BlobStore, (store) => store.put("docs/2024/hello.txt", replaced, "application/octet-stream")))
      const again = await run(Effect.flatMap(BlobStore, (store) => store.get("docs/2024/hello.txt")))
      expect(again?.info).toEqual({ key: "docs/2024/hello.txt", size: 5, contentType: "application/octet-stream" })
      expect(Array.from(again!.bytes)).toEqual([0, 1, 2, 254, 255])
      // no temporary files left behind
      expect(await readdir(path.join(blobDir, "blobs", "docs", "2024"))).toEqual(["hello.txt"])

      await run(Effect.flatMap(BlobStore, (store) => store.delete("docs/2024/hello.txt")))
      expect(await run(Effect.flatMap(BlobStore, (store) => store.get("docs/2024/hello.txt")))).toBeUndefined()
      expect(existsSync(path.join(blobDir, "blobs", "docs", "2024", "hello.txt"))).toBe(false)
      await run(Effect.flatMap(BlobStore, (store) => store.delete("docs/2024/hello.txt"))) // deleting twice is fine
      expect(await run(Effect.flatMap(BlobStore, (store) => store.get("never-stored")))).toBeUndefined()
    })

    it("refuses keys that could leave the blob directory", async () => {
      const keys = ["../escape", "a/../../escape", "/etc/passwd", "a\\..\\b", "", ".hidden", "a//b", "a/./b", "a/", "..", "x".repeat(600)]
      for (const key of keys) {
        const error = await failure(Effect.flatMap(BlobStore, (store) => store.put(key, new Uint8Array([1]), "text/plain")))
        expect(error._tag, key).toBe("BlobError")
        expect(error.message).toContain("Invalid blob key")
        const getError = await failure(Effect.flatMap(BlobStore, (store) => store.get(key)))
        expect(getError._tag).toBe("BlobError")
      }
      expect(existsSync(path.join(blobDir, "escape"))).toBe(false)
      expect(existsSync(path.join(path.dirname(blobDir), "escape"))).toBe(false)
    })
  })

  describe("actor store", () => {
    const address = { kind: "counter", id: "c-1" }

    it("loads, saves with an increasing version, and removes", async () => {
      const store = await run(SqlActorStore.make)
      expect(await run(store.load(address))).toBeUndefined()

      expect(await run(store.save(address, { count: 1 }, 0))).toBe(1)
      expect(await run(store.load(address))).toEqual({ state: { count: 1 }, version: 1 })
      expect(await run(store.loadRow(address))).toMatchObject({ state: { count: 1 }, version: 1 })

      expect(await run(store.save(address, { count: 2, items: ["x"] }, 1))).toBe(2)
      const row = await run(store.loadRow(address))
      expect(row).toMatchObject({ state: { count: 2, items: ["x"] }, version: 2 })
      expect(row!.updatedAt).toMatch(/Z$/)
      const typeRows = await run(
        Effect.flatMap(Sql, (sql) =>
          sql.query("select jsonb_typeof(state) as t from actor_state where kind = $1 and id = $2", [address.kind, address.id])
        )
      )
      expect(typeRows).toEqual([{ t: "object" }])

      // through the ActorStore service
      await run(Effect.flatMap(ActorStore, (actors) => actors.save(address, { count: 3 }, 2)))
      expect(await run(Effect.flatMap(ActorStore, (actors) => actors.load(address)))).toEqual({ state: { count: 3 }, version: 3 })
      expect((await run(store.loadRow(address)))!.version).toBe(3)

      await run(store.remove(address))
      expect(await run(store.load(address))).toBeUndefined()
      await run(store.save(address, { count: 0 }, 0))
      expect((await run(store.loadRow(address)))!.version).toBe(1)
      await run(store.remove(address))
    })

    it("stores null and primitive states as JSON", async () => {
      const store = await run(SqlActorStore.make)
      await run(store.save({ kind: "counter", id: "null" }, null, 0))
      await run(store.save({ kind: "counter", id: "number" }, 42, 0))
      expect(await run(store.load({ kind: "counter", id: "null" }))).toEqual({ state: null, version: 1 })
      expect(await run(store.load({ kind: "counter", id: "number" }))).toEqual({ state: 42, version: 1 })
    })

    it("joins the caller's transaction", async () => {
      const store = await run(SqlActorStore.make)
      const error = await failure(
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(Effect.andThen(store.save({ kind: "counter", id: "tx" }, { n: 1 }, 0), Effect.fail("abort" as const)))
        )
      )
      expect(error).toBe("abort")
      expect(await run(store.load({ kind: "counter", id: "tx" }))).toBeUndefined()
    })

    it("refuses a save conditional on a version that moved on, writing nothing", async () => {
      const store = await run(SqlActorStore.make)
      const stale = { kind: "counter", id: "stale" }
      await run(store.save(stale, { by: "first owner" }, 0))
      // A second writer that also loaded "never saved" must not overwrite it.
      expect(await failure(store.save(stale, { by: "late insert" }, 0))).toBeInstanceOf(StaleState)
      expect(await run(store.save(stale, { by: "second owner" }, 1))).toBe(2)
      // The first owner's delayed save, made from version 1, lands after the second's: refused.
      expect(await failure(store.save(stale, { by: "delayed first owner" }, 1))).toBeInstanceOf(StaleState)
      expect(await run(store.loadRow(stale))).toMatchObject({ state: { by: "second owner" }, version: 2 })
    })
  })

  describe("shard fences", () => {
    const shard = 1000 + Math.floor(Math.random() * 1000)
    const fenceOf = (epoch: number): Fence => ({ shard, epoch, committed: false, refused: undefined })
    const fenced = <A, E>(fence: Fence, effect: Effect.Effect<A, E, Services>) => Effect.provideService(effect, CurrentFence, fence)
    const rowsOf = (id: string) =>
      run(
        Effect.flatMap(Sql, (sql) =>
          sql.query<{ n: number }>("select count(*) as n from actor_state where kind = 'fence' and id = $1", [id])
        )
      )
    const insert = (id: string) =>
      Effect.flatMap(Sql, (sql) =>
        sql.query("insert into actor_state (kind, id, state, version) values ('fence', $1, '{}'::jsonb, 1)", [id])
      )

    it("refuses the transactions and bare writes of a node whose epoch was bumped by another", async () => {
      const first = await run(Effect.flatMap(ShardFences, (fences) => fences.acquire(shard, "node-a")))
      const second = await run(Effect.flatMap(ShardFences, (fences) => fences.acquire(shard, "node-b")))
      expect(second).toBe(first + 1)

      const old = fenceOf(first)
      const inTransaction = await run(
        Effect.exit(
          fenced(
            old,
            Effect.flatMap(Sql, (sql) => sql.transaction(insert("stale-tx")))
          )
        )
      )
      expect(Exit.isFailure(inTransaction) && Cause.squash(inTransaction.cause)).toBeInstanceOf(Fenced)
      const bare = await run(Effect.exit(fenced(old, insert("stale-bare"))))
      expect(Exit.isFailure(bare) && Cause.squash(bare.cause)).toBeInstanceOf(Fenced)
      expect(old.committed).toBe(false)
      expect(old.refused).toBeInstanceOf(Fenced)
      // Reads need no fence.
      expect(
        await run(
          fenced(
            old,
            Effect.flatMap(Sql, (sql) => sql.query("select 1 as one"))
          )
        )
      ).toEqual([{ one: 1 }])
      expect(await rowsOf("stale-tx")).toEqual([{ n: 0 }])
      expect(await rowsOf("stale-bare")).toEqual([{ n: 0 }])

      const current = fenceOf(second)
      await run(fenced(current, insert("current")))
      expect(current.committed).toBe(true)
      expect(await rowsOf("current")).toEqual([{ n: 1 }])
    })

    it("bumps an epoch only after the transactions that passed the old fence have finished", async () => {
      const epoch = await run(Effect.flatMap(ShardFences, (fences) => fences.acquire(shard, "node-a")))
      const order: Array<string> = []
      const inside = Deferred.makeUnsafe<void>()
      const release = Deferred.makeUnsafe<void>()
      const owner = fenced(
        fenceOf(epoch),
        Effect.flatMap(Sql, (sql) =>
          sql.transaction(
            Effect.gen(function* () {
              yield* insert("before-bump")
              yield* Deferred.succeed(inside, undefined)
              yield* Deferred.await(release)
              order.push("old owner committed")
            })
          )
        )
      )
      const ownerFiber = runtime.runFork(owner)
      await runtime.runPromise(Deferred.await(inside))
      const bump = runtime.runPromise(
        Effect.flatMap(ShardFences, (fences) => fences.acquire(shard, "node-b")).pipe(
          Effect.tap(() => Effect.sync(() => order.push("bumped")))
        )
      )
      // PGlite is one session: its transaction holds the only connection, so the bump queues the same way.
      await new Promise((resolve) => setTimeout(resolve, 100))
      await runtime.runPromise(Deferred.succeed(release, undefined))
      await runtime.runPromise(Fiber.join(ownerFiber))
      expect(await bump).toBe(epoch + 1)
      expect(order).toEqual(["old owner committed", "bumped"])
      expect(await rowsOf("before-bump")).toEqual([{ n: 1 }])
    })
  })
}

describe("persistence on PGlite (memory)", () => suite(pgliteMemory))
describe("persistence on PGlite (directory)", () => suite(pgliteDirectory))
describe.skipIf(!postgresReady)("persistence on PostgreSQL", () => {
  suite(postgresDatabase)

  it("migrates once when several processes start at once", async () => {
    const database = await createTestDatabase({ empty: true })
    try {
      const starts = Array.from({ length: 4 }, () =>
        Effect.provide(
          Effect.flatMap(Sql, (sql) => sql.query("select 1 as ok")),
          Database.postgres(database.url, { max: 2 })
        )
      )
      const results = await Effect.runPromise(Effect.all(starts, { concurrency: "unbounded" }))
      expect(results).toEqual(Array.from({ length: 4 }, () => [{ ok: 1 }]))
      const rows = await Effect.runPromise(
        Effect.provide(
          Effect.flatMap(Sql, (sql) =>
            sql.query<{ version: number; n: number }>(
              "select version, count(*) as n from schema_migrations group by version order by version"
            )
          ),
          Database.postgres(database.url, { max: 1 })
        )
      )
      expect(rows).toEqual(allMigrations.map((m) => ({ version: m.version, n: 1 })))
    } finally {
      await database.drop()
    }
  })
})

describe("PGlite directory durability", () => {
  it("keeps data after close and reopen", async () => {
    const dir = await temporaryDirectory()
    try {
      const address = { kind: "durable", id: "reopen" }
      const write = Effect.flatMap(SqlActorStore.make, (store) => store.save(address, { kept: true }, 0))
      await Effect.runPromise(Effect.provide(write, Database.pglite(dir)))
      expect(existsSync(path.join(dir, "pglite", "PG_VERSION"))).toBe(true)
      const read = Effect.flatMap(SqlActorStore.make, (store) => store.loadRow(address))
      const row = await Effect.runPromise(Effect.provide(read, Database.pglite(dir)))
      expect(row).toMatchObject({ state: { kept: true }, version: 1 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000) // two openings, the first one creating the database: most of a minute on a loaded 2-core machine

  it("refuses a directory that is already open, and takes over a dead owner's lock", async () => {
    const dir = await temporaryDirectory()
    // A copy of the migrated template: this test is about the lock, not about creating a database (the test above).
    await seedPglite(dir)
    try {
      const held = ManagedRuntime.make(Database.pglite(dir))
      try {
        await held.runPromise(Effect.void)
        expect(await readFile(path.join(dir, "pglite.lock"), "utf8")).toBe(`${process.pid}\n`)
        const error = await Effect.runPromise(Effect.flip(Effect.provide(Effect.void, Database.pglite(dir))))
        expect(error).toBeInstanceOf(SqlError)
        expect(error.message).toContain("already open in this process")
      } finally {
        await held.dispose()
      }
      expect(existsSync(path.join(dir, "pglite.lock"))).toBe(false)

      // a lock file left by a process that no longer exists
      const { writeFile } = await import("node:fs/promises")
      const dead = spawn(process.execPath, ["-e", ""])
      const deadPid = dead.pid!
      await new Promise((resolve) => dead.once("close", resolve))
      await writeFile(path.join(dir, "pglite.lock"), `${deadPid}\n`)
      const rows = await Effect.runPromise(
        Effect.provide(
          Effect.flatMap(Sql, (sql) => sql.query<{ n: number }>("select count(*) as n from schema_migrations")),
          Database.pglite(dir)
        )
      )
      expect(rows[0].n).toBe(allMigrations.length)

      // a lock file of a live process (this test's parent, standing in for another server)
      await writeFile(path.join(dir, "pglite.lock"), `${process.ppid}\n`)
      const busy = await Effect.runPromise(Effect.flip(Effect.provide(Effect.void, Database.pglite(dir))))
      expect(busy.message).toContain(`in use by process ${process.ppid}`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("keeps every committed write when the process is killed", async () => {
    const dir = await temporaryDirectory()
    // The writer starts on a copy of the migrated template: what is checked is what survives the kill.
    await seedPglite(dir)
    try {
      const writer = fileURLToPath(new URL("./support/pgliteWriter.ts", import.meta.url))
      const child = spawn(process.execPath, ["--import", "tsx", writer, dir], { stdio: ["ignore", "pipe", "pipe"] })
      let stderr = ""
      child.stderr.on("data", (chunk) => (stderr += chunk))
      const lastCommitted = await new Promise<number>((resolve, reject) => {
        let buffered = ""
        let last = 0
        child.stdout.on("data", (chunk: Buffer) => {
          buffered += chunk.toString()
          const lines = buffered.split("\n")
          buffered = lines.pop()!
          for (const line of lines) {
            const match = /^committed (\d+)$/.exec(line)
            if (match) last = Number(match[1])
          }
          if (last >= 25 && !child.killed) {
            child.kill("SIGKILL")
            resolve(last)
          }
        })
        child.on("exit", (code, signal) => {
          if (signal !== "SIGKILL") reject(new Error(`writer exited (${code ?? signal}) before being killed: ${stderr}`))
        })
      })
      await new Promise((resolve) => child.once("close", resolve))
      expect(child.signalCode).toBe("SIGKILL")

      const rows = await Effect.runPromise(
        Effect.provide(
          Effect.flatMap(Sql, (sql) =>
            sql.query<{ id: string; state: { n: number } }>("select id, state from actor_state where kind = 'durability'")
          ),
          Database.pglite(dir)
        )
      )
      const ids = new Set(rows.map((row) => Number(row.id)))
      for (let n = 1; n <= lastCommitted; n++) expect(ids.has(n), `row ${n} committed before the kill`).toBe(true)
      expect(rows.find((row) => row.id === "1")?.state).toEqual({ n: 1 })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000) // a child process started through tsx: on a loaded 2-core machine, most of a minute
})

describe("PGlite statement path", () => {
  it("sends statements without PGlite's execProtocolRaw, whose parsed replies pile up until its own query runs", async () => {
    const { PGlite } = await import("@electric-sql/pglite")
    const db = await PGlite.create()
    try {
      // Every statement of the Sql service must avoid it: a scan of reads would keep every reply in memory.
      db.execProtocolRaw = () => Promise.reject(new Error("execProtocolRaw keeps every reply's messages"))
      const sql = PgliteSql.make(db)
      const run = <A>(effect: Effect.Effect<A, SqlError>) => Effect.runPromise(effect)
      // A reply of two megabytes arrives in several chunks.
      const rows = await run(sql.query<{ n: number; v: string }>(`SELECT g AS n, repeat('x', 500) AS v FROM generate_series(1, 4000) g`))
      expect(rows).toHaveLength(4000)
      expect(rows[3999]).toEqual({ n: 4000, v: "x".repeat(500) })
      const bytes = new Uint8Array([0, 1, 2, 255])
      expect(await run(sql.query<{ b: Uint8Array }>(`SELECT $1::bytea AS b`, [bytes]))).toEqual([{ b: bytes }])
      const error = await Effect.runPromise(Effect.flip(sql.query(`SELECT * FROM no_such_table`)))
      expect(error).toBeInstanceOf(SqlError)
      expect(await run(sql.query<{ one: number }>(`SELECT 1 AS one`))).toEqual([{ one: 1 }])
    } finally {
      await db.close()
    }
    // A fresh PGlite runs initdb: 50 s on this loaded 2-core machine.
  }, 180_000)
})
