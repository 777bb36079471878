/**
 * hub tag "Recordings" (10): create a recording from an imported transcript
 * and/or an uploaded media file, follow its asynchronous processing, regenerate
 * its summaries or reprocess it fully, and get short-lived signed URLs for its
 * audio and video. Every recording in a reply carries the caller's own version.
 */
import { Effect, Schema } from "effect"
import { removeFile, storeFile } from "../../actors/Files.ts"
import { parseOccurrenceId } from "../../actors/hub/calendar/CalendarEvent.ts"
import { HubCall } from "../../actors/hub/CallActor.ts"
import { recordingRows } from "../../actors/hub/CallRecords.ts"
import { originalKey } from "../../actors/hub/Processing.ts"
import { createRecording } from "../../actors/hub/RecordingWrites.ts"
import { signedUrl } from "../../actors/hub/SignedUrls.ts"
import { parseTranscript, TranscriptInput } from "../../actors/hub/Transcript.ts"
import { Workspace } from "../../actors/identity/Workspace.ts"
import { Email, Id, Name, Timestamp } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { IntegerId, onRecording, RecordingParams } from "./calls/CallAccess.ts"

import { MEDIA_TYPES, MAX_MEDIA_BYTES, sniffMedia } from "./calls/MediaTypes.ts"
import { Progress, progressOf, Recording, recordingView } from "./calls/RecordingDto.ts"
import { recordingsExamples, params } from "./Recordings.examples.ts"

const tag = "Recordings"
const service = "hub"

const { operation } = tagGroup(service, tag, recordingsExamples)
const read = ["recordings:read"]
const write = ["recordings:write"]

const Created = Schema.Struct({
  id: Schema.Number.annotate({ description: "Recording id (64-bit integer)" }),
  callId: Schema.Number,
  callUuid: Id,
  status: Schema.Literals(["queued", "processing", "ready", "failed"])
}).annotate({ identifier: "RecordingCreated" })

const SignedUrl = Schema.Struct({ url: Schema.String, expiresAt: Timestamp }).annotate({ identifier: "SignedUrl" })

/** Signs a URL for one of the recording's assets, once it exists. */
const assetUrl = (recordingId: number, asset: "audio" | "video", origin: string, present: boolean) =>
  present ? signedUrl(origin, recordingId, asset) : Effect.fail(reject("not_found", `This recording has no ${asset} (yet)`))

const requeueOperation = (operationId: string, path: string, summary: string, kind: "summarize" | "process") =>
  operation({
    operationId,
    method: "POST",
    path,
    summary,
    auth: "both",
    scopes: write,
    params: RecordingParams,
    responses: { 202: { description: "Queued; follow the progress", schema: Progress }, 409: { description: "Already being processed" } },
    examples: [
      {
        name: kind,
        request: { params },
        response: { status: 202, body: { id: 1, status: "queued", percent: 0, error: null, stage: null, chunks: null } }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onRecording(context, params.recordingId, "member")
        return progressOf(yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "requeue", { kind }))
      })
  })

export const recordingsOperations = [
  operation({
    operationId: "createRecording",
    method: "POST",
    path: "/v1/recordings",
    summary: "Create a recording from an imported transcript (JSON segments, WebVTT or SRT); processing is asynchronous",
    description:
      "Answers 202 at once with the recording id, the call id and UUID; follow `getRecordingProgress`. Attach the media file with `uploadRecordingMedia` (frames and audio are extracted). Attendees who are members become participants, each with their own version. `calendarEventId` is the calendar occurrence the meeting belongs to: participants' series and occurrence prompts apply.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: Id,
      name: Name(300),
      transcript: Schema.optionalKey(TranscriptInput),
      attendeeEmails: Schema.optionalKey(Schema.Array(Email).check(Schema.isMaxLength(200))),
      calendarEventId: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)))
    }),
    responses: {
      202: { description: "Accepted for processing", schema: Created },
      400: { description: "Broken transcript (the message names the cue and the problem)" },
      413: { description: "Transcript too large" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, body.workspaceId, "member")
        const principal = yield* principalOf(context)
        if (body.calendarEventId !== undefined && parseOccurrenceId(body.calendarEventId) === undefined)
          return yield* reject("invalid", "calendarEventId is not a calendar occurrence id", [
            { path: "body.calendarEventId", message: "expected <event UUID>_<YYYYMMDDTHHMMSSZ> (listCalendarEvents' occurrenceId)" }
          ])
        const segments = body.transcript ? yield* parseTranscript(body.transcript) : []
        const ws = yield* Workspace.client(yield* ActorSystem)(body.workspaceId).view({ by: principal.userId })
        return yield* Effect.orDie(
          createRecording({
            workspaceId: body.workspaceId,
            createdBy: principal.userId,
            name: body.name.trim(),
            segments,
            attendeeEmails: body.attendeeEmails ?? [],
            memberIds: new Set(ws.members.map((m) => m.userId)),
            calendarEventId: body.calendarEventId ?? null
          })
        )
      })
  }),
  operation({
    operationId: "listRecordings",
    method: "GET",
    path: "/v1/recordings",
    summary: "The workspace's recordings, newest first, each with the caller's own version",
    auth: "both",
    scopes: read,
    query: Schema.Struct({
      workspaceId: Id,
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 50 }))),
      before: Schema.optionalKey(IntegerId("nextBefore of the previous page"))
    }),
    responses: {
      200: {
        description: "A page of recordings",
        schema: Schema.Struct({ items: Schema.Array(Recording), nextBefore: Schema.NullOr(Schema.Number) })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, query.workspaceId)
        const limit = query.limit ?? 20
        const rows = yield* Effect.orDie(
          recordingRows(`r.workspace_id = $1 AND r.id < $2 ORDER BY r.id DESC LIMIT ${limit + 1}`, [
            query.workspaceId,
            query.before ?? Number.MAX_SAFE_INTEGER
          ])
        )
        const page = rows.slice(0, limit)
        const items = yield* Effect.forEach(page, (row) => Effect.flatMap(onRecording(context, Number(row.id)), recordingView), {
          concurrency: 8
        })
        return { items, nextBefore: rows.length > limit ? Number(page[page.length - 1]!.id) : null }
      })
  }),
  operation({
    operationId: "getRecording",
    method: "GET",
    path: "/v1/recordings/{recordingId}",
    summary: "A recording with its status, media and the caller's own summary, key points, action items and enhanced notes",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "The recording", schema: Recording } },
    handler: ({ params }, context) => Effect.flatMap(onRecording(context, params.recordingId), recordingView)
  }),
  operation({
    operationId: "getRecordingProgress",
    method: "GET",
    path: "/v1/recordings/{recordingId}/progress",
    summary: "Processing progress: queued, processing, ready or failed, and a percentage",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "Progress", schema: Progress } },
    handler: ({ params }, context) => Effect.map(onRecording(context, params.recordingId), (access) => progressOf(access.recording))
  }),
  requeueOperation(
    "regenerateRecordingSummary",
    "/v1/recordings/{recordingId}/regenerate-summary",
    "Regenerate every version's summary, key points, action items and enhanced notes from the transcript",
    "summarize"
  ),
  requeueOperation(
    "reprocessRecording",
    "/v1/recordings/{recordingId}/reprocess",
    "Reprocess the recording fully: media extraction, then every version",
    "process"
  ),
  operation({
    operationId: "getRecordingAudioUrl",
    method: "GET",
    path: "/v1/recordings/{recordingId}/audio-url",
    summary: "A short-lived signed URL to download the recording's audio (MP3)",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "Signed URL", schema: SignedUrl }, 404: { description: "No audio (no media, or not processed yet)" } },
    handler: ({ params }, context) =>
      Effect.flatMap(onRecording(context, params.recordingId), (access) =>
        assetUrl(params.recordingId, "audio", context.origin, access.recording.media?.audioKey != null)
      )
  }),
  operation({
    operationId: "getRecordingVideoUrl",
    method: "GET",
    path: "/v1/recordings/{recordingId}/video-url",
    summary: "A short-lived signed URL to download the recording's video (the uploaded file)",
    auth: "both",
    scopes: read,
    params: RecordingParams,
    responses: { 200: { description: "Signed URL", schema: SignedUrl }, 404: { description: "No video" } },
    handler: ({ params }, context) =>
      Effect.flatMap(onRecording(context, params.recordingId), (access) =>
        assetUrl(params.recordingId, "video", context.origin, access.recording.media?.hasVideo === true)
      )
  }),
  operation({
    operationId: "uploadRecordingMedia",
    method: "PUT",
    path: "/v1/recordings/{recordingId}/media",
    summary: "Upload the recording's audio or video file (the request body is the file); it is then reprocessed",
    description: `Content-Type one of ${MEDIA_TYPES.join(", ")}; at most ${MAX_MEDIA_BYTES / (1024 * 1024)} MiB. Audio and preview frames are extracted with ffmpeg.`,
    auth: "both",
    scopes: write,
    params: RecordingParams,
    upload: { contentTypes: MEDIA_TYPES, maxBytes: MAX_MEDIA_BYTES },
    responses: {
      202: { description: "Stored and queued", schema: Progress },
      413: { description: "Too large" },
      415: { description: "Not an accepted media type, or the bytes are not of that type" }
    },
    handler: ({ params, upload }, context) =>
      Effect.gen(function* () {
        yield* onRecording(context, params.recordingId, "member")
        if (upload === undefined)
          return yield* reject("invalid", "Send the media file as the request body", [{ path: "body", message: "missing" }])
        if (!sniffMedia(upload.contentType, upload.bytes))
          return yield* reject("unsupported_media_type", `The file is not ${upload.contentType}`, [
            { path: "body", message: `content does not match ${upload.contentType}` }
          ])
        yield* storeFile(originalKey(params.recordingId), upload)
        const media = {
          contentType: upload.contentType,
          size: upload.bytes.length,
          durationMs: null,
          hasAudio: false,
          hasVideo: upload.contentType.startsWith("video/"),
          width: null,
          height: null,
          audioKey: null,
          frames: []
        }
        return progressOf(yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "attachMedia", { media }))
      })
  }),
  operation({
    operationId: "deleteRecording",
    method: "DELETE",
    path: "/v1/recordings/{recordingId}",
    summary: "Delete a recording, its call, transcript, versions and media",
    auth: "both",
    scopes: write,
    params: RecordingParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const access = yield* onRecording(context, params.recordingId, "member")
        yield* (yield* ActorSystem).ask(HubCall, String(params.recordingId), "delete", {})
        const keys = [
          originalKey(params.recordingId),
          access.recording.media?.audioKey,
          ...(access.recording.media?.frames.map((f) => f.key) ?? [])
        ]
        yield* Effect.forEach(keys, (key) => (key ? Effect.ignore(removeFile(key)) : Effect.void), { discard: true })
      })
  })
]
