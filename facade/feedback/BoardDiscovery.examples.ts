/** Request and response examples of the operations in BoardDiscovery.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleFeatureRequest, examples } from "./FeedbackViews.ts"

const params = { boardId: examples.boardId }

const examplePage = { items: [exampleFeatureRequest], total: 1, nextOffset: null }

export const boardDiscoveryExamples = examplesById({
  listBoardFeatureRequests: [
    { name: "trending", request: { params, query: { sort: "trending" } }, response: { status: 200, body: examplePage } }
  ],
  searchBoardFeatureRequests: [
    { name: "search", request: { params, query: { q: "dark theme" } }, response: { status: 200, body: examplePage } }
  ],
  findSimilarFeatureRequests: [
    { name: "typing", request: { params, query: { title: "dark" } }, response: { status: 200, body: examplePage } }
  ],
  getBoardRoadmap: [
    {
      name: "roadmap",
      request: { params },
      response: {
        status: 200,
        body: {
          columns: [
            {
              type: "open",
              statuses: [
                {
                  id: examples.statusId,
                  boardId: examples.boardId,
                  name: "Open",
                  description: "",
                  color: "#6b7280",
                  position: 0,
                  createdAt: examples.at,
                  updatedAt: examples.at,
                  type: "open",
                  isDefault: true
                }
              ],
              items: [exampleFeatureRequest]
            }
          ]
        }
      }
    }
  ],
  listMyContributions: [
    {
      name: "mine",
      request: { params },
      response: { status: 200, body: { items: [{ featureRequest: exampleFeatureRequest, posted: true, voted: true, commented: false }] } }
    }
  ]
})
