/**
 * The bound on resident activations (`maxResident`, ACTOR_MAX_RESIDENT): beyond it the least recently
 * used idle activations passivate; one with a message being handled or queued is never evicted; an
 * evicted actor answers afterwards from its durable state, every acknowledged write kept.
 */
import { Context, Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as ActorHost from "../runtime/ActorHost.ts"
import { ActorStore } from "../runtime/ActorStore.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import * as DeadlineSweep from "../runtime/DeadlineSweep.ts"
import { LocalEnvelope, NotServed } from "../runtime/Envelope.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { concurrency, Counter, NodeInfo } from "./support/runtimeActors.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./pm/work/support/pmAtrium.ts"

const id = (n: number | string) => `r-${Math.random().toString(36).slice(2, 8)}-${n}`

const system = (maxResident: number, store: MemoryActorStore.MemoryActorStore) => {
  const layer = layerInProcess([Counter], { maxResident, idleMillis: 600_000 }).pipe(
    Layer.provide(Layer.mergeAll(MemoryActorStore.layerFrom(store), Layer.succeed(NodeInfo, { name: "local" })))
  )
  return <A, E>(effect: Effect.Effect<A, E, ActorSystem>): Promise<A> =>
    Effect.runPromise(Effect.scoped(Effect.provide(effect, layer)) as Effect.Effect<A, E>)
}

describe("resident activations are bounded", () => {
  it("never holds more than maxResident idle activations on the node", async () => {
    const store = MemoryActorStore.make()
    const context = Context.make(ActorStore, store).pipe(Context.add(NodeInfo, { name: "local" }))
    const sizes = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const host = yield* ActorHost.make({ kinds: [Counter], context, nodeId: "resident-test", maxResident: 5, idleMillis: 600_000 })
          const seen: Array<number> = []
          for (let n = 0; n < 40; n++) {
            const envelope = new LocalEnvelope({ kind: "Counter", id: `a-${n}` }, "Increment", { by: 1 }, 10_000)
            yield* host.offer("Counter", `a-${n}`, envelope)
            yield* envelope.await
            // Evicted activations finish in the background: give their fibers a turn.
            yield* Effect.yieldNow
            seen.push(host.size())
          }
          return seen
        })
      )
    )
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5)
    expect(sizes.at(-1)).toBe(5)
    // Every actor's write was saved once, whether it was evicted or not.
    for (let n = 0; n < 40; n++) expect(store.peek({ kind: "Counter", id: `a-${n}` })).toEqual({ count: 1, log: [] })
  })

  it("passivation leaves nothing of an actor behind: no entry, no stopping activation, no fiber, no deadline", async () => {
    const store = MemoryActorStore.make()
    const context = Context.make(ActorStore, store).pipe(Context.add(NodeInfo, { name: "local" }))
    const counts = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const host = yield* ActorHost.make({ kinds: [Counter], context, nodeId: "census-test", maxResident: 3, idleMillis: 600_000 })
          const ask = (n: number) =>
            Effect.gen(function* () {
              const envelope = new LocalEnvelope({ kind: "Counter", id: `c-${n}` }, "Increment", { by: 1 }, 10_000)
              yield* host.offer("Counter", `c-${n}`, envelope)
              return yield* envelope.await
            })
          // Evicted activations stop in the background: give their fibers turns until none is left stopping.
          const settle = Effect.gen(function* () {
            for (let turn = 0; turn < 1_000 && host.census().leaving > 0; turn++) yield* Effect.yieldNow
            return { ...host.census(), deadlines: DeadlineSweep.status().pending }
          })
          for (let n = 0; n < 30; n++) yield* ask(n)
          const afterEvictions = yield* settle
          yield* host.passivate(() => true, new NotServed({ shard: 0 }))
          const afterPassivation = yield* settle
          // An actor passivated both ways comes back from its saved state.
          const again = yield* ask(0)
          return { afterEvictions, afterPassivation, again, last: yield* settle }
        })
      )
    )
    expect(counts.afterEvictions).toEqual({ resident: 3, leaving: 0, running: 3, deadlines: 0 })
    expect(counts.afterPassivation).toEqual({ resident: 0, leaving: 0, running: 0, deadlines: 0 })
    expect(counts.again).toMatchObject({ count: 2 })
    expect(counts.last).toEqual({ resident: 1, leaving: 0, running: 1, deadlines: 0 })
  })

  it("evicts the least recently used, and an evicted actor answers from its saved state", async () => {
    const store = MemoryActorStore.make()
    const run = system(3, store)
    const [a0, a1, a2, a3, a4] = [0, 1, 2, 3, 4].map(id) as [string, string, string, string, string]
    const loads = (actor: string) => store.loads.get(`Counter/${actor}`)
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        for (const actor of [a0, a1, a2]) yield* system.ask(Counter, actor, "Increment", { by: 2 })
        // a0 used again: it is not the least recently used any more.
        yield* system.ask(Counter, a0, "Increment", { by: 5 })
        yield* system.ask(Counter, a3, "Increment", { by: 1 })
        yield* system.ask(Counter, a4, "Increment", { by: 1 })
        // a1 and a2 made room for a3 and a4; a0 stayed.
        expect(yield* system.ask(Counter, a0, "Get", {})).toEqual({ count: 7, log: [] })
        expect(loads(a0)).toBe(1)
        // Evicted: activated again from the store, its writes intact, and it takes new ones.
        expect(yield* system.ask(Counter, a1, "Get", {})).toEqual({ count: 2, log: [] })
        expect(loads(a1)).toBe(2)
        expect((yield* system.ask(Counter, a2, "Increment", { by: 40 })).count).toBe(42)
        expect(loads(a2)).toBe(2)
      })
    )
    expect(store.peek({ kind: "Counter", id: a2 })).toEqual({ count: 42, log: [] })
  })

  it("does not evict an actor mid-command or with messages queued, under constant eviction pressure", async () => {
    const store = MemoryActorStore.make()
    const run = system(1, store)
    const busy = id("busy")
    const senders = [0, 1, 2].map((s) => Array.from({ length: 10 }, (_, i) => `s${s}-${i}${i % 3 === 0 ? "!" : ""}`))
    const tokens = senders.flat()
    await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        // Three senders append to one actor, each waiting for its reply before the next (so messages keep
        // arriving while others are handled or queued), while other actors are activated one after another,
        // each activation over the bound of one.
        const appends = Effect.map(
          Effect.forEach(senders, (own) => Effect.forEach(own, (token) => system.ask(Counter, busy, "Append", { token })), {
            concurrency: "unbounded"
          }),
          (lengths) => lengths.flat()
        )
        const others = Effect.forEach(
          Array.from({ length: 60 }, (_, n) => n),
          (n) => Effect.andThen(Effect.yieldNow, system.ask(Counter, `other-${busy}-${n % 20}`, "Increment", { by: 1 })),
          { discard: true }
        )
        const [lengths] = yield* Effect.all([appends, others], { concurrency: "unbounded" })
        expect([...lengths].sort((x, y) => x - y)).toEqual(tokens.map((_, i) => i + 1))
        // Never two activations of it at once: an eviction mid-command would have started a second one.
        expect(concurrency.max.get(`Counter/${busy}`)).toBe(1)
        const state = yield* system.ask(Counter, busy, "Get", {})
        expect([...state.log].sort()).toEqual([...tokens].sort())
      })
    )
    expect((store.peek({ kind: "Counter", id: busy }) as { log: Array<string> }).log).toHaveLength(tokens.length)
    // 60 increments over 20 actors, each applied once although most were evicted in between.
    for (let n = 0; n < 20; n++) expect(store.peek({ kind: "Counter", id: `other-${busy}-${n}` })).toEqual({ count: 3, log: [] })
  })

  it("answers every ask when all activations are busy at once", async () => {
    // Every activation busy at once: the bound is exceeded for a while rather than a command interrupted.
    const store = MemoryActorStore.make()
    const run = system(2, store)
    const actors = Array.from({ length: 8 }, (_, n) => id(`sleep-${n}`))
    const replies = await run(
      Effect.gen(function* () {
        const system = yield* ActorSystem
        return yield* Effect.forEach(actors, (actor) => system.ask(Counter, actor, "Sleep", { millis: 30 }), { concurrency: "unbounded" })
      })
    )
    expect(replies).toHaveLength(actors.length)
  })
})

describe("task actors under a small ACTOR_MAX_RESIDENT", () => {
  let atrium: PmAtrium
  let w: Awaited<ReturnType<typeof setupWorkspace>>

  beforeAll(async () => {
    atrium = await startPmAtrium({ actorMaxResident: 4 })
    w = await setupWorkspace(atrium)
  })
  afterAll(() => atrium?.close())

  const call = async (method: string, path: string, body?: unknown) =>
    expectStatus(
      await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token: w.owner.token } : { token: w.owner.token, body }),
      method === "POST" ? 201 : 200
    )

  it("rebuilds evicted tasks from their rows: every update read back, versions counted once", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Resident" })
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "Resident list" })
    const tasks: Array<{ id: string; version: number }> = []
    for (let n = 0; n < 12; n++) tasks.push(await call("POST", `/lists/${list.id}/tasks`, { name: `Task ${n}` }))
    // Two rounds of updates over more tasks than may stay resident: most are evicted between their writes.
    for (const round of [1, 2]) {
      for (const task of tasks) await call("PATCH", `/tasks/${task.id}`, { description: `round ${round} of ${task.id}` })
    }
    for (const task of tasks) {
      const read = await call("GET", `/tasks/${task.id}`)
      expect(read.description).toBe(`round 2 of ${task.id}`)
      expect(read.version).toBe(task.version + 2)
    }
    const rows = await atrium.sql<{ id: string; description: string }>("SELECT id, description FROM pm_tasks WHERE list_id = $1", [list.id])
    expect(rows.every((row) => row.description === `round 2 of ${row.id}`)).toBe(true)
    expect(rows).toHaveLength(tasks.length)
  })
})
