/**
 * hub tag "Workflow Resource" (5): named workflows (a trigger, then steps that
 * push items through the vendor adapters) and their run history. Reads:
 * member + `integrations:read`; changes and manual runs: admin (runs: member)
 * + `integrations:write`.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { createWorkflow, getWorkflow, listWorkflows, updateWorkflow } from "../../../actors/hub/broker/WorkflowActor.ts"
import { Workflow, WorkflowRun, WorkflowStep, WorkflowTrigger, listRuns, runWorkflow } from "../../../actors/hub/broker/Workflows.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"

import { workflowsExamples } from "./Workflows.examples.ts"
const base = "/v1/workspaces/{workspaceId}/workflows"
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const WorkflowParams = Schema.Struct({ workspaceId: Id, workflowId: Id })
const Steps = Schema.Array(WorkflowStep).check(Schema.isMinLength(1), Schema.isMaxLength(20))

const { operation } = tagGroup("hub", "Workflow Resource", workflowsExamples)

export const workflowOperations = [
  operation({
    operationId: "listWorkflows",
    method: "GET",
    path: base,
    summary: "The workspace's workflows",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Workflows", schema: Schema.Struct({ items: Schema.Array(Workflow) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        return { items: yield* listWorkflows(params.workspaceId) }
      })
  }),
  operation({
    operationId: "createWorkflow",
    method: "POST",
    path: base,
    summary: "Create a named workflow: a trigger (manual, or a broker event type) and steps over the adapters (admin)",
    auth: "both",
    scopes: ["integrations:write"],
    params: WorkspaceParams,
    body: Schema.Struct({ name: Name(200), trigger: WorkflowTrigger, steps: Steps, enabled: Schema.optionalKey(Schema.Boolean) }),
    responses: { 201: { description: "Created", schema: Workflow }, 409: { description: "The name is taken" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "admin")
        const principal = yield* principalOf(context)
        return yield* createWorkflow(params.workspaceId, { ...body, name: body.name.trim() }, principal.userId)
      })
  }),
  operation({
    operationId: "updateWorkflow",
    method: "PATCH",
    path: `${base}/{workflowId}`,
    summary: "Change a workflow's name, trigger, steps, or enable/disable it (admin)",
    auth: "both",
    scopes: ["integrations:write"],
    params: WorkflowParams,
    body: Schema.Struct({
      name: Schema.optionalKey(Name(200)),
      trigger: Schema.optionalKey(WorkflowTrigger),
      steps: Schema.optionalKey(Steps),
      enabled: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "The workflow", schema: Workflow } },
    handler: ({ params, body }, context) =>
      Effect.andThen(
        workspaceRole(context, params.workspaceId, "admin"),
        updateWorkflow(params.workspaceId, params.workflowId, { ...body, ...(body.name ? { name: body.name.trim() } : {}) })
      )
  }),
  operation({
    operationId: "runWorkflow",
    method: "POST",
    path: `${base}/{workflowId}/runs`,
    summary: "Run a workflow now, with optional event data for its templates; answers the run with each step's outcome",
    description:
      "A step a vendor fails is recorded as failed (with the vendor's message) and the rest skipped: the run is the answer, not an error.",
    auth: "both",
    scopes: ["integrations:write"],
    params: WorkflowParams,
    body: Schema.Struct({
      data: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "Filled into `{{data.<path>}}`" }))
    }),
    responses: { 201: { description: "The run", schema: WorkflowRun }, 409: { description: "The workflow is disabled" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "member")
        const principal = yield* principalOf(context)
        const workflow = yield* getWorkflow(params.workspaceId, params.workflowId)
        if (!workflow.enabled) return yield* reject("conflict", "The workflow is disabled")
        return yield* runWorkflow(
          workflow,
          body.data ? { id: "", type: "manual", data: body.data, connectionId: null } : null,
          principal.userId
        )
      })
  }),
  operation({
    operationId: "listWorkflowRuns",
    method: "GET",
    path: `${base}/{workflowId}/runs`,
    summary: "A workflow's run history, newest first",
    auth: "both",
    scopes: ["integrations:read"],
    params: WorkflowParams,
    query: Schema.Struct({
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: { 200: { description: "Runs", schema: Schema.Struct({ items: Schema.Array(WorkflowRun) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const workflow = yield* getWorkflow(params.workspaceId, params.workflowId)
        return { items: yield* listRuns(workflow.id, query.limit ?? 20) }
      })
  })
]
