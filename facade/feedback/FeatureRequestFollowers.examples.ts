/** Request and response examples of the operations in FeatureRequestFollowers.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleFeatureRequest, examples } from "./FeedbackViews.ts"

const params = { featureRequestId: examples.featureRequestId }

const exampleEvent = {
  seq: 42,
  type: "request.status_changed",
  entityId: examples.featureRequestId,
  data: { statusId: examples.statusId, status: "Planned", type: "planned" },
  actor: { userId: examples.userId, name: "Alice" },
  at: examples.at
}

export const featureRequestFollowersExamples = examplesById({
  listFeatureRequestVoters: [
    {
      name: "voters",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              kind: "user",
              user: { userId: examples.memberId, name: "Bob" },
              customer: null,
              castBy: null,
              mergedFrom: null,
              votedAt: examples.at
            }
          ],
          total: 1,
          nextOffset: null
        }
      }
    }
  ],
  subscribeToFeatureRequest: [{ name: "follow", request: { params }, response: { status: 200, body: { subscribed: true } } }],
  unsubscribeFromFeatureRequest: [{ name: "unfollow", request: { params }, response: { status: 200, body: { subscribed: false } } }],
  listFeatureRequestSubscribers: [
    {
      name: "list",
      request: { params },
      response: {
        status: 200,
        body: { items: [{ user: { userId: examples.userId, name: "Alice" }, since: examples.at }], subscribed: true }
      }
    }
  ],
  getFeatureRequestActivity: [{ name: "activity", request: { params }, response: { status: 200, body: { items: [exampleEvent] } } }],
  listMergedFeatureRequests: [
    {
      name: "merged",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              ...exampleFeatureRequest,
              id: examples.duplicateId,
              shortId: "FR-13",
              reference: "PRODUCTIDE-13",
              mergedInto: examples.featureRequestId,
              mergedAt: examples.at
            }
          ]
        }
      }
    }
  ]
})
