/**
 * Billing operations offered by both pm ("Billing Resource") and the hub
 * ("Hub Billing Resource"): one billing actor per workspace
 * (actors/billing/Billing.ts) behind both, so the plans, plan and seat
 * changes and invoices are declared here once and each service names them.
 * Reading takes a workspace admin, changing the owner; user sessions only.
 */
import { Effect, Schema } from "effect"
import { Billing, Invoice, Subscription } from "../../actors/billing/Billing.ts"
import { Plan, PlanId, plans } from "../../actors/billing/Plans.ts"
import { Id } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { type RequestContext, type ServiceName, tagGroup } from "../Operation.ts"
import { changePlan, changeSeats } from "../pm/platform/BillingChanges.ts"

export const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const Seats = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5000 }))
const ChangeResult = Schema.Struct({ subscription: Subscription, invoice: Schema.NullOr(Invoice) })

/** The caller (a user session) with at least `minimum` in the workspace, as the billing history names them. */
export const billingCaller = (context: RequestContext, workspaceId: string, minimum: "admin" | "owner") =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId, minimum)
    return `user:${(yield* principalOf(context)).userId}`
  })

const at = "2026-11-21T12:00:00.000Z"
const periodEnd = "2026-12-21T12:00:00.000Z"

export const exampleSubscription = {
  planId: "team",
  seats: 10,
  status: "active",
  cancelAtPeriodEnd: false,
  currentPeriodStart: at,
  currentPeriodEnd: periodEnd,
  contact: { email: "billing@acme.example", companyName: "Acme Inc.", taxId: null, address: null },
  updatedAt: at
}

export const exampleInvoice = {
  id: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b",
  number: "INV-00001",
  status: "open",
  currency: "usd",
  amountDueCents: 8000,
  amountPaidCents: 0,
  lines: [{ description: "Team: 10 seats", quantity: 10, unitAmountCents: 800, amountCents: 8000 }],
  periodStart: at,
  periodEnd,
  createdAt: at,
  paidAt: null,
  eventAt: null
}

/** How one service names the shared operations; the texts that differ between the services' documents. */
export interface BillingOperationIds {
  readonly listPlans: string
  readonly changePlan: { readonly operationId: string; readonly description: string }
  readonly setSeats: string
  readonly listInvoices: { readonly operationId: string; readonly summary: string }
}

/** The shared operations under `service`'s `tag`, each spread where that service lists it. */
export const sharedBillingOperations = (
  service: ServiceName,
  tag: string,
  ids: BillingOperationIds,
  /** The example workspace of the service's documents. */
  params: { readonly workspaceId: string }
) => {
  const { operation } = tagGroup(service, tag)
  const owned = { auth: "jwt", scopes: [], params: WorkspaceParams } as const
  return {
    listPlans: operation({
      operationId: ids.listPlans,
      method: "GET",
      path: "/v1/billing/plans",
      summary: "The plans on offer, with their price per seat and seat range",
      auth: "public",
      scopes: [],
      responses: { 200: { description: "Plans", schema: Schema.Struct({ items: Schema.Array(Plan) }) } },
      examples: [{ name: "plans", response: { status: 200, body: { items: plans } } }],
      handler: () => Effect.succeed({ items: plans })
    }),
    changePlan: operation({
      ...owned,
      operationId: ids.changePlan.operationId,
      method: "PUT",
      path: "/v1/workspaces/{workspaceId}/billing/plan",
      summary: "Move the workspace to a plan with a number of seats (owner); the new period is invoiced",
      description: ids.changePlan.description,
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
    setSeats: operation({
      ...owned,
      operationId: ids.setSeats,
      method: "PUT",
      path: "/v1/workspaces/{workspaceId}/billing/seats",
      summary: "Buy or release seats (owner): added seats are invoiced prorated; never fewer than the members",
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
    listInvoices: operation({
      ...owned,
      operationId: ids.listInvoices.operationId,
      method: "GET",
      path: "/v1/workspaces/{workspaceId}/billing/invoices",
      summary: ids.listInvoices.summary,
      query: Schema.Struct({ status: Schema.optionalKey(Invoice.fields.status) }),
      responses: { 200: { description: "Invoices", schema: Schema.Struct({ items: Schema.Array(Invoice) }) } },
      examples: [{ name: "all", request: { params, query: {} }, response: { status: 200, body: { items: [exampleInvoice] } } }],
      handler: ({ params, query }, context) =>
        Effect.gen(function* () {
          yield* billingCaller(context, params.workspaceId, "admin")
          const invoices = yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "invoices", {})
          return { items: invoices.filter((invoice) => query.status === undefined || invoice.status === query.status) }
        })
    })
  }
}
