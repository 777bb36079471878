/** Request and response examples of the operations in Trash.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk, ws } from "./shared.ts"
import { exampleTask } from "../WorkExamples.ts"
import { at0 } from "../WorkAccess.ts"

export const trashExamples = examplesById({
  listDeletedTasks: [
    { name: "trash", request: { params: ws }, response: { status: 200, body: { items: [{ ...exampleTask, deletedAt: at0 }] } } }
  ],
  restoreDeletedTask: [{ name: "undelete", request: { params: tk }, response: { status: 200, body: exampleTask } }]
})
