/**
 * Personal webhooks end to end against a local receiver: Standard Webhooks
 * signatures checked with the specification's formula, retries after 500,
 * 410 disabling the endpoint, replay with the same webhook-id, the delivery
 * log, and the SSRF guard.
 */
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { enqueueMeetingProcessed } from "../../actors/hub/webhooks/MeetingProcessed.ts"
import { Sql } from "../../persistence/Sql.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually, type Receiver, startReceiver } from "./support/receiver.ts"

let atrium: TestServer
let receiver: Receiver
const previousEnv = { allow: process.env.ATRIUM_ALLOW_PRIVATE_URLS, poll: process.env.WEBHOOK_POLL_MS }
beforeAll(async () => {
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  process.env.WEBHOOK_POLL_MS = "50"
  atrium = await startAtrium()
  receiver = await startReceiver()
})
afterAll(async () => {
  await atrium?.close()
  await receiver?.close()
  for (const [name, value] of [
    ["ATRIUM_ALLOW_PRIVATE_URLS", previousEnv.allow],
    ["WEBHOOK_POLL_MS", previousEnv.poll]
  ] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const meetingProcessed = (userIds: Array<string>, recordingId = 42) =>
  atrium.run(
    Sql.use((sql) =>
      sql.transaction(
        enqueueMeetingProcessed(
          { workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10", recordingId, callId: 7, callUuid: "c0ffee00-0000-4000-8000-000000000001" },
          userIds
        )
      )
    )
  )

const register = async (token: string, url = receiver.url) => {
  const created = await atrium.request("POST", "/hub/v1/users/me/webhooks", { token, body: { url, description: "test" } })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; secret: string }
}

const logOf = async (token: string, webhookId: string) => {
  const listed = await atrium.request("GET", "/hub/v1/users/me/webhooks", { token })
  return listed.body.items.find((item: { id: string }) => item.id === webhookId)
}

const receivedFor = (recordingId: string) => receiver.received.filter((r) => JSON.parse(r.body).data?.recordingId === recordingId)

describe("personal webhooks", () => {
  it("signs each delivery as Standard Webhooks 1.0 says, with a thin payload, only for the users named", async () => {
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const hook = await register(alice.token)
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/)
    // The secret is shown once: the list does not carry it.
    expect(JSON.stringify((await atrium.request("GET", "/hub/v1/users/me/webhooks", { token: alice.token })).body)).not.toContain(
      hook.secret
    )
    await register(bob.token)
    await meetingProcessed([alice.userId], 1001)
    const [delivery] = await eventually(() => (receivedFor("1001").length > 0 ? receivedFor("1001") : undefined), "the delivery")
    const { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature } = delivery!.headers
    const key = Buffer.from(hook.secret.slice("whsec_".length), "base64")
    const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${delivery!.body}`).digest("base64")
    expect(signature).toBe(`v1,${expected}`)
    expect(id).toMatch(/^msg_/)
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300)
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: "meeting.processed",
      data: { recordingId: "1001", callId: "7", callUuid: "c0ffee00-0000-4000-8000-000000000001", status: "ready" }
    })
    // Bob's webhook heard nothing: he was not among the users.
    expect(receivedFor("1001")).toHaveLength(1)
    const log = await eventually(async () => {
      const entry = await logOf(alice.token, hook.id)
      return entry?.recentDeliveries[0]?.status === "delivered" ? entry : undefined
    }, "the log")
    expect(log.recentDeliveries[0]).toMatchObject({ eventType: "meeting.processed", attempts: 1, lastStatusCode: 200, messageId: id })
  })

  it("retries after 500 answers with backoff until delivered, logging every attempt", async () => {
    const alice = await signUp(atrium, "Alice")
    const hook = await register(alice.token)
    receiver.answers = [500, 503]
    await meetingProcessed([alice.userId], 1002)
    const entry = await eventually(async () => {
      const found = await logOf(alice.token, hook.id)
      return found?.recentDeliveries[0]?.status === "delivered" ? found.recentDeliveries[0] : undefined
    }, "delivery after retries")
    expect(entry).toMatchObject({ attempts: 3, lastStatusCode: 200 })
    const attempts = receivedFor("1002")
    expect(attempts).toHaveLength(3)
    // Every retry is the same message: same webhook-id, same body.
    expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1)
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1)
    const rows = await atrium.sql("SELECT attempt, status_code FROM outgoing_webhook_attempts WHERE delivery_id = $1 ORDER BY attempt", [
      entry.id
    ])
    expect(rows.map((r: any) => r.status_code)).toEqual([500, 503, 200])
  })

  it("a 410 answer disables the webhook; replay needs it re-enabled and keeps the webhook-id", async () => {
    const alice = await signUp(atrium, "Alice")
    const hook = await register(alice.token)
    receiver.answers = [410]
    await meetingProcessed([alice.userId], 1003)
    const disabled = await eventually(async () => {
      const found = await logOf(alice.token, hook.id)
      return found?.enabled === false ? found : undefined
    }, "the webhook disabled")
    expect(disabled.disabledReason).toContain("410")
    expect(disabled.recentDeliveries[0]).toMatchObject({ status: "failed", lastStatusCode: 410, attempts: 1 })
    // Nothing more goes to a disabled endpoint.
    await meetingProcessed([alice.userId], 1004)
    const replay = `/hub/v1/users/me/webhooks/${hook.id}/deliveries`
    expect(
      (await atrium.request("POST", replay, { token: alice.token, body: { deliveryId: disabled.recentDeliveries[0].id } })).status
    ).toBe(409)
    const enabled = await atrium.request("PATCH", `/hub/v1/users/me/webhooks/${hook.id}`, { token: alice.token, body: { enabled: true } })
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null })
    const replayed = await atrium.request("POST", replay, { token: alice.token, body: { deliveryId: disabled.recentDeliveries[0].id } })
    expect(replayed.status, replayed.text).toBe(202)
    expect(replayed.body).toMatchObject({
      status: "pending",
      replayOf: disabled.recentDeliveries[0].id,
      messageId: disabled.recentDeliveries[0].messageId
    })
    const received = await eventually(() => {
      const got = receivedFor("1003")
      return got.length === 2 ? got : undefined
    }, "the replay")
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"])
    expect(receivedFor("1004")).toHaveLength(0)
    // A test event on request.
    const test = await atrium.request("POST", replay, { token: alice.token, body: {} })
    expect(test.body.eventType).toBe("webhook.test")
    await eventually(() => receiver.received.some((r) => JSON.parse(r.body).data?.webhookId === hook.id) || undefined, "the test event")
  })

  it("refuses private addresses unless configuration allows them, and other schemes always", async () => {
    const alice = await signUp(atrium, "Alice")
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "0"
    try {
      for (const url of ["http://127.0.0.1:9/hook", "http://10.0.0.5/hook", "http://[::1]/hook", "http://169.254.169.254/latest"]) {
        const refused = await atrium.request("POST", "/hub/v1/users/me/webhooks", { token: alice.token, body: { url } })
        expect(refused.status, url).toBe(400)
        expect(refused.body.error.details[0]).toMatchObject({ path: "body.url", message: expect.stringContaining("private") })
      }
    } finally {
      process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    }
    const ftp = await atrium.request("POST", "/hub/v1/users/me/webhooks", { token: alice.token, body: { url: "ftp://example.com/x" } })
    expect(ftp.status).toBe(400)
  })

  it("re-checks the address at delivery time: a URL that became private is not called", async () => {
    const alice = await signUp(atrium, "Alice")
    const hook = await register(alice.token)
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "0"
    try {
      await meetingProcessed([alice.userId], 1005)
      const entry = await eventually(async () => {
        const found = await logOf(alice.token, hook.id)
        return found?.recentDeliveries[0]?.status === "failed" ? found.recentDeliveries[0] : undefined
      }, "the refused delivery")
      expect(entry.lastError).toContain("private")
      expect(receivedFor("1005")).toHaveLength(0)
    } finally {
      process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    }
  })

  it("is personal: another user's webhook is 404 for every change; delete removes it", async () => {
    const alice = await signUp(atrium, "Alice")
    const mallory = await signUp(atrium, "Mallory")
    const hook = await register(alice.token)
    const path = `/hub/v1/users/me/webhooks/${hook.id}`
    expect((await atrium.request("PATCH", path, { token: mallory.token, body: { enabled: false } })).status).toBe(404)
    expect((await atrium.request("POST", `${path}/deliveries`, { token: mallory.token, body: {} })).status).toBe(404)
    expect((await atrium.request("DELETE", path, { token: mallory.token })).status).toBe(404)
    expect((await atrium.request("GET", "/hub/v1/users/me/webhooks", { token: mallory.token })).body.items).toEqual([])
    const renamed = await atrium.request("PATCH", path, { token: alice.token, body: { description: "renamed", enabled: false } })
    expect(renamed.body).toMatchObject({ description: "renamed", enabled: false, disabledReason: "Disabled by its owner" })
    expect((await atrium.request("DELETE", path, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", "/hub/v1/users/me/webhooks", { token: alice.token })).body.items).toEqual([])
  })
})
