/** Request and response examples of the operations in LinkedWork.ts, by operationId. */
import { examplesById } from "../Operation.ts"
import { WORK_AUTOMATION } from "../../actors/feedback/WorkLinks.ts"
import { changelogDraft } from "../../actors/feedback/ChangelogDraft.ts"
import { docToHtml, docToMarkdown } from "../../richtext/RichText.ts"
import { ex, exampleEntry } from "./deskExamples.ts"
import { examples } from "./FeedbackViews.ts"
import { exampleLinkedTask } from "./WorkLinkViews.ts"

const taskId = exampleLinkedTask.taskId
const linked = { status: 200, body: { items: [exampleLinkedTask] } }
const progress = { startedStatusId: examples.statusId, doneStatusId: "f0a7b8c9-0d1e-4f2a-9b4c-5d6e7f8091a3" }

const draft = changelogDraft({ description: "" }, [
  {
    id: examples.featureRequestId,
    shortId: "FR-12",
    title: "Dark mode",
    tasks: [{ shortId: exampleLinkedTask.shortId, name: exampleLinkedTask.name }]
  }
])

export const linkedWorkExamples = examplesById({
  draftMilestoneChangelog: [
    {
      name: "draft",
      request: { params: { milestoneId: ex.milestoneId }, body: { addCompletedRequests: true } },
      response: {
        status: 201,
        body: {
          ...exampleEntry,
          title: "Spring release",
          markdown: docToMarkdown(draft),
          html: docToHtml(draft),
          milestoneId: ex.milestoneId,
          featureRequestIds: [examples.featureRequestId]
        }
      }
    }
  ],
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
