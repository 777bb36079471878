/** Request and response examples of the operations in Invitations.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleIds as ids, at0 } from "../WorkAccess.ts"
import { ws, alice, later, exampleJoined, wsp } from "./shared.ts"

const exampleInvitation = {
  id: ids.entry,
  workspaceId: ws,
  email: "carol@example.com",
  role: "member",
  guest: false,
  guestExpiresAt: null,
  message: "Join us!",
  status: "pending",
  invitedBy: { id: alice.userId, name: "Alice" },
  createdAt: at0,
  expiresAt: later,
  resendCount: 0,
  lastSentAt: at0,
  respondedAt: null
}

const exampleInviteToken = "pminv_c2hvd24gb25jZSwga2VlcCBpdCBzZWNyZXQgcGxlYXN"

export const invitationsExamples = examplesById({
  createWorkspaceInvitation: [
    {
      name: "invite",
      request: { params: wsp, body: { email: "carol@example.com", role: "member", message: "Join us!" } },
      response: { status: 201, body: { invitation: exampleInvitation, token: exampleInviteToken } }
    }
  ],
  bulkCreateWorkspaceInvitations: [
    {
      name: "bulk",
      request: { params: wsp, body: { invitations: [{ email: "carol@example.com", role: "member" }] } },
      response: {
        status: 200,
        body: { items: [{ email: "carol@example.com", invitation: exampleInvitation, token: exampleInviteToken }] }
      }
    }
  ],
  listWorkspaceInvitations: [
    {
      name: "pending",
      request: { params: wsp, query: { status: "pending" } },
      response: { status: 200, body: { items: [exampleInvitation] } }
    }
  ],
  getWorkspaceInvitation: [
    { name: "get", request: { params: { workspaceId: ws, invitationId: ids.entry } }, response: { status: 200, body: exampleInvitation } }
  ],
  updateWorkspaceInvitation: [
    {
      name: "viewer",
      request: { params: { workspaceId: ws, invitationId: ids.entry }, body: { role: "viewer" } },
      response: { status: 200, body: { ...exampleInvitation, role: "viewer" } }
    }
  ],
  revokeWorkspaceInvitation: [
    {
      name: "revoke",
      request: { params: { workspaceId: ws, invitationId: ids.entry } },
      response: { status: 200, body: { ...exampleInvitation, status: "revoked", respondedAt: at0 } }
    }
  ],
  resendWorkspaceInvitation: [
    {
      name: "resend",
      request: { params: { workspaceId: ws, invitationId: ids.entry } },
      response: { status: 200, body: { invitation: { ...exampleInvitation, resendCount: 1 }, token: exampleInviteToken } }
    }
  ],
  listMyWorkspaceInvitations: [
    { name: "mine", response: { status: 200, body: { items: [{ ...exampleInvitation, workspaceName: "Acme" }] } } }
  ],
  previewWorkspaceInvitation: [
    {
      name: "preview",
      request: { query: { token: exampleInviteToken } },
      response: {
        status: 200,
        body: {
          workspaceName: "Acme",
          invitedBy: "Alice",
          emailHint: "c****@example.com",
          role: "member",
          guest: false,
          status: "pending",
          expiresAt: later
        }
      }
    }
  ],
  acceptWorkspaceInvitation: [
    { name: "accept", request: { body: { token: exampleInviteToken } }, response: { status: 200, body: exampleJoined } }
  ],
  acceptWorkspaceInvitationById: [
    { name: "accept", request: { params: { invitationId: ids.entry } }, response: { status: 200, body: exampleJoined } }
  ],
  declineWorkspaceInvitation: [
    {
      name: "decline",
      request: { params: { invitationId: ids.entry } },
      response: { status: 200, body: { ...exampleInvitation, status: "declined", respondedAt: at0 } }
    }
  ]
})
