/**
 * Meeting analytics of a workspace over a period, computed from the calls'
 * facts (CallDirectory) and their tags: how many meetings, how long, who
 * talked how much, who took part, by week and by tag. Pure.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../../Fields.ts"
import type { CallFacts } from "./CallDirectory.ts"

export const MeetingReport = Schema.Struct({
  workspaceId: Id,
  from: Timestamp,
  to: Timestamp,
  meetings: Schema.Number,
  processedMeetings: Schema.Number,
  failedMeetings: Schema.Number,
  totalDurationMs: Schema.Number,
  averageDurationMs: Schema.Number,
  totalTalkMs: Schema.Number,
  uniqueParticipants: Schema.Number,
  byWeek: Schema.Array(Schema.Struct({ weekStart: Schema.String, meetings: Schema.Number, durationMs: Schema.Number })),
  speakers: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      userId: Schema.NullOr(Id),
      talkMs: Schema.Number,
      talkShare: Schema.Number,
      meetings: Schema.Number
    })
  ),
  participants: Schema.Array(Schema.Struct({ userId: Id, meetings: Schema.Number, durationMs: Schema.Number })),
  tags: Schema.Array(Schema.Struct({ tagId: Id, name: Schema.String, meetings: Schema.Number }))
}).annotate({ identifier: "MeetingReport" })
export type MeetingReport = typeof MeetingReport.Type

const DAY_MS = 86_400_000
/** The Monday (UTC date) of the week `ms` falls in. */
export const weekStartOf = (ms: number): string => {
  const day = Math.floor(ms / DAY_MS)
  const monday = day - ((new Date(day * DAY_MS).getUTCDay() + 6) % 7)
  return new Date(monday * DAY_MS).toISOString().slice(0, 10)
}

const bump = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by)

export const meetingReport = (
  workspaceId: string,
  from: number,
  to: number,
  calls: ReadonlyArray<CallFacts>,
  tagsOf: (callId: number) => ReadonlyArray<{ readonly id: string; readonly name: string }>
): MeetingReport => {
  const weeks = new Map<string, { meetings: number; durationMs: number }>()
  const speakers = new Map<string, { name: string; userId: string | null; talkMs: number; meetings: Set<number> }>()
  const participantMeetings = new Map<string, number>()
  const participantDuration = new Map<string, number>()
  const tagMeetings = new Map<string, { name: string; meetings: number }>()
  let totalDurationMs = 0
  let totalTalkMs = 0
  for (const call of calls) {
    totalDurationMs += call.durationMs
    const week = weekStartOf(Date.parse(call.createdAt))
    const entry = weeks.get(week) ?? { meetings: 0, durationMs: 0 }
    weeks.set(week, { meetings: entry.meetings + 1, durationMs: entry.durationMs + call.durationMs })
    for (const speaker of call.speakers) {
      totalTalkMs += speaker.talkMs
      const key = speaker.userId ?? `name:${speaker.name.toLowerCase()}`
      const known = speakers.get(key) ?? { name: speaker.name, userId: speaker.userId, talkMs: 0, meetings: new Set<number>() }
      known.talkMs += speaker.talkMs
      known.meetings.add(call.callId)
      speakers.set(key, known)
    }
    for (const userId of new Set(call.participantUserIds)) {
      bump(participantMeetings, userId)
      bump(participantDuration, userId, call.durationMs)
    }
    for (const tag of tagsOf(call.callId))
      tagMeetings.set(tag.id, { name: tag.name, meetings: (tagMeetings.get(tag.id)?.meetings ?? 0) + 1 })
  }
  return {
    workspaceId,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    meetings: calls.length,
    processedMeetings: calls.filter((call) => call.status === "ready").length,
    failedMeetings: calls.filter((call) => call.status === "failed").length,
    totalDurationMs,
    averageDurationMs: calls.length === 0 ? 0 : Math.round(totalDurationMs / calls.length),
    totalTalkMs,
    uniqueParticipants: participantMeetings.size,
    byWeek: [...weeks].sort(([a], [b]) => a.localeCompare(b)).map(([weekStart, value]) => ({ weekStart, ...value })),
    speakers: [...speakers.values()]
      .map((s) => ({
        name: s.name,
        userId: s.userId,
        talkMs: s.talkMs,
        talkShare: totalTalkMs === 0 ? 0 : Math.round((s.talkMs / totalTalkMs) * 10_000) / 10_000,
        meetings: s.meetings.size
      }))
      .sort((a, b) => b.talkMs - a.talkMs || a.name.localeCompare(b.name)),
    participants: [...participantMeetings]
      .map(([userId, meetings]) => ({ userId, meetings, durationMs: participantDuration.get(userId) ?? 0 }))
      .sort((a, b) => b.meetings - a.meetings || a.userId.localeCompare(b.userId)),
    tags: [...tagMeetings]
      .map(([tagId, value]) => ({ tagId, ...value }))
      .sort((a, b) => b.meetings - a.meetings || a.name.localeCompare(b.name))
  }
}
