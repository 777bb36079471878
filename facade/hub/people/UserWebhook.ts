/**
 * hub tag "User Webhook" (5): the caller's personal webhooks, fired when a
 * meeting they took part in finishes processing ("meeting.processed").
 * Standard Webhooks 1.0 signing with a `whsec_` secret shown once at
 * creation; delivery from the PostgreSQL outbox with retries; the delivery
 * log on each webhook; replay (or a test event). URLs pass the SSRF guard.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { HubUserWebhooks } from "../../../actors/hub/webhooks/HubUserWebhooks.ts"
import { USER_WEBHOOK_SOURCE, UserWebhook, WEBHOOK_TEST } from "../../../actors/hub/webhooks/UserWebhooks.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { DeliveryRecord, deliveriesOf, deliveryById, enqueueDeliveries, replayDelivery } from "../../../actors/webhooks/WebhookOutbox.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { operation } from "../../Operation.ts"
import { viewerOf } from "./Viewer.ts"

const service = "hub"
const tag = "User Webhook"
const LOG_SIZE = 20

const Url = Schema.String.check(Schema.isMaxLength(2000)).annotate({ format: "uri", examples: ["https://hooks.example.com/atrium"] })
const WebhookDescription = Schema.String.check(Schema.isMaxLength(500))
const WebhookParams = Schema.Struct({ webhookId: Id })

const WebhookWithLog = Schema.Struct({ ...UserWebhook.fields, recentDeliveries: Schema.Array(DeliveryRecord) }).annotate({
  identifier: "UserWebhookWithLog"
})

const exampleWebhookId = "8c9d0e1f-2a3b-4c5d-8e6f-7a8b9c0d1e2f"
const exampleDeliveryId = "9d0e1f2a-3b4c-4d5e-8f6a-8b9c0d1e2f3a"
const exampleWebhook = {
  id: exampleWebhookId,
  url: "https://hooks.example.com/atrium",
  description: "My automation",
  eventTypes: ["meeting.processed"],
  enabled: true,
  disabledReason: null,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}
const exampleDelivery = {
  id: exampleDeliveryId,
  messageId: "msg_4f1c2d3e4b5a4c7d8e9f0a1b2c3d4e5f",
  eventType: "meeting.processed",
  status: "delivered",
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  nextAttemptAt: null,
  replayOf: null,
  createdAt: "2026-11-21T12:05:00.000Z",
  completedAt: "2026-11-21T12:05:01.000Z"
}

/** The URL as a 400 naming the field when the SSRF guard refuses it. */
const checkedUrl = (url: string) =>
  Effect.gen(function* () {
    const refusal = yield* Effect.promise(() => checkOutboundUrl(url))
    if (refusal !== undefined)
      return yield* reject("invalid", `The webhook URL ${refusal.reason}`, [{ path: "body.url", message: refusal.reason }])
    return url
  })

/** The caller's webhooks, from their actor's memory. */
const webhooksOf = (userId: string) => Effect.flatMap(ActorSystem, (system) => system.ask(HubUserWebhooks, userId, "list", {}))

const ownWebhook = (userId: string, webhookId: string) =>
  Effect.flatMap(webhooksOf(userId), (hooks) => {
    const hook = hooks.find((candidate) => candidate.id === webhookId)
    return hook === undefined ? Effect.fail(reject("not_found", "No such webhook")) : Effect.succeed(hook)
  })

export const userWebhookOperations = [
  operation({
    service,
    tag,
    operationId: "createUserWebhook",
    method: "POST",
    path: "/v1/users/me/webhooks",
    summary: "Register a personal webhook fired when a meeting you took part in finishes processing",
    description:
      "The reply carries the signing secret (`whsec_…`) this once. Each delivery is a POST of " +
      '`{"type":"meeting.processed","timestamp":…,"data":{workspaceId, recordingId, callId, callUuid, status}}` with the ' +
      "Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`. " +
      "Failed deliveries are retried with backoff; a 410 answer disables the webhook. Private and internal addresses are refused.",
    auth: "both",
    scopes: ["users:write"],
    body: Schema.Struct({ url: Url, description: Schema.optionalKey(WebhookDescription) }),
    responses: {
      201: {
        description: "The webhook and its secret (shown once)",
        schema: Schema.Struct({ ...UserWebhook.fields, secret: Schema.String })
      }
    },
    examples: [
      {
        name: "register",
        request: { body: { url: exampleWebhook.url, description: exampleWebhook.description } },
        response: { status: 201, body: { ...exampleWebhook, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const url = yield* checkedUrl(body.url)
        return yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "create", { url, description: body.description ?? "" })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listUserWebhooks",
    method: "GET",
    path: "/v1/users/me/webhooks",
    summary: "Your personal webhooks, each with its latest deliveries (the delivery log)",
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "Webhooks", schema: Schema.Struct({ items: Schema.Array(WebhookWithLog) }) } },
    examples: [{ name: "list", response: { status: 200, body: { items: [{ ...exampleWebhook, recentDeliveries: [exampleDelivery] }] } } }],
    handler: (_, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const hooks = yield* webhooksOf(viewer.userId)
        const log = yield* Effect.orDie(
          deliveriesOf(
            USER_WEBHOOK_SOURCE,
            hooks.map((hook) => hook.id),
            LOG_SIZE
          )
        )
        return {
          items: hooks.map((hook) => ({
            ...hook,
            recentDeliveries: log.filter((entry) => entry.endpointId === hook.id).map(({ endpointId: _, ...entry }) => entry)
          }))
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateUserWebhook",
    method: "PATCH",
    path: "/v1/users/me/webhooks/{webhookId}",
    summary: "Change a personal webhook's URL or description, or disable / re-enable it (e.g. after a 410)",
    auth: "both",
    scopes: ["users:write"],
    params: WebhookParams,
    body: Schema.Struct({
      url: Schema.optionalKey(Url),
      description: Schema.optionalKey(WebhookDescription),
      enabled: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "The webhook", schema: UserWebhook } },
    examples: [
      {
        name: "re-enable",
        request: { params: { webhookId: exampleWebhookId }, body: { enabled: true } },
        response: { status: 200, body: exampleWebhook }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* ownWebhook(viewer.userId, params.webhookId)
        if (body.url !== undefined) yield* checkedUrl(body.url)
        return yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "update", { webhookId: params.webhookId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteUserWebhook",
    method: "DELETE",
    path: "/v1/users/me/webhooks/{webhookId}",
    summary: "Delete a personal webhook and its delivery log (pending deliveries are not sent)",
    auth: "both",
    scopes: ["users:write"],
    params: WebhookParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { webhookId: exampleWebhookId } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "delete", { webhookId: params.webhookId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "replayUserWebhookDelivery",
    method: "POST",
    path: "/v1/users/me/webhooks/{webhookId}/deliveries",
    summary: "Send an earlier delivery again (same webhook-id and payload), or a test event when no deliveryId is given",
    description: 'The test event is `{"type":"webhook.test","data":{"webhookId":…}}`. The webhook must be enabled.',
    auth: "both",
    scopes: ["users:write"],
    params: WebhookParams,
    body: Schema.Struct({ deliveryId: Schema.optionalKey(Schema.NullOr(Id)) }),
    responses: { 202: { description: "The new delivery, queued", schema: DeliveryRecord } },
    examples: [
      {
        name: "replay",
        request: { params: { webhookId: exampleWebhookId }, body: { deliveryId: exampleDeliveryId } },
        response: {
          status: 202,
          body: {
            ...exampleDelivery,
            id: "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b",
            status: "pending",
            attempts: 0,
            lastStatusCode: null,
            nextAttemptAt: "2026-11-21T13:00:00.000Z",
            replayOf: exampleDeliveryId,
            createdAt: "2026-11-21T13:00:00.000Z",
            completedAt: null
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const hook = yield* ownWebhook(viewer.userId, params.webhookId)
        if (!hook.enabled)
          return yield* reject("conflict", "The webhook is disabled; re-enable it first", [
            { path: "params.webhookId", message: "disabled" }
          ])
        const deliveryId =
          body.deliveryId === undefined || body.deliveryId === null
            ? (yield* Effect.orDie(
                enqueueDeliveries([
                  {
                    source: USER_WEBHOOK_SOURCE,
                    endpointId: hook.id,
                    ownerId: viewer.userId,
                    eventType: WEBHOOK_TEST,
                    data: { webhookId: hook.id }
                  }
                ])
              ))[0]
            : yield* Effect.orDie(replayDelivery(USER_WEBHOOK_SOURCE, hook.id, body.deliveryId))
        if (deliveryId === undefined)
          return yield* reject("not_found", "No such delivery of this webhook", [
            { path: "body.deliveryId", message: "not a delivery of this webhook" }
          ])
        return (yield* Effect.orDie(deliveryById(deliveryId)))!
      })
  })
]
