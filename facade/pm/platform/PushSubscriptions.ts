/**
 * pm tag "Push Subscriptions" (3): the VAPID public key browsers subscribe
 * with, and the caller's Web Push subscriptions (a user session's own).
 * pm notifications are then pushed to them (actors/push/PushDelivery.ts).
 */
import { Effect, Schema } from "effect"
import { PushKeys, PushSubscription, PushSubscriptions } from "../../../actors/push/PushSubscriptions.ts"
import { vapidKeys } from "../../../actors/push/VapidKeys.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { Id } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"

import { pushSubscriptionsExamples } from "./PushSubscriptions.examples.ts"

const { operation } = tagGroup("pm", "Push Subscriptions", pushSubscriptionsExamples)

export const pushSubscriptionsOperations = [
  operation({
    operationId: "getPushVapidKey",
    method: "GET",
    path: "/v1/push/vapid-public-key",
    summary: "The VAPID public key to subscribe with (PushManager.subscribe's applicationServerKey)",
    auth: "public",
    scopes: [],
    responses: { 200: { description: "The key, base64url", schema: Schema.Struct({ publicKey: Schema.String }) } },
    handler: () => Effect.map(Effect.orDie(vapidKeys), (keys) => ({ publicKey: keys.publicKey }))
  }),
  operation({
    operationId: "createPushSubscription",
    headers: ["user-agent"],
    method: "POST",
    path: "/v1/push/subscriptions",
    summary: "Register this browser's push subscription for the caller's notifications (idempotent per endpoint)",
    description: "The body is the browser's PushSubscription JSON (endpoint and keys). Subscribing an endpoint again refreshes its keys.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({
      endpoint: Schema.String.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\/\S+$/, { expected: "the push service's URL" })),
      keys: PushKeys,
      expirationTime: Schema.optionalKey(Schema.NullOr(Schema.Number)),
      userAgent: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(300)))
    }),
    responses: { 201: { description: "Registered", schema: PushSubscription }, 400: { description: "Not a reachable push service URL" } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(body.endpoint))
        if (refusal !== undefined)
          return yield* reject("invalid", `The endpoint ${refusal.reason}`, [{ path: "body.endpoint", message: refusal.reason }])
        return yield* PushSubscriptions.client(yield* ActorSystem)(user.userId).add({
          endpoint: body.endpoint,
          keys: body.keys,
          userAgent: body.userAgent ?? context.headers?.["user-agent"]?.slice(0, 300) ?? null
        })
      })
  }),
  operation({
    operationId: "deletePushSubscription",
    method: "DELETE",
    path: "/v1/push/subscriptions/{subscriptionId}",
    summary: "Stop pushing to one of the caller's subscriptions",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ subscriptionId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such subscription" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* PushSubscriptions.client(yield* ActorSystem)(user.userId).remove({ id: params.subscriptionId })
      })
  })
]
