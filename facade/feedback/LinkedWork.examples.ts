/** Request and response examples of the operations in LinkedWork.ts, by operationId. */
import { examplesById } from "../Operation.ts"
import { WORK_AUTOMATION } from "../../actors/feedback/WorkLinks.ts"
import { ex } from "./deskExamples.ts"
import { examples } from "./FeedbackViews.ts"
import { exampleLinkedTask } from "./WorkLinkViews.ts"

const taskId = exampleLinkedTask.taskId
const linked = { status: 200, body: { items: [exampleLinkedTask] } }
const progress = { startedStatusId: examples.statusId, doneStatusId: "f0a7b8c9-0d1e-4f2a-9b4c-5d6e7f8091a3" }

export const linkedWorkExamples = examplesById({
  listFeatureRequestTasks: [{ name: "tasks", request: { params: { featureRequestId: examples.featureRequestId } }, response: linked }],
  linkFeatureRequestTask: [
    { name: "link", request: { params: { featureRequestId: examples.featureRequestId, taskId } }, response: linked }
  ],
  unlinkFeatureRequestTask: [
    {
      name: "unlink",
      request: { params: { featureRequestId: examples.featureRequestId, taskId } },
      response: { status: 200, body: { items: [] } }
    }
  ],
  listBugReportTasks: [{ name: "tasks", request: { params: { bugReportId: ex.bugReportId } }, response: linked }],
  linkBugReportTask: [{ name: "link", request: { params: { bugReportId: ex.bugReportId, taskId } }, response: linked }],
  unlinkBugReportTask: [
    { name: "unlink", request: { params: { bugReportId: ex.bugReportId, taskId } }, response: { status: 200, body: { items: [] } } }
  ],
  getBoardWorkProgress: [
    {
      name: "declared",
      request: { params: { boardId: examples.boardId } },
      response: { status: 200, body: { ...progress, automationId: WORK_AUTOMATION } }
    }
  ],
  setBoardWorkProgress: [
    {
      name: "declare",
      request: { params: { boardId: examples.boardId }, body: progress },
      response: { status: 200, body: { ...progress, automationId: WORK_AUTOMATION } }
    }
  ]
})
