/**
 * hub tag "Calendar Resource" (3): the organizer's changes to an event of
 * their calendar — edit the series, delete it, cancel one occurrence.
 * Attendees see the event but only its organizer changes it (403); anyone
 * else gets 404.
 */
import { Effect, Schema } from "effect"
import { Calendar } from "../../../actors/hub/calendar/Calendar.ts"
import { Instant } from "../../../actors/hub/calendar/CalendarEvent.ts"
import { calendarOf, occurrenceFor, syncInvites } from "../../../actors/hub/calendar/Calendars.ts"
import { TimeZone } from "../../../actors/hub/people/HubUserSettings.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import {
  AttendeeEmails,
  CalendarEventView,
  checkedFields,
  Description,
  type EventInput,
  EventParams,
  eventView,
  Location,
  OccurrenceParams,
  Recurrence,
  service,
  Title
} from "./CalendarShapes.ts"
import { type Viewer, viewerOf } from "./Viewer.ts"
import { calendarResourceExamples } from "./CalendarResource.examples.ts"

/** The event as its organizer (the caller) stores it: 403 for an attendee, 404 for anyone else. */
const organizedEvent = (viewer: Viewer, eventId: string) =>
  Effect.gen(function* () {
    const { state, events } = yield* calendarOf(viewer, { eventIds: [eventId] })
    const event = state.events[eventId]
    if (event !== undefined) return event
    if (events.some((seen) => seen.id === eventId)) return yield* reject("forbidden", "Only the event's organizer can change it")
    return yield* reject("not_found", "No such calendar event")
  })

const update = (eventId: string, patch: Partial<EventInput>, context: RequestContext) =>
  Effect.gen(function* () {
    const viewer = yield* viewerOf(context)
    const current = yield* organizedEvent(viewer, eventId)
    const fields = yield* checkedFields({ ...current, ...patch }, current.timeZone)
    const { event, previous } = yield* (yield* ActorSystem).ask(Calendar, viewer.userId, "update", { id: eventId, ...fields })
    yield* syncInvites(viewer.userId, eventId, previous.attendeeEmails, event.attendeeEmails)
    return eventView(event)
  })

const { operation } = tagGroup(service, "Calendar Resource", calendarResourceExamples)

export const calendarResourceOperations = [
  operation({
    operationId: "updateCalendarEvent",
    method: "PATCH",
    path: "/v1/calendar/series/{eventId}",
    summary: "Change an event (the whole series) you organize",
    description:
      "Fields left out are unchanged; null clears the recurrence or location. A new start or rule renames the occurrences: " +
      "cancellations and occurrence prompts of the old ones are dropped, series prompts stay.",
    auth: "both",
    scopes: ["calendar:write"],
    params: EventParams,
    body: Schema.Struct({
      title: Schema.optionalKey(Title),
      start: Schema.optionalKey(Instant),
      end: Schema.optionalKey(Instant),
      recurrence: Schema.optionalKey(Schema.NullOr(Recurrence)),
      timeZone: Schema.optionalKey(TimeZone),
      attendeeEmails: Schema.optionalKey(AttendeeEmails),
      description: Schema.optionalKey(Description),
      location: Schema.optionalKey(Schema.NullOr(Location))
    }),
    responses: { 200: { description: "The event", schema: CalendarEventView } },
    handler: ({ params, body }, context) => update(params.eventId, body, context)
  }),
  operation({
    operationId: "deleteCalendarEvent",
    method: "DELETE",
    path: "/v1/calendar/series/{eventId}",
    summary: "Delete an event you organize, with all its occurrences (attendees lose it and their prompts for it)",
    auth: "both",
    scopes: ["calendar:write"],
    params: EventParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        yield* organizedEvent(viewer, params.eventId)
        const event = yield* (yield* ActorSystem).ask(Calendar, viewer.userId, "delete", { id: params.eventId })
        yield* syncInvites(viewer.userId, event.id, event.attendeeEmails, [])
      })
  }),
  operation({
    operationId: "cancelCalendarOccurrence",
    method: "DELETE",
    path: "/v1/calendar/events/{occurrenceId}",
    summary: "Cancel one occurrence of an event you organize (the rest of the series stays)",
    auth: "both",
    scopes: ["calendar:write"],
    params: OccurrenceParams,
    responses: { 200: { description: "The event with the occurrence cancelled", schema: CalendarEventView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const occurrence = yield* occurrenceFor(viewer, params.occurrenceId)
        yield* organizedEvent(viewer, occurrence.eventId)
        return eventView(
          yield* (yield* ActorSystem).ask(Calendar, viewer.userId, "cancelOccurrence", { occurrenceId: occurrence.occurrenceId })
        )
      })
  })
]
