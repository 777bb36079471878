/**
 * hub tag "Calendar" (5): the caller's own calendar — events with recurrence,
 * occurrences, and the caller's series and occurrence prompts — proxied to the
 * calendar-events service (`hubCalendar` actors). Actor-scoped: only the
 * calendar of the user behind the credentials; anything else is 404.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Calendar } from "../../../actors/hub/calendar/Calendar.ts"
import { Instant } from "../../../actors/hub/calendar/CalendarEvent.ts"
import { occurrenceFor, occurrencesIn, syncInvites } from "../../../actors/hub/calendar/Calendars.ts"
import { HubUserSettings, TimeZone } from "../../../actors/hub/people/HubUserSettings.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import {
  AttendeeEmails,
  CalendarEventView,
  checkedFields,
  Description,
  eventView,
  exampleOccurrence,
  exampleOccurrenceId,
  Location,
  Occurrence,
  OccurrenceParams,
  PromptBody,
  Recurrence,
  service,
  Title,
  WindowQuery,
  windowOf
} from "./CalendarShapes.ts"
import { viewerOf } from "./Viewer.ts"
import { calendarExamples } from "./Calendar.examples.ts"

const tag = "Calendar"

const { operation } = tagGroup(service, tag, calendarExamples)

const setPrompt = (
  which: "setSeriesPrompt" | "setOccurrencePrompt",
  occurrenceId: string,
  prompt: string | null,
  context: RequestContext
) =>
  Effect.gen(function* () {
    const viewer = yield* viewerOf(context)
    // The occurrence must be one the caller sees (404 otherwise) before the prompt is kept, under its canonical id.
    const occurrence = yield* occurrenceFor(viewer, occurrenceId)
    yield* (yield* ActorSystem).ask(Calendar, viewer.userId, which, { occurrenceId: occurrence.occurrenceId, prompt })
    return yield* occurrenceFor(viewer, occurrence.occurrenceId)
  })

const promptOperation = (which: "setSeriesPrompt" | "setOccurrencePrompt") =>
  operation({
    operationId: which,
    method: "PUT",
    path: `/v1/calendar/events/{occurrenceId}/${which === "setSeriesPrompt" ? "series-prompt" : "occurrence-prompt"}`,
    summary:
      which === "setSeriesPrompt"
        ? "Set (or clear with null) your prompt for every occurrence of this event's series"
        : "Set (or clear with null) your prompt for this one occurrence",
    description:
      "Prompts are personal. When both a series and an occurrence prompt are set, the meeting receives " +
      '"series custom prompt: <S>" followed by "occurrence custom prompt: <O>"; one alone is used as it stands.',
    auth: "both",
    scopes: ["recordings:write"],
    params: OccurrenceParams,
    body: PromptBody,
    responses: { 200: { description: "The occurrence with your prompts", schema: Occurrence } },
    examples: [
      {
        name: which === "setSeriesPrompt" ? "series-prompt" : "occurrence-prompt",
        request: {
          params: { occurrenceId: exampleOccurrenceId },
          body: { prompt: which === "setSeriesPrompt" ? exampleOccurrence.seriesPrompt : exampleOccurrence.occurrencePrompt }
        },
        response: { status: 200, body: exampleOccurrence }
      }
    ],
    handler: ({ params, body }, context) => setPrompt(which, params.occurrenceId, body.prompt, context)
  })

export const calendarOperations = [
  operation({
    operationId: "createCalendarEvent",
    method: "POST",
    path: "/v1/calendar/events",
    summary: "Create an event in your calendar, optionally recurring (RRULE) and with attendees",
    description:
      "Registered users among the attendees see the event in their own calendar and can set their own prompts for it. " +
      "Times are instants with an offset; a recurring event repeats the start's wall-clock time in `timeZone` " +
      "(an IANA zone; default: your hub settings' time zone), so 9:00 stays 9:00 across daylight-saving changes.",
    auth: "both",
    scopes: ["calendar:write"],
    body: Schema.Struct({
      title: Title,
      start: Instant,
      end: Instant,
      recurrence: Schema.optionalKey(Schema.NullOr(Recurrence)),
      timeZone: Schema.optionalKey(TimeZone),
      attendeeEmails: Schema.optionalKey(AttendeeEmails),
      description: Schema.optionalKey(Description),
      location: Schema.optionalKey(Schema.NullOr(Location))
    }),
    responses: { 201: { description: "The event", schema: CalendarEventView } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const system = yield* ActorSystem
        const settings = yield* HubUserSettings.client(system)(viewer.userId).view({})
        const fields = yield* checkedFields(body, settings.general.timezone)
        const event = yield* system.ask(Calendar, viewer.userId, "create", { id: randomUUID(), ...fields })
        yield* syncInvites(viewer.userId, event.id, [], event.attendeeEmails)
        return eventView(event)
      })
  }),
  operation({
    operationId: "listCalendarEvents",
    method: "GET",
    path: "/v1/calendar/events",
    summary: "Your calendar's occurrences in a window, recurring events expanded, each with its occurrenceId",
    description: "`from` defaults to now and `to` to 30 days after `from`; a window spans at most 366 days.",
    auth: "both",
    scopes: ["calendar:read"],
    query: WindowQuery,
    responses: { 200: { description: "Occurrences by start", schema: Schema.Struct({ items: Schema.Array(Occurrence) }) } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        const { from, to } = yield* windowOf(query)
        return { items: yield* occurrencesIn(viewer, from, to) }
      })
  }),
  operation({
    operationId: "getCalendarEvent",
    method: "GET",
    path: "/v1/calendar/events/{occurrenceId}",
    summary: "One occurrence with your series prompt, occurrence prompt and the effective prompt the meeting receives",
    auth: "both",
    scopes: ["calendar:read"],
    params: OccurrenceParams,
    responses: { 200: { description: "The occurrence", schema: Occurrence } },
    handler: ({ params }, context) => Effect.flatMap(viewerOf(context), (viewer) => occurrenceFor(viewer, params.occurrenceId))
  }),
  promptOperation("setSeriesPrompt"),
  promptOperation("setOccurrencePrompt")
]
