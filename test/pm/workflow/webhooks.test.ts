/**
 * Webhook Resource + Admin DLQ against local receivers: the signature checked
 * with the Standard Webhooks formula, every event once by webhook-id through a
 * receiver failing 20% of requests (in order per entity), 410 disabling the
 * endpoint, dead letters after exhausted retries, replayed by an operator.
 */
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { caller, eventually, receiver, workspaceWithList } from "./support.ts"

process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
process.env.PM_WEBHOOK_RETRY_BASE_MS = "10"
process.env.PM_WEBHOOK_RETRY_CAP_MS = "40"
process.env.PM_WEBHOOK_MAX_ATTEMPTS = "4"
process.env.PM_WEBHOOK_POLL_MS = "20"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
  process.env.ATRIUM_PLATFORM_ADMINS = ` ${w.owner.email.toUpperCase()} ,ops@example.com`
})
afterAll(() => atrium?.close())

const hooks = () => `/v1/workspaces/${w.workspaceId}/webhooks`

const signatureOk = (secret: string, headers: Record<string, unknown>, body: string) => {
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const expected = createHmac("sha256", key).update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`).digest("base64")
  return String(headers["webhook-signature"]).split(" ").includes(`v1,${expected}`)
}

describe("webhooks", () => {
  it("signs each delivery so a receiver can verify it with the specification's formula, and filters by event type", async () => {
    const sink = await receiver()
    try {
      const hook = await w.call("POST", hooks(), { url: `${sink.url}/in`, eventTypes: ["task.created"] })
      expect(hook.secret).toMatch(/^whsec_/)
      const task = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Signed" })
      await w.call("PATCH", `/v1/tasks/${task.id}`, { name: "Signed, renamed" })
      const got = await eventually(() => (sink.received.length >= 1 ? sink.received : undefined))
      const first = got[0]!
      expect(signatureOk(hook.secret, first.headers, first.body)).toBe(true)
      expect(signatureOk(hook.secret, { ...first.headers, "webhook-id": "msg_other" }, first.body)).toBe(false)
      const payload = JSON.parse(first.body)
      expect(payload).toMatchObject({ type: "task.created", data: { entityId: task.id, workspaceId: w.workspaceId } })
      // The rename is not a task.created: never sent.
      const deliveries = await w.call("GET", `${hooks()}/${hook.id}/deliveries`)
      expect(deliveries.items.map((d: { eventType: string }) => d.eventType)).toEqual(["task.created"])
      expect(deliveries.items[0]).toMatchObject({ status: "delivered", attempts: 1, id: first.headers["webhook-id"] })
      // Secrets are never read back, and rotating one changes the signatures.
      expect((await w.call("GET", `${hooks()}/${hook.id}`)).secret).toBeUndefined()
      const rotated = await w.call("POST", `${hooks()}/${hook.id}/rotate-secret`, undefined, 200)
      expect(rotated.secret).not.toBe(hook.secret)
      await w.call("POST", `${hooks()}/${hook.id}/test`, undefined, 202)
      const ping = await eventually(() => sink.received.find((r) => JSON.parse(r.body).type === "webhook.test"))
      expect(signatureOk(rotated.secret, ping.headers, ping.body)).toBe(true)
      await w.call("DELETE", `${hooks()}/${hook.id}`, undefined, 204)
    } finally {
      await sink.close()
    }
  })

  it("gets every event exactly once by webhook-id through a receiver failing 20% of requests, in order per task", async () => {
    // Every fifth request fails: retries (same webhook-id) make up for it.
    const sink = await receiver((_, index) => (index % 5 === 4 ? 503 : 200))
    try {
      const hook = await w.call("POST", hooks(), { url: sink.url, eventTypes: ["task.created", "task.updated"] })
      const tasks = await Promise.all([1, 2, 3].map((n) => w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: `Task ${n}` })))
      for (let round = 1; round <= 6; round++) {
        for (const task of tasks) await w.call("PATCH", `/v1/tasks/${task.id}`, { name: `${task.name} v${round}` })
      }
      const expected = tasks.length * 7
      const delivered = await eventually(() => {
        const ok = sink.received.filter((r) => r.status === 200)
        return new Set(ok.map((r) => r.headers["webhook-id"])).size >= expected ? ok : undefined
      })
      const ids = delivered.map((r) => r.headers["webhook-id"])
      expect(new Set(ids).size).toBe(expected)
      expect(ids.length).toBe(expected) // accepted once each
      expect(sink.received.some((r) => r.status === 503)).toBe(true)
      for (const task of tasks) {
        const seqs = delivered
          .map((r) => JSON.parse(r.body).data)
          .filter((d) => d.entityId === task.id)
          .map((d) => d.seq)
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
      }
      await w.call("DELETE", `${hooks()}/${hook.id}`, undefined, 204)
    } finally {
      await sink.close()
    }
  })

  it("disables an endpoint that answers 410 Gone", async () => {
    const sink = await receiver(() => 410)
    try {
      const hook = await w.call("POST", hooks(), { url: sink.url })
      await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Into the void" })
      const disabled = await eventually(async () => {
        const got = await w.call("GET", `${hooks()}/${hook.id}`)
        return got.status === "disabled" ? got : undefined
      })
      expect(disabled.disabledReason).toContain("410")
      const before = sink.received.length
      await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Not sent" })
      await w.call("POST", `${hooks()}/${hook.id}/test`, undefined, 409)
      expect(sink.received.length).toBe(before)
      await w.call("DELETE", `${hooks()}/${hook.id}`, undefined, 204)
    } finally {
      await sink.close()
    }
  })

  it("puts exhausted deliveries in the dead-letter queue, which an operator inspects, replays and purges", async () => {
    let healthy = false
    const sink = await receiver(() => (healthy ? 200 : 500))
    try {
      const hook = await w.call("POST", hooks(), { url: sink.url, eventTypes: ["task.created"] })
      const task = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Doomed" })
      const admin = caller(atrium, w.owner.token)
      const dead = await eventually(async () => {
        const list = await admin("GET", `/v1/admin/dlq?endpointId=${hook.id}`)
        return list.total === 1 ? list.items[0] : undefined
      })
      expect(dead).toMatchObject({ entityId: task.id, status: "dead", attempts: 4, lastStatus: 500, endpointUrl: sink.url })
      const detail = await admin("GET", `/v1/admin/dlq/${dead.id}`)
      expect(detail.payload).toMatchObject({ type: "task.created" })
      const stats = await admin("GET", "/v1/admin/dlq/stats")
      expect(stats.dead).toBeGreaterThanOrEqual(1)
      // Ordinary members and API keys never reach operator operations.
      expect((await atrium.request("GET", "/pm/v1/admin/dlq", { token: w.member.token })).status).toBe(403)
      const key = await caller(atrium, w.owner.token)("POST", "/v1/api-keys", {
        workspaceId: w.workspaceId,
        name: "ops",
        scopes: ["webhooks:read"]
      })
      expect((await atrium.request("GET", "/pm/v1/admin/dlq", { apiKey: key.key })).status).toBe(403)
      expect((await atrium.request("GET", hooks().replace("/v1", "/pm/v1"), { apiKey: key.key })).status).toBe(200)
      expect((await atrium.request("POST", "/pm/v1/admin/dlq/replay", { token: w.member.token, body: {} })).status).toBe(403)

      healthy = true
      const replayed = await admin("POST", `/v1/admin/dlq/${dead.id}/replay`, undefined, 202)
      expect(replayed).toEqual({ replayed: 1, ids: [dead.id] })
      await eventually(() => sink.received.find((r) => r.status === 200 && r.headers["webhook-id"] === dead.id))
      expect((await admin("GET", `/v1/admin/dlq?endpointId=${hook.id}`)).total).toBe(0)

      healthy = false
      await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Doomed twice" })
      await eventually(async () => ((await admin("GET", `/v1/admin/dlq?endpointId=${hook.id}`)).total === 1 ? true : undefined))
      expect((await admin("DELETE", `/v1/admin/dlq?endpointId=${hook.id}`)).purged).toBe(1)
      expect((await atrium.request("GET", `/pm/v1/admin/dlq/${dead.id}`, { token: w.owner.token })).status).toBe(404)
    } finally {
      await sink.close()
    }
  })

  it("refuses bad input, internal URLs and non-admins", async () => {
    const bad = await atrium.request("POST", `/pm${hooks()}`, { token: w.owner.token, body: { url: "ftp://x", extra: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.map((d: { path: string }) => d.path).join()).toMatch(/body\.(url|extra)/)
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "0"
    const internal = await atrium.request("POST", `/pm${hooks()}`, { token: w.owner.token, body: { url: "http://169.254.169.254/latest" } })
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    expect(internal.status).toBe(400)
    expect(internal.body.error.details[0].path).toBe("body.url")
    const foreignSpace = await atrium.request("POST", `/pm${hooks()}`, {
      token: w.owner.token,
      body: { url: "http://127.0.0.1:9/x", spaceId: crypto.randomUUID() }
    })
    expect(foreignSpace.status).toBe(404)
    expect(foreignSpace.body.error.details[0].path).toBe("body.spaceId")
    expect((await atrium.request("GET", `/pm${hooks()}`, { token: w.member.token })).status).toBe(403)
    expect((await atrium.request("GET", `/pm${hooks()}`, { token: w.outsider.token })).status).toBe(404)
  })
})
