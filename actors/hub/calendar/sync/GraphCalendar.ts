/**
 * Microsoft Graph's calendar view delta through a connection (base URL
 * `https://graph.microsoft.com/v1.0`, its OAuth token):
 * `GET {base}/me/calendarView/delta?startDateTime=…&endDateTime=…` (with `Prefer: outlook.timezone="UTC"`), then
 * every `@odata.nextLink` until an `@odata.deltaLink`, which the next round follows to get only what changed:
 * removed events as `{id, "@removed": {reason}}`. Graph expands series itself: each occurrence or exception is
 * an item with its `seriesMasterId` and `originalStart`. A `410 Gone` delta link starts over as a full sync;
 * the window is fixed by the first request, so the feed starts over daily to move it.
 */
import { Effect } from "effect"
import { reject } from "../../../../runtime/Rejection.ts"
import type { Connection } from "../../connections/Connections.ts"
import { vendorRequest } from "../../connections/VendorRequest.ts"
import { fromWall } from "../Recurrence.ts"
import type { Round } from "./GoogleCalendar.ts"
import { type DraftInstance, isIanaZone, meetingUrlOf, type SeriesDraft, type SyncWindow } from "./SyncedEvents.ts"

type Json = Record<string, any>
const GONE = { gone: true }
const MAX_PAGES = 500
const PREFER = { prefer: 'odata.maxpagesize=100, outlook.timezone="UTC"' }

export const graphRound = (connection: Connection, deltaLink: string | null, window: SyncWindow) =>
  Effect.gen(function* () {
    const first = () =>
      `/me/calendarView/delta?${new URLSearchParams({
        startDateTime: new Date(window.fromMs).toISOString(),
        endDateTime: new Date(window.toMs).toISOString()
      })}`
    let full = deltaLink === null
    let next: { readonly url: string } | { readonly path: string } = deltaLink === null ? { path: first() } : { url: deltaLink }
    let items: Array<Json> = []
    for (let page = 0; page < MAX_PAGES; page++) {
      const json = yield* vendorRequest(connection, { method: "GET", path: "", ...next, headers: PREFER, goneAs: GONE })
      if (json.gone === true) {
        if (full) return yield* reject("bad_gateway", "Microsoft Graph answered 410 to a full sync")
        // The delta link expired: the whole window is listed again, and replaces what is known.
        full = true
        next = { path: first() }
        items = []
        continue
      }
      items.push(...(Array.isArray(json.value) ? json.value.filter((item: unknown) => typeof item === "object" && item !== null) : []))
      if (typeof json["@odata.nextLink"] === "string") {
        next = { url: json["@odata.nextLink"] }
        continue
      }
      if (typeof json["@odata.deltaLink"] !== "string")
        return yield* reject("bad_gateway", "Microsoft Graph's last page carried no deltaLink")
      return { full, items, cursor: json["@odata.deltaLink"] } satisfies Round
    }
    return yield* reject("bad_gateway", `Microsoft Graph listed more than ${MAX_PAGES} pages`)
  })

/** A removed or cancelled event leaves the cache; anything else is kept as the newest version. */
export const graphChange = (item: Json): { readonly id: string; readonly keep: boolean } | undefined =>
  typeof item.id !== "string" ? undefined : { id: item.id, keep: item["@removed"] === undefined && item.isCancelled !== true }

/** Graph's `{dateTime, timeZone}` (UTC as asked, or an IANA zone) as epoch ms. */
const instant = (time: Json | undefined): number | undefined => {
  if (typeof time?.dateTime !== "string") return undefined
  const wall = Date.parse(`${time.dateTime.replace(/(\.\d{3})\d*$/, "$1").replace(/Z$/, "")}Z`)
  if (Number.isNaN(wall)) return undefined
  const zone = typeof time.timeZone === "string" ? time.timeZone : "UTC"
  return zone !== "UTC" && isIanaZone(zone) ? fromWall(wall, zone) : wall
}

/** The series and meetings of a Graph calendar view (its cached items), grouped by series. */
export const graphDrafts = (items: ReadonlyArray<Json>, window: SyncWindow, ownerEmail: string): ReadonlyArray<SeriesDraft> => {
  const bySeries = new Map<string, Array<{ item: Json; instance: DraftInstance }>>()
  for (const item of items) {
    if (item.type === "seriesMaster" || item.isAllDay === true) continue
    const startMs = instant(item.start)
    const endMs = instant(item.end)
    if (startMs === undefined || endMs === undefined || startMs < window.fromMs || startMs >= window.toMs) continue
    const original = typeof item.originalStart === "string" ? Date.parse(item.originalStart) : Number.NaN
    const key = typeof item.seriesMasterId === "string" ? item.seriesMasterId : item.id
    const instance = { originalMs: Number.isNaN(original) ? startMs : original, startMs, endMs }
    bySeries.set(key, [...(bySeries.get(key) ?? []), { item, instance }])
  }
  const drafts: Array<SeriesDraft> = []
  for (const [externalId, members] of bySeries) {
    members.sort((a, b) => a.instance.originalMs - b.instance.originalMs)
    // The series' own shape is that of an occurrence it did not move (an exception may differ).
    const typical = members.find((member) => member.item.type !== "exception") ?? members[0]!
    const item = typical.item
    const description = typeof item.bodyPreview === "string" ? item.bodyPreview : ""
    const location = typeof item.location?.displayName === "string" && item.location.displayName !== "" ? item.location.displayName : null
    const conference =
      typeof item.onlineMeeting?.joinUrl === "string"
        ? item.onlineMeeting.joinUrl
        : typeof item.onlineMeetingUrl === "string"
          ? item.onlineMeetingUrl
          : null
    const attendees = Array.isArray(item.attendees)
      ? item.attendees.flatMap((attendee: Json) =>
          typeof attendee?.emailAddress?.address === "string" ? [attendee.emailAddress.address] : []
        )
      : []
    const zone =
      typeof item.originalStartTimeZone === "string" && isIanaZone(item.originalStartTimeZone) ? item.originalStartTimeZone : "UTC"
    drafts.push({
      externalId,
      title: typeof item.subject === "string" ? item.subject : "",
      description,
      location,
      timeZone: zone,
      recurrence: null,
      attendeeEmails: attendees,
      organizer:
        item.isOrganizer === true || String(item.organizer?.emailAddress?.address ?? "").toLowerCase() === ownerEmail.toLowerCase(),
      meetingUrl: meetingUrlOf(conference, location, description),
      startMs: typical.instance.originalMs,
      endMs: typical.instance.originalMs + typical.instance.endMs - typical.instance.startMs,
      instances: members.map((member) => member.instance)
    })
  }
  return drafts
}
