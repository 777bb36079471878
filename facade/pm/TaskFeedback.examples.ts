/** Request and response examples of the operations in TaskFeedback.ts, by operationId. */
import { ex } from "../feedback/deskExamples.ts"
import { exampleLinkedFeedback } from "../feedback/WorkLinkViews.ts"
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./WorkAccess.ts"

// pm's example task, as every other work operation's examples name it.
const taskId = exampleIds.task
const linked = { status: 200, body: { items: [exampleLinkedFeedback] } }
const none = { status: 200, body: { items: [] } }

export const taskFeedbackExamples = examplesById({
  listTaskFeedback: [{ name: "delivers", request: { params: { taskId } }, response: linked }],
  linkTaskFeatureRequest: [{ name: "link", request: { params: { taskId, featureRequestId: exampleLinkedFeedback.id } }, response: linked }],
  unlinkTaskFeatureRequest: [
    { name: "unlink", request: { params: { taskId, featureRequestId: exampleLinkedFeedback.id } }, response: none }
  ],
  linkTaskBugReport: [
    {
      name: "link",
      request: { params: { taskId, bugReportId: ex.bugReportId } },
      response: {
        status: 200,
        body: {
          items: [
            {
              ...exampleLinkedFeedback,
              kind: "bug",
              id: ex.bugReportId,
              shortId: "B-3",
              reference: "PRODUCTIDE-B3",
              title: "Export fails",
              voteCount: 0,
              status: "Confirmed"
            }
          ]
        }
      }
    }
  ],
  unlinkTaskBugReport: [{ name: "unlink", request: { params: { taskId, bugReportId: ex.bugReportId } }, response: none }]
})
