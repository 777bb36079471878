/**
 * Fencing through the runtime (in-process transport, SqlActorStore on PGlite):
 * once another node has bumped the shard's epoch, this node's handlers can
 * no longer write — neither their own rows nor a persisted actor's state —
 * and the caller is told the message was not applied; a persisted actor's
 * save is refused when someone else saved it since it was loaded.
 */
import { Cause, Context, Effect, Exit, Layer, Logger, Schema, Scope } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Sql } from "../persistence/Sql.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import { Actor } from "../runtime/Actor.ts"
import { ActorUnavailable } from "../runtime/ActorError.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import { ShardFences } from "../runtime/ShardFences.ts"
import { testPglite } from "./support/atrium.ts"
import { Counter, NodeInfo } from "./support/runtimeActors.ts"

/** A rebuilt kind whose handler writes its own rows (like the pm and wiki actors). */
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
    Append: { payload: Schema.Struct({ note: Schema.String }), success: Schema.Number },
    /** Two writes in one transaction. */
    AppendTwice: { payload: Schema.Struct({ note: Schema.String }), success: Schema.Number }
  },
  handlers: {
    Append: ({ note }, ctx) =>
      Effect.gen(function* () {
        const sql = yield* Sql
        yield* Effect.orDie(sql.query("insert into test_ledger (ledger, note) values ($1, $2)", [ctx.address.id, note]))
        ctx.setState({ entries: ctx.state.entries + 1 })
        return ctx.state.entries + 1
      }),
    AppendTwice: ({ note }, ctx) =>
      Effect.gen(function* () {
        const sql = yield* Sql
        yield* Effect.orDie(
          sql.transaction(
            Effect.andThen(
              sql.query("insert into test_ledger (ledger, note) values ($1, $2)", [ctx.address.id, `${note}-1`]),
              sql.query("insert into test_ledger (ledger, note) values ($1, $2)", [ctx.address.id, `${note}-2`])
            )
          )
        )
        ctx.setState({ entries: ctx.state.entries + 2 })
        return ctx.state.entries + 2
      })
  }
})

interface Node {
  readonly system: ActorSystemShape
  readonly context: Context.Context<Sql | ActorStore | ShardFences>
  readonly scope: Scope.Closeable
}

let node: Node

beforeEach(async () => {
  const layer = layerInProcess([Counter, Ledger]).pipe(
    Layer.provideMerge(Layer.mergeAll(SqlActorStore.layer, Layer.succeed(NodeInfo, { name: "local" }))),
    Layer.provideMerge(testPglite),
    Layer.provide(Logger.layer([Logger.make(() => {})]))
  )
  node = await Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layer, scope)
      yield* Effect.provideContext(
        Sql.use((sql) => sql.query("create table test_ledger (ledger text not null, note text not null)")),
        context
      )
      return { system: Context.get(context, ActorSystem), context, scope }
    })
  )
})

afterEach(async () => {
  await Effect.runPromise(Scope.close(node.scope, Exit.void))
})

const run = <A, E>(effect: Effect.Effect<A, E, Sql | ActorStore | ShardFences>): Promise<A> =>
  Effect.runPromise(Effect.provideContext(effect, node.context))
const failureOf = async <A, E>(effect: Effect.Effect<A, E, Sql | ActorStore | ShardFences>) => {
  const exit = await run(Effect.exit(effect))
  return Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
}
const ledgerRows = (id: string) =>
  run(Sql.use((sql) => sql.query<{ note: string }>("select note from test_ledger where ledger = $1 order by note", [id])))
/** Another node takes the shard: its epoch bump is what fences this one off. */
const takeOver = () => run(Effect.flatMap(ShardFences, (fences) => fences.acquire(0, "other-node")))

describe("fencing through the runtime", () => {
  it("refuses a handler's writes once another node bumped the epoch, and says the message was not applied", async () => {
    expect(await run(node.system.ask(Ledger, "l-1", "Append", { note: "a" }))).toBe(1)
    await takeOver()

    const bare = await failureOf(node.system.ask(Ledger, "l-1", "Append", { note: "b" }))
    expect(bare).toBeInstanceOf(ActorUnavailable)
    expect((bare as ActorUnavailable).reason).toBe("handover")
    const inTransaction = await failureOf(node.system.ask(Ledger, "l-1", "AppendTwice", { note: "c" }))
    expect(inTransaction).toBeInstanceOf(ActorUnavailable)
    expect(await ledgerRows("l-1")).toEqual([{ note: "a" }])
  })

  it("refuses a persisted actor's save once another node bumped the epoch", async () => {
    expect(await run(node.system.ask(Counter, "c-1", "Increment", { by: 1 }))).toMatchObject({ count: 1 })
    await takeOver()
    expect(await failureOf(node.system.ask(Counter, "c-1", "Increment", { by: 1 }))).toBeInstanceOf(ActorUnavailable)
    const row = await run(Effect.flatMap(SqlActorStore.make, (store) => store.loadRow({ kind: "Counter", id: "c-1" })))
    expect(row).toMatchObject({ state: { count: 1 }, version: 1 })
  })

  it("refuses a save made from a version someone else has saved over, then works from the stored state", async () => {
    const address = { kind: "Counter", id: "c-2" }
    expect(await run(node.system.ask(Counter, address.id, "Increment", { by: 1 }))).toMatchObject({ count: 1 })
    // Another owner saved version 2 meanwhile (this activation still holds version 1 in memory).
    await run(Effect.flatMap(ActorStore, (store) => store.save(address, { count: 100, log: ["elsewhere"] }, 1)))

    expect(await failureOf(node.system.ask(Counter, address.id, "Increment", { by: 1 }))).toBeInstanceOf(ActorUnavailable)
    const kept = await run(Effect.flatMap(SqlActorStore.make, (store) => store.loadRow(address)))
    expect(kept).toMatchObject({ state: { count: 100, log: ["elsewhere"] }, version: 2 })
    // The activation reloaded: the next message applies to what is stored.
    expect(await run(node.system.ask(Counter, address.id, "Increment", { by: 1 }))).toMatchObject({ count: 101 })
  })
})
