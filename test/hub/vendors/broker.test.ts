/**
 * The integration broker: tenants mapped to workspaces (secret shown once),
 * broker integrations bound to connections, the signed webhook (bad
 * signature / stale / unknown tenant → 401, malformed → 400 with nothing
 * stored, replay → 200 without effect, stored before acknowledged), and
 * workflows run by events and by hand over the adapters, with run history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { webhookHeaders } from "../../../actors/webhooks/StandardWebhooks.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { apiKey, type User, workspaceWith } from "../support/calls.ts"
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
const inboxCount = async () => Number((await atrium.sql(`SELECT count(*)::int AS n FROM hub_broker_inbox`))[0]!.n)

beforeAll(async () => {
  fake = await startFakeVendor()
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
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

  it("processes events stored but left pending (a node that died before running them)", async () => {
    await atrium.sql(
      `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload) VALUES ('evt_orphan', $1, $2, 'ticket.created', $3)`,
      [workspaceId, tenant.id, { data: { title: "Left behind" } }]
    )
    const processed = await atrium.request("POST", `${base()}/connector/tenants/${tenant.id}/events/process`, { token: alice.token })
    expect(processed.body).toEqual({ processed: 1, pending: 0 })
    expect(issuesCreated().at(-1)!.body.title).toBe("Left behind")
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
    expect(listed.body.items).toMatchObject([{ id: workflowId, enabled: false }])
  })

  it("forgets an integration and unmaps a tenant", async () => {
    expect((await atrium.request("DELETE", `${base()}/connector/integrations/${integrationId}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `${base()}/connector/integrations/${integrationId}`, { token: alice.token })).status).toBe(404)
    expect((await atrium.request("DELETE", `${base()}/connector/tenants/${tenant.id}`, { token: alice.token })).status).toBe(204)
    expect((await deliver({ type: "x", data: {} })).status).toBe(401)
  })
})
