/**
 * hub tag "Workspace Settings" (4): the preferred integration target for new
 * action items and the custom prompt prepended to every recording's analysis.
 */
import { Effect, Schema } from "effect"
import { CustomPrompt, IntegrationTarget, Workspace, WorkspaceSettings } from "../../actors/identity/Workspace.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { WorkspaceParams, exampleWorkspace } from "../shared/WorkspaceAccess.ts"

const tag = "Workspace Settings"
const service = "hub"
const exampleSettings = {
  preferredIntegrationTarget: "tracker",
  customPrompt: "Focus on decisions and owners.",
  updatedAt: "2026-11-21T12:00:00.000Z"
}
const params = { workspaceId: exampleWorkspace.id }

const targets: ReadonlyArray<{ id: typeof IntegrationTarget.Type; name: string; description: string }> = [
  { id: "tracker", name: "Issue tracker", description: "Action items become issues in the connected issue tracker" },
  { id: "taskapp", name: "Task tool", description: "Action items become tasks in the connected task tool" },
  { id: "tablebase", name: "Spreadsheet-database", description: "Action items become rows in the connected spreadsheet-database tool" },
  { id: "pm", name: "Atrium project management", description: "Action items become tasks in this workspace's project management" }
]

const settingsOf = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const principal = yield* principalOf(context)
    return (yield* (yield* ActorSystem).ask(Workspace, workspaceId, "view", { by: principal.userId })).settings
  })

export const workspaceSettingsOperations = [
  operation({
    service,
    tag,
    operationId: "getWorkspaceSettings",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Get the workspace's settings",
    auth: "both",
    scopes: ["workspace-settings:read"],
    params: WorkspaceParams,
    responses: { 200: { description: "Settings", schema: WorkspaceSettings } },
    examples: [{ name: "get", request: { params }, response: { status: 200, body: exampleSettings } }],
    handler: ({ params }, context) => settingsOf(context, params.workspaceId)
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "set-target-and-prompt",
        request: { params, body: { preferredIntegrationTarget: "tracker", customPrompt: "Focus on decisions and owners." } },
        response: { status: 200, body: exampleSettings }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const principal = yield* principalOf(context)
        return yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "updateSettings", { by: principal.userId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "resetWorkspaceSettings",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/settings",
    summary: "Reset the workspace's settings to defaults (admin)",
    auth: "both",
    scopes: ["workspace-settings:write"],
    params: WorkspaceParams,
    responses: { 200: { description: "Default settings", schema: WorkspaceSettings } },
    examples: [
      {
        name: "reset",
        request: { params },
        response: { status: 200, body: { preferredIntegrationTarget: null, customPrompt: null, updatedAt: "2026-11-21T12:00:00.000Z" } }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId)
        const principal = yield* principalOf(context)
        return yield* (yield* ActorSystem).ask(Workspace, params.workspaceId, "resetSettings", { by: principal.userId })
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "targets",
        request: { params },
        response: { status: 200, body: { items: targets.map((t) => ({ ...t, preferred: t.id === "tracker" })) } }
      }
    ],
    handler: ({ params }, context) =>
      Effect.map(settingsOf(context, params.workspaceId), (settings) => ({
        items: targets.map((t) => ({ ...t, preferred: t.id === settings.preferredIntegrationTarget }))
      }))
  })
]
