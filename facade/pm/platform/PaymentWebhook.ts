/**
 * pm tag "Payment Webhook Resource" (1): the payment provider's events
 * (invoice paid or failed, subscription updated or canceled), signed with
 * HMAC over the timestamp and the raw body (PAYMENT_WEBHOOK_SECRET).
 * Applied idempotently by event id and in event-time order by the
 * workspace's billing actor; a repeated or stale event answers 200 so the
 * provider stops retrying.
 */
import { EventOutcome } from "../../../actors/billing/Billing.ts"
import { operation } from "../../Operation.ts"
import { PAYMENT_SIGNATURE_NOTE, receivePaymentEvent } from "../../shared/PaymentEvents.ts"
import { ids } from "./Shared.ts"

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
    description: PAYMENT_SIGNATURE_NOTE,
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
    handler: ({ upload }, context) => receivePaymentEvent(upload, context)
  })
]
