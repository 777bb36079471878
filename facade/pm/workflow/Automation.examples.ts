/** Request and response examples of the operations in Automation.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"

const ruleId = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e"

const params = { workspaceId: ids.workspace, automationId: ruleId }

const exampleRule = {
  id: ruleId,
  workspaceId: ids.workspace,
  name: "Urgent bugs go to review",
  description: "When a task moves to review, make it urgent and tell the lead",
  enabled: true,
  scope: { type: "list", id: ids.list },
  trigger: { type: "status_changed", toStatus: "in review" },
  conditions: [{ field: "tag", operator: "is", value: "bug" }],
  actions: [
    { type: "set_priority", priority: "urgent" },
    { type: "comment", text: "Moved to review: priority raised automatically." }
  ],
  runCount: 0,
  failureCount: 0,
  lastRunAt: null,
  lastStatus: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleRun = {
  id: "c3d4e5f6-a7b8-4c9d-8e0f-2a3b4c5d6e7f",
  ruleId,
  triggerKey: "seq:42",
  triggerType: "status_changed",
  taskId: ids.task,
  depth: 0,
  status: "succeeded",
  results: [
    { action: "set_priority", ok: true, detail: "priority → urgent" },
    { action: "comment", ok: true, detail: "commented" }
  ],
  error: null,
  startedAt: at0,
  finishedAt: at0
}

export const automationExamples = examplesById({
  listAutomations: [
    { name: "list", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: { items: [exampleRule] } } }
  ],
  createAutomation: [
    {
      name: "review-urgent",
      request: {
        params: { workspaceId: ids.workspace },
        body: {
          name: exampleRule.name,
          description: exampleRule.description,
          scope: exampleRule.scope,
          trigger: exampleRule.trigger,
          conditions: exampleRule.conditions,
          actions: exampleRule.actions
        }
      },
      response: { status: 201, body: exampleRule }
    }
  ],
  getAutomation: [{ name: "get", request: { params }, response: { status: 200, body: exampleRule } }],
  updateAutomation: [
    {
      name: "disable",
      request: { params, body: { enabled: false } },
      response: { status: 200, body: { ...exampleRule, enabled: false } }
    }
  ],
  deleteAutomation: [{ name: "delete", request: { params }, response: { status: 204 } }],
  listAutomationRuns: [{ name: "runs", request: { params }, response: { status: 200, body: { items: [exampleRun] } } }],
  runAutomation: [
    {
      name: "run",
      request: { params, body: { taskId: ids.task } },
      response: { status: 200, body: { ...exampleRun, triggerKey: "manual:d4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f8a", triggerType: "manual" } }
    }
  ],
  testAutomation: [
    {
      name: "test",
      request: { params, body: { taskId: ids.task } },
      response: {
        status: 200,
        body: {
          matches: true,
          inScope: true,
          conditions: [{ condition: exampleRule.conditions[0], holds: true }],
          actions: exampleRule.actions
        }
      }
    }
  ]
})
