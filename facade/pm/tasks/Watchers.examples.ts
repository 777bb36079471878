/** Request and response examples of the operations in Watchers.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { tk } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"
import { exampleUser } from "../WorkExamples.ts"

export const watchersExamples = examplesById({
  listTaskWatchers: [{ name: "watchers", request: { params: tk }, response: { status: 200, body: { items: [exampleUser] } } }],
  addTaskWatcher: [{ name: "watch", request: { params: tk, body: {} }, response: { status: 201, body: { userId: ids.user } } }],
  removeTaskWatcher: [{ name: "unwatch", request: { params: { ...tk, userId: ids.user } }, response: { status: 204 } }]
})
