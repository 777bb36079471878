/**
 * What every calendar adapter hands over — a series (or single meeting) with
 * its occurrences already expanded within the synced window — and how it
 * becomes a hub calendar event: a stable id derived from the feed and the
 * suite's id (so series and occurrence prompts survive re-syncs), occurrences
 * named by their original start, and the meeting's video link for the bot.
 * Also the wall-clock recurrence expansion the API adapters share: a rule is
 * expanded in the event's zone (ical.js over floating times, then each wall
 * time placed in the IANA zone), so 9:00 stays 9:00 across DST changes.
 */
import { createHash } from "node:crypto"
import ICAL from "ical.js"
import { normalizeEmail } from "../../../Fields.ts"
import type { SyncedEventInput } from "../Calendar.ts"
import type { SyncProvider } from "../CalendarEvent.ts"
import { fromWall, toWall } from "../Recurrence.ts"

export interface DraftInstance {
  readonly originalMs: number
  readonly startMs: number
  readonly endMs: number
}

/** One series or single meeting as a suite describes it, occurrences expanded (cancelled ones left out). */
export interface SeriesDraft {
  readonly externalId: string
  readonly title: string
  readonly description: string
  readonly location: string | null
  readonly timeZone: string
  readonly recurrence: string | null
  readonly attendeeEmails: ReadonlyArray<string>
  readonly organizer: boolean
  readonly meetingUrl: string | null
  readonly startMs: number
  readonly endMs: number
  readonly instances: ReadonlyArray<DraftInstance>
}

export interface SyncWindow {
  readonly fromMs: number
  readonly toMs: number
}

const WINDOW_PAST_DAYS = 30
const DAY_MS = 86_400_000

/** How far ahead occurrences are synced (`HUB_CALENDAR_WINDOW_DAYS`, default 120), and 30 days back. */
export const windowAt = (nowMs: number): SyncWindow => {
  const ahead = Number(process.env.HUB_CALENDAR_WINDOW_DAYS || 120)
  return { fromMs: nowMs - WINDOW_PAST_DAYS * DAY_MS, toMs: nowMs + (Number.isFinite(ahead) && ahead > 0 ? ahead : 120) * DAY_MS }
}

/** A UUID (version 5 layout) from the feed and the suite's id: the same meeting keeps its id over every sync. */
export const syncedEventId = (feedId: string, externalId: string): string => {
  const hash = createHash("sha1").update(`${feedId}\n${externalId}`).digest()
  hash[6] = (hash[6]! & 0x0f) | 0x50
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const VIDEO_HOSTS =
  /https:\/\/[^\s"<>]*(?:zoom\.us|zoom\.com|meet\.google\.com|teams\.microsoft\.com|teams\.live\.com|webex\.com|whereby\.com|meet\.jit\.si|gotomeeting\.com|chime\.aws)[^\s"<>]*/i
const ANY_URL = /^https?:\/\/\S+$/

/** The meeting's video link: the suite's own conference link, else a URL location, else a known video host in the description. */
export const meetingUrlOf = (conference: string | null, location: string | null, description: string): string | null => {
  if (conference !== null && ANY_URL.test(conference.trim())) return conference.trim()
  const place = location?.trim() ?? ""
  if (ANY_URL.test(place)) return place
  return VIDEO_HOSTS.exec(place)?.[0] ?? VIDEO_HOSTS.exec(description)?.[0] ?? null
}

export const isIanaZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const MAX_TEXT = { title: 300, description: 5000, location: 500 }

/** The hub event a draft becomes in the feed owner's calendar (bounded like hand-made events). */
export const toSyncedInput = (feedId: string, provider: SyncProvider, draft: SeriesDraft): SyncedEventInput => {
  const instances = [...draft.instances].sort((a, b) => a.originalMs - b.originalMs)
  const duration = draft.endMs - draft.startMs
  const moved: Record<string, { start: string; end: string }> = {}
  for (const instance of instances) {
    if (instance.startMs !== instance.originalMs || instance.endMs - instance.startMs !== duration)
      moved[new Date(instance.originalMs).toISOString()] = {
        start: new Date(instance.startMs).toISOString(),
        end: new Date(instance.endMs).toISOString()
      }
  }
  return {
    id: syncedEventId(feedId, draft.externalId),
    title: (draft.title.trim() || "(no title)").slice(0, MAX_TEXT.title),
    description: draft.description.slice(0, MAX_TEXT.description),
    location: draft.location === null ? null : draft.location.slice(0, MAX_TEXT.location),
    start: new Date(draft.startMs).toISOString(),
    end: new Date(draft.endMs).toISOString(),
    recurrence: draft.recurrence === null ? null : draft.recurrence.slice(0, 500),
    timeZone: isIanaZone(draft.timeZone) ? draft.timeZone : "UTC",
    attendeeEmails: [...new Set(draft.attendeeEmails.map(normalizeEmail).filter((email) => /^[^\s@]+@[^\s@]+$/.test(email)))].slice(0, 200),
    synced: {
      feedId,
      provider,
      externalId: draft.externalId,
      meetingUrl: draft.meetingUrl,
      organizer: draft.organizer,
      occurrences: [...new Set(instances.map((instance) => new Date(instance.originalMs).toISOString()))],
      moved
    }
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")
/** `YYYYMMDDTHHMMSS` of a wall-clock time held as if it were UTC. */
const wallStamp = (wallMs: number) => {
  const d = new Date(wallMs)
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
}
const parseStamp = (text: string): number | undefined => {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?$/.exec(text)
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) : undefined
}

/**
 * An RFC 5545 date-time value (`20261208T090000Z`, or a wall time with its TZID, or a DATE) as a wall time in
 * `zone`, held as if UTC; undefined when unreadable.
 */
const wallIn = (value: string, tzid: string | undefined, zone: string): number | undefined => {
  const utc = value.endsWith("Z")
  const wall = parseStamp(utc ? value.slice(0, -1) : value)
  if (wall === undefined) return undefined
  const instant = utc ? wall : tzid !== undefined && tzid !== zone && isIanaZone(tzid) ? fromWall(wall, tzid) : undefined
  return instant === undefined ? wall : toWall(instant, zone)
}

/**
 * The occurrences (original starts, epoch ms) of a series starting at `startMs` in the IANA `zone`, from its
 * RFC 5545 recurrence lines (`RRULE:…`, `EXDATE;TZID=…:…`, `RDATE:…`), within the window.
 */
export const expandRecurrence = (
  lines: ReadonlyArray<string>,
  startMs: number,
  zone: string,
  window: SyncWindow
): ReadonlyArray<number> => {
  const startWall = toWall(startMs, zone)
  const properties: Array<string> = []
  for (const line of lines) {
    const match = /^(RRULE|EXRULE|EXDATE|RDATE)((?:;[^:]*)?):(.*)$/i.exec(line.trim())
    if (!match) continue
    const name = match[1]!.toUpperCase()
    const params = match[2] ?? ""
    if (name === "RRULE" || name === "EXRULE") {
      // UNTIL in UTC becomes the wall time in the zone: the series is expanded in floating (wall-clock) time.
      const rule = match[3]!.replace(
        /UNTIL=(\d{8}T\d{6})Z/i,
        (_, until: string) => `UNTIL=${wallStamp(wallIn(`${until}Z`, undefined, zone)!)}`
      )
      properties.push(`${name}:${rule}`)
      continue
    }
    const tzid = /;TZID=([^;:]+)/i.exec(params)?.[1]
    const dateOnly = /VALUE=DATE(?!-)/i.test(params)
    const walls = match[3]!
      .split(",")
      .flatMap((value) => {
        const wall = wallIn(value.trim(), tzid, zone)
        return wall === undefined ? [] : [dateOnly ? wall + (startWall % 86_400_000) : wall]
      })
      .map(wallStamp)
    if (walls.length > 0) properties.push(`${name}:${walls.join(",")}`)
  }
  const text = ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", `DTSTART:${wallStamp(startWall)}`, ...properties, "END:VEVENT", "END:VCALENDAR"]
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text.join("\r\n"))).getFirstSubcomponent("vevent")!)
  const iterator = event.iterator()
  const result: Array<number> = []
  const lastWall = toWall(window.toMs, zone) + DAY_MS
  for (let next: ICAL.Time | undefined = iterator.next(), guard = 0; next && guard < 20_000; next = iterator.next(), guard++) {
    const wall = next.toUnixTime() * 1000
    if (wall > lastWall) break
    const at = fromWall(wall, zone)
    if (at >= window.fromMs && at < window.toMs) result.push(at)
  }
  return result
}
