/** Request and response examples of the operations in FeatureRequestsLiteActions.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { exampleLite } from "./LiteRequestViews.ts"

export const featureRequestsLiteActionsExamples = examplesById({
  setFeatureRequestStatusLite: [
    {
      name: "plan",
      request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, status: "Planned" } },
      response: { status: 200, body: { ...exampleLite, status: "Planned", statusType: "planned" } }
    }
  ],
  voteFeatureRequestLite: [
    {
      name: "vote",
      request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId } },
      response: { status: 200, body: { ...exampleLite, voteCount: 1 } }
    }
  ],
  commentOnFeatureRequestLite: [
    {
      name: "comment",
      request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, body: "Customers at Acme ask for this too." } },
      response: {
        status: 201,
        body: {
          id: ex.bugCommentId,
          shortId: "FR-12",
          body: "Customers at Acme ask for this too.",
          internal: false,
          moderationState: "approved",
          createdAt: ex.at
        }
      }
    }
  ],
  mergeFeatureRequestLite: [
    {
      name: "merge",
      request: { params: { requestRef: "FR-13" }, body: { workspaceId: ex.workspaceId, into: "FR-12" } },
      response: { status: 200, body: { ...exampleLite, shortId: "FR-13", reference: "PRODUCTIDE-13", mergedInto: "FR-12" } }
    }
  ]
})
