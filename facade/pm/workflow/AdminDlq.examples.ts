/** Request and response examples of the operations in AdminDlq.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const letterId = "msg_9f2c4e1a7b3d4c5e8f6a0b1c2d3e4f5a"

const exampleLetter = {
  id: letterId,
  endpointId: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  workspaceId: ids.workspace,
  eventSeq: 42,
  eventType: "task.updated",
  entityId: ids.task,
  status: "dead",
  attempts: 8,
  nextAttemptAt: null,
  lastStatus: 503,
  lastError: "HTTP 503",
  createdAt: at0,
  deliveredAt: null,
  deadAt: "2026-11-21T14:12:00.000Z",
  endpointUrl: "https://203.0.113.10/atrium-hooks",
  endpointStatus: "active"
}

export const adminDlqExamples = examplesById({
  listDeadLetters: [{ name: "list", response: { status: 200, body: { items: [exampleLetter], total: 1 } } }],
  getDlqStats: [
    {
      name: "stats",
      response: {
        status: 200,
        body: {
          dead: 1,
          pending: 4,
          deliveredLastDay: 1200,
          disabledEndpoints: 0,
          oldestDeadAt: "2026-11-21T14:12:00.000Z",
          byWorkspace: [{ workspaceId: ids.workspace, dead: 1 }],
          byEventType: [{ eventType: "task.updated", dead: 1 }]
        }
      }
    }
  ],
  getDeadLetter: [
    {
      name: "get",
      request: { params: { deliveryId: letterId } },
      response: {
        status: 200,
        body: { ...exampleLetter, payload: { type: "task.updated", timestamp: at0, data: { seq: 42, entityId: ids.task } } }
      }
    }
  ],
  replayDeadLetter: [
    { name: "replay", request: { params: { deliveryId: letterId } }, response: { status: 202, body: { replayed: 1, ids: [letterId] } } }
  ],
  replayDeadLetters: [
    {
      name: "endpoint",
      request: { body: { endpointId: exampleLetter.endpointId } },
      response: { status: 202, body: { replayed: 1, ids: [letterId] } }
    }
  ],
  deleteDeadLetter: [{ name: "delete", request: { params: { deliveryId: letterId } }, response: { status: 204 } }],
  purgeDeadLetters: [
    { name: "older", request: { query: { before: "2026-11-20T00:00:00.000Z" } }, response: { status: 200, body: { purged: 1 } } }
  ]
})
