/**
 * Shard hand-over when a node PROCESS dies: two real node processes
 * (`test/support/actorNode.ts`) on one NATS and one PostgreSQL database; one
 * is killed with SIGKILL (no drain, no lease release) and its actors must
 * re-activate on the survivor with their persisted state once its leases
 * lapse (lease TTL + a margin).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Database from "../persistence/Database.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { layerNats } from "../runtime/NatsTransport.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "./support/database.ts"
import { checkNats, countByOwner, deleteBucket, natsUrl, readLeases, testPrefix } from "./support/nats.ts"
import { Counter, NodeInfo } from "./support/runtimeActors.ts"
import { nodeCommand } from "../tools/NodeBundle.ts"

const SUITE = "runtime shard hand-over after kill -9 (test/runtime.handover.test.ts)"
const available = (await checkNats(SUITE)) && (await checkPostgres(SUITE))

const SHARDS = 8
const LEASE_TTL = 3000
const MARGIN = 3000
const root = fileURLToPath(new URL("..", import.meta.url))

interface NodeProcess {
  readonly id: string
  readonly child: ChildProcess
  readonly output: Array<string>
  readonly ready: Promise<void>
  readonly exited: Promise<number | null>
}

const spawnNode = (id: string, prefix: string, databaseUrl: string): NodeProcess => {
  const child = spawn(...nodeCommand("test/support/actorNode.ts"), {
    cwd: root,
    env: {
      ...process.env,
      ATRIUM_NODE_ID: id,
      ATRIUM_NATS_URL: natsUrl(),
      ATRIUM_PREFIX: prefix,
      ATRIUM_SHARDS: String(SHARDS),
      ATRIUM_LEASE_TTL_MS: String(LEASE_TTL),
      DATABASE_URL: databaseUrl
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const output: Array<string> = []
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${id} not ready in 30 s:\n${output.join("")}`)), 30_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString())
      if (output.join("").includes(`ready ${id}`)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()))
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${id} exited (${code}) before being ready:\n${output.join("")}`))
    })
  })
  return { id, child, output, ready, exited }
}

const waitFor = async <A>(what: string, probe: () => Promise<A | undefined>, timeoutMs: number): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe.skipIf(!available)("NATS actor runtime: hand-over when a node process is killed", () => {
  const prefix = testPrefix()
  let db: TestDatabase
  let nodes: Array<NodeProcess> = []
  let client: { system: ActorSystemShape; scope: Scope.Closeable }

  beforeAll(async () => {
    db = await createTestDatabase()
    // Migrate once up front (the nodes would too, under an advisory lock).
    await Effect.runPromise(Effect.scoped(Layer.build(Database.postgres(db.url))))
    nodes = [spawnNode(`${prefix}-n1`, prefix, db.url), spawnNode(`${prefix}-n2`, prefix, db.url)]
    await Promise.all(nodes.map((n) => n.ready))
    // This process only sends: a client-only node (no shards, no heartbeat).
    client = await Effect.runPromise(
      Effect.gen(function* () {
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(
          layerNats([Counter], {
            url: natsUrl(),
            prefix,
            shards: SHARDS,
            leaseTtlMillis: LEASE_TTL,
            serve: false,
            timeoutMillis: 15_000
          }).pipe(Layer.provide(Layer.mergeAll(MemoryActorStore.layer, Layer.succeed(NodeInfo, { name: "client" })))),
          scope
        )
        return { system: Context.get(context, ActorSystem), scope }
      })
    )
    await waitFor(
      "balanced shards",
      async () => {
        const counts = countByOwner(await readLeases(prefix))
        return nodes.every((n) => counts.get(n.id) === SHARDS / 2) ? true : undefined
      },
      20_000
    )
  }, 60_000)

  afterAll(async () => {
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill("SIGTERM")
    await Promise.all(nodes.map((n) => Promise.race([n.exited, new Promise((r) => setTimeout(r, 5000))])))
    for (const node of nodes) if (node.child.exitCode === null) node.child.kill("SIGKILL")
    if (client) await Effect.runPromise(Scope.close(client.scope, Exit.void))
    await deleteBucket(prefix)
    await db?.drop()
  }, 30_000)

  it("re-activates the killed node's actors on the survivor with their persisted state", async () => {
    const [victim, survivor] = nodes
    const ids = Array.from({ length: 16 }, (_, i) => `kill-${i}`)
    const before = await Effect.runPromise(
      Effect.forEach(
        ids,
        (id) =>
          Effect.gen(function* () {
            yield* client.system.ask(Counter, id, "Increment", { by: 1 })
            yield* client.system.ask(Counter, id, "Increment", { by: 1 })
            return { id, ...(yield* client.system.ask(Counter, id, "Increment", { by: 1 })) }
          }),
        { concurrency: 8 }
      )
    )
    expect(before.every((r) => r.count === 3)).toBe(true)
    const onVictim = before.filter((r) => r.node === victim.id).map((r) => r.id)
    const onSurvivor = before.filter((r) => r.node === survivor.id).map((r) => r.id)
    expect(onVictim.length).toBeGreaterThan(0)
    expect(onSurvivor.length).toBeGreaterThan(0)

    victim.child.kill("SIGKILL")
    const killedAt = Date.now()
    expect(await victim.exited).toBeNull()

    // The survivor's own actors are not disturbed meanwhile.
    const undisturbed = await Effect.runPromise(client.system.ask(Counter, onSurvivor[0], "Increment", { by: 1 }, { timeoutMillis: 1000 }))
    expect(undisturbed).toEqual({ count: 4, node: survivor.id })

    // The victim's actors answer again, from the survivor, with their state, within TTL + margin.
    const after = await Effect.runPromise(
      Effect.forEach(
        onVictim,
        (id) =>
          Effect.map(client.system.ask(Counter, id, "Increment", { by: 1 }, { timeoutMillis: LEASE_TTL + MARGIN + 2000 }), (reply) => ({
            id,
            ...reply,
            at: Date.now() - killedAt
          })),
        { concurrency: "unbounded" }
      )
    )
    const times = after.map((r) => r.at)
    console.info(
      `[runtime.handover] ${onVictim.length} actors of the killed node answered from the survivor after ${Math.min(...times)}–${Math.max(...times)} ms (lease TTL ${LEASE_TTL} ms)`
    )
    for (const reply of after) {
      expect(reply).toMatchObject({ count: 4, node: survivor.id })
      expect(reply.at).toBeLessThan(LEASE_TTL + MARGIN)
    }
    // Not earlier than the lease could lapse: nobody stole a live lease (the last renewal was ≤ TTL/3 before the kill).
    expect(Math.min(...after.map((r) => r.at))).toBeGreaterThan(LEASE_TTL - LEASE_TTL / 3 - 200)

    const counts = countByOwner(await readLeases(prefix))
    expect(counts.get(survivor.id)).toBe(SHARDS)

    // Every acknowledged increment is in PostgreSQL, exactly once.
    const sql = postgres(db.url, { max: 1, onnotice: () => {} })
    try {
      const rows = await sql<Array<{ id: string; state: { count: number } }>>`
        select id, state from actor_state where kind = 'Counter' and id like 'kill-%'`
      const byId = new Map(rows.map((r) => [r.id, r.state.count]))
      for (const id of onVictim) expect(byId.get(id)).toBe(4)
      expect(byId.get(onSurvivor[0])).toBe(4)
      for (const id of onSurvivor.slice(1)) expect(byId.get(id)).toBe(3)
    } finally {
      await sql.end({ timeout: 5 })
    }
  }, 60_000)
})
