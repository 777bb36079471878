/** Request and response examples of the operations in AdminInsights.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { at, ids } from "./Shared.ts"

export const adminStatsExamples = examplesById({
  getPlatformStats: [
    {
      name: "last-30-days",
      request: { query: { windowDays: "30" } },
      response: {
        status: 200,
        body: {
          windowDays: 30,
          users: { total: 120, deactivated: 2, newInWindow: 14 },
          workspaces: { total: 31, suspended: 1, deleted: 3, newInWindow: 4 },
          memberships: 260,
          liveSessions: 75,
          activeApiKeys: 12,
          requestsLastHour: { total: 5400, clientErrors: 61, serverErrors: 0 }
        }
      }
    }
  ],
  getPlatformGrowth: [
    {
      name: "week",
      request: { query: { days: "2" } },
      response: {
        status: 200,
        body: {
          from: "2026-11-20",
          days: [
            { day: "2026-11-20", users: 3, workspaces: 1 },
            { day: "2026-11-21", users: 5, workspaces: 0 }
          ]
        }
      }
    }
  ]
})
export const adminActivityExamples = examplesById({
  listPlatformActivity: [
    {
      name: "suspensions",
      request: { query: { action: "workspace.suspended" } },
      response: {
        status: 200,
        body: {
          items: [
            {
              id: "41",
              at,
              actor: `user:${ids.owner}`,
              action: "workspace.suspended",
              targetType: "workspace",
              targetId: ids.workspace,
              workspaceId: ids.workspace,
              data: { reason: "Unpaid invoices" }
            }
          ],
          nextBefore: null
        }
      }
    }
  ]
})
