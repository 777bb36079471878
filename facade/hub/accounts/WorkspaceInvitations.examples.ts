/** Request and response examples of the operations in WorkspaceInvitations.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleWorkspace } from "../../shared/WorkspaceAccess.ts"

const at = "2026-11-21T12:00:00.000Z"

const exampleInvitation = {
  id: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
  workspaceId: exampleWorkspace.id,
  email: "carol@example.com",
  role: "member",
  status: "pending",
  invitedBy: { id: exampleWorkspace.ownerId, name: "Alice" },
  sendCount: 1,
  createdAt: at,
  expiresAt: "2026-11-28T12:00:00.000Z",
  lastSentAt: at,
  respondedAt: null
}

const exampleToken = `hinv_${exampleWorkspace.id}.Qm3kX9b2fA7cD4eF6gH8iJ0kL2mN4oP6qR8sT0uV1w`

export const tagExamples = examplesById({
  createHubWorkspaceInvitation: [
    {
      name: "invite",
      request: { params: { workspaceId: exampleWorkspace.id }, body: { email: "carol@example.com", role: "member", expiresInDays: 7 } },
      response: { status: 201, body: exampleInvitation }
    }
  ],
  listHubWorkspaceInvitations: [
    {
      name: "pending",
      request: { params: { workspaceId: exampleWorkspace.id }, query: { status: "pending" } },
      response: { status: 200, body: { items: [exampleInvitation] } }
    }
  ],
  getHubWorkspaceInvitation: [
    {
      name: "get",
      request: { params: { workspaceId: exampleWorkspace.id, invitationId: exampleInvitation.id } },
      response: { status: 200, body: exampleInvitation }
    }
  ],
  updateHubWorkspaceInvitation: [
    {
      name: "make-viewer",
      request: { params: { workspaceId: exampleWorkspace.id, invitationId: exampleInvitation.id }, body: { role: "viewer" } },
      response: { status: 200, body: { ...exampleInvitation, role: "viewer" } }
    }
  ],
  revokeHubWorkspaceInvitation: [
    {
      name: "revoke",
      request: { params: { workspaceId: exampleWorkspace.id, invitationId: exampleInvitation.id } },
      response: { status: 200, body: { ...exampleInvitation, status: "revoked", respondedAt: at } }
    }
  ],
  resendHubWorkspaceInvitation: [
    {
      name: "resend",
      request: { params: { workspaceId: exampleWorkspace.id, invitationId: exampleInvitation.id }, body: {} },
      response: { status: 200, body: { ...exampleInvitation, sendCount: 2 } }
    }
  ],
  acceptHubWorkspaceInvitation: [
    {
      name: "accept",
      request: { body: { token: exampleToken } },
      response: { status: 200, body: { workspaceId: exampleWorkspace.id, workspaceName: "Acme", role: "member", joinedAt: at } }
    }
  ]
})
export const workspaceInvitationPublicResourceV1Examples = examplesById({
  getPublicHubInvitation: [
    {
      name: "show",
      request: { params: { token: exampleToken } },
      response: { status: 200, body: { workspaceName: "Acme", inviterName: "Alice" } }
    }
  ]
})
