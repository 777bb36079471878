/**
 * The delivery engine on a queue kept in memory, against a local receiver:
 * deliveries sharing an order key go one after another and stop at the first
 * that fails (the rest released unsent, to follow it later); unkeyed ones are
 * independent; 410 is gone, a refused address is exhausted without a request.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DeliveryQueue, type Due, deliverDue, defaultEngineOptions, type Settlement } from "../../actors/webhooks/DeliveryEngine.ts"

let server: Server
let url = ""
const received: Array<string> = []
/** The status the receiver answers a message id with (200 unless named). */
const answers = new Map<string, number>()

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      const id = String(request.headers["webhook-id"])
      received.push(id)
      response.writeHead(answers.get(id) ?? 200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** A queue holding `rows`, recording what the engine settled and released. */
const memoryQueue = (rows: ReadonlyArray<Due>) => {
  const settled = new Map<string, Settlement>()
  const released: Array<string> = []
  const queue: DeliveryQueue<never, never> = {
    name: "memory",
    topic: "test.memory",
    nextDueInMs: Effect.succeed(undefined),
    claim: () => Effect.succeed(rows),
    settle: (due, settlement) => Effect.sync(() => void settled.set(due.id, settlement)),
    release: (dues) => Effect.sync(() => void released.push(...dues.map((d) => d.id)))
  }
  return { queue, settled, released }
}

const due = (id: string, orderKey?: string, endpointUrl = url): Due => ({
  id,
  messageId: id,
  payload: { type: "test", data: { id } },
  attempts: 0,
  endpoint: { url: endpointUrl, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", enabled: true },
  ...(orderKey === undefined ? {} : { orderKey })
})

describe("delivery engine", () => {
  it("sends an order group in order, stops at a failure and releases the rest; others go on", async () => {
    answers.set("a2", 503)
    answers.set("gone", 410)
    const { queue, settled, released } = memoryQueue([
      due("a1", "a"),
      due("b1", "b"),
      due("a2", "a"),
      due("a3", "a"),
      due("b2", "b"),
      due("solo"),
      due("gone")
    ])
    const leased = await Effect.runPromise(deliverDue(queue, { ...defaultEngineOptions, concurrency: 4 }))
    expect(leased).toBe(7)
    expect(received.filter((id) => id.startsWith("a"))).toEqual(["a1", "a2"])
    expect(received.filter((id) => id.startsWith("b"))).toEqual(["b1", "b2"])
    expect(released).toEqual(["a3"])
    expect(settled.get("a1")).toMatchObject({ kind: "delivered", attempt: 1, statusCode: 200 })
    expect(settled.get("a2")).toMatchObject({ kind: "retry", attempt: 1, statusCode: 503 })
    expect(settled.get("a2")!.retryInMs).toBeGreaterThan(0)
    expect(settled.has("a3")).toBe(false)
    expect(settled.get("solo")).toMatchObject({ kind: "delivered" })
    expect(settled.get("gone")).toMatchObject({ kind: "gone", statusCode: 410 })
  })

  it("exhausts a delivery to a refused address without sending it, and drops one whose endpoint is gone", async () => {
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "0"
    try {
      const before = received.length
      const { queue, settled } = memoryQueue([
        due("private", undefined, "http://127.0.0.1:9/hook"),
        { ...due("orphan"), endpoint: undefined }
      ])
      await Effect.runPromise(deliverDue(queue, defaultEngineOptions))
      expect(received.length).toBe(before)
      expect(settled.get("private")).toMatchObject({ kind: "exhausted", attempt: 1, error: expect.stringContaining("refused") })
      expect(settled.get("orphan")).toMatchObject({ kind: "dropped", attempt: 0, error: "the endpoint no longer exists" })
    } finally {
      process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    }
  })
})
