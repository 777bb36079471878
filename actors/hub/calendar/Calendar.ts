/**
 * The calendar-events service: one `hubCalendar` actor per user, the single
 * writer of that user's calendar. It holds the events the user organizes,
 * the invitations to other users' events (event id → organizer, so an
 * attendee reads the event from its organizer's calendar), and the user's
 * own series and occurrence prompts, which nobody else sees. The state is
 * persisted before every reply (ActorStore, `actor_state`).
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import {
  CalendarEventExists,
  CalendarEventNotFound,
  CalendarEventSynced,
  CalendarFull,
  CalendarOccurrenceNotFound,
  SyncedCalendarFull
} from "../HubErrors.ts"
import { Email, Id, now } from "../../Fields.ts"
import {
  firstStartMs,
  hasOccurrence,
  instancesIn,
  OccurrenceId,
  parseOccurrenceId,
  Prompt,
  type PromptPair,
  StoredEvent,
  SyncedSource
} from "./CalendarEvent.ts"

export const CALENDAR_KIND = "hubCalendar"
/** Events one user may make by hand. */
export const MAX_EVENTS = 2000
/** Events one user's synced calendars may bring (a suite's calendar runs larger than a hand-made one). */
export const MAX_SYNCED_EVENTS = 10_000

const Record = <V extends Schema.Top>(value: V) => Schema.Record(Schema.String, value)

export const CalendarState = Schema.Struct({
  events: Record(StoredEvent),
  /** Event id → organizer id, for events of other users this user attends. */
  invites: Record(Id),
  seriesPrompts: Record(Schema.String),
  occurrencePrompts: Record(Schema.String)
})
export type CalendarState = typeof CalendarState.Type

export const EventFields = Schema.Struct({
  title: Schema.String,
  description: Schema.String,
  location: Schema.NullOr(Schema.String),
  start: Schema.String,
  end: Schema.String,
  recurrence: Schema.NullOr(Schema.String),
  timeZone: Schema.String,
  attendeeEmails: Schema.Array(Email)
})
export type EventFields = typeof EventFields.Type

/** An event as a feed's sync hands it over: its id is derived from the feed and the suite's id, so a re-sync names it again. */
export const SyncedEventInput = Schema.Struct({ id: Id, ...EventFields.fields, synced: SyncedSource })
export type SyncedEventInput = typeof SyncedEventInput.Type

const SyncOutcome = Schema.Struct({ added: Schema.Number, changed: Schema.Number, removed: Schema.Number, unchanged: Schema.Number })

const PromptPairSchema = Schema.Struct({ series: Schema.NullOr(Prompt), occurrence: Schema.NullOr(Prompt) })
const EventChange = Schema.Struct({ event: StoredEvent, previous: StoredEvent })

const ownEvent = (state: CalendarState, eventId: string) => {
  const event = state.events[eventId]
  if (event === undefined) return Effect.fail(new CalendarEventNotFound())
  // The suite is the event's source of truth: a change here would be undone by the next sync.
  if (event.synced !== undefined) return Effect.fail(new CalendarEventSynced({ provider: event.synced.provider }))
  return Effect.succeed(event)
}

const visible = (state: CalendarState, eventId: string) => state.events[eventId] !== undefined || state.invites[eventId] !== undefined

const without = <V>(record: Readonly<Record<string, V>>, drop: (key: string) => boolean): Record<string, V> =>
  Object.fromEntries(Object.entries(record).filter(([key]) => !drop(key)))

/** The state with every prompt of `eventId` (series and occurrences) removed. */
const dropPrompts = (state: CalendarState, eventId: string): CalendarState => ({
  ...state,
  seriesPrompts: without(state.seriesPrompts, (key) => key === eventId),
  occurrencePrompts: without(state.occurrencePrompts, (key) => key.startsWith(`${eventId}_`))
})

export const promptsOf = (state: CalendarState, occurrenceId: string): PromptPair => {
  const eventId = parseOccurrenceId(occurrenceId)?.eventId ?? ""
  return { series: state.seriesPrompts[eventId] ?? null, occurrence: state.occurrencePrompts[occurrenceId] ?? null }
}

/** JSON with object keys sorted: a stored event and its re-synced twin compare equal whatever order their keys came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, inner) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner
  )

/** The state restricted to the events `kept` (by id), with their invitations and prompts. */
const restricted = (state: CalendarState, kept: (eventId: string) => boolean): CalendarState => ({
  events: without(state.events, (key) => !kept(key)),
  invites: without(state.invites, (key) => !kept(key)),
  seriesPrompts: without(state.seriesPrompts, (key) => !kept(key)),
  occurrencePrompts: without(state.occurrencePrompts, (key) => !kept(parseOccurrenceId(key)?.eventId ?? ""))
})

/** The state as a window shows it: events with an occurrence in [from, to), every invitation, the prompts of both. */
const windowOf = (state: CalendarState, from: number, to: number): CalendarState =>
  restricted(state, (eventId) => {
    const event = state.events[eventId]
    return event === undefined ? state.invites[eventId] !== undefined : instancesIn(event, from, to).length > 0
  })

const sliceOf = (state: CalendarState, eventIds: ReadonlySet<string>): CalendarState =>
  restricted(state, (eventId) => eventIds.has(eventId))

const setOrDelete = (record: Readonly<Record<string, string>>, key: string, value: string | null) =>
  value === null ? without(record, (k) => k === key) : { ...record, [key]: value }

const OwnEventErrors = Schema.Union([CalendarEventNotFound, CalendarEventSynced])

export const Calendar = Actor<CalendarState>()({
  kind: CALENDAR_KIND,
  state: CalendarState,
  initial: () => ({ events: {}, invites: {}, seriesPrompts: {}, occurrencePrompts: {} }),
  messages: {
    view: { payload: Schema.Struct({}), success: CalendarState, error: Schema.Never },
    /** The state with only the events that have an occurrence in [from, to) and their prompts: a read that stays small. */
    window: { payload: Schema.Struct({ from: Schema.Number, to: Schema.Number }), success: CalendarState, error: Schema.Never },
    /** The state with only the named events (organized or attended) and their prompts. */
    // Plain strings: a path's occurrence reference names an event id that need not be a well-formed UUID.
    slice: { payload: Schema.Struct({ eventIds: Schema.Array(Schema.String) }), success: CalendarState, error: Schema.Never },
    /**
     * A feed's events with an occurrence in [from, to), and which of `eventIds` are the feed's or in no calendar
     * any more (how the feed's recording bots are reconciled without reading the whole calendar).
     */
    feedEvents: {
      payload: Schema.Struct({ feedId: Id, from: Schema.Number, to: Schema.Number, eventIds: Schema.Array(Id) }),
      success: Schema.Struct({ upcoming: Schema.Array(StoredEvent), ours: Schema.Array(Id) }),
      error: Schema.Never
    },
    /** Events this user organizes, of those asked, that list `attendeeEmail` (how an attendee reads them). */
    eventsFor: {
      payload: Schema.Struct({ eventIds: Schema.Array(Id), attendeeEmail: Email }),
      success: Schema.Array(StoredEvent),
      error: Schema.Never
    },
    create: {
      payload: Schema.Struct({ id: Id, ...EventFields.fields }),
      success: StoredEvent,
      error: Schema.Union([CalendarFull, CalendarEventExists])
    },
    update: { payload: Schema.Struct({ id: Id, ...EventFields.fields }), success: EventChange, error: OwnEventErrors },
    delete: { payload: Schema.Struct({ id: Id }), success: StoredEvent, error: OwnEventErrors },
    cancelOccurrence: {
      payload: Schema.Struct({ occurrenceId: OccurrenceId }),
      success: StoredEvent,
      error: Schema.Union([CalendarEventNotFound, CalendarEventSynced, CalendarOccurrenceNotFound])
    },
    addInvite: { payload: Schema.Struct({ eventId: Id, organizerId: Id }), success: Schema.Struct({}), error: Schema.Never },
    removeInvite: { payload: Schema.Struct({ eventId: Id }), success: Schema.Struct({}), error: Schema.Never },
    /** The caller must see the event; `prompt` null clears. */
    setSeriesPrompt: {
      payload: Schema.Struct({ occurrenceId: OccurrenceId, prompt: Schema.NullOr(Prompt) }),
      success: PromptPairSchema,
      error: CalendarEventNotFound
    },
    setOccurrencePrompt: {
      payload: Schema.Struct({ occurrenceId: OccurrenceId, prompt: Schema.NullOr(Prompt) }),
      success: PromptPairSchema,
      error: CalendarEventNotFound
    },
    prompts: { payload: Schema.Struct({ occurrenceId: OccurrenceId }), success: PromptPairSchema, error: Schema.Never },
    /**
     * A sync in pages (a large calendar does not fit one message): `pruneSynced` removes the feed's events not in
     * `keep`, with their prompts; then `upsertSynced`, once per page, adds new events and replaces changed ones.
     * Prompts of occurrences the feed no longer has in its window (from `windowStart` on) go too; series prompts
     * stay as long as the event does. Idempotent: the same events again change nothing.
     */
    pruneSynced: {
      payload: Schema.Struct({ feedId: Id, keep: Schema.Array(Id) }),
      success: Schema.Struct({ removed: Schema.Number }),
      error: Schema.Never
    },
    upsertSynced: {
      payload: Schema.Struct({ feedId: Id, windowStart: Schema.String, events: Schema.Array(SyncedEventInput) }),
      success: SyncOutcome,
      error: SyncedCalendarFull
    },
    /** Where an event is: its start when this user organizes it, its organizer when they attend it. */
    locate: {
      payload: Schema.Struct({ eventId: Id }),
      success: Schema.Struct({ start: Schema.NullOr(Schema.String), organizerId: Schema.NullOr(Id) }),
      error: Schema.Never
    }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    window: ({ from, to }, ctx) => Effect.succeed(windowOf(ctx.state, from, to)),
    slice: ({ eventIds }, ctx) => Effect.succeed(sliceOf(ctx.state, new Set(eventIds))),
    feedEvents: ({ feedId, from, to, eventIds }, ctx) =>
      Effect.succeed({
        upcoming: Object.values(ctx.state.events).filter(
          (event) => event.synced?.feedId === feedId && instancesIn(event, from, to).length > 0
        ),
        ours: eventIds.filter((id) => {
          const event = ctx.state.events[id]
          return event === undefined ? ctx.state.invites[id] === undefined : event.synced?.feedId === feedId
        })
      }),
    eventsFor: ({ eventIds, attendeeEmail }, ctx) =>
      Effect.succeed(
        eventIds.flatMap((id) => {
          const event = ctx.state.events[id]
          return event?.attendeeEmails.includes(attendeeEmail) ? [event] : []
        })
      ),
    create: ({ id, ...fields }, ctx) =>
      Effect.gen(function* () {
        if (Object.values(ctx.state.events).filter((event) => event.synced === undefined).length >= MAX_EVENTS)
          return yield* new CalendarFull({ max: MAX_EVENTS })
        if (ctx.state.events[id] !== undefined) return yield* new CalendarEventExists()
        const at = now()
        const event: StoredEvent = { id, ownerId: ctx.address.id, ...fields, cancelled: [], createdAt: at, updatedAt: at }
        ctx.setState({ ...ctx.state, events: { ...ctx.state.events, [id]: event } })
        return event
      }),
    update: ({ id, ...fields }, ctx) =>
      Effect.gen(function* () {
        const previous = yield* ownEvent(ctx.state, id)
        // A new start or rule renames every occurrence: cancellations and occurrence prompts of the old ones go.
        const reshaped =
          previous.start !== fields.start || previous.recurrence !== fields.recurrence || previous.timeZone !== fields.timeZone
        const event: StoredEvent = { ...previous, ...fields, cancelled: reshaped ? [] : previous.cancelled, updatedAt: now() }
        const base = reshaped
          ? { ...ctx.state, occurrencePrompts: without(ctx.state.occurrencePrompts, (key) => key.startsWith(`${id}_`)) }
          : ctx.state
        ctx.setState({ ...base, events: { ...base.events, [id]: event } })
        return { event, previous }
      }),
    delete: ({ id }, ctx) =>
      Effect.gen(function* () {
        const event = yield* ownEvent(ctx.state, id)
        const next = dropPrompts(ctx.state, id)
        ctx.setState({ ...next, events: without(next.events, (key) => key === id) })
        return event
      }),
    cancelOccurrence: ({ occurrenceId }, ctx) =>
      Effect.gen(function* () {
        const named = parseOccurrenceId(occurrenceId)
        const event = yield* ownEvent(ctx.state, named?.eventId ?? "")
        if (named === undefined || !hasOccurrence(event, named.startMs)) return yield* new CalendarOccurrenceNotFound()
        const next: StoredEvent = { ...event, cancelled: [...event.cancelled, new Date(named.startMs).toISOString()], updatedAt: now() }
        ctx.setState({
          ...ctx.state,
          events: { ...ctx.state.events, [event.id]: next },
          occurrencePrompts: without(ctx.state.occurrencePrompts, (key) => key === occurrenceId)
        })
        return next
      }),
    addInvite: ({ eventId, organizerId }, ctx) =>
      Effect.sync(() => {
        if (ctx.state.invites[eventId] !== organizerId)
          ctx.setState({ ...ctx.state, invites: { ...ctx.state.invites, [eventId]: organizerId } })
        return {}
      }),
    removeInvite: ({ eventId }, ctx) =>
      Effect.sync(() => {
        if (ctx.state.invites[eventId] === undefined) return {}
        const next = dropPrompts(ctx.state, eventId)
        ctx.setState({ ...next, invites: without(next.invites, (key) => key === eventId) })
        return {}
      }),
    setSeriesPrompt: ({ occurrenceId, prompt }, ctx) =>
      Effect.gen(function* () {
        const eventId = parseOccurrenceId(occurrenceId)?.eventId ?? ""
        if (!visible(ctx.state, eventId)) return yield* new CalendarEventNotFound()
        const next = { ...ctx.state, seriesPrompts: setOrDelete(ctx.state.seriesPrompts, eventId, prompt) }
        ctx.setState(next)
        return promptsOf(next, occurrenceId)
      }),
    setOccurrencePrompt: ({ occurrenceId, prompt }, ctx) =>
      Effect.gen(function* () {
        const eventId = parseOccurrenceId(occurrenceId)?.eventId ?? ""
        if (!visible(ctx.state, eventId)) return yield* new CalendarEventNotFound()
        const next = { ...ctx.state, occurrencePrompts: setOrDelete(ctx.state.occurrencePrompts, occurrenceId, prompt) }
        ctx.setState(next)
        return promptsOf(next, occurrenceId)
      }),
    pruneSynced: ({ feedId, keep }, ctx) =>
      Effect.sync(() => {
        const kept = new Set(keep)
        const gone = Object.values(ctx.state.events)
          .filter((event) => event.synced?.feedId === feedId && !kept.has(event.id))
          .map((event) => event.id)
        if (gone.length === 0) return { removed: 0 }
        const goneIds = new Set(gone)
        const next = gone.reduce(dropPrompts, ctx.state)
        ctx.setState({ ...next, events: without(next.events, (key) => goneIds.has(key)) })
        return { removed: gone.length }
      }),
    upsertSynced: ({ feedId, windowStart, events }, ctx) =>
      Effect.gen(function* () {
        const state = ctx.state
        const fresh = events.filter((event) => state.events[event.id] === undefined).length
        const synced = Object.values(state.events).filter((event) => event.synced !== undefined).length
        if (synced + fresh > MAX_SYNCED_EVENTS) return yield* new SyncedCalendarFull({ max: MAX_SYNCED_EVENTS })
        let next = state
        const at = now()
        const fromMs = Date.parse(windowStart)
        let added = 0
        let changed = 0
        const nextEvents: Record<string, StoredEvent> = { ...state.events }
        for (const input of events) {
          const previous = state.events[input.id]
          // An id taken by a hand-made event is left alone (ids are derived in the feed's own namespace, so this is a collision guard).
          if (previous !== undefined && previous.synced?.feedId !== feedId) continue
          const candidate: StoredEvent = {
            ...input,
            ownerId: ctx.address.id,
            cancelled: [],
            createdAt: previous?.createdAt ?? at,
            updatedAt: previous?.updatedAt ?? at
          }
          const same = previous !== undefined && canonical({ ...previous, updatedAt: "" }) === canonical({ ...candidate, updatedAt: "" })
          if (same) continue
          if (previous === undefined) added++
          else changed++
          nextEvents[input.id] = { ...candidate, updatedAt: at }
          const kept = new Set(input.synced.occurrences.map((original) => Date.parse(original)))
          next = {
            ...next,
            occurrencePrompts: without(next.occurrencePrompts, (key) => {
              const named = parseOccurrenceId(key)
              return named !== undefined && named.eventId === input.id && named.startMs >= fromMs && !kept.has(named.startMs)
            })
          }
        }
        if (added + changed > 0) ctx.setState({ ...next, events: nextEvents })
        return { added, changed, removed: 0, unchanged: events.length - added - changed }
      }),
    prompts: ({ occurrenceId }, ctx) => Effect.succeed(promptsOf(ctx.state, occurrenceId)),
    locate: ({ eventId }, ctx) =>
      Effect.succeed(
        ctx.state.events[eventId] !== undefined
          ? { start: new Date(firstStartMs(ctx.state.events[eventId]!)).toISOString(), organizerId: ctx.address.id }
          : { start: null, organizerId: ctx.state.invites[eventId] ?? null }
      )
  }
})
