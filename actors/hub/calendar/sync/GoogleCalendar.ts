/**
 * Google Calendar API v3 through a calendar connection (its base URL, e.g.
 * `https://www.googleapis.com`, and its OAuth token):
 * `GET {base}/calendar/v3/calendars/{calendarId}/events?singleEvents=false` page by page (`pageToken`), the last
 * page carrying `nextSyncToken`; later rounds send `syncToken` and get only what changed (deleted events with
 * `status: "cancelled"`). A `410 Gone` means the token expired: the round starts over as a full sync.
 * Series come as one event with `recurrence` lines (expanded here in the event's zone); moved or cancelled
 * occurrences as events with `recurringEventId` and `originalStartTime`.
 */
import { Effect } from "effect"
import { reject } from "../../../../runtime/Rejection.ts"
import type { Connection } from "../../connections/Connections.ts"
import { vendorRequest } from "../../connections/VendorRequest.ts"
import { type DraftInstance, expandRecurrence, isIanaZone, meetingUrlOf, type SeriesDraft, type SyncWindow } from "./SyncedEvents.ts"

type Json = Record<string, any>
const GONE = { gone: true }
const MAX_PAGES = 500

export interface Round {
  /** True when the items are the whole calendar (a first sync, or a restart after 410): the cache is replaced. */
  readonly full: boolean
  readonly items: ReadonlyArray<Json>
  readonly cursor: string
}

export const googleRound = (connection: Connection, calendarId: string, syncToken: string | null) =>
  Effect.gen(function* () {
    let token = syncToken
    let pageToken: string | null = null
    let items: Array<Json> = []
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ singleEvents: "false", maxResults: "250" })
      if (token !== null) query.set("syncToken", token)
      if (pageToken !== null) query.set("pageToken", pageToken)
      const json = yield* vendorRequest(connection, {
        method: "GET",
        path: `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?${query}`,
        goneAs: GONE
      })
      if (json.gone === true) {
        if (token === null) return yield* reject("bad_gateway", "Google Calendar answered 410 to a full sync")
        // The sync token expired: everything is listed again, and replaces what is known.
        token = null
        pageToken = null
        items = []
        continue
      }
      items.push(...(Array.isArray(json.items) ? json.items.filter((item: unknown) => typeof item === "object" && item !== null) : []))
      if (typeof json.nextPageToken === "string" && json.nextPageToken !== "") {
        pageToken = json.nextPageToken
        continue
      }
      if (typeof json.nextSyncToken !== "string" || json.nextSyncToken === "")
        return yield* reject("bad_gateway", "Google Calendar's last page carried no nextSyncToken")
      return { full: token === null, items, cursor: json.nextSyncToken } satisfies Round
    }
    return yield* reject("bad_gateway", `Google Calendar listed more than ${MAX_PAGES} pages`)
  })

/** What a changed item does to the cache: a cancelled series or single meeting is gone; the rest is kept (a cancelled occurrence too, it hides one). */
export const googleChange = (item: Json): { readonly id: string; readonly keep: boolean } | undefined =>
  typeof item.id !== "string"
    ? undefined
    : { id: item.id, keep: !(item.status === "cancelled" && typeof item.recurringEventId !== "string") }

const instant = (time: Json | undefined): number | undefined => {
  const parsed = typeof time?.dateTime === "string" ? Date.parse(time.dateTime) : Number.NaN
  return Number.isNaN(parsed) ? undefined : parsed
}

const emails = (people: unknown): ReadonlyArray<string> =>
  Array.isArray(people) ? people.flatMap((person) => (typeof person?.email === "string" ? [person.email] : [])) : []

/** The series and meetings of a Google calendar (its cached events), occurrences within the window. */
export const googleDrafts = (items: ReadonlyArray<Json>, window: SyncWindow, ownerEmail: string): ReadonlyArray<SeriesDraft> => {
  const exceptions = new Map<string, Array<Json>>()
  for (const item of items)
    if (typeof item.recurringEventId === "string")
      exceptions.set(item.recurringEventId, [...(exceptions.get(item.recurringEventId) ?? []), item])
  const drafts: Array<SeriesDraft> = []
  for (const item of items) {
    if (typeof item.recurringEventId === "string" || item.status === "cancelled") continue
    const startMs = instant(item.start)
    const endMs = instant(item.end)
    // All-day entries (start.date) are not meetings.
    if (startMs === undefined || endMs === undefined) continue
    const zone = typeof item.start.timeZone === "string" && isIanaZone(item.start.timeZone) ? item.start.timeZone : "UTC"
    const lines: ReadonlyArray<string> = Array.isArray(item.recurrence) ? item.recurrence.filter((l: unknown) => typeof l === "string") : []
    const byOriginal = new Map<number, DraftInstance>()
    const originals =
      lines.length > 0 ? expandRecurrence(lines, startMs, zone, window) : startMs >= window.fromMs && startMs < window.toMs ? [startMs] : []
    for (const originalMs of originals) byOriginal.set(originalMs, { originalMs, startMs: originalMs, endMs: originalMs + endMs - startMs })
    for (const exception of exceptions.get(item.id) ?? []) {
      const originalMs = instant(exception.originalStartTime)
      if (originalMs === undefined) continue
      byOriginal.delete(originalMs)
      const at = instant(exception.start)
      const until = instant(exception.end)
      if (exception.status === "cancelled" || at === undefined || until === undefined || at < window.fromMs || at >= window.toMs) continue
      byOriginal.set(originalMs, { originalMs, startMs: at, endMs: until })
    }
    if (byOriginal.size === 0) continue
    const description = typeof item.description === "string" ? item.description : ""
    const location = typeof item.location === "string" && item.location !== "" ? item.location : null
    const video = Array.isArray(item.conferenceData?.entryPoints)
      ? item.conferenceData.entryPoints.find((entry: Json) => entry?.entryPointType === "video")?.uri
      : undefined
    const conference = typeof item.hangoutLink === "string" ? item.hangoutLink : typeof video === "string" ? video : null
    const rule = lines.find((line) => /^RRULE:/i.test(line))
    drafts.push({
      externalId: item.id,
      title: typeof item.summary === "string" ? item.summary : "",
      description,
      location,
      timeZone: zone,
      recurrence: rule === undefined ? null : rule.replace(/^RRULE:/i, ""),
      attendeeEmails: emails(item.attendees),
      organizer: item.organizer?.self === true || String(item.organizer?.email ?? "").toLowerCase() === ownerEmail.toLowerCase(),
      meetingUrl: meetingUrlOf(conference, location, description),
      startMs,
      endMs,
      instances: [...byOriginal.values()]
    })
  }
  return drafts
}
