/**
 * Two Atrium nodes (`server/main.ts`, each a process of its own, real HTTP)
 * on one PostgreSQL database and one NATS prefix, for the fault tests: node
 * A reaches NATS and PostgreSQL through a `FaultProxy` each, so a test can
 * cut, stall or delay either; both processes can be paused (SIGSTOP /
 * SIGCONT) or killed (SIGKILL). Node A starts first (on a copy of the migrated
 * template: nothing to apply). `close` drains what is still running (SIGTERM, then SIGKILL
 * after a bound) and removes the database, the bucket and the data dirs.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { jsonClient, type TestAtrium } from "./atrium.ts"
import { createTestDatabase, type TestDatabase } from "./database.ts"
import { type FaultProxy, startFaultProxy } from "./FaultProxy.ts"
import { deleteBucket, natsUrl, readLeases, testPrefix } from "./nats.ts"
import { nodeCommand } from "../../tools/NodeBundle.ts"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

export interface NodeProcess {
  readonly label: string
  readonly origin: string
  readonly pid: number
  readonly request: TestAtrium["request"]
  /** Everything the process printed so far (for failure messages). */
  readonly output: () => string
  readonly alive: () => boolean
  /** SIGSTOP: the process freezes with its sockets open. */
  readonly pause: () => void
  /** SIGCONT. */
  readonly resume: () => void
  /** SIGKILL, and wait for the exit. */
  readonly kill: () => Promise<void>
  /** SIGTERM (a drain), then SIGKILL if it has not exited within `graceMs`. */
  readonly stop: (graceMs?: number) => Promise<void>
}

/** Starts `server/main.ts` in a process of its own and waits for its banner. */
export const startNodeProcess = (label: string, env: Record<string, string>, timeoutMs = 120_000): Promise<NodeProcess> =>
  new Promise((resolve, reject) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), `atrium-fault-${label}-`))
    const child: ChildProcess = spawn(...nodeCommand("server/main.ts"), {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO: "", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    let started = false
    const exited = new Promise<void>((done) =>
      child.once("exit", () => {
        rmSync(dataDir, { recursive: true, force: true })
        done()
      })
    )
    const alive = () => child.exitCode === null && child.signalCode === null
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`node ${label} did not start within ${timeoutMs} ms:\n${output.slice(-4000)}`))
    }, timeoutMs)
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.length > 200_000) output = output.slice(-100_000)
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (started || match === null) return
      started = true
      clearTimeout(timer)
      const origin = `http://127.0.0.1:${match[1]}`
      resolve({
        label,
        origin,
        pid: child.pid!,
        request: jsonClient(origin),
        output: () => output,
        alive,
        pause: () => void (alive() && child.kill("SIGSTOP")),
        resume: () => void (alive() && child.kill("SIGCONT")),
        kill: async () => {
          if (alive()) child.kill("SIGKILL")
          await exited
        },
        stop: async (graceMs = 15_000) => {
          if (!alive()) return exited
          child.kill("SIGCONT")
          child.kill("SIGTERM")
          const killer = setTimeout(() => child.kill("SIGKILL"), graceMs)
          await exited
          clearTimeout(killer)
        }
      })
    }
    child.stdout!.on("data", onOutput)
    child.stderr!.on("data", onOutput)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      if (!started) reject(new Error(`node ${label} exited early (${code ?? signal}):\n${output.slice(-4000)}`))
    })
  })

export interface FaultCluster {
  readonly database: TestDatabase
  readonly prefix: string
  /** Node A: NATS and PostgreSQL through `natsProxy` and `pgProxy` (the latest one started). */
  readonly a: NodeProcess
  /** Node B: direct connections. */
  readonly b: NodeProcess
  readonly natsProxy: FaultProxy
  readonly pgProxy: FaultProxy
  /** The node id that owns `shard` now, from the lease bucket (undefined: nobody). */
  readonly owners: () => Promise<Map<number, string>>
  /** Whether a lease owner id is node A's (node ids carry the process id). */
  readonly isA: (owner: string | undefined) => boolean
  /** Starts node A again (same proxies, same settings) after it was killed or exited. */
  readonly restartA: () => Promise<NodeProcess>
  readonly close: () => Promise<void>
}

const hostPort = (url: string, fallbackPort: number) => {
  const parsed = new URL(url)
  return { host: parsed.hostname, port: parsed.port === "" ? fallbackPort : Number(parsed.port) }
}

/** `env` goes to both nodes (e.g. SMTP_URL, webhook retry settings). */
export const startFaultCluster = async (env: Record<string, string> = {}): Promise<FaultCluster> => {
  const database = await createTestDatabase()
  const prefix = testPrefix()
  const started: Array<NodeProcess> = []
  const proxies: Array<FaultProxy> = []
  const close = async () => {
    for (const proxy of proxies) proxy.set("pass")
    await Promise.all(started.map((node) => node.stop()))
    for (const proxy of proxies) await proxy.close()
    await deleteBucket(prefix).catch(() => undefined)
    await database.drop()
  }
  try {
    const natsProxy = await startFaultProxy(hostPort(natsUrl(), 4222))
    proxies.push(natsProxy)
    const pgProxy = await startFaultProxy(hostPort(database.url, 5432))
    proxies.push(pgProxy)
    const viaProxy = new URL(database.url)
    viaProxy.hostname = "127.0.0.1"
    viaProxy.port = String(pgProxy.port)
    const shared = { NATS_PREFIX: prefix, ...env }
    const startA = async () => {
      const node = await startNodeProcess("a", {
        ...shared,
        DATABASE_URL: viaProxy.toString(),
        NATS_URL: `nats://127.0.0.1:${natsProxy.port}`
      })
      started.push(node)
      return node
    }
    let a = await startA()
    const b = await startNodeProcess("b", { ...shared, DATABASE_URL: database.url, NATS_URL: natsUrl() })
    started.push(b)
    return {
      database,
      prefix,
      get a() {
        return a
      },
      b,
      natsProxy,
      pgProxy,
      owners: () => readLeases(prefix),
      isA: (owner) => owner?.includes(`-${a.pid}-`) === true,
      restartA: async () => {
        await a.kill()
        a = await startA()
        return a
      },
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}
