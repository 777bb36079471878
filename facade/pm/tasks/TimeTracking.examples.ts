/** Request and response examples of the operations in TimeTracking.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { ws, tk } from "./shared.ts"
import { exampleTimeEntry } from "../WorkExamples.ts"
import { exampleIds as ids } from "../WorkAccess.ts"

export const timeTrackingExamples = examplesById({
  listTaskTimeEntries: [{ name: "entries", request: { params: tk }, response: { status: 200, body: { items: [exampleTimeEntry] } } }],
  createTaskTimeEntry: [
    {
      name: "log",
      request: { params: tk, body: { startedAt: "2026-11-21T09:00:00.000Z", durationMinutes: 90, note: "Pairing" } },
      response: { status: 201, body: exampleTimeEntry }
    }
  ],
  updateTaskTimeEntry: [
    {
      name: "note",
      request: { params: { ...tk, entryId: ids.entry }, body: { note: "Review" } },
      response: { status: 200, body: { ...exampleTimeEntry, note: "Review" } }
    }
  ],
  deleteTaskTimeEntry: [{ name: "delete", request: { params: { ...tk, entryId: ids.entry } }, response: { status: 204 } }],
  startTaskTimer: [
    {
      name: "start",
      request: { params: tk, body: {} },
      response: { status: 201, body: { ...exampleTimeEntry, endedAt: null, durationMinutes: null } }
    }
  ],
  stopTaskTimer: [{ name: "stop", request: { params: tk }, response: { status: 200, body: exampleTimeEntry } }],
  getTaskTimeSummary: [
    {
      name: "summary",
      request: { params: tk },
      response: {
        status: 200,
        body: {
          estimateMinutes: 240,
          trackedMinutes: 90,
          remainingMinutes: 150,
          running: false,
          byUser: [{ userId: ids.user, minutes: 90 }]
        }
      }
    }
  ],
  getRunningTimer: [
    {
      name: "running",
      request: { params: ws },
      response: { status: 200, body: { entry: { ...exampleTimeEntry, endedAt: null, durationMinutes: null } } }
    }
  ],
  listWorkspaceTimeEntries: [
    {
      name: "week",
      request: { params: ws, query: { from: "2026-11-16", to: "2026-11-23" } },
      response: { status: 200, body: { items: [exampleTimeEntry], totalMinutes: 90 } }
    }
  ]
})
