/**
 * What a recording made for a calendar occurrence needs from the calendar:
 * each participant's own combined prompt for that occurrence (series and
 * occurrence prompts, combined as `effectivePrompt` says), or null when they
 * set none. Asked of each participant's calendar actor. A bare event id
 * stands for the event's first occurrence.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Calendar } from "./Calendar.ts"
import { effectivePrompt, occurrenceIdOf, parseOccurrenceRef } from "./CalendarEvent.ts"

/** The occurrence id a reference names, the start of a bare event id found through the users' calendars (undefined: nobody sees it). */
const canonical = (ref: string, userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const named = parseOccurrenceRef(ref)
    if (named === undefined) return undefined
    if (named.startMs !== undefined) return ref
    const system = yield* ActorSystem
    for (const userId of userIds) {
      const found = yield* system.ask(Calendar, userId, "locate", { eventId: named.eventId })
      const start =
        found.start ??
        (found.organizerId === null ? null : (yield* system.ask(Calendar, found.organizerId, "locate", { eventId: named.eventId })).start)
      if (start !== null) return occurrenceIdOf(named.eventId, Date.parse(start))
    }
    return undefined
  })

/** userId → the combined prompt of that user for the occurrence (null: none). Fails `invalid` on a malformed id. */
export const occurrencePrompts = (occurrenceId: string, userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (parseOccurrenceRef(occurrenceId) === undefined)
      return yield* reject("invalid", "Not an occurrence id", [
        { path: "calendarEventId", message: "expected <event UUID>_<YYYYMMDDTHHMMSSZ> or an event UUID" }
      ])
    const unique = [...new Set(userIds)]
    const resolved = yield* canonical(occurrenceId, unique)
    const system = yield* ActorSystem
    const pairs =
      resolved === undefined
        ? unique.map(() => ({ series: null, occurrence: null }))
        : yield* Effect.forEach(unique, (userId) => system.ask(Calendar, userId, "prompts", { occurrenceId: resolved }), { concurrency: 8 })
    return new Map(unique.map((userId, index) => [userId, effectivePrompt(pairs[index]!)] as const)) as ReadonlyMap<string, string | null>
  })
