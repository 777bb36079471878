/**
 * What a resident task actor costs, and what stays after passivation (issue 27, "Memory"): one embedded
 * Atrium (server/main.ts on a fresh PGlite DATA_DIR) with N tasks, each read once by getTask; the server's
 * RSS and a heap snapshot (SIGUSR2, `--heapsnapshot-signal`) before the reads, after them, and once idle
 * actors had time to passivate. The snapshots are summed per (node type, constructor/name) and diffed, so
 * the per-actor cost and whatever outlives passivation show by what holds it.
 *
 *   node --import tsx bench/memory-probe.ts [tasks=2000] [idleSeconds=2] [snapshots|usage] [extra env KEY=VALUE ...]
 *
 * `usage` (the default) takes no snapshot (writing one costs the server hundreds of MiB of RSS): the server
 * runs a full GC and reports `process.memoryUsage()` instead.
 *
 * A diagnostic tool, not a scenario: the bench's `read-model-memory` scenario reports the RSS figures.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { bytes } from "./report/format.ts"
import type { RunOptions } from "./Scenario.ts"
import { buildBundles } from "../tools/NodeBundle.ts"
import { ATRIUM, type Backend, withDb } from "./scenarios/rest.ts"
import { addTasks, api, login, structure, taskIds } from "./scenarios/rest/workspace.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const [tasksArg, idleArg, modeArg, ...extraArgs] = process.argv.slice(2)
const withSnapshots = modeArg === "snapshots"
const tasks = Number(tasksArg ?? 2000)
const idleSeconds = Number(idleArg ?? 2)
const extra = Object.fromEntries(extraArgs.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]))
const options: RunOptions = { smoke: true, durationSec: 1, warmupSec: 0, levels: [1], loader: "node", root }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Tally {
  readonly size: number
  readonly count: number
}

/** A heap snapshot's self sizes summed per "type:name" (strings by type only, closures by function name). */
const tally = (file: string): Map<string, Tally> => {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: Array<string>; node_types: [Array<string>] } }
    nodes: Array<number>
    strings: Array<string>
  }
  const fields = snapshot.snapshot.meta.node_fields
  const width = fields.length
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [number, number, number]
  const types = snapshot.snapshot.meta.node_types[0]
  const out = new Map<string, Tally>()
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!]!
    const name =
      type === "string" || type === "concatenated string" || type === "sliced string" ? "" : snapshot.strings[snapshot.nodes[i + nameAt]!]!
    const key = `${type}:${name.slice(0, 60)}`
    const was = out.get(key) ?? { size: 0, count: 0 }
    out.set(key, { size: was.size + snapshot.nodes[i + sizeAt]!, count: was.count + 1 })
  }
  return out
}

const total = (t: Map<string, Tally>) => [...t.values()].reduce((sum, v) => sum + v.size, 0)

const diff = (label: string, from: Map<string, Tally>, to: Map<string, Tally>, per: number) => {
  const rows: Array<[string, number, number]> = []
  for (const key of new Set([...from.keys(), ...to.keys()])) {
    const a = from.get(key) ?? { size: 0, count: 0 }
    const b = to.get(key) ?? { size: 0, count: 0 }
    if (b.size !== a.size) rows.push([key, b.size - a.size, b.count - a.count])
  }
  rows.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
  console.log(`\n${label}: heap ${bytes(total(from))} → ${bytes(total(to))} (${((total(to) - total(from)) / per).toFixed(0)} B per task)`)
  for (const [key, size, count] of rows.slice(0, 40))
    console.log(
      `  ${(size / per).toFixed(1).padStart(8)} B/task  ${String(count).padStart(8)} objects  ${bytes(size).padStart(10)}  ${key}`
    )
}

const dataDir = mkdtempSync(join(tmpdir(), "atrium-memory-probe-"))
const snapshots = mkdtempSync(join(tmpdir(), "atrium-memory-snapshots-"))
// Preloaded into the server: on SIGUSR2, a full GC and one line of `process.memoryUsage()` into usage.jsonl.
const preload = join(snapshots, "usage.cjs")
writeFileSync(
  preload,
  `process.on("SIGUSR2", () => { globalThis.gc?.(); globalThis.gc?.(); require("node:fs").appendFileSync(${JSON.stringify(join(snapshots, "usage.jsonl"))}, JSON.stringify(process.memoryUsage()) + "\\n") })\n`
)

/** The server's `process.memoryUsage()` after a full GC. */
const usage = async (pid: number): Promise<NodeJS.MemoryUsage> => {
  const file = join(snapshots, "usage.jsonl")
  const lines = () => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [])
  const before = lines().length
  process.kill(pid, "SIGUSR2")
  while (lines().length === before) await sleep(100)
  return JSON.parse(lines().at(-1)!) as NodeJS.MemoryUsage
}
const shown = (u: NodeJS.MemoryUsage) =>
  `rss ${bytes(u.rss)}, heap used ${bytes(u.heapUsed)} of ${bytes(u.heapTotal)}, external ${bytes(u.external)} (array buffers ${bytes(u.arrayBuffers)})`
const backend: Backend = {
  key: "embedded",
  label: "embedded PGlite",
  db: { dataDir },
  env: { DATABASE_URL: "", DATA_DIR: dataDir },
  drop: async () => {}
}

/** Asks the server for a heap snapshot and waits until its file is written completely. */
const snapshot = async (pid: number): Promise<string> => {
  const before = new Set(readdirSync(snapshots))
  process.kill(pid, "SIGUSR2")
  for (;;) {
    await sleep(500)
    const fresh = readdirSync(snapshots).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"))
    if (fresh === undefined) continue
    const path = join(snapshots, fresh)
    const size = statSync(path).size
    await sleep(1000)
    if (statSync(path).size === size && size > 0) return path
  }
}

// The server runs from its bundle, as in the bench: through tsx (`npm start`), esbuild's keepNames gives every named
// inner function a `name` property of its own, about 250 B more per closure (19 per activation).
const bundles = await buildBundles()
try {
  let server = await ATRIUM.start(options, backend)
  const seeded = await structure(server.url)
  const token = await login(server.url, seeded.email)
  await server.stop(15_000)
  await withDb(backend.db, (db) => addTasks(db, seeded, tasks))
  const ids = await withDb(backend.db, (db) => taskIds(db, seeded.workspaceId))
  server = await ATRIUM.start(options, backend, {
    ACTOR_IDLE_SECONDS: String(idleSeconds),
    NODE_OPTIONS: withSnapshots ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}` : `--expose-gc --require=${preload}`,
    ...extra
  })
  const get = api(server.url, token)
  await get("GET", `/pm/v1/tasks/${ids[0]}`)
  const start = server.sample()
  const measure = async () => {
    if (withSnapshots) return tally(await snapshot(server.pid))
    console.log(`  ${shown(await usage(server.pid))}`)
    return undefined
  }
  const a = await measure()
  let next = 0
  let errors = 0
  const began = performance.now()
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < ids.length; i = next++) {
        const response = await fetch(`${server.url}/pm/v1/tasks/${ids[i]}`, { headers: { authorization: `Bearer ${token}` } })
        await response.arrayBuffer()
        if (response.status !== 200) errors++
      }
    })
  )
  const after = server.sample()
  console.log(`  ${ids.length} reads in ${((performance.now() - began) / 1000).toFixed(1)} s`)
  const b = await measure()
  await sleep(idleSeconds * 3000)
  const settled = server.sample()
  const c = await measure()
  console.log(
    `${ids.length} tasks, ${errors} errors; RSS ${bytes(start.rssBytes)} before, ${bytes(after.rssBytes)} after the reads, ` +
      `${bytes(settled.rssBytes)} ${idleSeconds * 3} s later (peak ${bytes(settled.peakRssBytes)})`
  )
  if (a && b && c) {
    diff("at the start", new Map(), a, 1)
    diff("before → after the reads", a, b, ids.length)
    diff("after the reads → after passivation", b, c, ids.length)
    diff("before → after passivation", a, c, ids.length)
  }
  await server.stop(15_000)
} finally {
  bundles.remove()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(snapshots, { recursive: true, force: true })
}
