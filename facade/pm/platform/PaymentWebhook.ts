/**
 * pm tag "Payment Webhook Resource" (1): the payment provider's events
 * (invoice paid or failed, subscription updated or canceled), signed with
 * HMAC over the timestamp and the raw body (PAYMENT_WEBHOOK_SECRET).
 * Applied idempotently by event id and in event-time order by the
 * workspace's billing actor; a repeated or stale event answers 200 so the
 * provider stops retrying.
 */
import { EventOutcome } from "../../../actors/billing/Billing.ts"
import { tagGroup } from "../../Operation.ts"
import { PAYMENT_SIGNATURE_NOTE, receivePaymentEvent } from "../../shared/PaymentEvents.ts"

import { paymentWebhookExamples } from "./PaymentWebhook.examples.ts"

const { operation } = tagGroup("pm", "Payment Webhook Resource", paymentWebhookExamples)

export const paymentWebhookOperations = [
  operation({
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
    handler: ({ upload }, context) => receivePaymentEvent(upload, context)
  })
]
