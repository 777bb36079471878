/** Request and response examples of the operations in TaskFeedbackLite.ts, by operationId. */
import { ex } from "../feedback/deskExamples.ts"
import { exampleLinkedFeedback } from "../feedback/WorkLinkViews.ts"
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./WorkAccess.ts"

const params = { taskRef: "T-42" }
const linked = { status: 200, body: { items: [exampleLinkedFeedback] } }

export const taskFeedbackLiteExamples = examplesById({
  listTaskFeedbackLite: [{ name: "delivers", request: { params, query: { workspaceId: exampleIds.workspace } }, response: linked }],
  linkTaskFeatureRequestLite: [
    { name: "link", request: { params, body: { workspaceId: exampleIds.workspace, request: "FR-12", board: ex.slug } }, response: linked }
  ],
  unlinkTaskFeatureRequestLite: [
    {
      name: "unlink",
      request: { params: { ...params, requestRef: "FR-12" }, query: { workspaceId: exampleIds.workspace } },
      response: { status: 200, body: { items: [] } }
    }
  ]
})
