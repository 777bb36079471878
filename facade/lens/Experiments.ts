/** Lens Experiment Resource (5): A/B tests of the engine's grading settings per workspace, with results from feedback (admins change them). */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Experiment, ExperimentStatus, experiments, Variant, VariantResult } from "../../actors/lens/LensExperiments.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { operation } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { exampleIds } from "./Examples.ts"

const service = "hub"
const tag = "Lens Experiment Resource"
const params = Schema.Struct({ workspaceId: Id })
const itemParams = Schema.Struct({ workspaceId: Id, experimentId: Id })
const exampleParams = { workspaceId: exampleIds.workspaceId }
const exampleItemParams = { ...exampleParams, experimentId: exampleIds.experimentId }
const exampleVariants = [
  { name: "control", settings: {} },
  { name: "strict", settings: { minimumCoverage: 0.5, topK: 5 } }
]
const exampleExperiment = {
  id: exampleIds.experimentId,
  workspaceId: exampleIds.workspaceId,
  name: "Stricter grading",
  status: "running" as const,
  variants: exampleVariants,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

export const experimentOperations = [
  operation({
    service,
    tag,
    operationId: "createLensExperiment",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/lens/experiments",
    summary: "Start an A/B test of Lens settings in the workspace (admin; one runs at a time)",
    description: "Each asker is assigned one variant for the experiment's life; each answer records its variant.",
    auth: "jwt",
    scopes: [],
    params,
    body: Schema.Struct({
      name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(120)),
      variants: Schema.Array(Variant).check(Schema.isMinLength(2), Schema.isMaxLength(4))
    }),
    responses: { 201: { description: "Running", schema: Experiment }, 409: { description: "Another experiment is running" } },
    examples: [
      {
        name: "create",
        request: { params: exampleParams, body: { name: "Stricter grading", variants: exampleVariants } },
        response: { status: 201, body: exampleExperiment }
      }
    ],
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          return yield* experiments(params.workspaceId, "create", { by: principal.userId, name: body.name, variants: body.variants })
        })
      )
  }),
  operation({
    service,
    tag,
    operationId: "listLensExperiments",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/experiments",
    summary: "The workspace's Lens experiments, newest first",
    auth: "jwt",
    scopes: [],
    params,
    responses: { 200: { description: "Experiments", schema: Schema.Struct({ items: Schema.Array(Experiment) }) } },
    examples: [{ name: "list", request: { params: exampleParams }, response: { status: 200, body: { items: [exampleExperiment] } } }],
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId), () =>
        Effect.map(experiments(params.workspaceId, "list", {}), (items) => ({ items }))
      )
  }),
  operation({
    service,
    tag,
    operationId: "getLensExperimentResults",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/experiments/{experimentId}/results",
    summary: "Answers, thumbs up/down and approval per variant",
    auth: "jwt",
    scopes: [],
    params: itemParams,
    responses: {
      200: { description: "Results", schema: Schema.Struct({ experiment: Experiment, variants: Schema.Array(VariantResult) }) },
      404: { description: "No such experiment" }
    },
    examples: [
      {
        name: "results",
        request: { params: exampleItemParams },
        response: {
          status: 200,
          body: {
            experiment: exampleExperiment,
            variants: [
              { variant: "control", answers: 10, up: 6, down: 2, approval: 0.75 },
              { variant: "strict", answers: 9, up: 7, down: 1, approval: 0.875 }
            ]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId), () =>
        experiments(params.workspaceId, "results", { experimentId: params.experimentId })
      )
  }),
  operation({
    service,
    tag,
    operationId: "updateLensExperiment",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/lens/experiments/{experimentId}",
    summary: "Stop or restart an experiment (admin)",
    auth: "jwt",
    scopes: [],
    params: itemParams,
    body: Schema.Struct({ status: ExperimentStatus }),
    responses: {
      200: { description: "Updated", schema: Experiment },
      404: { description: "No such experiment" },
      409: { description: "Another experiment is running" }
    },
    examples: [
      {
        name: "stop",
        request: { params: exampleItemParams, body: { status: "stopped" } },
        response: { status: 200, body: { ...exampleExperiment, status: "stopped" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId, "admin"), () =>
        experiments(params.workspaceId, "setStatus", { experimentId: params.experimentId, status: body.status })
      )
  }),
  operation({
    service,
    tag,
    operationId: "deleteLensExperiment",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/lens/experiments/{experimentId}",
    summary: "Delete an experiment (admin); its answers keep their variant tag",
    auth: "jwt",
    scopes: [],
    params: itemParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such experiment" } },
    examples: [{ name: "delete", request: { params: exampleItemParams }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId, "admin"), () =>
        experiments(params.workspaceId, "delete", { experimentId: params.experimentId })
      )
  })
]
