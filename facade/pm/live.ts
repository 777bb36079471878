/** pm operations of live updates, activity, notifications, users, teams and reference data (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { activityLogOperations } from "./ActivityLog.ts"
import { notificationsOperations } from "./Notifications.ts"
import { referenceDataOperations } from "./ReferenceData.ts"
import { teamsOperations } from "./Teams.ts"
import { usersOperations } from "./Users.ts"
import { webSocketOperations } from "./WebSocket.ts"

export const pmLiveOperations: ReadonlyArray<AnyOperation> = [
  ...webSocketOperations,
  ...notificationsOperations,
  ...activityLogOperations,
  ...usersOperations,
  ...teamsOperations,
  ...referenceDataOperations
]
