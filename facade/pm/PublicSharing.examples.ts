/** Request and response examples of the operations in PublicSharing.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { at0, exampleIds as ids } from "./WorkAccess.ts"

const exampleToken = "pmsh_Q2hvb3NlIGEgbG9uZyByYW5kb20gdG9rZW4gaGVyZSB"

const exampleLink = {
  id: ids.entry,
  workspaceId: ids.workspace,
  taskId: ids.task,
  taskShortId: "T-42",
  taskName: "Ship the login page",
  tokenPrefix: "pmsh_Q2hvb3",
  includeSubtasks: true,
  includeComments: false,
  status: "active",
  createdBy: { id: ids.user, name: "Alice" },
  createdAt: at0,
  expiresAt: "2026-12-21T12:00:00.000Z",
  revokedAt: null,
  viewCount: 3,
  lastViewedAt: at0
}

export const publicSharingExamples = examplesById({
  createTaskShareLink: [
    {
      name: "share",
      request: { params: { taskId: ids.task }, body: { expiresAt: "2026-12-21T12:00:00.000Z", includeSubtasks: true } },
      response: {
        status: 201,
        body: { link: exampleLink, token: exampleToken, url: `https://atrium.example.com/pm/v1/public/shared-tasks/${exampleToken}` }
      }
    }
  ],
  listTaskShareLinks: [
    { name: "links", request: { params: { taskId: ids.task } }, response: { status: 200, body: { items: [exampleLink] } } }
  ],
  listWorkspaceShareLinks: [
    {
      name: "active",
      request: { params: { workspaceId: ids.workspace }, query: { status: "active" } },
      response: { status: 200, body: { items: [exampleLink], total: 1, offset: 0, limit: 50 } }
    }
  ],
  updateShareLink: [
    {
      name: "extend",
      request: { params: { linkId: ids.entry }, body: { expiresAt: null, includeComments: true } },
      response: { status: 200, body: { ...exampleLink, expiresAt: null, includeComments: true } }
    }
  ],
  revokeShareLink: [
    {
      name: "revoke",
      request: { params: { linkId: ids.entry } },
      response: { status: 200, body: { ...exampleLink, status: "revoked", revokedAt: at0 } }
    }
  ],
  getSharedTask: [
    {
      name: "read",
      request: { params: { shareToken: exampleToken } },
      response: {
        status: 200,
        body: {
          workspace: { name: "Acme" },
          task: {
            shortId: "T-42",
            name: "Ship the login page",
            description: "Ask @Bob about the copy.",
            status: { name: "in progress", type: "active", color: "#5f55ee" },
            priority: "high",
            startDate: null,
            dueDate: "2026-12-01T17:00:00.000Z",
            closedAt: null,
            list: "Backlog",
            tags: ["frontend"],
            assignees: [{ name: "Bob" }],
            customFields: { "Story points": 5 },
            createdAt: at0,
            updatedAt: at0
          },
          subtasks: [{ shortId: "T-43", name: "Write the copy", status: { name: "to do", type: "open", color: "#87909e" }, dueDate: null }],
          link: { expiresAt: "2026-12-21T12:00:00.000Z" }
        }
      }
    }
  ]
})
