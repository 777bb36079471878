/**
 * Delivers pm notifications to their users' Web Push subscriptions. Every
 * node sees every committed batch; the first node to claim a notification
 * (a row in push_delivery_claims) sends it, so each is pushed once. The
 * payload is encrypted for the browser (aes128gcm) and signed with the
 * VAPID key by `web-push`; a 404 or 410 from the push service removes the
 * subscription, other failures are logged (the notification stays in the
 * user's list either way).
 */
import { Effect } from "effect"
import webpush from "web-push"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { logError } from "../../runtime/Log.ts"
import type { NotificationRecord } from "../pm/EventLog.ts"
import { type PushSubscription, PushSubscriptions } from "./PushSubscriptions.ts"
import { vapidKeys } from "./VapidKeys.ts"

const PUSH_TTL_SECONDS = 24 * 60 * 60
const TIMEOUT_MS = 10_000

/** What the service worker receives (JSON, encrypted on the wire). */
export const payloadOf = (notification: NotificationRecord) =>
  JSON.stringify({
    type: "notification",
    id: notification.id,
    workspaceId: notification.workspaceId,
    reason: notification.reason,
    title: notification.title,
    entity: { scope: notification.scope, id: notification.entityId },
    createdAt: notification.createdAt
  })

const claim = (notificationId: string) =>
  Effect.map(
    query<{ notificationId: string }>(
      `INSERT INTO push_delivery_claims (notification_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING notification_id AS "notificationId"`,
      [notificationId]
    ),
    (rows) => rows.length === 1
  )

/**
 * `web-push` encrypts the payload and signs the VAPID header; the request is
 * sent with fetch to the subscription's endpoint as it is (https for real
 * push services; the tests' fake service is plain http on loopback).
 */
const send = (subscription: PushSubscription, payload: string) =>
  Effect.gen(function* () {
    const keys = yield* vapidKeys
    const details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: "aes128gcm"
    })
    const response = yield* Effect.tryPromise(() =>
      fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body as Buffer,
        redirect: "error",
        signal: AbortSignal.timeout(TIMEOUT_MS)
      })
    ).pipe(Effect.option)
    if (response._tag === "None") {
      logError("push", `delivery to ${new URL(subscription.endpoint).host} failed`, "no answer")
      return "failed" as const
    }
    const status = response.value.status
    yield* Effect.promise(() => response.value.arrayBuffer().catch(() => undefined))
    if (status === 404 || status === 410) return "gone" as const
    if (status >= 200 && status < 300) return "delivered" as const
    logError("push", `delivery to ${new URL(subscription.endpoint).host} failed`, `status ${status}`)
    return "failed" as const
  })

/** Pushes one notification to every subscription of its user (if this node claims it). */
export const pushNotification = (notification: NotificationRecord) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const subscriptions = yield* PushSubscriptions.client(actors)(notification.userId).list({})
    if (subscriptions.length === 0) return
    if (!(yield* claim(notification.id))) return
    const payload = payloadOf(notification)
    yield* Effect.forEach(
      subscriptions,
      (subscription) =>
        Effect.flatMap(send(subscription, payload), (outcome) =>
          outcome === "gone"
            ? PushSubscriptions.client(actors)(notification.userId).gone({ endpoint: subscription.endpoint })
            : outcome === "delivered"
              ? PushSubscriptions.client(actors)(notification.userId).delivered({ endpoint: subscription.endpoint })
              : Effect.void
        ),
      { concurrency: 4, discard: true }
    )
  })
