/** Request and response examples of the operations in ChangedTasks.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds } from "./calls/Examples.ts"

const params = { workspaceId: exampleIds.workspaceId }

export const changeParams = { ...params, changeId: exampleIds.changeId }

export const exampleChange = {
  id: exampleIds.changeId,
  sentTaskId: "f6a7b8c9-d0e1-4f2a-8b3c-4d5e6f7a8b9c",
  recordingId: exampleIds.recordingId,
  actionItemId: exampleIds.actionItemId,
  target: "tracker",
  externalId: "ENG-42",
  url: "https://tracker.example.com/issues/ENG-42",
  text: "I'll send the revised launch timeline by Friday.",
  field: "status",
  oldValue: "open",
  newValue: "closed",
  detectedAt: "2026-11-22T09:00:00.000Z",
  acknowledgedAt: null,
  appliedAt: null
}

export const changedTasksExamples = examplesById({
  listChangedTasks: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleChange] } } }],
  syncChangedTasks: [{ name: "sync", request: { params, body: {} }, response: { status: 200, body: { checked: 3, changes: 1 } } }],
  getChangedTask: [{ name: "get", request: { params: changeParams }, response: { status: 200, body: exampleChange } }],
  acknowledgeAllChangedTasks: [{ name: "all", request: { params }, response: { status: 200, body: { acknowledged: 2 } } }]
})
