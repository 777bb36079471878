/**
 * cluster-faults: hand-over and recovery of a two-node cluster (issue 21,
 * "Measured"). Two `server/main.ts` processes on one fresh PostgreSQL
 * database and one NATS prefix, node A's NATS and PostgreSQL connections
 * through the fault suite's TCP proxy (`test/support/faultCluster.ts`).
 * Closed-loop callers alternate getTask and updateTask over tasks spread
 * across the shards; every call is timed on one clock.
 *
 * In one run, one after the other:
 * 1. a 1.5 s NATS outage of node A, callers through both nodes: recovery =
 *    from the reconnect to the last failed call answered (target ≤ 3 s), and
 *    the calls answered 503 or not at all;
 * 2. no fault: callers through node B, both nodes serving (the baseline,
 *    measured once the nodes are warm);
 * 3. node A cut off from NATS (its proxy resets every connection) under
 *    load through B: hand-over = from the cut to the last failed call, 503s
 *    meanwhile, then a measured window with B serving every shard; healed;
 * 4. node A killed (SIGKILL) under load through B: the same figures, then a
 *    window with B alone.
 * The windows after 3 and 4 are series against the no-fault baseline (same
 * run, same callers, same node). Nothing is asserted.
 */
import { loadavg } from "node:os"
import { Histogram } from "../load/Histogram.ts"
import { readMachine, readProc, machineBusyCores, usageBetween, type ProcSample } from "../process.ts"
import { Steps } from "../progress.ts"
import type { Point, ProcessFigures, RunOptions, Scenario, Series, Target } from "../Scenario.ts"

/** The fault harness reads the test variables; the bench's own ones win when set. */
const useBenchServices = () => {
  if (process.env.BENCH_NATS_URL) process.env.ATRIUM_TEST_NATS_URL = process.env.BENCH_NATS_URL
  const pg = process.env.BENCH_PG_ADMIN_URL || process.env.BENCH_DATABASE_URL
  if (pg) process.env.ATRIUM_TEST_PG_ADMIN_URL = pg
}

const TASKS = 48
const SHARDS = 64
const OUTAGE_MS = 1500
/**
 * Smoke mode only shows every phase runs and reports: shard leases of 5 s (ACTOR_LEASE_SECONDS) instead of the
 * default 10, so each hand-over waits half as long, and shorter waits around the faults. A full run keeps both.
 */
const SMOKE_LEASE_SECONDS = 5
const pauses = (options: RunOptions) =>
  options.smoke
    ? { beforeOutage: 1000, beforeFault: 500, afterReconnect: 2000, afterHandOver: 1000 }
    : { beforeOutage: 2000, beforeFault: 1000, afterReconnect: 14_000, afterHandOver: 3000 }
const now = () => performance.now()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

type Harness = typeof import("../../test/support/faultCluster.ts")
type Cluster = Awaited<ReturnType<Harness["startFaultCluster"]>>
type Node = Cluster["a"]

interface Call {
  readonly node: string
  readonly sent: number
  readonly answered: number
  readonly status: number
}

const ok = (call: Call) => call.status >= 200 && call.status < 300

const request = async (node: Node, method: string, path: string, token: string, body?: unknown): Promise<Call> => {
  const sent = now()
  try {
    const response = await fetch(node.origin + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000)
    })
    await response.arrayBuffer()
    return { node: node.label, sent, answered: now(), status: response.status }
  } catch {
    return { node: node.label, sent, answered: now(), status: 0 }
  }
}

/** A setup call, retried while shards move (bounded). */
const settled = async (node: Node, method: string, path: string, token: string | undefined, body?: unknown) => {
  for (let attempt = 0; attempt < 240; attempt++) {
    const response = await fetch(node.origin + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000)
    }).catch(() => undefined)
    const text = response === undefined ? "" : await response.text()
    if (response !== undefined && response.status < 300) return text === "" ? {} : JSON.parse(text)
    if (response !== undefined && response.status !== 503) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
    await sleep(250)
  }
  throw new Error(`${method} ${path}: no node served it within a minute`)
}

/** Closed-loop callers over `nodes` (caller i on nodes[i % n]) until `stop()`; every call goes to `calls`. */
const drive = (nodes: ReadonlyArray<Node>, callers: number, tasks: ReadonlyArray<string>, token: string, calls: Array<Call>) => {
  let running = true
  const loops = Array.from({ length: callers }, async (_, i) => {
    const node = nodes[i % nodes.length]!
    for (let n = 0; running; n++) {
      const task = tasks[(i * 7 + n) % tasks.length]!
      calls.push(
        n % 2 === 0
          ? await request(node, "GET", `/pm/v1/tasks/${task}`, token)
          : await request(node, "PATCH", `/pm/v1/tasks/${task}`, token, { description: `c${i}-${n}` })
      )
    }
  })
  return async () => {
    running = false
    await Promise.all(loops)
  }
}

interface Samples {
  readonly a: ProcSample | undefined
  readonly b: ProcSample | undefined
  readonly machine: ReturnType<typeof readMachine>
}

const sample = (cluster: Cluster): Samples => ({ a: readProc(cluster.a.pid), b: readProc(cluster.b.pid), machine: readMachine() })

/** A measured window of callers through B: one point. */
const window = async (
  cluster: Cluster,
  options: RunOptions,
  callers: number,
  tasks: ReadonlyArray<string>,
  token: string
): Promise<Point> => {
  const calls: Array<Call> = []
  const stop = drive([cluster.b], callers, tasks, token, calls)
  await sleep(options.warmupSec * 1000)
  const from = now()
  const before = sample(cluster)
  // At least 2 s (smoke asks 1 s): on a busy machine a window that short may see no call answered.
  await sleep(Math.max(2, options.durationSec) * 1000)
  const after = sample(cluster)
  const to = now()
  await stop()
  const inWindow = calls.filter((c) => c.answered >= from && c.answered <= to)
  const histogram = new Histogram()
  for (const c of inWindow.filter(ok)) histogram.record((c.answered - c.sent) * 1e6)
  const durationSec = (to - from) / 1000
  const parts = [
    before.a && after.a ? usageBetween(before.a, after.a) : undefined,
    before.b && after.b ? usageBetween(before.b, after.b) : undefined
  ].filter((u): u is ProcessFigures => u !== undefined)
  const busy = machineBusyCores(before.machine, after.machine)
  return {
    load: callers,
    durationSec,
    ops: inWindow.filter(ok).length,
    errors: inWindow.filter((c) => !ok(c)).length,
    throughput: inWindow.filter(ok).length / durationSec,
    latency: histogram.latency(),
    server: {
      cpuSec: parts.reduce((sum, u) => sum + u.cpuSec, 0),
      cores: parts.reduce((sum, u) => sum + u.cores, 0),
      peakRssBytes: parts.reduce((sum, u) => sum + (u.peakRssBytes ?? 0), 0),
      tool: "live nodes (summed)"
    },
    ...(busy === undefined ? {} : { machineBusyCores: busy })
  }
}

interface FaultFigures {
  /** From the fault's start (or its healing) to the last failed call answered. */
  readonly recoveryMs: number
  readonly unavailable: number
  readonly noAnswer: number
  readonly calls: number
}

const figuresSince = (calls: ReadonlyArray<Call>, since: number): FaultFigures => {
  const failed = calls.filter((c) => c.answered >= since && !ok(c))
  return {
    recoveryMs: failed.length === 0 ? 0 : Math.max(...failed.map((c) => c.answered)) - since,
    unavailable: calls.filter((c) => c.status === 503).length,
    noAnswer: calls.filter((c) => c.status === 0).length,
    calls: calls.length
  }
}

const describeFigures = (what: string, f: FaultFigures, from: string) =>
  `${what}: failures until ${seconds(f.recoveryMs)} after ${from}; ${f.unavailable} calls answered 503, ${f.noAnswer} not answered, of ${f.calls}`

/** Waits (bounded) until node B holds every shard's lease. */
const untilBHoldsAll = async (cluster: Cluster, timeoutMs: number) => {
  const deadline = now() + timeoutMs
  while (now() < deadline) {
    const owners = await cluster.owners()
    if (owners.size === SHARDS && ![...owners.values()].some(cluster.isA)) return now()
    await sleep(100)
  }
  return undefined
}

const untilBalanced = async (cluster: Cluster, timeoutMs: number) => {
  const deadline = now() + timeoutMs
  while (now() < deadline) {
    const owners = await cluster.owners()
    if (owners.size === SHARDS && [...owners.values()].filter(cluster.isA).length >= SHARDS / 4) return
    await sleep(200)
  }
}

export const clusterFaults: Scenario = {
  name: "cluster-faults",
  subject: "two Atrium nodes on one NATS + PostgreSQL: hand-over after kill -9 and a NATS cut-off, recovery of a 1.5 s NATS outage",
  baselines: ["the same callers through the same node with no fault, in the same run"],
  levels: { sweep: [16], smoke: 4 },
  workload: (options) => [
    "Two `server/main.ts` processes on one fresh PostgreSQL database and one NATS prefix; node A's connections to both through the fault suite's TCP proxy (test/support/FaultProxy.ts); node B direct.",
    `${TASKS} tasks in one list (spread over the ${SHARDS} shards); ${options.levels.join(", ")} closed-loop callers alternating getTask and updateTask (a unique description), 20 s client timeout.`,
    `Per window ${options.warmupSec} s warm-up, ${options.durationSec} s measured, callers through node B: no fault, A cut off from NATS (B serves every shard), A killed (B alone).`,
    `Recovery: A's NATS connection reset for ${OUTAGE_MS / 1000} s with callers through both nodes; from the reconnect to the last failed call.`,
    "Hand-over: from the cut-off (the proxy resets A's NATS connection and refuses new ones) or the SIGKILL to the last failed call through B; when B held every lease.",
    `"server" = the live nodes' CPU summed. The machine is shared: absolute figures are noisy, the same-run ratios less so.`,
    ...(options.smoke ? [`Smoke: shard leases of ${SMOKE_LEASE_SECONDS} s (ACTOR_LEASE_SECONDS) and shorter waits around the faults.`] : [])
  ],
  estimateSec: (options) => 120 + 3 * (options.warmupSec + options.durationSec),
  run: async (options, progress) => {
    useBenchServices()
    const { postgresAvailable } = await import("../../test/support/database.ts")
    const { natsAvailable } = await import("../../test/support/nats.ts")
    const missing = [
      !(await postgresAvailable()) && "PostgreSQL unreachable",
      !(await natsAvailable()) && "NATS (JetStream) unreachable"
    ].filter((m): m is string => typeof m === "string")
    if (missing.length > 0) {
      if (process.env.ATRIUM_REQUIRE_SERVICES === "1") throw new Error(`${missing.join("; ")} and ATRIUM_REQUIRE_SERVICES=1`)
      return { notBuilt: `not built here (skipped): ${missing.join("; ")}` }
    }
    const { startFaultCluster } = await import("../../test/support/faultCluster.ts")
    const callers = options.levels.at(-1)!
    const steps = new Steps(progress, 7, options.warmupSec + options.durationSec + 5)
    steps.begin("starting two nodes")
    const cluster = await startFaultCluster(options.smoke ? { ACTOR_LEASE_SECONDS: String(SMOKE_LEASE_SECONDS) } : {})
    const pause = pauses(options)
    const notes: Array<string> = []
    const targets: Array<Target> = []
    const series: Array<Series> = []
    try {
      const email = `bench-faults-${Date.now().toString(36)}@example.com`
      await settled(cluster.b, "POST", "/pm/v1/auth/register", undefined, { email, password: "bench-password-1234", name: "Bench" })
      const token = (await settled(cluster.b, "POST", "/pm/v1/auth/login", undefined, { email, password: "bench-password-1234" }))
        .accessToken as string
      const workspace = await settled(cluster.b, "POST", "/pm/v1/workspaces", token, { name: "bench faults" })
      const space = await settled(cluster.b, "POST", `/pm/v1/workspaces/${workspace.id}/spaces`, token, { name: "S" })
      const list = await settled(cluster.b, "POST", `/pm/v1/spaces/${space.id}/lists`, token, { name: "L" })
      const tasks: Array<string> = []
      for (let i = 0; i < TASKS; i++)
        tasks.push((await settled(cluster.b, "POST", `/pm/v1/lists/${list.id}/tasks`, token, { name: `t${i}` })).id)
      await untilBalanced(cluster, 30_000)

      steps.begin(`${OUTAGE_MS / 1000} s NATS outage of node A`)
      {
        const calls: Array<Call> = []
        const stop = drive([cluster.a, cluster.b], callers, tasks, token, calls)
        await sleep(pause.beforeOutage)
        cluster.natsProxy.set("reset")
        await sleep(OUTAGE_MS)
        cluster.natsProxy.set("pass")
        const healed = now()
        // Long enough to see calls that wait out a full request deadline (10 s) after the reconnect (smoke: only figures).
        await sleep(pause.afterReconnect)
        await stop()
        const f = figuresSince(calls, healed)
        notes.push(describeFigures(`${OUTAGE_MS / 1000} s NATS outage of node A (callers through both nodes)`, f, "the reconnect"))
        targets.push({
          target: `recovery of a ${OUTAGE_MS / 1000} s NATS outage of one node ≤ 3 s (issue 21)`,
          figure: `${seconds(f.recoveryMs)} (${f.unavailable} calls answered 503)`,
          met: f.recoveryMs <= 3000
        })
      }
      await untilBalanced(cluster, 30_000)

      // After the outage phase: both nodes warm (JIT, activations), as they are for the windows after the faults.
      steps.begin("no fault")
      const baseline = await window(cluster, options, callers, tasks, token)
      series.unshift({ label: "no fault (both nodes serving)", role: "baseline", status: "ok", points: [baseline] })

      steps.begin("node A cut off from NATS")
      {
        const calls: Array<Call> = []
        const stop = drive([cluster.b], callers, tasks, token, calls)
        await sleep(pause.beforeFault)
        const cut = now()
        cluster.natsProxy.set("reset")
        const allOnB = await untilBHoldsAll(cluster, 40_000)
        await sleep(pause.afterHandOver)
        await stop()
        const f = figuresSince(calls, cut)
        notes.push(
          describeFigures("node A cut off from NATS (callers through B)", f, "the cut") +
            `; B held every lease ${allOnB === undefined ? "not within 40 s" : `after ${seconds(allOnB - cut)}`}`
        )
        series.push({
          label: "A cut off from NATS (B serves every shard)",
          role: "subject",
          status: "ok",
          points: [await window(cluster, options, callers, tasks, token)]
        })
        cluster.natsProxy.set("pass")
      }
      await untilBalanced(cluster, 40_000)

      steps.begin("node A killed")
      {
        const calls: Array<Call> = []
        const stop = drive([cluster.b], callers, tasks, token, calls)
        await sleep(pause.beforeFault)
        const killed = now()
        await cluster.a.kill()
        const allOnB = await untilBHoldsAll(cluster, 40_000)
        await sleep(pause.afterHandOver)
        await stop()
        const f = figuresSince(calls, killed)
        notes.push(
          describeFigures("node A killed with SIGKILL (callers through B)", f, "the kill") +
            `; B held every lease ${allOnB === undefined ? "not within 40 s" : `after ${seconds(allOnB - killed)}`}`
        )
        series.push({
          label: "A killed (B alone)",
          role: "subject",
          status: "ok",
          points: [await window(cluster, options, callers, tasks, token)]
        })
      }
      steps.end()
    } finally {
      await cluster.close()
    }
    notes.push(`load average at the end: ${loadavg()[0]!.toFixed(2)} (shared 2-core machine: other work competes for the cores)`)
    return {
      groups: [{ name: "getTask + updateTask through node B (closed loop)", unit: "req", series }],
      targets,
      notes
    }
  }
}
