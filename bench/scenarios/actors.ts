/**
 * actors: request-reply through the actor runtime (`ActorSystem.ask` of an
 * echo actor), in-process and over NATS, against two baselines started here:
 * a plain async method call (the floor) and a raw NATS request-reply loop.
 *
 * Every series is a closed loop run by bench/load/request-reply.ts in its own
 * process. Over NATS the replying side is another process (its CPU and RSS
 * are the "server" figures, the caller's are the load generator's) and
 * nats-server's CPU is reported as the broker's. In-process there is one
 * process: caller and callee, reported as the server.
 */
import { fileURLToPath } from "node:url"
import { Histogram } from "../load/Histogram.ts"
import type { Config, Event, Target } from "../load/request-reply.ts"
import {
  findPid,
  machineBusyCores,
  readMachine,
  readProc,
  spawnChild,
  startLineServer,
  tsNode,
  usageBetween,
  type MachineSample,
  type ProcSample
} from "../process.ts"
import { Steps } from "../progress.ts"
import { failedSeries, type Point, type ProcessFigures, type RunOptions, type Scenario, type Series } from "../Scenario.ts"
import { dropNatsState } from "../subjects/actor-wiring.ts"

/** The NATS server of the NATS series (BENCH_NATS_URL; not NATS_URL, which Atrium itself reads). */
const NATS_URL = process.env.BENCH_NATS_URL || "nats://127.0.0.1:4222"
const PAYLOAD_BYTES = 64
const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))

/** One series: what the caller calls, and the process that answers (over NATS). */
interface Plan {
  readonly label: string
  readonly role: Series["role"]
  readonly target: Target
  readonly replier?: { readonly file: string; readonly env: (config: Config) => Record<string, string> }
}

const PLANS: ReadonlyArray<Plan> = [
  { label: "async call (floor)", role: "baseline", target: "floor" },
  {
    label: "raw NATS req-reply",
    role: "baseline",
    target: "nats",
    replier: { file: "../baselines/nats-echo.ts", env: (c) => ({ NATS_URL: c.natsUrl, SUBJECT: c.subject }) }
  },
  { label: "actor, in-process", role: "subject", target: "actor-in-process" },
  {
    label: "actor, over NATS",
    role: "subject",
    target: "actor-nats",
    replier: { file: "../subjects/actor-host.ts", env: (c) => ({ NATS_URL: c.natsUrl, PREFIX: c.prefix }) }
  }
]

/** A process read around each point: the replying server, or the broker. */
interface Sampled {
  readonly tool: string
  readonly sample: () => ProcSample | undefined
}

// ------------------------------------------------------ one series run ---

/**
 * Runs the caller child through every level; the replier and the broker are
 * read between each point's `start` and `point` events.
 */
const runCaller = async (
  options: RunOptions,
  config: Config,
  sampled: { readonly server?: Sampled; readonly broker?: Sampled },
  steps: Steps,
  label: string
): Promise<{ points: Array<Point>; firstError?: string }> => {
  const [command, args] = tsNode(file("../load/request-reply.ts"), [JSON.stringify(config)])
  const child = spawnChild(command, args, { cwd: options.root })
  const points: Array<Point> = []
  let firstError: string | undefined
  let before: { server?: ProcSample; broker?: ProcSample; machine?: MachineSample } = {}
  let parseError: unknown

  const usage = (which: "server" | "broker", after: ProcSample | undefined): ProcessFigures | undefined => {
    const b = before[which]
    return b && after ? usageBetween(b, after, sampled[which]!.tool) : undefined
  }

  child.onLine((line) => {
    if (!line.startsWith("RR ")) return
    try {
      const event = JSON.parse(line.slice(3)) as Event
      if (event.event === "start") {
        steps.begin(`${label}, ${event.load} callers`)
        before = { server: sampled.server?.sample(), broker: sampled.broker?.sample(), machine: readMachine() }
      } else {
        const server = usage("server", sampled.server?.sample())
        const broker = usage("broker", sampled.broker?.sample())
        const machineBusy = machineBusyCores(before.machine, readMachine())
        steps.end()
        firstError ??= event.firstError
        // The caller's own figures: the load generator's, or the server's when the callee lives in it.
        const self: ProcessFigures = { cpuSec: event.cpuSec, cores: event.cpuSec / event.durationSec, peakRssBytes: event.peakRssBytes }
        points.push({
          load: event.load,
          durationSec: event.durationSec,
          ops: event.ops,
          errors: event.errors,
          throughput: (event.ops - event.errors) / event.durationSec,
          latency: Histogram.from(event.histogram).latency(),
          ...(sampled.server
            ? { server, loadgen: { ...self, tool: "request-reply.ts" } }
            : { server: { ...self, tool: "caller and callee, one process" } }),
          ...(broker ? { broker } : {}),
          ...(machineBusy === undefined ? {} : { machineBusyCores: machineBusy })
        })
      }
    } catch (error) {
      parseError = error
    }
  })

  const code = await child.exited
  if (parseError) throw parseError
  if (code !== 0)
    throw new Error(`request-reply (${config.target}) exited with ${code}:\n${child.output().trim().split("\n").slice(-12).join("\n")}`)
  return { points, ...(firstError ? { firstError } : {}) }
}

/** One series, start to end: its replier (if any) is started before and stopped after. */
const runPlan = async (
  plan: Plan,
  config: Config,
  options: RunOptions,
  steps: Steps,
  context: { nats: boolean; broker?: Sampled }
): Promise<Series> => {
  const overNats = plan.target === "nats" || plan.target === "actor-nats"
  if (overNats && !context.nats) return failedSeries(plan.label, plan.role, `NATS unreachable at ${config.natsUrl}`)

  let replier: Awaited<ReturnType<typeof startLineServer>> | undefined
  try {
    if (plan.replier) {
      const [command, args] = tsNode(file(plan.replier.file))
      replier = await startLineServer(plan.replier.file, command, args, { cwd: options.root, env: plan.replier.env(config) })
    }
    const sampled = replier
      ? {
          server: { tool: plan.replier!.file.split("/").at(-1)!, sample: replier.sample },
          ...(context.broker ? { broker: context.broker } : {})
        }
      : {}
    const result = await runCaller(options, config, sampled, steps, plan.label)
    return {
      label: plan.label,
      role: plan.role,
      status: "ok",
      points: result.points,
      ...(result.firstError ? { note: `errors, the first: ${result.firstError}` } : {})
    }
  } catch (error) {
    return failedSeries(plan.label, plan.role, error)
  } finally {
    await replier?.stop()
    if (plan.target === "actor-nats") await dropNatsState(config.natsUrl, config.prefix).catch(() => undefined)
  }
}

// ------------------------------------------------------------ helpers ---

const natsReachable = async (): Promise<boolean> => {
  const { connect } = await import("@nats-io/transport-node")
  try {
    await (await connect({ servers: NATS_URL, timeout: 2000, maxReconnectAttempts: 0 })).close()
    return true
  } catch {
    return false
  }
}

/** The machine's nats-server, read from /proc, if it runs here. */
const natsServer = (): Sampled | undefined => {
  const pid = findPid("nats-server")
  return pid === undefined ? undefined : { tool: "nats-server (the machine's)", sample: () => readProc(pid) }
}

// ----------------------------------------------------------- scenario ---

export const actors: Scenario = {
  name: "actors",
  subject: "request-reply through the actor runtime: ActorSystem.ask of an echo actor, in-process and over NATS",
  baselines: [
    "a plain async method call in the caller's process (the floor)",
    `a raw NATS request-reply loop against a plain subscriber that echoes (${NATS_URL})`
  ],
  levels: { sweep: [1, 8, 64], smoke: 8 },

  workload: (options) => [
    `Closed loop: N concurrent callers, each with one request in flight; N = ${options.levels.join(", ")} (headline: ${options.levels.at(-1)}).`,
    `Payload: a ${PAYLOAD_BYTES}-byte string, echoed back; the actor's handler returns its payload and changes no state; one actor per caller, in-memory ActorStore.`,
    `Each point runs ${options.durationSec}s after a ${options.warmupSec}s warm-up at the highest N, in the caller's own process (bench/load/request-reply.ts); actor asks run inside Effect, one fiber per caller.`,
    `Over NATS: nats-server at ${NATS_URL}; the replying side is a separate process (nats-echo.ts, or actor-host.ts serving every shard; the caller's node is client-only), whose CPU and peak RSS are the "server" figures.`
  ],

  // Per series: process startup (~3 s), warm-up, the points.
  estimateSec: (options) => PLANS.length * (3 + options.warmupSec + options.levels.length * options.durationSec),

  run: async (options, progress) => {
    const steps = new Steps(progress, PLANS.length * options.levels.length, options.durationSec)
    const runId = `${process.pid}-${Date.now().toString(36)}`
    const context = { nats: await natsReachable(), broker: natsServer() }
    const series: Array<Series> = []
    for (const plan of PLANS) {
      progress.update(steps.fraction(), `${plan.label}: starting`)
      const config: Config = {
        target: plan.target,
        levels: options.levels,
        durationSec: options.durationSec,
        warmupSec: options.warmupSec,
        payloadBytes: PAYLOAD_BYTES,
        natsUrl: NATS_URL,
        subject: `atrium.bench.${runId}.echo`,
        prefix: `atrium-bench-${runId}`
      }
      const result = await runPlan(plan, config, options, steps, context)
      if (result.status === "failed") progress.note(`${plan.label} failed: ${result.note?.split("\n")[0]}`)
      series.push(result)
      steps.sync(series.length * options.levels.length)
    }
    return {
      groups: [{ name: `ask/echo, ${PAYLOAD_BYTES} B payload`, unit: "call", series }],
      notes: context.broker ? [] : ["nats-server's process was not found here: no broker CPU figures"]
    }
  }
}
