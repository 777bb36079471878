/** Request and response examples of the operations in BugComments.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"

const exampleComment = {
  id: ex.bugCommentId,
  bugReportId: ex.bugReportId,
  authorId: ex.userId,
  body: "Reproduced on Safari 18.1 too.",
  internal: false,
  moderation: "approved",
  createdAt: ex.at
}

export const bugCommentsExamples = examplesById({
  listBugReportComments: [
    { name: "list", request: { params: { bugReportId: ex.bugReportId } }, response: { status: 200, body: { items: [exampleComment] } } }
  ],
  createBugReportComment: [
    {
      name: "comment",
      request: { params: { bugReportId: ex.bugReportId }, body: { body: "Reproduced on Safari 18.1 too." } },
      response: { status: 201, body: exampleComment }
    }
  ]
})
