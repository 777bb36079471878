/**
 * Reads and invitations that span several users' calendars, always over the
 * actor transport: a user's view is their own `hubCalendar` plus the events
 * they are invited to, read from each organizer's calendar (which confirms
 * the user is still an attendee, so a stale invitation shows nothing).
 */
import { Effect } from "effect"
import { usersByEmails } from "../../identity/IdentityQueries.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { Calendar, type CalendarState, promptsOf } from "./Calendar.ts"
import {
  firstStartMs,
  instanceOf,
  instancesIn,
  type Occurrence,
  occurrenceIdOf,
  occurrenceOf,
  parseOccurrenceRef,
  type StoredEvent
} from "./CalendarEvent.ts"

export interface Viewer {
  readonly userId: string
  readonly email: string
}

export interface CalendarView {
  readonly state: CalendarState
  readonly events: ReadonlyArray<StoredEvent>
}

/** What part of a calendar a read needs: the occurrences in a window, or some events by id. */
export type CalendarScope = { readonly from: number; readonly to: number } | { readonly eventIds: ReadonlyArray<string> }

/**
 * The viewer's calendar within `scope`: the events they organize and the ones they attend. The scope keeps the
 * actor's reply small however many events a synced calendar brings (a whole calendar may not fit a NATS message).
 */
export const calendarOf = (viewer: Viewer, scope: CalendarScope) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const state = yield* "eventIds" in scope
      ? system.ask(Calendar, viewer.userId, "slice", { eventIds: scope.eventIds })
      : system.ask(Calendar, viewer.userId, "window", { from: scope.from, to: scope.to })
    const byOrganizer = new Map<string, Array<string>>()
    for (const [eventId, organizerId] of Object.entries(state.invites)) {
      byOrganizer.set(organizerId, [...(byOrganizer.get(organizerId) ?? []), eventId])
    }
    const invited = yield* Effect.forEach(
      [...byOrganizer],
      ([organizerId, eventIds]) => system.ask(Calendar, organizerId, "eventsFor", { eventIds, attendeeEmail: viewer.email }),
      { concurrency: 8 }
    )
    return { state, events: [...Object.values(state.events), ...invited.flat()] } satisfies CalendarView
  })

const byStart = (a: Occurrence, b: Occurrence) => a.start.localeCompare(b.start) || a.occurrenceId.localeCompare(b.occurrenceId)

/** Every occurrence the viewer sees starting in [from, to), with their own prompts. */
export const occurrencesIn = (viewer: Viewer, from: number, to: number) =>
  Effect.map(calendarOf(viewer, { from, to }), ({ state, events }) =>
    events
      .flatMap((event) =>
        instancesIn(event, from, to).map((instance) =>
          occurrenceOf(event, instance, viewer.userId, promptsOf(state, occurrenceIdOf(event.id, instance.originalMs)))
        )
      )
      .sort(byStart)
  )

/** One occurrence the viewer sees, by occurrence id or bare event id (its first occurrence); 404 otherwise, as if it did not exist. */
export const occurrenceFor = (viewer: Viewer, ref: string) =>
  Effect.gen(function* () {
    const named = parseOccurrenceRef(ref)
    const { state, events } = yield* calendarOf(viewer, { eventIds: named === undefined ? [] : [named.eventId] })
    const event = events.find((candidate) => candidate.id === named?.eventId)
    const instance = event === undefined ? undefined : instanceOf(event, named?.startMs ?? firstStartMs(event))
    if (event === undefined || instance === undefined) return yield* reject("not_found", "No such calendar event")
    return occurrenceOf(event, instance, viewer.userId, promptsOf(state, occurrenceIdOf(event.id, instance.originalMs)))
  })

/**
 * Keeps attendees' invitations in step with an event's attendee list:
 * registered users newly listed get it, users no longer listed lose it (and
 * their prompts for it). Unregistered addresses stay on the event only.
 */
export const syncInvites = (organizerId: string, eventId: string, before: ReadonlyArray<string>, after: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const users = yield* Effect.orDie(usersByEmails([...before, ...after]))
    const idsOf = (emails: ReadonlyArray<string>) =>
      new Set(emails.flatMap((email) => users.get(email)?.id ?? []).filter((id) => id !== organizerId))
    const was = idsOf(before)
    const now = idsOf(after)
    yield* Effect.forEach(
      [...now].filter((id) => !was.has(id)),
      (id) => system.ask(Calendar, id, "addInvite", { eventId, organizerId }),
      {
        concurrency: 8
      }
    )
    yield* Effect.forEach(
      [...was].filter((id) => !now.has(id)),
      (id) => system.ask(Calendar, id, "removeInvite", { eventId }),
      {
        concurrency: 8
      }
    )
  })
