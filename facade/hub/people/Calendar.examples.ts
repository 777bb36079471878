/** Request and response examples of the operations in Calendar.ts, by operationId: the catalog and the OpenAPI documents show them. */
import { examplesById } from "../../Operation.ts"
import { exampleOccurrenceId, exampleOccurrence, exampleEvent } from "./CalendarShapes.ts"

export const calendarExamples = examplesById({
  createCalendarEvent: [
    {
      name: "weekly",
      request: {
        body: {
          title: exampleEvent.title,
          start: exampleEvent.start,
          end: exampleEvent.end,
          recurrence: exampleEvent.recurrence,
          attendeeEmails: exampleEvent.attendeeEmails,
          description: exampleEvent.description
        }
      },
      response: { status: 201, body: exampleEvent }
    }
  ],
  listCalendarEvents: [
    {
      name: "december",
      request: { query: { from: "2026-12-01T00:00:00Z", to: "2027-01-01T00:00:00Z" } },
      response: { status: 200, body: { items: [exampleOccurrence] } }
    }
  ],
  getCalendarEvent: [
    { name: "get", request: { params: { occurrenceId: exampleOccurrenceId } }, response: { status: 200, body: exampleOccurrence } }
  ]
})
