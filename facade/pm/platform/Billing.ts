/**
 * pm tag "Billing Resource" (10): a workspace's plan, seats (bounding its
 * members), billing contact and invoices. Reading takes a workspace admin,
 * changing the plan, seats or cancellation takes the owner; user sessions
 * only. Payments themselves arrive as the provider's signed events
 * (PaymentWebhook.ts).
 */
import { Effect, Schema } from "effect"
import { Billing, Invoice, Subscription } from "../../../actors/billing/Billing.ts"
import { usersByIds } from "../../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { billingCaller, sharedBillingOperations } from "../../shared/BillingOperations.ts"
import { WorkspaceIdParams } from "./Shared.ts"
import { billingExamples, params } from "./Billing.examples.ts"

const tag = "Billing Resource"
const service = "pm"
const Text = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))

const shared = sharedBillingOperations(
  service,
  tag,
  {
    listPlans: "listBillingPlans",
    changePlan: {
      operationId: "changeBillingPlan",
      description:
        "Seats default to the members there are, and may not be fewer (409). The seats become the most members the workspace can have."
    },
    setSeats: "setBillingSeats",
    listInvoices: { operationId: "listBillingInvoices", summary: "The workspace's invoices, newest first (admin)" }
  },
  params
)

const { operation } = tagGroup(service, tag, billingExamples)

export const billingOperations = [
  shared.listPlans,
  operation({
    operationId: "getBillingSubscription",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing",
    summary: "The workspace's subscription: plan, seats, status, period and billing contact (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "subscription", {})
      })
  }),
  shared.changePlan,
  shared.setSeats,
  operation({
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
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const actors = yield* ActorSystem
        const ws = yield* Workspace.client(actors)(params.workspaceId).inspect({})
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
    operationId: "cancelBillingSubscription",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/billing/cancel",
    summary: "Cancel the paid subscription at the end of the period (owner)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription }, 409: { description: "Nothing to cancel" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "owner")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "cancel", { by })
      })
  }),
  operation({
    operationId: "resumeBillingSubscription",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/billing/resume",
    summary: "Keep a subscription that was set to cancel (owner)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Subscription", schema: Subscription }, 409: { description: "Not set to cancel" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "owner")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "resume", { by })
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "updateContact", { by, ...body })
      })
  }),
  shared.listInvoices,
  operation({
    operationId: "getBillingInvoice",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/billing/invoices/{invoiceId}",
    summary: "One invoice with its lines (admin)",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id, invoiceId: Id }),
    responses: { 200: { description: "Invoice", schema: Invoice }, 404: { description: "No such invoice" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        const invoices = yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "invoices", {})
        return invoices.find((invoice) => invoice.id === params.invoiceId) ?? (yield* reject("not_found", "No such invoice"))
      })
  })
]
