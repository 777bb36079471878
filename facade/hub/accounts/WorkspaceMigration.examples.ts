/** Request and response examples of the operations in WorkspaceMigration.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleWorkspace } from "../../shared/WorkspaceAccess.ts"

const at = "2026-11-21T12:00:00.000Z"

export const workspaceMigrationExamples = examplesById({
  migrateHubWorkspace: [
    {
      name: "to-eu",
      request: {
        params: { workspaceId: exampleWorkspace.id },
        body: {
          targetOrigin: "https://eu.atrium.example",
          targetWorkspaceId: "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
          targetCredential: "atr_live_Eu12ab…"
        }
      },
      response: {
        status: 202,
        body: {
          id: "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
          workspaceId: exampleWorkspace.id,
          targetOrigin: "https://eu.atrium.example",
          targetWorkspaceId: "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
          status: "running",
          progress: { done: 2, total: 5 },
          steps: [
            { item: "settings", name: "settings", ok: true, status: 200, detail: "imported" },
            { item: "member:bob@example.com", name: "member bob@example.com (member)", ok: true, status: 201, detail: "imported" }
          ],
          error: null,
          createdBy: exampleWorkspace.ownerId,
          createdAt: at,
          startedAt: at,
          finishedAt: null
        }
      }
    }
  ]
})
