/**
 * The caller side of the `actors` scenario, run as its own process:
 * `node --import tsx bench/load/request-reply.ts '<json Config>'`.
 *
 * A closed loop: `concurrency` callers, each with one request in flight,
 * for `durationSec`, at each level of `levels` in turn (after one warm-up at
 * the highest). Targets:
 * - floor             a plain async method call in this process (the floor)
 * - nats              a raw NATS request to bench/baselines/nats-echo.ts
 * - actor-in-process  ActorSystem.ask through the in-process transport (the actor lives here)
 * - actor-nats        ActorSystem.ask through the NATS transport to bench/subjects/actor-host.ts
 *
 * Protocol on stdout, one `RR <json>` line per event (see `Event`): the parent
 * samples the server's /proc between `start` and `point`.
 */
import { fileURLToPath } from "node:url"
import { Cause, Effect, Exit, ManagedRuntime } from "effect"
import type { ActorSystemShape } from "../../runtime/ActorSystem.ts"
import { Histogram, type HistogramData } from "./Histogram.ts"

export type Target = "floor" | "nats" | "actor-in-process" | "actor-nats"

export interface Config {
  readonly target: Target
  readonly levels: ReadonlyArray<number>
  readonly durationSec: number
  readonly warmupSec: number
  readonly payloadBytes: number
  readonly natsUrl: string
  /** NATS subject of the echo responder (target nats). */
  readonly subject: string
  /** Actor runtime subject prefix (target actor-nats). */
  readonly prefix: string
}

export type Event =
  | { readonly event: "start"; readonly load: number }
  | {
      readonly event: "point"
      readonly load: number
      readonly ops: number
      readonly errors: number
      readonly durationSec: number
      readonly histogram: HistogramData
      /** This process's own user+sys CPU seconds during the point. */
      readonly cpuSec: number
      readonly peakRssBytes: number
      /** The first failure's message, when there were errors. */
      readonly firstError?: string
    }

const emit = (event: Event) => process.stdout.write(`RR ${JSON.stringify(event)}\n`)

/** One caller's loop: call until `until` (performance.now() ms), recording each call (and why it failed). */
type Caller = (index: number, until: number, record: (ns: number, failure?: () => string) => void) => Promise<void>

const promiseCaller =
  (call: (index: number) => Promise<unknown>): Caller =>
  async (index, until, record) => {
    while (performance.now() < until) {
      const t0 = process.hrtime.bigint()
      let failure: (() => string) | undefined
      try {
        await call(index)
      } catch (error) {
        failure = () => String(error instanceof Error ? error.message : error)
      }
      record(Number(process.hrtime.bigint() - t0), failure)
    }
  }

const closedLoop = async (caller: Caller, concurrency: number, durationSec: number) => {
  const histogram = new Histogram()
  let errors = 0
  let firstError: string | undefined
  const record = (ns: number, failure?: () => string) => {
    histogram.record(ns)
    if (failure) {
      errors++
      firstError ??= failure()
    }
  }
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const until = started + durationSec * 1000
  await Promise.all(Array.from({ length: concurrency }, (_, i) => caller(i, until, record)))
  const cpu = process.cpuUsage(cpuBefore)
  return {
    histogram,
    errors,
    firstError,
    durationSec: (performance.now() - started) / 1000,
    cpuSec: (cpu.user + cpu.system) / 1e6
  }
}

// -------------------------------------------------------------- targets ---

/** The floor: what the simplest `await service.method(payload)` costs. */
class EchoService {
  async echo(payload: { readonly body: string }): Promise<{ readonly body: string }> {
    return payload
  }
}

const floorCaller = (body: string): Caller => {
  const service = new EchoService()
  const payload = { body }
  return promiseCaller(() => service.echo(payload))
}

const natsCaller = async (config: Config): Promise<{ caller: Caller; close: () => Promise<void> }> => {
  const { connect } = await import("@nats-io/transport-node")
  const nc = await connect({ servers: config.natsUrl, name: "atrium-bench-requester" })
  const data = new Uint8Array(config.payloadBytes).fill(120)
  return {
    caller: promiseCaller(() => nc.request(config.subject, data, { timeout: 5000 })),
    close: () => nc.close()
  }
}

/** ask() inside Effect, one fiber per caller: the path the facade's handlers take. */
const actorCaller = async (config: Config): Promise<{ caller: Caller; close: () => Promise<void> }> => {
  const transport = config.target === "actor-nats" ? "nats" : "in-process"
  const { BenchEcho, actorSystemLayer } = await import("../subjects/actor-wiring.ts")
  const { ActorSystem } = await import("../../runtime/ActorSystem.ts")
  const layer = actorSystemLayer(transport, {
    natsUrl: config.natsUrl,
    prefix: config.prefix,
    host: transport === "in-process" // over NATS this node only sends; actor-host.ts serves
  })
  const runtime = ManagedRuntime.make(layer)
  const system: ActorSystemShape = await runtime.runPromise(Effect.service(ActorSystem))
  const payload = { body: "x".repeat(config.payloadBytes) }
  const caller: Caller = (index, until, record) =>
    runtime.runPromise(
      Effect.gen(function* () {
        const id = `bench-${index}` // one actor per caller
        while (performance.now() < until) {
          const t0 = process.hrtime.bigint()
          const exit = yield* Effect.exit(system.ask(BenchEcho, id, "echo", payload, { timeoutMillis: 5000 }))
          record(Number(process.hrtime.bigint() - t0), Exit.isSuccess(exit) ? undefined : () => Cause.pretty(exit.cause).split("\n")[0])
        }
      })
    )
  return { caller, close: () => runtime.dispose() }
}

// ----------------------------------------------------------------- main ---

const main = async (config: Config) => {
  let target: { caller: Caller; close: () => Promise<void> }
  if (config.target === "floor") target = { caller: floorCaller("x".repeat(config.payloadBytes)), close: async () => {} }
  else if (config.target === "nats") target = await natsCaller(config)
  else target = await actorCaller(config)

  if (config.warmupSec > 0) await closedLoop(target.caller, Math.max(...config.levels), config.warmupSec)
  for (const load of config.levels) {
    emit({ event: "start", load })
    const result = await closedLoop(target.caller, load, config.durationSec)
    emit({
      event: "point",
      load,
      ops: result.histogram.total,
      errors: result.errors,
      durationSec: result.durationSec,
      histogram: result.histogram.toData(),
      cpuSec: result.cpuSec,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      ...(result.firstError === undefined ? {} : { firstError: result.firstError.slice(0, 300) })
    })
  }
  // A transport that doesn't shut down cleanly must not hang the bench.
  await Promise.race([target.close(), new Promise((resolve) => setTimeout(resolve, 5000).unref())])
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = JSON.parse(process.argv[2]) as Config
  // Watchdog: no run may outlast its plan by more than a minute (a stuck transport).
  const planSec = config.warmupSec + config.levels.length * config.durationSec + 60
  setTimeout(() => {
    process.stderr.write(`request-reply: still running after ${planSec}s, giving up\n`)
    process.exit(3)
  }, planSec * 1000).unref()
  await main(config)
  process.exit(0)
}
