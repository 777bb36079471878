/** Request and response examples of the operations in PaymentWebhook.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { params } from "./BillingShared.ts"
import { exampleInvoice } from "../../shared/BillingOperations.ts"

const exampleEvent = {
  id: "evt_7Hk2Lm9Np4Qr",
  type: "invoice.paid",
  createdAt: "2026-11-21T12:00:00.000Z",
  data: { workspaceId: params.workspaceId, invoiceId: exampleInvoice.id, amountPaidCents: 8000 }
}

export const paymentWebhookExamples = examplesById({
  receiveHubPaymentEvent: [
    {
      name: "invoice-paid",
      request: { body: exampleEvent },
      response: { status: 200, body: { eventId: exampleEvent.id, outcome: "applied", detail: null } }
    }
  ]
})
