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
import { tagGroup } from "../../Operation.ts"
import { viewerOf } from "./Viewer.ts"
import { userWebhookExamples } from "./UserWebhook.examples.ts"
const LOG_SIZE = 20

const Url = Schema.String.check(Schema.isMaxLength(2000)).annotate({ format: "uri", examples: ["https://hooks.example.com/atrium"] })
const WebhookDescription = Schema.String.check(Schema.isMaxLength(500))
const WebhookParams = Schema.Struct({ webhookId: Id })

const WebhookWithLog = Schema.Struct({ ...UserWebhook.fields, recentDeliveries: Schema.Array(DeliveryRecord) }).annotate({
  identifier: "UserWebhookWithLog"
})

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

const { operation } = tagGroup("hub", "User Webhook", userWebhookExamples)

export const userWebhookOperations = [
  operation({
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
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const url = yield* checkedUrl(body.url)
        return yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "create", { url, description: body.description ?? "" })
      })
  }),
  operation({
    operationId: "listUserWebhooks",
    method: "GET",
    path: "/v1/users/me/webhooks",
    summary: "Your personal webhooks, each with its latest deliveries (the delivery log)",
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "Webhooks", schema: Schema.Struct({ items: Schema.Array(WebhookWithLog) }) } },
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* ownWebhook(viewer.userId, params.webhookId)
        if (body.url !== undefined) yield* checkedUrl(body.url)
        return yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "update", { webhookId: params.webhookId, ...body })
      })
  }),
  operation({
    operationId: "deleteUserWebhook",
    method: "DELETE",
    path: "/v1/users/me/webhooks/{webhookId}",
    summary: "Delete a personal webhook and its delivery log (pending deliveries are not sent)",
    auth: "both",
    scopes: ["users:write"],
    params: WebhookParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* (yield* ActorSystem).ask(HubUserWebhooks, viewer.userId, "delete", { webhookId: params.webhookId })
      })
  }),
  operation({
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
