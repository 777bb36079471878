/** Request and response examples of the operations in WorkspaceDashboardResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids, at0 } from "./WorkAccess.ts"
import { exampleSprint } from "./Sprints.ts"

export const workspaceDashboardResourceExamples = examplesById({
  getWorkspaceOverview: [
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
  ]
})
