/** Request and response examples of the operations in Assignees.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask, exampleUser } from "../WorkExamples.ts"

export const assigneesExamples = examplesById({
  listTaskAssignees: [{ name: "assignees", request: { params: tk }, response: { status: 200, body: { items: [exampleUser] } } }],
  addTaskAssignee: [
    { name: "assign", request: { params: tk, body: { email: "bob@example.com" } }, response: { status: 201, body: exampleTask } }
  ],
  removeTaskAssignee: [{ name: "unassign", request: { params: { ...tk, userId: ids.user2 } }, response: { status: 204 } }],
  replaceTaskAssignees: [
    { name: "replace", request: { params: tk, body: { userIds: [ids.user2] } }, response: { status: 200, body: exampleTask } }
  ]
})
