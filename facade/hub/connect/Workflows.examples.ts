/** Request and response examples of the operations in Workflows.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds } from "../calls/Examples.ts"

const workflowId = "d0e1f2a3-b4c5-4d6e-8f7a-8b9c0d1e2f3a"

const params = { workspaceId: exampleIds.workspaceId }

const workflowParams = { ...params, workflowId }

const exampleSteps = [
  { vendor: "tracker", destination: "ENG", title: "{{data.title}}", description: "Reported through the broker ({{event.type}})" }
]

const exampleWorkflow = {
  id: workflowId,
  workspaceId: exampleIds.workspaceId,
  name: "Support tickets to tracker",
  trigger: { type: "event", eventType: "ticket.created" },
  steps: exampleSteps,
  enabled: true,
  createdBy: exampleIds.userId,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const exampleRun = {
  id: "e1f2a3b4-c5d6-4e7f-8a8b-9c0d1e2f3a4b",
  workflowId,
  triggerEvent: null,
  status: "succeeded",
  steps: [
    {
      index: 0,
      vendor: "tracker",
      status: "succeeded",
      externalId: "ENG-101",
      url: "https://tracker.example.com/issues/ENG-101",
      message: null
    }
  ],
  startedBy: exampleIds.userId,
  startedAt: "2026-11-21T12:00:00.000Z",
  finishedAt: "2026-11-21T12:00:00.400Z"
}

export const workflowsExamples = examplesById({
  listWorkflows: [{ name: "list", request: { params }, response: { status: 200, body: { items: [exampleWorkflow] } } }],
  createWorkflow: [
    {
      name: "event-to-tracker",
      request: { params, body: { name: exampleWorkflow.name, trigger: exampleWorkflow.trigger, steps: exampleSteps } },
      response: { status: 201, body: exampleWorkflow }
    }
  ],
  updateWorkflow: [
    {
      name: "disable",
      request: { params: workflowParams, body: { enabled: false } },
      response: { status: 200, body: { ...exampleWorkflow, enabled: false } }
    }
  ],
  runWorkflow: [
    {
      name: "run",
      request: { params: workflowParams, body: { data: { title: "Login fails on Android" } } },
      response: { status: 201, body: exampleRun }
    }
  ],
  listWorkflowRuns: [{ name: "list", request: { params: workflowParams }, response: { status: 200, body: { items: [exampleRun] } } }]
})
