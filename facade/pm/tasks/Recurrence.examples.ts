/** Request and response examples of the operations in Recurrence.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleTask } from "../WorkExamples.ts"

export const recurrenceExamples = examplesById({
  getTaskRecurrence: [
    { name: "weekly", request: { params: tk }, response: { status: 200, body: { recurrence: { frequency: "weekly", interval: 1 } } } }
  ],
  setTaskRecurrence: [
    {
      name: "weekly",
      request: { params: tk, body: { frequency: "weekly", interval: 1 } },
      response: { status: 200, body: { ...exampleTask, recurrence: { frequency: "weekly", interval: 1 } } }
    }
  ],
  deleteTaskRecurrence: [{ name: "stop", request: { params: tk }, response: { status: 204 } }]
})
