/** Request and response examples of the operations in Subtasks.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask } from "../WorkExamples.ts"

export const subtasksExamples = examplesById({
  listSubtasks: [
    {
      name: "subtasks",
      request: { params: tk },
      response: { status: 200, body: { items: [{ ...exampleTask, id: ids.task2, parentTaskId: ids.task }] } }
    }
  ],
  createSubtask: [
    {
      name: "subtask",
      request: { params: tk, body: { name: "Write the tests" } },
      response: { status: 201, body: { ...exampleTask, id: ids.task2, name: "Write the tests", parentTaskId: ids.task } }
    }
  ],
  setTaskParent: [
    {
      name: "nest",
      request: { params: tk, body: { parentTaskId: ids.task2 } },
      response: { status: 200, body: { ...exampleTask, parentTaskId: ids.task2 } }
    }
  ],
  getTaskTree: [
    {
      name: "tree",
      request: { params: tk },
      response: {
        status: 200,
        body: {
          id: ids.task,
          shortId: "T-42",
          name: "Ship the login page",
          status: "in progress",
          children: [{ id: ids.task2, shortId: "T-43", name: "Write the tests", status: "to do", children: [] }]
        }
      }
    }
  ]
})
