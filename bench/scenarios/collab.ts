/**
 * The collab scenarios: Atrium's collaboration server (Hocuspocus driven on
 * uWebSockets.js, topic fan-out, durable acknowledgements) against stock
 * Hocuspocus (its own `Server`: node:http + ws, in-memory documents, no
 * storage, immediate acknowledgements) started here with the same hooks.
 * Every client speaks the protocol by hand (bench/load/collab-clients.ts),
 * identically for both. Nothing is asserted; the targets are read off the
 * ratios:
 *
 * - collab-fanout: one writer at R updates/s (50, 400, 2,000), 1,000 readers
 *   of one document; server CPU per delivery (target: ≤ 1/3 of stock's at
 *   every rate), writer → reader p99 (no worse than stock's), delivered %
 *   (100%). Atrium coalesces a busy document's updates (COLLAB_COALESCE_MS);
 *   stock Hocuspocus 3 sends every update to every reader as it arrives. A
 *   bare uWS relay (each update frame published as it came, nothing else)
 *   is measured beside them: the platform's floor for one frame per update.
 * - collab-many-docs: D documents × 2 editors typing once a second; server
 *   memory per connection (target: ≤ half of stock's) and acknowledgement
 *   latency.
 * - collab-durable: W writers, each on its own document, a few updates in
 *   flight; acknowledged updates/s — every one persisted first on Atrium
 *   (targets: ≥ 5,000/s on PostgreSQL, ≥ 2,000/s on PGlite).
 * - collab-cold-open: a stored 1 MB page nobody has open, opened again and
 *   again; time from connect to the first full sync (target: p99 < 50 ms).
 * - collab-join-storm: N providers connect at once to one hot page (a
 *   reconnect storm after a deploy); time until all are synced and server
 *   CPU per connection (targets: both ≤ 0.5× stock's).
 * - collab-small-group: 3 editors typing a keystroke every 150 ms each (with
 *   its cursor move), 5 readers; keystroke → reader's screen p50 and p99
 *   (target: no worse than stock's — coalescing must cost a small group
 *   nothing).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import postgres from "postgres"
import * as Y from "yjs"
import { Awareness, encodeAwarenessUpdate } from "y-protocols/awareness"
import { awarenessFrame, connect, marker, updateFrame, type CollabClientsConfig } from "../load/collab-clients.ts"
import { Histogram, type HistogramData } from "../load/Histogram.ts"
import {
  machineBusyCores,
  readMachine,
  readProc,
  spawnChild,
  startLineServer,
  tsNode,
  usageBetween,
  type Child,
  type MachineSample,
  type ProcSample
} from "../process.ts"
import { Steps } from "../progress.ts"
import { failedSeries, type Point, type ProcessFigures, type RunOptions, type Scenario, type Series, type Target } from "../Scenario.ts"
import { seedPglite } from "../../tools/PgliteTemplate.ts"

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const CLIENT_PROCESSES = 2
/** Readers of the fan-out document (the real-time issue's workload); smoke runs use a few. */
const FANOUT_READERS = 1000
const fanoutReaders = (options: RunOptions) => (options.smoke ? 20 : FANOUT_READERS)
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres"

// ------------------------------------------------------------ systems ---

interface Running {
  readonly url: string
  readonly token: string
  readonly pid: number
  readonly sample: () => ProcSample
  /** Memory once fully garbage-collected (the server runs with --expose-gc; see bench/subjects/settled-memory.ts). */
  readonly settled: () => Promise<NodeJS.MemoryUsage>
  readonly stop: () => Promise<void>
}

const withGc = ([command, args]: [string, Array<string>]): [string, Array<string>] => [command, ["--expose-gc", ...args]]

const settledMemoryOf = (server: Child) => (): Promise<NodeJS.MemoryUsage> =>
  new Promise((resolve, reject) => {
    let done = false
    // Writing a heap snapshot as well (BENCH_HEAP_SNAPSHOTS) takes far longer on a large heap.
    const waitSec = process.env.BENCH_HEAP_SNAPSHOTS ? 600 : 30
    const timer = setTimeout(() => {
      done = true
      reject(new Error(`the server did not report its settled memory (MEM line) within ${waitSec} s`))
    }, waitSec * 1000)
    server.onLine((line) => {
      if (done || !line.startsWith("MEM ")) return
      done = true
      clearTimeout(timer)
      resolve(JSON.parse(line.slice(4)) as NodeJS.MemoryUsage)
    })
    void server.exited.then((code) => {
      if (done) return
      done = true
      clearTimeout(timer)
      reject(
        new Error(
          `the server exited (${code}) instead of reporting its settled memory:\n${server.output().trim().split("\n").slice(-10).join("\n")}`
        )
      )
    })
    process.kill(server.pid, "SIGUSR2")
  })

interface System {
  readonly label: string
  readonly role: Series["role"]
  readonly start: (options: RunOptions, env?: Record<string, string>) => Promise<Running>
}

const stock: System = {
  label: "stock Hocuspocus (ws, in-memory)",
  role: "baseline",
  start: async (options, env = {}) => {
    const server = await startLineServer("hocuspocus-stock.ts", ...withGc(tsNode(file("../baselines/hocuspocus-stock.ts"))), {
      cwd: options.root,
      env
    })
    const port = Number(/READY port=(\d+)/.exec(server.output())?.[1])
    return {
      url: `ws://127.0.0.1:${port}/`,
      token: "bench",
      pid: server.pid,
      sample: server.sample,
      settled: settledMemoryOf(server),
      stop: () => server.stop()
    }
  }
}

/** The platform's floor: a bare uWS server relaying each update frame to the document's topic (bench/baselines/uws-relay.ts). */
const relay: System = {
  label: "bare uWS relay (limit)",
  role: "baseline",
  start: async (options, env = {}) => {
    const server = await startLineServer("uws-relay.ts", ...withGc(tsNode(file("../baselines/uws-relay.ts"))), { cwd: options.root, env })
    const port = Number(/READY uws-relay port=(\d+)/.exec(server.output())?.[1])
    return {
      url: `ws://127.0.0.1:${port}/`,
      token: "bench",
      pid: server.pid,
      sample: server.sample,
      settled: settledMemoryOf(server),
      stop: () => server.stop()
    }
  }
}

const atrium = (storage: "pglite" | "postgres"): System => ({
  label: storage === "pglite" ? "Atrium (uWS, PGlite)" : "Atrium (uWS, PostgreSQL)",
  role: "subject",
  start: async (options, env = {}) => {
    const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
    let database: string | undefined
    let admin: postgres.Sql | undefined
    try {
      if (storage === "postgres") {
        database = `atrium_bench_${Date.now().toString(36)}_${process.pid}`
        admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 })
        // A smoke run copies the migrated template the tests use: the server then has nothing to migrate.
        const template = options.smoke ? await (await import("../../tools/PostgresTemplate.ts")).migratedTemplate(PG_ADMIN_URL) : undefined
        await admin.unsafe(`create database "${database}"${template === undefined ? "" : ` template "${template}"`}`)
      } else await seedPglite(dataDir)
      const url = new URL(PG_ADMIN_URL)
      url.pathname = `/${database}`
      const server = await startLineServer("collab-server.ts", ...withGc(tsNode(file("../subjects/collab-server.ts"))), {
        cwd: options.root,
        timeoutMs: 180_000,
        env: { PORT: "0", DATA_DIR: dataDir, DATABASE_URL: database === undefined ? "" : url.toString(), NATS_URL: "", DEMO: "", ...env }
      })
      const ready = /READY port=(\d+) token=(\S+)/.exec(server.output())!
      return {
        url: `ws://127.0.0.1:${ready[1]}/wiki/v1/collab`,
        token: ready[2]!,
        pid: server.pid,
        sample: server.sample,
        settled: settledMemoryOf(server),
        stop: async () => {
          await server.stop()
          rmSync(dataDir, { recursive: true, force: true })
          if (admin !== undefined && database !== undefined) {
            await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => undefined)
            await admin.end({ timeout: 2 })
          }
        }
      }
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true })
      if (admin !== undefined && database !== undefined) {
        await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => undefined)
        await admin.end({ timeout: 2 })
      }
      throw error
    }
  }
})

const postgresReachable = async () => {
  const sql = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 2 })
  try {
    await sql`select 1`
    return true
  } catch {
    return false
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined)
  }
}

// ------------------------------------------------------------ clients ---

interface ClientEvent {
  readonly event: "ready" | "result" | "error"
  readonly message?: string
  readonly delivered?: number
  readonly dropped?: number
  readonly firstAt?: number
  readonly lastAt?: number
  readonly acked?: number
  readonly opens?: number
  readonly durationSec?: number
  readonly histogram?: HistogramData
}

/** One client process; resolves `ready` once its sockets are synced. */
const startClients = (options: RunOptions, config: CollabClientsConfig, dir: string, index: number) => {
  const path = join(dir, `collab-clients-${index}.json`)
  writeFileSync(path, JSON.stringify(config))
  const child = spawnChild(...tsNode(file("../load/collab-clients.ts"), [path]), { cwd: options.root })
  let result: ClientEvent | undefined
  let failure: string | undefined
  const ready = new Promise<void>((resolve, reject) => {
    child.onLine((line) => {
      if (!line.startsWith("CC ")) return
      const event = JSON.parse(line.slice(3)) as ClientEvent
      if (event.event === "ready") resolve()
      else if (event.event === "result") result = event
      else failure = event.message
    })
    void child.exited.then((code) =>
      reject(new Error(`collab-clients exited (${code}): ${failure ?? child.output().trim().split("\n").slice(-6).join("\n")}`))
    )
  })
  return { child, ready, result: () => result, failure: () => failure }
}

const split = (count: number, parts: number) =>
  Array.from({ length: Math.min(parts, count) }, (_, i) => Math.floor((count * (i + 1)) / parts) - Math.floor((count * i) / parts))

const loadgenUsage = (
  before: Array<ProcSample | undefined>,
  after: Array<ProcSample | undefined>,
  tool: string
): ProcessFigures | undefined =>
  before.reduce<ProcessFigures | undefined>((total, b, i) => {
    const a = after[i]
    if (b === undefined || a === undefined) return total
    const u = usageBetween(b, a)
    return total === undefined ? { ...u, tool } : { ...total, cpuSec: total.cpuSec + u.cpuSec, cores: total.cores + u.cores }
  }, undefined)

interface Sampled {
  readonly server: ProcSample
  readonly clients: Array<ProcSample | undefined>
  readonly machine: MachineSample | undefined
}

/** What reader processes saw of the writers' markers, as one point: deliveries over their receiving window, against `expected`. */
const deliveryPoint = (
  load: number,
  results: ReadonlyArray<ClientEvent>,
  expected: number,
  before: Sampled,
  after: Sampled,
  tool: string
): { point: Point; dropped: number } => {
  const delivered = results.reduce((sum, r) => sum + (r.delivered ?? 0), 0)
  const windowSec = Math.max(1e-3, (Math.max(...results.map((r) => r.lastAt!)) - Math.min(...results.map((r) => r.firstAt!))) / 1000)
  const busy = machineBusyCores(before.machine, after.machine)
  const loadgen = loadgenUsage(before.clients, after.clients, tool)
  return {
    dropped: results.reduce((sum, r) => sum + (r.dropped ?? 0), 0),
    point: {
      load,
      durationSec: windowSec,
      ops: delivered,
      errors: Math.max(0, expected - delivered),
      throughput: delivered / windowSec,
      latency: Histogram.from(...results.map((r) => r.histogram!)).latency(),
      server: usageBetween(before.server, after.server),
      ...(loadgen ? { loadgen } : {}),
      ...(busy === undefined ? {} : { machineBusyCores: busy })
    }
  }
}

// ------------------------------------------------------- the scenarios ---

/** Runs each system through every level; a failure is that series', not the scenario's. */
const sweep = async (
  systems: ReadonlyArray<System>,
  options: RunOptions,
  steps: Steps,
  notes: Array<string>,
  measure: (running: Running, level: number, system: System) => Promise<{ point: Point; note?: string }>,
  env?: (system: System) => Record<string, string>
): Promise<Array<Series>> => {
  const series: Array<Series> = []
  for (const system of systems) {
    let running: Running | undefined
    const points: Array<Point> = []
    try {
      running = await system.start(options, env?.(system))
      for (const level of options.levels) {
        steps.begin(`${system.label}, ${level}`)
        const { point, note } = await measure(running, level, system)
        points.push(point)
        if (note) notes.push(`${system.label}: ${note}`)
        steps.end()
      }
      series.push({ label: system.label, role: system.role, status: "ok", points })
    } catch (error) {
      steps.abort()
      series.push(failedSeries(system.label, system.role, error, points))
    } finally {
      await running?.stop()
    }
  }
  return series
}

// collab-fanout ---------------------------------------------------------

const measureFanout = async (running: Running, rate: number, options: RunOptions): Promise<{ point: Point; note?: string }> => {
  const readers = fanoutReaders(options)
  const name = `fanout-${Date.now().toString(36)}-${rate}`
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  const processes = split(readers, CLIENT_PROCESSES).map((count, i) =>
    startClients(options, { mode: "readers", url: running.url, token: running.token, count, docs: [name] }, dir, i)
  )
  const writer = connect(running.url, running.token, name)
  try {
    await Promise.all([...processes.map((p) => p.ready), writer.synced])
    const text = writer.doc.getText("bench")
    const write = (phase: string, n: number) => {
      const updates: Array<Uint8Array> = []
      const listener = (update: Uint8Array) => updates.push(update)
      writer.doc.on("update", listener)
      text.insert(text.length, marker(phase, n))
      writer.doc.off("update", listener)
      writer.socket.send(updateFrame(name, updates[0]!))
    }
    let n = 0
    let sent = 0
    let phase = (options.warmupSec > 0 ? "w" : "m") as "w" | "m" | "stop"
    // The issue's workload: one writer at a fixed rate, paced against the clock (no drift, no waiting for
    // readers); above the timer's resolution, every update due by now is sent before sleeping again.
    const writing = (async () => {
      let next = now()
      while (phase !== "stop") {
        // Bounded per turn, so the clock's timers (the phase switches) still run when the writer falls behind;
        // a writer more than a second behind drops the debt (\`sent\` counts what was really written).
        for (let k = 0; k < 32 && now() >= next; k++) {
          const current = phase
          const i = n++
          if (current === "m") sent++
          write(current, i)
          next += 1000 / rate
        }
        if (now() - next > 1000) next = now()
        await sleep(Math.max(1, next - now()))
      }
    })()
    const sample = () => ({ server: running.sample(), clients: processes.map((p) => readProc(p.child.pid)), machine: readMachine() })
    if (phase === "w") await sleep(options.warmupSec * 1000)
    phase = "m"
    const before = sample()
    await sleep(options.durationSec * 1000)
    phase = "stop"
    await writing
    const after = sample()
    for (let i = 0; i < 3; i++) write("e", n++)
    await Promise.race([Promise.all(processes.map((p) => p.child.exited)), sleep(15_000)])
    // A reader process still waiting for the end markers (its server far behind the writer) reports what it saw
    // when stopped: those deliveries count, the rest are missing.
    await Promise.all(processes.map((p) => p.child.stop(5000)))
    const results = processes.map((p) => p.result()).filter((r): r is ClientEvent => r !== undefined)
    if (results.length === 0) throw new Error(`no reader process reported: ${processes.map((p) => p.failure()).join("; ")}`)
    const expected = sent * readers
    const { point, dropped } = deliveryPoint(rate, results, expected, before, after, `collab-clients.ts ×${processes.length}`)
    return {
      point,
      ...(point.errors > 0 || dropped > 0
        ? { note: `${rate} updates/s: ${sent} written, ${point.ops} of ${expected} deliveries seen, ${dropped} sockets dropped` }
        : {})
    }
  } finally {
    writer.socket.terminate()
    for (const p of processes) await p.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Server CPU per 1,000 deliveries (ms), p99 (ms) and delivered share of one point. */
const fanoutFigures = (point: Point) => ({
  cpuPerThousand: point.server === undefined || point.ops === 0 ? undefined : (point.server.cpuSec * 1e6) / point.ops,
  p99: point.latency.p99 / 1000,
  delivered: point.ops / Math.max(1, point.ops + point.errors)
})

/**
 * The real-time issue's targets, at every rate: CPU per delivery ≤ 1/3 of stock's, p99 no worse, 100% delivered;
 * and issue 27's CPU target at the lowest rate.
 */
const fanoutTargets = (series: ReadonlyArray<Series>, options: RunOptions): Array<Target> => {
  const subject = series.find((s) => s.role === "subject")
  const baseline = series.find((s) => s.label === stock.label)
  return options.levels.flatMap((rate): Array<Target> => {
    const ours = subject?.points.find((p) => p.load === rate)
    const theirs = baseline?.points.find((p) => p.load === rate)
    const a = ours === undefined ? undefined : fanoutFigures(ours)
    const b = theirs === undefined ? undefined : fanoutFigures(theirs)
    const ms = (value: number | undefined) => (value === undefined ? "?" : `${value.toFixed(2)} ms`)
    const cpuRatio = a?.cpuPerThousand !== undefined && b?.cpuPerThousand ? a.cpuPerThousand / b.cpuPerThousand : undefined
    return [
      {
        target: `${rate} updates/s: server CPU per delivery ≤ 1/3 of stock's`,
        figure: `${cpuRatio === undefined ? "?" : `${cpuRatio.toFixed(2)}×`} (${ms(a?.cpuPerThousand)} vs ${ms(b?.cpuPerThousand)} per 1,000 deliveries)`,
        met: cpuRatio === undefined ? undefined : cpuRatio <= 1 / 3
      },
      // Issue 27 asks less CPU at the lowest rate (≤ 0.5×), where p99 no worse than stock's leaves little to merge.
      ...(rate === Math.min(...options.levels)
        ? [
            {
              target: `${rate} updates/s: server CPU per delivery ≤ 0.5× stock's (issue 27)`,
              figure: `${cpuRatio === undefined ? "?" : `${cpuRatio.toFixed(2)}×`}`,
              met: cpuRatio === undefined ? undefined : cpuRatio <= 0.5
            }
          ]
        : []),
      {
        target: `${rate} updates/s: p99 writer → reader no worse than stock's`,
        // Stock delivering nothing has no p99 to beat: every update it was sent is later than any delivered one.
        ...(b !== undefined && b.delivered === 0
          ? { figure: `${ms(a?.p99)}; stock delivered none of its updates`, met: a === undefined ? undefined : a.delivered > 0 }
          : { figure: `${ms(a?.p99)} vs ${ms(b?.p99)}`, met: a === undefined || b === undefined ? undefined : a.p99 <= b.p99 })
      },
      {
        target: `${rate} updates/s: 100% delivered`,
        figure:
          a === undefined
            ? "?"
            : `${(a.delivered * 100).toFixed(2)}% (stock ${b === undefined ? "?" : `${(b.delivered * 100).toFixed(2)}%`})`,
        met: a === undefined ? undefined : a.delivered >= 1
      }
    ]
  })
}

/**
 * Where the platform's floor lies, per rate: the bare uWS relay's CPU per delivery (one publish per update, nothing
 * else) as a share of stock's, and the subject's as a multiple of the relay's.
 */
const fanoutFloorNotes = (series: ReadonlyArray<Series>, options: RunOptions): Array<string> => {
  const perThousand = (label: string, rate: number) => {
    const point = series.find((s) => s.label === label)?.points.find((p) => p.load === rate)
    return point === undefined ? undefined : fanoutFigures(point).cpuPerThousand
  }
  const subject = series.find((s) => s.role === "subject")
  return options.levels.flatMap((rate) => {
    const floor = perThousand(relay.label, rate)
    const theirs = perThousand(stock.label, rate)
    const ours = subject === undefined ? undefined : perThousand(subject.label, rate)
    if (floor === undefined || theirs === undefined || ours === undefined) return []
    return [
      `${rate} updates/s: the bare uWS relay spends ${floor.toFixed(2)} ms of server CPU per 1,000 deliveries, ${(floor / theirs).toFixed(2)}× stock's; ${subject!.label} ${(ours / floor).toFixed(2)}× the relay's.`
    ]
  })
}

export const collabFanout: Scenario = {
  name: "collab-fanout",
  subject: "one wiki document, one writer, 1,000 readers: server CPU per delivered update, latency and delivery at three write rates",
  baselines: [
    "stock Hocuspocus Server (node:http + ws), in-memory, with the same hooks",
    "a bare uWS relay: each update frame published to the document's topic as it came, nothing else (the platform's floor)"
  ],
  levels: { sweep: [50, 400, 2000], smoke: 50 },
  workload: (options) => [
    `One document; ${fanoutReaders(options)} readers in ${CLIENT_PROCESSES} client processes (raw ws, Hocuspocus protocol by hand, same code for both servers).`,
    `Load level = the writer's rate: ${options.levels.join(", ")} updates/s at a fixed pace; each update inserts a ~30-byte marker into a Y.Text (a merged update carries several; readers count each).`,
    `Per point: ${options.warmupSec} s warm-up, ${options.durationSec} s measured; server CPU per delivery = server CPU over the writing window / deliveries seen; latency = writer send → reader receive.`
  ],
  estimateSec: (options) => 3 * (25 + options.levels.length * (options.warmupSec + options.durationSec + 10)),
  run: async (options, progress) => {
    const steps = new Steps(progress, 3 * options.levels.length, options.warmupSec + options.durationSec + 5)
    const notes: Array<string> = []
    const series = await sweep([stock, relay, atrium("pglite")], options, steps, notes, (running, level) =>
      measureFanout(running, level, options)
    )
    return {
      groups: [{ name: "document update → every reader", unit: "delivery", series }],
      targets: fanoutTargets(series, options),
      notes: [...notes, ...fanoutFloorNotes(series, options)]
    }
  }
}

// collab-many-docs ------------------------------------------------------

const measureManyDocs = async (
  running: Running,
  docs: number,
  options: RunOptions
): Promise<{ point: Point; note?: string; memory: PerConnection }> => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  const names = Array.from({ length: docs }, (_, i) => `many-${Date.now().toString(36)}-${i}`)
  const connections = docs * 2
  const idle = await running.settled()
  // Two editors per document: the document list twice, in two processes.
  const processes = split(connections, CLIENT_PROCESSES).map((count, i) =>
    startClients(
      options,
      {
        mode: "writers",
        url: running.url,
        token: running.token,
        count,
        docs: i % 2 === 0 ? names : [...names].reverse(),
        intervalMs: 2000,
        warmupSec: options.warmupSec,
        durationSec: options.durationSec,
        updateChars: 16
      },
      dir,
      i
    )
  )
  try {
    await Promise.all(processes.map((p) => p.ready))
    // Every editor is connected and synced (still in the warm-up): memory now, then the measured window.
    const connected = await running.settled()
    const before = running.sample()
    await Promise.all(processes.map((p) => p.child.exited))
    const after = running.sample()
    const results = processes.map((p) => p.result()).filter((r): r is ClientEvent => r !== undefined)
    if (results.length !== processes.length) throw new Error(`writer processes failed: ${processes.map((p) => p.failure()).join("; ")}`)
    const acked = results.reduce((sum, r) => sum + (r.acked ?? 0), 0)
    const durationSec = Math.max(...results.map((r) => r.durationSec!))
    return {
      memory: perConnection(idle, connected, connections),
      point: {
        load: connections,
        durationSec,
        ops: acked,
        errors: results.reduce((sum, r) => sum + (r.dropped ?? 0), 0),
        throughput: acked / durationSec,
        latency: Histogram.from(...results.map((r) => r.histogram!)).latency(),
        server: { ...usageBetween(before, after), peakRssBytes: after.rssBytes }
      },
      note: `${docs} documents × 2 editors: ${memoryNote(idle, connected, connections)}`
    }
  } finally {
    for (const p of processes) await p.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
const KiB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`

/**
 * Memory per connection, both after a full collection: resident (what the
 * operator pays, native socket buffers included) and live JavaScript (heap
 * in use + external buffers: what the objects of a connection hold).
 */
interface PerConnection {
  readonly rss: number
  readonly live: number
}

const liveBytes = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external

const perConnection = (idle: NodeJS.MemoryUsage, connected: NodeJS.MemoryUsage, connections: number): PerConnection => ({
  rss: (connected.rss - idle.rss) / connections,
  live: (liveBytes(connected) - liveBytes(idle)) / connections
})

const memoryNote = (idle: NodeJS.MemoryUsage, connected: NodeJS.MemoryUsage, connections: number) => {
  const per = perConnection(idle, connected, connections)
  return (
    `settled RSS ${MiB(idle.rss)} idle → ${MiB(connected.rss)}, ${KiB(per.rss)} per connection; ` +
    `live heap + external ${MiB(liveBytes(idle))} → ${MiB(liveBytes(connected))}, ${KiB(per.live)} per connection; ` +
    `heap reserved ${MiB(idle.heapTotal)} → ${MiB(connected.heapTotal)}`
  )
}

/** Atrium's memory per connection against stock's (both settled), as a target row. */
const memoryTarget = (target: string, limit: number, ours: PerConnection | undefined, theirs: PerConnection | undefined): Target => {
  if (ours === undefined || theirs === undefined || theirs.rss <= 0) return { target, figure: "?", met: undefined }
  const ratio = ours.rss / theirs.rss
  return {
    target,
    figure: `${ratio.toFixed(2)}× (settled RSS ${KiB(ours.rss)} vs ${KiB(theirs.rss)} per connection; live JS ${KiB(ours.live)} vs ${KiB(theirs.live)}, ${(ours.live / theirs.live).toFixed(2)}×)`,
    met: ratio <= limit
  }
}

/** Read-only readers per page in collab-many-docs' reader group. */
const READERS_PER_PAGE = 20

/** Idle read-only readers (Atrium grants `ro-` pages read-only), READERS_PER_PAGE per page: server memory per connection. */
const measureManyReaders = async (
  running: Running,
  readers: number,
  options: RunOptions
): Promise<{ point: Point; note?: string; memory: PerConnection }> => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  const pages = Math.max(1, Math.round(readers / READERS_PER_PAGE))
  const names = Array.from({ length: pages }, (_, i) => `ro-${Date.now().toString(36)}-${i}`)
  const idle = await running.settled()
  // Opened all at once (storm mode), then held open and idle.
  const processes = split(readers, CLIENT_PROCESSES).map((count, i) =>
    startClients(options, { mode: "storm", hold: true, url: running.url, token: running.token, count, docs: names }, dir, i)
  )
  try {
    await Promise.all(processes.map((p) => p.ready))
    for (const p of processes) process.kill(p.child.pid, "SIGUSR2")
    const deadline = Date.now() + 60_000
    while (processes.some((p) => p.result() === undefined && p.failure() === undefined) && Date.now() < deadline) await sleep(50)
    const results = processes.map((p) => p.result()).filter((r): r is ClientEvent => r !== undefined)
    if (results.length !== processes.length) throw new Error(`reader processes failed: ${processes.map((p) => p.failure()).join("; ")}`)
    const connected = await running.settled()
    const before = running.sample()
    await sleep(options.durationSec * 1000)
    const after = running.sample()
    const synced = results.reduce((sum, r) => sum + (r.opens ?? 0), 0)
    const joinSec = Math.max(1e-3, (Math.max(...results.map((r) => r.lastAt!)) - Math.min(...results.map((r) => r.firstAt!))) / 1000)
    return {
      memory: perConnection(idle, connected, readers),
      point: {
        load: readers,
        durationSec: joinSec,
        ops: synced,
        errors: readers - synced,
        throughput: synced / joinSec,
        latency: Histogram.from(...results.map((r) => r.histogram!)).latency(),
        server: { ...usageBetween(before, after), peakRssBytes: after.rssBytes }
      },
      note: `${readers} read-only readers on ${pages} pages: ${memoryNote(idle, connected, readers)}`
    }
  } finally {
    for (const p of processes) await p.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

export const collabManyDocs: Scenario = {
  name: "collab-many-docs",
  subject: "many documents open at once: memory per connection (two editors per page; idle read-only readers) and acknowledgement latency",
  baselines: [
    "stock Hocuspocus Server (node:http + ws), in-memory, with the same hooks",
    "idle readers only: a bare uWS relay holding each reader's socket subscribed to its document's topic (the platform's floor)"
  ],
  levels: { sweep: [2000], smoke: 40 },
  workload: (options) => [
    `Editors: ${options.levels.map((l) => l / 2).join(", ")} documents × 2 editors (${options.levels.join(", ")} connections) in ${CLIENT_PROCESSES} client processes; each editor types one 16-character update every 2 s.`,
    `Readers: as many connections again, read-only on Atrium (stock Hocuspocus has no read-only mode: idle connections), ${READERS_PER_PAGE} per page, all opened at once and synced (latency: open → synced), then idle for ${options.durationSec} s.`,
    "Memory per connection, in the notes, measured the same way on both servers (each runs with --expose-gc and collects fully before each reading, so the figures do not depend on when the collector last ran): settled RSS with every connection up − settled RSS before they connected, divided by the connections; and likewise live JavaScript memory (heap used + external). Targets: Atrium ≤ half of stock for editors, ≤ a quarter for readers. Atrium runs on PostgreSQL when reachable, so PGlite's heap stays out of its RSS; a fresh server per group.",
    `Per point: ${options.warmupSec} s warm-up, ${options.durationSec} s measured; latency = update sent → acknowledged (on Atrium: persisted).`
  ],
  estimateSec: (options) => 5 * (25 + options.levels.length * (options.warmupSec + options.durationSec + 30)),
  run: async (options, progress) => {
    const steps = new Steps(progress, 5 * options.levels.length, options.warmupSec + options.durationSec + 20)
    // PGlite's WASM heap would dwarf (and blur) the connections' memory: PostgreSQL when reachable.
    const subject = (await postgresReachable()) ? atrium("postgres") : atrium("pglite")
    const notes: Array<string> = []
    const editorMemory = new Map<string, PerConnection>()
    const readerMemory = new Map<string, PerConnection>()
    const editors = await sweep([stock, subject], options, steps, notes, async (running, level, system) => {
      const measured = await measureManyDocs(running, Math.max(1, Math.round(level / 2)), options)
      editorMemory.set(system.label, measured.memory)
      return measured
    })
    const readers = await sweep([stock, relay, subject], options, steps, notes, async (running, level, system) => {
      const measured = await measureManyReaders(running, level, options)
      readerMemory.set(system.label, measured.memory)
      return measured
    })
    const floor = readerMemory.get(relay.label)
    const theirs = readerMemory.get(stock.label)
    const ours = readerMemory.get(subject.label)
    if (floor !== undefined && theirs !== undefined && ours !== undefined) {
      notes.push(
        `Idle readers' floor: the bare uWS relay holds ${KiB(floor.rss)} of settled RSS per subscribed idle socket (${(floor.rss / theirs.rss).toFixed(2)}× stock's); ` +
          (ours.rss >= floor.rss
            ? `${subject.label} ${KiB(ours.rss - floor.rss)} more per reader.`
            : `${subject.label} ${KiB(floor.rss - ours.rss)} less per reader (within what settled RSS moves between runs: its live JavaScript per reader is the steadier figure).`)
      )
    }
    return {
      targets: [
        memoryTarget(
          "editors (two per page): memory per connection ≤ 0.5× stock's",
          0.5,
          editorMemory.get(subject.label),
          editorMemory.get(stock.label)
        ),
        memoryTarget(
          "idle read-only readers: memory per connection ≤ 0.25× stock's",
          0.25,
          readerMemory.get(subject.label),
          readerMemory.get(stock.label)
        )
      ],
      groups: [
        { name: "two editors per document, an update every 2 s each", unit: "ack", series: editors },
        { name: `idle read-only readers, ${READERS_PER_PAGE} per page`, unit: "reader", series: readers }
      ],
      notes
    }
  }
}

// collab-durable --------------------------------------------------------

const measureDurable = async (running: Running, writers: number, options: RunOptions): Promise<{ point: Point; note?: string }> => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  const names = Array.from({ length: writers }, (_, i) => `durable-${Date.now().toString(36)}-${i}`)
  const processes = split(writers, CLIENT_PROCESSES).map((count, i, all) => {
    const offset = all.slice(0, i).reduce((a, b) => a + b, 0)
    return startClients(
      options,
      {
        mode: "writers",
        url: running.url,
        token: running.token,
        count,
        docs: names.slice(offset, offset + count),
        window: 4,
        warmupSec: options.warmupSec,
        durationSec: options.durationSec,
        updateChars: 32
      },
      dir,
      i
    )
  })
  try {
    await Promise.all(processes.map((p) => p.ready))
    const before = { server: running.sample(), clients: processes.map((p) => readProc(p.child.pid)), machine: readMachine() }
    await Promise.all(processes.map((p) => p.child.exited))
    const after = { server: running.sample(), clients: processes.map((p) => readProc(p.child.pid) ?? undefined), machine: readMachine() }
    const results = processes.map((p) => p.result()).filter((r): r is ClientEvent => r !== undefined)
    if (results.length !== processes.length) throw new Error(`writer processes failed: ${processes.map((p) => p.failure()).join("; ")}`)
    const acked = results.reduce((sum, r) => sum + (r.acked ?? 0), 0)
    const durationSec = Math.max(...results.map((r) => r.durationSec!))
    const busy = machineBusyCores(before.machine, after.machine)
    return {
      point: {
        load: writers,
        durationSec,
        ops: acked,
        errors: results.reduce((sum, r) => sum + (r.dropped ?? 0), 0),
        throughput: acked / durationSec,
        latency: Histogram.from(...results.map((r) => r.histogram!)).latency(),
        server: usageBetween(before.server, after.server),
        ...(busy === undefined ? {} : { machineBusyCores: busy })
      }
    }
  } finally {
    for (const p of processes) await p.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

export const collabDurable: Scenario = {
  name: "collab-durable",
  subject: "edits acknowledged only once persisted: acknowledged updates/s and latency (PGlite, PostgreSQL)",
  baselines: ["stock Hocuspocus Server (node:http + ws), in-memory: acknowledges at once, persists nothing"],
  levels: { sweep: [16, 64], smoke: 4 },
  workload: (options) => [
    `${options.levels.join(", ")} writers (${CLIENT_PROCESSES} client processes), each on its own document with 4 updates in flight (a new one on each acknowledgement); 32-character updates.`,
    `Atrium appends every update to its SQL log (group commit) before the SyncStatus acknowledgement; PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@/]*@/, "//***@")} (a fresh database), when reachable.`,
    `Per point: ${options.warmupSec} s warm-up, ${options.durationSec} s measured; latency = update sent → acknowledged.`
  ],
  estimateSec: (options) => 3 * (25 + options.levels.length * (options.warmupSec + options.durationSec + 8)),
  run: async (options, progress) => {
    const systems = [stock, atrium("pglite"), ...((await postgresReachable()) ? [atrium("postgres")] : [])]
    const steps = new Steps(progress, systems.length * options.levels.length, options.warmupSec + options.durationSec + 5)
    const notes: Array<string> =
      systems.length === 2 ? [`PostgreSQL unreachable at ${PG_ADMIN_URL.replace(/\/\/[^@/]*@/, "//***@")}: no PostgreSQL series`] : []
    const series = await sweep(systems, options, steps, notes, (running, level) => measureDurable(running, level, options))
    return { groups: [{ name: "update → acknowledged", unit: "ack", series }], notes }
  }
}

// collab-cold-open ------------------------------------------------------

/** About 1 MB of page content: 2,000 paragraphs of ~500 characters, as an editor lays them out. */
const coldState = (): Uint8Array => {
  const doc = new Y.Doc()
  const fragment = doc.getXmlFragment("default")
  doc.transact(() => {
    const paragraphs = Array.from({ length: 2000 }, (_, i) => {
      const paragraph = new Y.XmlElement("paragraph")
      const text = new Y.XmlText()
      text.insert(0, `${i} ${"lorem ipsum dolor sit amet consectetur ".repeat(13)}`)
      paragraph.insert(0, [text])
      return paragraph
    })
    fragment.insert(0, paragraphs)
  })
  return Y.encodeStateAsUpdate(doc)
}

/** Opens per series: enough that the p99 is not simply the slowest one (of 50 it was). */
const coldOpens = (options: RunOptions) => (options.smoke ? 5 : 200)
/** Opens before the measured ones, not counted: the first opens of a fresh process compile its code paths. */
const coldWarmupOpens = (options: RunOptions) => (options.smoke ? 0 : 10)

const measureColdOpen = async (running: Running, opens: number, options: RunOptions, name: string): Promise<{ point: Point }> => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  try {
    const before = running.sample()
    const clients = startClients(
      options,
      { mode: "opens", url: running.url, token: running.token, count: opens, docs: [name], warmupOpens: coldWarmupOpens(options) },
      dir,
      0
    )
    await clients.ready
    await clients.child.exited
    const after = running.sample()
    const result = clients.result()
    if (result === undefined) throw new Error(`opener failed: ${clients.failure()}`)
    return {
      point: {
        load: 1,
        durationSec: result.durationSec!,
        ops: result.opens!,
        errors: 0,
        throughput: result.opens! / result.durationSec!,
        latency: Histogram.from(result.histogram!).latency(),
        server: usageBetween(before, after)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Issue 27's cold-open target: Atrium's p99 connect → full sync ≤ 50 ms (stock's shown beside it). */
const COLD_OPEN_P99_MS = 50
const coldOpenTargets = (series: ReadonlyArray<Series>): Array<Target> => {
  const latency = (role: Series["role"]) => series.find((s) => s.role === role && s.status === "ok")?.points.at(-1)?.latency
  const ours = latency("subject")
  const theirs = latency("baseline")
  const ms = (micros: number) => `${(micros / 1000).toFixed(1)} ms`
  return [
    {
      target: `a stored 1 MB page: p99 connect → full sync ≤ ${COLD_OPEN_P99_MS} ms (issue 27)`,
      figure:
        ours === undefined
          ? "?"
          : `p99 ${ms(ours.p99)}, p50 ${ms(ours.p50)}${theirs === undefined ? "" : ` (stock from memory: p99 ${ms(theirs.p99)}, p50 ${ms(theirs.p50)})`}`,
      met: ours === undefined ? undefined : ours.p99 <= COLD_OPEN_P99_MS * 1000
    }
  ]
}

/** Stores the page on Atrium: one editor writes it, leaves, and the server unloads it. */
const storePage = async (running: Running, name: string, state: Uint8Array) => {
  const writer = connect(running.url, running.token, name)
  await writer.synced
  let acks = 0
  writer.onData = (_data, incoming) => {
    if (incoming.kind === "ack") acks++
  }
  writer.socket.send(updateFrame(name, state))
  const deadline = Date.now() + 30_000
  while (acks < 1 && Date.now() < deadline) await sleep(20)
  if (acks < 1) throw new Error("the 1 MB page was not acknowledged")
  writer.socket.close()
  await sleep(500)
}

export const collabColdOpen: Scenario = {
  name: "collab-cold-open",
  subject: "opening a stored 1 MB page nobody has open: connect → first full sync",
  baselines: ["stock Hocuspocus Server (node:http + ws) loading the same Yjs state from memory in onLoadDocument"],
  levels: { sweep: [1], smoke: 1 },
  workload: (options) => [
    "A page of ~1 MB (2,000 paragraphs of ~500 characters, Tiptap's Yjs layout), stored once; one client opens it, waits for the full sync, closes, and the server unloads it; again and again.",
    `Atrium loads it from SQL (state + log tail) and authenticates a JWT; stock Hocuspocus applies it from memory. ${coldOpens(options)} opens per series, after ${coldWarmupOpens(options)} not counted (each server's code paths compiled, as every other point's warm-up does).`
  ],
  estimateSec: () => 2 * 45,
  run: async (options, progress) => {
    const steps = new Steps(progress, 2, 10)
    const notes: Array<string> = []
    const state = coldState()
    const dir = mkdtempSync(join(tmpdir(), "atrium-bench-cold-"))
    const statePath = join(dir, "state.bin")
    writeFileSync(statePath, state)
    notes.push(`The page's Yjs state: ${(state.byteLength / 1024).toFixed(0)} KiB.`)
    const opens = coldOpens(options)
    const name = `cold-${Date.now().toString(36)}`
    try {
      const series = await sweep(
        [stock, atrium("pglite")],
        { ...options, levels: [1] },
        steps,
        notes,
        async (running, _level, system) => {
          if (system.role === "subject") await storePage(running, name, state)
          return measureColdOpen(running, opens, options, name)
        },
        (system): Record<string, string> => (system.role === "baseline" ? { COLD_STATE: statePath } : {})
      )
      return { groups: [{ name: "open a stored 1 MB page", unit: "open", series }], targets: coldOpenTargets(series), notes }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

// collab-join-storm -----------------------------------------------------

/** The hot page's content: 200 paragraphs of ~300 characters (about 60 KiB), typed by one editor who stays. */
const HOT_PARAGRAPHS = 200

const measureJoinStorm = async (running: Running, joiners: number, options: RunOptions): Promise<{ point: Point; note?: string }> => {
  const name = `storm-${Date.now().toString(36)}-${joiners}`
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  // The page is hot: loaded, with content, its editor connected.
  const editor = connect(running.url, running.token, name)
  const processes: Array<ReturnType<typeof startClients>> = []
  try {
    await editor.synced
    let acks = 0
    editor.onData = (_data, incoming) => {
      if (incoming.kind === "ack") acks++
    }
    const fragment = editor.doc.getXmlFragment("default")
    const updates: Array<Uint8Array> = []
    editor.doc.on("update", (update: Uint8Array) => updates.push(update))
    for (let i = 0; i < HOT_PARAGRAPHS; i++) {
      const paragraph = new Y.XmlElement("paragraph")
      const text = new Y.XmlText()
      text.insert(0, `${i} ${"the quick brown fox jumps over the lazy dog ".repeat(7)}`)
      paragraph.insert(0, [text])
      fragment.insert(fragment.length, [paragraph])
    }
    for (const update of updates) editor.socket.send(updateFrame(name, update))
    const deadline = Date.now() + 30_000
    while (acks < updates.length && Date.now() < deadline) await sleep(20)
    if (acks < updates.length) throw new Error("the hot page's content was not acknowledged")
    processes.push(
      ...split(joiners, CLIENT_PROCESSES).map((count, i) =>
        startClients(options, { mode: "storm", url: running.url, token: running.token, count, docs: [name] }, dir, i)
      )
    )
    await Promise.all(processes.map((p) => p.ready))
    await sleep(200) // let the client processes settle (their start-up is not the server's)
    const before = { server: running.sample(), machine: readMachine() }
    for (const p of processes) process.kill(p.child.pid, "SIGUSR2")
    await Promise.all(processes.map((p) => p.child.exited))
    const after = { server: running.sample(), machine: readMachine() }
    const results = processes.map((p) => p.result()).filter((r): r is ClientEvent => r !== undefined)
    if (results.length !== processes.length) throw new Error(`storm processes failed: ${processes.map((p) => p.failure()).join("; ")}`)
    const synced = results.reduce((sum, r) => sum + (r.opens ?? 0), 0)
    const dropped = results.reduce((sum, r) => sum + (r.dropped ?? 0), 0)
    const durationSec = Math.max(1e-3, (Math.max(...results.map((r) => r.lastAt!)) - Math.min(...results.map((r) => r.firstAt!))) / 1000)
    const server = usageBetween(before.server, after.server)
    const busy = machineBusyCores(before.machine, after.machine)
    return {
      point: {
        load: joiners,
        durationSec,
        ops: synced,
        errors: dropped,
        throughput: synced / durationSec,
        latency: Histogram.from(...results.map((r) => r.histogram!)).latency(),
        server,
        ...(busy === undefined ? {} : { machineBusyCores: busy })
      },
      note: `${joiners} joiners: all synced ${(durationSec * 1000).toFixed(0)} ms after the start, server CPU ${((server.cpuSec * 1000) / joiners).toFixed(2)} ms per connection${dropped > 0 ? `, ${dropped} failed` : ""}`
    }
  } finally {
    editor.socket.terminate()
    for (const p of processes) await p.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

export const collabJoinStorm: Scenario = {
  name: "collab-join-storm",
  subject: "a reconnect storm: many providers join one hot page at once; time until all are synced, server CPU per connection",
  baselines: ["stock Hocuspocus Server (node:http + ws), in-memory, with the same hooks"],
  levels: { sweep: [1000], smoke: 50 },
  workload: (options) => [
    `One hot page (${HOT_PARAGRAPHS} paragraphs, about 60 KiB of Yjs state, its editor connected); ${options.levels.join(", ")} sockets in ${CLIENT_PROCESSES} client processes open at once on a signal, each authenticating (Atrium: a JWT and the page's access) and syncing from an empty state vector, as a fresh provider does.`,
    "Time = first socket opened → last one synced (SyncStep2 received); latency = each socket's open → synced; server CPU from /proc over the storm, divided by the joiners in the notes."
  ],
  estimateSec: (options) => 2 * (25 + options.levels.length * 15),
  run: async (options, progress) => {
    const steps = new Steps(progress, 2 * options.levels.length, 10)
    const notes: Array<string> = []
    const series = await sweep([stock, atrium("pglite")], options, steps, notes, (running, level) =>
      measureJoinStorm(running, level, options)
    )
    return { groups: [{ name: "providers joining one hot page at once", unit: "join", series }], notes }
  }
}

// collab-small-group ----------------------------------------------------

/** Issue 27's small editing group: editors typing a keystroke every KEYSTROKE_MS each, readers watching. */
const GROUP_EDITORS = 3
const GROUP_READERS = 5
const KEYSTROKE_MS = 150
/** Seconds measured in a full run: 20 keystrokes/s × 5 readers × 30 s = 3,000 samples, enough for a p99. */
const groupSeconds = (options: RunOptions) => (options.smoke ? options.durationSec : Math.max(options.durationSec, 30))

const measureSmallGroup = async (running: Running, editors: number, options: RunOptions): Promise<{ point: Point; note?: string }> => {
  const name = `group-${Date.now().toString(36)}-${editors}`
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-collab-"))
  const readers = startClients(
    options,
    { mode: "readers", url: running.url, token: running.token, count: GROUP_READERS, docs: [name] },
    dir,
    0
  )
  const typists = Array.from({ length: editors }, () => {
    const client = connect(running.url, running.token, name)
    return { client, awareness: new Awareness(client.doc) }
  })
  const timers: Array<NodeJS.Timeout> = []
  try {
    await Promise.all([readers.ready, ...typists.map((t) => t.client.synced)])
    let phase = (options.warmupSec > 0 ? "w" : "m") as "w" | "m" | "stop"
    let n = 0
    let typed = 0
    // One keystroke: the character (a marker, so readers can time it) and the cursor after it, as an editor sends them.
    const keystroke = (typist: (typeof typists)[number], current: string) => {
      const { client, awareness } = typist
      const text = client.doc.getText("bench")
      const updates: Array<Uint8Array> = []
      const listener = (update: Uint8Array) => updates.push(update)
      client.doc.on("update", listener)
      text.insert(text.length, marker(current, n++))
      client.doc.off("update", listener)
      client.socket.send(updateFrame(name, updates[0]!))
      awareness.setLocalStateField("cursor", { index: text.length })
      client.socket.send(awarenessFrame(name, encodeAwarenessUpdate(awareness, [client.doc.clientID])))
    }
    for (const typist of typists) {
      // Each editor at its own steady pace, started at a random moment of the first interval (as people are).
      timers.push(
        setTimeout(() => {
          const type = () => {
            if (phase === "stop") return
            if (phase === "m") typed++
            keystroke(typist, phase)
          }
          type()
          timers.push(setInterval(type, KEYSTROKE_MS))
        }, Math.random() * KEYSTROKE_MS)
      )
    }
    const sample = () => ({ server: running.sample(), clients: [readProc(readers.child.pid)], machine: readMachine() })
    if (phase === "w") await sleep(options.warmupSec * 1000)
    phase = "m"
    const before = sample()
    await sleep(groupSeconds(options) * 1000)
    phase = "stop"
    const after = sample()
    for (const timer of timers) clearTimeout(timer)
    for (let i = 0; i < 3; i++) keystroke(typists[0]!, "e")
    await Promise.race([readers.child.exited, sleep(15_000)])
    await readers.child.stop(5000) // reports what it saw, if still waiting for the end markers
    const result = readers.result()
    if (result === undefined) throw new Error(`the reader process did not report: ${readers.failure()}`)
    const expected = typed * GROUP_READERS
    const { point, dropped } = deliveryPoint(editors, [result], expected, before, after, "collab-clients.ts (readers)")
    return {
      point,
      ...(point.errors > 0 || dropped > 0
        ? { note: `${typed} keystrokes, ${point.ops} of ${expected} reader deliveries seen, ${dropped} sockets dropped` }
        : {})
    }
  } finally {
    for (const timer of timers) clearTimeout(timer)
    for (const typist of typists) {
      typist.awareness.destroy()
      typist.client.socket.terminate()
    }
    await readers.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Issue 27's small-group targets: p50 and p99 keystroke → screen no worse than stock Hocuspocus's. */
const smallGroupTargets = (series: ReadonlyArray<Series>): Array<Target> => {
  const headline = (role: Series["role"]) => series.find((s) => s.role === role && s.status === "ok")?.points.at(-1)?.latency
  const ours = headline("subject")
  const theirs = headline("baseline")
  return (["p50", "p99"] as const).map((percentile) => ({
    target: `${GROUP_EDITORS} editors, ${GROUP_READERS} readers, a keystroke every ${KEYSTROKE_MS} ms each: ${percentile} keystroke → screen no worse than stock's`,
    figure:
      ours === undefined || theirs === undefined
        ? "?"
        : `${(ours[percentile] / 1000).toFixed(2)} ms vs ${(theirs[percentile] / 1000).toFixed(2)} ms (${(ours[percentile] / theirs[percentile]).toFixed(2)}×)`,
    met: ours === undefined || theirs === undefined ? undefined : ours[percentile] <= theirs[percentile]
  }))
}

export const collabSmallGroup: Scenario = {
  name: "collab-small-group",
  subject: "a small editing group (3 editors typing, 5 readers) on one page: keystroke → screen latency against stock Hocuspocus",
  baselines: ["stock Hocuspocus Server (node:http + ws), in-memory, with the same hooks"],
  levels: { sweep: [GROUP_EDITORS], smoke: GROUP_EDITORS },
  workload: (options) => [
    `One page; ${GROUP_EDITORS} editors in the bench process each type a keystroke every ${KEYSTROKE_MS} ms (their own steady pace, started at random moments), each an update inserting a ~25-byte timestamped marker plus the editor's cursor as an awareness update; ${GROUP_READERS} readers in a client process (raw ws, Hocuspocus protocol by hand, the same code for both servers).`,
    `Per series: ${options.warmupSec} s warm-up, ${groupSeconds(options)} s measured; latency = keystroke sent → a reader received it (every reader counts: ${GROUP_READERS} samples per keystroke).`
  ],
  estimateSec: (options) => 2 * (25 + options.warmupSec + groupSeconds(options) + 5),
  run: async (options, progress) => {
    const steps = new Steps(progress, 3 * options.levels.length, options.warmupSec + groupSeconds(options) + 5)
    const notes: Array<string> = []
    const series = await sweep([stock, relay, atrium("pglite")], options, steps, notes, (running, level) =>
      measureSmallGroup(running, level, options)
    )
    return {
      groups: [{ name: "keystroke → reader's screen", unit: "delivery", series }],
      targets: smallGroupTargets(series),
      notes
    }
  }
}

export const collabScenarios = [collabFanout, collabManyDocs, collabDurable, collabColdOpen, collabJoinStorm, collabSmallGroup] as const
