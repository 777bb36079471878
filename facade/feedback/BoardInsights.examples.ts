/** Request and response examples of the operations in BoardInsights.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleBoard, examples, exampleFeatureRequest } from "./FeedbackViews.ts"

const params = { boardId: examples.boardId }

export const boardInsightsExamples = examplesById({
  getBoardStats: [
    {
      name: "stats",
      request: { params },
      response: {
        status: 200,
        body: {
          requests: 1,
          votes: 3,
          comments: 0,
          merged: 0,
          pendingModeration: 0,
          newThisWeek: 1,
          byStatusType: [{ type: "open", count: 1 }],
          byStatus: [{ statusId: examples.statusId, name: "Open", count: 1 }],
          byCategory: []
        }
      }
    }
  ],
  getBoardActivity: [
    {
      name: "activity",
      request: { params },
      response: {
        status: 200,
        body: {
          items: [
            {
              seq: 7,
              type: "request.created",
              entityId: examples.featureRequestId,
              data: { shortId: "FR-12", title: "Dark mode" },
              actor: { userId: examples.userId, name: "Alice" },
              at: examples.at
            }
          ]
        }
      }
    }
  ],
  listBoardTopVoters: [
    {
      name: "top",
      request: { params },
      response: { status: 200, body: { items: [{ user: { userId: examples.memberId, name: "Bob" }, customer: null, votes: 12 }] } }
    }
  ],
  exportBoard: [
    {
      name: "json",
      request: { params, query: { format: "json" } },
      response: { status: 200, body: { board: exampleBoard, options: [], requests: [exampleFeatureRequest] } }
    }
  ],
  bulkUpdateFeatureRequests: [
    {
      name: "plan",
      request: { params, body: { ids: [examples.featureRequestId], statusId: examples.statusId } },
      response: { status: 200, body: { items: [exampleFeatureRequest] } }
    }
  ],
  duplicateBoard: [
    {
      name: "copy",
      request: { params, body: { name: "Mobile ideas", slug: "mobile-ideas" } },
      response: {
        status: 201,
        body: { ...exampleBoard, id: "fcd1e2f3-a4b5-4c6d-9e7f-8091a2b3c4d5", name: "Mobile ideas", slug: "mobile-ideas" }
      }
    }
  ]
})
