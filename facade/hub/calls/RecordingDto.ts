/** The recording as the API shows it: its metadata, status and media, with the caller's own version. */
import { Effect, Schema } from "effect"
import { Attendee, ChunkProgress, ProcessingStage, type RecordingRecord, RecordingStatus } from "../../../actors/hub/CallRecords.ts"
import { CallActionItem, NotesVersion } from "../../../actors/hub/CallView.ts"
import { Id, Timestamp } from "../../../actors/Fields.ts"
import { type CallAccess, callView } from "./CallAccess.ts"
import { exampleCall, exampleIds } from "./Examples.ts"

export const MediaSummary = Schema.Struct({
  contentType: Schema.String,
  size: Schema.Number,
  durationMs: Schema.NullOr(Schema.Number),
  hasAudio: Schema.Boolean,
  hasVideo: Schema.Boolean,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  frameCount: Schema.Number
}).annotate({ identifier: "RecordingMedia" })

export const Recording = Schema.Struct({
  id: Schema.Number.annotate({ description: "Recording id (64-bit integer)" }),
  callId: Schema.Number,
  callUuid: Id,
  workspaceId: Id,
  name: Schema.String,
  status: RecordingStatus,
  percent: Schema.Number,
  error: Schema.NullOr(Schema.String),
  attendees: Schema.Array(Attendee),
  calendarEventId: Schema.NullOr(Schema.String),
  media: Schema.NullOr(MediaSummary),
  summary: Schema.String,
  keyPoints: Schema.Array(Schema.String),
  actionItems: Schema.Array(CallActionItem),
  enhancedNotes: Schema.String,
  userNotes: Schema.NullOr(Schema.String),
  notesVersion: NotesVersion,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "Recording",
  description: "A recording with the caller's own summary, key points, action items and enhanced notes"
})

export const Progress = Schema.Struct({
  id: Schema.Number,
  status: RecordingStatus,
  percent: Schema.Number.annotate({ description: "0–100" }),
  error: Schema.NullOr(Schema.String),
  stage: Schema.NullOr(ProcessingStage).annotate({
    description: "What the running job does now: extracting media, transcribing speech or summarizing; null when no job runs"
  }),
  chunks: Schema.NullOr(ChunkProgress.annotate({ identifier: "TranscriptionChunks" })).annotate({
    description: "While transcribing: audio chunks transcribed so far, of all"
  })
}).annotate({ identifier: "RecordingProgress" })

export const progressOf = (recording: RecordingRecord) => ({
  id: recording.id,
  status: recording.status,
  percent: recording.percent,
  error: recording.error,
  stage: recording.stage,
  chunks: recording.chunks
})

export const mediaSummary = (recording: RecordingRecord) =>
  recording.media === null
    ? null
    : {
        contentType: recording.media.contentType,
        size: recording.media.size,
        durationMs: recording.media.durationMs,
        hasAudio: recording.media.hasAudio,
        hasVideo: recording.media.hasVideo,
        width: recording.media.width,
        height: recording.media.height,
        frameCount: recording.media.frames.length
      }

/** The recording with the caller's version. */
export const recordingView = (access: CallAccess) =>
  Effect.map(callView(access), (call) => ({
    id: access.recording.id,
    callId: call.id,
    callUuid: call.uuid,
    workspaceId: call.workspaceId,
    name: call.name,
    status: access.recording.status,
    percent: access.recording.percent,
    error: access.recording.error,
    attendees: call.attendees,
    calendarEventId: call.calendarEventId,
    media: mediaSummary(access.recording),
    summary: call.summary,
    keyPoints: call.keyPoints,
    actionItems: call.actionItems,
    enhancedNotes: call.enhancedNotes,
    userNotes: call.userNotes,
    notesVersion: call.notesVersion,
    createdAt: call.createdAt,
    updatedAt: call.updatedAt
  }))

export const exampleRecording = {
  id: exampleIds.recordingId,
  callId: exampleCall.id,
  callUuid: exampleCall.uuid,
  workspaceId: exampleCall.workspaceId,
  name: exampleCall.name,
  status: "ready",
  percent: 100,
  error: null,
  attendees: exampleCall.attendees,
  calendarEventId: null,
  media: null,
  summary: exampleCall.summary,
  keyPoints: exampleCall.keyPoints,
  actionItems: exampleCall.actionItems,
  enhancedNotes: exampleCall.enhancedNotes,
  userNotes: exampleCall.userNotes,
  notesVersion: exampleCall.notesVersion,
  createdAt: exampleCall.createdAt,
  updatedAt: exampleCall.updatedAt
}
