/** pm operations of live updates, activity, notifications, users, teams, reference data and dashboards (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const pmLiveOperations: ReadonlyArray<AnyOperation> = []
