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
import { operation } from "../../Operation.ts"
import { at0, exampleIds as ids, inWorkspace, Limit, Offset, onSpace, orDieSql, pageOf } from "../WorkAccess.ts"

const tag = "Webhook Resource"
const service = "pm"
const webhookId = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const WebhookParams = Schema.Struct({ workspaceId: Id, webhookId: Id })
const params = { workspaceId: ids.workspace, webhookId }

const exampleEndpoint = {
  id: webhookId,
  workspaceId: ids.workspace,
  url: "https://203.0.113.10/atrium-hooks",
  description: "Sync task changes to the data warehouse",
  eventTypes: ["task.created", "task.updated", "status.changed"],
  spaceId: null,
  status: "active",
  disabledReason: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}
const exampleSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const exampleDelivery = {
  id: "msg_2b6f0cc904d137be2e1730235f5664094b831186",
  endpointId: webhookId,
  workspaceId: ids.workspace,
  eventSeq: 0,
  eventType: "webhook.test",
  entityId: webhookId,
  status: "pending",
  attempts: 0,
  nextAttemptAt: at0,
  lastStatus: null,
  lastError: null,
  createdAt: at0,
  deliveredAt: null,
  deadAt: null
}

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

export const webhookResourceOperations = [
  operation({
    service,
    tag,
    operationId: "listWebhooks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/webhooks",
    summary: "The workspace's webhook endpoints (admin)",
    auth: "both",
    scopes: ["webhooks:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Endpoints", schema: Schema.Struct({ items: Schema.Array(WebhookEndpoint) }) } },
    examples: [
      { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleEndpoint] } } }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        return { items: yield* read(PmWebhooks, params.workspaceId, "list", {}) }
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "task-events",
        request: {
          params: { workspaceId: ids.workspace },
          body: { url: exampleEndpoint.url, description: exampleEndpoint.description, eventTypes: exampleEndpoint.eventTypes }
        },
        response: { status: 201, body: { ...exampleEndpoint, secret: exampleSecret } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* guardUrl(body.url)
        yield* guardSpace(context, params.workspaceId, body.spaceId)
        return yield* send(PmWebhooks, params.workspaceId, "create", caller.userId, body)
      })
  }),
  operation({
    service,
    tag,
    operationId: "getWebhook",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "One webhook endpoint (admin)",
    auth: "both",
    scopes: ["webhooks:read"],
    params: WebhookParams,
    responses: { 200: { description: "Endpoint", schema: WebhookEndpoint }, 404: { description: "No such webhook" } },
    examples: [{ name: "get", request: { params }, response: { status: 200, body: exampleEndpoint } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* admin(context, params.workspaceId)
        const endpoint = (yield* read(PmWebhooks, params.workspaceId, "list", {})).find((e) => e.id === params.webhookId)
        return endpoint ?? (yield* reject("not_found", "No such webhook"))
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateWebhook",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "Change a webhook's URL, filters or status (admin); `active` re-enables a disabled one",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    body: EndpointPatch,
    responses: { 200: { description: "Updated", schema: WebhookEndpoint }, 404: { description: "No such webhook" } },
    examples: [
      {
        name: "pause",
        request: { params, body: { status: "paused" } },
        response: { status: 200, body: { ...exampleEndpoint, status: "paused" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* guardUrl(body.url)
        yield* guardSpace(context, params.workspaceId, body.spaceId)
        return yield* send(PmWebhooks, params.workspaceId, "update", caller.userId, { endpointId: params.webhookId, patch: body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteWebhook",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}",
    summary: "Remove a webhook and its queued deliveries (admin)",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such webhook" } },
    examples: [{ name: "delete", request: { params }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        yield* send(PmWebhooks, params.workspaceId, "delete", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "rotateWebhookSecret",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/rotate-secret",
    summary: "Replace a webhook's signing secret (admin); the new one is shown once",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 200: { description: "The endpoint with its new secret", schema: WebhookEndpointWithSecret } },
    examples: [{ name: "rotate", request: { params }, response: { status: 200, body: { ...exampleEndpoint, secret: exampleSecret } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return yield* send(PmWebhooks, params.workspaceId, "rotateSecret", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "testWebhook",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/webhooks/{webhookId}/test",
    summary: "Queue a signed `webhook.test` ping to this endpoint (admin)",
    auth: "both",
    scopes: ["webhooks:write"],
    params: WebhookParams,
    responses: { 202: { description: "Queued", schema: WebhookDelivery }, 409: { description: "The endpoint is not active" } },
    examples: [{ name: "ping", request: { params }, response: { status: 202, body: exampleDelivery } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* admin(context, params.workspaceId)
        return yield* send(PmWebhooks, params.workspaceId, "sendTest", caller.userId, { endpointId: params.webhookId })
      })
  }),
  operation({
    service,
    tag,
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
    examples: [{ name: "deliveries", request: { params }, response: { status: 200, body: { items: [exampleDelivery] } } }],
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
    service,
    tag,
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
    examples: [
      {
        name: "redeliver",
        request: { params: { ...params, deliveryId: exampleDelivery.id } },
        response: { status: 202, body: exampleDelivery }
      }
    ],
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
