/** Request and response examples of the operations in Workspaces.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import * as W from "../shared/WorkspaceAccess.ts"

const ws = W.exampleWorkspace.id

export const workspacesExamples = examplesById({
  listHubWorkspaces: [{ name: "list", response: { status: 200, body: { items: [W.exampleWorkspace] } } }],
  getHubWorkspace: [{ name: "get", request: { params: { workspaceId: ws } }, response: { status: 200, body: W.exampleWorkspace } }],
  createHubWorkspace: [
    { name: "create", request: { body: { name: "Acme" } }, response: { status: 201, body: { ...W.exampleWorkspace, memberCount: 1 } } }
  ],
  listHubWorkspaceMembers: [
    { name: "members", request: { params: { workspaceId: ws } }, response: { status: 200, body: { items: [W.exampleMember] } } }
  ],
  addHubWorkspaceMember: [
    {
      name: "add",
      request: { params: { workspaceId: ws }, body: { email: "bob@example.com", role: "member" } },
      response: { status: 201, body: W.exampleMember }
    }
  ],
  updateHubWorkspaceMemberRole: [
    {
      name: "promote",
      request: { params: { workspaceId: ws, userId: W.exampleMember.userId }, body: { role: "admin" } },
      response: { status: 200, body: { ...W.exampleMember, role: "admin" } }
    }
  ],
  removeHubWorkspaceMember: [
    { name: "remove", request: { params: { workspaceId: ws, userId: W.exampleMember.userId } }, response: { status: 204 } }
  ],
  transferHubWorkspaceOwnership: [
    {
      name: "transfer",
      request: { params: { workspaceId: ws }, body: { userId: W.exampleMember.userId } },
      response: { status: 200, body: { ...W.exampleWorkspace, ownerId: W.exampleMember.userId, role: "admin" } }
    }
  ]
})
