/**
 * stream-fanout: one workspace, N live subscribers, one writer updating tasks.
 * How many events per second reach the subscribers, and how long a change
 * takes from the writer to a client (p99), through:
 *
 * - Atrium (subject): `PATCH /pm/v1/tasks/{id}` → task actor → ChangeLog
 *   transaction (PGlite) → uWS topic publish → raw WebSocket `/pm/v1/ws`;
 * - Socket.IO on node:http with its default adapter (baseline): `POST /publish`
 *   → `io.to(room).emit`;
 * - bare uWS (baseline, the limit): `POST /publish` → `app.publish`.
 *
 * The writer is self-clocking: at most WINDOW events are in flight, an event
 * leaving flight when a probe subscriber (in this process, same protocol)
 * receives it, so every system runs at the rate it sustains with bounded
 * queues, and latency is measured at that rate. Subscribers live in
 * CLIENT_PROCESSES children (bench/load/stream-clients.ts) speaking each
 * wire protocol with the same lean `ws` client. Events are the same size on
 * every system (an Atrium `task.updated` frame). Nothing is asserted: the
 * targets (≥5× Socket.IO, ≥70% of bare uWS) are read off the ratios.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import WebSocket from "ws"
import { Histogram, type HistogramData } from "../load/Histogram.ts"
import { type ClientsConfig, markersIn } from "../load/stream-protocol.ts"
import {
  machineBusyCores,
  readMachine,
  readProc,
  spawnChild,
  startHttpServer,
  startLineServer,
  tsNode,
  usageBetween,
  type ProcSample
} from "../process.ts"
import { Steps } from "../progress.ts"
import {
  failedSeries,
  type Point,
  type ProcessFigures,
  type RunOptions,
  type Scenario,
  type Series,
  type Target as Goal
} from "../Scenario.ts"
import { seedPglite } from "../../tools/PgliteTemplate.ts"

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
/** Events in flight at once (BENCH_STREAM_WINDOW): more lets Atrium overlap its write path (HTTP, actor, SQL transaction). */
const WINDOW = Math.max(1, Number(process.env.BENCH_STREAM_WINDOW) || 8)
const CLIENT_PROCESSES = 2
const now = () => performance.timeOrigin + performance.now()
const uuid = () => crypto.randomUUID()

// ----------------------------------------------------------- systems ---

interface Target {
  readonly label: string
  readonly role: Series["role"]
  readonly protocol: ClientsConfig["protocol"]
  readonly start: (options: RunOptions) => Promise<Started>
  /**
   * The label of a series measured before this one whose event rate this one's writer keeps to, level by level
   * (still at most WINDOW in flight), instead of writing as fast as it sustains.
   */
  readonly pacedBy?: string
}

interface Started {
  readonly sample: () => ProcSample
  readonly stop: () => Promise<void>
  /** Prepares a level: socket URLs for `count` subscribers (+1 for the probe) and how to write one event. */
  readonly prepare: (count: number) => Promise<Prepared>
}

interface Prepared {
  /** What the subscriber processes need to connect (their config, minus the count). */
  readonly clients: Omit<ClientsConfig, "count">
  readonly probeUrl: () => Promise<string>
  readonly workspaceId?: string
  readonly write: (marker: string, n: number) => Promise<void>
}

const call = async (url: string, method: string, body?: unknown, token?: string) => {
  const response = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {})
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`)
  return text === "" ? {} : (JSON.parse(text) as Record<string, any>)
}

/** At most `limit` of `tasks` at once. */
const pool = async <T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<Array<T>> => {
  const out: Array<T> = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await task(i)
      }
    })
  )
  return out
}

/** An event shaped and sized like Atrium's `task.updated` frame, for the baselines. */
const frameLike = (
  marker: string,
  n: number,
  ids: { workspaceId: string; spaceId: string; listId: string; taskId: string; actorId: string }
) =>
  JSON.stringify({
    seq: n,
    type: "task.updated",
    workspaceId: ids.workspaceId,
    scope: "task",
    entityId: ids.taskId,
    path: { spaceId: ids.spaceId, listId: ids.listId, taskId: ids.taskId },
    data: { description: marker, version: n + 1 },
    actorId: ids.actorId,
    at: new Date().toISOString()
  })

const baselineTarget = (label: string, protocol: "uws" | "socketio", baseline: string, pacedBy?: string): Target => ({
  label,
  role: "baseline",
  protocol,
  ...(pacedBy === undefined ? {} : { pacedBy }),
  start: async (options) => {
    const server = await startLineServer(baseline, ...tsNode(file(`../baselines/${baseline}.ts`)), {
      cwd: options.root,
      env: { PORT: "0" }
    })
    const port = Number(/port=(\d+)/.exec(server.output())?.[1])
    const http = `http://127.0.0.1:${port}`
    const socketUrl = protocol === "uws" ? `ws://127.0.0.1:${port}/ws` : `ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`
    const ids = { workspaceId: uuid(), spaceId: uuid(), listId: uuid(), taskId: uuid(), actorId: uuid() }
    return {
      sample: server.sample,
      stop: () => server.stop(),
      prepare: async () => ({
        clients: { protocol, url: socketUrl },
        probeUrl: async () => socketUrl,
        write: async (marker, n) => {
          const response = await fetch(`${http}/publish`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: frameLike(marker, n, ids)
          })
          await response.arrayBuffer()
        }
      })
    }
  }
})

/** Atrium's raw socket; `batch`: clients that accept batch frames (`&batch=1`), as the README offers. */
const atriumTarget = (batch: boolean): Target => ({
  label: batch ? "Atrium (raw WebSocket, batch frames)" : "Atrium (raw WebSocket)",
  role: "subject",
  protocol: "atrium",
  start: async (options) => {
    const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-streams-"))
    await seedPglite(dataDir)
    const server = await startHttpServer({
      label: "server/main.ts",
      command: tsNode(join(options.root, "server/main.ts"))[0],
      args: tsNode(join(options.root, "server/main.ts"))[1],
      cwd: options.root,
      env: { HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", NATS_URL: "", DEMO: "" },
      readyPath: "/healthz",
      timeoutMs: 180_000
    }).catch((error: unknown) => {
      rmSync(dataDir, { recursive: true, force: true })
      throw error
    })
    const url = server.url
    const email = `bench-${Date.now().toString(36)}@example.com`
    const password = "bench-password-1234"
    await call(`${url}/pm/v1/auth/register`, "POST", { email, password, name: "Bench Writer" })
    const token = (await call(`${url}/pm/v1/auth/login`, "POST", { email, password })).accessToken as string
    const workspaceId = (await call(`${url}/pm/v1/workspaces`, "POST", { name: "bench" }, token)).id as string
    const spaceId = (await call(`${url}/pm/v1/workspaces/${workspaceId}/spaces`, "POST", { name: "Streams" }, token)).id as string
    const listId = (await call(`${url}/pm/v1/spaces/${spaceId}/lists`, "POST", { name: "Fan-out" }, token)).id as string
    const taskIds = await pool(
      WINDOW,
      1,
      async (i) => (await call(`${url}/pm/v1/lists/${listId}/tasks`, "POST", { name: `task ${i}` }, token)).id as string
    )
    const ticket = async () => (await call(`${url}/pm/v1/ws/ticket`, "POST", { workspaceId }, token)).url as string
    return {
      sample: server.sample,
      stop: async () => {
        await server.stop()
        rmSync(dataDir, { recursive: true, force: true })
      },
      prepare: async () => ({
        workspaceId,
        clients: { protocol: "atrium", atrium: { origin: url, token, workspaceId }, batch },
        probeUrl: async () => `${await ticket()}${batch ? "&batch=1" : ""}`,
        write: async (marker, n) => {
          await call(`${url}/pm/v1/tasks/${taskIds[n % taskIds.length]}`, "PATCH", { description: marker }, token)
        }
      })
    }
  }
})

const PLAIN_ATRIUM = atriumTarget(false)
const BARE = "bare uWS publish (limit)"
const BARE_AT_ATRIUMS_RATE = "bare uWS publish at Atrium's event rate"

/**
 * In the order they run: a paced series after the one it keeps to. Self-clocked, the bare loop writes about twice
 * as many events per second as Atrium (nothing to store), and at a higher rate uWS packs more events into each
 * socket write, so its CPU per delivery falls: the paced bare loop is the like-for-like comparison.
 */
const TARGETS: ReadonlyArray<Target> = [
  baselineTarget(BARE, "uws", "uws-publish"),
  baselineTarget("Socket.IO on node:http (default adapter)", "socketio", "socketio-broadcast"),
  PLAIN_ATRIUM,
  atriumTarget(true),
  baselineTarget(BARE_AT_ATRIUMS_RATE, "uws", "uws-publish", PLAIN_ATRIUM.label)
]

/** Baselines first: the report takes each series' ratios against the baselines listed before it. */
const REPORT_ORDER: ReadonlyArray<string> = [
  BARE,
  BARE_AT_ATRIUMS_RATE,
  "Socket.IO on node:http (default adapter)",
  PLAIN_ATRIUM.label,
  atriumTarget(true).label
]

// ------------------------------------------------------------ a point ---

interface ClientResult {
  readonly delivered: number
  readonly firstAt: number
  readonly lastAt: number
  readonly dropped: number
  readonly histogram: HistogramData
}

/** Starts one client process and resolves once its sockets are subscribed. */
const startClients = (options: RunOptions, config: ClientsConfig, dir: string, index: number) => {
  const path = join(dir, `clients-${index}.json`)
  writeFileSync(path, JSON.stringify(config))
  const [command, args] = tsNode(file("../load/stream-clients.ts"), [path])
  const child = spawnChild(command, args, { cwd: options.root })
  let result: ClientResult | undefined
  let failure: string | undefined
  const ready = new Promise<void>((resolve, reject) => {
    child.onLine((line) => {
      if (!line.startsWith("SC ")) return
      const event = JSON.parse(line.slice(3)) as { event: string; message?: string } & ClientResult
      if (event.event === "ready") resolve()
      else if (event.event === "result") result = event
      else if (event.event === "error") failure = event.message
    })
    void child.exited.then((code) =>
      reject(
        new Error(
          `stream-clients exited (${code}) before it was ready: ${failure ?? child.output().trim().split("\n").slice(-8).join("\n")}`
        )
      )
    )
  })
  return { child, ready, result: () => result }
}

/** The writer's probe: a subscriber in this process that tells the writer when each event arrived. */
const openProbe = async (protocol: ClientsConfig["protocol"], url: string, workspaceId: string | undefined) => {
  const waiting = new Map<number, () => void>()
  const socket = new WebSocket(url, { perMessageDeflate: false })
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject)
    socket.on("open", () => {
      if (protocol === "atrium") socket.send(JSON.stringify({ type: "subscribe", scope: "workspace", id: workspaceId }))
      if (protocol === "uws") resolve()
    })
    socket.on("message", (data: Buffer) => {
      const text = data.toString("utf8")
      if (protocol === "atrium" && text.includes('"type":"subscribed"')) resolve()
      if (protocol === "socketio") {
        if (text === "2") socket.send("3")
        else if (text.startsWith("0")) socket.send("40")
        else if (text.startsWith("40")) resolve()
      }
      for (const match of markersIn(text)) waiting.get(Number(match[2]))?.()
    })
  })
  return {
    arrival: (n: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => (waiting.delete(n), resolve()), 5000)
        waiting.set(n, () => {
          clearTimeout(timer)
          waiting.delete(n)
          resolve()
        })
      }),
    close: () => socket.terminate()
  }
}

const measurePoint = async (
  target: Target,
  started: Started,
  count: number,
  options: RunOptions,
  /** Events per second to keep to (a paced target), else as fast as the probe sees them. */
  pace?: number
): Promise<{ point: Point; note?: string }> => {
  const prepared = await started.prepare(count)
  const dir = mkdtempSync(join(tmpdir(), "atrium-bench-clients-"))
  const processes = Math.min(CLIENT_PROCESSES, count)
  const clients: Array<ReturnType<typeof startClients>> = []
  try {
    for (let i = 0; i < processes; i++) {
      const share = Math.floor((count * (i + 1)) / processes) - Math.floor((count * i) / processes)
      clients.push(startClients(options, { ...prepared.clients, count: share }, dir, i))
    }
    await Promise.all(clients.map((c) => c.ready))
    const probe = await openProbe(target.protocol, await prepared.probeUrl(), prepared.workspaceId)

    // The self-clocking writer: WINDOW loops, each writes and waits for the probe to see it; paced, event i
    // also waits for its time (i / pace seconds after the start).
    let n = 0
    let sent = 0
    let phase: "w" | "m" | "stop" = options.warmupSec > 0 ? "w" : "m"
    const began = now()
    const loops = Array.from({ length: WINDOW }, async () => {
      while (phase !== "stop") {
        const i = n++
        if (pace !== undefined) {
          const wait = began + (i * 1000) / pace - now()
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
          if ((phase as string) === "stop") break // set meanwhile
        }
        const current = phase
        if (current === "m") sent++
        const arrived = probe.arrival(i)
        await prepared.write(`${current}|${i}|${now().toFixed(3)}`, i)
        await arrived
      }
    })
    const sample = () => ({ server: started.sample(), clients: clients.map((c) => readProc(c.child.pid)), machine: readMachine() })
    if (phase === "w") await new Promise((resolve) => setTimeout(resolve, options.warmupSec * 1000))
    phase = "m"
    const before = sample()
    await new Promise((resolve) => setTimeout(resolve, options.durationSec * 1000))
    phase = "stop"
    await Promise.all(loops)
    const after = sample()
    for (let i = 0; i < 3; i++) await prepared.write(`e|${n++}|${now().toFixed(3)}`, n)
    probe.close()
    await Promise.race([Promise.all(clients.map((c) => c.child.exited)), new Promise((resolve) => setTimeout(resolve, 15_000))])
    await Promise.all(clients.map((c) => c.child.stop()))

    const results = clients.map((c) => c.result()).filter((r): r is ClientResult => r !== undefined)
    if (results.length === 0) throw new Error("no subscriber process reported")
    const delivered = results.reduce((sum, r) => sum + r.delivered, 0)
    const firstAt = Math.min(...results.map((r) => r.firstAt))
    const lastAt = Math.max(...results.map((r) => r.lastAt))
    const windowSec = Math.max(1e-3, (lastAt - firstAt) / 1000)
    const dropped = results.reduce((sum, r) => sum + r.dropped, 0)
    const expected = sent * count
    const loadgen = clients.reduce<ProcessFigures | undefined>((total, _client, i) => {
      const b = before.clients[i]
      const a = after.clients[i]
      if (!b || !a) return total
      const u = usageBetween(b, a)
      return total === undefined
        ? { ...u, tool: `stream-clients.ts ×${clients.length}` }
        : { ...total, cpuSec: total.cpuSec + u.cpuSec, cores: total.cores + u.cores }
    }, undefined)
    const busy = machineBusyCores(before.machine, after.machine)
    const missing = Math.max(0, expected - delivered)
    // More than every subscriber × every event means a marker was counted twice: the figures would lie.
    if (delivered > expected) throw new Error(`${count} subscribers saw ${delivered} deliveries of ${sent} events (at most ${expected})`)
    return {
      point: {
        load: count,
        durationSec: windowSec,
        ops: delivered,
        errors: missing,
        throughput: delivered / windowSec,
        latency: Histogram.from(...results.map((r) => r.histogram)).latency(),
        server: usageBetween(before.server, after.server),
        ...(loadgen ? { loadgen } : {}),
        ...(busy === undefined ? {} : { machineBusyCores: busy })
      },
      ...(missing > 0 || dropped > 0
        ? {
            note: `${count} subscribers: ${sent} events written, ${delivered} of ${expected} deliveries seen; ${dropped} sockets dropped (cut off as slow, or closed)`
          }
        : {})
    }
  } finally {
    for (const c of clients) await c.child.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

// ------------------------------------------------------------ targets ---

/** Server CPU per delivered event (µs) at `load`, when the point is there. */
const cpuPerDelivery = (series: Series | undefined, load: number) => {
  const point = series?.points.find((p) => p.load === load)
  return point === undefined || point.ops === 0 || point.server === undefined ? undefined : (point.server.cpuSec * 1e6) / point.ops
}

/**
 * Each Atrium series at the run's highest level against the bare uWS loop's CPU per delivered event: issue 10's
 * target (≤ 2×) against the self-clocked loop; issue 27's for plain clients (≤ 1.5×) against the loop at Atrium's
 * own event rate (like for like), and, for the record, against the self-clocked loop.
 */
const goals = (series: ReadonlyArray<Series>, options: RunOptions): Array<Goal> => {
  const load = Math.max(...options.levels)
  const against = (subject: Series, baseline: string, limit: number, issue: number, how: string): Goal => {
    const ours = cpuPerDelivery(subject, load)
    const theirs = cpuPerDelivery(
      series.find((s) => s.label === baseline),
      load
    )
    const ratio = ours === undefined || theirs === undefined ? undefined : ours / theirs
    return {
      target: `${subject.label}, ${load} subscribers: server CPU per delivered event ≤ ${limit}× the bare uWS publish loop's ${how} (issue ${issue})`,
      figure: ratio === undefined ? "?" : `${ratio.toFixed(2)}× (${ours!.toFixed(2)} µs vs ${theirs!.toFixed(2)} µs per delivery)`,
      met: ratio === undefined ? undefined : ratio <= limit
    }
  }
  return series
    .filter((s) => s.role === "subject")
    .flatMap((s) =>
      s.label.includes("batch")
        ? [against(s, BARE, 2, 10, "self-clocked")]
        : [
            against(s, BARE, 2, 10, "self-clocked"),
            against(s, BARE_AT_ATRIUMS_RATE, 1.5, 27, "at Atrium's event rate"),
            against(s, BARE, 1.5, 27, "self-clocked (at its own, higher rate)")
          ]
    )
}

// ------------------------------------------------------------ scenario ---

/** Events per second a series' point at `load` carried (deliveries per subscriber per second). */
const eventRate = (series: Series | undefined, load: number): number | undefined => {
  const point = series?.points.find((p) => p.load === load)
  return point === undefined || point.throughput <= 0 ? undefined : point.throughput / load
}

const runTarget = async (
  target: Target,
  options: RunOptions,
  steps: Steps,
  notes: Array<string>,
  measured: ReadonlyArray<Series>
): Promise<Series> => {
  let started: Started | undefined
  const points: Array<Point> = []
  try {
    const pacer = target.pacedBy === undefined ? undefined : measured.find((s) => s.label === target.pacedBy)
    if (target.pacedBy !== undefined && pacer?.status !== "ok") throw new Error(`${target.pacedBy} has no figures to keep pace with`)
    started = await target.start(options)
    for (const count of options.levels) {
      steps.begin(`${target.label}, ${count} subscribers`)
      const pace = pacer === undefined ? undefined : eventRate(pacer, count)
      if (pacer !== undefined && pace === undefined) throw new Error(`${target.pacedBy} has no point at ${count} subscribers`)
      const { point, note } = await measurePoint(target, started, count, options, pace)
      if (pace !== undefined)
        notes.push(`${target.label}, ${count} subscribers: written at ${pace.toFixed(1)} events/s, ${target.pacedBy}'s rate.`)
      points.push(point)
      if (note) notes.push(`${target.label}: ${note}`)
      steps.end()
    }
    return { label: target.label, role: target.role, status: "ok", points }
  } catch (error) {
    steps.abort()
    return failedSeries(target.label, target.role, error, points)
  } finally {
    await started?.stop()
  }
}

export const streamFanout: Scenario = {
  name: "stream-fanout",
  subject: "pm live updates: task updates fanned out to N subscribers of one workspace (delivered events/s, change→client latency)",
  baselines: ["Socket.IO on node:http with its default adapter (io.to(room).emit)", "a bare uWS publish loop (app.publish to one topic)"],
  levels: { sweep: [500, 5000], smoke: 50 },
  workload: (options) => [
    `One workspace; ${options.levels.join(", ")} subscribers in ${CLIENT_PROCESSES} client processes (ws, each system's wire protocol).`,
    `Writer: self-clocking, at most ${WINDOW} events in flight (an event lands when a probe subscriber receives it); Atrium: PATCH /pm/v1/tasks/{id} over ${WINDOW} tasks; baselines: POST /publish of an event the size of Atrium's task.updated frame.`,
    `"${BARE_AT_ATRIUMS_RATE}": the bare loop again (run last), its writer also keeping to the events/s Atrium's plain series reached at the same level, since uWS's CPU per delivery falls as more events share a socket write.`,
    `Per point: ${options.warmupSec} s warm-up, ${options.durationSec} s measured; delivered events/s = deliveries seen by all subscribers / their receive window; latency = writer send → client receive.`
  ],
  estimateSec: (options) => TARGETS.length * (20 + options.levels.length * (options.warmupSec + options.durationSec + 15)),
  run: async (options, progress) => {
    const steps = new Steps(progress, TARGETS.length * options.levels.length, options.warmupSec + options.durationSec + 10)
    const notes: Array<string> = []
    const series: Array<Series> = []
    for (const target of TARGETS) series.push(await runTarget(target, options, steps, notes, series))
    const ordered = REPORT_ORDER.map((label) => series.find((s) => s.label === label)!)
    return {
      groups: [{ name: "task update → every subscriber of the workspace", unit: "delivery", series: ordered }],
      targets: goals(series, options),
      notes
    }
  }
}
