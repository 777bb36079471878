/**
 * The fallback HTTP load generator, for machines without wrk: a child process
 * (so its CPU is its own) whose worker threads each keep some of the
 * keep-alive connections busy in a closed loop, one request in flight per
 * connection, and record latencies in a Histogram. The parent merges them.
 *
 * As a module: `runNodeLoader(load, root)` spawns it and parses its result.
 * As a process: `node --import tsx bench/load/http-loader.ts '<json HttpLoad>'`.
 */
import { connect, type Socket } from "node:net"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads"
import { describeExit, runMeasured, tsNode } from "../process.ts"
import { Histogram, type HistogramData } from "./Histogram.ts"
import type { HttpLoad, HttpResult, RequestGenerator } from "./HttpLoad.ts"

interface WorkerResult {
  readonly ok: number
  readonly errors: number
  readonly histogram: HistogramData
}

interface LoaderResult extends WorkerResult {
  readonly durationSec: number
  readonly workers: number
  /** The whole process's user+sys CPU (all threads) during the load. */
  readonly cpuSec: number
  readonly perWorker: ReadonlyArray<{ readonly ok: number; readonly errors: number }>
}

// ----------------------------------------------------------- the parent ---

export const runNodeLoader = async (load: HttpLoad, root: string, onStart?: () => void): Promise<HttpResult> => {
  const [command, args] = tsNode(fileURLToPath(import.meta.url), [JSON.stringify(load)])
  const completed = await runMeasured(command, args, { cwd: root }, "node loader", (line) => {
    if (line === "LOADER_START") onStart?.()
  })
  const line = completed.output.split("\n").find((l) => l.startsWith("LOADER_JSON "))
  if (completed.code !== 0 || !line) throw describeExit("http-loader", completed)
  const result = JSON.parse(line.slice("LOADER_JSON ".length)) as LoaderResult
  return {
    ok: result.ok,
    errors: result.errors,
    durationSec: result.durationSec,
    perWorker: result.perWorker,
    latency: Histogram.from(result.histogram).latency(),
    // Its own figure over the load window (/proc's would include tsx's startup).
    loadgen: { cpuSec: result.cpuSec, cores: result.cpuSec / result.durationSec, tool: `node loader, ${result.workers} worker threads` }
  }
}

const workersFor = (load: HttpLoad) => Math.max(1, Math.min(availableParallelism(), load.connections))

// ------------------------------------------------------ the loader child ---

/** Workers don't inherit tsx's loader on Node 20: each registers it, then loads this file. */
const workerBootstrap = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})
  .then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}) })`

const main = async (load: HttpLoad) => {
  const count = workersFor(load)
  // Start the workers and wait until each has loaded its code, so the measured window is load only.
  const workers = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      // Connections split as evenly as possible between the workers.
      const connections = Math.floor(load.connections / count) + (i < load.connections % count ? 1 : 0)
      const worker = new Worker(workerBootstrap, { eval: true, workerData: { load, connections, worker: i, workers: count } })
      return new Promise<Worker>((resolve, reject) => {
        worker.once("message", () => resolve(worker)) // "ready"
        worker.once("error", reject)
      })
    })
  )
  process.stdout.write("LOADER_START\n")
  const cpu = process.cpuUsage()
  const started = performance.now()
  const results = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<WorkerResult>((resolve, reject) => {
          worker.once("message", resolve)
          worker.once("error", reject)
          worker.postMessage("go")
        })
    )
  )
  const durationSec = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  const histogram = Histogram.from(...results.map((r) => r.histogram)).toData()
  const ok = results.reduce((sum, r) => sum + r.ok, 0)
  const errors = results.reduce((sum, r) => sum + r.errors, 0)
  const perWorker = results.map((r) => ({ ok: r.ok, errors: r.errors }))
  const result: LoaderResult = { ok, errors, histogram, durationSec, workers: count, cpuSec: (used.user + used.system) / 1e6, perWorker }
  process.stdout.write(`LOADER_JSON ${JSON.stringify(result)}\n`)
  for (const worker of workers) void worker.terminate()
}

// ------------------------------------------------------------ a worker ---

const HEAD_END = Buffer.from("\r\n\r\n")

/** Bytes needed for the complete response at the start of `buf`, or -1 if it isn't all there. */
const responseLength = (buf: Buffer): { length: number; status: number } | undefined => {
  const headEnd = buf.indexOf(HEAD_END)
  if (headEnd < 0) return undefined
  const head = buf.toString("latin1", 0, headEnd)
  const status = Number(head.slice(9, 12))
  const bodyStart = headEnd + 4
  const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(head)
  if (contentLength) {
    const length = bodyStart + Number(contentLength[1])
    return buf.length >= length ? { length, status } : undefined
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let at = bodyStart
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at)
      if (lineEnd < 0) return undefined
      const size = parseInt(buf.toString("latin1", at, lineEnd), 16)
      if (size === 0) {
        const end = buf.indexOf(HEAD_END, lineEnd) // the last chunk, then trailers (none expected)
        return end < 0 ? undefined : { length: end + 4, status }
      }
      at = lineEnd + 2 + size + 2
      if (at > buf.length) return undefined
    }
  }
  return { length: bodyStart, status } // 204, 304: no body
}

const runWorker = async (load: HttpLoad, connections: number, worker: number, workers: number): Promise<WorkerResult> => {
  const url = new URL(load.url)
  // What follows the path in every request: protocol and headers.
  const afterPath =
    ` HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n` +
    Object.entries(load.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
  const paths = load.paths?.length ? load.paths : [`${url.pathname}${url.search}`]
  const varies = (load.body?.includes("{n}") ?? false) || paths.length > 1
  let counter = 0
  // Each worker starts at its own share of the paths, not all on the first one.
  const offset = Math.floor((worker * paths.length) / workers)
  const generated = load.generate
    ? ((await import(load.generate.module)) as { default: RequestGenerator }).default(load.generate.args, worker, workers)
    : undefined
  const request = (): Buffer => {
    const n = ++counter
    if (generated) {
      const { method, path, body = "" } = generated(n)
      const head = `${method} ${path}${afterPath}`
      return Buffer.from(
        body === ""
          ? `${head}Content-Length: 0\r\n\r\n`
          : `${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      )
    }
    const head = `${load.method} ${paths[(n + offset) % paths.length]}${afterPath}`
    const body = load.body?.replaceAll("{n}", `${worker}-${n}`) ?? ""
    return Buffer.from(
      body === "" && load.method === "GET" ? `${head}\r\n` : `${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    )
  }
  const fixed = varies || generated ? undefined : request()

  const histogram = new Histogram()
  let ok = 0
  let errors = 0
  const deadline = performance.now() + load.durationSec * 1000

  const drive = (socket: Socket) =>
    new Promise<void>((resolve) => {
      let buffered: Buffer | undefined
      let sentAt = 0n
      const send = () => {
        if (performance.now() >= deadline) {
          socket.end()
          return resolve()
        }
        sentAt = process.hrtime.bigint()
        socket.write(fixed ?? request())
      }
      socket.on("data", (chunk: Buffer) => {
        buffered = buffered ? Buffer.concat([buffered, chunk]) : chunk
        const response = responseLength(buffered)
        if (!response) return
        histogram.record(Number(process.hrtime.bigint() - sentAt))
        if (response.status >= 200 && response.status < 400) ok++
        else errors++
        buffered = response.length < buffered.length ? buffered.subarray(response.length) : undefined
        send()
      })
      socket.on("error", () => {
        errors++
        resolve()
      })
      socket.on("close", () => resolve())
      send()
    })

  await Promise.all(
    Array.from({ length: connections }, async () => {
      const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true })
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject)).then(
        () => drive(socket),
        () => void errors++
      )
    })
  )
  return { ok, errors, histogram: histogram.toData() }
}

if (!isMainThread) {
  const data = workerData as { load: HttpLoad; connections: number; worker: number; workers: number }
  parentPort!.once(
    "message",
    () => void runWorker(data.load, data.connections, data.worker, data.workers).then((result) => parentPort!.postMessage(result))
  )
  parentPort!.postMessage("ready")
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(JSON.parse(process.argv[2]) as HttpLoad)
}
