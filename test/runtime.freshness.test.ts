/**
 * What a node does when it or a peer cannot be reached (NATS transport, two
 * nodes in one process, node A's NATS connection through a TCP proxy the test
 * cuts): invalidations are acknowledged by the owner or retried without
 * holding the writer's actor; a node cut off answers "disconnected" for its
 * shards at once and re-sends its writes in flight (with their idempotency
 * keys) as soon as it is back; back, it rebuilds what it may have missed.
 */
import { createServer, type Server, Socket } from "node:net"
import { Kvm } from "@nats-io/kv"
import { connect } from "@nats-io/transport-node"
import { Context, Effect, Exit, Layer, Logger, Schema, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Actor } from "../runtime/Actor.ts"
import { ActorUnavailable } from "../runtime/ActorError.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import * as MessageCodec from "../runtime/MessageCodec.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { bucketName, layerNats, nodeSubjectOf } from "../runtime/NatsTransport.ts"
import { shardOf } from "../runtime/Sharding.ts"
import { checkNats, countByOwner, deleteBucket, natsUrl, readLeases, testPrefix } from "./support/nats.ts"
import { Counter, NodeInfo } from "./support/runtimeActors.ts"

const SUITE = "runtime freshness and acknowledged invalidation (test/runtime.freshness.test.ts)"
const available = await checkNats(SUITE)

const SHARDS = 8
const FRESHNESS = 600

/** The relational truth of the Board read models (shared by both nodes, like a database), and how often each was rebuilt. */
const truth = new Map<string, string>()
const rebuilds = new Map<string, number>()

const Board = Actor<{ readonly title: string }>()({
  kind: "Board",
  state: Schema.Struct({ title: Schema.String }),
  initial: () => ({ title: "" }),
  rebuild: (id) =>
    Effect.sync(() => {
      rebuilds.set(id, (rebuilds.get(id) ?? 0) + 1)
      return { title: truth.get(id) ?? "untitled" }
    }),
  messages: { Read: { payload: Schema.Struct({}), success: Schema.String } },
  readOnly: ["Read"],
  handlers: { Read: (_, ctx) => Effect.succeed(ctx.state.title) }
})

/** Changes a Board's row and tells its read model, wherever it lives. */
const Writer = Actor<{ readonly writes: number }>()({
  kind: "Writer",
  state: Schema.Struct({ writes: Schema.Number }),
  initial: () => ({ writes: 0 }),
  rebuild: () => Effect.succeed({ writes: 0 }),
  messages: {
    Retitle: { payload: Schema.Struct({ board: Schema.String, title: Schema.String }), success: Schema.String },
    Ping: { payload: Schema.Struct({}), success: Schema.String }
  },
  handlers: {
    Retitle: ({ board, title }) =>
      Effect.gen(function* () {
        truth.set(board, title)
        yield* (yield* ActorSystem).invalidate(Board, board)
        return "retitled"
      }),
    Ping: () => Effect.succeed("pong")
  }
})

/** A TCP proxy in front of NATS: `cut` drops every connection and refuses new ones until `heal`. */
interface Proxy {
  readonly url: string
  readonly cut: () => void
  readonly heal: () => void
  readonly close: () => Promise<void>
}

const startProxy = async (target: string): Promise<Proxy> => {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  let open = true
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = new Socket()
    upstream.connect(Number(port), hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => {})
    }
    client.pipe(upstream).pipe(client)
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const listening = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `nats://127.0.0.1:${listening}`,
    cut: () => {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    heal: () => {
      open = true
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

interface Node {
  readonly system: ActorSystemShape
  readonly scope: Scope.Closeable
}

const startNode = async (name: string, url: string, prefix: string): Promise<Node> => {
  const layer = layerNats([Counter, Board, Writer], {
    url,
    prefix,
    nodeId: `${prefix}-${name}`,
    shards: SHARDS,
    leaseTtlMillis: 3000,
    freshnessMillis: FRESHNESS,
    timeoutMillis: 8000
  }).pipe(
    Layer.provide(Layer.mergeAll(MemoryActorStore.layer, Layer.succeed(NodeInfo, { name }))),
    Layer.provide(Logger.layer([Logger.make(() => {})]))
  )
  return Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(layer, scope)
      return { system: Context.get(context, ActorSystem), scope }
    })
  )
}

const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)

const waitFor = async <A>(what: string, probe: () => Promise<A | undefined>, timeoutMs = 15_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.skipIf(!available)("freshness and acknowledged invalidation", () => {
  const prefix = testPrefix()
  let proxy: Proxy
  let a: Node
  let b: Node

  beforeAll(async () => {
    proxy = await startProxy(natsUrl())
    a = await startNode("A", proxy.url, prefix)
    b = await startNode("B", natsUrl(), prefix)
    await waitFor("balanced shards", async () => {
      const counts = countByOwner(await readLeases(prefix))
      return counts.get(a.system.nodeId) === SHARDS / 2 && counts.get(b.system.nodeId) === SHARDS / 2 ? true : undefined
    })
  })

  afterAll(async () => {
    proxy?.heal()
    await Promise.allSettled([a && run(Scope.close(a.scope, Exit.void)), b && run(Scope.close(b.scope, Exit.void))])
    await proxy?.close()
    await deleteBucket(prefix)
  })

  const ownedBy = async (node: Node, kind: string, count: number, tag: string): Promise<Array<string>> => {
    const owners = await readLeases(prefix)
    const ids: Array<string> = []
    for (let i = 0; ids.length < count; i++) {
      const id = `${tag}-${i}`
      if (owners.get(shardOf(kind, id, SHARDS)) === node.system.nodeId) ids.push(id)
    }
    return ids
  }

  it("a read through either node after a write acknowledged through the other sees the write", async () => {
    const [board] = await ownedBy(b, "Board", 1, "seen")
    const [writer] = await ownedBy(a, "Writer", 1, "seen-writer")
    truth.set(board, "before")
    expect(await run(a.system.ask(Board, board, "Read", {}))).toBe("before")
    expect(await run(b.system.ask(Board, board, "Read", {}))).toBe("before")
    expect(await run(a.system.ask(Writer, writer, "Retitle", { board, title: "after" }))).toBe("retitled")
    expect(await run(a.system.ask(Board, board, "Read", {}))).toBe("after")
    expect(await run(b.system.ask(Board, board, "Read", {}))).toBe("after")
  })

  it("retries an invalidation its owner does not acknowledge, delaying that reply only, until the owner cannot be serving", async () => {
    const [board] = await ownedBy(b, "Board", 1, "ghosted")
    const [writer] = await ownedBy(a, "Writer", 1, "ghost-writer")
    const shard = shardOf("Board", board, SHARDS)
    // A "ghost" takes the shard's lease and receives on its node subject, but never answers.
    const nc = await connect({ servers: natsUrl() })
    let received = 0
    nc.subscribe(nodeSubjectOf(prefix, "ghost"), { callback: () => void received++ })
    const kv = await new Kvm(nc).open(bucketName(prefix))
    await kv.put(`shard.${shard}`, "ghost")
    const holder = setInterval(() => void kv.put(`shard.${shard}`, "ghost").catch(() => {}), 300)
    try {
      await waitFor("the ghost to own the shard", async () => ((await readLeases(prefix)).get(shard) === "ghost" ? true : undefined))
      // B serves the shard until its next renewal finds the lease taken; until then it would still acknowledge the invalidation.
      const probe = MessageCodec.withDeadline(MessageCodec.encodeInvalidation("Board", board), 1000)
      await waitFor("B to stop serving the ghost's shard", async () => {
        const reply = await nc.request(nodeSubjectOf(prefix, b.system.nodeId), probe, { timeout: 1000 }).catch(() => undefined)
        return reply?.string().includes("moved") ? true : undefined
      })
      const order: Array<string> = []
      const retitle = run(a.system.ask(Writer, writer, "Retitle", { board, title: "unheard" })).then((reply) => {
        order.push("retitle")
        return reply
      })
      await waitFor("the first invalidation attempt", async () => (received > 0 ? true : undefined))
      // The writer's actor is not held while the invalidation waits.
      expect(await run(a.system.ask(Writer, writer, "Ping", {}))).toBe("pong")
      order.push("ping")
      // Answered before the 8 s deadline: the ghost cannot be serving after a freshness window without a word.
      expect(await retitle).toBe("retitled")
      expect(order).toEqual(["ping", "retitle"])
      expect(received).toBeGreaterThan(1)
    } finally {
      clearInterval(holder)
      await kv.delete(`shard.${shard}`)
      await nc.close()
    }
  })

  it("a node paused longer than the freshness window rebuilds its read models before serving them again", async () => {
    const [board] = await ownedBy(a, "Board", 1, "paused")
    truth.set(board, "held")
    expect(await run(a.system.ask(Board, board, "Read", {}))).toBe("held")
    const before = rebuilds.get(board) ?? 0
    // The whole process stalls (as under SIGSTOP or a long GC): no ping runs, no invalidation is heard.
    const until = performance.now() + FRESHNESS * 1.5
    while (performance.now() < until) {}
    expect(await run(a.system.ask(Board, board, "Read", {}))).toBe("held")
    expect(rebuilds.get(board) ?? 0).toBeGreaterThan(before)
  })

  it("cut off, a node answers 'disconnected' for its own shards, re-sends its writes in flight once back, and rebuilds", async () => {
    const [board] = await ownedBy(a, "Board", 1, "cut")
    const [sleeper] = await ownedBy(b, "Counter", 1, "cut-sleeper")
    truth.set(board, "kept")
    expect(await run(a.system.ask(Board, board, "Read", {}))).toBe("kept")
    const before = rebuilds.get(board) ?? 0

    // A write in flight from A to B when A's connection drops: its outcome is unknown, so A re-sends it (same key) once back.
    const inFlight = run(a.system.ask(Counter, sleeper, "Sleep", { millis: 1500 }))
    await new Promise((r) => setTimeout(r, 200))
    proxy.cut()
    try {
      // As soon as A sees its connection gone (the socket's close), it refuses reads of its shards.
      const refused = await waitFor("A to refuse reads while cut off", () =>
        run(Effect.option(Effect.flip(a.system.ask(Board, board, "Read", {})))).then((o) => (o._tag === "Some" ? o.value : undefined))
      )
      expect(refused).toBeInstanceOf(ActorUnavailable)
      expect((refused as ActorUnavailable).reason).toBe("disconnected")
      // The other node is not affected.
      expect(await run(b.system.ask(Counter, sleeper, "Get", {}))).toMatchObject({ count: 0 })
    } finally {
      proxy.heal()
    }
    expect(await inFlight).toBe(0)

    // Back: served again, from a rebuilt read model (it may have missed invalidations while cut off).
    expect(
      await waitFor("A to serve again", () =>
        run(Effect.option(a.system.ask(Board, board, "Read", {}))).then((o) => (o._tag === "Some" ? o.value : undefined))
      )
    ).toBe("kept")
    expect(rebuilds.get(board) ?? 0).toBeGreaterThan(before)
  })
})
