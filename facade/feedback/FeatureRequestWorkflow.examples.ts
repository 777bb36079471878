/** Request and response examples of the operations in FeatureRequestWorkflow.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples, exampleFeatureRequest } from "./FeedbackViews.ts"

const params = { featureRequestId: examples.featureRequestId }

export const featureRequestWorkflowExamples = examplesById({
  changeFeatureRequestStatus: [
    {
      name: "plan",
      request: { params, body: { statusId: examples.statusId, note: "Scheduled for Q1" } },
      response: {
        status: 200,
        body: { ...exampleFeatureRequest, status: { id: examples.statusId, name: "Planned", type: "planned", color: "#3b82f6" } }
      }
    }
  ],
  getFeatureRequestStatusHistory: [
    {
      name: "history",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: "fc0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
              fromStatusId: null,
              toStatusId: examples.statusId,
              fromName: null,
              toName: "Open",
              note: "created",
              changedBy: { userId: examples.userId, name: "Alice" },
              changedAt: examples.at
            }
          ]
        }
      }
    }
  ],
  lockFeatureRequest: [
    {
      name: "lock",
      request: { params, body: { locked: true } },
      response: { status: 200, body: { ...exampleFeatureRequest, locked: true } }
    }
  ],
  pinFeatureRequest: [
    {
      name: "pin",
      request: { params, body: { pinned: true } },
      response: { status: 200, body: { ...exampleFeatureRequest, pinned: true } }
    }
  ],
  setFeatureRequestOwner: [
    {
      name: "own",
      request: { params, body: { ownerId: examples.memberId } },
      response: { status: 200, body: { ...exampleFeatureRequest, owner: { userId: examples.memberId, name: "Bob" } } }
    }
  ]
})
