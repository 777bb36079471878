/**
 * pm tag "Admin - Workspaces" (2): the platform operator inspects any
 * workspace and suspends or resumes it. A suspended workspace refuses its
 * members' requests (403 naming the suspension) until it is resumed.
 */
import { Effect, Schema } from "effect"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { asOperator, audited, OPERATOR_NOTE, WorkspaceIdParams } from "./Shared.ts"
import { existingWorkspace, inspectWorkspace, OperatorWorkspace } from "./WorkspaceInspection.ts"
import { adminWorkspacesExamples } from "./AdminWorkspaces.examples.ts"

const { operation } = tagGroup("pm", "Admin - Workspaces", adminWorkspacesExamples)

export const adminWorkspacesOperations = [
  operation({
    operationId: "getPlatformWorkspace",
    method: "GET",
    path: "/v1/admin/workspaces/{workspaceId}",
    summary: "Inspect any workspace: owner, members, suspension, limits, quota and usage",
    description: OPERATOR_NOTE,
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "The workspace", schema: OperatorWorkspace }, 404: { description: "No such workspace" } },
    handler: ({ params }, context) => Effect.flatMap(asOperator(context), () => inspectWorkspace(params.workspaceId))
  }),
  operation({
    operationId: "setPlatformWorkspaceSuspension",
    method: "PUT",
    path: "/v1/admin/workspaces/{workspaceId}/suspension",
    summary: "Suspend a workspace (its members are refused) or resume it",
    description: `${OPERATOR_NOTE} \`reason\` is required to suspend; members see it in the 403.`,
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({
      suspended: Schema.Boolean,
      reason: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(500)))
    }),
    responses: {
      200: { description: "The workspace after the change", schema: OperatorWorkspace },
      404: { description: "No such workspace" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const operator = yield* asOperator(context)
        yield* existingWorkspace(params.workspaceId)
        yield* setSuspension(params.workspaceId, operator.actor, body.suspended, body.reason)
        return yield* inspectWorkspace(params.workspaceId)
      })
  })
]

/** Suspends or resumes, with its audit entry (shared with the internal lifecycle operations). */
export const setSuspension = (workspaceId: string, actor: string, suspended: boolean, reason: string | undefined) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    if (suspended) {
      if (reason === undefined)
        return yield* reject("invalid", "A reason is required to suspend", [{ path: "body.reason", message: "required to suspend" }])
      yield* Workspace.client(actors)(workspaceId).suspend({ by: actor, reason })
    } else yield* Workspace.client(actors)(workspaceId).resume({ by: actor })
    yield* audited({
      actor,
      action: suspended ? "workspace.suspended" : "workspace.resumed",
      targetType: "workspace",
      targetId: workspaceId,
      workspaceId,
      data: { reason: reason ?? null }
    })
  })
