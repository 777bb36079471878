/**
 * An iCalendar subscription (RFC 5545 over HTTP: the secret address Google
 * Calendar and Outlook publish). Fetched conditionally (`If-None-Match`,
 * `If-Modified-Since`: a 304 changes nothing) and parsed with ical.js, which
 * expands `RRULE`/`RDATE` minus `EXDATE`, relates `RECURRENCE-ID` overrides
 * to their series, and reads times in the calendar's own `VTIMEZONE`s (a
 * TZID without one is read as the IANA zone of that name). All-day entries
 * are not meetings and are left out.
 */
import ICAL from "ical.js"
import { Effect } from "effect"
import { reject, type Rejection } from "../../../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../../../webhooks/OutboundAddress.ts"
import { fromWall } from "../Recurrence.ts"
import { type DraftInstance, isIanaZone, meetingUrlOf, type SeriesDraft, type SyncWindow } from "./SyncedEvents.ts"

const VENDOR = "the calendar address"
const TIMEOUT_MS = 15_000
/** A calendar file larger than this is refused (a year of a busy calendar is a few MiB). */
const MAX_BYTES = 20 * 1024 * 1024

export interface IcsValidators {
  readonly etag: string | null
  readonly lastModified: string | null
}

export type IcsFetch =
  | { readonly kind: "unchanged" }
  | { readonly kind: "calendar"; readonly text: string; readonly validators: IcsValidators }

/** `webcal://` is how calendars are usually shared; it is plain HTTPS. */
export const httpAddressOf = (address: string) => address.trim().replace(/^webcals?:\/\//i, "https://")

export const fetchIcs = (address: string, validators: IcsValidators | null): Effect.Effect<IcsFetch, Rejection> =>
  Effect.gen(function* () {
    const url = httpAddressOf(address)
    const refusal = yield* Effect.promise(() => checkOutboundUrl(url))
    if (refusal) return yield* reject("bad_gateway", `${VENDOR} was not called: it ${refusal.reason}`)
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(url, {
          redirect: "manual",
          signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
          headers: {
            accept: "text/calendar, */*;q=0.5",
            ...(validators?.etag ? { "if-none-match": validators.etag } : {}),
            ...(validators?.lastModified ? { "if-modified-since": validators.lastModified } : {})
          }
        }),
      catch: (error) =>
        (error as Error)?.name === "TimeoutError"
          ? reject("gateway_timeout", `${VENDOR} did not answer within ${TIMEOUT_MS} ms`)
          : reject("bad_gateway", `${VENDOR} did not answer`)
    })
    if (response.status === 304) {
      yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
      return { kind: "unchanged" } as const
    }
    if (!response.ok) {
      yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
      return yield* reject("bad_gateway", `${VENDOR} answered ${response.status}`)
    }
    if (Number(response.headers.get("content-length") ?? 0) > MAX_BYTES)
      return yield* reject("too_large", `${VENDOR} serves more than ${MAX_BYTES} bytes`)
    const text = yield* Effect.tryPromise({
      try: () => response.text(),
      catch: () => reject("bad_gateway", `${VENDOR} broke off its answer`)
    })
    if (text.length > MAX_BYTES) return yield* reject("too_large", `${VENDOR} serves more than ${MAX_BYTES} bytes`)
    return {
      kind: "calendar",
      text,
      validators: { etag: response.headers.get("etag"), lastModified: response.headers.get("last-modified") }
    } as const
  })

type Time = InstanceType<typeof ICAL.Time>

/** An instant: through the calendar's VTIMEZONE when it has one, else the TZID as an IANA zone, else UTC. */
const instantOf = (time: Time, tzid: string | null): number => {
  const zone = time.zone?.tzid
  if (zone !== undefined && zone !== "floating") return time.toJSDate().getTime()
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second)
  return tzid !== null && isIanaZone(tzid) ? fromWall(wall, tzid) : wall
}

const text = (value: unknown): string => (typeof value === "string" ? value : "")
const emailOf = (value: unknown): string | null => {
  const address = text(value)
    .replace(/^mailto:/i, "")
    .trim()
  return address.includes("@") ? address.toLowerCase() : null
}

/**
 * The meetings of an iCalendar file as series drafts, occurrences within the window. `ownerEmail` decides
 * "organized by me" (the `ORGANIZER`); a series without an organizer is the owner's own.
 */
export const parseIcs = (calendar: string, window: SyncWindow, ownerEmail: string): Effect.Effect<ReadonlyArray<SeriesDraft>, Rejection> =>
  Effect.try({
    try: () => draftsOf(calendar, window, ownerEmail),
    catch: (error) => reject("bad_gateway", `${VENDOR} does not serve an iCalendar file (${(error as Error)?.message ?? "unreadable"})`)
  })

const draftsOf = (calendar: string, window: SyncWindow, ownerEmail: string): ReadonlyArray<SeriesDraft> => {
  const root = new ICAL.Component(ICAL.parse(calendar))
  if (root.name !== "vcalendar") throw new Error("no VCALENDAR")
  const byUid = new Map<string, { master?: InstanceType<typeof ICAL.Event>; exceptions: Array<InstanceType<typeof ICAL.Event>> }>()
  for (const component of root.getAllSubcomponents("vevent")) {
    const event = new ICAL.Event(component)
    const uid = event.uid
    if (!uid) continue
    const entry = byUid.get(uid) ?? { exceptions: [] }
    if (event.isRecurrenceException()) entry.exceptions.push(event)
    else entry.master = event
    byUid.set(uid, entry)
  }
  const drafts: Array<SeriesDraft> = []
  for (const [uid, { master, exceptions }] of byUid) {
    // An override without its series (the series is outside the file) stands alone, named by its RECURRENCE-ID.
    const series = master ?? exceptions[0]
    if (series === undefined || series.startDate === null || series.startDate.isDate) continue
    if (text(series.component.getFirstPropertyValue("status")).toUpperCase() === "CANCELLED") continue
    const tzid = (series.component.getFirstProperty("dtstart")?.getParameter("tzid") as string | undefined) ?? null
    const startMs = instantOf(series.startDate, tzid)
    const endMs = series.endDate ? instantOf(series.endDate, tzid) : startMs + 3_600_000
    const instances: Array<DraftInstance> = []
    const cancelledException = (event: InstanceType<typeof ICAL.Event>) =>
      text(event.component.getFirstPropertyValue("status")).toUpperCase() === "CANCELLED"
    if (master?.isRecurring()) {
      for (const exception of exceptions) master.relateException(exception)
      const iterator = master.iterator()
      const last = window.toMs + 86_400_000
      for (let next: Time | undefined = iterator.next(), guard = 0; next && guard < 20_000; next = iterator.next(), guard++) {
        const details: ReturnType<typeof master.getOccurrenceDetails> = master.getOccurrenceDetails(next)
        const originalMs = instantOf(details.recurrenceId, tzid)
        if (originalMs > last) break
        if (details.item !== master && cancelledException(details.item)) continue
        const at = instantOf(details.startDate, tzid)
        if (at < window.fromMs || at >= window.toMs) continue
        instances.push({ originalMs, startMs: at, endMs: instantOf(details.endDate, tzid) })
      }
    } else {
      const original = series.isRecurrenceException() ? instantOf(series.recurrenceId, tzid) : startMs
      if (startMs >= window.fromMs && startMs < window.toMs && !cancelledException(series))
        instances.push({ originalMs: original, startMs, endMs })
    }
    if (instances.length === 0) continue
    const organizer = emailOf(series.component.getFirstPropertyValue("organizer"))
    const description = text(series.description)
    const location = text(series.location) || null
    const conference =
      text(series.component.getFirstPropertyValue("x-google-conference")) ||
      text(series.component.getFirstPropertyValue("x-microsoft-skypeteamsmeetingurl")) ||
      text(series.component.getFirstPropertyValue("url")) ||
      null
    const rule = series.component.getFirstPropertyValue("rrule")
    drafts.push({
      externalId: master === undefined && series.isRecurrenceException() ? `${uid}|${series.recurrenceId.toString()}` : uid,
      title: text(series.summary),
      description,
      location,
      timeZone: tzid !== null && isIanaZone(tzid) ? tzid : "UTC",
      recurrence: rule ? rule.toString() : null,
      attendeeEmails: series.attendees.flatMap((attendee) => emailOf(attendee.getFirstValue()) ?? []),
      organizer: organizer === null || organizer === ownerEmail.toLowerCase(),
      meetingUrl: meetingUrlOf(conference, location, description),
      startMs,
      endMs,
      instances
    })
  }
  return drafts
}
