/** Request and response examples of the operations in AdminUsers.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ids, at } from "./Shared.ts"

const exampleUser = { id: ids.owner, email: "alice@example.com", name: "Alice", createdAt: at }

const exampleDetail = {
  user: exampleUser,
  deactivatedAt: null,
  deactivatedReason: null,
  liveSessions: 2,
  workspaces: [{ id: ids.workspace, name: "Acme", role: "owner", owner: true }]
}

export const adminUsersExamples = examplesById({
  searchPlatformUsers: [
    {
      name: "by-domain",
      request: { query: { q: "example.com", status: "active" } },
      response: { status: 200, body: { items: [{ ...exampleUser, deactivatedAt: null }], limit: 50, offset: 0 } }
    }
  ],
  getPlatformUser: [{ name: "inspect", request: { params: { userId: ids.owner } }, response: { status: 200, body: exampleDetail } }],
  setPlatformUserStatus: [
    {
      name: "deactivate",
      request: { params: { userId: ids.member }, body: { active: false, reason: "Left the company" } },
      response: {
        status: 200,
        body: {
          ...exampleDetail,
          user: { ...exampleUser, id: ids.member, email: "bob@example.com", name: "Bob" },
          deactivatedAt: at,
          deactivatedReason: "Left the company",
          liveSessions: 0,
          sessionsEnded: 2
        }
      }
    }
  ],
  resetPlatformUserPassword: [
    {
      name: "temporary-password",
      request: { params: { userId: ids.member }, body: {} },
      response: { status: 200, body: { changedAt: at, temporaryPassword: "tmp-4Qx9…", sessionsEnded: 1 } }
    }
  ]
})
