/**
 * rest: Atrium's task operations over HTTP (server/main.ts, a child process)
 * against two baselines run in the same run on the same database:
 *
 * - the conventional stack (bench/baselines/conventional-stack.ts): the same
 *   requests written without actors, Fastify + postgres.js (or PGlite
 *   in-process), one statement per read, one short transaction per write,
 *   on Atrium's own tables;
 * - a bare uWS hello (bench/baselines/uws-hello.ts): the limit of any HTTP
 *   server on this machine.
 *
 * Each backend (PostgreSQL, then embedded PGlite) gets a fresh database:
 * Atrium migrates it and the structure is made through its API, then the
 * tasks are bulk-inserted by SQL (rest/workspace.ts). Phases, one server at a
 * time (a PGlite directory belongs to one process), Atrium first (its login
 * issues the token both stacks accept):
 *
 * 1. 2,000 tasks: getTask (one task), updateTask (PATCH one field of 8 tasks
 *    in turn, each body unique), createTask; afterwards, for each stack,
 *    every acknowledged update must be applied exactly once (the 8 tasks'
 *    versions and `task.updated` change-log rows against the 2xx count).
 * 2. searchTasksLite `q=golf&limit=20` in a second workspace made the same
 *    way with 20,000 tasks (the creates of step 1 don't size it).
 * 3. PostgreSQL only, read-model-memory: 100,000 tasks, each read once by
 *    getTask, with a short ACTOR_IDLE_SECONDS; the server's RSS before, after
 *    and once idle actors had time to passivate.
 *
 * The scenario only speaks HTTP to Atrium; the SQL it runs (seeding,
 * checks) is on the schema of persistence/migrations.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import postgres from "postgres"
import { openDb, type Db, type DbTarget } from "../baselines/conventional/Db.ts"
import { Histogram } from "../load/Histogram.ts"
import { describeLoader, runHttpLoad, type HttpLoad, type HttpResult } from "../load/http.ts"
import { machineBusyCores, type ProcSample, readMachine, startHttpServer, tsNode, usageBetween, type Server } from "../process.ts"
import { Steps } from "../progress.ts"
import { bytes, rate } from "../report/format.ts"
import {
  failedSeries,
  type Group,
  type Point,
  type Progress,
  type RunOptions,
  type Scenario,
  type Series,
  type Target
} from "../Scenario.ts"
import {
  addTasks,
  api,
  LISTS_PER_SPACE,
  login,
  MEMBERS,
  SEARCH_WORD,
  SPACES,
  structure,
  taskIds,
  updateLedger,
  WORDS,
  type Structure,
  type UpdateLedger
} from "./rest/workspace.ts"
import { seedPglite } from "../../tools/PgliteTemplate.ts"

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const command = ([command, args]: [string, Array<string>]) => ({ command, args })

/** PostgreSQL server the run creates its database on (dropped at the end). */
const ADMIN_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres"
/** The target load, and createTask's requests in flight. */
const TARGET_LOAD = 32
const CREATE_IN_FLIGHT = 20
const UPDATED_TASKS = 8
/** getTask on embedded PGlite at 32 connections when issue 8 was filed (its target: ≥ 10× this). */
const EMBEDDED_GET_TASK_BEFORE = 230
export const TOUCH_CONCURRENCY = 32

interface Sizes {
  readonly tasks: number
  readonly searchTasks: number
  readonly memoryTasks: number
  /** ACTOR_IDLE_SECONDS of the read-model-memory point; RSS is read again 3 times this after the reads. */
  readonly idleSeconds: number
}
const sizesFor = (options: RunOptions): Sizes =>
  options.smoke
    ? { tasks: 300, searchTasks: 300, memoryTasks: 500, idleSeconds: 1 }
    : { tasks: 2000, searchTasks: 20_000, memoryTasks: 100_000, idleSeconds: 5 }

// -------------------------------------------------------------- backends ---

export interface Backend {
  readonly key: "postgres" | "embedded"
  readonly label: string
  readonly db: DbTarget
  /** Environment of both servers (Atrium reads DATABASE_URL / DATA_DIR; so does the conventional stack). */
  readonly env: Record<string, string>
  readonly drop: () => Promise<void>
}

/**
 * A fresh database. A smoke run copies the migrated template the tests use (tools/PostgresTemplate.ts): Atrium
 * then finds nothing to migrate, which spares each server start on it seconds of CPU.
 */
export const postgresBackend = async (options: Pick<RunOptions, "smoke"> = { smoke: false }): Promise<Backend> => {
  const name = `atrium_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 })
  try {
    const template = options.smoke ? await (await import("../../tools/PostgresTemplate.ts")).migratedTemplate(ADMIN_URL) : undefined
    await admin.unsafe(template === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE "${template}"`)
  } catch (error) {
    throw new Error(`PostgreSQL unreachable at ${ADMIN_URL} (BENCH_DATABASE_URL): ${error instanceof Error ? error.message : error}`)
  } finally {
    await admin.end({ timeout: 5 })
  }
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-blobs-"))
  return {
    key: "postgres",
    label: "PostgreSQL",
    db: { databaseUrl: url.toString() },
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
      await sql.end({ timeout: 5 })
    }
  }
}

export const embeddedBackend = (): Backend => {
  const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-data-"))
  return {
    key: "embedded",
    label: "embedded PGlite",
    db: { dataDir },
    env: { DATABASE_URL: "", DATA_DIR: dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true })
  }
}

// --------------------------------------------------------------- stacks ---

export interface Stack {
  readonly key: "atrium" | "conventional"
  readonly label: string
  readonly role: Series["role"]
  readonly start: (options: RunOptions, backend: Backend, extra?: Record<string, string>) => Promise<Server>
}

const base = { HOST: "127.0.0.1", NATS_URL: "", DEMO: "" }

/**
 * Atrium prunes a workspace's change log to its last PM_EVENT_RETENTION events (100,000 by default); a run that
 * writes more than that into the bench workspace (updates, then creates) would prune the first updates' events
 * before the exactly-once check counts them. The conventional stack never prunes: Atrium keeps them all too.
 */
const KEEP_EVERY_EVENT = { PM_EVENT_RETENTION: "100000000" }

export const ATRIUM: Stack = {
  key: "atrium",
  label: "Atrium",
  role: "subject",
  start: async (options, backend, extra = {}) => {
    // A fresh PGlite DATA_DIR starts from the migrated template (initdb and migrations are seconds of CPU).
    if ("dataDir" in backend.db) await seedPglite(backend.db.dataDir)
    return startHttpServer({
      label: "server/main.ts",
      ...command(tsNode(join(options.root, "server/main.ts"))),
      cwd: options.root,
      env: { ...base, ...KEEP_EVERY_EVENT, ...backend.env, ...extra },
      readyPath: "/healthz",
      timeoutMs: 180_000 // migrations on a fresh database; slow on a busy shared machine
    })
  }
}

export const CONVENTIONAL: Stack = {
  key: "conventional",
  label: "conventional stack (Fastify + postgres.js / PGlite)",
  role: "baseline",
  start: (options, backend) =>
    startHttpServer({
      label: "conventional-stack",
      ...command(tsNode(file("../baselines/conventional-stack.ts"))),
      cwd: options.root,
      env: { ...base, ...backend.env },
      readyPath: "/healthz",
      timeoutMs: 60_000
    })
}

/** Atrium first: its login issues the token the conventional stack accepts too. */
const STACKS = [ATRIUM, CONVENTIONAL] as const

// ----------------------------------------------------------- operations ---

type OperationKey = "catalog" | "getTask" | "updateTask" | "createTask" | "searchTasks"

interface Fixture {
  readonly seeded: Structure
  readonly token: string
  readonly getTaskId: string
  readonly updateIds: ReadonlyArray<string>
}

interface Operation {
  readonly key: OperationKey
  readonly name: string
  readonly method: HttpLoad["method"]
  /** Paths taken in turn. */
  readonly paths: (f: Fixture) => ReadonlyArray<string>
  /** `{n}` becomes a per-request counter; `{run}` a per-load tag (so bodies never repeat within a run). */
  readonly body?: string
  readonly auth: boolean
}

const OPERATIONS: Record<OperationKey, Operation> = {
  catalog: { key: "catalog", name: "GET /pm/v1/api-catalog", method: "GET", paths: () => ["/pm/v1/api-catalog"], auth: false },
  getTask: {
    key: "getTask",
    name: "getTask: GET /pm/v1/tasks/{taskId}",
    method: "GET",
    paths: (f) => [`/pm/v1/tasks/${f.getTaskId}`],
    auth: true
  },
  updateTask: {
    key: "updateTask",
    name: `updateTask: PATCH /pm/v1/tasks/{taskId} {"description"} on ${UPDATED_TASKS} tasks`,
    method: "PATCH",
    paths: (f) => f.updateIds.map((id) => `/pm/v1/tasks/${id}`),
    body: `{"description":"bench update {run}-{n}"}`,
    auth: true
  },
  createTask: {
    key: "createTask",
    name: "createTask: POST /pm/v1/lists/{listId}/tasks",
    method: "POST",
    paths: (f) => [`/pm/v1/lists/${f.seeded.lists[0]!.id}/tasks`],
    body: `{"name":"bench task {run}-{n}"}`,
    auth: true
  },
  searchTasks: {
    key: "searchTasks",
    name: `searchTasksLite: GET /pm/v1/lite/search/tasks?q=${SEARCH_WORD}&limit=20`,
    method: "GET",
    paths: (f) => [`/pm/v1/lite/search/tasks?workspaceId=${f.seeded.workspaceId}&q=${SEARCH_WORD}&limit=20`],
    auth: true
  }
}

let runTag = 0
const loadFor = (url: string, operation: Operation, fixture: Fixture, connections: number, durationSec: number): HttpLoad => {
  const paths = operation.paths(fixture)
  const tag = (++runTag).toString(36) + Date.now().toString(36)
  return {
    url: url + paths[0],
    ...(paths.length > 1 ? { paths } : {}),
    method: operation.method,
    headers: {
      ...(operation.auth ? { Authorization: `Bearer ${fixture.token}` } : {}),
      ...(operation.body ? { "Content-Type": "application/json" } : {})
    },
    ...(operation.body ? { body: operation.body.replaceAll("{run}", tag) } : {}),
    connections,
    durationSec,
    // Embedded PGlite serves one query at a time: at 128 connections a slow request waits seconds.
    timeoutSec: 60
  }
}

/**
 * One request of the operation to each of its paths, as a check that the stack serves it and so that no point
 * meets a cold actor (a smoke run has no warm-up, and loading 8 tasks' actors can outlast its 1 s point on a loaded
 * machine); the first response's size and how many requests were made.
 */
const probe = async (
  url: string,
  operation: Operation,
  fixture: Fixture
): Promise<{ readonly bytes: number; readonly requests: number }> => {
  const paths = operation.paths(fixture)
  let bytes = 0
  for (const [index, path] of paths.entries()) {
    const response = await fetch(url + path, {
      method: operation.method,
      headers: {
        ...(operation.auth ? { authorization: `Bearer ${fixture.token}` } : {}),
        ...(operation.body ? { "content-type": "application/json" } : {})
      },
      ...(operation.body
        ? { body: operation.body.replaceAll("{run}", `probe${(++runTag).toString(36)}${Date.now().toString(36)}`).replaceAll("{n}", "0") }
        : {})
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${operation.key} answered ${response.status}: ${text.slice(0, 300)}`)
    if (index === 0) bytes = text.length
  }
  return { bytes, requests: paths.length }
}

// ---------------------------------------------------------- measuring ---

/** One point: the server's CPU and RSS are read around the load generator's run. */
export const measure = async (server: Server, load: HttpLoad, options: RunOptions, seen?: (result: HttpResult) => void): Promise<Point> => {
  let before = server.sample()
  let machineBefore = readMachine()
  const result = await runHttpLoad(load, options.loader, options.root, () => {
    before = server.sample()
    machineBefore = readMachine()
  })
  seen?.(result)
  const after = server.sample()
  const machineBusy = machineBusyCores(machineBefore, readMachine())
  const completed = result.ok + result.errors
  if (completed === 0) throw new Error(`no response at all from ${load.method} ${load.url}`)
  if (result.errors > completed / 2)
    throw new Error(`${result.errors} of ${completed} responses were errors (${load.method} ${new URL(load.url).pathname})`)
  return {
    load: load.connections,
    durationSec: result.durationSec,
    ops: completed,
    errors: result.errors,
    throughput: result.ok / result.durationSec,
    latency: result.latency,
    server: usageBetween(before, after),
    ...(result.loadgen ? { loadgen: result.loadgen } : {}),
    ...(machineBusy === undefined ? {} : { machineBusyCores: machineBusy })
  }
}

interface Swept {
  readonly points: Array<Point>
  /** 2xx responses, warm-up included. */
  readonly acknowledged: number
  /** Requests that may have been sent without their response counted: errors, and those in flight when a load ended. */
  readonly unaccounted: number
}

/**
 * Waits until the server is idle (under 10% of a core for 300 ms, at most
 * 2 minutes): requests a load generator left in flight when it stopped are
 * still being served (on PGlite, one query at a time, that takes seconds at
 * 128 connections), and the next point must not queue behind them.
 */
export const settle = async (server: Server) => {
  const deadline = performance.now() + 120_000
  let before = server.sample()
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    const now = server.sample()
    if (now.cpuSec - before.cpuSec < 0.03) return
    before = now
  }
}

/** Warm-up at the highest level, then every level; the server settles after each. */
const sweep = async (
  server: Server,
  loadAt: (connections: number, durationSec: number) => HttpLoad,
  levels: ReadonlyArray<number>,
  options: RunOptions,
  steps: Steps,
  label: string
): Promise<Swept> => {
  let acknowledged = 0
  let unaccounted = 0
  const top = levels.at(-1)!
  if (options.warmupSec > 0) {
    const warm = await runHttpLoad(loadAt(top, options.warmupSec), options.loader, options.root)
    acknowledged += warm.ok
    unaccounted += warm.errors + (options.loader === "wrk" ? top : 0)
    await settle(server)
  }
  const points: Array<Point> = []
  for (const connections of levels) {
    steps.begin(`${label}, ${connections} connections`)
    const point = await measure(server, loadAt(connections, options.durationSec), options)
    points.push(point)
    acknowledged += point.ops - point.errors
    // wrk stops with requests in flight (sent, perhaps applied, never counted); the Node loader waits for them.
    unaccounted += point.errors + (options.loader === "wrk" ? connections : 0)
    await settle(server)
    steps.end()
  }
  return { points, acknowledged, unaccounted }
}

const okSeries = (stack: Stack, points: ReadonlyArray<Point>): Series => {
  const errors = points.reduce((sum, p) => sum + p.errors, 0)
  return {
    label: stack.label,
    role: stack.role,
    status: "ok",
    points,
    ...(errors === 0 ? {} : { note: `${errors} error responses (non-2xx or socket errors) across its points` })
  }
}

export const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0]

/** The limit: bare uWS hello at every level used (one series, shown in every group). */
export const measureHello = async (
  levels: ReadonlyArray<number>,
  options: RunOptions,
  steps: Steps,
  notes: Array<string>
): Promise<Series> => {
  const label = "uWS hello (limit)"
  let server: Server | undefined
  try {
    server = await startHttpServer({
      label: "uws-hello",
      ...command(tsNode(file("../baselines/uws-hello.ts"))),
      cwd: options.root,
      readyPath: "/"
    })
    const build = /build=(.*)/.exec(server.output())?.[1]
    if (build) notes.push(`uWS hello ran on ${build}.`)
    const url = `${server.url}/`
    const { points } = await sweep(
      server,
      (connections, durationSec) => ({ url, method: "GET", connections, durationSec }),
      levels,
      options,
      steps,
      "uWS hello"
    )
    return { label, role: "baseline", status: "ok", points }
  } catch (error) {
    steps.abort()
    return failedSeries(label, "baseline", error)
  } finally {
    await server?.stop()
  }
}

// ---------------------------------------------------------------- phases ---

/** Series per (operation, stack) of one backend, and the update checks. */
interface Measured {
  readonly series: Map<string, Series>
  readonly ledgers: Map<Stack["key"], string>
  readonly exactlyOnce: Map<Stack["key"], boolean>
}

const seriesKey = (operation: OperationKey, stack: Stack["key"]) => `${operation}/${stack}`

export const withDb = async <A>(target: DbTarget, use: (db: Db) => Promise<A>): Promise<A> => {
  const db = await openDb(target, 2)
  try {
    return await use(db)
  } finally {
    await db.close()
  }
}

interface Context {
  readonly options: RunOptions
  readonly steps: Steps
  readonly progress: Progress
  readonly notes: Array<string>
  readonly levels: ReadonlyArray<number>
  readonly createLevels: ReadonlyArray<number>
}

/**
 * Runs `operations` on each stack in turn (Atrium first: its token serves
 * both); a stack that fails marks its series failed and the next one runs.
 * `started`: an Atrium already running on the backend, used (and stopped) instead of starting one.
 */
const runStacks = async (
  ctx: Context,
  backend: Backend,
  fixture: Omit<Fixture, "token">,
  operations: ReadonlyArray<OperationKey>,
  measured: Measured,
  extraAtriumOps: ReadonlyArray<OperationKey> = [],
  started?: Server
): Promise<string | undefined> => {
  let token: string | undefined
  for (const stack of STACKS) {
    const ops = stack.key === "atrium" ? [...extraAtriumOps, ...operations] : operations
    const before = operations.includes("updateTask") ? await withDb(backend.db, (db) => updateLedger(db, fixture.updateIds)) : undefined
    let server: Server | undefined
    let updates: Swept | undefined
    let probedUpdates = 0
    try {
      server = stack.key === "atrium" && started !== undefined ? started : await stack.start(ctx.options, backend)
      token ??= await login(server.url, fixture.seeded.email)
      const full: Fixture = { ...fixture, token }
      const sizes: Array<string> = []
      for (const key of ops) {
        const operation = OPERATIONS[key]
        try {
          const probed = await probe(server.url, operation, full)
          sizes.push(`${key} ${probed.bytes} B`)
          if (key === "updateTask") probedUpdates = probed.requests
          const url = server.url
          const levels = key === "createTask" ? ctx.createLevels : ctx.levels
          const swept = await sweep(
            server,
            (c, d) => loadFor(url, operation, full, c, d),
            levels,
            ctx.options,
            ctx.steps,
            `${backend.label}: ${stack.label} ${key}`
          )
          if (key === "updateTask") updates = swept
          measured.series.set(seriesKey(key, stack.key), okSeries(stack, swept.points))
        } catch (error) {
          ctx.steps.abort()
          measured.series.set(seriesKey(key, stack.key), failedSeries(stack.label, stack.role, error))
          ctx.progress.note(`${backend.label}: ${stack.label} ${key} failed: ${firstLine(error)}`)
        }
      }
      ctx.notes.push(`${backend.label}, ${stack.label}: response bodies ${sizes.join(", ")}.`)
    } catch (error) {
      ctx.progress.note(`${backend.label}: ${stack.label} failed: ${firstLine(error)}`)
      for (const key of ops)
        if (!measured.series.has(seriesKey(key, stack.key)))
          measured.series.set(seriesKey(key, stack.key), failedSeries(stack.label, stack.role, error))
    } finally {
      // Stopped before the next server opens the same database (PGlite: one process at a time).
      await server?.stop(15_000)
    }
    if (before && updates) {
      const after = await withDb(backend.db, (db) => updateLedger(db, fixture.updateIds))
      const verdict = checkUpdates(before, after, updates.acknowledged + probedUpdates, updates.unaccounted)
      measured.ledgers.set(stack.key, verdict.text)
      measured.exactlyOnce.set(stack.key, verdict.ok)
      ctx.notes.push(`${backend.label}, ${stack.label} updateTask: ${verdict.text}`)
    }
  }
  return token
}

/**
 * Every acknowledged update applied exactly once: each applied update bumped
 * one version and wrote one change-log row; no change-log description
 * repeats (each request's body is unique); and the applied count lies
 * between the acknowledged responses and those plus the requests whose
 * response was never counted (errors, and requests in flight when wrk
 * stopped).
 */
const checkUpdates = (before: UpdateLedger, after: UpdateLedger, acknowledged: number, unaccounted: number) => {
  const applied = after.versions - before.versions
  const logged = after.events - before.events
  const duplicates = after.duplicates - before.duplicates
  const ok = applied === logged && duplicates === 0 && applied >= acknowledged && applied <= acknowledged + unaccounted
  const text =
    `${acknowledged} acknowledged, ${applied} applied (version bumps), ${logged} change-log rows, ${duplicates} applied twice; ` +
    `${applied - acknowledged} applied without a counted response (at most ${unaccounted} could be: in flight when the load stopped, or errors) → ` +
    (ok ? "exactly once" : "NOT exactly once")
  return { ok, text }
}

/** The read-model-memory point: touch every task once by getTask; RSS before, after, and after idle actors passivated. */
const measureMemory = async (
  ctx: Context,
  backend: Backend,
  seeded: Structure,
  idleSeconds: number,
  measured: Measured,
  memory: Map<Stack["key"], string>,
  recentToken: string | undefined
) => {
  const ids = await withDb(backend.db, (db) => taskIds(db, seeded.workspaceId))
  // A token (valid 15 minutes) from an Atrium started for it alone (smoke: the one the phases before got, a
  // minute old at most); then the conventional stack first, as Atrium's reads may take minutes today.
  let token = ctx.options.smoke ? recentToken : undefined
  if (token === undefined) {
    let server: Server | undefined
    try {
      server = await ATRIUM.start(ctx.options, backend)
      token = await login(server.url, seeded.email)
    } finally {
      await server?.stop(15_000)
    }
  }
  for (const stack of [CONVENTIONAL, ATRIUM]) {
    let server: Server | undefined
    try {
      ctx.steps.begin(`${backend.label}: ${stack.label} touching ${ids.length} tasks`)
      server = await stack.start(ctx.options, backend, { ACTOR_IDLE_SECONDS: String(idleSeconds) })
      await api(server.url, token)("GET", `/pm/v1/tasks/${ids[0]}`)
      const before = server.sample()
      const machineBefore = readMachine()
      const touched = await touchAll(server.url, ids, token)
      const after = server.sample()
      const machineBusy = machineBusyCores(machineBefore, readMachine())
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 3 * 1000))
      const settled = server.sample()
      memory.set(
        stack.key,
        `${bytes(before.rssBytes)} before, ${bytes(after.rssBytes)} after, ${bytes(settled.rssBytes)} ${idleSeconds * 3} s later (peak ${bytes(settled.peakRssBytes)})`
      )
      const point = touchPoint(touched, ids, before, after, machineBusy)
      measured.series.set(seriesKey("getTask", stack.key), okSeries(stack, [point]))
      ctx.steps.end()
    } catch (error) {
      ctx.steps.abort()
      measured.series.set(seriesKey("getTask", stack.key), failedSeries(stack.label, stack.role, error))
      ctx.progress.note(`${backend.label}: ${stack.label} read-model-memory failed: ${firstLine(error)}`)
    } finally {
      await server?.stop(15_000)
    }
  }
}

/** getTask of every id once, TOUCH_CONCURRENCY at a time, from this process. */
export const touchAll = async (url: string, ids: ReadonlyArray<string>, token: string) => {
  const histogram = new Histogram()
  let next = 0
  let errors = 0
  const started = performance.now()
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      const sent = process.hrtime.bigint()
      const response = await fetch(`${url}/pm/v1/tasks/${ids[i]}`, { headers: { authorization: `Bearer ${token}` } })
      await response.arrayBuffer()
      histogram.record(Number(process.hrtime.bigint() - sent))
      if (response.status !== 200) errors++
    }
  }
  await Promise.all(Array.from({ length: TOUCH_CONCURRENCY }, worker))
  if (errors > ids.length / 2) throw new Error(`${errors} of ${ids.length} getTask answered an error`)
  return { histogram, errors, durationSec: (performance.now() - started) / 1000 }
}

/** The point of one `touchAll`: the server's usage between `before` and `after`, the machine's meanwhile. */
export const touchPoint = (
  touched: Awaited<ReturnType<typeof touchAll>>,
  ids: ReadonlyArray<string>,
  before: ProcSample,
  after: ProcSample,
  machineBusy: number | undefined
): Point => ({
  load: TOUCH_CONCURRENCY,
  durationSec: touched.durationSec,
  ops: ids.length,
  errors: touched.errors,
  throughput: (ids.length - touched.errors) / touched.durationSec,
  latency: touched.histogram.latency(),
  server: usageBetween(before, after),
  ...(machineBusy === undefined ? {} : { machineBusyCores: machineBusy })
})

// ------------------------------------------------------------ a backend ---

interface BackendResult {
  readonly backend: Backend["key"]
  readonly label: string
  readonly measured: Measured
  readonly memory: Map<Stack["key"], string>
}

const runBackend = async (ctx: Context, backend: Backend, sizes: Sizes): Promise<BackendResult> => {
  const measured: Measured = { series: new Map(), ledgers: new Map(), exactlyOnce: new Map() }
  const memory = new Map<Stack["key"], string>()
  const began = performance.now()
  // A smoke run on PostgreSQL keeps the server that made the structure for Atrium's operations (the tasks are
  // added by SQL beside it): one start less. A PGlite directory belongs to one process at a time.
  const keep = ctx.options.smoke && backend.key === "postgres"
  let server: Server | undefined
  let seeded: Structure
  let fixture: Omit<Fixture, "token">
  try {
    ctx.progress.update(ctx.steps.fraction(), `${backend.label}: Atrium migrates, structure through the API`)
    server = await ATRIUM.start(ctx.options, backend)
    const made = await structure(server.url)
    seeded = made
    if (!keep) {
      await server.stop(15_000)
      server = undefined
    }
    ctx.progress.update(ctx.steps.fraction(), `${backend.label}: ${sizes.tasks} tasks by SQL`)
    fixture = await withDb(backend.db, async (db) => {
      await addTasks(db, made, sizes.tasks)
      const ids = await taskIds(db, made.workspaceId)
      const middle = Math.floor(ids.length / 2)
      // Tasks from the middle: not the first or last row of any index.
      return { seeded: made, getTaskId: ids[middle]!, updateIds: ids.slice(middle + 1, middle + 1 + UPDATED_TASKS) }
    })
  } catch (error) {
    await server?.stop(15_000)
    throw error
  }
  ctx.notes.push(
    `${backend.label}: structure through Atrium's API, then ${sizes.tasks} tasks by SQL bulk insert (${((performance.now() - began) / 1000).toFixed(1)} s in all): ` +
      `1 workspace, ${SPACES} spaces × ${LISTS_PER_SPACE} lists, ${MEMBERS} members, one assignee per task, every 2nd tagged, every 3rd with a custom field value, 1 in ${WORDS.length} named "… ${SEARCH_WORD}".`
  )
  // Smoke mode searches the same tasks, sparing two server starts.
  const searchApart = sizes.searchTasks > sizes.tasks
  const first: Array<OperationKey> = ["getTask", "updateTask", "createTask", ...(searchApart ? [] : ["searchTasks" as const])]
  const token = await runStacks(ctx, backend, fixture, first, measured, backend.key === "postgres" ? ["catalog"] : [], server)

  if (searchApart) {
    // A workspace of its own, so that the search always runs over the same number of tasks: the creates above
    // add as many as each stack manages, which would otherwise size the search.
    ctx.progress.update(ctx.steps.fraction(), `${backend.label}: a workspace of ${sizes.searchTasks} tasks to search`)
    const maker = await ATRIUM.start(ctx.options, backend)
    let searched: Structure
    try {
      searched = await structure(maker.url)
    } finally {
      await maker.stop(15_000)
    }
    const added = await withDb(backend.db, (db) => addTasks(db, searched, sizes.searchTasks))
    ctx.notes.push(`${backend.label}: the search runs in a second workspace, made the same way with ${added} tasks.`)
    await runStacks(ctx, backend, { ...fixture, seeded: searched }, ["searchTasks"], measured)
  }

  if (backend.key === "postgres") {
    const memoryMeasured: Measured = { series: new Map(), ledgers: new Map(), exactlyOnce: new Map() }
    try {
      const more = await withDb(backend.db, (db) => addTasks(db, seeded, sizes.memoryTasks))
      ctx.notes.push(`${backend.label}: ${more} more tasks by SQL before read-model-memory (${sizes.memoryTasks} in the workspace).`)
      await measureMemory(ctx, backend, seeded, sizes.idleSeconds, memoryMeasured, memory, token)
    } catch (error) {
      ctx.progress.note(`${backend.label}: read-model-memory failed: ${firstLine(error)}`)
      for (const stack of STACKS) memoryMeasured.series.set(seriesKey("getTask", stack.key), failedSeries(stack.label, stack.role, error))
    }
    for (const [key, series] of memoryMeasured.series) measured.series.set(`memory:${key}`, series)
  }
  return { backend: backend.key, label: backend.label, measured, memory }
}

// ----------------------------------------------------------- the report ---

export const at = (series: Series | undefined, load: number) =>
  series?.status === "ok" ? (series.points.find((p) => p.load === load) ?? series.points.at(-1)) : undefined

export const ratioTarget = (
  target: string,
  subject: Point | undefined,
  baseline: Point | undefined,
  minimum: number,
  unit: "×" | "%"
): Target => {
  if (!subject || !baseline) return { target, figure: "not measured", met: undefined }
  const ratio = subject.throughput / baseline.throughput
  const shown = unit === "%" ? `${(ratio * 100).toFixed(1)}%` : `${ratio.toFixed(2)}×`
  return { target, figure: `${shown} (${rate(subject.throughput)}/s vs ${rate(baseline.throughput)}/s)`, met: ratio >= minimum }
}

const targetsOf = (
  results: ReadonlyArray<BackendResult>,
  hello: Series,
  levels: ReadonlyArray<number>,
  createLevels: ReadonlyArray<number>
): Array<Target> => {
  const load = levels.includes(TARGET_LOAD) ? TARGET_LOAD : levels.at(-1)!
  const createLoad = createLevels.includes(CREATE_IN_FLIGHT) ? CREATE_IN_FLIGHT : createLevels.at(-1)!
  const pg = results.find((r) => r.backend === "postgres")
  const embedded = results.find((r) => r.backend === "embedded")
  const get = (r: BackendResult | undefined, op: OperationKey, stack: Stack["key"], l = load) =>
    at(r?.measured.series.get(seriesKey(op, stack)), l)
  const helloAt = (l: number) => at(hello, l)
  const targets: Array<Target> = [
    ratioTarget(
      `getTask, PostgreSQL, ${load} conn: ≥ 2× the conventional stack`,
      get(pg, "getTask", "atrium"),
      get(pg, "getTask", "conventional"),
      2,
      "×"
    ),
    ratioTarget(`getTask, PostgreSQL, ${load} conn: ≥ 20% of the uWS hello`, get(pg, "getTask", "atrium"), helloAt(load), 0.2, "%"),
    ratioTarget(
      `updateTask (${UPDATED_TASKS} tasks), PostgreSQL, ${load} conn: ≥ 1.5× the conventional stack (issue 27)`,
      get(pg, "updateTask", "atrium"),
      get(pg, "updateTask", "conventional"),
      1.5,
      "×"
    ),
    ratioTarget(
      `updateTask (${UPDATED_TASKS} tasks), embedded PGlite, ${load} conn: ≥ 1.5× the conventional stack (issue 27)`,
      get(embedded, "updateTask", "atrium"),
      get(embedded, "updateTask", "conventional"),
      1.5,
      "×"
    )
  ]
  for (const r of results) {
    for (const stack of STACKS) {
      const text = r.measured.ledgers.get(stack.key)
      targets.push({
        target: `updateTask, ${r.label}, ${stack.label}: every acknowledged update applied exactly once`,
        figure: text ?? "not checked (its update series did not run)",
        met: r.measured.exactlyOnce.get(stack.key)
      })
    }
  }
  targets.push(
    ratioTarget(
      `createTask, PostgreSQL, ${createLoad} in flight: ≥ 1× the conventional stack`,
      get(pg, "createTask", "atrium", createLoad),
      get(pg, "createTask", "conventional", createLoad),
      1,
      "×"
    ),
    ratioTarget(
      `searchTasksLite, PostgreSQL, ${load} conn: ≥ 2× the conventional stack (issue 27)`,
      get(pg, "searchTasks", "atrium"),
      get(pg, "searchTasks", "conventional"),
      2,
      "×"
    ),
    ratioTarget(
      `searchTasksLite, PostgreSQL, ${load} conn: ≥ 2% of the uWS hello`,
      get(pg, "searchTasks", "atrium"),
      helloAt(load),
      0.02,
      "%"
    )
  )
  const embeddedGet = get(embedded, "getTask", "atrium")
  targets.push(
    embeddedGet
      ? {
          target: `getTask, embedded, ${load} conn: ≥ 10× the ${EMBEDDED_GET_TASK_BEFORE}/s measured when issue 8 was filed`,
          figure: `${(embeddedGet.throughput / EMBEDDED_GET_TASK_BEFORE).toFixed(1)}× (${rate(embeddedGet.throughput)}/s)`,
          met: embeddedGet.throughput >= 10 * EMBEDDED_GET_TASK_BEFORE
        }
      : { target: `getTask, embedded: ≥ 10× ${EMBEDDED_GET_TASK_BEFORE}/s`, figure: "not measured", met: undefined }
  )
  for (const r of results) {
    for (const [stack, text] of r.memory) {
      targets.push({
        target: `read-model-memory, ${r.label}, ${stack === "atrium" ? ATRIUM.label : CONVENTIONAL.label}: server RSS around touching every task once`,
        figure: text,
        met: undefined
      })
    }
  }
  return targets
}

/** One line per operation and backend: the figures the issue asks for side by side. */
const summaryOf = (group: Group, load: number): string | undefined => {
  const s = group.series.find((x) => x.role === "subject")
  const c = group.series.find((x) => x.label === CONVENTIONAL.label)
  const h = group.series.find((x) => x.label.startsWith("uWS hello"))
  const [sp, cp, hp] = [at(s, load), at(c, load), at(h, load)]
  if (!sp) return undefined
  const lat = (p: Point) => `p50 ${(p.latency.p50 / 1000).toFixed(1)} ms, p99 ${(p.latency.p99 / 1000).toFixed(1)} ms`
  return (
    `${group.name} at ${load}: Atrium ${rate(sp.throughput)}/s (${lat(sp)})` +
    (cp ? `, conventional ${rate(cp.throughput)}/s (${lat(cp)}), ratio ${(sp.throughput / cp.throughput).toFixed(2)}×` : "") +
    (hp ? `, uWS hello ${rate(hp.throughput)}/s, Atrium = ${((100 * sp.throughput) / hp.throughput).toFixed(1)}% of it` : "")
  )
}

const levelsOf = (options: RunOptions) => {
  const createLevels = options.smoke ? options.levels : [...new Set([...options.levels, CREATE_IN_FLIGHT])].sort((a, b) => a - b)
  return { levels: options.levels, createLevels }
}

const GROUPS: ReadonlyArray<{ readonly op: OperationKey; readonly backends: ReadonlyArray<Backend["key"]> }> = [
  { op: "catalog", backends: ["postgres"] },
  { op: "getTask", backends: ["postgres", "embedded"] },
  { op: "updateTask", backends: ["postgres", "embedded"] },
  { op: "createTask", backends: ["postgres", "embedded"] },
  { op: "searchTasks", backends: ["postgres", "embedded"] }
]

export const rest: Scenario = {
  name: "rest",
  subject:
    "Atrium's task operations over HTTP (server/main.ts): getTask, updateTask, createTask, searchTasksLite on PostgreSQL and embedded PGlite; catalog GET; RSS after reading 100,000 tasks",
  baselines: [
    "the conventional stack: the same requests without actors, Fastify 5 + postgres.js (embedded: PGlite in-process), one statement per read and one transaction per write on Atrium's tables, same database (bench/baselines/conventional-stack.ts)",
    'a bare uWS server answering "Hello" to everything: the limit (bench/baselines/uws-hello.ts)'
  ],
  levels: { sweep: [1, 32, 128], smoke: 8 },

  workload: (options) => {
    const sizes = sizesFor(options)
    const { levels, createLevels } = levelsOf(options)
    return [
      `Load: ${describeLoader(options.loader)}; closed loop over keep-alive connections, one request in flight each; connections = ${levels.join(", ")} (createTask: ${createLevels.join(", ")}); ratios and targets at ${TARGET_LOAD} (createTask ${CREATE_IN_FLIGHT}) when measured.`,
      `Each point runs ${options.durationSec}s; each (stack, operation) first gets ${options.warmupSec}s of unmeasured load at its highest level. One server runs at a time, on 127.0.0.1.`,
      `Data per backend (a fresh PostgreSQL database, then a fresh PGlite DATA_DIR): structure through Atrium's API (1 workspace, ${SPACES} spaces × ${LISTS_PER_SPACE} lists, ${MEMBERS} members, a tag and a number field per space), tasks by SQL bulk insert: ${sizes.tasks} for getTask/updateTask/createTask, ${sizes.searchTasks} for the search, ${sizes.memoryTasks} for read-model-memory (PostgreSQL only).`,
      `getTask reads one task from the middle; updateTask PATCHes {"description": <unique per request>} on ${UPDATED_TASKS} tasks of the workspace in turn; createTask POSTs {"name"} to one list; searchTasksLite \`q=${SEARCH_WORD}&limit=20\` (1 task in ${WORDS.length} matches).`,
      `read-model-memory: Atrium with ACTOR_IDLE_SECONDS=${sizes.idleSeconds}, every task read once by getTask (${TOUCH_CONCURRENCY} in flight, from the runner); RSS before, after, and ${sizes.idleSeconds * 3} s later. The conventional stack is read the same way.`,
      `Atrium: server/main.ts (HOST=127.0.0.1, DATABASE_URL or DATA_DIR, no NATS_URL, PM_EVENT_RETENTION=${KEEP_EVERY_EVENT.PM_EVENT_RETENTION}: the exactly-once check counts every update's change-log row, and the conventional stack keeps them all too); it, the conventional stack and uWS each run from an esbuild bundle of their source (tools/NodeBundle.ts), a fresh PGlite DATA_DIR starting from the migrated template. The uWS hello is measured once per level (GET /, 5 B).`
    ]
  },

  estimateSec: (options) => {
    const sizes = sizesFor(options)
    const { levels, createLevels } = levelsOf(options)
    const series = (n: number) => options.warmupSec + n * options.durationSec
    const perBackend = 2 * (series(levels.length) * 3 + series(createLevels.length))
    return 90 + series(createLevels.length) + 2 * perBackend + series(levels.length) + sizes.memoryTasks / 500 + 2 * sizes.idleSeconds * 3
  },

  run: async (options, progress) => {
    const { levels, createLevels } = levelsOf(options)
    const sizes = sizesFor(options)
    const perBackend = 2 * (3 * levels.length + createLevels.length)
    const steps = new Steps(progress, createLevels.length + levels.length + 2 * perBackend + 2, options.durationSec)
    const notes: Array<string> = []
    const ctx: Context = { options, steps, progress, notes, levels, createLevels }
    progress.update(0, "uWS hello")
    const hello = await measureHello(createLevels, options, steps, notes)

    const results: Array<BackendResult> = []
    const failures = new Map<Backend["key"], unknown>()
    for (const [key, make] of [
      ["postgres", () => postgresBackend(options)],
      ["embedded", async () => embeddedBackend()]
    ] as const) {
      let backend: Backend | undefined
      try {
        backend = await make()
        results.push(await runBackend(ctx, backend, sizes))
      } catch (error) {
        failures.set(key, error)
        progress.note(`${backend?.label ?? key} failed: ${firstLine(error)}`)
      } finally {
        await backend?.drop()
      }
    }

    const groups: Array<Group> = []
    for (const { op, backends } of GROUPS) {
      for (const key of backends) {
        const label = key === "postgres" ? "PostgreSQL" : "embedded PGlite"
        const result = results.find((r) => r.backend === key)
        const stacks = op === "catalog" ? [ATRIUM] : [CONVENTIONAL, ATRIUM]
        const series = stacks.map(
          (stack) =>
            result?.measured.series.get(seriesKey(op, stack.key)) ??
            failedSeries(stack.label, stack.role, failures.get(key) ?? "did not run")
        )
        groups.push({
          name: `${OPERATIONS[op].name} — ${label}`,
          unit: "req",
          series: [hello, ...series],
          headlineLoad:
            op === "createTask"
              ? createLevels.includes(CREATE_IN_FLIGHT)
                ? CREATE_IN_FLIGHT
                : createLevels.at(-1)!
              : levels.includes(TARGET_LOAD)
                ? TARGET_LOAD
                : levels.at(-1)!
        })
      }
    }
    const pg = results.find((r) => r.backend === "postgres")
    groups.push({
      name: `read-model-memory: getTask of each of ${sizes.memoryTasks} tasks once — PostgreSQL`,
      unit: "req",
      series: [CONVENTIONAL, ATRIUM].map(
        (stack) =>
          pg?.measured.series.get(`memory:${seriesKey("getTask", stack.key)}`) ??
          failedSeries(stack.label, stack.role, failures.get("postgres") ?? "did not run")
      ),
      headlineLoad: TOUCH_CONCURRENCY
    })
    for (const group of groups) {
      const line = summaryOf(group, group.headlineLoad!)
      if (line) notes.push(line)
    }
    return { groups, targets: targetsOf(results, hello, levels, createLevels), notes }
  }
}
