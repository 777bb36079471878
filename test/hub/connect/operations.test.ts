/**
 * hub Test Resource against local fake endpoints (webhook receiver, vendor,
 * bot provider, model provider, SMTP sink), the beta waitlist, product
 * feedback reaching platform admins, the internal API-key check and the
 * workspace migration into another workspace over HTTP, as a background job
 * that resumes after a restart.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HubKeys } from "../../../actors/hub/HubKeys.ts"
import { verifyWebhook } from "../../../actors/webhooks/StandardWebhooks.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { tinyVideo } from "../support/calls.ts"
import { eventually } from "../support/receiver.ts"
import { startSmtpSink } from "../../support/SmtpSink.ts"

const INTERNAL_KEY = "svc-test-internal-key-0123456789abcdef"
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

let atrium: TestServer
let sink: Awaited<ReturnType<typeof startSmtpSink>>
let vendor: Server
let vendorUrl: string
let owner: Awaited<ReturnType<typeof signUp>>
let workspaceId: string
const hooks: Array<{ headers: IncomingMessage["headers"]; body: string }> = []

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

beforeAll(async () => {
  vendor = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const auth = req.headers.authorization ?? ""
      if (req.url === "/hook") {
        hooks.push({ headers: req.headers, body })
        res.end("received")
      } else if (req.url === "/hook-broken") json(res, 503, { error: "down for maintenance" })
      else if (req.url === "/slow") setTimeout(() => res.end("late"), 5_000).unref()
      else if (req.url === "/rest/api/3/myself")
        auth === "Bearer good-token" ? json(res, 200, { displayName: "Tracker Alice" }) : json(res, 401, { message: "expired" })
      else if (req.url === "/api/auth.test")
        json(res, 200, auth === "Bearer good-token" ? { ok: true, user: "alice", team: "Acme" } : { ok: false, error: "invalid_auth" })
      else if (req.url === "/api/v1/bot/?page_size=1")
        auth === "Token bot-key" ? json(res, 200, { count: 2, results: [] }) : json(res, 401, { detail: "Invalid token." })
      else if (req.url === "/v1/models") json(res, 200, { object: "list", data: [{ id: "summarizer-large" }, { id: "tiny" }] })
      else json(res, 404, { error: "no such route" })
    })
  })
  await new Promise<void>((resolve) => vendor.listen(0, "127.0.0.1", resolve))
  vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`
  sink = await startSmtpSink()
  process.env.SMTP_URL = sink.url
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  process.env.MIGRATION_POLL_MS = "50"
  // Jobs a dead node left are found by the workers' safety poll (nothing signals them): keep it short here.
  process.env.WORKER_SAFETY_POLL_MS = "200"
  process.env.ATRIUM_INTERNAL_KEYS = `tests:${INTERNAL_KEY}`
  atrium = await startAtrium()
  owner = await signUp(atrium, "Tester")
  workspaceId = (await atrium.request("POST", "/hub/v1/workspaces", { token: owner.token, body: { name: "Tests" } })).body.id
})
afterAll(async () => {
  for (const name of [
    "SMTP_URL",
    "ATRIUM_ALLOW_PRIVATE_URLS",
    "ATRIUM_INTERNAL_KEYS",
    "ATRIUM_PLATFORM_ADMINS",
    "TEST_PROBE_TIMEOUT_MS",
    "MIGRATION_POLL_MS",
    "WORKER_SAFETY_POLL_MS"
  ])
    delete process.env[name]
  await atrium?.close()
  await sink?.close()
  await new Promise((resolve) => vendor?.close(resolve))
})

const run = (path: string, body?: unknown) =>
  atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tests/${path}`, { token: owner.token, ...(body !== undefined ? { body } : {}) })

describe("connection tests", () => {
  it("delivers a signed test.ping the receiver can verify, and reports a broken receiver", async () => {
    const sent = await run("webhook", { url: `${vendorUrl}/hook`, secret: SECRET })
    expect(sent.status, sent.text).toBe(201)
    expect(sent.body).toMatchObject({
      kind: "webhook",
      ok: true,
      status: 200,
      error: null,
      detail: { signed: true, responseExcerpt: "received" }
    })
    const delivered = hooks.at(-1)!
    expect(JSON.parse(delivered.body).type).toBe("test.ping")
    expect(
      verifyWebhook(
        SECRET,
        {
          id: String(delivered.headers["webhook-id"]),
          timestamp: String(delivered.headers["webhook-timestamp"]),
          signature: String(delivered.headers["webhook-signature"])
        },
        delivered.body
      )
    ).toBe(true)
    expect(JSON.stringify(sent.body)).not.toContain(SECRET)

    const broken = await run("webhook", { url: `${vendorUrl}/hook-broken` })
    expect(broken.body).toMatchObject({ ok: false, status: 503, error: expect.stringContaining("503") })
    expect(broken.body.detail.responseExcerpt).toContain("maintenance")
  })

  it("checks vendor tokens: the account for a good one, the refusal for a bad one (also a chat app's ok:false)", async () => {
    const good = await run("integration", { vendor: "tracker", baseUrl: vendorUrl, accessToken: "good-token" })
    expect(good.body).toMatchObject({ ok: true, status: 200, detail: { vendor: "tracker", account: "Tracker Alice" } })
    const expired = await run("integration", { vendor: "tracker", baseUrl: `${vendorUrl}/`, accessToken: "old-token" })
    expect(expired.body).toMatchObject({ ok: false, status: 401, detail: { account: null } })
    const chat = await run("integration", { vendor: "chatapp", baseUrl: vendorUrl, accessToken: "bad" })
    expect(chat.body).toMatchObject({ ok: false, status: 200, error: "vendor refused: invalid_auth" })
    const chatGood = await run("integration", { vendor: "chatapp", baseUrl: vendorUrl, accessToken: "good-token" })
    expect(chatGood.body).toMatchObject({ ok: true, detail: { account: "alice" } })
    expect(JSON.stringify([good.body, expired.body])).not.toContain("good-token")
    const unknownVendor = await run("integration", { vendor: "fax", baseUrl: vendorUrl, accessToken: "x" })
    expect(unknownVendor.status).toBe(400)
    expect(unknownVendor.body.error.details[0].path).toContain("vendor")
  })

  it("checks a bot provider and a model provider", async () => {
    const bots = await run("bot-provider", { baseUrl: vendorUrl, apiKey: "bot-key" })
    expect(bots.body).toMatchObject({ kind: "bot_provider", ok: true, detail: { bots: 2 } })
    expect((await run("bot-provider", { baseUrl: vendorUrl, apiKey: "wrong" })).body).toMatchObject({ ok: false, status: 401 })
    const models = await run("llm-provider", { baseUrl: `${vendorUrl}/v1`, model: "summarizer-large" })
    expect(models.body).toMatchObject({ ok: true, detail: { models: 2, modelListed: true } })
    const missing = await run("llm-provider", { baseUrl: `${vendorUrl}/v1`, model: "huge" })
    expect(missing.body).toMatchObject({ ok: false, status: 200, error: "model huge is not offered" })
  })

  it("reports an endpoint that does not answer in time, one that refuses connections, and refuses private addresses unless allowed", async () => {
    process.env.TEST_PROBE_TIMEOUT_MS = "200"
    try {
      const slow = await run("webhook", { url: `${vendorUrl}/slow` })
      expect(slow.body).toMatchObject({ ok: false, status: null, error: "timed out after 200 ms" })
    } finally {
      delete process.env.TEST_PROBE_TIMEOUT_MS
    }
    const closed = await run("webhook", { url: "http://127.0.0.1:1/hook" })
    expect(closed.body).toMatchObject({ ok: false, status: null, error: expect.stringContaining("connection failed") })
    delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
    try {
      const internal = await run("webhook", { url: `${vendorUrl}/hook` })
      expect(internal.body).toMatchObject({ ok: false, status: null, error: expect.stringContaining("private") })
    } finally {
      process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    }
  })

  it("sends a test mail through SMTP and records it", async () => {
    const before = sink.received.length
    const mail = await run("email")
    expect(mail.body).toMatchObject({ kind: "email", ok: true, target: owner.email, detail: { mailStatus: "sent" } })
    expect(sink.received.length).toBe(before + 1)
  })

  it("lists, reads and clears the runs; other workspaces' members and non-admins get nothing", async () => {
    const runs = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tests/runs?kind=integration`, { token: owner.token })
    expect(runs.status).toBe(200)
    expect(runs.body.items.length).toBeGreaterThanOrEqual(4)
    expect(runs.body.items.every((r: { kind: string }) => r.kind === "integration")).toBe(true)
    const one = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tests/runs/${runs.body.items[0].id}`, { token: owner.token })
    expect(one.body).toEqual(runs.body.items[0])

    const member = await signUp(atrium, "Member")
    await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/members`, {
      token: owner.token,
      body: { email: member.email, role: "member" }
    })
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tests/runs`, { token: member.token })).status).toBe(403)
    expect(
      (
        await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tests/webhook`, {
          token: member.token,
          body: { url: `${vendorUrl}/hook` }
        })
      ).status
    ).toBe(403)
    const stranger = await signUp(atrium, "Stranger")
    expect(
      (await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tests/runs/${runs.body.items[0].id}`, { token: stranger.token }))
        .status
    ).toBe(404)

    const cleared = await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/tests/runs`, { token: owner.token })
    expect(cleared.body.deleted).toBeGreaterThan(5)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tests/runs`, { token: owner.token })).body.items).toEqual([])
  })
})

describe("beta waitlist", () => {
  it("gives each address one place, the same one when it joins again", async () => {
    const email = `beta-${Date.now()}@example.com`
    const first = await atrium.request("POST", "/hub/v1/beta-waitlist", { body: { email, name: "Dana", useCase: "notes" } })
    expect(first.status).toBe(202)
    expect(first.body.alreadyJoined).toBe(false)
    const second = await atrium.request("POST", "/hub/v1/beta-waitlist", { body: { email: email.toUpperCase() } })
    expect(second.body).toMatchObject({ position: first.body.position, alreadyJoined: true, joinedAt: first.body.joinedAt })
    const next = await atrium.request("POST", "/hub/v1/beta-waitlist", { body: { email: `other-${email}` } })
    expect(next.body.position).toBe(first.body.position + 1)
    const bad = await atrium.request("POST", "/hub/v1/beta-waitlist", { body: { email: "nope" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toContain("email")
  })
})

describe("product feedback", () => {
  it("stores feedback and mails it to the platform admins, who read it in their mail", async () => {
    const admin = await signUp(atrium, "Operator")
    process.env.ATRIUM_PLATFORM_ADMINS = admin.email
    const sent = await atrium.request("POST", "/hub/v1/feedback", {
      token: owner.token,
      body: { category: "idea", message: "Pin meeting summaries to wiki pages.", rating: 4 }
    })
    expect(sent.status, sent.text).toBe(201)
    expect(sent.body).toMatchObject({ category: "idea", rating: 4, pageUrl: null, notifiedAdmins: 1 })
    const inbox = await atrium.request("GET", "/hub/v1/emails?kind=feedback", { token: admin.token })
    expect(inbox.body.items[0].text).toContain("Pin meeting summaries to wiki pages.")
    expect(inbox.body.items[0].text).toContain(owner.email)
    expect((await atrium.sql("SELECT message FROM hub_product_feedback WHERE id = $1", [sent.body.id]))[0]!.message).toBe(
      "Pin meeting summaries to wiki pages."
    )
    expect(
      (await atrium.request("POST", "/hub/v1/feedback", { token: owner.token, body: { category: "idea", message: "   " } })).status
    ).toBe(400)
    expect((await atrium.request("POST", "/hub/v1/feedback", { body: { category: "idea", message: "hi" } })).status).toBe(401)
  })
})

describe("internal API-key check", () => {
  it("answers only to a service with X-Internal-Key, and tells live keys from revoked or unknown ones", async () => {
    const created = await atrium.request("POST", "/pm/v1/api-keys", {
      token: owner.token,
      body: { workspaceId, name: "svc", scopes: ["recordings:read"] }
    })
    const path = "/hub/v1/internal/api-keys/introspect"
    const asService = { "x-internal-key": INTERNAL_KEY }
    expect((await atrium.request("POST", path, { body: { key: created.body.key } })).status).toBe(403)
    expect((await atrium.request("POST", path, { token: owner.token, body: { key: created.body.key } })).status).toBe(403)
    expect((await atrium.request("POST", path, { apiKey: created.body.key, body: { key: created.body.key } })).status).toBe(403)
    expect(
      (await atrium.request("POST", path, { headers: { "x-internal-key": "wrong-key-wrong-key-wrong-key-wrong" }, body: { key: "x" } }))
        .status
    ).toBe(403)
    const live = await atrium.request("POST", path, { headers: asService, body: { key: created.body.key } })
    expect(live.body).toEqual({ active: true, keyId: created.body.id, workspaceId, userId: owner.userId, scopes: ["recordings:read"] })
    expect((await atrium.request("POST", path, { headers: asService, body: { key: "atr_live_unknown" } })).body.active).toBe(false)
    await atrium.request("DELETE", `/pm/v1/api-keys/${created.body.id}`, { token: owner.token })
    expect((await atrium.request("POST", path, { headers: asService, body: { key: created.body.key } })).body.active).toBe(false)
  })
})

describe("workspace migration", () => {
  /** Posting the same migration again answers the unfinished job: how its progress is read. */
  const migrate = (from: string, to: string, token: string, credential: string) =>
    atrium.request("POST", `/hub/v1/workspaces/${from}/migrations`, {
      token,
      body: { targetOrigin: atrium.origin, targetWorkspaceId: to, targetCredential: credential }
    })
  const finished = (jobId: string) =>
    eventually(async () => {
      const [row] = await atrium.sql(`SELECT status FROM hub_workspace_migrations WHERE id = $1`, [jobId])
      return ["queued", "running"].includes(row!.status) ? undefined : (row!.status as string)
    }, `migration ${jobId} finished`)
  const targetWorkspace = async (name: string) => {
    const user = await signUp(atrium, name)
    const id = (await atrium.request("POST", "/hub/v1/workspaces", { token: user.token, body: { name } })).body.id as string
    return { user, id }
  }

  it("queues a background job (202) that carries the workspace's hub data into the target through its operations", async () => {
    const source = await signUp(atrium, "Source")
    const colleague = await signUp(atrium, "Colleague")
    const target = await targetWorkspace("EU")
    const from = (await atrium.request("POST", "/hub/v1/workspaces", { token: source.token, body: { name: "US" } })).body.id
    await atrium.request("PATCH", `/hub/v1/workspaces/${from}/settings`, {
      token: source.token,
      body: { preferredIntegrationTarget: "taskapp", customPrompt: "Decisions first." }
    })
    await atrium.request("POST", `/hub/v1/workspaces/${from}/members`, {
      token: source.token,
      body: { email: colleague.email, role: "admin" }
    })
    await atrium.request("POST", `/hub/v1/workspaces/${from}/invitations`, {
      token: source.token,
      body: { email: "pending@example.com", role: "viewer" }
    })
    const segments = [
      { speaker: "Alice", startMs: 0, endMs: 2000, text: "We ship on Friday." },
      { speaker: "Bob", startMs: 2000, endMs: 4000, text: "I'll update the roadmap by Monday." }
    ]
    const recording = await atrium.request("POST", "/hub/v1/recordings", {
      token: source.token,
      body: { workspaceId: from, name: "Launch review", transcript: { format: "segments", segments } }
    })
    expect(recording.status, recording.text).toBe(202)
    const video = tinyVideo()
    const upload = await atrium.request("PUT", `/hub/v1/recordings/${recording.body.id}/media`, {
      token: source.token,
      rawBody: video,
      headers: { "content-type": "video/mp4" }
    })
    expect(upload.status, upload.text).toBe(202)
    const notes = await atrium.request("PUT", `/hub/v1/calls/${recording.body.callId}/my-notes`, {
      token: source.token,
      body: { notes: "Ask legal about the date" }
    })
    expect(notes.status, notes.text).toBe(200)
    const chat = await atrium.request("POST", `/hub/v1/workspaces/${from}/chat-documents`, {
      token: source.token,
      body: {
        source: "chatapp",
        externalId: "C42",
        title: "#release",
        messages: [{ author: "Alice", sentAt: "2026-11-21T12:00:00.000Z", text: "Release is green" }]
      }
    })
    expect(chat.status, chat.text).toBe(201)
    const workflow = await atrium.request("POST", `/hub/v1/workspaces/${from}/workflows`, {
      token: source.token,
      body: {
        name: "Tickets",
        trigger: { type: "event", eventType: "ticket.created" },
        steps: [{ vendor: "tracker", title: "{{data.title}}" }]
      }
    })
    expect(workflow.status, workflow.text).toBe(201)

    expect((await migrate(from, target.id, colleague.token, target.user.token)).status).toBe(403)
    const job = await migrate(from, target.id, source.token, target.user.token)
    expect(job.status, job.text).toBe(202)
    expect(["queued", "running"]).toContain(job.body.status)
    expect(JSON.stringify(job.body)).not.toContain(target.user.token)
    const [stored] = await atrium.sql(`SELECT credential_ciphertext FROM hub_workspace_migrations WHERE id = $1`, [job.body.id])
    expect(stored!.credential_ciphertext ?? "").not.toContain(target.user.token)

    expect(await finished(job.body.id)).toBe("completed")
    const [row] = await atrium.sql(`SELECT steps, total, credential_ciphertext FROM hub_workspace_migrations WHERE id = $1`, [job.body.id])
    expect(row!.credential_ciphertext).toBeNull()
    expect(row!.total).toBe(row!.steps.length)
    expect(row!.steps.map((step: { name: string }) => step.name)).toEqual([
      "settings",
      `member ${colleague.email} (admin)`,
      "invitation pending@example.com (viewer)",
      'recording "Launch review"',
      'chat conversation "#release"',
      'workflow "Tickets"'
    ])

    const settings = await atrium.request("GET", `/hub/v1/workspaces/${target.id}/settings`, { token: target.user.token })
    expect(settings.body).toMatchObject({ preferredIntegrationTarget: "taskapp", customPrompt: "Decisions first." })
    const invited = await atrium.request("GET", `/hub/v1/workspaces/${target.id}/invitations`, { token: target.user.token })
    expect(invited.body.items.map((i: { email: string; role: string }) => `${i.email}:${i.role}`).sort()).toEqual(
      [`${colleague.email}:admin`, "pending@example.com:viewer"].sort()
    )
    const recordings = await atrium.request("GET", `/hub/v1/recordings?workspaceId=${target.id}`, { token: target.user.token })
    expect(recordings.body.items.map((item: { name: string }) => item.name)).toEqual(["Launch review"])
    const callId = recordings.body.items[0].callId
    const transcript = await atrium.request("GET", `/hub/v1/calls/${callId}/transcript`, { token: target.user.token })
    expect(transcript.body.segments.map((segment: { text: string }) => segment.text)).toEqual(segments.map((segment) => segment.text))
    const media = await atrium.request("GET", `/hub/v1/recordings/${recordings.body.items[0].id}/media`, { token: target.user.token })
    expect(media.body).toMatchObject({ contentType: "video/mp4", size: video.length })
    const call = await atrium.request("GET", `/hub/v1/calls/${callId}`, { token: target.user.token })
    expect(call.body.userNotes).toBe("Ask legal about the date")
    const chats = await atrium.request("GET", `/hub/v1/workspaces/${target.id}/chat-documents`, { token: target.user.token })
    expect(chats.body.items).toMatchObject([{ externalId: "C42", title: "#release", messageCount: 1 }])
    const workflows = await atrium.request("GET", `/hub/v1/workspaces/${target.id}/workflows`, { token: target.user.token })
    expect(workflows.body.items).toMatchObject([{ name: "Tickets", trigger: { type: "event", eventType: "ticket.created" } }])

    // The outcome reaches the owner by mail (the hub's mail list).
    const mails = await atrium.request("GET", "/hub/v1/emails?kind=workspace_migration", { token: source.token })
    expect(mails.body.items[0].text).toContain(`${job.body.id}`)
    expect(mails.body.items[0].text).toContain("completed")

    // Again: everyone is already invited there (409: nothing left to carry over for them).
    const again = await migrate(from, target.id, source.token, target.user.token)
    expect(again.body.id).not.toBe(job.body.id)
    expect(await finished(again.body.id)).toBe("completed")
    const [second] = await atrium.sql(`SELECT steps FROM hub_workspace_migrations WHERE id = $1`, [again.body.id])
    expect(second!.steps.slice(1, 3).every((step: { status: number }) => step.status === 409)).toBe(true)

    const refused = await migrate(from, target.id, source.token, "not-a-token")
    expect(await finished(refused.body.id)).toBe("failed")
    const [failed] = await atrium.sql(`SELECT steps, error FROM hub_workspace_migrations WHERE id = $1`, [refused.body.id])
    expect(failed!.steps).toMatchObject([{ name: "settings", ok: false, status: 401 }])
    expect(failed!.error).toMatch(/refused/)
    const badOrigin = await atrium.request("POST", `/hub/v1/workspaces/${from}/migrations`, {
      token: source.token,
      body: { targetOrigin: "ftp://x", targetWorkspaceId: target.id, targetCredential: "x" }
    })
    expect(badOrigin.status).toBe(400)
    expect(badOrigin.body.error.details[0].path).toContain("targetOrigin")
  })

  it("resumes a job a dead node left running after its last finished item, and fails one interrupted too often", async () => {
    const source = await signUp(atrium, "Resumed")
    const target = await targetWorkspace("Resume target")
    const from = (await atrium.request("POST", "/hub/v1/workspaces", { token: source.token, body: { name: "Old" } })).body.id
    await atrium.request("POST", `/hub/v1/workspaces/${from}/invitations`, {
      token: source.token,
      body: { email: "late@example.com", role: "member" }
    })
    const sealed = await atrium.run(Effect.map(HubKeys, (keys) => keys.encrypt(target.user.token)))
    // As a node left it when killed: running, its lease lapsed, settings already imported.
    const settingsStep = { item: "settings", name: "settings", ok: true, status: 200, detail: "imported" }
    await atrium.sql(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by,
         credential_ciphertext, runs, started_at, lease_until)
       VALUES ($1, $2, $3, $4, 'running', $5::text::jsonb, $6, $7, $8, now(), now() - interval '1 second')`,
      ["0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e01", from, atrium.origin, target.id, JSON.stringify([settingsStep]), source.userId, sealed, 1]
    )
    expect(await finished("0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e01")).toBe("completed")
    const [resumed] = await atrium.sql(`SELECT steps, runs FROM hub_workspace_migrations WHERE id = '0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e01'`)
    expect(resumed!.steps.map((step: { item: string }) => step.item)).toEqual(["settings", "invitation:late@example.com"])
    expect(resumed!.runs).toBe(2)
    const invited = await atrium.request("GET", `/hub/v1/workspaces/${target.id}/invitations`, { token: target.user.token })
    expect(invited.body.items.map((i: { email: string }) => i.email)).toEqual(["late@example.com"])

    await atrium.sql(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by,
         credential_ciphertext, runs, lease_until)
       VALUES ($1, $2, $3, $4, 'running', '[]', $5, $6, 5, now() - interval '1 second')`,
      ["0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e02", from, atrium.origin, target.id, source.userId, sealed]
    )
    expect(await finished("0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e02")).toBe("failed")
    const [gaveUp] = await atrium.sql(
      `SELECT error, credential_ciphertext FROM hub_workspace_migrations WHERE id = '0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e02'`
    )
    expect(gaveUp).toMatchObject({ error: expect.stringMatching(/Interrupted/), credential_ciphertext: null })

    // A job another node is running: posting the same migration answers it, with its progress, instead of a second one.
    await atrium.sql(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by,
         credential_ciphertext, runs, total, lease_until)
       VALUES ($1, $2, $3, $4, 'running', $5::text::jsonb, $6, $7, 1, 4, now() + interval '1 hour')`,
      ["0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e03", from, atrium.origin, target.id, JSON.stringify([settingsStep]), source.userId, sealed]
    )
    const progress = await migrate(from, target.id, source.token, target.user.token)
    expect(progress.status).toBe(202)
    expect(progress.body).toMatchObject({ id: "0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e03", status: "running", progress: { done: 1, total: 4 } })
    await atrium.sql(`UPDATE hub_workspace_migrations SET status = 'failed' WHERE id = '0b3f6c0e-1a2b-4c3d-8e4f-5a6b7c8d9e03'`)
  })
})
