/** pm operations of sprints, views, saved filters and dashboards (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const pmPlanningOperations: ReadonlyArray<AnyOperation> = []
