/** Request and response examples of the operations in CalendarSync.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"

const exampleConnectionId = "5d0f1c7e-2b4a-4e8f-9c61-7a3e2d9b8f40"
const exampleStatus = {
  connectionId: exampleConnectionId,
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  name: "My Google calendar",
  protocol: "google",
  state: "synced",
  lastAttemptAt: "2026-11-21T12:00:00.000Z",
  lastSyncedAt: "2026-11-21T12:00:00.000Z",
  lastError: null,
  eventCount: 42,
  nextSyncAt: "2026-11-21T12:10:00.000Z"
}

export const calendarSyncExamples = examplesById({
  listCalendarSyncs: [{ name: "mine", request: {}, response: { status: 200, body: { items: [exampleStatus] } } }],
  syncCalendarNow: [
    {
      name: "now",
      request: { params: { connectionId: exampleConnectionId } },
      response: {
        status: 200,
        body: {
          outcome: { full: false, unchanged: false, added: 1, changed: 2, removed: 0, botsScheduled: 1, botsCancelled: 0 },
          status: exampleStatus
        }
      }
    }
  ]
})
