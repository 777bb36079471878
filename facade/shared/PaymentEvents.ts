/**
 * The payment provider's webhook, one receiver that pm and the hub each
 * declare under their own operation id (`paymentWebhook`): one verification (SignedEvents.ts, PAYMENT_WEBHOOK_SECRET), one event
 * schema, and the event applied by the workspace's billing actor (once per
 * event id, in event-time order), audited when it changed something.
 */
import { Effect } from "effect"
import { Billing, EventOutcome, ProviderEvent } from "../../actors/billing/Billing.ts"
import { SIGNATURE_HEADER } from "../../actors/billing/PaymentSignature.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { audit } from "../../actors/platform/PlatformAudit.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { Contract, Decoded, RequestContext } from "../Operation.ts"
import { verifiedEvent } from "./SignedEvents.ts"

export const PAYMENT_SIGNATURE_NOTE =
  'Authenticated by `Payment-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`; the timestamp must be within 5 minutes. Each event id is applied once; an event older than the last one applied to the same invoice or subscription is acknowledged and ignored.'

export const receivePaymentEvent = (upload: Decoded<unknown, unknown, unknown>["upload"], context: RequestContext) =>
  Effect.gen(function* () {
    const event = yield* verifiedEvent(ProviderEvent, {
      secret: process.env.PAYMENT_WEBHOOK_SECRET ?? "",
      setting: "PAYMENT_WEBHOOK_SECRET",
      signature: context.headers?.[SIGNATURE_HEADER] ?? "",
      bytes: upload?.bytes ?? new Uint8Array()
    })
    const actors = yield* ActorSystem
    const known = yield* Workspace.client(actors)(event.data.workspaceId).inspect({}).pipe(Effect.option)
    if (known._tag === "None") return { eventId: event.id, outcome: "ignored" as const, detail: "No such workspace" }
    const outcome = yield* actors.ask(Billing, event.data.workspaceId, "applyEvent", event)
    if (outcome.outcome === "applied") {
      yield* Effect.orDie(
        audit({
          actor: "payment",
          action: `billing.${event.type}`,
          targetType: "workspace",
          targetId: event.data.workspaceId,
          workspaceId: event.data.workspaceId,
          data: { eventId: event.id, invoiceId: event.data.invoiceId ?? null, status: event.data.status ?? null }
        })
      )
    }
    return outcome
  })

/** The webhook's contract but for its id and summary, which each service's catalog keeps as it has them. */
export const paymentWebhook = {
  method: "POST",
  path: "/v1/payments/webhook",
  description: PAYMENT_SIGNATURE_NOTE,
  auth: "public",
  scopes: [],
  upload: { contentTypes: ["application/json"], maxBytes: 256 * 1024 },
  headers: [SIGNATURE_HEADER],
  responses: {
    200: { description: "Acknowledged (applied, duplicate, stale or ignored)", schema: EventOutcome },
    400: { description: "Malformed event" },
    401: { description: "Missing or wrong signature, or outside the tolerance" }
  },
  handler: ({ upload }, context) => receivePaymentEvent(upload, context)
} as const satisfies Omit<Contract, "operationId" | "summary">
