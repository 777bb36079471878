/**
 * read-model-memory (issue 27, "Memory"): what reading every task once costs the embedded server in
 * memory, and whether it comes back. One fresh PGlite DATA_DIR: the structure through Atrium's API, then
 * 100,000 tasks by SQL (rest/workspace.ts). Then, one server at a time on that directory, the
 * conventional stack (Fastify + PGlite in-process) and Atrium (server/main.ts, ACTOR_IDLE_SECONDS short,
 * ACTOR_MAX_RESIDENT at its default): getTask of every task once, 32 in flight, from the runner. The
 * server's RSS (/proc) at the start, its highest reading during the reads (sampled every 100 ms), right
 * after them, and once idle actors had time to passivate (3× the idle time later). BENCH_MEMORY_BACKEND=postgres
 * runs it on a fresh PostgreSQL database instead (the rest scenario's PostgreSQL memory point, alone).
 *
 * Targets (the issue's): RSS during and after the reads ≤ 2× the conventional stack's; after
 * passivation, back within 20% of the start.
 */
import { machineBusyCores, readMachine, type Server } from "../process.ts"
import { Steps } from "../progress.ts"
import { bytes } from "../report/format.ts"
import { failedSeries, type Point, type Scenario, type Series, type Target } from "../Scenario.ts"
import {
  ATRIUM,
  type Backend,
  CONVENTIONAL,
  embeddedBackend,
  firstLine,
  postgresBackend,
  ratioTarget as throughputTarget,
  type Stack,
  TOUCH_CONCURRENCY,
  touchAll,
  touchPoint,
  withDb
} from "./rest.ts"
import { addTasks, api, login, structure, taskIds } from "./rest/workspace.ts"

/** BENCH_MEMORY_TASKS=<n>: fewer tasks than the full run's 100,000 (a preliminary run on a busy machine). */
const sizesFor = (smoke: boolean) =>
  smoke ? { tasks: 500, idleSeconds: 1 } : { tasks: Number(process.env.BENCH_MEMORY_TASKS) || 100_000, idleSeconds: 5 }
const SAMPLE_MS = 100
/** BENCH_MEMORY_BACKEND=postgres: the same run on a fresh PostgreSQL database (BENCH_DATABASE_URL) instead of PGlite. */
const onPostgres = () => process.env.BENCH_MEMORY_BACKEND === "postgres"

interface Memory {
  readonly start: number
  /** The highest RSS sampled while the reads ran. */
  readonly peak: number
  readonly afterReads: number
  readonly afterPassivation: number
  /** VmHWM: the process's peak since it started (its start-up included). */
  readonly highWater: number
}

const describe = (m: Memory, idleSeconds: number) =>
  `start ${bytes(m.start)}, peak during the reads ${bytes(m.peak)}, after them ${bytes(m.afterReads)}, ` +
  `${idleSeconds * 3} s later ${bytes(m.afterPassivation)} (VmHWM ${bytes(m.highWater)})`

/** One stack on the backend: every task read once; its point and memory. */
const measureStack = async (
  stack: Stack,
  backend: Backend,
  ids: ReadonlyArray<string>,
  token: string,
  idleSeconds: number,
  root: string
): Promise<{ readonly point: Point; readonly memory: Memory }> => {
  let server: Server | undefined
  try {
    server = await stack.start({ smoke: false, durationSec: 0, warmupSec: 0, levels: [], loader: "node", root }, backend, {
      ACTOR_IDLE_SECONDS: String(idleSeconds)
    })
    const running = server
    await api(running.url, token)("GET", `/pm/v1/tasks/${ids[0]}`)
    const before = running.sample()
    const machineBefore = readMachine()
    let peak = before.rssBytes
    const sampler = setInterval(() => {
      peak = Math.max(peak, running.sample().rssBytes)
    }, SAMPLE_MS)
    const touched = await touchAll(running.url, ids, token).finally(() => clearInterval(sampler))
    const after = running.sample()
    const machineBusy = machineBusyCores(machineBefore, readMachine())
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 3 * 1000))
    const settled = running.sample()
    return {
      point: touchPoint(touched, ids, before, after, machineBusy),
      memory: {
        start: before.rssBytes,
        peak: Math.max(peak, after.rssBytes),
        afterReads: after.rssBytes,
        afterPassivation: settled.rssBytes,
        highWater: settled.peakRssBytes
      }
    }
  } finally {
    await server?.stop(15_000)
  }
}

const rssTarget = (target: string, atrium: number | undefined, conventional: number | undefined, max: number): Target =>
  atrium === undefined || conventional === undefined
    ? { target, figure: "not measured", met: undefined }
    : {
        target,
        figure: `${(atrium / conventional).toFixed(2)}× (${bytes(atrium)} vs ${bytes(conventional)})`,
        met: atrium <= max * conventional
      }

export const readModelMemory: Scenario = {
  name: "read-model-memory",
  subject: "Atrium on embedded PGlite (server/main.ts): server RSS while and after getTask reads every one of 100,000 tasks once",
  baselines: [
    "the conventional stack on the same DATA_DIR: Fastify 5 + PGlite in-process, one statement per read (bench/baselines/conventional-stack.ts)"
  ],
  levels: { sweep: [TOUCH_CONCURRENCY], smoke: TOUCH_CONCURRENCY },

  workload: (options) => {
    const { tasks, idleSeconds } = sizesFor(options.smoke)
    return [
      `One fresh PGlite DATA_DIR: structure through Atrium's API (rest/workspace.ts), then ${tasks} tasks by SQL bulk insert.`,
      `Per stack (conventional first, then Atrium; one server at a time, as a bundle, 127.0.0.1): one getTask, then getTask of every task once, ${TOUCH_CONCURRENCY} in flight from the runner.`,
      `Atrium runs with ACTOR_IDLE_SECONDS=${idleSeconds} and ACTOR_MAX_RESIDENT at its default. RSS from /proc: at the start, highest of samples every ${SAMPLE_MS} ms during the reads, right after, and ${idleSeconds * 3} s later.`
    ]
  },

  estimateSec: (options) => {
    const { tasks, idleSeconds } = sizesFor(options.smoke)
    return 120 + tasks / 250 + 2 * idleSeconds * 3
  },

  run: async (options, progress) => {
    const { tasks, idleSeconds } = sizesFor(options.smoke)
    const steps = new Steps(progress, 2, 1)
    const notes: Array<string> = []
    const series = new Map<Stack["key"], Series>()
    const memory = new Map<Stack["key"], Memory>()
    const backend = onPostgres() ? await postgresBackend() : embeddedBackend()
    const where = backend.key === "embedded" ? "embedded" : backend.label
    try {
      progress.update(0, `${backend.label}: Atrium migrates, structure through the API`)
      let server: Server | undefined
      let token: string
      let seeded: Awaited<ReturnType<typeof structure>>
      try {
        server = await ATRIUM.start(options, backend)
        seeded = await structure(server.url)
        // Valid 15 minutes: both stacks accept Atrium's token.
        token = await login(server.url, seeded.email)
      } finally {
        await server?.stop(15_000)
      }
      progress.update(0.05, `${backend.label}: ${tasks} tasks by SQL`)
      await withDb(backend.db, (db) => addTasks(db, seeded, tasks))
      const ids = await withDb(backend.db, (db) => taskIds(db, seeded.workspaceId))
      for (const stack of [CONVENTIONAL, ATRIUM]) {
        steps.begin(`${backend.label}: ${stack.label} reading ${ids.length} tasks`)
        try {
          const measured = await measureStack(stack, backend, ids, token, idleSeconds, options.root)
          series.set(stack.key, { label: stack.label, role: stack.role, status: "ok", points: [measured.point] })
          memory.set(stack.key, measured.memory)
          notes.push(`${stack.label}: ${describe(measured.memory, idleSeconds)}.`)
          steps.end()
        } catch (error) {
          steps.abort()
          series.set(stack.key, failedSeries(stack.label, stack.role, error))
          progress.note(`${stack.label} read-model-memory failed: ${firstLine(error)}`)
        }
      }
    } catch (error) {
      progress.note(`read-model-memory failed: ${firstLine(error)}`)
      for (const stack of [CONVENTIONAL, ATRIUM])
        if (!series.has(stack.key)) series.set(stack.key, failedSeries(stack.label, stack.role, error))
    } finally {
      await backend.drop()
    }
    const atrium = memory.get("atrium")
    const conventional = memory.get("conventional")
    const pointOf = (key: Stack["key"]) => {
      const read = series.get(key)
      return read?.status === "ok" ? read.points[0] : undefined
    }
    const targets: Array<Target> = [
      // Issue 27: an actor read once must not cost more than the one statement the conventional stack runs.
      throughputTarget(
        `read-model-memory, ${where}: getTask of every task once ≥ 1× the conventional stack's throughput`,
        pointOf("atrium"),
        pointOf("conventional"),
        1,
        "×"
      ),
      rssTarget(
        `read-model-memory, ${where}: peak RSS during the reads ≤ 2× the conventional stack's`,
        atrium?.peak,
        conventional?.peak,
        2
      ),
      rssTarget(
        `read-model-memory, ${where}: RSS after the reads ≤ 2× the conventional stack's`,
        atrium?.afterReads,
        conventional?.afterReads,
        2
      ),
      atrium === undefined
        ? { target: `read-model-memory, ${where}: RSS after passivation within 20% of the start`, figure: "not measured", met: undefined }
        : {
            target: `read-model-memory, ${where}: RSS after passivation within 20% of the start`,
            figure: `${((atrium.afterPassivation / atrium.start - 1) * 100).toFixed(0)}% (${bytes(atrium.afterPassivation)} vs ${bytes(atrium.start)})`,
            met: atrium.afterPassivation <= 1.2 * atrium.start
          }
    ]
    return {
      groups: [
        {
          name: `read-model-memory: getTask of each of ${tasks} tasks once — ${backend.label}`,
          unit: "req",
          series: [CONVENTIONAL, ATRIUM].map((stack) => series.get(stack.key) ?? failedSeries(stack.label, stack.role, "did not run")),
          headlineLoad: TOUCH_CONCURRENCY
        }
      ],
      targets,
      notes
    }
  }
}
