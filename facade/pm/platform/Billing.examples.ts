/** Request and response examples of the operations in Billing.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleInvoice, exampleSubscription } from "../../shared/BillingOperations.ts"
import { ids } from "./Shared.ts"

export const params = { workspaceId: ids.workspace }

export const billingExamples = examplesById({
  getBillingSubscription: [{ name: "read", request: { params }, response: { status: 200, body: exampleSubscription } }],
  getBillingSeats: [
    {
      name: "seats",
      request: { params },
      response: {
        status: 200,
        body: {
          seats: 10,
          used: 1,
          available: 9,
          members: [{ userId: ids.owner, email: "alice@example.com", name: "Alice", role: "owner" }]
        }
      }
    }
  ],
  cancelBillingSubscription: [
    { name: "cancel", request: { params }, response: { status: 200, body: { ...exampleSubscription, cancelAtPeriodEnd: true } } }
  ],
  resumeBillingSubscription: [{ name: "resume", request: { params }, response: { status: 200, body: exampleSubscription } }],
  updateBillingContact: [
    {
      name: "contact",
      request: { params, body: { email: "billing@acme.example", companyName: "Acme Inc." } },
      response: { status: 200, body: exampleSubscription }
    }
  ],
  getBillingInvoice: [
    { name: "read", request: { params: { ...params, invoiceId: exampleInvoice.id } }, response: { status: 200, body: exampleInvoice } }
  ]
})
