/** Request and response examples of the operations in PublicComments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"

export const publicCommentExamples = examplesById({
  commentPublicFeatureRequest: [
    {
      name: "visitor",
      request: {
        params: { slug: ex.slug, shortId: "FR-7" },
        body: { name: "Dana", email: "dana@example.com", body: "We would use this every night shift." }
      },
      response: {
        status: 202,
        body: {
          received: true,
          moderation: "approved",
          comment: {
            id: ex.bugCommentId,
            parentId: null,
            authorName: "Dana",
            body: "We would use this every night shift.",
            edited: false,
            createdAt: ex.at
          }
        }
      }
    }
  ]
})
