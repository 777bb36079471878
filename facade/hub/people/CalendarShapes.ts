/** Request and reply shapes shared by the calendar operations, their examples, and input checks the schemas cannot express. */
import { Effect, Schema } from "effect"
import type { EventFields } from "../../../actors/hub/calendar/Calendar.ts"
import { Instant, Occurrence, OccurrenceId, OccurrenceRef, Prompt, type StoredEvent } from "../../../actors/hub/calendar/CalendarEvent.ts"
import { isProblem, parseRule } from "../../../actors/hub/calendar/Recurrence.ts"
import { Email, Id, Name, normalizeEmail, Timestamp } from "../../../actors/Fields.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { occurrenceIdOf } from "../../../actors/hub/calendar/CalendarEvent.ts"

export const service = "hub"
/** The longest a single occurrence may last. */
const MAX_DURATION_MS = 7 * 86_400_000
export const MAX_WINDOW_DAYS = 366

export const Title = Name(300)
export const Description = Schema.String.check(Schema.isMaxLength(5000))
export const Location = Schema.String.check(Schema.isMaxLength(500))
export const Recurrence = Schema.String.check(Schema.isMaxLength(500)).annotate({
  description: "An RFC 5545 RRULE: FREQ=DAILY|WEEKLY|MONTHLY with INTERVAL, COUNT, UNTIL and BYDAY (e.g. 1MO, -1FR when monthly)",
  examples: ["FREQ=WEEKLY;BYDAY=TU;COUNT=10"]
})
export const AttendeeEmails = Schema.Array(Email).check(Schema.isMaxLength(200))

export const EventParams = Schema.Struct({ eventId: Id })
export const OccurrenceParams = Schema.Struct({ occurrenceId: OccurrenceRef })
export const PromptBody = Schema.Struct({ prompt: Schema.NullOr(Prompt) })

export const CalendarEventView = Schema.Struct({
  id: Id,
  organizerId: Id,
  title: Schema.String,
  description: Schema.String,
  location: Schema.NullOr(Schema.String),
  start: Timestamp,
  end: Timestamp,
  recurrence: Schema.NullOr(Schema.String),
  timeZone: Schema.String,
  attendeeEmails: Schema.Array(Email),
  cancelledOccurrences: Schema.Array(Timestamp),
  firstOccurrenceId: OccurrenceId,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "CalendarEvent", description: "An event; a series when it has a recurrence rule" })

export const eventView = (event: StoredEvent): typeof CalendarEventView.Type => ({
  id: event.id,
  organizerId: event.ownerId,
  title: event.title,
  description: event.description,
  location: event.location,
  start: event.start,
  end: event.end,
  recurrence: event.recurrence,
  timeZone: event.timeZone,
  attendeeEmails: event.attendeeEmails,
  cancelledOccurrences: event.cancelled,
  firstOccurrenceId: occurrenceIdOf(event.id, Date.parse(event.start)),
  createdAt: event.createdAt,
  updatedAt: event.updatedAt
})

export { Occurrence }

// Made-up ids shared by the examples (the fuzz seed maps them to real ones).
export const exampleEventId = "5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f"
export const exampleUserId = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"
export const exampleOccurrenceId = `${exampleEventId}_20261208T150000Z`
export const exampleEvent = {
  id: exampleEventId,
  organizerId: exampleUserId,
  title: "Weekly product sync",
  description: "Roadmap and blockers",
  location: null,
  start: "2026-12-01T15:00:00.000Z",
  end: "2026-12-01T15:45:00.000Z",
  recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=10",
  timeZone: "UTC",
  attendeeEmails: ["bob@example.com"],
  cancelledOccurrences: [],
  firstOccurrenceId: `${exampleEventId}_20261201T150000Z`,
  createdAt: "2026-11-21T12:00:00.000Z",
  updatedAt: "2026-11-21T12:00:00.000Z"
}
export const exampleOccurrence = {
  occurrenceId: exampleOccurrenceId,
  eventId: exampleEventId,
  title: "Weekly product sync",
  description: "Roadmap and blockers",
  location: null,
  start: "2026-12-08T15:00:00.000Z",
  end: "2026-12-08T15:45:00.000Z",
  recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=10",
  timeZone: "UTC",
  recurring: true,
  attendeeEmails: ["bob@example.com"],
  organizerId: exampleUserId,
  isOrganizer: true,
  seriesPrompt: "Track decisions per workstream.",
  occurrencePrompt: "Focus on the Q1 launch date.",
  effectivePrompt: "series custom prompt: Track decisions per workstream.\noccurrence custom prompt: Focus on the Q1 launch date."
}

export interface EventInput {
  readonly title: string
  readonly start: string
  readonly end: string
  readonly description?: string
  readonly location?: string | null
  readonly recurrence?: string | null
  readonly timeZone?: string
  readonly attendeeEmails?: ReadonlyArray<string>
}

/** Normalizes and checks an event's fields together (times in order, a supported rule), naming the field at fault. */
export const checkedFields = (input: EventInput, defaultTimeZone: string) =>
  Effect.gen(function* () {
    const start = Date.parse(input.start)
    const end = Date.parse(input.end)
    if (Number.isNaN(start))
      return yield* reject("invalid", "start is not a real date-time", [{ path: "body.start", message: "not a real date-time" }])
    if (Number.isNaN(end))
      return yield* reject("invalid", "end is not a real date-time", [{ path: "body.end", message: "not a real date-time" }])
    if (end <= start)
      return yield* reject("invalid", "An event ends after it starts", [{ path: "body.end", message: "must be after start" }])
    if (end - start > MAX_DURATION_MS)
      return yield* reject("invalid", "An event lasts at most 7 days", [{ path: "body.end", message: "more than 7 days after start" }])
    const recurrence =
      input.recurrence === undefined || input.recurrence === null || input.recurrence.trim() === "" ? null : input.recurrence.trim()
    if (recurrence !== null) {
      const rule = parseRule(recurrence)
      if (isProblem(rule))
        return yield* reject("invalid", `Unsupported recurrence: ${rule.message}`, [{ path: "body.recurrence", message: rule.message }])
    }
    const fields: EventFields = {
      title: input.title,
      description: input.description ?? "",
      location: input.location ?? null,
      // Whole seconds: an occurrence id names its start to the second.
      start: new Date(Math.floor(start / 1000) * 1000).toISOString(),
      end: new Date(Math.floor(start / 1000) * 1000 + (end - start)).toISOString(),
      recurrence,
      timeZone: input.timeZone ?? defaultTimeZone,
      attendeeEmails: [...new Set((input.attendeeEmails ?? []).map(normalizeEmail))]
    }
    return fields
  })

/** Query `from`/`to` as a window: defaults to the next 30 days, at most a year long. */
export const windowOf = (query: { readonly from?: string; readonly to?: string }) =>
  Effect.gen(function* () {
    const from = query.from === undefined ? Date.now() : Date.parse(query.from)
    if (Number.isNaN(from))
      return yield* reject("invalid", "from is not a real date-time", [{ path: "query.from", message: "not a real date-time" }])
    const to = query.to === undefined ? from + 30 * 86_400_000 : Date.parse(query.to)
    if (Number.isNaN(to))
      return yield* reject("invalid", "to is not a real date-time", [{ path: "query.to", message: "not a real date-time" }])
    if (to <= from) return yield* reject("invalid", "to must be after from", [{ path: "query.to", message: "must be after from" }])
    if (to - from > MAX_WINDOW_DAYS * 86_400_000)
      return yield* reject("invalid", `A window spans at most ${MAX_WINDOW_DAYS} days`, [
        { path: "query.to", message: `more than ${MAX_WINDOW_DAYS} days after from` }
      ])
    return { from, to }
  })

export const WindowQuery = Schema.Struct({ from: Schema.optionalKey(Instant), to: Schema.optionalKey(Instant) })
