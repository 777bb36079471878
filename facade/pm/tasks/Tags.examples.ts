/** Request and response examples of the operations in Tags.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleTask, exampleTag } from "../WorkExamples.ts"

export const tagsExamples = examplesById({
  listTaskTags: [{ name: "tags", request: { params: tk }, response: { status: 200, body: { items: [exampleTag] } } }],
  addTaskTag: [{ name: "tag", request: { params: tk, body: { name: "frontend" } }, response: { status: 201, body: exampleTask } }],
  removeTaskTag: [{ name: "untag", request: { params: { ...tk, tagId: ids.tag } }, response: { status: 204 } }]
})
