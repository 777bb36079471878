/** Request and response examples of the operations in AdminWorkspaces.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"
import { exampleOperatorWorkspace } from "./WorkspaceInspection.ts"

export const adminWorkspacesExamples = examplesById({
  getPlatformWorkspace: [
    { name: "inspect", request: { params: { workspaceId: ids.workspace } }, response: { status: 200, body: exampleOperatorWorkspace } }
  ],
  setPlatformWorkspaceSuspension: [
    {
      name: "suspend",
      request: { params: { workspaceId: ids.workspace }, body: { suspended: true, reason: "Unpaid invoices" } },
      response: {
        status: 200,
        body: { ...exampleOperatorWorkspace, status: "suspended", suspension: { at, by: `user:${ids.owner}`, reason: "Unpaid invoices" } }
      }
    }
  ]
})
