/** Request and response examples of the operations in Members.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, permissionsOf, ws, bob, exampleDetail, alice } from "./shared.ts"
import { defaults } from "../../../actors/pm/WorkspaceConfig.ts"
import { at0, exampleIds as ids } from "../WorkAccess.ts"
import * as W from "../../shared/WorkspaceAccess.ts"

export const membersExamples = examplesById({
  listWorkspaceMembers: [{ name: "members", request: { params: wsp }, response: { status: 200, body: { items: [W.exampleMember] } } }],
  addWorkspaceMember: [
    {
      name: "add",
      request: { params: wsp, body: { email: "bob@example.com", role: "member" } },
      response: { status: 201, body: W.exampleMember }
    }
  ],
  getMyWorkspaceMembership: [{ name: "me", request: { params: wsp }, response: { status: 200, body: exampleDetail } }],
  searchWorkspaceMembers: [
    {
      name: "bob",
      request: { params: wsp, query: { q: "bob" } },
      response: { status: 200, body: { items: [exampleDetail], total: 1, offset: 0, limit: 50 } }
    }
  ],
  exportWorkspaceMembers: [
    {
      name: "csv",
      request: { params: wsp },
      response: {
        status: 200,
        body: "email,name,role,guest,guestExpiresAt,addedAt\r\nbob@example.com,Bob,member,false,,2026-11-21T12:05:00.000Z\r\n"
      }
    }
  ],
  bulkAddWorkspaceMembers: [
    {
      name: "bulk",
      request: {
        params: wsp,
        body: {
          members: [
            { email: "bob@example.com", role: "member" },
            { email: "ghost@example.com", role: "viewer" }
          ]
        }
      },
      response: {
        status: 200,
        body: {
          items: [
            { ref: "bob@example.com", ok: true, member: exampleDetail },
            {
              ref: "ghost@example.com",
              ok: false,
              error: { code: "not_found", message: "No user has that e-mail; they must register first" }
            }
          ]
        }
      }
    }
  ],
  bulkRemoveWorkspaceMembers: [
    {
      name: "bulk",
      request: { params: wsp, body: { userIds: [bob.userId] } },
      response: { status: 200, body: { items: [{ ref: bob.userId, ok: true }] } }
    }
  ],
  listDeactivatedWorkspaceMembers: [
    {
      name: "deactivated",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [{ userId: bob.userId, email: bob.email, name: "Bob", role: "member", deactivatedBy: alice.userId, deactivatedAt: at0 }]
        }
      }
    }
  ],
  getWorkspaceMember: [
    { name: "member", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: exampleDetail } }
  ],
  updateWorkspaceMemberRole: [
    {
      name: "promote",
      request: { params: { workspaceId: ws, userId: bob.userId }, body: { role: "admin" } },
      response: { status: 200, body: { ...exampleDetail, role: "admin" } }
    }
  ],
  removeWorkspaceMember: [{ name: "remove", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 204 } }],
  getWorkspaceMemberSummary: [
    {
      name: "summary",
      request: { params: { workspaceId: ws, userId: bob.userId } },
      response: {
        status: 200,
        body: {
          member: exampleDetail,
          assigned: { open: 4, done: 12, overdue: 1 },
          created: 9,
          comments: 23,
          trackedMinutes: 640,
          lastActiveAt: at0,
          changesLast30Days: 57
        }
      }
    }
  ],
  listWorkspaceMemberSpaces: [
    {
      name: "spaces",
      request: { params: { workspaceId: ws, userId: bob.userId } },
      response: {
        status: 200,
        body: { items: [{ id: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false, access: "public" }] }
      }
    }
  ],
  deactivateWorkspaceMember: [
    {
      name: "deactivate",
      request: { params: { workspaceId: ws, userId: bob.userId } },
      response: {
        status: 200,
        body: { userId: bob.userId, email: bob.email, name: "Bob", role: "member", deactivatedBy: alice.userId, deactivatedAt: at0 }
      }
    }
  ],
  reactivateWorkspaceMember: [
    { name: "reactivate", request: { params: { workspaceId: ws, userId: bob.userId } }, response: { status: 200, body: exampleDetail } }
  ],
  getWorkspacePermissions: [
    {
      name: "member",
      request: { params: wsp },
      response: {
        status: 200,
        body: permissionsOf("member", false, { ...defaults, logo: null, seatLimit: null, updatedBy: null, updatedAt: null })
      }
    }
  ]
})
