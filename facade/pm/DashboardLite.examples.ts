/** Request and response examples of the operations in DashboardLite.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../Operation.ts"
import { exampleIds as ids } from "./WorkAccess.ts"

export const dashboardLiteExamples = examplesById({
  getDashboardLite: [
    {
      name: "space overview",
      request: { query: { workspaceId: ids.workspace, space: "Engineering" } },
      response: {
        status: 200,
        body: {
          dashboard: null,
          scope: "space Engineering",
          sprint: null,
          generatedAt: "2026-11-21T12:00:00.000Z",
          widgets: [
            {
              title: "By status",
              type: "task_count",
              data: {
                groupBy: "status",
                total: 3,
                items: [{ key: "to do", label: "to do", count: 3, unfinished: 3, estimateMinutes: 0 }]
              },
              error: null
            }
          ]
        }
      }
    }
  ]
})
