/** Request and response examples of the operations in Relationships.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleTaskSummary } from "./WorkExamples.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"

const tk = { taskId: ids.task }

const ws = { workspaceId: ids.workspace }

const summary = { id: ids.task, shortId: "T-42", name: "Ship the login page", status: "in progress", listId: ids.list }

const exampleRelationship = {
  id: ids.relationship,
  type: "blocks",
  sourceTaskId: ids.task,
  targetTaskId: ids.task2,
  source: summary,
  target: exampleTaskSummary,
  createdBy: ids.user,
  createdAt: at0
}

export const relationshipsExamples = examplesById({
  listTaskRelationships: [
    {
      name: "relationships",
      request: { params: tk },
      response: { status: 200, body: { items: [{ id: ids.relationship, type: "blocks", task: exampleTaskSummary, createdAt: at0 }] } }
    }
  ],
  createTaskRelationship: [
    {
      name: "blocks",
      request: { params: tk, body: { type: "blocks", relatedTaskId: ids.task2 } },
      response: { status: 201, body: exampleRelationship }
    }
  ],
  getRelationship: [
    {
      name: "get",
      request: { params: { ...ws, relationshipId: ids.relationship } },
      response: { status: 200, body: exampleRelationship }
    }
  ],
  deleteRelationship: [{ name: "delete", request: { params: { ...ws, relationshipId: ids.relationship } }, response: { status: 204 } }],
  bulkCreateRelationships: [
    {
      name: "bulk",
      request: { params: ws, body: { items: [{ taskId: ids.task, type: "blocks", relatedTaskId: ids.task2 }] } },
      response: { status: 201, body: { items: [exampleRelationship] } }
    }
  ],
  bulkDeleteRelationships: [
    {
      name: "bulk-delete",
      request: { params: ws, body: { relationshipIds: [ids.relationship] } },
      response: { status: 200, body: { deleted: 1 } }
    }
  ],
  getTaskDependencyGraph: [
    {
      name: "graph",
      request: { params: tk },
      response: {
        status: 200,
        body: {
          taskId: ids.task,
          nodes: [
            { ...summary, closed: false },
            { ...exampleTaskSummary, closed: false }
          ],
          edges: [{ sourceTaskId: ids.task, targetTaskId: ids.task2 }],
          blocking: [ids.task2],
          blockedBy: [],
          openBlockers: []
        }
      }
    }
  ],
  listBlockedTasks: [
    {
      name: "blocked",
      request: { params: ws },
      response: { status: 200, body: { items: [{ ...exampleTaskSummary, blockerIds: [ids.task] }] } }
    }
  ]
})
