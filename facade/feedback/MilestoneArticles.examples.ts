/** Request and response examples of the operations in MilestoneArticles.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleDoc, ex, exampleArticle } from "./deskExamples.ts"

const params = { milestoneId: ex.milestoneId }

export const milestoneArticlesExamples = examplesById({
  getMilestoneArticle: [{ name: "get", request: { params }, response: { status: 200, body: exampleArticle } }],
  putMilestoneArticle: [
    { name: "markdown", request: { params, body: { markdown: "Dark mode is here." } }, response: { status: 200, body: exampleArticle } },
    { name: "prosemirror", request: { params, body: { content: exampleDoc } }, response: { status: 200, body: exampleArticle } }
  ],
  deleteMilestoneArticle: [{ name: "delete", request: { params }, response: { status: 204 } }],
  previewMilestoneArticle: [
    {
      name: "preview",
      request: { params, body: { markdown: "Dark mode is here." } },
      response: { status: 200, body: { content: exampleDoc, markdown: "Dark mode is here.", html: "<p>Dark mode is here.</p>" } }
    }
  ]
})
