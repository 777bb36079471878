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
import { tagGroup } from "../Operation.ts"

import { inWorkspace, orDieSql } from "./WorkAccess.ts"
import { workspaceDashboardResourceExamples } from "./WorkspaceDashboardResource.examples.ts"

const { operation } = tagGroup("pm", "Workspace Dashboard Resource", workspaceDashboardResourceExamples)

export const workspaceDashboardResourceOperations = [
  operation({
    operationId: "getWorkspaceOverview",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/overview",
    summary: "The workspace's overview dashboard: totals, status types, spaces, the last 7 days, my work, active sprints, most voted tasks",
    auth: "both",
    scopes: ["tasks:read"],
    params: Schema.Struct({ workspaceId: Id }),
    responses: { 200: { description: "The overview", schema: WorkspaceOverview } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const dashboards = yield* orDieSql(listDashboards(params.workspaceId, caller.viewer))
        return yield* orDieSql(workspaceOverview(params.workspaceId, caller.viewer, dashboards.length))
      })
  })
]
