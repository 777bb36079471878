/**
 * Web Push: the VAPID key is generated once and kept; subscriptions are the
 * caller's own; a pm notification (a task assigned to the subscriber) is
 * pushed to a local fake push service, which checks the VAPID Authorization
 * header (a JWT for its origin signed with the advertised key) and the
 * aes128gcm body size; a 410 from the push service removes the subscription.
 */
import { createECDH, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { decodeProtectedHeader, importJWK, jwtVerify } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NOTIFICATION_COLUMNS, toNotification } from "../../../actors/pm/EventLog.ts"
import { payloadOf } from "../../../actors/push/PushDelivery.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

interface Received {
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: Buffer
}

let atrium: TestServer
let pushService: Server
let pushOrigin: string
const received: Array<Received> = []
let waiters: Array<() => void> = []
let owner: Awaited<ReturnType<typeof signUp>>
let member: Awaited<ReturnType<typeof signUp>>
let workspaceId: string

const browserKeys = () => {
  const ecdh = createECDH("prime256v1")
  ecdh.generateKeys()
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") }
}

beforeAll(async () => {
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  pushService = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) })
      for (const wake of waiters) wake()
      waiters = []
      res.writeHead(req.url?.startsWith("/gone") ? 410 : 201)
      res.end()
    })
  })
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve))
  pushOrigin = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`
  atrium = await startAtrium()
  owner = await signUp(atrium, "Owner")
  member = await signUp(atrium, "Member")
  workspaceId = (await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } })).body.id
  await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
    token: owner.token,
    body: { email: member.email, role: "member" }
  })
}, 60_000)
afterAll(async () => {
  delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
  await atrium?.close()
  await new Promise((resolve) => pushService?.close(resolve))
})

const until = async (predicate: () => boolean) => {
  while (!predicate()) await new Promise<void>((resolve) => waiters.push(resolve))
}

const assignTaskToOwner = async (name: string) => {
  const space = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { token: member.token, body: { name } })
  const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: member.token, body: { name: "Backlog" } })
  const task = await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, {
    token: member.token,
    body: { name, assigneeEmails: [owner.email] }
  })
  expect(task.status, task.text).toBe(201)
  return task.body
}

describe("push subscriptions", () => {
  it("the VAPID key is kept: the same on every read", async () => {
    const first = await atrium.request("GET", "/pm/v1/push/vapid-public-key")
    expect(first.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect((await atrium.request("GET", "/pm/v1/push/vapid-public-key")).body.publicKey).toBe(first.body.publicKey)
    const stored = await atrium.sql("SELECT value FROM system_secrets WHERE name = 'vapid-keys'")
    expect(JSON.parse(stored[0]!.value).publicKey).toBe(first.body.publicKey)
  })

  it("subscribe (idempotent per endpoint), validate, and only the owner unsubscribes", async () => {
    const keys = browserKeys()
    const bad = await atrium.request("POST", "/pm/v1/push/subscriptions", {
      token: owner.token,
      body: { endpoint: `${pushOrigin}/x`, keys: { ...keys, auth: "!" } }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.keys.auth")
    const first = await atrium.request("POST", "/pm/v1/push/subscriptions", {
      token: owner.token,
      body: { endpoint: `${pushOrigin}/temp`, keys }
    })
    expect(first.status).toBe(201)
    const again = await atrium.request("POST", "/pm/v1/push/subscriptions", {
      token: owner.token,
      body: { endpoint: `${pushOrigin}/temp`, keys: browserKeys() }
    })
    expect(again.body.id).toBe(first.body.id)
    expect((await atrium.request("DELETE", `/pm/v1/push/subscriptions/${first.body.id}`, { token: member.token })).status).toBe(404)
    expect((await atrium.request("DELETE", `/pm/v1/push/subscriptions/${first.body.id}`, { token: owner.token })).status).toBe(204)
  })

  it("a notification is pushed, signed with VAPID and encrypted; a 410 removes the subscription", async () => {
    const publicKey = (await atrium.request("GET", "/pm/v1/push/vapid-public-key")).body.publicKey as string
    for (const endpoint of [`${pushOrigin}/ok/device-1`, `${pushOrigin}/gone/device-2`]) {
      const created = await atrium.request("POST", "/pm/v1/push/subscriptions", {
        token: owner.token,
        body: { endpoint, keys: browserKeys() }
      })
      expect(created.status, created.text).toBe(201)
    }
    const task = await assignTaskToOwner("Ship the release")
    await until(() => received.length >= 2)
    const ok = received.find((r) => r.path === "/ok/device-1")!
    expect(ok.headers["content-encoding"]).toBe("aes128gcm")
    expect(Number(ok.headers.ttl)).toBeGreaterThan(0)
    // aes128gcm: 86-byte header (salt, record size, key id = sender's public key), then the padded record and its 16-byte tag.
    const row = (
      await atrium.sql(`SELECT ${NOTIFICATION_COLUMNS} FROM pm_notifications WHERE user_id = $1 AND entity_id = $2`, [
        owner.userId,
        task.id
      ])
    )[0]!
    const notification = toNotification(row as never)
    // Exactly one record: the JSON payload, its delimiter byte and the tag; record size 4096, key id of 65 bytes.
    expect(ok.body.length).toBe(86 + Buffer.byteLength(payloadOf(notification)) + 1 + 16)
    expect(ok.body.subarray(16, 20).readUInt32BE(0)).toBe(4096)
    expect(ok.body[20]).toBe(65)
    const authorization = ok.headers.authorization!
    const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(authorization)
    expect(match, authorization).not.toBeNull()
    expect(match![2]).toBe(publicKey)
    const raw = Buffer.from(publicKey, "base64url")
    const key = await importJWK(
      { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33, 65).toString("base64url") },
      "ES256"
    )
    const { payload } = await jwtVerify(match![1]!, key, { audience: pushOrigin })
    expect(payload.sub).toMatch(/^mailto:/)
    expect(decodeProtectedHeader(match![1]!).alg).toBe("ES256")
    // The 410 endpoint is gone from the user's subscriptions; the other stays, marked delivered.
    let state: { subscriptions: Array<{ endpoint: string; lastDeliveredAt: string | null }> } | undefined
    for (let i = 0; i < 50; i++) {
      state = (await atrium.sql("SELECT state FROM actor_state WHERE kind = 'pushSubscriptions' AND id = $1", [owner.userId]))[0]?.state
      if (state?.subscriptions.length === 1 && state.subscriptions[0]!.lastDeliveredAt !== null) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(state!.subscriptions.map((s) => s.endpoint)).toEqual([`${pushOrigin}/ok/device-1`])
    const claims = await atrium.sql("SELECT notification_id FROM push_delivery_claims WHERE notification_id = $1", [notification.id])
    expect(claims).toHaveLength(1)
  })

  it("needs a user session", async () => {
    expect(
      (await atrium.request("POST", "/pm/v1/push/subscriptions", { body: { endpoint: `${pushOrigin}/x`, keys: browserKeys() } })).status
    ).toBe(401)
  })
})
