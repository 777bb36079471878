/**
 * Group commit and read-only messages of the actor runtime (in-process
 * transport, in-memory store): queued grouped messages are handled by one
 * call, each answered with its own outcome; read-only messages are answered
 * from the committed state without waiting for a write in flight.
 */
import { Deferred, Effect, Exit, Fiber, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Actor } from "../runtime/Actor.ts"
import { ActorDefect } from "../runtime/ActorError.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { reject, Rejection } from "../runtime/Rejection.ts"

/** Sizes of the groups handled, per actor id. */
const groups = new Map<string, Array<number>>()
/** Opened by a test to let `Hold` finish. */
const gates = new Map<string, Deferred.Deferred<void>>()

const Tally = Actor<{ readonly total: number }>()({
  kind: "Tally",
  state: Schema.Struct({ total: Schema.Number }),
  initial: () => ({ total: 0 }),
  readOnly: ["Peek"],
  group: {
    tags: ["Add"],
    handle: (messages, ctx) =>
      Effect.suspend(() => {
        groups.set(ctx.address.id, [...(groups.get(ctx.address.id) ?? []), messages.length])
        let total = ctx.state.total
        const outcomes = messages.map((message) => {
          const { amount } = message.payload as { amount: number }
          if (amount === 666) throw new Error("the group's handler broke")
          if (amount < 0) return Exit.fail(reject("invalid", "negative", [{ path: "amount", message: "negative" }]))
          total += amount
          return Exit.succeed(total)
        })
        ctx.setState({ total })
        return Effect.succeed(outcomes)
      })
  },
  messages: {
    Add: { payload: Schema.Struct({ amount: Schema.Number }), success: Schema.Number },
    Peek: { payload: Schema.Struct({}), success: Schema.Number },
    /** A write that waits for its gate, then sets `total`. */
    Hold: { payload: Schema.Struct({ total: Schema.Number }), success: Schema.Number },
    /** A plain write computed from the state it is given. */
    Double: { payload: Schema.Struct({}), success: Schema.Number }
  },
  handlers: {
    Add: ({ amount }, ctx) =>
      Effect.sync(() => {
        ctx.setState({ total: ctx.state.total + amount })
        return ctx.state.total + amount
      }),
    Peek: (_, ctx) => Effect.succeed(ctx.state.total),
    Hold: ({ total }, ctx) =>
      Effect.flatMap(Deferred.await(gates.get(ctx.address.id)!), () =>
        Effect.sync(() => {
          ctx.setState({ total })
          return total
        })
      ),
    Double: (_, ctx) =>
      Effect.sync(() => {
        ctx.setState({ total: ctx.state.total * 2 })
        return ctx.state.total * 2
      })
  }
})

const layer = layerInProcess([Tally]).pipe(Layer.provide(Layer.succeed(ActorStore, MemoryActorStore.make())))
const run = <A, E>(effect: Effect.Effect<A, E, ActorSystem>): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.provide(effect, layer)) as Effect.Effect<A, E>)

const id = () => `t-${Math.random().toString(36).slice(2, 10)}`

/** Starts a `Hold` on a fresh actor (after one Add, so the actor is loaded) and returns its fiber and gate. */
const holding = (actorId: string, total: number) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    yield* system.ask(Tally, actorId, "Add", { amount: 1 })
    const gate = yield* Deferred.make<void>()
    gates.set(actorId, gate)
    const hold = yield* Effect.forkChild(system.ask(Tally, actorId, "Hold", { total }))
    yield* Effect.sleep(10)
    return { system, gate, hold }
  })

describe("group commit", () => {
  it("handles the grouped messages queued behind a write in one call, each answered with its own outcome", async () => {
    const actorId = id()
    const result = await run(
      Effect.gen(function* () {
        const { system, gate, hold } = yield* holding(actorId, 100)
        const amounts = [1, 2, -3, 4, 5, 6, 7, 8, 9, 10]
        const adds = yield* Effect.forkChild(
          Effect.forEach(amounts, (amount) => Effect.exit(system.ask(Tally, actorId, "Add", { amount })), { concurrency: "unbounded" })
        )
        yield* Effect.sleep(10)
        yield* Deferred.succeed(gate, undefined)
        yield* Fiber.join(hold)
        const exits = yield* Fiber.join(adds)
        return { exits, total: yield* system.ask(Tally, actorId, "Peek", {}) }
      })
    )
    // The first Add activated the actor alone; the ten queued behind Hold came as one group.
    expect(groups.get(actorId)).toEqual([1, 10])
    const running = [101, 103, undefined, 107, 112, 118, 125, 133, 142, 152]
    result.exits.forEach((exit, i) => {
      if (running[i] === undefined) {
        expect(Exit.isFailure(exit)).toBe(true)
        const error = Exit.findErrorOption(exit)
        expect(error._tag === "Some" && error.value instanceof Rejection && error.value.code).toBe("invalid")
      } else expect(exit).toEqual(Exit.succeed(running[i]))
    })
    expect(result.total).toBe(152)
  })

  it("answers every message of a group whose handler dies with the defect, and keeps the state as it was", async () => {
    const actorId = id()
    const result = await run(
      Effect.gen(function* () {
        const { system, gate, hold } = yield* holding(actorId, 50)
        const adds = yield* Effect.forkChild(
          Effect.forEach([2, 666, 3], (amount) => Effect.exit(system.ask(Tally, actorId, "Add", { amount })), { concurrency: "unbounded" })
        )
        yield* Effect.sleep(10)
        yield* Deferred.succeed(gate, undefined)
        yield* Fiber.join(hold)
        return { exits: yield* Fiber.join(adds), total: yield* system.ask(Tally, actorId, "Peek", {}) }
      })
    )
    for (const exit of result.exits) {
      const error = Exit.findErrorOption(exit)
      expect(error._tag === "Some" && error.value instanceof ActorDefect).toBe(true)
    }
    expect(result.total).toBe(50)
  })

  it("gives the write queued right behind a group the state the group committed", async () => {
    const actorId = id()
    const result = await run(
      Effect.gen(function* () {
        const { system, gate, hold } = yield* holding(actorId, 100)
        const adds = yield* Effect.forkChild(
          Effect.forEach([2, 3], (amount) => system.ask(Tally, actorId, "Add", { amount }), { concurrency: "unbounded" })
        )
        yield* Effect.sleep(10)
        // Queued behind the two Adds: it ends their group and runs right after it.
        const double = yield* Effect.forkChild(system.ask(Tally, actorId, "Double", {}))
        yield* Effect.sleep(10)
        yield* Deferred.succeed(gate, undefined)
        yield* Fiber.join(hold)
        return { adds: yield* Fiber.join(adds), double: yield* Fiber.join(double), total: yield* system.ask(Tally, actorId, "Peek", {}) }
      })
    )
    expect(groups.get(actorId)).toEqual([1, 2])
    expect(result).toEqual({ adds: [102, 105], double: 210, total: 210 })
  })
})

describe("read-only messages", () => {
  it("are answered from the committed state while a write is in flight, and see it once it is acknowledged", async () => {
    const actorId = id()
    const result = await run(
      Effect.gen(function* () {
        const { system, gate, hold } = yield* holding(actorId, 40)
        // Were it queued behind Hold, which waits for the gate, this would never answer.
        const during = yield* system.ask(Tally, actorId, "Peek", {}, { timeoutMillis: 2_000 })
        yield* Deferred.succeed(gate, undefined)
        const held = yield* Fiber.join(hold)
        const after = yield* system.ask(Tally, actorId, "Peek", {})
        return { during, held, after }
      })
    )
    expect(result).toEqual({ during: 1, held: 40, after: 40 })
  })
})
