/**
 * What a recording made for a calendar occurrence needs from the calendar:
 * each participant's own combined prompt for that occurrence (series and
 * occurrence prompts, combined as `effectivePrompt` says), or null when they
 * set none. Asked of each participant's calendar actor.
 */
import { Effect } from "effect"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Calendar } from "./Calendar.ts"
import { effectivePrompt, parseOccurrenceId } from "./CalendarEvent.ts"

/** userId → the combined prompt of that user for `occurrenceId` (null: none). Fails `invalid` on a malformed id. */
export const occurrencePrompts = (occurrenceId: string, userIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (parseOccurrenceId(occurrenceId) === undefined)
      return yield* reject("invalid", "Not an occurrence id", [
        { path: "calendarEventId", message: "expected <event UUID>_<YYYYMMDDTHHMMSSZ>" }
      ])
    const system = yield* ActorSystem
    const unique = [...new Set(userIds)]
    const pairs = yield* Effect.forEach(unique, (userId) => system.ask(Calendar, userId, "prompts", { occurrenceId }), { concurrency: 8 })
    return new Map(unique.map((userId, index) => [userId, effectivePrompt(pairs[index]!)] as const)) as ReadonlyMap<string, string | null>
  })
