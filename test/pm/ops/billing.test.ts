/**
 * Billing: plans, seats bound to members (a full workspace cannot add a
 * member: 409), invoices, cancellation; the payment provider's signed
 * webhook (HMAC over timestamp and raw body, 5-minute tolerance,
 * idempotent by event id, out-of-order events resolved by event time).
 * Also the public version and tenant branding.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signPayment } from "../../../actors/billing/PaymentSignature.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

const SECRET = "whsec_test_secret"
let atrium: TestServer
let owner: Awaited<ReturnType<typeof signUp>>
let admin: Awaited<ReturnType<typeof signUp>>
let workspaceId: string

beforeAll(async () => {
  process.env.PAYMENT_WEBHOOK_SECRET = SECRET
  atrium = await startAtrium()
  owner = await signUp(atrium, "Owner")
  admin = await signUp(atrium, "Admin")
  workspaceId = (await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } })).body.id
  await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
    token: owner.token,
    body: { email: admin.email, role: "admin" }
  })
}, 60_000)
afterAll(async () => {
  delete process.env.PAYMENT_WEBHOOK_SECRET
  await atrium?.close()
})

const billing = (method: string, path: string, body?: unknown, token = owner.token) =>
  atrium.request(method, `/pm/v1/workspaces/${workspaceId}/billing${path}`, { token, ...(body !== undefined ? { body } : {}) })

const deliver = (event: unknown, options: { secret?: string; at?: number; body?: string } = {}) => {
  const body = options.body ?? JSON.stringify(event)
  const t = options.at ?? Math.floor(Date.now() / 1000)
  return atrium.request("POST", "/pm/v1/payments/webhook", {
    rawBody: body,
    headers: { "content-type": "application/json", "payment-signature": `t=${t},v1=${signPayment(options.secret ?? SECRET, t, body)}` }
  })
}

describe("billing", () => {
  it("plans are public; a new workspace is on Free without a seat limit", async () => {
    const plans = await atrium.request("GET", "/pm/v1/billing/plans")
    expect(plans.body.items.map((p: { id: string }) => p.id)).toEqual(["free", "team", "business"])
    expect((await billing("GET", "")).body).toMatchObject({ planId: "free", seats: null, status: "active" })
  })

  it("seats: a plan with fewer seats than members is refused; a full workspace cannot add members", async () => {
    const tooFew = await billing("PUT", "/plan", { planId: "team", seats: 1 })
    expect(tooFew.status).toBe(400)
    expect(tooFew.body.error.details[0].path).toBe("body.seats")
    expect((await billing("PUT", "/plan", { planId: "team", seats: 2 }, admin.token)).status).toBe(403)
    const team = await billing("PUT", "/plan", { planId: "team", seats: 2 })
    expect(team.status, team.text).toBe(200)
    expect(team.body.invoice).toMatchObject({ status: "open", amountDueCents: 1600, number: "INV-00001" })
    const seats = await billing("GET", "/seats", undefined, admin.token)
    expect(seats.body).toMatchObject({ seats: 2, used: 2, available: 0 })
    const carol = await signUp(atrium, "Carol")
    const full = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: owner.token,
      body: { email: carol.email, role: "member" }
    })
    expect(full.status).toBe(409)
    expect(full.body.error.message).toMatch(/limit of 2 members/)
    expect((await billing("PUT", "/seats", { seats: 1 })).status).toBe(400)
    const more = await billing("PUT", "/seats", { seats: 3 })
    expect(more.body.invoice.lines[0]).toMatchObject({ quantity: 1, description: "Team: 1 added seats (prorated)" })
    const added = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: owner.token,
      body: { email: carol.email, role: "member" }
    })
    expect(added.status).toBe(201)
    const fewer = await billing("PUT", "/seats", { seats: 2 })
    expect(fewer.status).toBe(409)
    expect(fewer.body.error.message).toMatch(/has 3 members/)
    const invoices = await billing("GET", "/invoices?status=open")
    expect(invoices.body.items.map((i: { number: string }) => i.number)).toEqual(["INV-00002", "INV-00001"])
    expect((await billing("GET", `/invoices/${invoices.body.items[1].id}`)).body.amountDueCents).toBe(1600)
    expect((await billing("GET", "/invoices/00000000-0000-4000-8000-000000000000")).status).toBe(404)
  })

  it("contact, cancel at period end, resume", async () => {
    const contact = await billing("PATCH", "/contact", { email: "billing@acme.example", companyName: "Acme Inc." }, admin.token)
    expect(contact.body.contact).toMatchObject({ email: "billing@acme.example", companyName: "Acme Inc.", taxId: null })
    expect((await billing("PATCH", "/contact", { email: "nope" })).body.error.details[0].path).toBe("body.email")
    expect((await billing("POST", "/cancel")).body.cancelAtPeriodEnd).toBe(true)
    expect((await billing("POST", "/cancel")).status).toBe(409)
    expect((await billing("POST", "/resume")).body.cancelAtPeriodEnd).toBe(false)
  })

  it("the payment webhook: signature, tolerance, idempotence, event-time order", async () => {
    const invoice = (await billing("GET", "/invoices")).body.items.at(-1)
    const paid = {
      id: "evt_paid_1",
      type: "invoice.paid",
      createdAt: new Date(Date.now() - 1000).toISOString(),
      data: { workspaceId, invoiceId: invoice.id }
    }
    const wrongSecret = await deliver(paid, { secret: "other" })
    expect(wrongSecret.status).toBe(401)
    expect(wrongSecret.body.error.message).toMatch(/does not match/)
    const old = await deliver(paid, { at: Math.floor(Date.now() / 1000) - 600 })
    expect(old.status).toBe(401)
    expect(old.body.error.message).toMatch(/tolerance/)
    const unsigned = await atrium.request("POST", "/pm/v1/payments/webhook", { body: paid })
    expect(unsigned.status).toBe(401)
    const malformed = await deliver({ ...paid, type: "invoice.exploded" })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details[0].path).toBe("body.type")

    expect((await deliver(paid)).body).toEqual({ eventId: "evt_paid_1", outcome: "applied", detail: null })
    expect((await deliver(paid)).body.outcome).toBe("duplicate")
    // A failure that happened before the payment arrives late: it changes nothing.
    const lateFailure = {
      id: "evt_failed_0",
      type: "invoice.payment_failed",
      createdAt: new Date(Date.now() - 60_000).toISOString(),
      data: { workspaceId, invoiceId: invoice.id }
    }
    expect((await deliver(lateFailure)).body.outcome).toBe("stale")
    expect((await billing("GET", `/invoices/${invoice.id}`)).body).toMatchObject({ status: "paid", amountPaidCents: 1600 })

    const other = (await billing("GET", "/invoices")).body.items[0]
    await deliver({
      id: "evt_failed_1",
      type: "invoice.payment_failed",
      createdAt: new Date().toISOString(),
      data: { workspaceId, invoiceId: other.id }
    })
    expect((await billing("GET", "")).body.status).toBe("past_due")
    await deliver({
      id: "evt_paid_2",
      type: "invoice.paid",
      createdAt: new Date().toISOString(),
      data: { workspaceId, invoiceId: other.id }
    })
    expect((await billing("GET", "")).body.status).toBe("active")

    const canceled = { id: "evt_sub_2", type: "subscription.canceled", createdAt: new Date().toISOString(), data: { workspaceId } }
    const earlierUpdate = {
      id: "evt_sub_1",
      type: "subscription.updated",
      createdAt: new Date(Date.now() - 5000).toISOString(),
      data: { workspaceId, status: "active" }
    }
    expect((await deliver(canceled)).body.outcome).toBe("applied")
    expect((await deliver(earlierUpdate)).body.outcome).toBe("stale")
    expect((await billing("GET", "")).body.status).toBe("canceled")
    const unknownWs = await deliver({ ...canceled, id: "evt_x", data: { workspaceId: "00000000-0000-4000-8000-000000000000" } })
    expect(unknownWs.body.outcome).toBe("ignored")
    const audit = await atrium.sql<{ action: string }>("SELECT action FROM platform_audit WHERE actor = 'payment' ORDER BY id")
    expect(audit.map((row) => row.action)).toEqual([
      "billing.invoice.paid",
      "billing.invoice.payment_failed",
      "billing.invoice.paid",
      "billing.subscription.canceled"
    ])
  })

  it("billing is for workspace admins with a user session", async () => {
    const outsider = await signUp(atrium, "Outsider")
    expect((await billing("GET", "", undefined, outsider.token)).status).toBe(404)
    const key = await atrium.request("POST", "/pm/v1/api-keys", {
      token: owner.token,
      body: { workspaceId, name: "k", scopes: ["workspaces:read"] }
    })
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/billing`, { apiKey: key.body.key })).status).toBe(403)
  })
})

describe("version and public tenant", () => {
  it("reports the release, commit and latest migration", async () => {
    const version = await atrium.request("GET", "/pm/v1/version")
    expect(version.body).toMatchObject({ service: "atrium", version: "0.1.0", node: process.version })
    expect(version.body.commit).toMatch(/^([0-9a-f]{40}|unknown|.+)$/)
    const latest = await atrium.sql<{ version: number }>("SELECT max(version) AS version FROM schema_migrations")
    expect(version.body.schemaVersion).toBe(latest[0]!.version)
  })

  it("shows a workspace's branding and sign-in options without credentials", async () => {
    await atrium.request("PATCH", `/pm/v1/workspaces/${workspaceId}/branding`, {
      token: owner.token,
      body: { color: "#112233", tagline: "Rockets" }
    })
    const tenant = await atrium.request("GET", `/pm/v1/public/tenants/${workspaceId}`)
    expect(tenant.status, tenant.text).toBe(200)
    expect(tenant.body).toMatchObject({
      workspaceId,
      branding: { name: "Acme", initials: "A" },
      signIn: { password: true, sso: false, ssoStartUrl: null }
    })
    expect((await atrium.request("GET", "/pm/v1/public/tenants/00000000-0000-4000-8000-000000000000")).status).toBe(404)
  })
})
