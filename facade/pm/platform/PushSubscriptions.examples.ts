/** Request and response examples of the operations in PushSubscriptions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { at } from "./Shared.ts"

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

export const pushSubscriptionsExamples = examplesById({
  getPushVapidKey: [
    {
      name: "key",
      response: {
        status: 200,
        body: { publicKey: "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U" }
      }
    }
  ],
  createPushSubscription: [
    {
      name: "subscribe",
      request: { body: { endpoint: exampleSubscription.endpoint, keys: exampleKeys, userAgent: "Firefox 132" } },
      response: { status: 201, body: exampleSubscription }
    }
  ],
  deletePushSubscription: [
    { name: "unsubscribe", request: { params: { subscriptionId: exampleSubscription.id } }, response: { status: 204 } }
  ]
})
