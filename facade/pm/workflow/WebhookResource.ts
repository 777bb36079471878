/**
 * pm tag "Webhook Resource" (9): workspace webhooks on pm events — endpoints
 * with event-type and space filters, Standard Webhooks signing secrets
 * (shown once, rotatable), a test ping, the delivery log and redelivery.
 * Workspace admins manage them (a webhook sees every event of the workspace).
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import {
  DeliveryStatus,
  deliveriesOf,
  EndpointPatch,
  NewEndpoint,
  PmWebhooks,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret
} from "../../../actors/pmops/Webhooks.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, Limit, Offset, onSpace, orDieSql, pageOf } from "../WorkAccess.ts"
import { webhookResourceExamples } from "./WebhookResource.examples.ts"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const WebhookParams = Schema.Struct({ workspaceId: Id, webhookId: Id })

/** The SSRF guard on a URL the caller gave: 400 naming the field when it points somewhere we must not call. */
const guardUrl = (url: string | undefined) =>
  url === undefined
    ? Effect.void
    : Effect.flatMap(
        Effect.promise(() => checkOutboundUrl(url)),
        (refusal) =>
          refusal === undefined
            ? Effect.void
            : Effect.fail(reject("invalid", `Invalid body.url: ${refusal.reason}`, [{ path: "body.url", message: refusal.reason }]))
      )

const admin = (context: Parameters<typeof inWorkspace>[0], workspaceId: string) => inWorkspace(context, workspaceId, "admin")

/** A space filter names a space of this workspace (else 404 at the field). */
const guardSpace = (context: Parameters<typeof inWorkspace>[0], workspaceId: string, spaceId: string | null | undefined) =>
  spaceId === undefined || spaceId === null
    ? Effect.void
    : onSpace(context, spaceId).pipe(
        Effect.filterOrFail(
          (space) => space.at.workspaceId === workspaceId,
          () => reject("not_found", "No such space in this workspace")
        ),
        Effect.mapError((e) =>
          e._tag === "Rejection" && e.code === "not_found"
            ? reject("not_found", "No such space in this workspace", [{ path: "body.spaceId", message: "no such space" }])
            : e
        ),
        Effect.asVoid
      )

const { operation } = tagGroup("pm", "Webhook Resource", webhookResourceExamples)

export const webhookResourceOperations = [
  operation({
    operationId: "listWebhooks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/webhooks",
    summary: "The workspace's webhook endpoints (admin)",
    auth: "both",
    scopes: ["webhooks:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Endpoints", schema: Schema.Struct({ items: Schema.Array(WebhookEndpoint) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        return { items: yield* read(PmWebhooks, params.workspaceId, "list", {}) }
      })
  }),
  operation({
    operationId: "createWebhook",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks",
    summary: "Subscribe a URL to pm events (admin); the signing secret is shown once",
    description:
      "Each matching change is POSTed as `{type, timestamp, data}` with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`). Empty `eventTypes`: every event. Deliveries of one entity arrive in change order; failures are retried with backoff and jitter, then land in the dead-letter queue; a 410 answer disables the endpoint. Private and internal addresses are refused.",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WorkspaceParams,
    body: NewEndpoint,
    responses: {
      201: { description: "Created, with its secret", schema: WebhookEndpointWithSecret },
      400: { description: "Invalid or internal URL" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* guardUrl(body.url)
        yield* guardSpace(context, params.workspaceId, body.spaceId)
        return yield* send(PmWebhooks, params.workspaceId, "create", caller.userId, body)
      })
  }),
  operation({
    operationId: "getWebhook",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "One webhook endpoint (admin)",
    auth: "both",
    scopes: ["webhooks:read"],
    params: WebhookParams,
    responses: { 200: { description: "Endpoint", schema: WebhookEndpoint }, 404: { description: "No such webhook" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const endpoint = (yield* read(PmWebhooks, params.workspaceId, "list", {})).find((e) => e.id === params.webhookId)
        return endpoint ?? (yield* reject("not_found", "No such webhook"))
      })
  }),
  operation({
    operationId: "updateWebhook",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "Change a webhook's URL, filters or status (admin); `active` re-enables a disabled one",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    body: EndpointPatch,
    responses: { 200: { description: "Updated", schema: WebhookEndpoint }, 404: { description: "No such webhook" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* guardUrl(body.url)
        yield* guardSpace(context, params.workspaceId, body.spaceId)
        return yield* send(PmWebhooks, params.workspaceId, "update", caller.userId, { endpointId: params.webhookId, patch: body })
      })
  }),
  operation({
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "Remove a webhook and its queued deliveries (admin)",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such webhook" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* send(PmWebhooks, params.workspaceId, "delete", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    operationId: "rotateWebhookSecret",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/rotate-secret",
    summary: "Replace a webhook's signing secret (admin); the new one is shown once",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 200: { description: "The endpoint with its new secret", schema: WebhookEndpointWithSecret } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return yield* send(PmWebhooks, params.workspaceId, "rotateSecret", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    operationId: "testWebhook",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/test",
    summary: "Queue a signed `webhook.test` ping to this endpoint (admin)",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 202: { description: "Queued", schema: WebhookDelivery }, 409: { description: "The endpoint is not active" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return yield* send(PmWebhooks, params.workspaceId, "sendTest", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    operationId: "listWebhookDeliveries",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries",
    summary: "A webhook's deliveries, newest first: pending, delivered and dead (admin)",
    auth: "both",
    scopes: ["webhooks:read"],
    params: WebhookParams,
    query: Schema.Struct({
      status: Schema.optionalKey(DeliveryStatus),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "Deliveries", schema: Schema.Struct({ items: Schema.Array(WebhookDelivery) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const items = yield* orDieSql(
          deliveriesOf(params.workspaceId, params.webhookId, { ...pageOf(query), ...(query.status ? { status: query.status } : {}) })
        )
        return { items }
      })
  }),
  operation({
    operationId: "redeliverWebhookDelivery",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
    summary: "Send a delivered or dead delivery again, with its original webhook-id (admin)",
    auth: "both",
    scopes: ["webhooks:write"],
    params: Schema.Struct({ ...WebhookParams.fields, deliveryId: Name(100) }),
    responses: {
      202: { description: "Queued again", schema: WebhookDelivery },
      404: { description: "No such delivery" },
      409: { description: "Still being attempted" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return yield* send(PmWebhooks, params.workspaceId, "redeliver", caller.userId, {
          endpointId: params.webhookId,
          deliveryId: params.deliveryId
        })
      })
  })
]
