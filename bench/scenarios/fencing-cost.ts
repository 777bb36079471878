/**
 * fencing-cost: what the epoch check of issue 21 costs (its "Measured": getTask
 * and updateTask on PostgreSQL with and without it, same run; target ≤ 5 % on
 * updateTask, 0 % on getTask). One Atrium in this process on a fresh
 * PostgreSQL database, in-process actor transport (one shard, fenced like every
 * shard of a cluster), started twice per round: "fenced" with the product's
 * store layer (`SqlActorStore.layer`: store, shard fences, request log) and
 * "unfenced" with the same store and request log but no `ShardFences` (the
 * runtime then carries no epoch and checks none). No product flag: the bench
 * composes the layer (`server/Atrium.ts` `servicesWith`). Rounds go fenced,
 * unfenced, then unfenced, fenced (ABBA), so drift of a shared machine falls
 * on both alike; each variant's ops are summed over its rounds.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import path from "node:path"
import { Effect, Exit, Layer, Scope } from "effect"
import { Histogram } from "../load/Histogram.ts"
import { readMachine, machineBusyCores } from "../process.ts"
import { Steps } from "../progress.ts"
import type { Point, RunOptions, Scenario, Series, Target } from "../Scenario.ts"

const TASKS = 32
const ROUNDS = 4
/** A smoke run only shows both variants run and report: one round (fenced, unfenced) of the full run's four. */
const roundsOf = (options: RunOptions) => (options.smoke ? 1 : ROUNDS)
const now = () => performance.now()

type Variant = "fenced" | "unfenced"
const OPS = ["getTask", "updateTask"] as const
type Op = (typeof OPS)[number]

interface Window {
  ops: number
  errors: number
  ms: number
  readonly histogram: Histogram
}

const useBenchServices = () => {
  const pg = process.env.BENCH_PG_ADMIN_URL || process.env.BENCH_DATABASE_URL
  if (pg) process.env.ATRIUM_TEST_PG_ADMIN_URL = pg
}

/** Starts Atrium on `databaseUrl` with or without the fence; returns its origin and how to stop it. */
const startVariant = async (variant: Variant, databaseUrl: string) => {
  const { servicesWith, start } = await import("../../server/Atrium.ts")
  const { fromEnv } = await import("../../facade/Config.ts")
  const SqlActorStore = await import("../../persistence/SqlActorStore.ts")
  const SqlRequestLog = await import("../../persistence/SqlRequestLog.ts")
  const { ActorStore } = await import("../../runtime/ActorStore.ts")
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-bench-fencing-"))
  const config = { ...fromEnv({}, []), host: "127.0.0.1", port: 0, dataDir, databaseUrl }
  const store =
    variant === "fenced" ? SqlActorStore.layer : Layer.mergeAll(Layer.effect(ActorStore, SqlActorStore.make), SqlRequestLog.layer)
  const scope = Effect.runSync(Scope.make())
  const server = await Effect.runPromise(
    Effect.flatMap(Layer.buildWithScope(servicesWith(config, store), scope), (built) =>
      start(config).pipe(Effect.provideContext(built), Scope.provide(scope))
    )
  )
  return {
    origin: `http://127.0.0.1:${server.port}`,
    close: async () => {
      await Effect.runPromise(server.close)
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

const call = async (origin: string, method: string, urlPath: string, token: string | undefined, body?: unknown) => {
  const response = await fetch(origin + urlPath, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

const must = async (origin: string, method: string, urlPath: string, token: string | undefined, body?: unknown) => {
  const response = await call(origin, method, urlPath, token, body)
  if (response.status >= 300) throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

/** A user, a list and its tasks on a running variant. */
const fixture = async (origin: string, label: string) => {
  const email = `bench-fencing-${label}-${Date.now().toString(36)}@example.com`
  await must(origin, "POST", "/pm/v1/auth/register", undefined, { email, password: "correct horse battery", name: "Bench" })
  const token = (await must(origin, "POST", "/pm/v1/auth/login", undefined, { email, password: "correct horse battery" })).accessToken
  const workspace = (await must(origin, "POST", "/pm/v1/workspaces", token, { name: "Bench" })).id
  const space = (await must(origin, "POST", `/pm/v1/workspaces/${workspace}/spaces`, token, { name: "Bench" })).id
  const list = (await must(origin, "POST", `/pm/v1/spaces/${space}/lists`, token, { name: "Bench" })).id
  const tasks: Array<string> = []
  for (let i = 0; i < TASKS; i++) tasks.push((await must(origin, "POST", `/pm/v1/lists/${list}/tasks`, token, { name: `t${i}` })).id)
  return { token, tasks }
}

/** `callers` closed-loop callers doing `op` for `ms`; recorded into `window` when `record`. */
const drive = async (
  origin: string,
  token: string,
  tasks: ReadonlyArray<string>,
  op: Op,
  callers: number,
  ms: number,
  window: Window | undefined
) => {
  const started = now()
  const until = started + ms
  let n = 0
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      while (now() < until) {
        const task = tasks[(c * 7 + n++) % tasks.length]!
        const sent = now()
        let ok = false
        try {
          const response =
            op === "getTask"
              ? await call(origin, "GET", `/pm/v1/tasks/${task}`, token)
              : await call(origin, "PATCH", `/pm/v1/tasks/${task}`, token, { description: `c${c}-${n}` })
          ok = response.status >= 200 && response.status < 300
        } catch {
          ok = false
        }
        if (window !== undefined) {
          window.ops++
          if (!ok) window.errors++
          window.histogram.record((now() - sent) * 1e6)
        }
      }
    })
  )
  if (window !== undefined) window.ms += now() - started
}

export const fencingCost: Scenario = {
  name: "fencing-cost",
  subject: "getTask and updateTask on PostgreSQL with the epoch check (fenced), in-process transport",
  baselines: ["the same Atrium composed without ShardFences (no epoch carried, none checked), same run, alternating rounds"],
  levels: { sweep: [8], smoke: 2 },
  workload: (options) => [
    `One Atrium in the bench process on a fresh PostgreSQL database (in-process actor transport, one fenced shard); ${TASKS} tasks in one list.`,
    `${options.levels.at(-1)} closed-loop HTTP callers; per round and variant ${options.warmupSec} s warm-up (updateTask), then ${options.durationSec} s getTask, then ${options.durationSec} s updateTask (a unique description).`,
    `${roundsOf(options)} round(s), fenced then unfenced, then unfenced then fenced (ABBA; each variant started afresh per round); each variant's ops summed over its rounds.`,
    "The callers run in the same process as the server: both variants pay for them alike."
  ],
  estimateSec: (options) => roundsOf(options) * 2 * (15 + options.warmupSec + 2 * options.durationSec),
  run: async (options, progress) => {
    useBenchServices()
    const { postgresAvailable, createTestDatabase } = await import("../../test/support/database.ts")
    if (!(await postgresAvailable())) {
      if (process.env.ATRIUM_REQUIRE_SERVICES === "1") throw new Error("PostgreSQL unreachable and ATRIUM_REQUIRE_SERVICES=1")
      return { notBuilt: "not built here (skipped): PostgreSQL unreachable" }
    }
    const callers = options.levels.at(-1)!
    const database = await createTestDatabase()
    const rounds = roundsOf(options)
    const steps = new Steps(progress, rounds * 2, 15 + options.warmupSec + 2 * options.durationSec)
    const windows: Record<Variant, Record<Op, Window>> = {
      fenced: {
        getTask: { ops: 0, errors: 0, ms: 0, histogram: new Histogram() },
        updateTask: { ops: 0, errors: 0, ms: 0, histogram: new Histogram() }
      },
      unfenced: {
        getTask: { ops: 0, errors: 0, ms: 0, histogram: new Histogram() },
        updateTask: { ops: 0, errors: 0, ms: 0, histogram: new Histogram() }
      }
    }
    const notes: Array<string> = [`load average at the start: ${loadavg()[0]!.toFixed(2)}`]
    const machineBefore = readMachine()
    try {
      for (let round = 0; round < rounds; round++) {
        // ABBA: fenced first in even rounds, unfenced first in odd ones, so neither always runs on the warmer machine.
        for (const variant of round % 2 === 0 ? (["fenced", "unfenced"] as const) : (["unfenced", "fenced"] as const)) {
          steps.begin(`${variant}, round ${round + 1}`)
          const node = await startVariant(variant, database.url)
          try {
            const { token, tasks } = await fixture(node.origin, `${variant}${round}`)
            await drive(node.origin, token, tasks, "updateTask", callers, options.warmupSec * 1000, undefined)
            for (const op of OPS) await drive(node.origin, token, tasks, op, callers, options.durationSec * 1000, windows[variant][op])
          } finally {
            await node.close()
          }
        }
      }
    } finally {
      // Stops the last step's progress timer (each begin ends the one before it).
      steps.end()
      await database.drop()
    }
    const busy = machineBusyCores(machineBefore, readMachine())
    notes.push(`load average at the end: ${loadavg()[0]!.toFixed(2)} (shared 2-core machine)`)
    const point = (w: Window): Point => ({
      load: callers,
      durationSec: w.ms / 1000,
      ops: w.ops,
      errors: w.errors,
      throughput: w.ops / (w.ms / 1000),
      latency: w.histogram.latency(),
      ...(busy === undefined ? {} : { machineBusyCores: busy })
    })
    const series = (op: Op): ReadonlyArray<Series> => [
      { label: "fenced (epoch check)", role: "subject", status: "ok", points: [point(windows.fenced[op])] },
      { label: "unfenced (no ShardFences)", role: "baseline", status: "ok", points: [point(windows.unfenced[op])] }
    ]
    const cost = (op: Op) => 1 - windows.fenced[op].ops / windows.fenced[op].ms / (windows.unfenced[op].ops / windows.unfenced[op].ms)
    const percent = (x: number) => `${(x * 100).toFixed(1)} %`
    const targets: Array<Target> = [
      {
        target: "updateTask on PostgreSQL: the epoch check costs ≤ 5 % of throughput",
        figure: `${percent(cost("updateTask"))} (${point(windows.fenced.updateTask).throughput.toFixed(1)}/s fenced vs ${point(windows.unfenced.updateTask).throughput.toFixed(1)}/s)`,
        // getTask is the control (identical work in both variants): beyond its noise band the run cannot judge.
        met: Math.abs(cost("getTask")) > 0.03 ? undefined : cost("updateTask") <= 0.05
      },
      {
        target: "getTask on PostgreSQL: the epoch check costs nothing (reads need no check); judged within ±3 % of noise",
        figure: `${percent(cost("getTask"))} (${point(windows.fenced.getTask).throughput.toFixed(1)}/s fenced vs ${point(windows.unfenced.getTask).throughput.toFixed(1)}/s)`,
        met: Math.abs(cost("getTask")) <= 0.03
      }
    ]
    return {
      groups: OPS.map((op) => ({
        name: op === "getTask" ? "getTask (GET /pm/v1/tasks/{id})" : "updateTask (PATCH /pm/v1/tasks/{id})",
        unit: "req",
        series: series(op)
      })),
      targets,
      notes
    }
  }
}
