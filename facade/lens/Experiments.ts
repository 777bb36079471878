/** Lens Experiment Resource (5): A/B tests of the engine's grading settings per workspace, with results from feedback (admins change them). */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Experiment, ExperimentStatus, experiments, Variant, VariantResult } from "../../actors/lens/LensExperiments.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"

import { experimentsExamples } from "./Experiments.examples.ts"
const params = Schema.Struct({ workspaceId: Id })
const itemParams = Schema.Struct({ workspaceId: Id, experimentId: Id })

const { operation } = tagGroup("hub", "Lens Experiment Resource", experimentsExamples)

export const experimentOperations = [
  operation({
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
    handler: ({ params, body }, context) =>
      orDieSql(
        Effect.gen(function* () {
          yield* workspaceRole(context, params.workspaceId, "admin")
          const principal = yield* principalOf(context)
          return yield* experiments(params.workspaceId).create({ by: principal.userId, name: body.name, variants: body.variants })
        })
      )
  }),
  operation({
    operationId: "listLensExperiments",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/lens/experiments",
    summary: "The workspace's Lens experiments, newest first",
    auth: "jwt",
    scopes: [],
    params,
    responses: { 200: { description: "Experiments", schema: Schema.Struct({ items: Schema.Array(Experiment) }) } },
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId), () =>
        Effect.map(experiments(params.workspaceId).list({}), (items) => ({ items }))
      )
  }),
  operation({
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
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId), () =>
        experiments(params.workspaceId).results({ experimentId: params.experimentId })
      )
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId, "admin"), () =>
        experiments(params.workspaceId).setStatus({ experimentId: params.experimentId, status: body.status })
      )
  }),
  operation({
    operationId: "deleteLensExperiment",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/lens/experiments/{experimentId}",
    summary: "Delete an experiment (admin); its answers keep their variant tag",
    auth: "jwt",
    scopes: [],
    params: itemParams,
    responses: { 204: { description: "Deleted" }, 404: { description: "No such experiment" } },
    handler: ({ params }, context) =>
      Effect.flatMap(workspaceRole(context, params.workspaceId, "admin"), () =>
        experiments(params.workspaceId).delete({ experimentId: params.experimentId })
      )
  })
]
