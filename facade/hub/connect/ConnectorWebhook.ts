/**
 * hub tag "Connector Webhook Resource" (1): the integration broker's events.
 * Signed with Standard Webhooks by the tenant's secret (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, 5-minute tolerance) and naming
 * the tenant in `x-connector-tenant-id`. The event is stored in the inbox
 * (keyed by `webhook-id`) before it is acknowledged; a replay answers 200 and
 * does nothing. The stored event is then applied (the workflows its type
 * triggers run) under the inbox's claim; what fails there, or a node that
 * dies before, is left to the background inbox processor (Inbox.ts).
 */
import { Effect, Exit, Schema, SchemaIssue } from "effect"
import { processEvent, store } from "../../../actors/hub/broker/Inbox.ts"
import { tenantForEvent } from "../../../actors/hub/broker/Tenants.ts"
import { verifyWebhook } from "../../../actors/webhooks/StandardWebhooks.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { connectorWebhookExamples } from "./ConnectorWebhook.examples.ts"

export const TENANT_HEADER = "x-connector-tenant-id"

const BrokerEvent = Schema.Struct({
  type: Schema.String.check(
    Schema.isMinLength(1),
    Schema.isMaxLength(200),
    Schema.isPattern(/^[\w.:-]+$/, { expected: "an event type (letters, digits, . : _ -)" })
  ),
  occurredAt: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(40))),
  integrationId: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  data: Schema.Record(Schema.String, Schema.Unknown)
})
const decodeEvent = Schema.decodeUnknownExit(BrokerEvent, { onExcessProperty: "ignore", errors: "all" })
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const utf8 = new TextDecoder("utf-8", { fatal: true })

const Outcome = Schema.Struct({
  eventId: Schema.String,
  outcome: Schema.Literals(["accepted", "duplicate", "ignored"]),
  runs: Schema.Number.annotate({
    description:
      "Workflow runs the event started before the answer (0 for a duplicate; failed runs are retried in the background, see the tenant's events)"
  })
}).annotate({ identifier: "ConnectorEventOutcome" })

const malformed = (message: string, path = "body") => reject("invalid", `Malformed event: ${message}`, [{ path, message }])

const parseEvent = (bytes: Uint8Array) =>
  Effect.gen(function* () {
    let parsed: unknown
    try {
      parsed = JSON.parse(utf8.decode(bytes))
    } catch {
      return yield* malformed("not JSON")
    }
    const exit = decodeEvent(parsed)
    if (Exit.isSuccess(exit)) return exit.value
    const error = Exit.findErrorOption(exit)
    const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
    const details = issues.map((issue) => ({
      path: ["body", ...(issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))].join("."),
      message: issue.message
    }))
    return yield* reject(
      "invalid",
      `Malformed event: ${details[0]?.path ?? "body"}`,
      details.length > 0 ? details : [{ path: "body", message: "invalid" }]
    )
  })

const { operation } = tagGroup("hub", "Connector Webhook Resource", connectorWebhookExamples)

export const connectorWebhookOperations = [
  operation({
    operationId: "receiveConnectorEvent",
    headers: ["webhook-id", "webhook-timestamp", "webhook-signature", TENANT_HEADER],
    method: "POST",
    path: "/v1/connector/webhook",
    summary: "Receive a signed event from the integration broker (stored, then run through the triggered workflows)",
    description:
      'Headers: `x-connector-tenant-id` (the broker tenant), `webhook-id` (the event id), `webhook-timestamp` (unix seconds, within 5 minutes) and `webhook-signature` (`v1,<base64 HMAC-SHA256(secret, id + "." + timestamp + "." + raw body)>`). Body: `{type, data, integrationId?, occurredAt?}`.',
    auth: "public",
    scopes: [],
    upload: { contentTypes: ["application/json"], maxBytes: 256 * 1024 },
    responses: {
      200: { description: "Acknowledged (accepted, duplicate, or ignored for a disabled tenant)", schema: Outcome },
      400: { description: "Malformed event" },
      401: { description: "Unknown tenant, wrong signature, or a timestamp outside the tolerance" }
    },
    handler: ({ upload }, context) =>
      Effect.gen(function* () {
        const headers = context.headers ?? {}
        const bytes = upload?.bytes ?? new Uint8Array()
        const eventId = headers["webhook-id"] ?? ""
        const found = yield* tenantForEvent(headers[TENANT_HEADER] ?? "")
        // One answer for an unknown tenant and a bad signature: nothing tells a prober which tenants exist.
        const body = Buffer.from(bytes).toString("utf8")
        const signed =
          found !== null &&
          eventId !== "" &&
          eventId.length <= 200 &&
          verifyWebhook(
            found.secret,
            { id: eventId, timestamp: headers["webhook-timestamp"] ?? "", signature: headers["webhook-signature"] ?? "" },
            body
          )
        if (!signed || found === null)
          return yield* reject(
            "unauthorized",
            "The event's tenant, signature or timestamp is not valid (webhook-signature, 5-minute tolerance)"
          )
        const event = yield* parseEvent(bytes)
        if (!found.tenant.enabled) return { eventId, outcome: "ignored" as const, runs: 0 }
        const stored = yield* store({
          eventId,
          workspaceId: found.tenant.workspaceId,
          tenantRef: found.tenant.id,
          type: event.type,
          payload: { ...(event.integrationId ? { integrationId: event.integrationId } : {}), data: event.data }
        })
        if (!stored) return { eventId, outcome: "duplicate" as const, runs: 0 }
        // Stored: the event is ours. Applying it now is a convenience; whatever fails is the background processor's.
        const runs = yield* Effect.exit(processEvent(found.tenant.id, eventId))
        return { eventId, outcome: "accepted" as const, runs: runs._tag === "Success" ? runs.value : 0 }
      })
  })
]
