/**
 * The hub's background work survives a restart of its only node: a broker
 * event stored (and claimed) by a process that died is applied by the next
 * one, a workspace migration it was running resumes after its last recorded
 * item, and a mail it queued is sent.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HubKeys } from "../../../actors/hub/HubKeys.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { workspaceWith } from "../support/calls.ts"
import { eventually } from "../support/receiver.ts"
import { type FakeVendor, startFakeVendor } from "../vendors/FakeVendor.ts"
import { startSmtpSink } from "../../support/SmtpSink.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-hub-background-"))
const savedEnv = { ...process.env }
let atrium: TestServer | undefined
let fake: FakeVendor
let sink: Awaited<ReturnType<typeof startSmtpSink>>

beforeAll(async () => {
  fake = await startFakeVendor()
  sink = await startSmtpSink()
  process.env.SMTP_URL = sink.url
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
})
afterAll(async () => {
  await atrium?.close()
  await fake?.close()
  await sink?.close()
  process.env = savedEnv
  rmSync(dataDir, { recursive: true, force: true })
})

/** Polls `read` until `done` holds for its answer; answers it. */
const settledTo = <A>(read: () => Promise<A>, done: (value: A) => boolean, what: string) =>
  eventually(async () => {
    const value = await read()
    return done(value) ? value : undefined
  }, what)

describe("background work across a restart", () => {
  it("applies stored events, resumes migrations and sends queued mail after the node restarts", { timeout: 120_000 }, async () => {
    // The first process looks once at start, then not for ten minutes: what it leaves is the next one's.
    process.env.BROKER_INBOX_POLL_MS = "600000"
    process.env.MIGRATION_POLL_MS = "600000"
    process.env.MAIL_POLL_MS = "600000"
    atrium = await startAtrium({ dataDir })
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const workspaceId = await workspaceWith(atrium, alice, [])
    const targetId = await workspaceWith(atrium, bob, [])
    const base = `/hub/v1/workspaces/${workspaceId}`
    const connection = await atrium.request("POST", `${base}/integrations`, {
      token: alice.token,
      body: { vendor: "tracker", name: "Issues", baseUrl: fake.apiUrl, token: fake.grant() }
    })
    expect(connection.status, connection.text).toBe(201)
    const tenant = await atrium.request("POST", `${base}/connector/tenants`, {
      token: alice.token,
      body: { tenantId: "acme", name: "Acme" }
    })
    const workflow = await atrium.request("POST", `${base}/workflows`, {
      token: alice.token,
      body: {
        name: "Tickets",
        trigger: { type: "event", eventType: "ticket.created" },
        steps: [{ vendor: "tracker", destination: "ENG", title: "{{data.title}}" }]
      }
    })
    expect(workflow.status, workflow.text).toBe(201)
    await atrium.request("POST", `${base}/invitations`, { token: alice.token, body: { email: "carol@example.com", role: "member" } })

    // What the process leaves when killed: an event it stored and had claimed, a migration it was running
    // (settings done), a mail it had queued.
    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, claimed_until, attempts)
       VALUES ('evt_before_crash', $1, $2, 'ticket.created', $3, now() + interval '5 minutes', 1)`,
      [workspaceId, tenant.body.tenant.id, { data: { title: "Stored before the crash" } }]
    )
    const sealed = await atrium.run(Effect.map(HubKeys, (keys) => keys.encrypt(bob.token)))
    const jobId = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
    await atrium.sql(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by,
         credential_ciphertext, runs, started_at, lease_until)
       VALUES ($1, $2, $3, $4, 'running', $5::text::jsonb, $6, $7, 1, now(), now() + interval '1 hour')`,
      [
        jobId,
        workspaceId,
        atrium.origin,
        targetId,
        JSON.stringify([{ item: "settings", name: "settings", ok: true, status: 200, detail: "imported" }]),
        alice.userId,
        sealed
      ]
    )
    await atrium.sql(
      `INSERT INTO hub_mail_outbox (id, recipient, kind, subject, body_text, status) VALUES ($1, $2, 'test', 'Queued before the crash', 'hi', 'queued')`,
      ["7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918", alice.email]
    )
    await atrium.close()
    atrium = undefined

    process.env.BROKER_INBOX_POLL_MS = "50"
    process.env.MIGRATION_POLL_MS = "50"
    process.env.MAIL_POLL_MS = "50"
    atrium = await startAtrium({ dataDir })
    const server = atrium
    // The migration's target is this same deployment, now at another port.
    await server.sql(`UPDATE hub_workspace_migrations SET target_origin = $2 WHERE id = $1`, [jobId, server.origin])

    const [event] = await settledTo(
      () => server.sql(`SELECT status, attempts, runs FROM hub_broker_inbox WHERE event_id = 'evt_before_crash'`),
      ([row]) => row?.status === "processed",
      "the stored event applied"
    )
    expect(event).toMatchObject({ attempts: 2, runs: 1 })
    expect(fake.seen.filter((request) => request.method === "POST" && request.body?.title === "Stored before the crash")).toHaveLength(1)

    const [job] = await settledTo(
      () => server.sql(`SELECT status, steps, runs FROM hub_workspace_migrations WHERE id = $1`, [jobId]),
      ([row]) => row?.status !== "running",
      "the migration finished"
    )
    expect(job!.status).toBe("completed")
    expect(job!.runs).toBe(2)
    expect(job!.steps.map((step: { item: string }) => step.item)).toEqual([
      "settings",
      "invitation:carol@example.com",
      `workflow:${workflow.body.id}`,
      `connection:${connection.body.id}`,
      `tenant:${tenant.body.tenant.id}`
    ])

    await eventually(() => sink.received.some((mail) => mail.raw.includes("Queued before the crash")), "the queued mail sent")
    expect(sink.received.filter((mail) => mail.raw.includes("Queued before the crash"))).toHaveLength(1)
  })
})
