/** Request and response examples of the operations in Stats.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { wsp, bob, exampleCounts } from "./shared.ts"
import { exampleIds as ids } from "../WorkAccess.ts"

export const statsExamples = examplesById({
  getWorkspaceStats: [
    {
      name: "stats",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          spaces: 2,
          folders: 3,
          lists: 7,
          tasks: exampleCounts,
          unassigned: 2,
          thisWeek: { from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z", due: 3, completed: 4, created: 6 },
          members: { owner: 1, admin: 1, member: 4, viewer: 2, guests: 1 },
          timeZone: "UTC"
        }
      }
    }
  ],
  getWorkspaceSpaceStats: [
    {
      name: "spaces",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [{ spaceId: ids.space, shortId: "S-1", name: "Engineering", isPrivate: false, folders: 1, lists: 3, tasks: exampleCounts }]
        }
      }
    }
  ],
  getWorkspaceWorkload: [
    {
      name: "workload",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          items: [{ userId: bob.userId, name: "Bob", email: bob.email, openTasks: 5, overdueTasks: 1, dueSoon: 2, estimateMinutes: 480 }],
          unassigned: 2,
          days: 7
        }
      }
    }
  ],
  getWorkspaceThroughput: [
    {
      name: "week",
      request: { params: wsp, query: { days: "2" } },
      response: {
        status: 200,
        body: {
          timeZone: "UTC",
          from: "2026-11-20T00:00:00.000Z",
          days: [
            { date: "2026-11-20", created: 4, completed: 2 },
            { date: "2026-11-21", created: 1, completed: 3 }
          ]
        }
      }
    }
  ],
  getWorkspaceUsage: [
    {
      name: "usage",
      request: { params: wsp },
      response: {
        status: 200,
        body: {
          seats: { limit: 10, members: 3, guests: 1, pendingInvitations: 1, available: 6 },
          storage: { attachments: 4, attachmentBytes: 1048576, logoBytes: 20480, totalBytes: 1069056 },
          counts: { spaces: 2, folders: 3, lists: 7, tasks: 120, comments: 340, activeShareLinks: 2 }
        }
      }
    }
  ]
})
