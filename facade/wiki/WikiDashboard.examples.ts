/** Request and response examples of the operations in WikiDashboard.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { examplePageRef, ex } from "../../actors/wiki/DiscoveryViews.ts"

const scopeQuery = { workspaceId: ex.workspaceId }

const exampleRange = { from: "2026-10-22T12:00:00.000Z", to: ex.at, interval: "day" }

export const wikiDashboardExamples = examplesById({
  getWikiDashboard: [
    {
      name: "last-30-days",
      request: { query: scopeQuery },
      response: {
        status: 200,
        body: {
          range: exampleRange,
          spaces: 3,
          pages: 42,
          pagesCreated: 5,
          pagesUpdated: 17,
          views: 310,
          publicViews: 40,
          uniqueViewers: 12,
          edits: 96,
          activeEditors: 6
        }
      }
    }
  ],
  getWikiViewStats: [
    {
      name: "weekly",
      request: { query: { ...scopeQuery, interval: "week" } },
      response: {
        status: 200,
        body: { range: { ...exampleRange, interval: "week" }, points: [{ date: "2026-11-16", views: 84, viewers: 9 }] }
      }
    }
  ],
  getWikiEditStats: [
    {
      name: "daily",
      request: { query: scopeQuery },
      response: { status: 200, body: { range: exampleRange, points: [{ date: "2026-11-21", edits: 14, editors: 3, pagesEdited: 5 }] } }
    }
  ],
  listWikiActiveEditors: [
    {
      name: "editors",
      request: { query: scopeQuery },
      response: {
        status: 200,
        body: { range: exampleRange, items: [{ userId: ex.userId, name: "Alice", edits: 40, pagesEdited: 7, lastEditAt: ex.at }] }
      }
    }
  ],
  listWikiTopPages: [
    {
      name: "most-viewed",
      request: { query: { ...scopeQuery, metric: "views" } },
      response: {
        status: 200,
        body: { range: exampleRange, metric: "views", items: [{ ...examplePageRef, views: 120, viewers: 14, edits: 3 }] }
      }
    }
  ],
  getWikiSpaceStats: [
    {
      name: "spaces",
      request: { query: scopeQuery },
      response: {
        status: 200,
        body: {
          range: exampleRange,
          items: [
            {
              spaceId: ex.spaceId,
              key: "ENG",
              name: "Engineering",
              icon: "🛠️",
              pages: 30,
              pagesCreated: 4,
              views: 250,
              edits: 80,
              lastUpdatedAt: ex.at
            }
          ]
        }
      }
    }
  ],
  getWikiContentGrowth: [
    {
      name: "monthly",
      request: { query: { ...scopeQuery, interval: "month", from: "2026-01-01" } },
      response: {
        status: 200,
        body: {
          range: { from: "2026-01-01T00:00:00.000Z", to: ex.at, interval: "month" },
          points: [{ date: "2026-11-01", created: 5, total: 42 }]
        }
      }
    }
  ],
  listWikiStalePages: [
    {
      name: "stale",
      request: { query: { ...scopeQuery, olderThanDays: "180" } },
      response: {
        status: 200,
        body: {
          olderThanDays: 180,
          items: [
            {
              ...examplePageRef,
              updatedAt: "2026-01-05T09:00:00.000Z",
              updatedBy: { userId: ex.userId, name: "Alice" },
              daysSinceUpdate: 320
            }
          ]
        }
      }
    }
  ]
})
