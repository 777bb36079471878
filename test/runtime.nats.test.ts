/**
 * The NATS transport: two nodes (two ActorSystems) in one process on the same
 * NATS server, sharing one in-memory store.
 */
import { Kvm } from "@nats-io/kv"
import { connect } from "@nats-io/transport-node"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ActorDefect, ActorTimeout, ActorUnavailable } from "../runtime/ActorError.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { bucketName, layerNats, type NatsOptions, nodeSubjectOf } from "../runtime/NatsTransport.ts"
import { Rejection } from "../runtime/Rejection.ts"
import { shardOf } from "../runtime/Sharding.ts"
import { checkNats, countByOwner, deleteBucket, natsUrl, readLeases, testPrefix } from "./support/nats.ts"
import { concurrency, Counter, NodeInfo } from "./support/runtimeActors.ts"

const SUITE = "runtime NATS transport (test/runtime.nats.test.ts)"
const available = await checkNats(SUITE)

const SHARDS = 16

interface Node {
  readonly name: string
  readonly system: ActorSystemShape
  readonly scope: Scope.Closeable
}

const startNode = async (
  name: string,
  store: MemoryActorStore.MemoryActorStore,
  options: Partial<NatsOptions> & { prefix: string }
): Promise<Node> => {
  const layer = layerNats([Counter], {
    url: natsUrl(),
    shards: SHARDS,
    leaseTtlMillis: 1500,
    timeoutMillis: 8000,
    ...options
  }).pipe(Layer.provide(Layer.mergeAll(MemoryActorStore.layerFrom(store), Layer.succeed(NodeInfo, { name }))))
  return Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layer, scope)
      return { name, system: Context.get(context, ActorSystem), scope }
    })
  )
}

const stopNode = (node: Node) => Effect.runPromise(Scope.close(node.scope, Exit.void))

const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

const waitFor = async <A>(what: string, probe: () => Promise<A | undefined>, timeoutMs: number): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe.skipIf(!available)("NATS actor runtime: two nodes in one process", () => {
  const prefix = testPrefix()
  const store = MemoryActorStore.make()
  let a: Node
  let b: Node
  let balanceMillis = 0

  beforeAll(async () => {
    const started = Date.now()
    a = await startNode("A", store, { prefix, nodeId: `${prefix}-A` })
    b = await startNode("B", store, { prefix, nodeId: `${prefix}-B` })
    await waitFor(
      "balanced shards",
      async () => {
        const counts = countByOwner(await readLeases(prefix))
        return counts.get(a.system.nodeId) === SHARDS / 2 && counts.get(b.system.nodeId) === SHARDS / 2 ? true : undefined
      },
      15_000
    )
    balanceMillis = Date.now() - started
    console.info(`[runtime.nats] two nodes started and balanced ${SHARDS} shards in ${balanceMillis} ms`)
  })

  afterAll(async () => {
    await Promise.allSettled([a && stopNode(a), b && stopNode(b)])
    await deleteBucket(prefix)
  })

  const ownedBy = async (node: Node, count: number, tag: string): Promise<Array<string>> => {
    const owners = await readLeases(prefix)
    const ids: Array<string> = []
    for (let i = 0; ids.length < count; i++) {
      const id = `${tag}-${i}`
      if (owners.get(shardOf("Counter", id, SHARDS)) === node.system.nodeId) ids.push(id)
    }
    return ids
  }

  it("balances the shards between the two nodes through KV leases", async () => {
    const owners = await readLeases(prefix)
    expect(owners.size).toBe(SHARDS)
    const counts = countByOwner(owners)
    expect(counts.get(a.system.nodeId)).toBe(SHARDS / 2)
    expect(counts.get(b.system.nodeId)).toBe(SHARDS / 2)
    expect(balanceMillis).toBeLessThan(15_000)
  })

  it("activates an actor once even when both nodes send its first messages concurrently", async () => {
    const ids = Array.from({ length: 24 }, (_, i) => `single-${i}`)
    const perNode = 15
    const replies = await run(
      Effect.forEach(
        ids.flatMap((id) =>
          Array.from({ length: perNode }, () => [a, b] as const)
            .flat()
            .map((node) => ({ id, node }))
        ),
        ({ id, node }) => Effect.map(node.system.ask(Counter, id, "Increment", { by: 1 }), (r) => ({ id, ...r })),
        { concurrency: "unbounded" }
      )
    )
    for (const id of ids) {
      const mine = replies.filter((r) => r.id === id)
      expect(mine).toHaveLength(2 * perNode)
      // Every increment applied exactly once, in one activation, on one node.
      expect(mine.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 2 * perNode }, (_, i) => i + 1))
      expect(new Set(mine.map((r) => r.node)).size).toBe(1)
      expect(store.loads.get(`Counter/${id}`)).toBe(1)
      expect(store.peek({ kind: "Counter", id })).toEqual({ count: 2 * perNode, log: [] })
    }
    // Both nodes served some of them.
    expect(new Set(replies.map((r) => r.node))).toEqual(new Set(["A", "B"]))

    // One message at a time per actor across nodes (the probe is process-wide, both nodes are here).
    const [id] = ids
    await run(
      Effect.forEach(
        Array.from({ length: 40 }, (_, i) => i),
        (i) => (i % 2 === 0 ? a : b).system.ask(Counter, id, "Append", { token: `${i}!` }),
        { concurrency: "unbounded", discard: true }
      )
    )
    expect(concurrency.max.get(`Counter/${id}`)).toBe(1)
  })

  it("carries replies, Rejections and runtime errors across nodes, typed", async () => {
    const [id] = await ownedBy(b, 1, "remote")
    await run(
      Effect.gen(function* () {
        // From A to an actor on B: a NATS round trip.
        expect(yield* a.system.ask(Counter, id, "Increment", { by: 4 })).toEqual({ count: 4, node: "B" })
        expect(yield* a.system.ask(Counter, id, "WhoAmI", {})).toBe("B")

        const rejection = yield* Effect.flip(a.system.ask(Counter, id, "Guarded", { max: 1 }))
        expect(rejection).toBeInstanceOf(Rejection)
        expect(rejection).toMatchObject({
          _tag: "Rejection",
          code: "conflict",
          message: "count 4 is above 1",
          details: [{ path: "count", message: "too high" }]
        })
        const code = yield* a.system
          .ask(Counter, id, "Guarded", { max: 1 })
          .pipe(Effect.catchTag("Rejection", (r) => Effect.succeed(r.code)))
        expect(code).toBe("conflict")

        const defect = yield* Effect.flip(a.system.ask(Counter, id, "Corrupt", {}))
        expect(defect).toBeInstanceOf(ActorDefect)
        expect(defect).toMatchObject({ address: { kind: "Counter", id }, message: "boom in Corrupt" })
        // Restarted from the persisted state on B.
        expect(yield* a.system.ask(Counter, id, "Get", {})).toEqual({ count: 4, log: [] })

        const timeout = yield* Effect.flip(a.system.ask(Counter, id, "Sleep", { millis: 400 }, { timeoutMillis: 100 }))
        expect(timeout).toBeInstanceOf(ActorTimeout)
        expect(timeout).toMatchObject({ address: { kind: "Counter", id }, millis: 100 })
      })
    )
  })

  it("validates payloads with the message schema, on send and on receipt", async () => {
    const [id] = await ownedBy(b, 1, "invalid")
    const sent = await run(Effect.flip(a.system.ask(Counter, id, "Increment", { by: "x" as unknown as number })))
    expect(sent).toBeInstanceOf(Rejection)
    expect(sent).toMatchObject({ code: "invalid" })

    // A hand-made request that skips the sender's encoding: the owner refuses it.
    const nc = await connect({ servers: natsUrl() })
    try {
      const subject = nodeSubjectOf(prefix, b.system.nodeId)
      const bad = await nc.request(subject, JSON.stringify({ ms: 2000, k: "Counter", i: id, t: "Increment", p: { by: "x" } }), {
        timeout: 2000
      })
      expect(bad.json()).toMatchObject({ rej: { _tag: "Rejection", code: "invalid" } })
      const good = await nc.request(subject, JSON.stringify({ ms: 2000, k: "Counter", i: id, t: "Increment", p: { by: 2 } }), {
        timeout: 2000
      })
      expect(good.json()).toEqual({ ok: { count: 2, node: "B" } })
    } finally {
      await nc.close()
    }
    expect(store.peek({ kind: "Counter", id })).toEqual({ count: 2, log: [] })
  })

  it("moves shards to a joining node under load without losing, repeating or overlapping messages", async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `join-${i}`)
    let stop = false
    const streams = Promise.all(
      ids.map(async (id) => {
        const counts: Array<number> = []
        for (let i = 0; !stop; i++) {
          const reply = await run((i % 2 === 0 ? a : b).system.ask(Counter, id, "Increment", { by: 1 }))
          counts.push(reply.count)
        }
        return { id, counts }
      })
    )
    await new Promise((r) => setTimeout(r, 200))
    const c = await startNode("C", store, { prefix, nodeId: `${prefix}-C` })
    try {
      await waitFor(
        "the joining node to take its share",
        async () => {
          const counts = countByOwner(await readLeases(prefix))
          return (counts.get(c.system.nodeId) ?? 0) >= 4 && counts.get(a.system.nodeId) === 6 && counts.get(b.system.nodeId) === 6
            ? true
            : undefined
        },
        15_000
      )
      // The writers keep going until a moved actor has answered from its new node (on a loaded machine the
      // first ask after the hand-over can take longer than a fixed pause).
      await waitFor(
        "an actor re-activated on its new node",
        async () => (ids.some((id) => (store.loads.get(`Counter/${id}`) ?? 0) > 1) ? true : undefined),
        15_000
      )
      stop = true
      const results = await streams
      let moved = 0
      for (const { id, counts } of results) {
        // Sequential increments: each applied exactly once, in order, across the move.
        expect(counts).toEqual(Array.from({ length: counts.length }, (_, i) => i + 1))
        expect(store.peek({ kind: "Counter", id })).toEqual({ count: counts.length, log: [] })
        if ((store.loads.get(`Counter/${id}`) ?? 0) > 1) moved++
      }
      // Some actors did move (re-activated from the store on their new node).
      expect(moved).toBeGreaterThan(0)
      expect(await run(c.system.ask(Counter, ids[0], "Get", {}))).toEqual({ count: results[0].counts.length, log: [] })
    } finally {
      stop = true
      await streams.catch(() => undefined)
      await stopNode(c)
    }
    // C's shards went back to A and B.
    await waitFor(
      "A and B to share all shards again",
      async () => {
        const counts = countByOwner(await readLeases(prefix))
        return counts.get(a.system.nodeId) === SHARDS / 2 && counts.get(b.system.nodeId) === SHARDS / 2 ? true : undefined
      },
      15_000
    )
  })

  it("stops serving a shard at once when its lease is overwritten (ownership only from KV CAS)", async () => {
    const [id] = await ownedBy(b, 1, "steal")
    const shard = shardOf("Counter", id, SHARDS)
    expect(await run(a.system.ask(Counter, id, "Increment", { by: 1 }))).toEqual({ count: 1, node: "B" })
    const nc = await connect({ servers: natsUrl() })
    try {
      const kv = await new Kvm(nc).open(bucketName(prefix))
      // An intruder holds the key (rewriting it so it does not lapse meanwhile).
      await kv.put(`shard.${shard}`, "intruder")
      const holder = setInterval(() => void kv.put(`shard.${shard}`, "intruder").catch(() => {}), 300)
      try {
        await new Promise((r) => setTimeout(r, 900)) // > one renewal round (500 ms)
        for (const node of [a, b]) {
          const error = await run(Effect.flip(node.system.ask(Counter, id, "Get", {}, { timeoutMillis: 300 })))
          expect(error).toBeInstanceOf(ActorUnavailable)
        }
      } finally {
        clearInterval(holder)
      }
      await kv.delete(`shard.${shard}`)
      // Free again: a node takes it and the actor re-activates from the store.
      const reply = await run(a.system.ask(Counter, id, "Increment", { by: 1 }))
      expect(reply.count).toBe(2)
      expect(store.loads.get(`Counter/${id}`)).toBe(2)
    } finally {
      await nc.close()
    }
  })

  it("hands a drained node's shards over; its actors re-activate on the other node with their state", async () => {
    const ids = await ownedBy(a, 6, "handover")
    await run(Effect.forEach(ids, (id, i) => b.system.ask(Counter, id, "Increment", { by: i + 1 }), { discard: true }))
    expect(await run(Effect.forEach(ids, (id) => b.system.ask(Counter, id, "WhoAmI", {})))).toEqual(ids.map(() => "A"))

    const started = Date.now()
    await stopNode(a) // graceful: passivate, delete leases
    const replies = await run(Effect.forEach(ids, (id) => b.system.ask(Counter, id, "Increment", { by: 100 })))
    expect(replies).toEqual(ids.map((_, i) => ({ count: i + 1 + 100, node: "B" })))
    expect(Date.now() - started).toBeLessThan(5000)
    await waitFor(
      "B owns every shard",
      async () => {
        const counts = countByOwner(await readLeases(prefix))
        return counts.get(b.system.nodeId) === SHARDS ? true : undefined
      },
      10_000
    )
    for (const id of ids) expect(store.loads.get(`Counter/${id}`)).toBe(2)
  })

  it("fails with ActorUnavailable when no node serves the shard", async () => {
    const lonely = testPrefix()
    const client = await startNode("client", MemoryActorStore.make(), { prefix: lonely, serve: false })
    try {
      const started = Date.now()
      const error = await run(Effect.flip(client.system.ask(Counter, "nobody", "Get", {}, { timeoutMillis: 300 })))
      expect(error).toBeInstanceOf(ActorUnavailable)
      expect(Date.now() - started).toBeGreaterThanOrEqual(290)
      expect(Date.now() - started).toBeLessThan(1500)
    } finally {
      await stopNode(client)
      await deleteBucket(lonely)
    }
  })
})
