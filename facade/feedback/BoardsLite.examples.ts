/** Request and response examples of the operations in BoardsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examples } from "./FeedbackViews.ts"

export const boardsLiteExamples = examplesById({
  findBoardsLite: [
    {
      name: "by-slug",
      request: { query: { workspaceId: examples.workspaceId, slug: "product-ideas" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              slug: "product-ideas",
              name: "Product ideas",
              description: "Tell us what to build next",
              visibility: "public",
              archived: false,
              requestCount: 12,
              statuses: ["Open", "Under review", "Planned", "In progress", "Shipped", "Declined"],
              categories: ["Integrations"],
              id: examples.boardId
            }
          ]
        }
      }
    }
  ]
})
