/**
 * Idempotency keys through the runtime (in-process transport, SqlActorStore
 * on PGlite, each test on a copy of the migrated template — the same code path the NATS transport's re-sends take): a write
 * sent again with its key is answered with the first reply and applied once,
 * by the activation that handled it (from memory) and by a later one, on
 * another node, that only has the record (from the database); a key whose
 * writes committed without a recorded reply is refused, never run twice; old
 * keys are swept.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Context, Effect, Exit, Layer, Logger, Schema, Scope } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as Database from "../persistence/Database.ts"
import { Sql, SqlError } from "../persistence/Sql.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import * as SqlRequestLog from "../persistence/SqlRequestLog.ts"
import { Actor } from "../runtime/Actor.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import { Rejection } from "../runtime/Rejection.ts"
import { seedPglite } from "../tools/PgliteTemplate.ts"
import { Counter, NodeInfo } from "./support/runtimeActors.ts"

/** A rebuilt kind whose handler commits its own row (like the pm and wiki actors). */
const Ledger = Actor<{ readonly entries: number }>()({
  kind: "Ledger",
  state: Schema.Struct({ entries: Schema.Number }),
  initial: () => ({ entries: 0 }),
  rebuild: (id) =>
    Effect.map(
      Effect.orDie(Sql.use((sql) => sql.query<{ n: number }>("select count(*) as n from test_ledger where ledger = $1", [id]))),
      (rows) => ({ entries: rows[0]!.n })
    ),
  messages: {
    Append: { payload: Schema.Struct({ note: Schema.String }), success: Schema.Struct({ entries: Schema.Number }) },
    /** Commits its row, then fails: a defect, or a database that stopped answering (a handler that commits in steps). */
    AppendThenFail: {
      payload: Schema.Struct({ note: Schema.String, transient: Schema.Boolean }),
      success: Schema.Struct({ entries: Schema.Number })
    }
  },
  handlers: {
    Append: ({ note }, ctx) =>
      Effect.gen(function* () {
        yield* Effect.orDie(Sql.use((sql) => sql.query("insert into test_ledger (ledger, note) values ($1, $2)", [ctx.address.id, note])))
        ctx.setState({ entries: ctx.state.entries + 1 })
        return { entries: ctx.state.entries + 1 }
      }),
    AppendThenFail: ({ note, transient }, ctx) =>
      Effect.gen(function* () {
        yield* Effect.orDie(Sql.use((sql) => sql.query("insert into test_ledger (ledger, note) values ($1, $2)", [ctx.address.id, note])))
        return yield* transient
          ? Effect.die(new SqlError({ message: "connection lost on the second step", transient: true }))
          : Effect.die(new Error("the second step is broken"))
      })
  }
})

type Services = Sql | ActorSystem

let scope: Scope.Closeable
let context: Context.Context<Services>
let dataDir: string

const systemLayer = (name: string) =>
  layerInProcess([Counter, Ledger]).pipe(
    Layer.provide(Layer.mergeAll(SqlActorStore.layer, Layer.succeed(NodeInfo, { name }))),
    Layer.provide(Logger.layer([Logger.make(() => {})]))
  )

beforeEach(async () => {
  // A copy of the migrated template: a fresh database without initdb and every migration each time (seconds of CPU).
  dataDir = mkdtempSync(path.join(tmpdir(), "atrium-idempotency-"))
  await seedPglite(dataDir)
  scope = await Effect.runPromise(Scope.make())
  context = await Effect.runPromise(
    Effect.gen(function* () {
      const built = yield* Layer.buildWithScope(systemLayer("first").pipe(Layer.provideMerge(Database.pglite(dataDir))), scope)
      yield* Effect.provideContext(
        Sql.use((sql) => sql.query("create table test_ledger (ledger text not null, note text not null)")),
        built
      )
      return built
    })
  )
})

afterEach(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dataDir, { recursive: true, force: true })
})

const run = <A, E>(effect: Effect.Effect<A, E, Services>): Promise<A> => Effect.runPromise(Effect.provideContext(effect, context))
const system = (): ActorSystemShape => Context.get(context, ActorSystem)
const query = <R extends object>(text: string, params: ReadonlyArray<unknown> = []) => run(Sql.use((sql) => sql.query<R>(text, params)))
const ledgerRows = (id: string) => query<{ note: string }>("select note from test_ledger where ledger = $1", [id])
const recordOf = async (key: string) => (await query<{ reply: string | null }>("select reply from actor_requests where key = $1", [key]))[0]

/** The reply of a rebuilt kind is recorded right after its handler, in the background: waits for it (bounded). */
const untilRecorded = async (key: string) => {
  for (let i = 0; i < 200; i++) {
    const record = await recordOf(key)
    if (record?.reply != null) return record
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return recordOf(key)
}

/** A second node on the same database: it takes the shard over (fencing the first) with no activation of its own yet. */
const secondNode = () =>
  Effect.runPromise(
    Effect.map(Layer.buildWithScope(systemLayer("second").pipe(Layer.provide(Layer.succeedContext(context))), scope), (built) =>
      Context.get(built, ActorSystem)
    )
  )

describe("idempotency keys", () => {
  it("answers a rebuilt kind's repeated key with the first reply and applies the write once", async () => {
    const first = await run(system().ask(Ledger, "l-1", "Append", { note: "a" }, { idempotencyKey: "key-l-1" }))
    expect(first).toEqual({ entries: 1 })
    expect(await run(system().ask(Ledger, "l-1", "Append", { note: "a" }, { idempotencyKey: "key-l-1" }))).toEqual(first)
    expect(await ledgerRows("l-1")).toEqual([{ note: "a" }])
    // Another key is another write.
    expect(await run(system().ask(Ledger, "l-1", "Append", { note: "b" }, { idempotencyKey: "key-l-2" }))).toEqual({ entries: 2 })
    expect(await untilRecorded("key-l-1")).toEqual({ reply: JSON.stringify({ ok: first }) })
  })

  it("records a persisted kind's reply in the transaction of its save", async () => {
    const first = await run(system().ask(Counter, "c-1", "Increment", { by: 5 }, { idempotencyKey: "key-c-1" }))
    expect(first).toEqual({ count: 5, node: "first" })
    // Recorded with the save, before the reply went out: no waiting.
    expect(await recordOf("key-c-1")).toEqual({ reply: JSON.stringify({ ok: first }) })
    expect(await run(system().ask(Counter, "c-1", "Increment", { by: 5 }, { idempotencyKey: "key-c-1" }))).toEqual(first)
    expect(await run(system().ask(Counter, "c-1", "Get", {}))).toMatchObject({ count: 5 })
  })

  it("answers a key from its record on the next owner, which never saw the first attempt", async () => {
    const ledger = await run(system().ask(Ledger, "l-2", "Append", { note: "once" }, { idempotencyKey: "key-l-3" }))
    const counter = await run(system().ask(Counter, "c-2", "Increment", { by: 1 }, { idempotencyKey: "key-c-2" }))
    await untilRecorded("key-l-3")
    const next = await secondNode()
    expect(await run(next.ask(Ledger, "l-2", "Append", { note: "once" }, { idempotencyKey: "key-l-3" }))).toEqual(ledger)
    expect(await run(next.ask(Counter, "c-2", "Increment", { by: 1 }, { idempotencyKey: "key-c-2" }))).toEqual(counter)
    expect(await ledgerRows("l-2")).toEqual([{ note: "once" }])
    expect(await run(next.ask(Counter, "c-2", "Get", {}))).toMatchObject({ count: 1 })
  })

  it("refuses a key whose writes committed without a recorded reply instead of running it again", async () => {
    await query("insert into actor_requests (key, kind, actor_id, reply) values ('key-lost', 'Ledger', 'l-3', null)")
    const refused = await run(Effect.flip(system().ask(Ledger, "l-3", "Append", { note: "again" }, { idempotencyKey: "key-lost" })))
    expect(refused).toMatchObject({ _tag: "Rejection", code: "conflict" })
    expect(await ledgerRows("l-3")).toEqual([])
  })

  it("answers a re-send of a write that failed after a commit with that failure, and never runs it again", async () => {
    const send = (asker: ActorSystemShape, transient: boolean, key: string) =>
      run(Effect.flip(asker.ask(Ledger, "l-5", "AppendThenFail", { note: key, transient }, { idempotencyKey: key })))
    const broken = await send(system(), false, "key-half-defect")
    expect(broken).toMatchObject({ _tag: "ActorDefect", message: "the second step is broken" })
    const stalled = await send(system(), true, "key-half-transient")
    // Not "storage" (retry): some of it was applied, so the caller is told to check first.
    expect(stalled).toMatchObject({ _tag: "ActorUnavailable", reason: "interrupted" })
    expect(stalled.message).toContain("partly applied")
    // Sent again: the same answer, from this activation and from the record on a node that never saw it; not run again.
    expect(await send(system(), false, "key-half-defect")).toEqual(broken)
    expect(await send(system(), true, "key-half-transient")).toEqual(stalled)
    await untilRecorded("key-half-defect")
    await untilRecorded("key-half-transient")
    const next = await secondNode()
    expect(await send(next, false, "key-half-defect")).toEqual(broken)
    expect(await send(next, true, "key-half-transient")).toEqual(stalled)
    expect((await ledgerRows("l-5")).map((row) => row.note).sort()).toEqual(["key-half-defect", "key-half-transient"])
  })

  it("records nothing for a write that was not applied, so sending it again runs it", async () => {
    // Guarded refuses when the count is above max: a refusal commits nothing, so nothing is recorded.
    const refused = await run(Effect.flip(system().ask(Counter, "c-3", "Guarded", { max: -1 }, { idempotencyKey: "key-g" })))
    expect(refused).toBeInstanceOf(Rejection)
    expect(await recordOf("key-g")).toBeUndefined()
    // Sent again to a node that never saw it (nothing in memory either), it runs.
    const next = await secondNode()
    expect(await run(Effect.flip(next.ask(Counter, "c-3", "Guarded", { max: -1 }, { idempotencyKey: "key-g" })))).toMatchObject({
      code: "conflict",
      message: "count 0 is above -1"
    })
  })

  it("sweeps keys older than the retention", async () => {
    await query(
      "insert into actor_requests (key, kind, actor_id, reply, created_at) values ('old', 'Ledger', 'x', null, now() - interval '11 minutes'), ('new', 'Ledger', 'x', null, now())"
    )
    expect(await run(SqlRequestLog.sweep)).toBe(1)
    expect((await query<{ key: string }>("select key from actor_requests order by key")).map((r) => r.key)).toEqual(["new"])
  })
})
