/** Request and response examples of the operations in TasksLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { exampleLinkedFeedback } from "../feedback/WorkLinkViews.ts"
import { examplesById } from "../Operation.ts"
import { exampleLiteTask } from "./LiteShared.ts"
import { exampleIds as ids } from "./WorkAccess.ts"

const ws = ids.workspace

export const tasksLiteExamples = examplesById({
  createTaskLite: [
    {
      name: "create",
      request: {
        body: {
          workspaceId: ws,
          space: "Engineering",
          list: "Backlog",
          name: "Ship the login page",
          assigneeEmails: ["bob@example.com"],
          priority: "high"
        }
      },
      response: { status: 201, body: exampleLiteTask }
    }
  ],
  getTaskLite: [
    {
      name: "get",
      request: { params: { taskRef: "T-42" }, query: { workspaceId: ws } },
      response: { status: 200, body: { ...exampleLiteTask, feedback: [exampleLinkedFeedback] } }
    }
  ],
  updateTaskLite: [
    {
      name: "progress",
      request: { params: { taskRef: "T-42" }, body: { workspaceId: ws, status: "in progress", addAssigneeEmails: ["bob@example.com"] } },
      response: { status: 200, body: exampleLiteTask }
    }
  ],
  moveTaskLite: [
    {
      name: "move",
      request: { params: { taskRef: "T-42" }, body: { workspaceId: ws, space: "Engineering", list: "Sprint 12" } },
      response: { status: 200, body: { ...exampleLiteTask, list: "Sprint 12" } }
    }
  ],
  setTaskCustomFieldLite: [
    {
      name: "points",
      request: { params: { taskRef: "T-42" }, body: { workspaceId: ws, field: "Story points", value: 5 } },
      response: { status: 200, body: exampleLiteTask }
    }
  ],
  createSubtaskLite: [
    {
      name: "subtask",
      request: { params: { taskRef: "T-42" }, body: { workspaceId: ws, name: "Write the tests" } },
      response: { status: 201, body: { ...exampleLiteTask, shortId: "T-43", name: "Write the tests", parentTaskId: ids.task } }
    }
  ]
})
