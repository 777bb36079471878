/** Request and response examples of the operations in PaymentWebhook.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids } from "./Shared.ts"

const exampleEvent = {
  id: "evt_1Q2w3E4r5T6y",
  type: "invoice.paid",
  createdAt: "2026-11-21T12:00:00.000Z",
  data: { workspaceId: ids.workspace, invoiceId: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b", amountPaidCents: 8000 }
}

export const paymentWebhookExamples = examplesById({
  receivePaymentEvent: [
    {
      name: "invoice-paid",
      request: { body: exampleEvent },
      response: { status: 200, body: { eventId: exampleEvent.id, outcome: "applied", detail: null } }
    }
  ]
})
