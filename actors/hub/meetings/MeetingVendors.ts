/**
 * The meeting vendors' adapters: each speaks its kind of vendor's public
 * REST shape to the connection's base URL with the connection's token, and
 * answers in one normalized shape (a meeting; a transcript to import).
 *
 * - videomeet (video-meeting app): `GET {base}/users/me/meetings` → `{meetings: [{id, topic, start_time, duration, join_url}]}`;
 *   `GET {base}/meetings/{id}`; `GET {base}/meetings/{id}/recordings` → `{recording_files: [{file_type: "TRANSCRIPT", download_url}],
 *   participants?: [{email}]}`, the transcript being WebVTT at `download_url`.
 * - workchat (team-meeting app): `GET {base}/me/onlineMeetings` → `{value: [{id, subject, startDateTime, endDateTime, joinWebUrl,
 *   participants: {attendees: [{upn}]}}]}`; `GET {base}/me/onlineMeetings/{id}`; `GET {base}/me/onlineMeetings/{id}/transcripts`
 *   → `{value: [{id}]}`, then `…/transcripts/{tid}/content` (WebVTT).
 * - suite (office suite's meetings): `GET {base}/v2/conferenceRecords` → `{conferenceRecords: [{name: "conferenceRecords/{id}",
 *   startTime, endTime, meetingUri, attendees?: [{email}]}]}`; `GET {base}/v2/conferenceRecords/{id}`;
 *   `GET {base}/v2/conferenceRecords/{id}/transcripts` → `{transcripts: [{name}]}`, then `GET {base}/v2/{name}/entries` →
 *   `{transcriptEntries: [{participantName, text, startTime, endTime}]}`.
 */
import { Effect, Schema } from "effect"
import { reject, type Rejection } from "../../../runtime/Rejection.ts"
import { Timestamp } from "../../Fields.ts"
import type { Connection } from "../connections/Connections.ts"
import type { TranscriptInput } from "../Transcript.ts"
import { vendorJson, vendorRequest } from "./VendorHttp.ts"

export const MeetingVendor = Schema.Literals(["videomeet", "workchat", "suite"])
export type MeetingVendor = typeof MeetingVendor.Type

export const vendorTitles: Record<MeetingVendor, string> = {
  videomeet: "video-meeting app",
  workchat: "team-meeting app",
  suite: "office suite"
}

export const VendorMeeting = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  startAt: Schema.NullOr(Timestamp),
  endAt: Schema.NullOr(Timestamp),
  joinUrl: Schema.NullOr(Schema.String),
  attendeeEmails: Schema.Array(Schema.String)
}).annotate({ identifier: "VendorMeeting" })
export type VendorMeeting = typeof VendorMeeting.Type

type Json = Record<string, unknown>

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)
const isoOf = (value: unknown): string | null => {
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString()
}
const records = (value: unknown): ReadonlyArray<Json> =>
  Array.isArray(value) ? value.filter((item): item is Json => typeof item === "object" && item !== null) : []
const emailsOf = (items: unknown, key: string): ReadonlyArray<string> =>
  records(items).flatMap((item) =>
    typeof item[key] === "string" && String(item[key]).includes("@") ? [String(item[key]).toLowerCase()] : []
  )

interface Adapter {
  readonly listPath: string
  readonly listed: (json: Json) => ReadonlyArray<Json>
  readonly meetingPath: (id: string) => string
  readonly meeting: (json: Json) => VendorMeeting
  readonly transcript: (ask: Ask, id: string) => Effect.Effect<TranscriptInput, Rejection>
}

type Ask = {
  readonly json: (path: string) => Effect.Effect<Json, Rejection>
  readonly text: (pathOrUrl: string) => Effect.Effect<string, Rejection>
  readonly vendor: string
}

const noTranscript = (vendor: string) => reject("conflict", `${vendor} has no transcript of this meeting (yet)`)

const adapters: Record<MeetingVendor, Adapter> = {
  videomeet: {
    listPath: "/users/me/meetings?type=previous_meetings&page_size=100",
    listed: (json) => records(json.meetings),
    meetingPath: (id) => `/meetings/${encodeURIComponent(id)}`,
    meeting: (json) => {
      const startAt = isoOf(json.start_time)
      const minutes = typeof json.duration === "number" ? json.duration : null
      return {
        id: String(json.id ?? ""),
        title: text(json.topic) ?? "Meeting",
        startAt,
        endAt: startAt && minutes !== null ? new Date(Date.parse(startAt) + minutes * 60_000).toISOString() : null,
        joinUrl: text(json.join_url),
        attendeeEmails: emailsOf((json.settings as Json | undefined)?.meeting_invitees, "email")
      }
    },
    transcript: (ask, id) =>
      Effect.gen(function* () {
        const recordings = yield* ask.json(`/meetings/${encodeURIComponent(id)}/recordings`)
        const file = records(recordings.recording_files).find((item) => item.file_type === "TRANSCRIPT")
        const url = text(file?.download_url)
        if (url === null) return yield* noTranscript(ask.vendor)
        return { format: "vtt" as const, text: yield* ask.text(url) }
      })
  },
  workchat: {
    listPath: "/me/onlineMeetings",
    listed: (json) => records(json.value),
    meetingPath: (id) => `/me/onlineMeetings/${encodeURIComponent(id)}`,
    meeting: (json) => ({
      id: String(json.id ?? ""),
      title: text(json.subject) ?? "Meeting",
      startAt: isoOf(json.startDateTime),
      endAt: isoOf(json.endDateTime),
      joinUrl: text(json.joinWebUrl),
      attendeeEmails: emailsOf((json.participants as Json | undefined)?.attendees, "upn")
    }),
    transcript: (ask, id) =>
      Effect.gen(function* () {
        const base = `/me/onlineMeetings/${encodeURIComponent(id)}/transcripts`
        const listed = records((yield* ask.json(base)).value)
        const last = listed.at(-1)
        if (last?.id === undefined) return yield* noTranscript(ask.vendor)
        return { format: "vtt" as const, text: yield* ask.text(`${base}/${encodeURIComponent(String(last.id))}/content?$format=text/vtt`) }
      })
  },
  suite: {
    listPath: "/v2/conferenceRecords",
    listed: (json) => records(json.conferenceRecords),
    meetingPath: (id) => `/v2/conferenceRecords/${encodeURIComponent(id)}`,
    meeting: (json) => ({
      id: String(json.name ?? "").replace(/^conferenceRecords\//, ""),
      title: text(json.title) ?? text(json.space) ?? "Meeting",
      startAt: isoOf(json.startTime),
      endAt: isoOf(json.endTime),
      joinUrl: text(json.meetingUri),
      attendeeEmails: emailsOf(json.attendees, "email")
    }),
    transcript: (ask, id) =>
      Effect.gen(function* () {
        const listed = records((yield* ask.json(`/v2/conferenceRecords/${encodeURIComponent(id)}/transcripts`)).transcripts)
        const name = text(listed.at(-1)?.name)
        if (name === null || !/^conferenceRecords\/[^/]+\/transcripts\/[^/]+$/.test(name)) return yield* noTranscript(ask.vendor)
        const entries = records((yield* ask.json(`/v2/${name}/entries`)).transcriptEntries)
        const origin = Math.min(...entries.map((entry) => Date.parse(String(entry.startTime))).filter((ms) => !Number.isNaN(ms)))
        const segments = entries.flatMap((entry) => {
          const start = Date.parse(String(entry.startTime))
          const end = Date.parse(String(entry.endTime))
          if (Number.isNaN(start) || Number.isNaN(end) || typeof entry.text !== "string") return []
          const speaker = text(entry.participantName) ?? text(entry.participant) ?? "Speaker"
          return [{ speaker: speaker.slice(0, 200), startMs: start - origin, endMs: end - origin, text: entry.text.slice(0, 20_000) }]
        })
        if (segments.length === 0) return yield* noTranscript(ask.vendor)
        return { format: "segments" as const, segments }
      })
  }
}

/** The vendor of a connection, as replies name it. */
export const vendorName = (connection: Connection): string =>
  `the ${vendorTitles[connection.vendor as MeetingVendor] ?? connection.vendor} "${connection.name}"`

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

const askOf = (connection: Connection, token: string): Ask => {
  const vendor = vendorName(connection)
  const authorization = `Bearer ${token}`
  const urlOf = (pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : connection.baseUrl + pathOrUrl)
  return {
    vendor,
    json: (path) => vendorJson({ vendor, method: "GET", url: urlOf(path), authorization }),
    // A download link on another host (a signed storage URL) gets no token: the token is for the vendor's API only.
    text: (pathOrUrl) =>
      vendorRequest({
        vendor,
        method: "GET",
        url: urlOf(pathOrUrl),
        authorization: sameOrigin(urlOf(pathOrUrl), connection.baseUrl) ? authorization : ""
      })
  }
}

const adapterOf = (connection: Connection) => adapters[connection.vendor as MeetingVendor]

/** The vendor's meetings, newest first. */
export const listMeetings = (connection: Connection, token: string) =>
  Effect.map(askOf(connection, token).json(adapterOf(connection).listPath), (json) =>
    adapterOf(connection)
      .listed(json)
      .map(adapterOf(connection).meeting)
      .filter((meeting) => meeting.id !== "")
      .sort((a, b) => (b.startAt ?? "").localeCompare(a.startAt ?? ""))
  )

export const getMeeting = (connection: Connection, token: string, meetingId: string) =>
  Effect.flatMap(askOf(connection, token).json(adapterOf(connection).meetingPath(meetingId)), (json) => {
    const meeting = adapterOf(connection).meeting(json)
    return meeting.id === ""
      ? Effect.fail(reject("bad_gateway", `${vendorName(connection)} answered a meeting without an id`))
      : Effect.succeed(meeting)
  })

/** The meeting's transcript as the recordings pipeline imports it (WebVTT text or segments). */
export const fetchTranscript = (connection: Connection, token: string, meetingId: string) =>
  adapterOf(connection).transcript(askOf(connection, token), meetingId)
