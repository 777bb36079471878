/** Request and response examples of the operations in LinkedWorkLite.ts, by operationId. */
import { examplesById } from "../Operation.ts"
import { ex } from "./deskExamples.ts"
import { exampleLinkedTask } from "./WorkLinkViews.ts"

const params = { requestRef: "FR-12" }
const linked = { status: 200, body: { items: [exampleLinkedTask] } }

export const linkedWorkLiteExamples = examplesById({
  listFeatureRequestTasksLite: [{ name: "tasks", request: { params, query: { workspaceId: ex.workspaceId } }, response: linked }],
  linkFeatureRequestTaskLite: [
    { name: "link", request: { params, body: { workspaceId: ex.workspaceId, board: ex.slug, task: "T-42" } }, response: linked }
  ],
  unlinkFeatureRequestTaskLite: [
    {
      name: "unlink",
      request: { params: { ...params, taskRef: "T-42" }, query: { workspaceId: ex.workspaceId } },
      response: { status: 200, body: { items: [] } }
    }
  ]
})
