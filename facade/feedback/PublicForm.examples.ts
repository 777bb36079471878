/** Request and response examples of the operations in PublicForm.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"

export const publicFormExamples = examplesById({
  submitPublicForm: [
    {
      name: "idea",
      request: {
        params: { slug: ex.slug },
        body: { kind: "featureRequest", title: "Dark mode", details: "Easier on the eyes at night.", email: "visitor@example.com" }
      },
      response: { status: 202, body: { received: true, kind: "featureRequest", shortId: "FR-8", moderation: "approved" } }
    }
  ]
})
