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
import { operation } from "../../Operation.ts"
import { at } from "./Shared.ts"

const tag = "Push Subscriptions"
const service = "pm"

const exampleKeys = {
  p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
  auth: "tBHItJI5svbpez7KI4CCXg"
}
const exampleSubscription = {
  id: "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d",
  endpoint: "https://fcm.googleapis.com/fcm/send/c1KrmpTuRm0:APA91bE",
  keys: exampleKeys,
  userAgent: "Firefox 132",
  createdAt: at,
  lastDeliveredAt: null
}

export const pushSubscriptionsOperations = [
  operation({
    service,
    tag,
    operationId: "getPushVapidKey",
    method: "GET",
    path: "/v1/push/vapid-public-key",
    summary: "The VAPID public key to subscribe with (PushManager.subscribe's applicationServerKey)",
    auth: "public",
    scopes: [],
    responses: { 200: { description: "The key, base64url", schema: Schema.Struct({ publicKey: Schema.String }) } },
    examples: [
      {
        name: "key",
        response: {
          status: 200,
          body: { publicKey: "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U" }
        }
      }
    ],
    handler: () => Effect.map(Effect.orDie(vapidKeys), (keys) => ({ publicKey: keys.publicKey }))
  }),
  operation({
    service,
    tag,
    operationId: "createPushSubscription",
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
    examples: [
      {
        name: "subscribe",
        request: { body: { endpoint: exampleSubscription.endpoint, keys: exampleKeys, userAgent: "Firefox 132" } },
        response: { status: 201, body: exampleSubscription }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(body.endpoint))
        if (refusal !== undefined)
          return yield* reject("invalid", `The endpoint ${refusal.reason}`, [{ path: "body.endpoint", message: refusal.reason }])
        return yield* (yield* ActorSystem).ask(PushSubscriptions, user.userId, "add", {
          endpoint: body.endpoint,
          keys: body.keys,
          userAgent: body.userAgent ?? context.headers?.["user-agent"]?.slice(0, 300) ?? null
        })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deletePushSubscription",
    method: "DELETE",
    path: "/v1/push/subscriptions/{subscriptionId}",
    summary: "Stop pushing to one of the caller's subscriptions",
    auth: "jwt",
    scopes: [],
    params: Schema.Struct({ subscriptionId: Id }),
    responses: { 204: { description: "Removed" }, 404: { description: "No such subscription" } },
    examples: [{ name: "unsubscribe", request: { params: { subscriptionId: exampleSubscription.id } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* (yield* ActorSystem).ask(PushSubscriptions, user.userId, "remove", { id: params.subscriptionId })
      })
  })
]
