/**
 * PostgreSQL that stops answering or drops a connection (persistence/PostgresSql.ts):
 * a statement held past its client-side time limit fails as transient (a 503,
 * never a hang) and the pool is replaced, so the next statement runs on a fresh
 * connection; a transaction whose connection the server ended fails its next
 * statement with a transient error and the process survives (postgres.js 3.4.9
 * would write to the closed socket: an uncaught TypeError, porsager/postgres#1208).
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

  beforeAll(async () => {
    database = await createTestDatabase()
    process.on("uncaughtException", onUncaught)
  })
  afterAll(async () => {
    process.off("uncaughtException", onUncaught)
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
})
