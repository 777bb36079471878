/**
 * pm tag "Billing Resource" (10): a workspace's plan, seats (bounding its
 * members), billing contact and invoices. Reading takes a workspace admin,
 * changing the plan, seats or cancellation takes the owner; user sessions
 * only. Payments themselves arrive as the provider's signed events
 * (PaymentWebhook.ts).
 */
import { Effect, Schema } from "effect"
import { Billing, Invoice, Subscription } from "../../../actors/billing/Billing.ts"
import { Plan, PlanId, plans } from "../../../actors/billing/Plans.ts"
import { usersByIds } from "../../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { operation, type RequestContext } from "../../Operation.ts"
import { changePlan, changeSeats } from "./BillingChanges.ts"
import { at, ids, WorkspaceIdParams } from "./Shared.ts"

const tag = "Billing Resource"
const service = "pm"
const params = { workspaceId: ids.workspace }
const Seats = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5000 }))
const Text = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))

const exampleSubscription = {
  planId: "team",
  seats: 10,
  status: "active",
  cancelAtPeriodEnd: false,
  currentPeriodStart: at,
  currentPeriodEnd: "2026-12-21T12:00:00.000Z",
  contact: { email: "billing@acme.example", companyName: "Acme Inc.", taxId: null, address: null },
  updatedAt: at
}
const exampleInvoice = {
  id: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b",
  number: "INV-00001",
  status: "open",
  currency: "usd",
  amountDueCents: 8000,
  amountPaidCents: 0,
  lines: [{ description: "Team: 10 seats", quantity: 10, unitAmountCents: 800, amountCents: 8000 }],
  periodStart: at,
  periodEnd: "2026-12-21T12:00:00.000Z",
  createdAt: at,
  paidAt: null,
  eventAt: null
}

/** The caller (a user session) with at least `minimum` in the workspace: returns who acts, for the history. */
const billingCaller = (context: RequestContext, workspaceId: string, minimum: "admin" | "owner") =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, minimum)
    return `user:${(yield* principalOf(context)).userId}`
  })

const ChangeResult = Schema.Struct({ subscription: Subscription, invoice: Schema.NullOr(Invoice) })

export const billingOperations = [
  operation({
    service,
    tag,
    operationId: "listBillingPlans",
    method: "GET",
    path: "/v1/billing/plans",
    summary: "The plans on offer, with their price per seat and seat range",
    auth: "public",
    scopes: [],
    responses: { 200: { description: "Plans", schema: Schema.Struct({ items: Schema.Array(Plan) }) } },
    examples: [{ name: "plans", response: { status: 200, body: { items: plans } } }],
    handler: () => Effect.succeed({ items: plans })
  }),
  operation({
    service,
    tag,
    operationId: "getBillingSubscription",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing",
    summary: "The workspace's subscription: plan, seats, status, period and billing contact (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription } },
    examples: [{ name: "read", request: { params }, response: { status: 200, body: exampleSubscription } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "subscription", {})
      })
  }),
  operation({
    service,
    tag,
    operationId: "changeBillingPlan",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/billing/plan",
    summary: "Move the workspace to a plan with a number of seats (owner); the new period is invoiced",
    description:
      "Seats default to the members there are, and may not be fewer (409). The seats become the most members the workspace can have.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({ planId: PlanId, seats: Schema.optionalKey(Seats) }),
    responses: {
      200: { description: "The subscription and its invoice", schema: ChangeResult },
      409: { description: "Fewer seats than members" }
    },
    examples: [
      {
        name: "team",
        request: { params, body: { planId: "team", seats: 10 } },
        response: { status: 200, body: { subscription: exampleSubscription, invoice: exampleInvoice } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.flatMap(billingCaller(context, params.workspaceId, "owner"), (by) =>
        changePlan(params.workspaceId, by, body.planId, body.seats)
      )
  }),
  operation({
    service,
    tag,
    operationId: "setBillingSeats",
    method: "PUT",
    path: "/v1/workspaces/{workspaceId}/billing/seats",
    summary: "Buy or release seats (owner): added seats are invoiced prorated; never fewer than the members",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({ seats: Seats }),
    responses: {
      200: { description: "The subscription and the invoice for added seats", schema: ChangeResult },
      409: { description: "Fewer seats than members, or no plan" }
    },
    examples: [
      {
        name: "add-seats",
        request: { params, body: { seats: 12 } },
        response: {
          status: 200,
          body: {
            subscription: { ...exampleSubscription, seats: 12 },
            invoice: {
              ...exampleInvoice,
              number: "INV-00002",
              amountDueCents: 1600,
              lines: [{ description: "Team: 2 added seats (prorated)", quantity: 2, unitAmountCents: 800, amountCents: 1600 }]
            }
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.flatMap(billingCaller(context, params.workspaceId, "owner"), (by) => changeSeats(params.workspaceId, by, body.seats))
  }),
  operation({
    service,
    tag,
    operationId: "getBillingSeats",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing/seats",
    summary: "Seats paid for and the members taking them (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: {
      200: {
        description: "Seats",
        schema: Schema.Struct({
          seats: Schema.NullOr(Schema.Number),
          used: Schema.Number,
          available: Schema.NullOr(Schema.Number),
          members: Schema.Array(Schema.Struct({ userId: Id, email: Schema.String, name: Schema.String, role: Schema.String }))
        })
      }
    },
    examples: [
      {
        name: "seats",
        request: { params },
        response: {
          status: 200,
          body: {
            seats: 10,
            used: 1,
            available: 9,
            members: [{ userId: ids.owner, email: "alice@example.com", name: "Alice", role: "owner" }]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const actors = yield* ActorSystem
        const ws = yield* actors.ask(Workspace, params.workspaceId, "inspect", {})
        const { seats } = yield* actors.ask(Billing, params.workspaceId, "subscription", {})
        const users = yield* Effect.orDie(usersByIds(ws.members.map((m) => m.userId)))
        return {
          seats,
          used: ws.members.length,
          available: seats === null ? null : Math.max(0, seats - ws.members.length),
          members: ws.members.map((m) => ({
            userId: m.userId,
            email: users.get(m.userId)?.email ?? "",
            name: users.get(m.userId)?.name ?? "",
            role: m.role
          }))
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "cancelBillingSubscription",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/billing/cancel",
    summary: "Cancel the paid subscription at the end of the period (owner)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription }, 409: { description: "Nothing to cancel" } },
    examples: [
      { name: "cancel", request: { params }, response: { status: 200, body: { ...exampleSubscription, cancelAtPeriodEnd: true } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "owner")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "cancel", { by })
      })
  }),
  operation({
    service,
    tag,
    operationId: "resumeBillingSubscription",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/billing/resume",
    summary: "Keep a subscription that was set to cancel (owner)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription }, 409: { description: "Not set to cancel" } },
    examples: [{ name: "resume", request: { params }, response: { status: 200, body: exampleSubscription } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "owner")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "resume", { by })
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateBillingContact",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/billing/contact",
    summary: "Change the billing contact: e-mail, company, tax id, address (admin); null clears one",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({
      email: Schema.optionalKey(
        Schema.NullOr(
          Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" }))
        )
      ),
      companyName: Schema.optionalKey(Text(200)),
      taxId: Schema.optionalKey(Text(50)),
      address: Schema.optionalKey(Text(1000))
    }),
    responses: { 200: { description: "Subscription", schema: Subscription } },
    examples: [
      {
        name: "contact",
        request: { params, body: { email: "billing@acme.example", companyName: "Acme Inc." } },
        response: { status: 200, body: exampleSubscription }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "updateContact", { by, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listBillingInvoices",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing/invoices",
    summary: "The workspace's invoices, newest first (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    query: Schema.Struct({ status: Schema.optionalKey(Invoice.fields.status) }),
    responses: { 200: { description: "Invoices", schema: Schema.Struct({ items: Schema.Array(Invoice) }) } },
    examples: [{ name: "all", request: { params, query: {} }, response: { status: 200, body: { items: [exampleInvoice] } } }],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const invoices = yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "invoices", {})
        return { items: invoices.filter((invoice) => query.status === undefined || invoice.status === query.status) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getBillingInvoice",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing/invoices/{invoiceId}",
    summary: "One invoice with its lines (admin)",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id, invoiceId: Id }),
    responses: { 200: { description: "Invoice", schema: Invoice }, 404: { description: "No such invoice" } },
    examples: [
      { name: "read", request: { params: { ...params, invoiceId: exampleInvoice.id } }, response: { status: 200, body: exampleInvoice } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const invoices = yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "invoices", {})
        return invoices.find((invoice) => invoice.id === params.invoiceId) ?? (yield* reject("not_found", "No such invoice"))
      })
  })
]
