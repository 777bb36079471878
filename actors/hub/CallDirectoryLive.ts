/**
 * The calls service's side of the CallDirectory port (tags, shares, views and
 * the meeting report ask it about calls): a call's facts from its HubCall
 * actor (recording, transcript, participants), a workspace's calls in a
 * period from the recording rows. Installed by the hub extension at startup.
 */
import { type Context, Effect } from "effect"
import type { Sql } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { HubCall } from "./CallActor.ts"
import { recordingIdOfCall } from "./CallLookup.ts"
import { type RecordingRecord, recordingRows } from "./CallRecords.ts"
import type { CallDirectoryShape, CallFacts } from "./people/CallDirectory.ts"
import type { Segment } from "./Transcript.ts"

const LATEST = Date.UTC(9999, 0, 1)

export const callFacts = (
  recording: RecordingRecord,
  segments: ReadonlyArray<Segment>,
  participantUserIds: ReadonlyArray<string>
): CallFacts => {
  const userByName = new Map(
    recording.attendees.flatMap((a) => (a.name !== null && a.userId !== null ? [[a.name.toLowerCase(), a.userId] as const] : []))
  )
  const talk = new Map<string, number>()
  for (const s of segments) talk.set(s.speaker, (talk.get(s.speaker) ?? 0) + Math.max(0, s.endMs - s.startMs))
  return {
    callId: recording.callId,
    callUuid: recording.callUuid,
    workspaceId: recording.workspaceId,
    name: recording.name,
    createdAt: recording.createdAt,
    durationMs: recording.media?.durationMs ?? segments.reduce((end, s) => Math.max(end, s.endMs), 0),
    status: recording.status,
    participantUserIds,
    attendeeEmails: recording.attendees.map((a) => a.email.toLowerCase()),
    speakers: [...talk].map(([name, talkMs]) => ({ name, userId: userByName.get(name.toLowerCase()) ?? null, talkMs }))
  }
}

const factsOfRecording = (recordingId: number) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const id = String(recordingId)
    const recording = yield* system.ask(HubCall, id, "recording", {})
    const segments = yield* system.ask(HubCall, id, "transcript", {})
    const participants = yield* system.ask(HubCall, id, "participantIds", {})
    return callFacts(recording, segments, participants)
  })

/** What the live call directory runs its reads with. */
export type CallDirectoryServices = ActorSystem | Sql

export const callDirectoryLive = (context: Context.Context<CallDirectoryServices>): CallDirectoryShape => ({
  call: (callId) =>
    recordingIdOfCall(callId).pipe(
      Effect.flatMap(factsOfRecording),
      Effect.catchIf(
        (error) => (error._tag === "Rejection" && error.code === "not_found") || error._tag === "HubRecordingNotFound",
        () => Effect.succeed(undefined)
      ),
      Effect.orDie,
      Effect.provideContext(context)
    ),
  callsIn: (workspaceId, from, to) =>
    recordingRows("r.workspace_id = $1 AND r.created_at >= $2 AND r.created_at < $3 ORDER BY r.created_at, r.id", [
      workspaceId,
      new Date(Math.max(0, from)).toISOString(),
      new Date(Math.min(to, LATEST)).toISOString()
    ]).pipe(
      Effect.flatMap((rows) => Effect.forEach(rows, (row) => factsOfRecording(row.id), { concurrency: 8 })),
      Effect.orDie,
      Effect.provideContext(context)
    )
})
