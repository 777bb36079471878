/**
 * hub tag "Workspace Settings" (4): the preferred integration target for new
 * action items and the custom prompt prepended to every recording's analysis.
 */
import { Effect, Schema } from "effect"
import { CustomPrompt, IntegrationTarget, Workspace, WorkspaceSettings } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { WorkspaceParams } from "../shared/WorkspaceAccess.ts"
import { workspaceSettingsExamples, targets } from "./WorkspaceSettings.examples.ts"

const settingsOf = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    return (yield* Workspace.client(yield* ActorSystem)(workspaceId).view({ by: principal.userId })).settings
  })

const { operation } = tagGroup("hub", "Workspace Settings", workspaceSettingsExamples)

export const workspaceSettingsOperations = [
  operation({
    operationId: "getWorkspaceSettings",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Get the workspace's settings",
    auth: "both",
    scopes: ["workspace-settings:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: WorkspaceSettings } },
    handler: ({ params }, context) => settingsOf(context, params.workspaceId)
  }),
  operation({
    operationId: "updateWorkspaceSettings",
    method: "PATCH",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Change the preferred integration target and/or the custom prompt (admin)",
    description: "Fields left out are unchanged; null clears one.",
    auth: "both",
    scopes: ["workspace-settings:write"],
    params: WorkspaceParams,
    body: Schema.Struct({
      preferredIntegrationTarget: Schema.optionalKey(Schema.NullOr(IntegrationTarget)),
      customPrompt: Schema.optionalKey(Schema.NullOr(CustomPrompt))
    }),
    responses: { 200: { description: "Updated settings", schema: WorkspaceSettings } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const principal = yield* principalOf(context)
        return yield* Workspace.client(yield* ActorSystem)(params.workspaceId).updateSettings({ by: principal.userId, ...body })
      })
  }),
  operation({
    operationId: "resetWorkspaceSettings",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Reset the workspace's settings to defaults (admin)",
    auth: "both",
    scopes: ["workspace-settings:write"],
    params: WorkspaceParams,
    responses: { 200: { description: "Default settings", schema: WorkspaceSettings } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const principal = yield* principalOf(context)
        return yield* Workspace.client(yield* ActorSystem)(params.workspaceId).resetSettings({ by: principal.userId })
      })
  }),
  operation({
    operationId: "listIntegrationTargets",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/settings/integration-targets",
    summary: "The integration targets new action items can go to, and which one is preferred",
    auth: "both",
    scopes: ["workspace-settings:read"],
    params: WorkspaceParams,
    responses: {
      200: {
        description: "Targets",
        schema: Schema.Struct({
          items: Schema.Array(
            Schema.Struct({ id: IntegrationTarget, name: Schema.String, description: Schema.String, preferred: Schema.Boolean })
          )
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.map(settingsOf(context, params.workspaceId), (settings) => ({
        items: targets.map((t) => ({ ...t, preferred: t.id === settings.preferredIntegrationTarget }))
      }))
  })
]
