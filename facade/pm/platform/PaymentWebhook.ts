/**
 * pm tag "Payment Webhook Resource" (1): the payment provider's events
 * (invoice paid or failed, subscription updated or canceled), signed with
 * HMAC over the timestamp and the raw body (PAYMENT_WEBHOOK_SECRET).
 * Applied idempotently by event id and in event-time order by the
 * workspace's billing actor; a repeated or stale event answers 200 so the
 * provider stops retrying.
 */
import { Effect, Exit, Schema, SchemaIssue } from "effect"
import { Billing, EventOutcome, ProviderEvent } from "../../../actors/billing/Billing.ts"
import { SIGNATURE_HEADER, verifyPayment } from "../../../actors/billing/PaymentSignature.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { operation } from "../../Operation.ts"
import { audited, ids } from "./Shared.ts"

const decodeEvent = Schema.decodeUnknownExit(ProviderEvent, { onExcessProperty: "ignore", errors: "all" })
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const utf8 = new TextDecoder("utf-8", { fatal: true })

const exampleEvent = {
  id: "evt_1Q2w3E4r5T6y",
  type: "invoice.paid",
  createdAt: "2026-11-21T12:00:00.000Z",
  data: { workspaceId: ids.workspace, invoiceId: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b", amountPaidCents: 8000 }
}

export const paymentWebhookOperations = [
  operation({
    service: "pm",
    tag: "Payment Webhook Resource",
    operationId: "receivePaymentEvent",
    method: "POST",
    path: "/v1/payments/webhook",
    summary: "Receive a signed event from the payment provider",
    description:
      'Authenticated by `Payment-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; the timestamp must be within 5 minutes. Each event id is applied once; an event older than the last one applied to the same invoice or subscription is acknowledged and ignored.',
    auth: "public",
    scopes: [],
    upload: { contentTypes: ["application/json"], maxBytes: 256 * 1024 },
    responses: {
      200: { description: "Acknowledged (applied, duplicate, stale or ignored)", schema: EventOutcome },
      400: { description: "Malformed event" },
      401: { description: "Missing or wrong signature, or outside the tolerance" }
    },
    examples: [
      {
        name: "invoice-paid",
        request: { body: exampleEvent },
        response: { status: 200, body: { eventId: exampleEvent.id, outcome: "applied", detail: null } }
      }
    ],
    handler: ({ upload }, context) =>
      Effect.gen(function* () {
        const secret = process.env.PAYMENT_WEBHOOK_SECRET ?? ""
        if (secret === "") return yield* reject("forbidden", "Payment webhooks are not configured (PAYMENT_WEBHOOK_SECRET)")
        const bytes = upload?.bytes ?? new Uint8Array()
        const check = verifyPayment(secret, context.headers?.[SIGNATURE_HEADER] ?? "", bytes)
        if (!check.ok) return yield* reject("unauthorized", check.reason)
        let parsed: unknown
        try {
          parsed = JSON.parse(utf8.decode(bytes))
        } catch {
          return yield* reject("invalid", "The event is not JSON", [{ path: "body", message: "malformed JSON" }])
        }
        const exit = decodeEvent(parsed)
        if (Exit.isFailure(exit)) {
          const error = Exit.findErrorOption(exit)
          const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
          const details = issues.map((issue) => ({
            path: ["body", ...(issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))].join("."),
            message: issue.message
          }))
          return yield* reject("invalid", `Invalid event: ${details[0]?.path ?? "body"}`, details)
        }
        const event = exit.value
        const actors = yield* ActorSystem
        const known = yield* actors.ask(Workspace, event.data.workspaceId, "inspect", {}).pipe(Effect.option)
        if (known._tag === "None") return { eventId: event.id, outcome: "ignored" as const, detail: "No such workspace" }
        const outcome = yield* actors.ask(Billing, event.data.workspaceId, "applyEvent", event)
        if (outcome.outcome === "applied") {
          yield* audited({
            actor: "payment",
            action: `billing.${event.type}`,
            targetType: "workspace",
            targetId: event.data.workspaceId,
            workspaceId: event.data.workspaceId,
            data: { eventId: event.id, invoiceId: event.data.invoiceId ?? null, status: event.data.status ?? null }
          })
        }
        return outcome
      })
  })
]
