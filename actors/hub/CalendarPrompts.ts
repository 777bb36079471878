/**
 * The port to the calendar-events service for the prompts a recording of a
 * calendar occurrence is generated with: per user, their series and
 * occurrence prompts combined ("series custom prompt: …" then "occurrence
 * custom prompt: …"; one alone as it stands), or null.
 */
import { Context, Effect, Layer } from "effect"
import type { ActorError } from "../../runtime/ActorError.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import type { Rejection } from "../../runtime/Rejection.ts"
import { occurrencePrompts } from "./calendar/OccurrencePrompts.ts"

export interface CalendarPromptsShape {
  readonly occurrencePrompts: (
    occurrenceId: string,
    userIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, string | null>, Rejection | ActorError, ActorSystem>
}

export class CalendarPrompts extends Context.Service<CalendarPrompts, CalendarPromptsShape>()("atrium/hub/CalendarPrompts") {}

/** No calendar service: nobody has calendar prompts. */
export const noCalendar: CalendarPromptsShape = {
  occurrencePrompts: (_, userIds) => Effect.succeed(new Map(userIds.map((userId) => [userId, null])))
}

/** The calendar-events service's actors (hub-people's OccurrencePrompts). */
export const calendarService: CalendarPromptsShape = { occurrencePrompts }

export const layer = Layer.succeed(CalendarPrompts, CalendarPrompts.of(calendarService))

/** The combined calendar prompts of `userIds` for a recording's occurrence (all null without one). */
export const calendarPromptsOf = (occurrenceId: string | null, userIds: ReadonlyArray<string>) =>
  occurrenceId === null
    ? Effect.succeed(new Map<string, string | null>(userIds.map((userId) => [userId, null])))
    : CalendarPrompts.use((port) => port.occurrencePrompts(occurrenceId, userIds))
