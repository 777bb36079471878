/**
 * hub tag "Subscription Resource" (2): the workspace's subscription state
 * (plan, seats, status, period, cancellation) and ending or keeping it at the
 * end of the period. The provider's events change the status
 * (PaymentWebhook.ts); a user session only: admins read, the owner changes.
 */
import { Effect, Schema } from "effect"
import { Billing, Subscription } from "../../../actors/billing/Billing.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { tagGroup } from "../../Operation.ts"
import { billingCaller, WorkspaceParams } from "../../shared/BillingOperations.ts"

import { subscriptionExamples } from "./Subscription.examples.ts"

const { operation } = tagGroup("hub", "Subscription Resource", subscriptionExamples)

export const subscriptionOperations = [
  operation({
    operationId: "getHubSubscription",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/subscription",
    summary: "The workspace's subscription: plan, seats, status (active, past_due, canceled), period and cancellation (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    responses: { 200: { description: "Subscription", schema: Subscription } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* billingCaller(context, params.workspaceId, "admin")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, "subscription", {})
      })
  }),
  operation({
    operationId: "updateHubSubscription",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/subscription",
    summary: "End the paid subscription at the end of the period, or keep one set to end (owner)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({
      cancelAtPeriodEnd: Schema.Boolean.annotate({ description: "true: end at the period's end; false: keep it" })
    }),
    responses: {
      200: { description: "Subscription", schema: Subscription },
      409: { description: "No paid subscription, already ending, or not set to end" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const by = yield* billingCaller(context, params.workspaceId, "owner")
        return yield* (yield* ActorSystem).ask(Billing, params.workspaceId, body.cancelAtPeriodEnd ? "cancel" : "resume", { by })
      })
  })
]
