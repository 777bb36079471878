/**
 * pm tag "Payment Webhook Resource" (1): the payment provider's events
 * (invoice paid or failed, subscription updated or canceled), signed with
 * HMAC over the timestamp and the raw body (PAYMENT_WEBHOOK_SECRET).
 * Applied idempotently by event id and in event-time order by the
 * workspace's billing actor; a repeated or stale event answers 200 so the
 * provider stops retrying.
 */
import { tagGroup } from "../../Operation.ts"
import { paymentWebhook } from "../../shared/PaymentEvents.ts"
import { paymentWebhookExamples } from "./PaymentWebhook.examples.ts"

const { operation } = tagGroup("pm", "Payment Webhook Resource", paymentWebhookExamples)

export const paymentWebhookOperations = [
  operation({
    operationId: "receivePaymentEvent",
    summary: "Receive a signed event from the payment provider",
    ...paymentWebhook
  })
]
