/** Request and response examples of the operations in FeatureRequests.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples, exampleFeatureRequest } from "./FeedbackViews.ts"

export const featureRequestsExamples = examplesById({
  createFeatureRequest: [
    {
      name: "post",
      request: {
        params: { boardId: examples.boardId },
        body: { title: "Dark mode", description: "A dark theme for the **whole** app." }
      },
      response: { status: 201, body: exampleFeatureRequest }
    }
  ],
  getFeatureRequest: [
    {
      name: "get",
      request: { params: { featureRequestId: examples.featureRequestId } },
      response: { status: 200, body: { ...exampleFeatureRequest, voteCount: 3 } }
    }
  ],
  updateFeatureRequest: [
    {
      name: "retitle",
      request: { params: { featureRequestId: examples.featureRequestId }, body: { title: "Dark mode everywhere" } },
      response: { status: 200, body: { ...exampleFeatureRequest, title: "Dark mode everywhere" } }
    }
  ],
  deleteFeatureRequest: [
    { name: "delete", request: { params: { featureRequestId: examples.featureRequestId } }, response: { status: 204 } }
  ]
})
