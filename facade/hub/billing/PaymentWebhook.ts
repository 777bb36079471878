/**
 * hub tag "Payment Webhook Resource" (1): the payment provider's signed
 * events for the hub, received exactly as pm's (facade/shared/PaymentEvents.ts):
 * the same signature, idempotency by event id and event-time ordering, into
 * the same per-workspace billing actor.
 */
import { EventOutcome } from "../../../actors/billing/Billing.ts"
import { tagGroup } from "../../Operation.ts"
import { PAYMENT_SIGNATURE_NOTE, receivePaymentEvent } from "../../shared/PaymentEvents.ts"

import { paymentWebhookExamples } from "./PaymentWebhook.examples.ts"

const { operation } = tagGroup("hub", "Payment Webhook Resource", paymentWebhookExamples)

export const hubPaymentWebhookOperations = [
  operation({
    operationId: "receiveHubPaymentEvent",
    method: "POST",
    path: "/v1/payments/webhook",
    summary: "Receive a signed event from the payment provider (invoice paid or failed, subscription updated or canceled)",
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
