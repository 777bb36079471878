/** Request and response examples of the operations in Readouts.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk, ws } from "./shared.ts"
import { exampleComment, exampleUser, exampleTask } from "../WorkExamples.ts"
import { exampleIds as ids } from "../WorkAccess.ts"

export const readoutsExamples = examplesById({
  getTasksByIds: [
    {
      name: "batch",
      request: { params: ws, body: { taskIds: [ids.task, ids.task2] } },
      response: { status: 200, body: { items: [exampleTask], missing: [ids.task2] } }
    }
  ],
  exportTaskMarkdown: [
    {
      name: "markdown",
      request: { params: tk },
      response: { status: 200, body: "# T-42: Ship the login page\n\n- Status: in progress\n" }
    }
  ],
  listAssignedComments: [
    {
      name: "assigned",
      request: { params: ws },
      response: { status: 200, body: { items: [{ ...exampleComment, assignee: exampleUser }] } }
    }
  ],
  getTaskProgress: [
    {
      name: "progress",
      request: { params: tk },
      response: {
        status: 200,
        body: {
          subtasks: { total: 2, finished: 1 },
          checklistItems: { total: 2, resolved: 1 },
          trackedMinutes: 90,
          estimateMinutes: 240,
          percent: 50
        }
      }
    }
  ]
})
