/** Request and response examples of the operations in RelationshipsLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

const ws = ids.workspace

const example = {
  id: ids.relationship,
  type: "blocks",
  task: "T-42",
  relatedTask: "T-43",
  relatedTaskName: "Design review",
  relatedTaskStatus: "to do",
  createdAt: at0
}

export const relationshipsLiteExamples = examplesById({
  createRelationshipLite: [
    {
      name: "blocks",
      request: { body: { workspaceId: ws, task: "T-42", type: "blocks", relatedTask: "T-43" } },
      response: { status: 201, body: example }
    }
  ],
  listRelationshipsLite: [
    { name: "list", request: { query: { workspaceId: ws, task: "T-42" } }, response: { status: 200, body: { items: [example] } } }
  ],
  deleteRelationshipLite: [
    {
      name: "delete",
      request: { query: { workspaceId: ws, task: "T-42", type: "blocks", relatedTask: "T-43" } },
      response: { status: 204 }
    }
  ]
})
