/** Request and response examples of the operations in Subscription.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { params } from "./BillingShared.ts"
import { exampleSubscription } from "../../shared/BillingOperations.ts"

export const subscriptionExamples = examplesById({
  getHubSubscription: [{ name: "read", request: { params }, response: { status: 200, body: exampleSubscription } }],
  updateHubSubscription: [
    {
      name: "cancel",
      request: { params, body: { cancelAtPeriodEnd: true } },
      response: { status: 200, body: { ...exampleSubscription, cancelAtPeriodEnd: true } }
    }
  ]
})
