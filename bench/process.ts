/**
 * Child processes of the bench: servers under test, baselines and load
 * generators. Everything the bench starts is tracked here and killed when the
 * runner exits, however it exits.
 *
 * CPU and memory are read from /proc/<pid>/stat (utime + stime) and
 * /proc/<pid>/status (VmRSS, VmHWM = peak RSS), so they are the child's own
 * figures, not the runner's.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { readFileSync, readdirSync } from "node:fs"
import { createServer } from "node:net"
import { nodeCommand } from "../tools/NodeBundle.ts"
import type { ProcessFigures } from "./Scenario.ts"

const CLOCK_TICKS = 100 // sysconf(_SC_CLK_TCK); 100 on every Linux build we target

// ---------------------------------------------------------------- /proc ---

export interface ProcSample {
  readonly atMs: number
  /** user + sys seconds since the process started. */
  readonly cpuSec: number
  /** user + sys seconds of its children that ended and were waited for (tools it ran: ffmpeg, …). */
  readonly childCpuSec: number
  readonly rssBytes: number
  readonly peakRssBytes: number
}

/** One reading of a live process, or undefined if it's gone. */
export const readProc = (pid: number): ProcSample | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Field 2 (comm) may contain spaces: fields are counted after its ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const utime = Number(fields[11])
    const stime = Number(fields[12])
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024
    return {
      atMs: performance.now(),
      cpuSec: (utime + stime) / CLOCK_TICKS,
      childCpuSec: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
      rssBytes: kb("VmRSS"),
      peakRssBytes: kb("VmHWM")
    }
  } catch {
    return undefined
  }
}

/** The whole machine's busy CPU time (all cores, all processes), from /proc/stat. */
export interface MachineSample {
  readonly atMs: number
  readonly busySec: number
}

export const readMachine = (): MachineSample | undefined => {
  try {
    // cpu  user nice system idle iowait irq softirq steal ...
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number)
    const [user, nice, system, , , irq, softirq, steal] = fields
    return { atMs: performance.now(), busySec: (user + nice + system + irq + softirq + (steal ?? 0)) / CLOCK_TICKS }
  } catch {
    return undefined
  }
}

/** Cores busy on the whole machine between two readings. */
export const machineBusyCores = (before: MachineSample | undefined, after: MachineSample | undefined): number | undefined =>
  before && after ? (after.busySec - before.busySec) / Math.max(1e-9, (after.atMs - before.atMs) / 1000) : undefined

/** CPU spent between two readings of the same process. */
export const usageBetween = (before: ProcSample, after: ProcSample, tool?: string): ProcessFigures => {
  const wallSec = Math.max(1e-9, (after.atMs - before.atMs) / 1000)
  const cpuSec = after.cpuSec - before.cpuSec
  return { cpuSec, cores: cpuSec / wallSec, peakRssBytes: after.peakRssBytes, ...(tool ? { tool } : {}) }
}

/** The pid of a running program by its name (e.g. the machine's nats-server), if there is one. */
export const findPid = (name: string): number | undefined => {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === name) return Number(entry)
    } catch {
      // raced with its exit
    }
  }
  return undefined
}

// ------------------------------------------------------------- children ---

const children = new Set<ChildProcess>()

const killAll = () => {
  for (const child of children) if (child.exitCode === null && child.pid) child.kill("SIGKILL")
}
process.on("exit", killAll)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killAll()
    process.exit(130)
  })
}

/** `--cpu-prof` is refused in NODE_OPTIONS: `BENCH_CPU_PROF=<dir>` profiles every TypeScript child into that folder. */
const cpuProfile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []

/** How the bench runs its TypeScript children: servers and baselines from their bundles (tools/NodeBundle.ts), the rest through tsx. */
export const tsNode = (file: string, args: ReadonlyArray<string> = []): [string, Array<string>] => nodeCommand(file, args, cpuProfile)

export interface Child {
  readonly process: ChildProcess
  readonly pid: number
  /** Everything it printed so far (stdout and stderr interleaved), for error messages. */
  readonly output: () => string
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>
  /** Calls `listener` for each complete stdout line. */
  readonly onLine: (listener: (line: string) => void) => void
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it's gone. */
  readonly stop: (graceMs?: number) => Promise<void>
}

export interface SpawnOptions {
  readonly cwd: string
  readonly env?: Record<string, string>
}

export const spawnChild = (command: string, args: ReadonlyArray<string>, options: SpawnOptions): Child => {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  let output = ""
  const listeners: Array<(line: string) => void> = []
  let partial = ""
  const keep = (chunk: Buffer) => {
    output += chunk.toString()
    if (output.length > 64_000) output = output.slice(-32_000)
  }
  child.stdout!.on("data", (chunk: Buffer) => {
    keep(chunk)
    partial += chunk.toString()
    const lines = partial.split("\n")
    partial = lines.pop()!
    for (const line of lines) for (const listener of listeners) listener(line)
  })
  child.stderr!.on("data", keep)
  const exited = new Promise<number | string>((resolve) => {
    child.on("error", (error) => {
      output += `\n${error.message}`
      children.delete(child)
      resolve(-1)
    })
    child.on("exit", (code, signal) => {
      children.delete(child)
      resolve(code ?? signal ?? -1)
    })
  })
  const stop = async (graceMs = 3000) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
    await exited
    clearTimeout(timer)
  }
  return {
    process: child,
    pid: child.pid ?? -1,
    output: () => output,
    exited,
    onLine: (listener) => void listeners.push(listener),
    stop
  }
}

const tail = (text: string, lines = 15) => text.trim().split("\n").slice(-lines).join("\n")

// -------------------------------------------------------------- servers ---

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

export interface Server extends Child {
  readonly port: number
  readonly url: string
  /** A reading of its CPU and memory now. */
  readonly sample: () => ProcSample
}

export interface ServerOptions extends SpawnOptions {
  readonly label: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  /** Polled until it answers 200. */
  readonly readyPath: string
  readonly timeoutMs?: number
}

/** Starts an HTTP server child on a free port (passed as PORT) and waits until `readyPath` answers 200. */
export const startHttpServer = async (options: ServerOptions): Promise<Server> => {
  const port = await freePort()
  const child = spawnChild(options.command, options.args, { cwd: options.cwd, env: { ...options.env, PORT: String(port) } })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  let exitCode: number | string | undefined
  void child.exited.then((code) => (exitCode = code))
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`${options.label} exited (${exitCode}) before it was ready:\n${tail(child.output())}`)
    }
    if (Date.now() > deadline) {
      await child.stop()
      throw new Error(`${options.label} not ready within ${options.timeoutMs ?? 60_000} ms:\n${tail(child.output())}`)
    }
    try {
      const response = await fetch(url + options.readyPath, { signal: AbortSignal.timeout(1000) })
      await response.arrayBuffer()
      if (response.status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    ...child,
    port,
    url,
    sample: () => {
      const sample = readProc(child.pid)
      if (!sample) throw new Error(`${options.label} (pid ${child.pid}) is gone:\n${tail(child.output())}`)
      return sample
    }
  }
}

/** Starts a child that prints `READY` on stdout once it serves (non-HTTP servers, e.g. NATS responders). */
export const startLineServer = async (
  label: string,
  command: string,
  args: ReadonlyArray<string>,
  options: SpawnOptions & { readonly timeoutMs?: number }
): Promise<Child & { readonly sample: () => ProcSample }> => {
  const child = spawnChild(command, args, options)
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${label} not ready within ${options.timeoutMs ?? 30_000} ms:\n${tail(child.output())}`))
      void child.stop()
    }, options.timeoutMs ?? 30_000)
    child.onLine((line) => {
      if (line.startsWith("READY")) {
        clearTimeout(timer)
        resolve()
      }
    })
    void child.exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited (${code}) before it was ready:\n${tail(child.output())}`))
    })
  })
  return {
    ...child,
    sample: () => {
      const sample = readProc(child.pid)
      if (!sample) throw new Error(`${label} (pid ${child.pid}) is gone:\n${tail(child.output())}`)
      return sample
    }
  }
}

// -------------------------------------------------------- load runners ---

export interface Completed {
  readonly code: number | string
  readonly output: string
  /** Its CPU while it ran, sampled from /proc every 100 ms (the last < 100 ms is not seen). */
  readonly usage: ProcessFigures | undefined
}

/** Runs a load generator to its end, sampling its CPU while it runs; `onLine` sees its stdout lines. */
export const runMeasured = async (
  command: string,
  args: ReadonlyArray<string>,
  options: SpawnOptions,
  tool: string,
  onLine?: (line: string) => void
): Promise<Completed> => {
  const child = spawnChild(command, args, options)
  if (onLine) child.onLine(onLine)
  const first = readProc(child.pid)
  let last = first
  const timer = setInterval(() => {
    last = readProc(child.pid) ?? last
  }, 100)
  const code = await child.exited
  clearInterval(timer)
  return { code, output: child.output(), usage: first && last && last !== first ? usageBetween(first, last, tool) : undefined }
}

export const describeExit = (what: string, completed: Completed) =>
  new Error(`${what} exited with ${completed.code}:\n${tail(completed.output)}`)
