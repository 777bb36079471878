/** Request and response examples of the operations in Core.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ws, wsp, exampleBranding, exampleCounts, permissionsOf, bob } from "./shared.ts"
import * as W from "../../shared/WorkspaceAccess.ts"
import { defaults } from "../../../actors/pm/WorkspaceConfig.ts"
import { at0 } from "../WorkAccess.ts"
import { RESTORE_DAYS } from "../../../actors/identity/Workspace.ts"

export const restorableUntil = (deletedAt: string) => new Date(Date.parse(deletedAt) + RESTORE_DAYS * 86_400_000).toISOString()

export const coreExamples = examplesById({
  createWorkspace: [
    { name: "create", request: { body: { name: "Acme" } }, response: { status: 201, body: { ...W.exampleWorkspace, memberCount: 1 } } }
  ],
  listWorkspaces: [{ name: "list", response: { status: 200, body: { items: [W.exampleWorkspace] } } }],
  getWorkspace: [{ name: "get", request: { params: wsp }, response: { status: 200, body: W.exampleWorkspace } }],
  updateWorkspace: [
    {
      name: "rename",
      request: { params: wsp, body: { name: "Acme Inc" } },
      response: { status: 200, body: { ...W.exampleWorkspace, name: "Acme Inc" } }
    }
  ],
  deleteWorkspace: [
    {
      name: "delete",
      request: { params: wsp, query: { confirm: "Acme" } },
      response: { status: 200, body: { id: ws, name: "Acme", deletedAt: at0, restorableUntil: restorableUntil(at0) } }
    }
  ],
  restoreWorkspace: [{ name: "restore", request: { params: wsp }, response: { status: 200, body: W.exampleWorkspace } }],
  listDeletedWorkspaces: [
    {
      name: "deleted",
      response: { status: 200, body: { items: [{ id: ws, name: "Acme", deletedAt: at0, restorableUntil: restorableUntil(at0) }] } }
    }
  ],
  leaveWorkspace: [{ name: "leave", request: { params: wsp }, response: { status: 204 } }],
  transferWorkspaceOwnership: [
    {
      name: "transfer",
      request: { params: wsp, body: { userId: bob.userId } },
      response: { status: 200, body: { ...W.exampleWorkspace, ownerId: bob.userId, role: "admin" } }
    }
  ],
  getWorkspaceProfile: [
    {
      name: "overview",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          workspace: W.exampleWorkspace,
          description: "",
          branding: exampleBranding,
          general: defaults.general,
          counts: { spaces: 2, folders: 3, lists: 7, tasks: exampleCounts, members: 3, guests: 0 },
          seats: { limit: 10, members: 3, guests: 0, pendingInvitations: 1, available: 6 },
          you: permissionsOf("owner", false, { ...defaults, logo: null, seatLimit: 10, updatedBy: null, updatedAt: null })
        }
      }
    }
  ],
  getWorkspaceSwitcher: [
    {
      name: "switcher",
      response: {
        status: 200,
        body: {
          items: [
            { id: ws, name: "Acme", role: "owner", memberCount: 3, color: "#7b68ee", logoUrl: null, unreadNotifications: 2, position: 1 }
          ]
        }
      }
    }
  ],
  reorderMyWorkspaces: [
    { name: "order", request: { body: { workspaceIds: [ws] } }, response: { status: 200, body: { workspaceIds: [ws] } } }
  ]
})
