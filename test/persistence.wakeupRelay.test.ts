/**
 * Wake-ups across nodes of one PostgreSQL database (persistence/WakeupRelay.ts):
 * a committed write that wakes a topic on one node wakes that topic's workers
 * on another node, a rolled-back one does not, and a node whose LISTEN
 * connection was cut wakes every topic once it listens again, also when the
 * database refused its first attempts to reconnect. Each "node" here is a
 * `PostgresSql` layer with its own `Wakeup`, as two processes would have.
 */
import net from "node:net"
import { Effect, Exit, Layer, Scope } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PostgresSql from "../persistence/PostgresSql.ts"
import { Sql, wakeAfterCommit } from "../persistence/Sql.ts"
import * as Wakeup from "../runtime/Wakeup.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"

const postgresReady = await checkPostgres("test/persistence.wakeupRelay.test.ts")

/** A node: its own wake-ups and its own `Sql` (with its relay) on `url`, until `close`. */
const node = async (url: string) => {
  const wakeup = Wakeup.make()
  const layer = PostgresSql.layer(url, { max: 2 }).pipe(Layer.provide(Layer.succeed(Wakeup.Wakeup, wakeup)))
  const scope = await Effect.runPromise(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  return {
    wakeup,
    run: <A, E>(effect: Effect.Effect<A, E, Sql>) =>
      Effect.runPromise(effect.pipe(Effect.provideContext(context), Effect.provideService(Wakeup.Wakeup, wakeup))),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * A TCP proxy in front of PostgreSQL that can refuse new connections for a while (it stops listening: a
 * connection attempt gets ECONNREFUSED, as from a database that is down) and accept them again on the same
 * port, and can stall the next connection that sends a LISTEN: from then on nothing passes on it either way
 * and it stays open (a path that died without closing). Connections already open stay open.
 */
const refusingProxy = async (target: URL) => {
  const upstreams = new Set<net.Socket>()
  let stallListen = false
  const serve = (client: net.Socket) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) })
    upstreams.add(upstream)
    let stalled = false
    const end = () => {
      upstreams.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    for (const socket of [client, upstream]) socket.on("error", end).on("close", end)
    client.on("data", (chunk: Buffer) => {
      if (stallListen && chunk.toString("latin1").toLowerCase().includes("listen")) {
        stallListen = false
        stalled = true
      }
      if (!stalled) upstream.write(chunk)
    })
    upstream.on("data", (chunk: Buffer) => {
      if (!stalled) client.write(chunk)
    })
  }
  const listen = (port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer(serve)
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => resolve(server))
    })
  let server: net.Server | undefined = await listen(0)
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("refusingProxy: no port")
  const port = address.port
  const url = new URL(target)
  url.hostname = "127.0.0.1"
  url.port = String(port)
  return {
    url: url.toString(),
    /** The local ports of its connections to PostgreSQL (`client_port` in pg_stat_activity). */
    clientPorts: () => [...upstreams].flatMap((socket) => (socket.localPort === undefined ? [] : [socket.localPort])),
    refuse: () => {
      server?.close()
      server = undefined
    },
    stallNextListen: () => {
      stallListen = true
    },
    accept: async () => {
      server ??= await listen(port)
    },
    close: async () => {
      server?.close()
      server = undefined
      for (const socket of upstreams) socket.destroy()
    }
  }
}

/** Whether `topic` on `wakeup` is signalled within `millis` (a sleep that ends early was woken). */
const wokenWithin = async (wakeup: Wakeup.WakeupShape, topic: string, millis: number, meanwhile: () => Promise<unknown>) => {
  const listener = wakeup.listen(topic)
  const started = Date.now()
  const slept = Effect.runPromise(listener.sleep(millis)).then(() => Date.now() - started)
  await meanwhile()
  return (await slept) < millis
}

describe.skipIf(!postgresReady)("wake-ups across nodes (PostgreSQL NOTIFY)", () => {
  let database: TestDatabase
  let a: Awaited<ReturnType<typeof node>>
  let b: Awaited<ReturnType<typeof node>>

  beforeAll(async () => {
    database = await createTestDatabase()
    a = await node(database.url)
    b = await node(database.url)
  })

  afterAll(async () => {
    await a?.close()
    await b?.close()
    await database?.drop()
  })

  const commitWaking = (topic: string) =>
    a.run(Sql.use((sql) => sql.transaction(Effect.andThen(sql.query("select 1"), wakeAfterCommit(topic)))))

  it("a write committed on one node wakes the topic's workers on the other", async () => {
    expect(await wokenWithin(b.wakeup, "relay.committed", 30_000, () => commitWaking("relay.committed"))).toBe(true)
  })

  it("wakes the writer's own workers at once, and only the topic written", async () => {
    const own = a.wakeup.listen("relay.own")
    const other = b.wakeup.listen("relay.untouched")
    const woken = Effect.runPromise(own.sleep(30_000)).then(() => "woken")
    await commitWaking("relay.own")
    expect(await woken).toBe("woken")
    // The untouched topic's listener still sleeps: a short sleep runs its whole length.
    const started = Date.now()
    await Effect.runPromise(other.sleep(300))
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it("a rolled-back write wakes nobody, here or there", async () => {
    const topic = "relay.rolledBack"
    const here = a.wakeup.listen(topic)
    const there = b.wakeup.listen(topic)
    const failed = await a
      .run(Sql.use((sql) => sql.transaction(Effect.andThen(wakeAfterCommit(topic), Effect.fail("refused" as const)))))
      .then(
        () => "committed",
        () => "rolled back"
      )
    expect(failed).toBe("rolled back")
    // A write on another topic, committed after it, is relayed: had the rolled-back one been sent, it would be by now.
    expect(await wokenWithin(b.wakeup, "relay.after", 30_000, () => commitWaking("relay.after"))).toBe(true)
    const started = Date.now()
    await Promise.all([Effect.runPromise(here.sleep(300)), Effect.runPromise(there.sleep(300))])
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it("a node whose LISTEN connection was cut wakes every topic once it listens again", async () => {
    const admin = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      const woken = await wokenWithin(b.wakeup, "relay.anything", 60_000, async () => {
        // Both nodes' listeners are cut; each reconnects and may have missed wake-ups meanwhile.
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
                     where datname = current_database() and application_name = 'atrium-wakeup' and query ilike 'listen%'`
      })
      expect(woken).toBe(true)
      // And the relay works again after the reconnect.
      expect(await wokenWithin(b.wakeup, "relay.again", 30_000, () => commitWaking("relay.again"))).toBe(true)
    } finally {
      await admin.end({ timeout: 5 })
    }
  })

  it("a node whose LISTEN connection was cut while the database refused connections listens again once it accepts them", async () => {
    const proxy = await refusingProxy(new URL(database.url))
    const c = await node(proxy.url)
    const admin = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      const woken = await wokenWithin(c.wakeup, "relay.missed", 60_000, async () => {
        proxy.refuse()
        const cut = await admin<Array<{ pid: number }>>`select pid from pg_stat_activity
          where client_port = any(${proxy.clientPorts()}) and application_name = 'atrium-wakeup' and query ilike 'listen%'`
        expect(cut).toHaveLength(1)
        await admin`select pg_terminate_backend(${cut[0]!.pid})`
        // Sent while C cannot listen: C never hears it, and wakes every topic once it listens again.
        await commitWaking("relay.missed")
        // C's first attempts to listen again are refused meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 1500))
        await proxy.accept()
      })
      expect(woken).toBe(true)
      expect(await wokenWithin(c.wakeup, "relay.resumed", 30_000, () => commitWaking("relay.resumed"))).toBe(true)
    } finally {
      await admin.end({ timeout: 5 })
      await c.close()
      await proxy.close()
    }
  })

  it("a node whose LISTEN goes unanswered on a connection that never closes gives it up and listens on another", async () => {
    const proxy = await refusingProxy(new URL(database.url))
    const c = await node(proxy.url)
    const admin = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      proxy.stallNextListen()
      const woken = await wokenWithin(c.wakeup, "relay.stalled", 40_000, async () => {
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
          where client_port = any(${proxy.clientPorts()}) and application_name = 'atrium-wakeup' and query ilike 'listen%'`
        await commitWaking("relay.stalled")
      })
      expect(woken).toBe(true)
      expect(await wokenWithin(c.wakeup, "relay.unstalled", 30_000, () => commitWaking("relay.unstalled"))).toBe(true)
    } finally {
      await admin.end({ timeout: 5 })
      await c.close()
      await proxy.close()
    }
  })
})
