/**
 * PostgreSQL that stops answering or drops a connection (persistence/PostgresSql.ts):
 * a statement held past its client-side time limit fails as transient (a 503,
 * never a hang) and the pool is replaced, so the next statement runs on a fresh
 * connection; a transaction whose connection the server ended fails its next
 * statement with a transient error and the process survives (postgres.js 3.4.9
 * would write to the closed socket: an uncaught TypeError, porsager/postgres#1208);
 * a pool replaced while its new connections start up fails its callers as
 * transient and leaves nothing unhandled (postgres.js 3.4.9 fetching array types
 * on each new connection: an unhandled CONNECTION_DESTROYED, porsager/postgres#1192).
 */
import { Context, Effect, Exit, Layer, Scope } from "effect"
import postgres from "postgres"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { TimeLimit } from "../persistence/internal/driver.ts"
import * as PostgresSql from "../persistence/PostgresSql.ts"
import { Sql, type SqlError, type SqlShape } from "../persistence/Sql.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"
import { type FaultProxy, startFaultProxy } from "./support/FaultProxy.ts"

const suite = "PostgreSQL faults (time limit, lost transaction connection)"
const ready = await checkPostgres(suite)

describe.skipIf(!ready)("PostgreSQL that stops answering", () => {
  let database: TestDatabase
  let proxy: FaultProxy
  let scope: Scope.Closeable
  let sql: SqlShape
  const uncaught: Array<unknown> = []
  const onUncaught = (error: unknown) => uncaught.push(error)
  const unhandled: Array<unknown> = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)

  beforeAll(async () => {
    database = await createTestDatabase()
    process.on("uncaughtException", onUncaught)
    process.on("unhandledRejection", onUnhandled)
  })
  afterAll(async () => {
    process.off("uncaughtException", onUncaught)
    process.off("unhandledRejection", onUnhandled)
    await database?.drop()
  })
  beforeEach(async () => {
    const url = new URL(database.url)
    proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.hostname = "127.0.0.1"
    url.port = String(proxy.port)
    scope = await Effect.runPromise(Scope.make())
    sql = await Effect.runPromise(
      Effect.map(Layer.buildWithScope(PostgresSql.layer(url.toString(), { max: 2 }), scope), (built) => Context.get(built, Sql))
    )
  })
  afterEach(async () => {
    proxy.set("pass")
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await proxy.close()
  })

  const failure = (effect: Effect.Effect<unknown, SqlError>) => Effect.runPromise(Effect.flip(effect))

  it("fails a statement held past its time limit as transient, then serves the next one on a fresh pool", async () => {
    expect(await Effect.runPromise(sql.query<{ n: number }>("select 1 as n"))).toEqual([{ n: 1 }])
    const before = proxy.accepted()
    proxy.set("hold")
    const error = await failure(Effect.provideService(sql.query("select 2 as n"), TimeLimit, 300))
    expect(error).toMatchObject({ _tag: "SqlError", transient: true })
    expect(error.message).toContain("did not answer")
    proxy.set("pass")
    expect(await Effect.runPromise(sql.query<{ n: number }>("select 3 as n"))).toEqual([{ n: 3 }])
    // The held pool was given up: the statement after it went out on a new connection.
    expect(proxy.accepted()).toBeGreaterThan(before)
  })

  it("fails a transaction held at COMMIT within the time limit instead of hanging", async () => {
    await Effect.runPromise(sql.query("create table if not exists held_commit (n int)"))
    const error = await failure(
      Effect.provideService(
        sql.transaction(
          Effect.andThen(
            sql.query("insert into held_commit values (1)"),
            Effect.sync(() => proxy.set("hold"))
          )
        ),
        TimeLimit,
        300
      )
    )
    expect(error).toMatchObject({ _tag: "SqlError", transient: true })
    proxy.set("pass")
    expect(await Effect.runPromise(sql.query<{ n: number }>("select 4 as n"))).toEqual([{ n: 4 }])
  })

  it("never writes to a transaction's connection once the server ended it, and the process survives", async () => {
    const admin = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      for (const wait of [0, 200]) {
        const error = await failure(
          sql.transaction(
            Effect.gen(function* () {
              const [row] = yield* sql.query<{ pid: number }>("select pg_backend_pid() as pid")
              yield* Effect.promise(() => admin`select pg_terminate_backend(${row!.pid})`)
              if (wait > 0) yield* Effect.sleep(wait)
              yield* sql.query("select 1")
              yield* sql.query("select 2")
            })
          )
        )
        expect(error).toMatchObject({ _tag: "SqlError", transient: true })
      }
    } finally {
      await admin.end()
    }
    // Anything postgres.js scheduled on the dead connection has run by now.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(uncaught).toEqual([])
    // postgres.js 3.4.9 hands the server's termination error to the first statement of the reconnected connection
    // (failing it before it is sent, as transient): one retry.
    expect(await Effect.runPromise(Effect.retry(sql.query<{ n: number }>("select 5 as n"), { times: 1 }))).toEqual([{ n: 5 }])
  })

  it("replaces a pool whose new connections are still starting up: its callers fail as transient, nothing goes unhandled", async () => {
    // The warm pool is given up, so the statements below open new connections.
    proxy.set("hold")
    await failure(Effect.provideService(sql.query("select 1"), TimeLimit, 200))
    proxy.set("pass")
    // Each new connection is held at the first statement after its startup (postgres.js's own catalog query when it
    // fetches array types there), until the statements' limit gives that pool up too and ends it under them.
    const held = proxy.holdWhen((chunk) => /select/i.test(chunk.toString("latin1")), 10_000)
    const errors = await Promise.all([1, 2, 3].map((n) => failure(Effect.provideService(sql.query(`select ${n} as n`), TimeLimit, 500))))
    expect(await held).toBe(true)
    for (const error of errors) expect(error).toMatchObject({ _tag: "SqlError", transient: true })
    // The held bytes arrive at the ended connections; whatever postgres.js still had pending on them has settled.
    proxy.set("pass")
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(unhandled).toEqual([])
    expect(uncaught).toEqual([])
    expect(await Effect.runPromise(sql.query<{ n: number }>("select 6 as n"))).toEqual([{ n: 6 }])
  })

  it("reads and binds arrays on a replaced pool (array types are learned once, not per connection)", async () => {
    proxy.set("hold")
    await failure(Effect.provideService(sql.query("select 1"), TimeLimit, 200))
    proxy.set("pass")
    const [row] = await Effect.runPromise(
      sql.query<{ texts: Array<string>; numbers: Array<number>; at: Array<string> }>(
        "select $1::text[] as texts, array[1, 2]::int8[] as numbers, array['2024-05-01 12:00:00.5+02'::timestamptz] as at",
        [["a", 'quote " and, comma', "c"]]
      )
    )
    expect(row).toEqual({ texts: ["a", 'quote " and, comma', "c"], numbers: [1, 2], at: ["2024-05-01T10:00:00.500Z"] })
  })
})
