/** pm operations of sprints, views, saved filters and dashboards (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { dashboardOperations } from "./Dashboard.ts"
import { dashboardLiteOperations } from "./DashboardLite.ts"
import { filtersOperations } from "./Filters.ts"
import { resourceViewsOperations } from "./ResourceViews.ts"
import { sprintGroupsOperations } from "./SprintGroups.ts"
import { sprintsOperations } from "./Sprints.ts"
import { viewsLiteOperations } from "./ViewsLite.ts"
import { workspaceDashboardResourceOperations } from "./WorkspaceDashboardResource.ts"

export const pmPlanningOperations: ReadonlyArray<AnyOperation> = [
  ...sprintsOperations,
  ...sprintGroupsOperations,
  ...resourceViewsOperations,
  ...filtersOperations,
  ...viewsLiteOperations,
  ...dashboardOperations,
  ...dashboardLiteOperations,
  ...workspaceDashboardResourceOperations
]
