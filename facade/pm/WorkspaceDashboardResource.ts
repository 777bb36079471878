/**
 * pm tag "Workspace Dashboard Resource" (1): the workspace's overview
 * dashboard — totals, status types, spaces, the last week's throughput, the
 * caller's own work, running sprints and the most wanted tasks — computed
 * from the live rows over what the caller may see.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { workspaceOverview, WorkspaceOverview } from "../../actors/pm/DashboardData.ts"
import { listDashboards } from "../../actors/pm/Dashboards.ts"
import { operation } from "../Operation.ts"
import { exampleSprint } from "./Sprints.ts"
import { at0, exampleIds as ids, inWorkspace, orDieSql } from "./WorkAccess.ts"

export const workspaceDashboardResourceOperations = [
  operation({
    service: "pm",
    tag: "Workspace Dashboard Resource",
    operationId: "getWorkspaceOverview",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/overview",
    summary: "The workspace's overview dashboard: totals, status types, spaces, the last 7 days, my work, active sprints, most voted tasks",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "The overview", schema: WorkspaceOverview } },
    examples: [
      {
        name: "overview",
        request: { params: { workspaceId: ids.workspace } },
        response: {
          status: 200,
          body: {
            workspaceId: ids.workspace,
            generatedAt: at0,
            totals: { tasks: 42, unfinished: 30, finished: 12, overdue: 3, dueToday: 2, dueThisWeek: 7, unassigned: 5 },
            byStatusType: { open: 18, active: 12, done: 8, closed: 4 },
            spaces: [{ spaceId: ids.space, name: "Engineering", tasks: 42, unfinished: 30, overdue: 3 }],
            lastSevenDays: { created: 9, closed: 6 },
            myWork: { assigned: 6, overdue: 1, dueThisWeek: 2 },
            activeSprints: [exampleSprint],
            mostVoted: [{ taskId: ids.task, shortId: "T-42", name: "Ship the login page", votes: 3 }],
            dashboards: 2
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const dashboards = yield* orDieSql(listDashboards(params.workspaceId, caller.viewer))
        return yield* orDieSql(workspaceOverview(params.workspaceId, caller.viewer, dashboards.length))
      })
  })
]
