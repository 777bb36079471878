/** Request and response examples of the operations in SearchLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids } from "./WorkAccess.ts"
import { exampleLiteTask } from "./LiteShared.ts"

export const searchLiteExamples = examplesById({
  searchTasksLite: [
    {
      name: "my-open-tasks",
      request: {
        query: { workspaceId: ids.workspace, space: "Engineering", assigneeEmail: "bob@example.com", includeClosed: "false", limit: "20" }
      },
      response: { status: 200, body: { items: [exampleLiteTask], nextCursor: null } }
    }
  ]
})
