/** Request and response examples of the operations in CalendarResource.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleOccurrenceId, exampleEvent, exampleEventId } from "./CalendarShapes.ts"

export const calendarResourceExamples = examplesById({
  updateCalendarEvent: [
    {
      name: "retitle",
      request: { params: { eventId: exampleEventId }, body: { title: "Weekly product & design sync" } },
      response: { status: 200, body: { ...exampleEvent, title: "Weekly product & design sync" } }
    }
  ],
  deleteCalendarEvent: [{ name: "delete", request: { params: { eventId: exampleEventId } }, response: { status: 204 } }],
  cancelCalendarOccurrence: [
    {
      name: "cancel",
      request: { params: { occurrenceId: exampleOccurrenceId } },
      response: { status: 200, body: { ...exampleEvent, cancelledOccurrences: ["2026-12-08T15:00:00.000Z"] } }
    }
  ]
})
