/** Request and response examples of the operations in Core.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk, ws, li } from "./shared.ts"
import { at0, exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

export const coreExamples = examplesById({
  createTask: [
    {
      name: "create",
      request: {
        params: li,
        body: { name: "Ship the login page", priority: "high", dueDate: "2026-12-01T17:00:00.000Z", assigneeEmails: ["bob@example.com"] }
      },
      response: { status: 201, body: exampleTask }
    }
  ],
  listTasks: [
    {
      name: "open",
      request: { params: li, query: { includeClosed: "false", order: "due" } },
      response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
    }
  ],
  getTask: [{ name: "get", request: { params: tk }, response: { status: 200, body: exampleTask } }],
  updateTask: [
    {
      name: "progress",
      request: { params: tk, body: { status: "in progress", priority: "high" } },
      response: { status: 200, body: exampleTask }
    }
  ],
  deleteTask: [{ name: "delete", request: { params: tk }, response: { status: 204 } }],
  archiveTask: [
    { name: "archive", request: { params: tk }, response: { status: 200, body: { ...exampleTask, archived: true, archivedAt: at0 } } }
  ],
  restoreTask: [{ name: "unarchive", request: { params: tk }, response: { status: 200, body: exampleTask } }],
  getTaskByShortId: [
    { name: "by-short-id", request: { params: { ...ws, shortId: "T-42" } }, response: { status: 200, body: exampleTask } }
  ],
  listWorkspaceTasks: [
    {
      name: "overdue",
      request: { params: ws, query: { overdue: "true", order: "due" } },
      response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
    }
  ],
  listMyTasks: [
    { name: "mine", request: { params: ws }, response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } } }
  ],
  duplicateTask: [
    {
      name: "duplicate",
      request: { params: tk, body: { name: "Ship the signup page" } },
      response: { status: 201, body: { ...exampleTask, name: "Ship the signup page" } }
    }
  ],
  moveTask: [{ name: "move", request: { params: tk, body: { listId: ids.list } }, response: { status: 200, body: exampleTask } }],
  setTaskPosition: [
    { name: "after", request: { params: tk, body: { afterTaskId: ids.task2 } }, response: { status: 200, body: exampleTask } }
  ],
  mergeTasks: [
    { name: "merge", request: { params: tk, body: { sourceTaskIds: [ids.task2] } }, response: { status: 200, body: exampleTask } }
  ],
  setTaskStatus: [
    {
      name: "done",
      request: { params: tk, body: { status: "done" } },
      response: { status: 200, body: { ...exampleTask, status: { name: "done", type: "done", color: "#30a46c" }, closedAt: at0 } }
    }
  ],
  setTaskPriority: [
    {
      name: "urgent",
      request: { params: tk, body: { priority: "urgent" } },
      response: { status: 200, body: { ...exampleTask, priority: "urgent" } }
    }
  ],
  setTaskDates: [
    { name: "due", request: { params: tk, body: { dueDate: "2026-12-01T17:00:00.000Z" } }, response: { status: 200, body: exampleTask } }
  ],
  setTaskTimeEstimate: [
    { name: "estimate", request: { params: tk, body: { minutes: 240 } }, response: { status: 200, body: exampleTask } }
  ],
  getTaskTimeInStatus: [
    {
      name: "time",
      request: { params: tk },
      response: {
        status: 200,
        body: {
          current: { status: "in progress", since: at0 },
          items: [
            { status: "to do", type: "open", totalMinutes: 120, times: 1 },
            { status: "in progress", type: "active", totalMinutes: 30, times: 1 }
          ]
        }
      }
    }
  ]
})
