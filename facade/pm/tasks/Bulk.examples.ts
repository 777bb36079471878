/** Request and response examples of the operations in Bulk.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ws, li } from "./shared.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

export const bulkExamples = examplesById({
  bulkCreateTasks: [
    {
      name: "bulk",
      request: { params: li, body: { tasks: [{ name: "One" }, { name: "Two", priority: "low" }] } },
      response: { status: 201, body: { items: [exampleTask] } }
    }
  ],
  bulkUpdateTasks: [
    {
      name: "close",
      request: { params: ws, body: { taskIds: [ids.task, ids.task2], patch: { status: "done" } } },
      response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } }
    }
  ],
  bulkMoveTasks: [
    {
      name: "move",
      request: { params: ws, body: { taskIds: [ids.task], listId: ids.list } },
      response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } }
    }
  ],
  bulkDeleteTasks: [
    {
      name: "delete",
      request: { params: ws, body: { taskIds: [ids.task] } },
      response: { status: 200, body: { items: [{ taskId: ids.task, ok: true }] } }
    }
  ],
  bulkArchiveTasks: [
    {
      name: "archive",
      request: { params: ws, body: { taskIds: [ids.task] } },
      response: {
        status: 200,
        body: { items: [{ taskId: ids.task, ok: true, task: { ...exampleTask, archived: true, archivedAt: at0 } }] }
      }
    }
  ],
  bulkSetTaskCustomField: [
    {
      name: "points",
      request: { params: ws, body: { taskIds: [ids.task], fieldId: ids.field, value: 3 } },
      response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } }
    }
  ]
})
