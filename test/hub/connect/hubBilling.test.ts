/**
 * hub billing: plans, the overview (subscription, plan, seats), plan and seat
 * changes bounded by members, invoices, usage of the period, the subscription
 * (cancel at period end, keep), and the payment provider's signed webhook at
 * /hub/v1/payments/webhook (bad signature or stale → 401, malformed → 400,
 * replay → 200 without effect, out-of-order events resolved by event time).
 * The hub and pm share the workspace's one billing actor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signPayment } from "../../../actors/billing/PaymentSignature.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { apiKey, record, type User, workspaceWith } from "../support/calls.ts"

const SECRET = "whsec_hub_test_secret"
let atrium: TestServer
let owner: User
let member: User
let outsider: User
let workspaceId: string

beforeAll(async () => {
  process.env.PAYMENT_WEBHOOK_SECRET = SECRET
  atrium = await startAtrium()
  ;[owner, member, outsider] = await Promise.all(["Owner", "Member", "Outsider"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, owner, [member])
}, 60_000)
afterAll(async () => {
  delete process.env.PAYMENT_WEBHOOK_SECRET
  await atrium?.close()
})

const billing = (method: string, path: string, body?: unknown, token = owner.token) =>
  atrium.request(method, `/hub/v1/workspaces/${workspaceId}${path}`, { token, ...(body !== undefined ? { body } : {}) })

const deliver = (event: unknown, options: { secret?: string; at?: number; body?: string } = {}) => {
  const body = options.body ?? JSON.stringify(event)
  const t = options.at ?? Math.floor(Date.now() / 1000)
  return atrium.request("POST", "/hub/v1/payments/webhook", {
    rawBody: body,
    headers: { "content-type": "application/json", "payment-signature": `t=${t},v1=${signPayment(options.secret ?? SECRET, t, body)}` }
  })
}

describe("hub billing", () => {
  it("plans are public; the overview shows the free plan, seats and members; only admins read it", async () => {
    const plans = await atrium.request("GET", "/hub/v1/billing/plans")
    expect(plans.body.items.map((plan: { id: string }) => plan.id)).toEqual(["free", "team", "business"])
    const overview = await billing("GET", "/billing")
    expect(overview.status, overview.text).toBe(200)
    expect(overview.body).toMatchObject({ plan: { id: "free" }, subscription: { status: "active" }, seats: { seats: null, used: 2 } })
    expect((await billing("GET", "/billing", undefined, member.token)).status).toBe(403)
    expect((await billing("GET", "/billing", undefined, outsider.token)).status).toBe(404)
    const key = await apiKey(atrium, owner, workspaceId, ["recordings:read"])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/billing`, { headers: { "x-api-key": key } })).status).toBe(403)
  })

  it("plan and seats: never fewer seats than members; added seats are invoiced; pm sees the same subscription", async () => {
    const tooFew = await billing("PUT", "/billing/plan", { planId: "team", seats: 1 })
    expect(tooFew.status).toBe(400)
    expect(tooFew.body.error.details[0].path).toBe("body.seats")
    expect((await billing("PUT", "/billing/plan", { planId: "team", seats: 2 }, member.token)).status).toBe(403)
    const team = await billing("PUT", "/billing/plan", { planId: "team", seats: 2 })
    expect(team.status, team.text).toBe(200)
    expect(team.body.invoice).toMatchObject({ status: "open", amountDueCents: 1600 })
    const more = await billing("PUT", "/billing/seats", { seats: 4 })
    expect(more.body.invoice.lines[0]).toMatchObject({ quantity: 2 })
    expect((await billing("PUT", "/billing/seats", { seats: 1 })).status).toBe(400)
    expect((await billing("GET", "/billing")).body.seats).toEqual({ seats: 4, used: 2, available: 2 })
    const pm = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/billing`, { token: owner.token })
    expect(pm.body).toMatchObject({ planId: "team", seats: 4 })
    const invoices = await billing("GET", "/billing/invoices?status=open")
    expect(invoices.body.items).toHaveLength(2)
    expect((await billing("GET", "/billing/invoices?status=nope")).status).toBe(400)
  })

  it("usage counts the period's recordings and seats; Lens credits are not metered", async () => {
    await record(atrium, owner.token, workspaceId)
    const usage = await billing("GET", "/billing/usage")
    expect(usage.status, usage.text).toBe(200)
    expect(usage.body).toMatchObject({ recordings: 1, seats: { seats: 4, used: 2 }, meetingBots: 0, lensCredits: null })
    expect(Date.parse(usage.body.periodEnd)).toBeGreaterThan(Date.parse(usage.body.periodStart))
  })

  it("subscription: cancel at period end, keep it, refuse twice", async () => {
    const cancel = await billing("PATCH", "/subscription", { cancelAtPeriodEnd: true })
    expect(cancel.status, cancel.text).toBe(200)
    expect(cancel.body.cancelAtPeriodEnd).toBe(true)
    expect((await billing("PATCH", "/subscription", { cancelAtPeriodEnd: true })).status).toBe(409)
    expect((await billing("PATCH", "/subscription", { cancelAtPeriodEnd: false }, member.token)).status).toBe(403)
    expect((await billing("PATCH", "/subscription", { cancelAtPeriodEnd: false, extra: 1 })).status).toBe(400)
    const keep = await billing("PATCH", "/subscription", { cancelAtPeriodEnd: false })
    expect(keep.body).toMatchObject({ cancelAtPeriodEnd: false, status: "active", planId: "team" })
    expect((await billing("GET", "/subscription")).body.seats).toBe(4)
  })

  it("payment webhook: signature, tolerance, malformed body, replay and out-of-order events", async () => {
    const invoiceId = (await billing("GET", "/billing/invoices")).body.items[0].id
    const paid = {
      id: "evt_hub_paid",
      type: "invoice.paid",
      createdAt: new Date().toISOString(),
      data: { workspaceId, invoiceId, amountPaidCents: 1600 }
    }
    expect((await deliver(paid, { secret: "wrong" })).status).toBe(401)
    expect((await deliver(paid, { at: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401)
    const unsigned = await atrium.request("POST", "/hub/v1/payments/webhook", {
      rawBody: JSON.stringify(paid),
      headers: { "content-type": "application/json" }
    })
    expect(unsigned.status).toBe(401)
    const malformed = await deliver(undefined, { body: "{not json" })
    expect(malformed.status).toBe(400)
    const missing = await deliver({ ...paid, data: { invoiceId } })
    expect(missing.status).toBe(400)
    expect(missing.body.error.details[0].path).toBe("body.data.workspaceId")
    expect((await billing("GET", "/billing/invoices")).body.items[0].status).toBe("open")

    const applied = await deliver(paid)
    expect(applied.status, applied.text).toBe(200)
    expect(applied.body.outcome).toBe("applied")
    expect((await billing("GET", "/billing/invoices")).body.items[0]).toMatchObject({ status: "paid", amountPaidCents: 1600 })
    expect((await deliver(paid)).body.outcome).toBe("duplicate")

    const later = new Date(Date.now() + 1000).toISOString()
    const earlier = new Date(Date.now() - 60_000).toISOString()
    const pastDue = { id: "evt_hub_sub_2", type: "subscription.updated", createdAt: later, data: { workspaceId, status: "past_due" } }
    const stale = { id: "evt_hub_sub_1", type: "subscription.updated", createdAt: earlier, data: { workspaceId, status: "active" } }
    expect((await deliver(pastDue)).body.outcome).toBe("applied")
    expect((await deliver(stale)).body.outcome).toBe("stale")
    expect((await billing("GET", "/subscription")).body.status).toBe("past_due")
  })
})
