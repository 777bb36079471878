/**
 * hub tag "Payment Webhook Resource" (1): the payment provider's signed
 * events for the hub, received exactly as pm's (facade/shared/PaymentEvents.ts):
 * the same signature, idempotency by event id and event-time ordering, into
 * the same per-workspace billing actor.
 */
import { tagGroup } from "../../Operation.ts"
import { paymentWebhook } from "../../shared/PaymentEvents.ts"
import { paymentWebhookExamples } from "./PaymentWebhook.examples.ts"

const { operation } = tagGroup("hub", "Payment Webhook Resource", paymentWebhookExamples)

export const hubPaymentWebhookOperations = [
  operation({
    operationId: "receiveHubPaymentEvent",
    summary: "Receive a signed event from the payment provider (invoice paid or failed, subscription updated or canceled)",
    ...paymentWebhook
  })
]
