/**
 * webhooks (issue 16): task changes in a workspace with 3 webhook endpoints
 * subscribed to `task.updated`, all three local receivers in the runner
 * (node:http) — one of them answering 503 to every 5th request (20%).
 * Atrium (server/main.ts on a fresh PostgreSQL database) delivers through its
 * outbox; the runner measures deliveries per second (first change to last
 * delivery) and the change→delivery latency (the envelope's `timestamp`, the
 * change's time in the log, to the receiver's clock: same machine), and
 * checks each receiver got every event exactly once by `webhook-id`.
 *
 * The floor: a plain loop in the runner POSTing the same payloads with
 * `fetch` to a receiver that always answers 204, as many in flight.
 */
import { createServer, type Server as HttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Histogram } from "../load/Histogram.ts"
import type { Server } from "../process.ts"
import { usageBetween } from "../process.ts"
import { failedSeries, type Point, type RunOptions, type Scenario, type Series, type Target } from "../Scenario.ts"
import { ATRIUM, type Backend, firstLine, postgresBackend } from "./rest.ts"
import { type TaskFixture, updateTasks, workspaceWithTasks } from "./rest/tasks.ts"
import { api } from "./rest/workspace.ts"

const ENDPOINTS = 3
const TASKS = 8
const changeCount = (options: RunOptions) => (options.smoke ? 200 : 10_000)
/** Retries are shortened so the failing receiver's events arrive within the run (the default base is 1 s, cap 1 h). */
const ATRIUM_ENV = { ATRIUM_ALLOW_PRIVATE_URLS: "1", PM_WEBHOOK_RETRY_BASE_MS: "50", PM_WEBHOOK_RETRY_CAP_MS: "1000" }

/** A local webhook receiver: what arrived, once per `webhook-id`. */
class Receiver {
  readonly ids = new Set<string>()
  readonly bodies: Array<string> = []
  readonly latency = new Histogram()
  duplicates = 0
  refused = 0
  requests = 0
  lastAt = 0
  private server: HttpServer | undefined
  url = ""

  /** `failEvery`: answer 503 to every n-th request (0: never). */
  constructor(private readonly failEvery: number) {}

  async start() {
    this.server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        this.requests++
        if (this.failEvery > 0 && this.requests % this.failEvery === 0) {
          this.refused++
          response.writeHead(503).end()
          return
        }
        const now = Date.now()
        const body = Buffer.concat(chunks).toString("utf8")
        const id = String(request.headers["webhook-id"] ?? "")
        if (this.ids.has(id)) this.duplicates++
        else {
          this.ids.add(id)
          this.bodies.push(body)
          const at = Date.parse((JSON.parse(body) as { timestamp?: string }).timestamp ?? "")
          if (Number.isFinite(at)) this.latency.record(Math.max(1, now - at) * 1e6)
        }
        this.lastAt = now
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`
  }

  stop() {
    this.server?.closeAllConnections()
    return new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}

const waitFor = async (done: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

/** The floor: the same payloads POSTed by a plain loop, `inFlight` at a time. */
const plainLoop = async (bodies: ReadonlyArray<string>, inFlight: number): Promise<Point> => {
  const receiver = new Receiver(0)
  await receiver.start()
  try {
    const histogram = new Histogram()
    let next = 0
    let errors = 0
    const began = performance.now()
    const worker = async () => {
      for (let n = next++; n < bodies.length; n = next++) {
        const sent = process.hrtime.bigint()
        const response = await fetch(receiver.url, {
          method: "POST",
          headers: { "content-type": "application/json", "webhook-id": `floor_${n}` },
          body: bodies[n]
        })
        await response.arrayBuffer()
        histogram.record(Number(process.hrtime.bigint() - sent))
        if (response.status >= 300) errors++
      }
    }
    await Promise.all(Array.from({ length: inFlight }, worker))
    const durationSec = (performance.now() - began) / 1000
    return {
      load: inFlight,
      durationSec,
      ops: bodies.length,
      errors,
      throughput: (bodies.length - errors) / durationSec,
      latency: histogram.latency()
    }
  } finally {
    await receiver.stop()
  }
}

interface Delivered {
  readonly point: Point
  readonly receivers: ReadonlyArray<Receiver>
  readonly changes: number
  readonly writeErrors: number
  readonly errorKinds: Readonly<Record<string, number>>
}

const deliver = async (options: RunOptions, server: Server, fixture: TaskFixture, inFlight: number): Promise<Delivered> => {
  const receivers = Array.from({ length: ENDPOINTS }, (_, i) => new Receiver(i === ENDPOINTS - 1 ? 5 : 0))
  await Promise.all(receivers.map((r) => r.start()))
  try {
    const as = api(server.url, fixture.token)
    for (const [i, receiver] of receivers.entries())
      await as("POST", `/pm/v1/workspaces/${fixture.seeded.workspaceId}/webhooks`, {
        url: receiver.url,
        description: `bench receiver ${i + 1}`,
        eventTypes: ["task.updated"]
      })
    const count = changeCount(options)
    const before = server.sample()
    const writes = await updateTasks(server.url, fixture, count, inFlight, Date.now().toString(36))
    await waitFor(() => receivers.every((r) => r.ids.size >= writes.ok), options.smoke ? 60_000 : 600_000)
    const after = server.sample()
    const delivered = receivers.reduce((sum, r) => sum + r.ids.size, 0)
    const durationSec = Math.max(...receivers.map((r) => r.lastAt - writes.startedAt)) / 1000
    return {
      point: {
        load: inFlight,
        durationSec,
        ops: delivered,
        errors: ENDPOINTS * writes.ok - delivered,
        throughput: delivered / durationSec,
        latency: Histogram.from(...receivers.map((r) => r.latency.toData())).latency(),
        server: usageBetween(before, after)
      },
      receivers,
      changes: writes.ok,
      writeErrors: writes.errors,
      errorKinds: writes.errorKinds
    }
  } finally {
    await Promise.all(receivers.map((r) => r.stop()))
  }
}

const SUBJECT = "Atrium webhooks (outbox → 3 endpoints, 1 failing 20%)"
const FLOOR = "plain fetch loop (same payloads)"

export const webhooks: Scenario = {
  name: "webhooks",
  subject:
    "Webhook delivery of task changes to 3 subscribed endpoints (one failing 20% of requests): delivered/s, change→delivery latency, exactly once by webhook-id",
  baselines: ["the floor: a plain loop in the runner POSTing the same payloads with fetch to a receiver answering 204"],
  levels: { sweep: [32], smoke: 8 },
  workload: (options) => [
    `${changeCount(options)} task updates (PATCH description on ${TASKS} tasks in turn, ${options.levels.at(-1)} in flight, from the runner) on a fresh PostgreSQL database; 3 endpoints subscribed to task.updated, receivers in the runner, the third answering 503 to every 5th request.`,
    `Atrium runs with ${Object.entries(ATRIUM_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(", ")} (retries shortened so the run ends); delivered/s is from the first change to the last delivery.`,
    "Latency: the envelope's timestamp (the change's time, ms) to its arrival at the receiver; the floor's is each POST's round trip."
  ],
  estimateSec: (options) => 40 + changeCount(options) / 100,
  run: async (options, progress) => {
    const inFlight = options.levels.at(-1)!
    let backend: Backend | undefined
    let server: Server | undefined
    let subject: Series
    let floor: Series
    const targets: Array<Target> = []
    const notes: Array<string> = []
    try {
      backend = await postgresBackend(options)
      progress.update(0.1, "Atrium migrates, workspace through the API")
      server = await ATRIUM.start(options, backend, ATRIUM_ENV)
      const fixture = await workspaceWithTasks(server.url, TASKS)
      progress.update(0.3, "task changes and their deliveries")
      const delivered = await deliver(options, server, fixture, inFlight)
      subject = { label: SUBJECT, role: "subject", status: "ok", points: [delivered.point] }
      progress.update(0.8, "the plain fetch loop")
      const bodies = delivered.receivers.flatMap((r) => r.bodies)
      const floorPoint = await plainLoop(bodies, inFlight)
      floor = { label: FLOOR, role: "baseline", status: "ok", points: [floorPoint] }
      const healthy = Histogram.from(...delivered.receivers.slice(0, -1).map((r) => r.latency.toData())).latency()
      notes.push(
        `${delivered.changes} changes acknowledged (${delivered.writeErrors} write errors${
          delivered.writeErrors > 0
            ? `: ${Object.entries(delivered.errorKinds)
                .map(([kind, n]) => `${n}× ${kind}`)
                .join(", ")}`
            : ""
        }); ${bodies.length} deliveries.`,
        `The latency figures include the failing receiver's retried events; the two healthy receivers alone: p50 ${(healthy.p50 / 1000).toFixed(1)} ms, p99 ${(healthy.p99 / 1000).toFixed(1)} ms.`
      )
      // A write that failed may still have committed (its answer lost): its event is due too, at every receiver.
      const events = Math.max(...delivered.receivers.map((r) => r.ids.size))
      for (const [i, r] of delivered.receivers.entries()) {
        targets.push({
          target: `receiver ${i + 1}${i === ENDPOINTS - 1 ? " (fails 20%)" : ""}: every event exactly once by webhook-id`,
          figure: `${r.ids.size} events (${delivered.changes} acknowledged changes), ${r.duplicates} duplicates, ${r.refused} requests refused by it`,
          met: r.ids.size === events && r.ids.size >= delivered.changes && r.duplicates === 0
        })
      }
      const p = delivered.point
      targets.push({
        target: "delivered/s against the plain fetch loop (the floor; the issue sets no ratio)",
        figure: `${p.throughput.toFixed(0)}/s vs ${floorPoint.throughput.toFixed(0)}/s (${((100 * p.throughput) / floorPoint.throughput).toFixed(1)}%); p99 change→delivery ${(p.latency.p99 / 1000).toFixed(1)} ms`,
        met: undefined
      })
    } catch (error) {
      progress.note(`webhooks: ${firstLine(error)}`)
      subject = failedSeries(SUBJECT, "subject", error)
      floor = failedSeries(FLOOR, "baseline", error)
    } finally {
      await server?.stop(15_000)
      await backend?.drop()
    }
    return { groups: [{ name: `task.updated → 3 webhook endpoints`, unit: "delivery", series: [floor, subject] }], targets, notes }
  }
}
