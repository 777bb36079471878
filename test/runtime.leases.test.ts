/**
 * ShardLeases against a fake KV (no NATS): the lease rules themselves.
 */
import type { KV } from "@nats-io/kv"
import { JetStreamApiError } from "@nats-io/jetstream"
import { Effect, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import * as ShardLeases from "../runtime/ShardLeases.ts"
import { shardOf } from "../runtime/Sharding.ts"

/** Just enough of a KV bucket: CAS on revisions, no expiry; `stall` makes writes hang (NATS unreachable). */
const fakeKv = () => {
  let seq = 0
  const rows = new Map<string, { value: string; revision: number }>()
  const state = { stall: false, writes: 0 }
  const hang = () => new Promise<never>(() => {})
  const wrong = () => new JetStreamApiError({ code: 400, err_code: 10071, description: "wrong last sequence" })
  const kv = {
    create: async (key: string, value: string) => {
      if (state.stall) return hang()
      if (rows.has(key)) throw wrong()
      rows.set(key, { value, revision: ++seq })
      return seq
    },
    update: async (key: string, value: string, revision: number) => {
      if (state.stall) return hang()
      state.writes++
      if (rows.get(key)?.revision !== revision) throw wrong()
      rows.set(key, { value, revision: ++seq })
      return seq
    },
    put: async (key: string, value: string) => {
      if (state.stall) return hang()
      rows.set(key, { value, revision: ++seq })
      return seq
    },
    delete: async (key: string, opts?: { previousSeq?: number }) => {
      if (state.stall) return hang()
      if (opts?.previousSeq !== undefined && rows.get(key)?.revision !== opts.previousSeq) throw wrong()
      rows.delete(key)
    },
    keys: async () => {
      if (state.stall) return hang()
      const keys = [...rows.keys()]
      return (async function* () {
        yield* keys
      })()
    },
    watch: async () => hang()
  }
  return { kv: kv as unknown as KV, rows, state }
}

const start = (kv: KV, events: Array<string>, overrides: Partial<ShardLeases.ShardLeasesConfig> = {}) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const leases = yield* Scope.provide(
        ShardLeases.make({
          kv,
          nodeId: "me",
          shards: 4,
          leaseTtlMillis: 600,
          acquire: true,
          onServe: (shard) => Effect.sync(() => void events.push(`serve ${shard}`)),
          onStop: (shard, graceful) => Effect.sync(() => void events.push(`stop ${shard} ${graceful ? "graceful" : "now"}`)),
          ...overrides
        }),
        scope
      )
      return { leases, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
    })
  )

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("ShardLeases", () => {
  it("acquires free shards with create, and skips shards another node holds", async () => {
    const { kv, rows } = fakeKv()
    rows.set("shard.2", { value: "other", revision: 100 })
    rows.set("node.other", { value: "x", revision: 101 })
    const events: Array<string> = []
    const { leases, close } = await start(kv, events)
    try {
      // Two live nodes, four shards: a target of two, and shard 2 is taken.
      expect(leases.liveNodes()).toBe(2)
      expect([...leases.owned()].sort()).toHaveLength(2)
      expect(leases.owned()).not.toContain(2)
      for (const shard of leases.owned()) {
        expect(rows.get(`shard.${shard}`)?.value).toBe("me")
        expect(leases.isServing(shard)).toBe(true)
      }
      expect(rows.has("node.me")).toBe(true)
    } finally {
      await close()
    }
  })

  it("stops serving at once when its renewal is refused (someone else wrote the key)", async () => {
    const { kv, rows } = fakeKv()
    const events: Array<string> = []
    const { leases, close } = await start(kv, events)
    try {
      expect(leases.owned()).toHaveLength(4)
      rows.set("shard.1", { value: "intruder", revision: 999 })
      // One renewal round (TTL / 3 = 200 ms) notices it; under load that round may come late.
      for (const until = performance.now() + 10_000; leases.isServing(1) && performance.now() < until; ) await sleep(25)
      expect(leases.isServing(1)).toBe(false)
      expect(events).toContain("stop 1 now")
      expect(leases.isServing(0)).toBe(true)
      expect(rows.get("shard.1")?.value).toBe("intruder")
    } finally {
      await close()
    }
  })

  it("stops serving before the TTL can lapse when renewals don't get through", async () => {
    const { kv, state } = fakeKv()
    const events: Array<string> = []
    const { leases, close } = await start(kv, events)
    try {
      expect(leases.owned()).toHaveLength(4)
      const stalledAt = performance.now()
      state.stall = true
      // The last successful write was sent before stalledAt, so the lease lapses by stalledAt + 600
      // at the latest; we must have stopped serving `safety` (TTL / 4 = 150 ms) before that.
      expect(leases.isServing(0)).toBe(true)
      while (performance.now() < stalledAt + 450) await sleep(Math.max(1, stalledAt + 450 - performance.now())) // timers may fire a ms early
      for (const shard of [0, 1, 2, 3]) expect(leases.isServing(shard)).toBe(false)
      await sleep(150)
      expect(events.filter((e) => e.endsWith("now")).sort()).toEqual(["stop 0 now", "stop 1 now", "stop 2 now", "stop 3 now"])
    } finally {
      await close()
    }
  })

  it("releases shards above its share gracefully, deleting the lease with its revision", async () => {
    const { kv, rows } = fakeKv()
    const events: Array<string> = []
    const { leases, close } = await start(kv, events)
    try {
      expect(leases.owned()).toHaveLength(4)
      rows.set("node.newcomer", { value: "x", revision: 500 })
      // The next renewal sees the newcomer and gives up two shards; under load that round may come late.
      // The delete follows the graceful stop, so wait for both: the share and the rows.
      const released = () => [0, 1, 2, 3].filter((s) => !leases.owned().includes(s))
      const settled = () => leases.owned().length <= 2 && released().every((s) => !rows.has(`shard.${s}`))
      for (const until = performance.now() + 10_000; !settled() && performance.now() < until; ) await sleep(25)
      expect(leases.owned()).toHaveLength(2)
      for (const shard of released()) {
        expect(events).toContain(`stop ${shard} graceful`)
        expect(rows.has(`shard.${shard}`)).toBe(false)
      }
    } finally {
      await close()
    }
  })

  it("releaseAll stops every shard gracefully and deletes leases and heartbeat", async () => {
    const { kv, rows } = fakeKv()
    const events: Array<string> = []
    const { leases, close } = await start(kv, events)
    await Effect.runPromise(leases.releaseAll)
    expect(leases.owned()).toHaveLength(0)
    expect([...rows.keys()]).toEqual([])
    expect(events.filter((e) => e.endsWith("graceful"))).toHaveLength(4)
    await close()
  })

  it("hashes addresses to shards stably", () => {
    expect(shardOf("Counter", "a", 64)).toBe(shardOf("Counter", "a", 64))
    const counts = new Array(8).fill(0)
    for (let i = 0; i < 8000; i++) counts[shardOf("Counter", `id-${i}`, 8)]++
    for (const c of counts) expect(c).toBeGreaterThan(800)
    // Pinned: a change of hash would move every actor on upgrade.
    expect([shardOf("Counter", "a", 64), shardOf("account", "x@y.z", 64), shardOf("k", "", 1024)]).toEqual([8, 11, 94])
  })
})
