/**
 * cluster: two Atrium nodes (`server/main.ts` child processes) sharing one
 * PostgreSQL database (created for the run, dropped after), one NATS (a
 * subject prefix unique to the run) and one blob directory. What does a
 * second node cost a change on its way to a client?
 *
 * - pm live stream: `PATCH /pm/v1/tasks/{id}` sent to node A at a steady
 *   rate; a raw WebSocket subscriber of the workspace (`/pm/v1/ws`) on node B
 *   (subject) or on node A itself (baseline); latency = request sent →
 *   `task.updated` event received.
 * - collab: a Hocuspocus-protocol writer on node A editing a wiki page at a
 *   steady rate; a reader of the page on node B (subject) or on node A
 *   (baseline); latency = update sent → update received by the reader.
 *
 * The load level is the writer's rate (changes per second), open loop: a
 * slow path queues instead of slowing the writer. Each reader is primed
 * first (changes sent until one arrives: its node may still be opening the
 * document or joining the subjects). A collab reader receiving change n
 * holds every change up to n (one writer, Yjs applies in order; relays may
 * merge updates), so its arrival lands every earlier pending one: that is
 * convergence latency. Stream events land one by one. Clients run in the
 * runner's process (one socket each, a few hundred messages per second at
 * most), every timestamp from one clock. The "server" figures are both
 * nodes' CPU summed and their peak RSS summed (per node in the notes);
 * nats-server's CPU is the broker's. Nothing is asserted: the cross-node /
 * same-node ratios are read off the report.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import postgres from "postgres"
import WebSocket from "ws"
import * as Y from "yjs"
import { connect as collabConnect, marker, updateFrame } from "../load/collab-clients.ts"
import { Histogram } from "../load/Histogram.ts"
import { MARKER } from "../load/stream-protocol.ts"
import {
  findPid,
  machineBusyCores,
  readMachine,
  readProc,
  startHttpServer,
  tsNode,
  usageBetween,
  type ProcSample,
  type Server
} from "../process.ts"
import { Steps } from "../progress.ts"
import { failedSeries, type Point, type ProcessFigures, type RunOptions, type Scenario, type Series } from "../Scenario.ts"

/** NATS for both nodes (BENCH_NATS_URL, like the actors scenario; not NATS_URL, which Atrium itself reads). */
const NATS_URL = process.env.BENCH_NATS_URL || "nats://127.0.0.1:4222"
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL || "postgres://postgres@127.0.0.1:5432/postgres"
/** Tasks the writer round-robins over, so one task's actor isn't the bottleneck. */
const TASKS = 32
/** collab-clients.ts's marker (`MK<phase>|<n>|<sentAtMs>|`), every occurrence in a frame. */
const MARKERS = /MK([wme])\|(\d+)\|[0-9.]+\|/g
/** How long a change may take to arrive before it counts as lost. */
const ARRIVAL_TIMEOUT_MS = 5000
/** How long the first change may take to reach a fresh reader (its node opening the document, joining subjects). */
const PRIME_TIMEOUT_MS = 20_000
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const ms = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(0)} µs`)
const mib = (bytes: number | undefined) => (bytes === undefined ? "?" : `${(bytes / 2 ** 20).toFixed(0)} MiB`)

// ------------------------------------------------------------ services ---

const postgresReachable = async (): Promise<string | undefined> => {
  const sql = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 2 })
  try {
    await sql`select 1`
    return undefined
  } catch (error) {
    return `PostgreSQL unreachable at ${PG_ADMIN_URL} (${error instanceof Error ? error.message : String(error)})`
  } finally {
    await sql.end({ timeout: 1 }).catch(() => undefined)
  }
}

const natsReachable = async (): Promise<string | undefined> => {
  const { connect } = await import("@nats-io/transport-node")
  const { jetstreamManager } = await import("@nats-io/jetstream")
  try {
    const nc = await connect({ servers: NATS_URL, timeout: 2000, maxReconnectAttempts: 0 })
    try {
      await (await jetstreamManager(nc, { timeout: 2000 })).getAccountInfo()
      return undefined
    } finally {
      await nc.close().catch(() => undefined)
    }
  } catch (error) {
    return `NATS (with JetStream) unreachable at ${NATS_URL} (${error instanceof Error ? error.message : String(error)})`
  }
}

/** Deletes the JetStream streams (KV buckets) the run's nodes made under `prefix`. */
const dropNatsState = async (prefix: string): Promise<void> => {
  const { connect } = await import("@nats-io/transport-node")
  const { jetstreamManager } = await import("@nats-io/jetstream")
  const nc = await connect({ servers: NATS_URL, name: "atrium-bench-cluster-cleanup", timeout: 2000, maxReconnectAttempts: 0 })
  try {
    const manager = await jetstreamManager(nc)
    const names: Array<string> = []
    for await (const name of manager.streams.names()) if (name.includes(prefix)) names.push(name)
    for (const name of names) await manager.streams.delete(name).catch(() => false)
  } finally {
    await nc.close()
  }
}

// -------------------------------------------------------------- cluster ---

interface Node {
  readonly label: string
  readonly server: Server
}

interface Cluster {
  readonly a: Node
  readonly b: Node
  readonly token: string
  readonly workspaceId: string
  readonly taskIds: ReadonlyArray<string>
  readonly pageId: string
  readonly stop: () => Promise<void>
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

/** Creates the database, starts node A (it migrates) then node B, and seeds through node A's API. */
const startCluster = async (options: RunOptions, runId: string, progress: (label: string) => void): Promise<Cluster> => {
  const database = `atrium_bench_cluster_${runId.replace(/[^a-z0-9]/g, "_")}`
  const prefix = `atrium_bench_cluster_${runId.replace(/[^a-z0-9]/g, "_")}`
  const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-cluster-"))
  const admin = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 })
  const nodes: Array<Node> = []
  const stop = async () => {
    for (const node of nodes) await node.server.stop()
    rmSync(dataDir, { recursive: true, force: true })
    await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => undefined)
    await admin.end({ timeout: 2 }).catch(() => undefined)
    await dropNatsState(prefix).catch(() => undefined)
  }
  try {
    // A smoke run copies the migrated template the tests use: node A then has nothing to migrate.
    const template = options.smoke ? await (await import("../../tools/PostgresTemplate.ts")).migratedTemplate(PG_ADMIN_URL) : undefined
    await admin.unsafe(`create database "${database}"${template === undefined ? "" : ` template "${template}"`}`)
    const databaseUrl = new URL(PG_ADMIN_URL)
    databaseUrl.pathname = `/${database}`
    const [command, args] = tsNode(join(options.root, "server/main.ts"))
    const env = { HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl.toString(), NATS_URL, NATS_PREFIX: prefix, DEMO: "" }
    // One after the other: the first one runs the migrations on the fresh database.
    for (const label of ["node A", "node B"]) {
      progress(`starting ${label}`)
      const server = await startHttpServer({
        label: `Atrium ${label}`,
        command,
        args,
        cwd: options.root,
        env,
        readyPath: "/healthz",
        timeoutMs: 180_000
      })
      nodes.push({ label, server })
    }
    progress("seeding")
    const url = nodes[0]!.server.url
    const email = `bench-cluster-${runId}@example.com`
    const password = "bench-password-1234"
    await call(`${url}/pm/v1/auth/register`, "POST", { email, password, name: "Bench Cluster" })
    const token = (await call(`${url}/pm/v1/auth/login`, "POST", { email, password })).accessToken as string
    const workspaceId = (await call(`${url}/pm/v1/workspaces`, "POST", { name: "bench cluster" }, token)).id as string
    const spaceId = (await call(`${url}/pm/v1/workspaces/${workspaceId}/spaces`, "POST", { name: "Cluster" }, token)).id as string
    const listId = (await call(`${url}/pm/v1/spaces/${spaceId}/lists`, "POST", { name: "Cross-node" }, token)).id as string
    const taskIds: Array<string> = []
    for (let i = 0; i < TASKS; i++)
      taskIds.push((await call(`${url}/pm/v1/lists/${listId}/tasks`, "POST", { name: `task ${i}` }, token)).id as string)
    const wikiSpaceId = (await call(`${url}/wiki/v1/spaces`, "POST", { workspaceId, name: "Cluster bench" }, token)).id as string
    const pageId = (
      await call(`${url}/wiki/v1/spaces/${wikiSpaceId}/pages`, "POST", { title: "Cross-node", markdown: "Typed across nodes." }, token)
    ).id as string
    return { a: nodes[0]!, b: nodes[1]!, token, workspaceId, taskIds, pageId, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

// -------------------------------------------------------------- a point ---

/** What one measured window saw: arrivals, losses, the figures of the processes around it. */
interface Window {
  readonly sent: number
  readonly errors: number
  readonly received: number
  readonly histogram: Histogram
  /** Send → write handed over (stream: the PATCH answered), measured changes only: the part of the latency before delivery. */
  readonly writes: Histogram
  readonly firstError?: string
}

interface Samples {
  readonly a: ProcSample
  readonly b: ProcSample
  readonly self: ProcSample | undefined
  readonly broker: ProcSample | undefined
  readonly machine: ReturnType<typeof readMachine>
}

const brokerPid = () => findPid("nats-server")

const sampleAll = (cluster: Cluster, broker: number | undefined): Samples => ({
  a: cluster.a.server.sample(),
  b: cluster.b.server.sample(),
  self: readProc(process.pid),
  broker: broker === undefined ? undefined : readProc(broker),
  machine: readMachine()
})

/** Both nodes as one "server": CPU and peak RSS summed (each node's is in the notes). */
const pointOf = (rate: number, durationSec: number, window: Window, before: Samples, after: Samples): Point => {
  const a = usageBetween(before.a, after.a)
  const b = usageBetween(before.b, after.b)
  const server: ProcessFigures = {
    cpuSec: a.cpuSec + b.cpuSec,
    cores: a.cores + b.cores,
    peakRssBytes: (a.peakRssBytes ?? 0) + (b.peakRssBytes ?? 0),
    tool: "node A + node B (summed)"
  }
  const busy = machineBusyCores(before.machine, after.machine)
  return {
    load: rate,
    durationSec,
    ops: window.received,
    errors: window.errors + Math.max(0, window.sent - window.errors - window.received),
    throughput: window.received / durationSec,
    latency: window.histogram.latency(),
    server,
    ...(before.self && after.self
      ? { loadgen: usageBetween(before.self, after.self, "bench runner (writer and clients in-process)") }
      : {}),
    ...(before.broker && after.broker ? { broker: usageBetween(before.broker, after.broker, "nats-server (the machine's)") } : {}),
    ...(busy === undefined ? {} : { machineBusyCores: busy })
  }
}

/** A way of writing changes on A and seeing them on a reader node. */
interface Channel {
  /** Sends change `n` carrying `phase`; resolves when the write was handed over (HTTP answered, frame sent). */
  readonly write: (phase: "w" | "m", n: number) => Promise<void>
  readonly close: () => void
}

/**
 * Drives one channel at `rate` changes per second (open loop) for the
 * warm-up, then the measured window; the reader calls `arrived` with the
 * (phase, n) of each change it receives.
 */
const drive = async (
  cluster: Cluster,
  options: RunOptions,
  rate: number,
  open: (arrived: (phase: string, n: number) => void) => Promise<Channel>,
  cumulative: boolean
): Promise<{ window: Window; before: Samples; after: Samples; durationSec: number }> => {
  const histogram = new Histogram()
  const writes = new Histogram()
  /** Measured changes not received yet: n → send time, in sending order. */
  const pending = new Map<number, number>()
  let received = 0
  let primed = false
  const land = (n: number, at: number) => {
    const sentAt = pending.get(n)
    if (sentAt === undefined) return
    pending.delete(n)
    received++
    histogram.record(Math.max(0, at - sentAt) * 1e6)
  }
  const channel = await open((phase, n) => {
    if (phase === "w") primed = true
    if (phase !== "m") return
    const at = now()
    if (!cumulative) return land(n, at)
    // Receiving n means the reader's side holds every change up to n (one writer, applied in order).
    for (const k of pending.keys()) {
      if (k > n) break
      land(k, at)
    }
  })
  const broker = brokerPid()
  let sent = 0
  let errors = 0
  let firstError: string | undefined
  const inFlight = new Set<Promise<void>>()
  const periodMs = 1000 / rate
  const run = async (phase: "w" | "m", seconds: number, first: number) => {
    const started = performance.now()
    const count = Math.max(1, Math.round(seconds * rate))
    for (let i = 0; i < count; i++) {
      const due = started + i * periodMs
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
      const n = first + i
      const sentAt = now()
      if (phase === "m") {
        sent++
        pending.set(n, sentAt)
      }
      const write = channel.write(phase, n).then(
        () => {
          if (phase === "m") writes.record(Math.max(0, now() - sentAt) * 1e6)
        },
        (error: unknown) => {
          // A write that failed is an error, not also a lost change.
          if (phase === "m" && pending.delete(n)) errors++
          firstError ??= error instanceof Error ? error.message : String(error)
        }
      )
      inFlight.add(write)
      void write.finally(() => inFlight.delete(write))
    }
    return count
  }
  try {
    // Primed first, whatever the warm-up: the reader's node may still be opening the document or joining the subjects.
    let next = 0
    const primeUntil = performance.now() + PRIME_TIMEOUT_MS
    while (!primed) {
      if (performance.now() > primeUntil)
        throw new Error(
          `no change reached the reader within ${PRIME_TIMEOUT_MS / 1000} s${firstError ? ` (first error: ${firstError})` : ""}`
        )
      void channel.write("w", next++).catch((error: unknown) => (firstError ??= error instanceof Error ? error.message : String(error)))
      await sleep(100)
    }
    firstError = undefined
    next += options.warmupSec > 0 ? await run("w", options.warmupSec, next) : 0
    const warmed = next
    const before = sampleAll(cluster, broker)
    const startedAt = performance.now()
    await run("m", options.durationSec, warmed)
    const durationSec = (performance.now() - startedAt) / 1000
    const after = sampleAll(cluster, broker)
    // Stragglers: every write answered, then each arrival given its time.
    await Promise.all([...inFlight])
    const deadline = performance.now() + ARRIVAL_TIMEOUT_MS
    while (pending.size > 0 && performance.now() < deadline) await sleep(20)
    return { window: { sent, errors, received, histogram, writes, ...(firstError ? { firstError } : {}) }, before, after, durationSec }
  } finally {
    channel.close()
  }
}

// --------------------------------------------------------------- stream ---

/** The error, saying so when `node`'s process has exited meanwhile (with the end of its output). */
const withNodeExit = (error: unknown, node: Node): unknown => {
  const exit = node.server.process.exitCode ?? node.server.process.signalCode
  if (exit === null || !(error instanceof Error)) return error
  const output = node.server.output().trim().split("\n").slice(-10).join("\n")
  return new Error(`${error.message} (${node.label} exited: ${exit})\n${output}`)
}

/** A workspace subscriber on `reader`; task updates PATCHed to node A. */
const streamChannel =
  (cluster: Cluster, reader: Node) =>
  async (arrived: (phase: string, n: number) => void): Promise<Channel> => {
    // As the web app does (web/src/live/Stream.ts reconnects after any close but 4403): a connection the node closes
    // as unavailable (4503: it could not read the workspace's position yet) or that drops without a close frame (1006:
    // the TCP connection ended after the upgrade; a refused handshake or a bad frame would have raised an error
    // instead) is opened again with a fresh ticket; anything else fails the run with what the node said.
    const subscribe = async (): Promise<WebSocket> => {
      const ticket = await call(`${reader.server.url}/pm/v1/ws/ticket`, "POST", { workspaceId: cluster.workspaceId }, cluster.token)
      const socket = new WebSocket(ticket.url as string, { perMessageDeflate: false })
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no subscription on ${reader.label} within 30 s`)), 30_000)
        const fail = (error: Error) => {
          clearTimeout(timer)
          reject(error)
        }
        socket.once("error", fail)
        socket.once("close", (code: number, reason: Buffer) =>
          fail(Object.assign(new Error(`${reader.label} closed the stream: ${code} ${reason.toString("utf8")}`), { code }))
        )
        socket.on("open", () => socket.send(JSON.stringify({ type: "subscribe", scope: "workspace", id: cluster.workspaceId })))
        socket.on("message", (data: Buffer) => {
          const text = data.toString("utf8")
          if (text.includes('"type":"subscribed"')) {
            clearTimeout(timer)
            socket.removeAllListeners("close")
            resolve()
          } else if (text.includes('"type":"error"')) fail(new Error(`subscribe on ${reader.label}: ${text.slice(0, 200)}`))
          const match = MARKER.exec(text)
          if (match) arrived(match[1]!, Number(match[2]))
        })
      })
      return socket
    }
    let socket: WebSocket | undefined
    for (let attempt = 1; socket === undefined; attempt++) {
      try {
        socket = await subscribe()
      } catch (error) {
        const code = (error as { code?: unknown }).code
        if (attempt >= 3 || (code !== 4503 && code !== 1006)) throw withNodeExit(error, reader)
        await sleep(500 * attempt)
      }
    }
    const subscribed = socket
    const origin = cluster.a.server.url
    return {
      write: async (phase, n) => {
        await call(
          `${origin}/pm/v1/tasks/${cluster.taskIds[n % cluster.taskIds.length]}`,
          "PATCH",
          { description: `${phase}|${n}|${now().toFixed(3)}` },
          cluster.token
        )
      },
      close: () => subscribed.terminate()
    }
  }

// --------------------------------------------------------------- collab ---

const collabUrl = (node: Node) => `ws://127.0.0.1:${node.server.port}/wiki/v1/collab`

/**
 * A writer on node A and a reader on `reader`, both on the seeded page. Each
 * update replaces the page's one paragraph's text with a marker (so the
 * document stays small however long the run), typed as an editor would.
 */
const collabChannel =
  (cluster: Cluster, reader: Node) =>
  async (arrived: (phase: string, n: number) => void): Promise<Channel> => {
    const name = cluster.pageId
    const writer = collabConnect(collabUrl(cluster.a), cluster.token, name)
    const watcher = collabConnect(collabUrl(reader), cluster.token, name)
    const withTimeout = (promise: Promise<void>, what: string) =>
      Promise.race([promise, sleep(15_000).then(() => Promise.reject(new Error(`${what}: not synced within 15 s`)))])
    try {
      await Promise.all([withTimeout(writer.synced, "writer on node A"), withTimeout(watcher.synced, `reader on ${reader.label}`)])
    } catch (error) {
      writer.socket.terminate()
      watcher.socket.terminate()
      throw error
    }
    watcher.onData = (data, incoming) => {
      if (incoming.kind !== "update") return
      // A frame may carry several updates merged (relayed across nodes, or batched): every marker in it counts.
      for (const mark of data.toString("latin1").matchAll(MARKERS)) arrived(mark[1]!, Number(mark[2]))
    }
    const fragment = writer.doc.getXmlFragment("default")
    const textNode = (): Y.XmlText => {
      const paragraph = fragment
        .toArray()
        .find((node): node is Y.XmlElement => node instanceof Y.XmlElement && node.nodeName === "paragraph")
      const text = paragraph?.toArray().find((node): node is Y.XmlText => node instanceof Y.XmlText)
      if (text !== undefined) return text
      const created = new Y.XmlElement("paragraph")
      created.insert(0, [new Y.XmlText()])
      fragment.insert(fragment.length, [created])
      return created.get(0) as Y.XmlText
    }
    return {
      write: async (phase, n) => {
        const updates: Array<Uint8Array> = []
        const listener = (update: Uint8Array) => updates.push(update)
        writer.doc.on("update", listener)
        writer.doc.transact(() => {
          const text = textNode()
          if (text.length > 0) text.delete(0, text.length)
          text.insert(0, marker(phase, n))
        })
        writer.doc.off("update", listener)
        if (writer.socket.readyState !== WebSocket.OPEN) throw new Error("the writer's socket closed")
        for (const update of updates) writer.socket.send(updateFrame(name, update))
      },
      close: () => {
        writer.socket.terminate()
        watcher.socket.terminate()
      }
    }
  }

// ------------------------------------------------------------- scenario ---

interface Plan {
  readonly group: 0 | 1
  readonly label: string
  readonly role: Series["role"]
  readonly open: (cluster: Cluster) => Parameters<typeof drive>[3]
  /** Whether receiving change n means every earlier one arrived too (a Yjs document: yes; events: each on its own). */
  readonly cumulative: boolean
}

/** Same-node baselines before their cross-node subjects: the report takes ratios against what comes before. */
const PLANS: ReadonlyArray<Plan> = [
  { group: 0, label: "same node (A → A)", role: "baseline", open: (c) => streamChannel(c, c.a), cumulative: false },
  { group: 0, label: "cross node (A → B over NATS)", role: "subject", open: (c) => streamChannel(c, c.b), cumulative: false },
  { group: 1, label: "same node (A → A)", role: "baseline", open: (c) => collabChannel(c, c.a), cumulative: true },
  { group: 1, label: "cross node (A → B over NATS)", role: "subject", open: (c) => collabChannel(c, c.b), cumulative: true }
]

const GROUPS = ["task update (PATCH on node A) → live-stream subscriber", "wiki page edit (Hocuspocus writer on node A) → reader"] as const
const UNITS = ["event", "update"] as const

export const cluster: Scenario = {
  name: "cluster",
  subject:
    "two Atrium nodes on one NATS + PostgreSQL: cross-node live-stream event latency and collab convergence latency, against the same node",
  baselines: ["the same writer and reader on one node (same-node), in the same run, on the same two-node cluster"],
  // Below the pm write path's capacity on a 2-core machine (~40-100 PATCH/s, see the notes' write errors above it): an open loop past it measures its queue.
  levels: { sweep: [10, 25], smoke: 20 },
  workload: (options) => [
    `Two \`server/main.ts\` processes on one fresh PostgreSQL database (${PG_ADMIN_URL.replace(/\/[^/]*$/, "/…")}), NATS ${NATS_URL} (a prefix per run), one DATA_DIR; seeded through node A's API (user, workspace, space, list, ${TASKS} tasks, wiki space, page).`,
    `Load level = the writer's rate, open loop: ${options.levels.join(", ")} changes/s (headline: ${options.levels.at(-1)}); per point ${options.warmupSec} s warm-up, ${options.durationSec} s measured.`,
    `Live stream: PATCH /pm/v1/tasks/{id} on node A (round robin over ${TASKS} tasks, description = marker); one raw WebSocket subscriber of the workspace on node B (cross) or node A (same); latency = request sent → task.updated received.`,
    "Collab: a Hocuspocus-protocol writer on node A replaces the page's paragraph text with a ~30-byte marker per update; one reader of the page on node B (cross) or node A (same); latency = update sent → the reader holds it (a frame carrying change n lands every earlier one: convergence).",
    "Points run level by level, same-node and cross-node in turn; the notes give each stream point's write part (send → PATCH answered) and each node's CPU and peak RSS.",
    "Each reader is primed before the window (changes sent until one arrives), so the first cross-node open of the document or subject is not in the figures.",
    `Writer and readers run in the runner's process (the "load generator" figures); "server" = both nodes summed (each node's CPU and peak RSS in the notes); broker = nats-server. A change not received within ${ARRIVAL_TIMEOUT_MS / 1000} s counts as an error.`
  ],
  estimateSec: (options) => 40 + PLANS.length * options.levels.length * (options.warmupSec + options.durationSec + 1),
  run: async (options, progress) => {
    const missing = [await postgresReachable(), await natsReachable()].filter((reason): reason is string => reason !== undefined)
    if (missing.length > 0) {
      if (process.env.ATRIUM_REQUIRE_SERVICES === "1") throw new Error(`${missing.join("; ")} and ATRIUM_REQUIRE_SERVICES=1`)
      return { notBuilt: `not built here (skipped): ${missing.join("; ")}` }
    }
    const runId = `${process.pid}_${Date.now().toString(36)}`
    const steps = new Steps(progress, PLANS.length * options.levels.length, options.warmupSec + options.durationSec + 1)
    const notes: Array<string> = []
    const points: Array<Array<Point>> = PLANS.map(() => [])
    const failures = new Map<number, unknown>()
    const started = await startCluster(options, runId, (label) => progress.update(0, label))
    try {
      // Level by level, same-node and cross-node in turn, so neither gets a warmer JIT or a quieter machine.
      for (const rate of options.levels) {
        for (const [index, plan] of PLANS.entries()) {
          if (failures.has(index)) continue
          try {
            steps.begin(`${UNITS[plan.group]}s, ${plan.label}, ${rate}/s`)
            const { window, before, after, durationSec } = await drive(started, options, rate, plan.open(started), plan.cumulative)
            points[index]!.push(pointOf(rate, durationSec, window, before, after))
            const a = usageBetween(before.a, after.a)
            const b = usageBetween(before.b, after.b)
            const writes = window.writes.latency()
            notes.push(
              `${GROUPS[plan.group].split(" (")[0]}, ${plan.label}, ${rate}/s: ` +
                (plan.group === 0 ? `PATCH answered p50 ${ms(writes.p50)} p99 ${ms(writes.p99)}; ` : "") +
                `node A ${a.cores.toFixed(2)} cores, peak RSS ${mib(a.peakRssBytes)}; node B ${b.cores.toFixed(2)} cores, peak RSS ${mib(b.peakRssBytes)}` +
                (window.received < window.sent || window.errors > 0
                  ? `; ${window.received} of ${window.sent} received, ${window.errors} write errors${window.firstError ? ` (first: ${window.firstError.split("\n")[0]})` : ""}`
                  : "")
            )
            steps.end()
          } catch (error) {
            steps.abort()
            progress.note(
              `${GROUPS[plan.group]}, ${plan.label} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`
            )
            failures.set(index, error)
          }
        }
      }
    } finally {
      await started.stop()
    }
    const series = PLANS.map((plan, index) =>
      failures.has(index)
        ? failedSeries(plan.label, plan.role, failures.get(index), points[index])
        : ({ label: plan.label, role: plan.role, status: "ok", points: points[index]! } satisfies Series)
    )
    return {
      groups: GROUPS.map((name, i) => ({ name, unit: UNITS[i]!, series: series.filter((_, index) => PLANS[index]!.group === i) })),
      notes: findPid("nats-server") === undefined ? [...notes, "nats-server's process was not found here: no broker CPU figures"] : notes
    }
  }
}
