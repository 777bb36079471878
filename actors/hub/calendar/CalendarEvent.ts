/**
 * A calendar event (a series when it recurs) as its owner's calendar keeps
 * it, and the occurrences it expands to. An occurrence is named by
 * `<eventId>_<YYYYMMDDTHHMMSSZ>` of its original start, the form calendar
 * suites use for recurring instances, so its id is stable for the life of the
 * series and needs no storage of its own.
 */
import { Schema } from "effect"
import { Email, Id, Timestamp } from "../../Fields.ts"
import { isProblem, occurrenceStarts, parseRule, type RecurrenceRule } from "./Recurrence.ts"

/** An instant with its UTC offset, e.g. `2026-12-01T15:00:00Z`. */
export const Instant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/, {
    expected: "an ISO 8601 date-time with an offset, e.g. 2026-12-01T15:00:00Z"
  })
).annotate({ format: "date-time", examples: ["2026-12-01T15:00:00.000Z"] })

export const OCCURRENCE_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(\d{8}T\d{6}Z)$/

export const OccurrenceId = Schema.String.check(
  Schema.isPattern(OCCURRENCE_ID, { expected: "an occurrence id: <event UUID>_<YYYYMMDDTHHMMSSZ>" })
).annotate({ examples: ["5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f_20261201T150000Z"] })

const OCCURRENCE_REF = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:_(\d{8}T\d{6}Z))?$/

/** How a path names an occurrence: its occurrence id, or the bare event id for the event's first occurrence. */
export const OccurrenceRef = Schema.String.check(
  Schema.isPattern(OCCURRENCE_REF, { expected: "an occurrence id (<event UUID>_<YYYYMMDDTHHMMSSZ>) or an event id (its first occurrence)" })
).annotate({ examples: ["5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f_20261201T150000Z"] })

export const Prompt = Schema.String.check(Schema.isMaxLength(4000)).annotate({ description: "A custom prompt for the meeting's analysis" })

export const SyncProvider = Schema.Literals(["ics", "google", "microsoft"]).annotate({
  description: "Where a synced event comes from: an iCalendar (ICS) subscription, Google Calendar or Microsoft 365 (Graph)"
})
export type SyncProvider = typeof SyncProvider.Type

/**
 * What an event synced from a calendar suite carries: its occurrences as the
 * suite expanded them (original starts within the synced window), the ones
 * it moved, and what the bot choice needs. A synced event is only changed by
 * its feed's sync.
 */
export const SyncedSource = Schema.Struct({
  feedId: Id,
  provider: SyncProvider,
  externalId: Schema.String,
  meetingUrl: Schema.NullOr(Schema.String),
  /** The calendar's owner organizes the meeting. */
  organizer: Schema.Boolean,
  /** Original starts (ISO) of the occurrences in the synced window, ascending; cancelled ones left out. */
  occurrences: Schema.Array(Timestamp),
  /** Original start (ISO) → the times of an occurrence moved by the suite (a `RECURRENCE-ID` override). */
  moved: Schema.Record(Schema.String, Schema.Struct({ start: Timestamp, end: Timestamp }))
})
export type SyncedSource = typeof SyncedSource.Type

export const StoredEvent = Schema.Struct({
  id: Id,
  ownerId: Id,
  title: Schema.String,
  description: Schema.String,
  location: Schema.NullOr(Schema.String),
  start: Timestamp,
  end: Timestamp,
  recurrence: Schema.NullOr(Schema.String),
  /** IANA zone the recurrence rule is read in. */
  timeZone: Schema.String,
  attendeeEmails: Schema.Array(Email),
  /** Original starts (ISO) of cancelled occurrences. */
  cancelled: Schema.Array(Timestamp),
  /** Set on events synced from a calendar suite. */
  synced: Schema.optionalKey(SyncedSource),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type StoredEvent = typeof StoredEvent.Type

/** One occurrence as the caller sees it (with their own prompts). */
export const Occurrence = Schema.Struct({
  occurrenceId: OccurrenceId,
  eventId: Id,
  title: Schema.String,
  description: Schema.String,
  location: Schema.NullOr(Schema.String),
  start: Timestamp,
  end: Timestamp,
  recurrence: Schema.NullOr(Schema.String),
  timeZone: Schema.String,
  recurring: Schema.Boolean,
  attendeeEmails: Schema.Array(Email),
  organizerId: Id,
  isOrganizer: Schema.Boolean,
  seriesPrompt: Schema.NullOr(Prompt),
  occurrencePrompt: Schema.NullOr(Prompt),
  effectivePrompt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "CalendarOccurrence" })
export type Occurrence = typeof Occurrence.Type

const stamp = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")

export const occurrenceIdOf = (eventId: string, startMs: number): string => `${eventId}_${stamp(startMs)}`

/** The event id and original start (epoch ms) an occurrence id names, or undefined when malformed. */
export const parseOccurrenceId = (occurrenceId: string): { readonly eventId: string; readonly startMs: number } | undefined => {
  const match = OCCURRENCE_ID.exec(occurrenceId)
  if (!match) return undefined
  const s = match[2]!
  const startMs = Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(9, 11), +s.slice(11, 13), +s.slice(13, 15))
  return Number.isNaN(startMs) ? undefined : { eventId: match[1]!, startMs }
}

/** The event id and, unless the reference is a bare event id, the occurrence's original start. */
export const parseOccurrenceRef = (ref: string): { readonly eventId: string; readonly startMs: number | undefined } | undefined => {
  const match = OCCURRENCE_REF.exec(ref)
  if (!match) return undefined
  return match[2] === undefined ? { eventId: match[1]!, startMs: undefined } : parseOccurrenceId(ref)
}

export const ruleOf = (event: Pick<StoredEvent, "recurrence">): RecurrenceRule | undefined => {
  if (event.recurrence === null) return undefined
  const parsed = parseRule(event.recurrence)
  return isProblem(parsed) ? undefined : parsed
}

/** Occurrence starts (epoch ms) of `event` in [from, to), cancelled ones left out. */
export const startsIn = (event: StoredEvent, from: number, to: number): ReadonlyArray<number> => {
  const cancelled = new Set(event.cancelled.map((at) => Date.parse(at)))
  return occurrenceStarts(Date.parse(event.start), ruleOf(event), from, to, event.timeZone).filter((at) => !cancelled.has(at))
}

/** One occurrence's times: its original start names it, a moved occurrence starts and ends elsewhere. */
export interface Instance {
  readonly originalMs: number
  readonly startMs: number
  readonly endMs: number
}

const durationOf = (event: StoredEvent) => Date.parse(event.end) - Date.parse(event.start)

const syncedInstances = (event: StoredEvent, synced: SyncedSource): ReadonlyArray<Instance> =>
  synced.occurrences.map((original) => {
    const originalMs = Date.parse(original)
    const moved = synced.moved[original]
    return moved === undefined
      ? { originalMs, startMs: originalMs, endMs: originalMs + durationOf(event) }
      : { originalMs, startMs: Date.parse(moved.start), endMs: Date.parse(moved.end) }
  })

/** The (not cancelled) occurrences of `event` starting in [from, to), by start. */
export const instancesIn = (event: StoredEvent, from: number, to: number): ReadonlyArray<Instance> =>
  event.synced === undefined
    ? startsIn(event, from, to).map((at) => ({ originalMs: at, startMs: at, endMs: at + durationOf(event) }))
    : syncedInstances(event, event.synced)
        .filter((instance) => instance.startMs >= from && instance.startMs < to)
        .sort((a, b) => a.startMs - b.startMs)

/** The occurrence of `event` originally starting at `originalMs`, unless there is none (or it was cancelled). */
export const instanceOf = (event: StoredEvent, originalMs: number): Instance | undefined =>
  event.synced === undefined
    ? startsIn(event, originalMs, originalMs + 1).length === 1
      ? { originalMs, startMs: originalMs, endMs: originalMs + durationOf(event) }
      : undefined
    : syncedInstances(event, event.synced).find((instance) => instance.originalMs === originalMs)

/** Whether `startMs` is the original start of a (not cancelled) occurrence of `event`. */
export const hasOccurrence = (event: StoredEvent, startMs: number): boolean => instanceOf(event, startMs) !== undefined

/** The original start of the occurrence a bare event id stands for: the first one (a synced event's first in its window). */
export const firstStartMs = (event: StoredEvent): number => Date.parse(event.synced?.occurrences[0] ?? event.start)

/** The caller's own prompts for one occurrence. */
export interface PromptPair {
  readonly series: string | null
  readonly occurrence: string | null
}

/**
 * The prompt the meeting receives: both prompts combined as
 * `series custom prompt: <S>` followed by `occurrence custom prompt: <O>`;
 * one alone as it stands; null when neither is set.
 */
export const effectivePrompt = ({ series, occurrence }: PromptPair): string | null =>
  series !== null && occurrence !== null
    ? `series custom prompt: ${series}\noccurrence custom prompt: ${occurrence}`
    : (series ?? occurrence)

export const occurrenceOf = (event: StoredEvent, instance: Instance, viewerId: string, prompts: PromptPair): Occurrence => ({
  occurrenceId: occurrenceIdOf(event.id, instance.originalMs),
  eventId: event.id,
  title: event.title,
  description: event.description,
  location: event.location,
  start: new Date(instance.startMs).toISOString(),
  end: new Date(instance.endMs).toISOString(),
  recurrence: event.recurrence,
  timeZone: event.timeZone,
  recurring: event.recurrence !== null || (event.synced?.occurrences.length ?? 0) > 1,
  attendeeEmails: event.attendeeEmails,
  organizerId: event.ownerId,
  isOrganizer: event.ownerId === viewerId,
  seriesPrompt: prompts.series,
  occurrencePrompt: prompts.occurrence,
  effectivePrompt: effectivePrompt(prompts)
})
