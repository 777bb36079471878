/**
 * The actor runtime with the in-process transport and the in-memory store.
 */
import { Cause, Effect, Exit, Fiber, Layer, Logger, References } from "effect"
import { describe, expect, it } from "vitest"
import { ActorDefect, ActorOverloaded, ActorTimeout, ActorUnavailable } from "../runtime/ActorError.ts"
import { ActorStore, type ActorStoreShape } from "../runtime/ActorStore.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { type InProcessOptions, layerInProcess } from "../runtime/InProcessTransport.ts"
import * as DeadlineSweep from "../runtime/DeadlineSweep.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { Rejection } from "../runtime/Rejection.ts"
import { concurrency, Counter, NodeInfo } from "./support/runtimeActors.ts"

interface LogLine {
  readonly level: string
  readonly message: unknown
  readonly annotations: Record<string, unknown>
  readonly cause: Cause.Cause<unknown>
}

const setup = (options: InProcessOptions = {}, store: ActorStoreShape = MemoryActorStore.make()) => {
  const logs: Array<LogLine> = []
  const logger = Logger.make<unknown, void>((o) => {
    logs.push({
      level: o.logLevel,
      message: o.message,
      annotations: o.fiber.getRef(References.CurrentLogAnnotations),
      cause: o.cause
    })
  })
  const layer = layerInProcess([Counter], options).pipe(
    Layer.provide(Layer.mergeAll(Layer.succeed(ActorStore, store), Layer.succeed(NodeInfo, { name: "local" }))),
    // The system captures the context it is built in: its loggers included.
    Layer.provide(Logger.layer([logger]))
  )
  const run = <A, E>(effect: Effect.Effect<A, E, ActorSystem>): Promise<A> =>
    Effect.runPromise(Effect.scoped(Effect.provide(effect, layer)) as Effect.Effect<A, E>)
  return { run, logs, store }
}

const id = () => `c-${Math.random().toString(36).slice(2, 10)}`

describe("in-process actor runtime", () => {
  it("processes one actor's messages one at a time, in order, under concurrent asks", async () => {
    const { run, store } = setup()
    const address = { kind: "Counter", id: id() }
    const senders = 20
    const perSender = 25
    const result = await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        // Each sender asks sequentially; all senders run concurrently.
        yield* Effect.forEach(
          Array.from({ length: senders }, (_, s) => s),
          (s) =>
            Effect.forEach(
              Array.from({ length: perSender }, (_, i) => i),
              (i) => system.ask(Counter, address.id, "Append", { token: `${s}:${i}${i % 5 === 0 ? "!" : ""}` }),
              { discard: true }
            ),
          { concurrency: "unbounded", discard: true }
        )
        // And a burst of concurrent increments on the same actor.
        yield* Effect.forEach(
          Array.from({ length: 300 }, () => 1),
          (by) => system.ask(Counter, address.id, "Increment", { by }),
          {
            concurrency: "unbounded",
            discard: true
          }
        )
        return yield* system.ask(Counter, address.id, "Get", {})
      })
    )
    expect(result.log).toHaveLength(senders * perSender)
    expect(result.count).toBe(300)
    for (let s = 0; s < senders; s++) {
      const seq = result.log.filter((t) => t.startsWith(`${s}:`)).map((t) => Number(t.slice(t.indexOf(":") + 1).replace("!", "")))
      expect(seq).toEqual(Array.from({ length: perSender }, (_, i) => i))
    }
    expect(concurrency.max.get(`Counter/${address.id}`)).toBe(1)
    // Every change was written through.
    expect((store as MemoryActorStore.MemoryActorStore).peek(address)).toEqual(result)
  })

  it("persists a state change before the reply is delivered; reads don't write", async () => {
    const inner = MemoryActorStore.make()
    let saving = false
    // A slow store: if the reply did not wait for the save, the caller would see `saving`.
    const slow: ActorStoreShape = {
      ...inner,
      save: (address, state, expected) =>
        Effect.gen(function* () {
          saving = true
          yield* Effect.sleep(30)
          const version = yield* inner.save(address, state, expected)
          saving = false
          return version
        })
    }
    const { run } = setup({}, slow)
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        for (let i = 1; i <= 3; i++) {
          const reply = yield* system.ask(Counter, address.id, "Increment", { by: 1 })
          expect(reply.count).toBe(i)
          expect(saving).toBe(false)
          expect(inner.peek(address)).toEqual({ count: i, log: [] })
        }
        const saves = inner.saves.get("Counter/" + address.id)
        expect(saves).toBe(3)
        yield* system.ask(Counter, address.id, "Get", {})
        yield* system.ask(Counter, address.id, "Sleep", { millis: 1 })
        expect(inner.saves.get("Counter/" + address.id)).toBe(3)
      })
    )
  })

  it("passivates an idle actor and re-activates it from the store", async () => {
    const { run, store } = setup({ idleMillis: 100 })
    const memory = store as MemoryActorStore.MemoryActorStore
    const address = { kind: "Counter", id: id() }
    const key = `Counter/${address.id}`
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        yield* system.ask(Counter, address.id, "Increment", { by: 2 })
        yield* system.ask(Counter, address.id, "Increment", { by: 3 })
        expect(memory.loads.get(key)).toBe(1)
        // Busy actors are not passivated: keep it active past its idle time.
        for (let i = 0; i < 6; i++) {
          yield* Effect.sleep(40)
          yield* system.ask(Counter, address.id, "Get", {})
        }
        expect(memory.loads.get(key)).toBe(1)
        yield* Effect.sleep(400)
        // Changed behind its back while passivated: a re-activation must read the store, not a cache.
        yield* memory.save(address, { count: 40, log: ["external"] }, 2)
        const reply = yield* system.ask(Counter, address.id, "Increment", { by: 2 })
        expect(reply.count).toBe(42)
        expect(memory.loads.get(key)).toBe(2)
        expect(memory.peek(address)).toEqual({ count: 42, log: ["external"] })
      })
    )
  })

  it("restarts an actor from persisted state after a defect, failing only that request", async () => {
    const { run, logs, store } = setup()
    const memory = store as MemoryActorStore.MemoryActorStore
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        yield* system.ask(Counter, address.id, "Increment", { by: 5 })
        // Queue a message behind the defect: it must be processed normally.
        const [defect, after] = yield* Effect.all(
          [Effect.flip(system.ask(Counter, address.id, "Corrupt", {})), system.ask(Counter, address.id, "Get", {})],
          { concurrency: "unbounded" }
        )
        expect(defect).toBeInstanceOf(ActorDefect)
        expect(defect).toMatchObject({ _tag: "ActorDefect", address, message: "boom in Corrupt" })
        // The in-place corruption (count -999, "corrupted") was discarded.
        expect(after).toEqual({ count: 5, log: [] })
        expect(memory.loads.get(`Counter/${address.id}`)).toBe(2)

        // setState followed by a die: the change is neither persisted nor kept.
        const died = yield* Effect.flip(system.ask(Counter, address.id, "SetThenThrow", {}))
        expect(died).toBeInstanceOf(ActorDefect)
        expect(yield* system.ask(Counter, address.id, "Get", {})).toEqual({ count: 5, log: [] })
        expect(memory.peek(address)).toEqual({ count: 5, log: [] })
      })
    )
    const errors = logs.filter((l) => l.level === "Error")
    expect(errors).toHaveLength(2)
    for (const line of errors) {
      expect(line.annotations).toMatchObject({ actor: `Counter/${address.id}`, actorKind: "Counter", actorId: address.id })
      expect(Cause.hasDies(line.cause)).toBe(true)
    }
  })

  it("refuses with ActorOverloaded at once when the mailbox is full", async () => {
    const { run } = setup({ mailbox: 2 })
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        const busy = yield* Effect.forkChild(system.ask(Counter, address.id, "Sleep", { millis: 300 }))
        yield* Effect.sleep(50) // the activation is now inside the handler, its mailbox empty
        const queued = yield* Effect.forkChild(
          Effect.all([system.ask(Counter, address.id, "Increment", { by: 1 }), system.ask(Counter, address.id, "Increment", { by: 1 })], {
            concurrency: "unbounded"
          })
        )
        yield* Effect.sleep(10)
        const started = Date.now()
        const refused = yield* Effect.flip(system.ask(Counter, address.id, "Increment", { by: 100 }))
        expect(Date.now() - started).toBeLessThan(50)
        expect(refused).toBeInstanceOf(ActorOverloaded)
        expect(refused).toMatchObject({ address })
        // The accepted ones complete normally; the refused one never ran.
        yield* Fiber.join(busy)
        const replies = yield* Fiber.join(queued)
        expect(replies.map((r) => r.count).sort()).toEqual([1, 2])
        expect((yield* system.ask(Counter, address.id, "Get", {})).count).toBe(2)
      })
    )
  })

  it("fails with ActorTimeout after the ask's timeout, and skips a message whose caller gave up", async () => {
    const { run } = setup()
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        const slow = yield* Effect.forkChild(system.ask(Counter, address.id, "Sleep", { millis: 250 }))
        yield* Effect.sleep(20)
        const started = Date.now()
        const timeout = yield* Effect.flip(system.ask(Counter, address.id, "Increment", { by: 1 }, { timeoutMillis: 60 }))
        const elapsed = Date.now() - started
        expect(timeout).toBeInstanceOf(ActorTimeout)
        expect(timeout).toMatchObject({ address, millis: 60 })
        expect(elapsed).toBeGreaterThanOrEqual(55)
        expect(elapsed).toBeLessThan(200)
        yield* Fiber.join(slow)
        // The increment timed out while still queued: it was never applied.
        expect((yield* system.ask(Counter, address.id, "Get", {})).count).toBe(0)
      })
    )
  })

  it("keeps every ask's deadline in the one sweep: answered asks leave nothing pending, and an idle node no timer", async () => {
    const { run } = setup()
    const before = DeadlineSweep.status().pending
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        yield* Effect.forEach(Array.from({ length: 50 }, id), (counter) => system.ask(Counter, counter, "Increment", { by: 1 }), {
          concurrency: "unbounded"
        })
        expect(DeadlineSweep.status().pending).toBe(before)
        const timeout = yield* Effect.flip(system.ask(Counter, id(), "Sleep", { millis: 200 }, { timeoutMillis: 30 }))
        expect(timeout).toBeInstanceOf(ActorTimeout)
        expect(DeadlineSweep.status().pending).toBe(before)
      })
    )
    if (before === 0) expect(DeadlineSweep.status().sweeping).toBe(false)
  })

  it("returns a Rejection typed and unchanged, discarding the handler's state change", async () => {
    const { run, store } = setup()
    const memory = store as MemoryActorStore.MemoryActorStore
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        yield* system.ask(Counter, address.id, "Increment", { by: 7 })
        const exit = yield* Effect.exit(system.ask(Counter, address.id, "Guarded", { max: 3 }))
        expect(Exit.isFailure(exit)).toBe(true)
        const error = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : undefined
        const rejection = error?._tag === "Some" ? error.value : undefined
        expect(rejection).toBeInstanceOf(Rejection)
        expect(rejection).toMatchObject({
          _tag: "Rejection",
          code: "conflict",
          message: "count 7 is above 3",
          details: [{ path: "count", message: "too high" }]
        })
        // The typed error channel lets callers catch it by tag.
        const code = yield* system
          .ask(Counter, address.id, "Guarded", { max: 3 })
          .pipe(Effect.catchTag("Rejection", (r) => Effect.succeed(r.code)))
        expect(code).toBe("conflict")
        expect(memory.peek(address)).toEqual({ count: 7, log: [] })
        // Allowed: now the change is applied and persisted.
        expect(yield* system.ask(Counter, address.id, "Guarded", { max: 10 })).toBe(1007)
        expect(memory.peek(address)).toEqual({ count: 1007, log: [] })
      })
    )
  })

  it("provides the handlers' requirements from the layer, not from the caller", async () => {
    const { run } = setup()
    const name = await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        // A caller-side NodeInfo must not leak into the actor.
        return yield* system.ask(Counter, id(), "WhoAmI", {}).pipe(Effect.provideService(NodeInfo, { name: "caller" }))
      })
    )
    expect(name).toBe("local")
  })

  it("drain finishes queued messages, then refuses new ones", async () => {
    const { run, store } = setup()
    const memory = store as MemoryActorStore.MemoryActorStore
    const address = { kind: "Counter", id: id() }
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        const pending = yield* Effect.forkChild(
          Effect.all(
            [
              system.ask(Counter, address.id, "Sleep", { millis: 100 }),
              system.ask(Counter, address.id, "Increment", { by: 1 }),
              system.ask(Counter, address.id, "Increment", { by: 1 })
            ],
            { concurrency: "unbounded" }
          )
        )
        yield* Effect.sleep(20)
        yield* system.drain
        const [, a, b] = yield* Fiber.join(pending)
        expect([a.count, b.count].sort()).toEqual([1, 2])
        expect(memory.peek(address)).toEqual({ count: 2, log: [] })
        const refused = yield* Effect.flip(system.ask(Counter, address.id, "Get", {}))
        expect(refused).toBeInstanceOf(ActorUnavailable)
      })
    )
  })
})
