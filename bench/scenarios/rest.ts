/**
 * rest: three HTTP operations through Atrium's facade (facade/main.ts, a
 * child process) against two baselines started here: the same routes behind
 * Fastify (bench/baselines/fastify-server.ts), and a bare uWS "hello" (the
 * limit of any server on this machine, bench/baselines/uws-hello.ts).
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

/** The three operations; `{id}` is the workspace created during setup. */
const OPERATIONS = [
  { key: "catalog", name: "GET /pm/v1/api-catalog", method: "GET", path: "/pm/v1/api-catalog", auth: false },
  { key: "settings", name: "GET /hub/v1/workspaces/{id}/settings (Bearer)", method: "GET", path: "/hub/v1/workspaces/{id}/settings", auth: true },
  { key: "create", name: "POST /pm/v1/workspaces (Bearer, JSON)", method: "POST", path: "/pm/v1/workspaces", auth: true, body: `{"name":"bench {n}"}` }
] as const

type OperationKey = (typeof OPERATIONS)[number]["key"]

/** A server exposing the facade's routes (Fastify or Atrium), ready to load. */
interface ApiTarget {
  readonly label: string
  readonly role: Series["role"]
  /** Why it can't run yet ("not built"), if so. */
  readonly missing?: (root: string) => string | undefined
  readonly start: (options: RunOptions) => Promise<{ server: Server; cleanup?: () => void }>
}

const TARGETS: ReadonlyArray<ApiTarget> = [
  {
    label: "Fastify",
    role: "baseline",
    start: async (options) => ({
      server: await startHttpServer({ label: "fastify", ...command(tsNode(file("../baselines/fastify-server.ts"))), cwd: options.root, readyPath: "/healthz" })
    })
  },
  {
    label: "Atrium facade",
    role: "subject",
    missing: (root) => (existsSync(join(root, "facade/main.ts")) ? undefined : "facade/main.ts not written yet"),
    start: async (options) => {
      const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-data-"))
      const server = await startHttpServer({
        label: "facade/main.ts",
        ...command(tsNode(join(options.root, "facade/main.ts"))),
        cwd: options.root,
        // Embedded mode on loopback: a fresh DATA_DIR, and no DATABASE_URL / NATS_URL inherited from the caller's shell.
        env: { HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", NATS_URL: "", DEMO: "" },
        readyPath: "/healthz",
        timeoutMs: 180_000 // migrations on a fresh DATA_DIR; slow on a busy shared machine
      }).catch((error: unknown) => {
        rmSync(dataDir, { recursive: true, force: true })
        throw error
      })
      return { server, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) }
    }
  }
]

const command = ([command, args]: [string, Array<string>]) => ({ command, args })

// ---------------------------------------------------------------- setup ---

interface Session {
  readonly token: string
  readonly workspaceId: string
  /** Response body sizes, for the workload description. */
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

/** Registers a user, logs in and creates the workspace the settings GET reads. */
const setup = async (url: string): Promise<Session> => {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const password = "bench-password-1234"
  await call(`${url}/pm/v1/auth/register`, "POST", { email, password, name: "Bench User" })
  const token = (await call(`${url}/pm/v1/auth/login`, "POST", { email, password })).json().accessToken
  if (typeof token !== "string") throw new Error("login answered no accessToken")
  const created = await call(`${url}/pm/v1/workspaces`, "POST", { name: "bench workspace" }, token)
  const workspaceId = created.json().id
  if (typeof workspaceId !== "string") throw new Error("POST /pm/v1/workspaces answered no id")
  const catalog = await call(`${url}/pm/v1/api-catalog`, "GET")
  const settings = await call(`${url}/hub/v1/workspaces/${workspaceId}/settings`, "GET", undefined, token)
  return { token, workspaceId, bytes: { catalog: catalog.text.length, settings: settings.text.length, create: created.text.length } }
}

const loadFor = (url: string, operation: (typeof OPERATIONS)[number], session: Session, connections: number, durationSec: number): HttpLoad => ({
  url: url + operation.path.replace("{id}", session.workspaceId),
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

/** One API server: start it, set up a session, sweep each operation; one series per operation. */
const measureApi = async (target: ApiTarget, options: RunOptions, steps: Steps, progress: Progress, notes: Array<string>): Promise<Map<OperationKey, Series>> => {
  const all = (series: Series) => new Map(OPERATIONS.map((o) => [o.key, series]))
  const missing = target.missing?.(options.root)
  if (missing) return all(notBuiltSeries(target.label, target.role, missing))
  const out = new Map<OperationKey, Series>()
  let started: Awaited<ReturnType<ApiTarget["start"]>> | undefined
  try {
    started = await target.start(options)
    const server = started.server
    const session = await setup(server.url)
    notes.push(`${target.label} response bodies: catalog ${session.bytes.catalog} B, settings ${session.bytes.settings} B, create ${session.bytes.create} B.`)
    for (const operation of OPERATIONS) {
      try {
        const loadAt = (connections: number, durationSec: number) => loadFor(server.url, operation, session, connections, durationSec)
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
    await started?.server.stop()
    started?.cleanup?.()
  }
}

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0]

export const rest: Scenario = {
  name: "rest",
  subject: "Atrium's HTTP facade (facade/main.ts): catalog GET, authenticated GET of one resource, create (POST)",
  baselines: [
    "the same routes and per-request work behind Fastify 5 (bench/baselines/fastify-server.ts, in-memory state)",
    "a bare uWS server answering \"Hello\" to everything: the limit (bench/baselines/uws-hello.ts)"
  ],
  levels: { sweep: [1, 8, 32, 128], smoke: 8 },

  workload: (options) => [
    `Load: ${describeLoader(options.loader)}; closed loop over keep-alive connections, one request in flight each; connections = ${options.levels.join(", ")} (headline: ${options.levels.at(-1)}).`,
    `Each point runs ${options.durationSec}s; each (server, operation) first gets ${options.warmupSec}s of unmeasured load at the highest level. One server runs at a time, on 127.0.0.1.`,
    `Setup per API server: register a user, log in (Bearer JWT), create one workspace; the settings GET reads it, the POST creates a new workspace per request ({"name":"bench <n>"}, 20-30 B).`,
    `Atrium: \`node --import tsx facade/main.ts\`, embedded (HOST=127.0.0.1, PORT, a fresh DATA_DIR, no DATABASE_URL or NATS_URL); Fastify and uWS run under the same \`node --import tsx\`.`,
    `uWS hello is measured once per level (GET /, 5 B "Hello") and shown in every operation as its limit.`,
  ],

  // Server startups (the facade's migrations take a while), then a warm-up and the points per series.
  estimateSec: (options) => 30 + (1 + TARGETS.length * OPERATIONS.length) * (options.warmupSec + options.levels.length * options.durationSec),

  run: async (options, progress) => {
    const steps = new Steps(progress, options.levels.length * (1 + TARGETS.length * OPERATIONS.length), options.durationSec)
    const notes: Array<string> = []
    progress.update(0, "uWS hello: starting")
    const hello = await measureHello(options, steps, notes)
    const measured: Array<Map<OperationKey, Series>> = []
    for (const [i, target] of TARGETS.entries()) {
      progress.update(steps.fraction(), `${target.label}: starting`)
      measured.push(await measureApi(target, options, steps, progress, notes))
      steps.sync(options.levels.length * (1 + OPERATIONS.length * (i + 1)))
    }
    return {
      groups: OPERATIONS.map((operation) => ({
        name: operation.name,
        unit: "req",
        series: [hello, ...measured.map((bySeries) => bySeries.get(operation.key)!)]
      })),
      notes
    }
  }
}
