/** Request and response examples of the operations in HubBilling.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { params } from "./BillingShared.ts"
import { exampleSubscription } from "../../shared/BillingOperations.ts"
import { planOf } from "../../../actors/billing/Plans.ts"

const exampleSeats = { seats: 10, used: 1, available: 9 }

export const hubBillingExamples = examplesById({
  getHubBillingOverview: [
    {
      name: "overview",
      request: { params },
      response: { status: 200, body: { subscription: exampleSubscription, plan: planOf("team"), seats: exampleSeats } }
    }
  ],
  getHubBillingUsage: [
    {
      name: "usage",
      request: { params },
      response: {
        status: 200,
        body: {
          periodStart: exampleSubscription.currentPeriodStart,
          periodEnd: exampleSubscription.currentPeriodEnd,
          seats: exampleSeats,
          recordings: 12,
          recordedMinutes: 340,
          mediaBytes: 734003200,
          meetingBots: 4,
          lensCredits: null
        }
      }
    }
  ]
})
