/**
 * rest: HTTP operations through Atrium's facade (facade/main.ts, uWS, a child
 * process) against two baselines started here: the same handlers behind
 * Fastify (bench/baselines/fastify-facade.ts: Atrium's services, router and
 * pipeline on node:http + Fastify 5, so only the HTTP layer differs), and a
 * bare uWS "hello" (the limit of any server on this machine,
 * bench/baselines/uws-hello.ts).
 *
 * Both API servers read the same data: one PGlite DATA_DIR for the run, which
 * the facade opens first (migrations, then the seeding through the API: a
 * workspace, spaces, lists, members and tasks), and Fastify opens after the
 * facade has stopped (a PGlite directory belongs to one process at a time).
 * The facade is restarted after seeding, so both are measured as a fresh
 * process on the same files. The JWT signing key lives in that database, so one user serves both; each
 * server logs in afresh (tokens last 15 minutes). Writes (the create POST)
 * run last on each server, after the reads.
 *
 * One server runs at a time; the load generator is a separate process (wrk,
 * else the worker-thread loader) whose own CPU is reported beside the server's.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describeLoader, runHttpLoad, type HttpLoad } from "../load/http.ts"
import { machineBusyCores, readMachine, startHttpServer, tsNode, usageBetween, type Server } from "../process.ts"
import { Steps } from "../progress.ts"
import { failedSeries, notBuiltSeries, type Point, type Progress, type RunOptions, type Scenario, type Series } from "../Scenario.ts"

const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))

/** Words in task names: the search's `q` matches one task in WORDS.length. */
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"] as const
const SEARCH_WORD = "golf"

/**
 * The operations, reads first (the POST adds workspaces to the shared database).
 * `{id}` is the seeded workspace, `{taskId}` one of its tasks.
 */
const OPERATIONS = [
  { key: "catalog", name: "GET /pm/v1/api-catalog", method: "GET", path: "/pm/v1/api-catalog", auth: false },
  { key: "settings", name: "GET /hub/v1/workspaces/{id}/settings (Bearer)", method: "GET", path: "/hub/v1/workspaces/{id}/settings", auth: true },
  { key: "getTask", name: "GET /pm/v1/tasks/{taskId} (getTask, Bearer)", method: "GET", path: "/pm/v1/tasks/{taskId}", auth: true },
  {
    key: "searchTasks",
    name: `GET /pm/v1/lite/search/tasks?q=${SEARCH_WORD}&limit=20 (searchTasksLite, Bearer)`,
    method: "GET",
    path: `/pm/v1/lite/search/tasks?workspaceId={id}&q=${SEARCH_WORD}&limit=20`,
    auth: true
  },
  { key: "create", name: "POST /pm/v1/workspaces (Bearer, JSON)", method: "POST", path: "/pm/v1/workspaces", auth: true, body: `{"name":"bench {n}"}` }
] as const

type OperationKey = (typeof OPERATIONS)[number]["key"]

/** A server exposing the facade's routes (Fastify or Atrium) on the run's database, ready to load. */
interface ApiTarget {
  readonly label: string
  readonly role: Series["role"]
  /** Why it can't run yet ("not built"), if so. */
  readonly missing?: (root: string) => string | undefined
  readonly start: (options: RunOptions, dataDir: string) => Promise<Server>
}

/** Embedded mode on loopback: the run's DATA_DIR, and no DATABASE_URL / NATS_URL inherited from the caller's shell. */
const embedded = (dataDir: string) => ({ HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", NATS_URL: "", DEMO: "" })

/** The facade first: it migrates the fresh DATA_DIR and the seeding runs against it. */
const TARGETS: ReadonlyArray<ApiTarget> = [
  {
    label: "Atrium facade",
    role: "subject",
    missing: (root) => (existsSync(join(root, "facade/main.ts")) ? undefined : "facade/main.ts not written yet"),
    start: (options, dataDir) =>
      startHttpServer({
        label: "facade/main.ts",
        ...command(tsNode(join(options.root, "facade/main.ts"))),
        cwd: options.root,
        env: embedded(dataDir),
        readyPath: "/healthz",
        timeoutMs: 180_000 // migrations on a fresh DATA_DIR; slow on a busy shared machine
      })
  },
  {
    label: "Fastify (same handlers)",
    role: "baseline",
    start: (options, dataDir) =>
      startHttpServer({
        label: "fastify-facade",
        ...command(tsNode(file("../baselines/fastify-facade.ts"))),
        cwd: options.root,
        env: embedded(dataDir),
        readyPath: "/healthz",
        timeoutMs: 180_000
      })
  }
]

const command = ([command, args]: [string, Array<string>]) => ({ command, args })

// ---------------------------------------------------------------- setup ---

/** What the seeding leaves for every server of the run. */
interface Seeded {
  readonly email: string
  readonly password: string
  readonly workspaceId: string
  readonly taskId: string
  readonly tasks: number
  readonly seedSec: number
}

interface Session {
  readonly token: string
  readonly seeded: Seeded
  /** Response body sizes, for the notes. */
  readonly bytes: Record<OperationKey, number>
}

const call = async (url: string, method: string, body?: unknown, token?: string) => {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}: ${text.slice(0, 300)}`)
  return { text, json: () => JSON.parse(text) as Record<string, unknown> }
}

const idOf = (result: { json: () => Record<string, unknown> }, what: string) => {
  const id = result.json().id
  if (typeof id !== "string") throw new Error(`${what} answered no id`)
  return id
}

const PASSWORD = "bench-password-1234"
const uniqueEmail = (who: string) => `bench-${who}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`

const login = async (url: string, email: string) => {
  const token = (await call(`${url}/pm/v1/auth/login`, "POST", { email, password: PASSWORD })).json().accessToken
  if (typeof token !== "string") throw new Error("login answered no accessToken")
  return token
}

/** Spaces × lists per space the tasks are spread over, and the members they are assigned to. */
const SPACES = 2
const LISTS_PER_SPACE = 2
const ASSIGNEES = 3

/**
 * Through the API, as a client would: an owner, members to assign, a
 * workspace, spaces, lists, then `tasks` tasks (a few requests in flight:
 * each list is one actor, so lists take them in parallel).
 */
const seed = async (url: string, tasks: number, onProgress: (label: string) => void): Promise<Seeded> => {
  const began = performance.now()
  const email = uniqueEmail("owner")
  await call(`${url}/pm/v1/auth/register`, "POST", { email, password: PASSWORD, name: "Bench Owner" })
  const token = await login(url, email)
  const workspaceId = idOf(await call(`${url}/pm/v1/workspaces`, "POST", { name: "bench workspace" }, token), "POST /pm/v1/workspaces")
  const assignees = [email]
  for (let i = 1; i < ASSIGNEES; i++) {
    const member = uniqueEmail(`member${i}`)
    await call(`${url}/pm/v1/auth/register`, "POST", { email: member, password: PASSWORD, name: `Bench Member ${i}` })
    await call(`${url}/pm/v1/workspaces/${workspaceId}/members`, "POST", { email: member, role: "member" }, token)
    assignees.push(member)
  }
  const lists: Array<string> = []
  for (let s = 0; s < SPACES; s++) {
    const spaceId = idOf(await call(`${url}/pm/v1/workspaces/${workspaceId}/spaces`, "POST", { name: `Space ${s + 1}` }, token), "POST spaces")
    for (let l = 0; l < LISTS_PER_SPACE; l++) {
      lists.push(idOf(await call(`${url}/pm/v1/spaces/${spaceId}/lists`, "POST", { name: `List ${s + 1}.${l + 1}` }, token), "POST lists"))
    }
  }
  const taskIds: Array<string> = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < tasks; i = next++) {
      const body = {
        name: `Task ${i + 1} ${WORDS[i % WORDS.length]}`,
        description: `Seeded by the bench: task ${i + 1} of ${tasks}.`,
        priority: (["low", "normal", "high", "urgent"] as const)[i % 4],
        assigneeEmails: [assignees[i % assignees.length]!]
      }
      taskIds.push(idOf(await call(`${url}/pm/v1/lists/${lists[i % lists.length]}/tasks`, "POST", body, token), "POST tasks"))
      if (taskIds.length % 100 === 0) onProgress(`seeding: ${taskIds.length}/${tasks} tasks`)
    }
  }
  await Promise.all(Array.from({ length: lists.length * 2 }, worker))
  // A task from the middle: not the first or last row of any index.
  return { email, password: PASSWORD, workspaceId, taskId: taskIds[Math.floor(taskIds.length / 2)]!, tasks, seedSec: (performance.now() - began) / 1000 }
}

/** Logs the seeded owner in on this server and records each operation's response size. */
const session = async (url: string, seeded: Seeded): Promise<Session> => {
  const token = await login(url, seeded.email)
  const bytes = {} as Record<OperationKey, number>
  for (const operation of OPERATIONS) {
    if (operation.key === "create") continue
    bytes[operation.key] = (await call(url + pathOf(operation, seeded), "GET", undefined, operation.auth ? token : undefined)).text.length
  }
  bytes.create = (await call(`${url}/pm/v1/workspaces`, "POST", { name: "bench probe" }, token)).text.length
  return { token, seeded, bytes }
}

const pathOf = (operation: (typeof OPERATIONS)[number], seeded: Seeded) =>
  operation.path.replace("{id}", seeded.workspaceId).replace("{taskId}", seeded.taskId)

const loadFor = (url: string, operation: (typeof OPERATIONS)[number], session: Session, connections: number, durationSec: number): HttpLoad => ({
  url: url + pathOf(operation, session.seeded),
  method: operation.method,
  headers: {
    ...(operation.auth ? { Authorization: `Bearer ${session.token}` } : {}),
    ...("body" in operation ? { "Content-Type": "application/json" } : {})
  },
  ...("body" in operation ? { body: operation.body } : {}),
  connections,
  durationSec
})

// ---------------------------------------------------------- measuring ---

/** One point: the server's CPU and RSS are read around the load generator's run. */
const measure = async (server: Server, load: HttpLoad, options: RunOptions): Promise<Point> => {
  let before = server.sample()
  let machineBefore = readMachine()
  const result = await runHttpLoad(load, options.loader, options.root, () => {
    before = server.sample()
    machineBefore = readMachine()
  })
  const after = server.sample()
  const machineBusy = machineBusyCores(machineBefore, readMachine())
  const completed = result.ok + result.errors
  if (completed === 0) throw new Error(`no response at all from ${load.method} ${load.url}`)
  if (result.errors > completed / 2) throw new Error(`${result.errors} of ${completed} responses were errors (${load.method} ${new URL(load.url).pathname})`)
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

/** Warm-up at the highest level, then every level; returns the points. */
const sweep = async (server: Server, loadAt: (connections: number, durationSec: number) => HttpLoad, options: RunOptions, steps: Steps, label: string) => {
  const top = options.levels.at(-1)!
  if (options.warmupSec > 0) await runHttpLoad(loadAt(top, options.warmupSec), options.loader, options.root)
  const points: Array<Point> = []
  for (const connections of options.levels) {
    steps.begin(`${label}, ${connections} connections`)
    points.push(await measure(server, loadAt(connections, options.durationSec), options))
    steps.end()
  }
  return points
}

const errorNote = (points: ReadonlyArray<Point>) => {
  const errors = points.reduce((sum, p) => sum + p.errors, 0)
  return errors === 0 ? {} : { note: `${errors} error responses (non-2xx or socket errors) across its points` }
}

/** The limit: bare uWS hello at every level (one series, shown in every group). */
const measureHello = async (options: RunOptions, steps: Steps, notes: Array<string>): Promise<Series> => {
  const label = "uWS hello (limit)"
  let server: Server | undefined
  try {
    server = await startHttpServer({ label: "uws-hello", ...command(tsNode(file("../baselines/uws-hello.ts"))), cwd: options.root, readyPath: "/" })
    const build = /build=(.*)/.exec(server.output())?.[1]
    if (build) notes.push(`uWS hello ran on ${build}.`)
    const url = `${server.url}/`
    const points = await sweep(server, (connections, durationSec) => ({ url, method: "GET", connections, durationSec }), options, steps, "uWS hello")
    return { label, role: "baseline", status: "ok", points, ...errorNote(points) }
  } catch (error) {
    steps.abort()
    return failedSeries(label, "baseline", error)
  } finally {
    await server?.stop()
  }
}

/** What the API servers of one run share: the database directory and, once seeded, its data. */
interface Shared {
  readonly dataDir: string
  readonly tasks: number
  seeded?: Seeded
}

/** One API server: start it on the shared database, seed it if first, log in, sweep each operation; one series per operation. */
const measureApi = async (target: ApiTarget, shared: Shared, options: RunOptions, steps: Steps, progress: Progress, notes: Array<string>): Promise<Map<OperationKey, Series>> => {
  const all = (series: Series) => new Map(OPERATIONS.map((o) => [o.key, series]))
  const missing = target.missing?.(options.root)
  if (missing) return all(notBuiltSeries(target.label, target.role, missing))
  const out = new Map<OperationKey, Series>()
  let server: Server | undefined
  try {
    server = await target.start(options, shared.dataDir)
    if (shared.seeded === undefined) {
      shared.seeded = await seed(server.url, shared.tasks, (label) => progress.update(steps.fraction(), `${target.label}: ${label}`))
      // Restarted, so it is measured like the next server: a fresh process on the same files, not one
      // whose heap still holds the actors and caches the seeding warmed.
      await server.stop(15_000)
      server = undefined
      server = await target.start(options, shared.dataDir)
      notes.push(
        `Seeded through ${target.label}'s API in ${shared.seeded.seedSec.toFixed(1)} s: 1 workspace, ${SPACES} spaces × ${LISTS_PER_SPACE} lists, ` +
          `${ASSIGNEES} members, ${shared.seeded.tasks} tasks (one assignee each, one in ${WORDS.length} named "… ${SEARCH_WORD}").`
      )
    }
    const current = await session(server.url, shared.seeded)
    notes.push(`${target.label} response bodies: ${OPERATIONS.map((o) => `${o.key} ${current.bytes[o.key]} B`).join(", ")}.`)
    for (const operation of OPERATIONS) {
      try {
        const url = server.url
        const loadAt = (connections: number, durationSec: number) => loadFor(url, operation, current, connections, durationSec)
        const points = await sweep(server, loadAt, options, steps, `${target.label} ${operation.method} ${operation.key}`)
        out.set(operation.key, { label: target.label, role: target.role, status: "ok", points, ...errorNote(points) })
      } catch (error) {
        steps.abort()
        out.set(operation.key, failedSeries(target.label, target.role, error))
        progress.note(`${target.label} ${operation.key} failed: ${firstLine(error)}`)
      }
    }
    return out
  } catch (error) {
    // It didn't start, or its setup failed: every operation says why.
    progress.note(`${target.label} failed: ${firstLine(error)}`)
    return all(failedSeries(target.label, target.role, error))
  } finally {
    // Stopped before the next server opens the same PGlite directory.
    await server?.stop(15_000)
  }
}

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0]

/** Tasks seeded: enough for the search to scan a realistic workspace, few enough to seed in well under a minute. */
const tasksFor = (options: RunOptions) => (options.smoke ? 200 : 2000)

export const rest: Scenario = {
  name: "rest",
  subject: "Atrium's HTTP facade (facade/main.ts, uWS): catalog GET, authenticated GETs (settings, getTask, searchTasksLite), create (POST)",
  baselines: [
    "the same handlers behind Fastify 5 (bench/baselines/fastify-facade.ts: Atrium's services, router and pipeline on node:http; same database)",
    "a bare uWS server answering \"Hello\" to everything: the limit (bench/baselines/uws-hello.ts)"
  ],
  levels: { sweep: [1, 8, 32, 128], smoke: 8 },

  workload: (options) => [
    `Load: ${describeLoader(options.loader)}; closed loop over keep-alive connections, one request in flight each; connections = ${options.levels.join(", ")} (headline: ${options.levels.at(-1)}).`,
    `Each point runs ${options.durationSec}s; each (server, operation) first gets ${options.warmupSec}s of unmeasured load at the highest level. One server runs at a time, on 127.0.0.1.`,
    `Data: one PGlite DATA_DIR per run, seeded once through the facade's API (a workspace, ${SPACES} spaces × ${LISTS_PER_SPACE} lists, ${ASSIGNEES} members, ${tasksFor(options)} tasks); the facade restarts after seeding, then the Fastify server opens the same files after the facade stopped.`,
    `Each server logs the seeded owner in (Bearer JWT); settings reads the workspace, getTask one task from the middle, searchTasksLite \`q=${SEARCH_WORD}&limit=20\` (1 task in ${WORDS.length} matches), the POST creates a workspace per request ({"name":"bench <n>"}); writes run last.`,
    `Atrium: \`node --import tsx facade/main.ts\`, embedded (HOST=127.0.0.1, PORT, DATA_DIR, no DATABASE_URL or NATS_URL); Fastify and uWS run under the same \`node --import tsx\`.`,
    `uWS hello is measured once per level (GET /, 5 B "Hello") and shown in every operation as its limit.`,
  ],

  // Server startups (migrations), the seeding, then a warm-up and the points per series.
  estimateSec: (options) =>
    40 + tasksFor(options) / 100 + (1 + TARGETS.length * OPERATIONS.length) * (options.warmupSec + options.levels.length * options.durationSec),

  run: async (options, progress) => {
    const steps = new Steps(progress, options.levels.length * (1 + TARGETS.length * OPERATIONS.length), options.durationSec)
    const notes: Array<string> = []
    progress.update(0, "uWS hello: starting")
    const hello = await measureHello(options, steps, notes)
    const shared: Shared = { dataDir: mkdtempSync(join(tmpdir(), "atrium-bench-data-")), tasks: tasksFor(options) }
    const measured: Array<Map<OperationKey, Series>> = []
    try {
      for (const [i, target] of TARGETS.entries()) {
        progress.update(steps.fraction(), `${target.label}: starting`)
        measured.push(await measureApi(target, shared, options, steps, progress, notes))
        steps.sync(options.levels.length * (1 + OPERATIONS.length * (i + 1)))
      }
    } finally {
      rmSync(shared.dataDir, { recursive: true, force: true })
    }
    return {
      groups: OPERATIONS.map((operation) => ({
        name: operation.name,
        unit: "req",
        // Baselines before the subject: the report takes ratios against the series listed before.
        series: [hello, ...measured.map((bySeries) => bySeries.get(operation.key)!).sort((a, b) => Number(a.role === "subject") - Number(b.role === "subject"))]
      })),
      notes
    }
  }
}
