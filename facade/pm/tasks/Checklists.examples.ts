/** Request and response examples of the operations in Checklists.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

const exampleChecklist = {
  id: ids.checklist,
  taskId: ids.task,
  name: "Release",
  position: 1,
  items: [{ id: ids.item, name: "Write changelog", resolved: false, assigneeId: null, position: 1 }],
  resolvedCount: 0
}

export const checklistsExamples = examplesById({
  listTaskChecklists: [{ name: "checklists", request: { params: tk }, response: { status: 200, body: { items: [exampleChecklist] } } }],
  createTaskChecklist: [
    {
      name: "create",
      request: { params: tk, body: { name: "Release", items: ["Write changelog"] } },
      response: { status: 201, body: exampleChecklist }
    }
  ],
  getTaskChecklist: [
    { name: "get", request: { params: { ...tk, checklistId: ids.checklist } }, response: { status: 200, body: exampleChecklist } }
  ],
  updateTaskChecklist: [
    {
      name: "rename",
      request: { params: { ...tk, checklistId: ids.checklist }, body: { name: "Launch" } },
      response: { status: 200, body: { ...exampleChecklist, name: "Launch" } }
    }
  ],
  deleteTaskChecklist: [{ name: "delete", request: { params: { ...tk, checklistId: ids.checklist } }, response: { status: 204 } }],
  addChecklistItem: [
    {
      name: "add",
      request: { params: { ...tk, checklistId: ids.checklist }, body: { name: "Write changelog" } },
      response: { status: 201, body: exampleChecklist }
    }
  ],
  updateChecklistItem: [
    {
      name: "resolve",
      request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item }, body: { resolved: true } },
      response: { status: 200, body: { ...exampleChecklist, resolvedCount: 1 } }
    }
  ],
  deleteChecklistItem: [
    { name: "delete", request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item } }, response: { status: 204 } }
  ],
  reorderChecklistItems: [
    {
      name: "reorder",
      request: { params: { ...tk, checklistId: ids.checklist }, body: { itemIds: [ids.item] } },
      response: { status: 200, body: exampleChecklist }
    }
  ],
  convertChecklistItemToSubtask: [
    {
      name: "convert",
      request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item } },
      response: { status: 201, body: { ...exampleTask, id: ids.task2, name: "Write changelog", parentTaskId: ids.task } }
    }
  ]
})
