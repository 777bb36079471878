/** Request and response examples of the operations in FeatureRequestsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { exampleLite } from "./LiteRequestViews.ts"

export const featureRequestsLiteExamples = examplesById({
  createFeatureRequestLite: [
    {
      name: "post",
      request: {
        body: { workspaceId: ex.workspaceId, board: ex.slug, title: "Dark mode", description: "A dark theme for the whole app." }
      },
      response: { status: 201, body: exampleLite }
    }
  ],
  getFeatureRequestLite: [
    {
      name: "get",
      request: { params: { requestRef: "FR-12" }, query: { workspaceId: ex.workspaceId } },
      response: { status: 200, body: exampleLite }
    }
  ],
  updateFeatureRequestLite: [
    {
      name: "retitle",
      request: { params: { requestRef: "FR-12" }, body: { workspaceId: ex.workspaceId, title: "Dark mode everywhere" } },
      response: { status: 200, body: { ...exampleLite, title: "Dark mode everywhere" } }
    }
  ],
  searchFeatureRequestsLite: [
    {
      name: "open",
      request: { query: { workspaceId: ex.workspaceId, board: ex.slug, status: "Open" } },
      response: { status: 200, body: { items: [exampleLite], nextCursor: null } }
    }
  ]
})
