/**
 * The integration broker: tenants mapped to workspaces (secret shown once),
 * broker integrations bound to connections, the signed webhook (bad
 * signature / stale / unknown tenant → 401, malformed → 400 with nothing
 * stored, replay → 200 without effect, stored before acknowledged),
 * workflows run by events and by hand over the adapters, with run history,
 * and the background inbox processor (events left pending are applied,
 * failures retried with backoff, each event applied once however many
 * processors claim).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { processDue } from "../../../actors/hub/broker/Inbox.ts"
import { webhookHeaders } from "../../../actors/webhooks/StandardWebhooks.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { apiKey, type User, workspaceWith } from "../support/calls.ts"
import { eventually } from "../support/receiver.ts"
import { type FakeVendor, startFakeVendor } from "./FakeVendor.ts"

let atrium: TestServer
let fake: FakeVendor
let alice: User
let bob: User
let mallory: User
let workspaceId: string
let tenant: { id: string; tenantId: string }
let secret: string
let connectionId: string
let workflowId: string
const savedEnv = { ...process.env }
const base = () => `/hub/v1/workspaces/${workspaceId}`

let eventCounter = 0
/** Posts a broker event signed with `withSecret` (timestamp offset in seconds); the raw body may be given as is. */
const deliver = (event: unknown, options: { secret?: string; tenantId?: string; id?: string; offset?: number; raw?: string } = {}) => {
  const body = options.raw ?? JSON.stringify(event)
  const id = options.id ?? `evt_${++eventCounter}_${Date.now()}`
  const headers = webhookHeaders(options.secret ?? secret, id, Math.floor(Date.now() / 1000) + (options.offset ?? 0), body)
  return atrium
    .request("POST", "/hub/v1/connector/webhook", {
      rawBody: body,
      headers: { ...headers, "content-type": "application/json", "x-connector-tenant-id": options.tenantId ?? tenant.tenantId }
    })
    .then((response) => ({ ...response, id }))
}

const issuesCreated = () => fake.seen.filter((request) => request.method === "POST" && request.path === "/api/issues")
const eventStatus = async (eventId: string) =>
  (await atrium.sql(`SELECT status FROM hub_broker_inbox WHERE tenant_ref = $1 AND event_id = $2`, [tenant.id, eventId]))[0]?.status
const inboxCount = async () => Number((await atrium.sql(`SELECT count(*)::int AS n FROM hub_broker_inbox`))[0]!.n)

beforeAll(async () => {
  fake = await startFakeVendor()
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  process.env.BROKER_INBOX_POLL_MS = "50"
  // Events a dead node left are found by the workers' safety poll (nothing signals them): keep it short here.
  process.env.WORKER_SAFETY_POLL_MS = "200"
  atrium = await startAtrium()
  alice = await signUp(atrium, "Alice")
  bob = await signUp(atrium, "Bob")
  mallory = await signUp(atrium, "Mallory")
  workspaceId = await workspaceWith(atrium, alice, [bob])
  const connection = await atrium.request("POST", `${base()}/integrations`, {
    token: alice.token,
    body: { vendor: "tracker", name: "Issues", baseUrl: fake.apiUrl, token: fake.grant() }
  })
  connectionId = connection.body.id
}, 60_000)

afterAll(async () => {
  await atrium?.close()
  await fake?.close()
  process.env = savedEnv
})

describe("tenant workspace connections", () => {
  it("maps a broker tenant to the workspace, showing its secret only once", async () => {
    const byMember = await atrium.request("POST", `${base()}/connector/tenants`, {
      token: bob.token,
      body: { tenantId: "acme", name: "Acme" }
    })
    expect(byMember.status).toBe(403)
    const created = await atrium.request("POST", `${base()}/connector/tenants`, {
      token: alice.token,
      body: { tenantId: "acme", name: "Acme" }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body.signingSecret).toMatch(/^whsec_/)
    tenant = created.body.tenant
    secret = created.body.signingSecret
    const listed = await atrium.request("GET", `${base()}/connector/tenants`, { token: bob.token })
    expect(listed.body.items).toMatchObject([{ id: tenant.id, tenantId: "acme", enabled: true }])
    expect(listed.text).not.toContain(secret)
    const [row] = await atrium.sql(`SELECT secret_ciphertext FROM hub_broker_tenants WHERE id = $1`, [tenant.id])
    expect(row!.secret_ciphertext).not.toContain(secret.slice(6))

    const taken = await atrium.request("POST", `${base()}/connector/tenants`, {
      token: alice.token,
      body: { tenantId: "acme", name: "Again" }
    })
    expect(taken.status).toBe(409)
    expect(taken.body.error.details[0].path).toBe("body.tenantId")
    const foreign = await atrium.request("GET", `${base()}/connector/tenants/${tenant.id}`, { token: mallory.token })
    expect(foreign.status).toBe(404)
    const reader = await apiKey(atrium, alice, workspaceId, ["integrations:read"])
    expect((await atrium.request("GET", `${base()}/connector/tenants/${tenant.id}`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("POST", `${base()}/connector/tenants/${tenant.id}/secret`, { apiKey: reader })).status).toBe(403)
  })
})

describe("connector webhook and workflows", () => {
  let integrationId: string

  beforeAll(async () => {
    const workflow = await atrium.request("POST", `${base()}/workflows`, {
      token: alice.token,
      body: {
        name: "Tickets to tracker",
        trigger: { type: "event", eventType: "ticket.created" },
        steps: [
          { vendor: "tracker", destination: "ENG", title: "{{data.title}}", description: "Via {{event.type}} ({{data.meta.priority}})" }
        ]
      }
    })
    expect(workflow.status, workflow.text).toBe(201)
    workflowId = workflow.body.id
    const integration = await atrium.request("POST", `${base()}/connector/integrations`, {
      token: alice.token,
      body: { tenantConnectionId: tenant.id, externalId: "int_7", app: "helpdesk", name: "Helpdesk", connectionId }
    })
    expect(integration.status, integration.text).toBe(201)
    integrationId = integration.body.id
  })

  it("stores, acknowledges and runs a signed event once; a replay changes nothing", async () => {
    const event = { type: "ticket.created", integrationId: "int_7", data: { title: "Login fails", meta: { priority: "high" } } }
    const first = await deliver(event)
    expect(first.status, first.text).toBe(200)
    expect(first.body).toEqual({ eventId: first.id, outcome: "accepted", runs: 1 })
    expect(issuesCreated().at(-1)!.body).toEqual({ project: "ENG", title: "Login fails", description: "Via ticket.created (high)" })

    const count = issuesCreated().length
    const replay = await deliver(event, { id: first.id })
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual({ eventId: first.id, outcome: "duplicate", runs: 0 })
    expect(issuesCreated()).toHaveLength(count)

    const events = await atrium.request("GET", `${base()}/connector/tenants/${tenant.id}/events`, { token: bob.token })
    expect(events.body.items[0]).toMatchObject({ eventId: first.id, type: "ticket.created", runs: 1 })
    expect(events.body.items[0].processedAt).not.toBeNull()
    const runs = await atrium.request("GET", `${base()}/workflows/${workflowId}/runs`, { token: bob.token })
    expect(runs.body.items[0]).toMatchObject({
      triggerEvent: first.id,
      status: "succeeded",
      startedBy: "event",
      steps: [{ status: "succeeded" }]
    })
  })

  it("refuses bad signatures, stale timestamps, unknown tenants (401) and malformed events (400), storing nothing", async () => {
    const before = await inboxCount()
    const event = { type: "ticket.created", data: { title: "x" } }
    expect((await deliver(event, { secret: "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })).status).toBe(401)
    expect((await deliver(event, { offset: -600 })).status).toBe(401)
    expect((await deliver(event, { tenantId: "nobody" })).status).toBe(401)
    const notJson = await deliver(undefined, { raw: "{not json" })
    expect(notJson.status).toBe(400)
    expect(notJson.body.error.details[0].path).toBe("body")
    const noType = await deliver({ data: {} })
    expect(noType.status).toBe(400)
    expect(noType.body.error.details.map((detail: { path: string }) => detail.path)).toContain("body.type")
    expect(await inboxCount()).toBe(before)
  })

  it("runs nothing for a disabled integration or an untriggered type, and follows a rotated secret", async () => {
    const count = issuesCreated().length
    expect(
      (await atrium.request("PATCH", `${base()}/connector/integrations/${integrationId}`, { token: alice.token, body: { enabled: false } }))
        .status
    ).toBe(200)
    const disabled = await deliver({ type: "ticket.created", integrationId: "int_7", data: { title: "ignored" } })
    expect(disabled.body).toMatchObject({ outcome: "accepted", runs: 0 })
    const other = await deliver({ type: "ticket.closed", data: {} })
    expect(other.body).toMatchObject({ outcome: "accepted", runs: 0 })
    expect(issuesCreated()).toHaveLength(count)

    const rotated = await atrium.request("POST", `${base()}/connector/tenants/${tenant.id}/secret`, { token: alice.token })
    expect(rotated.status).toBe(200)
    expect((await deliver({ type: "x", data: {} })).status).toBe(401)
    secret = rotated.body.signingSecret
    expect((await deliver({ type: "x", data: {} })).status).toBe(200)
  })

  it("applies events a node stored but never applied in the background, and on demand those waiting for a retry", async () => {
    // Stored by a node that died before applying it, and one whose claim's holder died mid-way (its lease ran out).
    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, claimed_until)
       VALUES ('evt_orphan', $1, $2, 'ticket.created', $3, NULL), ('evt_abandoned', $1, $2, 'ticket.created', $4, now() - interval '1 second')`,
      [workspaceId, tenant.id, { data: { title: "Left behind" } }, { data: { title: "Abandoned" } }]
    )
    await eventually(
      async () => (await eventStatus("evt_orphan")) === "processed" && (await eventStatus("evt_abandoned")) === "processed",
      "the left-behind events applied"
    )
    const titles = issuesCreated().map((request) => request.body.title)
    expect(titles.filter((title) => title === "Left behind")).toHaveLength(1)
    expect(titles.filter((title) => title === "Abandoned")).toHaveLength(1)

    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, next_attempt_at)
       VALUES ('evt_waiting', $1, $2, 'ticket.created', $3, now() + interval '1 hour')`,
      [workspaceId, tenant.id, { data: { title: "Waiting" } }]
    )
    const processed = await atrium.request("POST", `${base()}/connector/tenants/${tenant.id}/events/process`, { token: alice.token })
    expect(processed.body).toEqual({ processed: 1, pending: 0 })
    expect(issuesCreated().at(-1)!.body.title).toBe("Waiting")
  })

  it("records a failed event and retries it with backoff, running only the workflows that failed", async () => {
    const second = await atrium.request("POST", `${base()}/workflows`, {
      token: alice.token,
      body: {
        name: "Escalations to tracker",
        trigger: { type: "event", eventType: "ticket.escalated" },
        steps: [{ vendor: "tracker", destination: "OPS", title: "Escalated: {{data.title}}" }]
      }
    })
    expect(second.status, second.text).toBe(201)
    await atrium.request("POST", `${base()}/workflows`, {
      token: alice.token,
      body: {
        name: "Every event to tracker",
        trigger: { type: "event", eventType: "*" },
        steps: [{ vendor: "tracker", destination: "LOG", title: "Seen {{event.type}}" }]
      }
    })
    // The first workflow's push fails (the adapter's own retries included); the second succeeds.
    fake.force({ status: 500 }, { status: 500 }, { status: 500 })
    const failing = await deliver({ type: "ticket.escalated", data: { title: "Outage" } })
    expect(failing.body).toMatchObject({ outcome: "accepted", runs: 2 })
    const [stored] = (await atrium.request("GET", `${base()}/connector/tenants/${tenant.id}/events?limit=1`, { token: bob.token })).body
      .items
    expect(stored).toMatchObject({ eventId: failing.id, status: "pending", attempts: 1, runs: 2, processedAt: null })
    expect(stored.lastError).toMatch(/1 workflow run\(s\) failed/)
    expect(Date.parse(stored.nextAttemptAt)).toBeGreaterThan(Date.now())
    expect(stored.workflows.map((run: { status: string }) => run.status).sort()).toEqual(["failed", "succeeded"])

    const before = issuesCreated().length
    await atrium.sql(`UPDATE hub_broker_inbox SET next_attempt_at = now() WHERE event_id = $1`, [failing.id])
    await eventually(async () => (await eventStatus(failing.id)) === "processed", "the retried event applied")
    const retried = issuesCreated().slice(before)
    expect(retried.map((request) => request.body.title)).toEqual(["Escalated: Outage"])
    const [done] = await atrium.sql(`SELECT attempts, runs, last_error FROM hub_broker_inbox WHERE event_id = $1`, [failing.id])
    expect(done).toMatchObject({ attempts: 2, runs: 3, last_error: null })
    await atrium.request("PATCH", `${base()}/workflows/${second.body.id}`, { token: alice.token, body: { enabled: false } })
  })

  it("gives up on an event after its last attempt, keeping it as failed", async () => {
    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, attempts, next_attempt_at)
       VALUES ('evt_last_try', $1, $2, 'ticket.created', $3, 7, now() + interval '1 hour')`,
      [workspaceId, tenant.id, { data: { title: "Last try" } }]
    )
    fake.force(...Array.from({ length: 6 }, () => ({ status: 500 })))
    await atrium.request("POST", `${base()}/connector/tenants/${tenant.id}/events/process`, { token: alice.token })
    const [row] = await atrium.sql(`SELECT status, attempts, last_error FROM hub_broker_inbox WHERE event_id = 'evt_last_try'`)
    expect(row).toMatchObject({ status: "failed", attempts: 8 })
    expect(row!.last_error).toMatch(/failed/)
    await atrium.sql(`UPDATE hub_broker_inbox SET next_attempt_at = now() WHERE event_id = 'evt_last_try'`)
    expect(await atrium.run(processDue())).toBe(0)
  })

  it("applies each event once when several processors (nodes) claim at the same time", async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `evt_race_${index}`)
    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, next_attempt_at)
       SELECT id, $1, $2, 'ticket.created', jsonb_build_object('data', jsonb_build_object('title', id)), now() + interval '1 hour'
         FROM unnest($3::text[]) AS id`,
      [workspaceId, tenant.id, ids]
    )
    await atrium.sql(`UPDATE hub_broker_inbox SET next_attempt_at = now() WHERE event_id = ANY($1)`, [ids])
    await Promise.all([atrium.run(processDue(2)), atrium.run(processDue(3)), atrium.run(processDue(5))])
    await eventually(async () => {
      const [row] = await atrium.sql(`SELECT count(*)::int AS n FROM hub_broker_inbox WHERE event_id = ANY($1) AND status = 'processed'`, [
        ids
      ])
      return row!.n === ids.length
    }, "every raced event applied")
    const runs = await atrium.sql(
      `SELECT trigger_event, count(*)::int AS n FROM hub_workflow_runs WHERE trigger_event = ANY($1) GROUP BY trigger_event`,
      [ids]
    )
    expect(runs).toHaveLength(ids.length)
    // Two workflows take ticket.created ("Tickets to tracker" and the catch-all): each ran once per event.
    expect(runs.every((row) => row.n === 2)).toBe(true)
    const attempts = await atrium.sql(`SELECT DISTINCT attempts FROM hub_broker_inbox WHERE event_id = ANY($1)`, [ids])
    expect(attempts).toEqual([{ attempts: 1 }])
  })

  it("runs a workflow by hand; a failing vendor fails the run (named), not the request", async () => {
    const ok = await atrium.request("POST", `${base()}/workflows/${workflowId}/runs`, {
      token: bob.token,
      body: { data: { title: "By hand" } }
    })
    expect(ok.status, ok.text).toBe(201)
    expect(ok.body).toMatchObject({ status: "succeeded", triggerEvent: null, startedBy: bob.userId })
    fake.force({ status: 500 }, { status: 500 }, { status: 500 })
    const failed = await atrium.request("POST", `${base()}/workflows/${workflowId}/runs`, {
      token: bob.token,
      body: { data: { title: "Down" } }
    })
    expect(failed.status).toBe(201)
    expect(failed.body.status).toBe("failed")
    expect(failed.body.steps[0].message).toMatch(/issue tracker "Issues" failed \(500\)/)

    const badStep = await atrium.request("PATCH", `${base()}/workflows/${workflowId}`, {
      token: alice.token,
      body: { steps: [{ vendor: "taskapp", connectionId, title: "x" }] }
    })
    expect(badStep.status).toBe(400)
    expect(badStep.body.error.details[0].path).toBe("body.steps[0].connectionId")
    expect(
      (await atrium.request("PATCH", `${base()}/workflows/${workflowId}`, { token: alice.token, body: { enabled: false } })).status
    ).toBe(200)
    expect((await atrium.request("POST", `${base()}/workflows/${workflowId}/runs`, { token: bob.token, body: {} })).status).toBe(409)
    expect((await atrium.request("POST", `${base()}/workflows/${workflowId}/runs`, { token: mallory.token, body: {} })).status).toBe(404)
    const listed = await atrium.request("GET", `${base()}/workflows`, { token: bob.token })
    expect(listed.body.items.find((item: { id: string }) => item.id === workflowId)).toMatchObject({ enabled: false })
  })

  it("forgets an integration and unmaps a tenant", async () => {
    expect((await atrium.request("DELETE", `${base()}/connector/integrations/${integrationId}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `${base()}/connector/integrations/${integrationId}`, { token: alice.token })).status).toBe(404)
    expect((await atrium.request("DELETE", `${base()}/connector/tenants/${tenant.id}`, { token: alice.token })).status).toBe(204)
    expect((await deliver({ type: "x", data: {} })).status).toBe(401)
  })
})
