/** Request and response examples of the operations in WorkspaceSettings.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import type { IntegrationTarget } from "../../actors/identity/Workspace.ts"
import { exampleWorkspace } from "../shared/WorkspaceAccess.ts"

const exampleSettings = {
  preferredIntegrationTarget: "tracker",
  customPrompt: "Focus on decisions and owners.",
  updatedAt: "2026-11-21T12:00:00.000Z"
}

const params = { workspaceId: exampleWorkspace.id }

export const targets: ReadonlyArray<{ id: typeof IntegrationTarget.Type; name: string; description: string }> = [
  { id: "tracker", name: "Issue tracker", description: "Action items become issues in the connected issue tracker" },
  { id: "taskapp", name: "Task tool", description: "Action items become tasks in the connected task tool" },
  { id: "tablebase", name: "Spreadsheet-database", description: "Action items become rows in the connected spreadsheet-database tool" },
  { id: "pm", name: "Atrium project management", description: "Action items become tasks in this workspace's project management" }
]

export const workspaceSettingsExamples = examplesById({
  getWorkspaceSettings: [{ name: "get", request: { params }, response: { status: 200, body: exampleSettings } }],
  updateWorkspaceSettings: [
    {
      name: "set-target-and-prompt",
      request: { params, body: { preferredIntegrationTarget: "tracker", customPrompt: "Focus on decisions and owners." } },
      response: { status: 200, body: exampleSettings }
    }
  ],
  resetWorkspaceSettings: [
    {
      name: "reset",
      request: { params },
      response: { status: 200, body: { preferredIntegrationTarget: null, customPrompt: null, updatedAt: "2026-11-21T12:00:00.000Z" } }
    }
  ],
  listIntegrationTargets: [
    {
      name: "targets",
      request: { params },
      response: { status: 200, body: { items: targets.map((t) => ({ ...t, preferred: t.id === "tracker" })) } }
    }
  ]
})
