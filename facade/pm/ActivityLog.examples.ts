/** Request and response examples of the operations in ActivityLog.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"

// ---------------------------------------------------------------------------
// Examples

export const ws = "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10"

export const alice = { id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f", name: "Alice", email: "alice@example.com" }

export const ids = {
  spaceId: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  listId: "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
  taskId: "3c4d5e6f-7a8b-4c9d-0e1f-2a3b4c5d6e7f"
}

export const exampleEvent = {
  seq: 42,
  type: "task.updated",
  workspaceId: ws,
  scope: "task",
  entityId: ids.taskId,
  path: ids,
  data: { status: "in progress" },
  actorId: alice.id,
  actor: alice,
  at: "2026-11-21T12:00:00.000Z"
}

export const activityLogExamples = examplesById({
  getActivityEvent: [{ name: "one", request: { params: { workspaceId: ws, seq: "42" } }, response: { status: 200, body: exampleEvent } }],
  getActivitySummary: [
    {
      name: "summary",
      request: { params: { workspaceId: ws } },
      response: {
        status: 200,
        body: {
          total: 120,
          actors: 4,
          firstAt: "2026-11-01T09:00:00.000Z",
          lastAt: "2026-11-21T12:00:00.000Z",
          firstSeq: 1,
          lastSeq: 120,
          byScope: { workspace: 2, space: 8, list: 20, task: 90 }
        }
      }
    }
  ],
  getActivityPerDay: [
    {
      name: "week",
      request: { params: { workspaceId: ws }, query: { from: "2026-11-15", to: "2026-11-17", timezone: "Europe/Berlin" } },
      response: {
        status: 200,
        body: {
          timezone: "Europe/Berlin",
          items: [
            { date: "2026-11-15", count: 3 },
            { date: "2026-11-16", count: 0 }
          ]
        }
      }
    }
  ],
  getActivityPerType: [
    {
      name: "types",
      request: { params: { workspaceId: ws } },
      response: { status: 200, body: { items: [{ type: "task.updated", count: 80, lastAt: "2026-11-21T12:00:00.000Z" }] } }
    }
  ],
  getActivityPerUser: [
    {
      name: "people",
      request: { params: { workspaceId: ws } },
      response: { status: 200, body: { items: [{ userId: alice.id, name: "Alice", count: 64, lastAt: "2026-11-21T12:00:00.000Z" }] } }
    }
  ],
  getActivityPerSpace: [
    {
      name: "spaces",
      request: { params: { workspaceId: ws } },
      response: {
        status: 200,
        body: { items: [{ spaceId: ids.spaceId, name: "Engineering", count: 90, lastAt: "2026-11-21T12:00:00.000Z" }] }
      }
    }
  ],
  getMostActiveTasks: [
    {
      name: "hot",
      request: { params: { workspaceId: ws }, query: { limit: "5" } },
      response: {
        status: 200,
        body: { items: [{ taskId: ids.taskId, name: "Ship the beta", shortId: "T-42", count: 17, lastAt: "2026-11-21T12:00:00.000Z" }] }
      }
    }
  ],
  exportActivity: [
    {
      name: "csv",
      request: { params: { workspaceId: ws }, query: { from: "2026-11-01" } },
      response: {
        status: 200,
        body: `seq,at,type,scope,entityId,spaceId,listId,taskId,actorId,actorName,data\n42,2026-11-21T12:00:00.000Z,task.updated,task,${ids.taskId},${ids.spaceId},${ids.listId},${ids.taskId},${alice.id},Alice,"{""status"":""in progress""}"\n`
      }
    }
  ]
})
