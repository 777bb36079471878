/**
 * A call as one user sees it: the recording's metadata, and the caller's own
 * version (summary, key points, action items, enhanced notes) with
 * `notesVersion {id, isDefault}` saying which version it is; `userNotes` is
 * only the caller's own.
 */
import { Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { ActionStatus, Attendee, type CallState, RecordingStatus } from "./CallRecords.ts"
import type { VersionContent } from "./summarizer/VersionContent.ts"
import { inputKey, isDefaultInputs, type VersionInputs } from "./summarizer/VersionInputs.ts"

export const CallActionItem = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  owner: Schema.optionalKey(Schema.String),
  dueDate: Schema.optionalKey(Schema.String),
  status: ActionStatus,
  assigneeEmail: Schema.NullOr(Schema.String)
}).annotate({ identifier: "CallActionItem" })
export type CallActionItem = typeof CallActionItem.Type

export const NotesVersion = Schema.Struct({
  id: Schema.String.annotate({ description: "The version's id: equal for everyone whose inputs are equal" }),
  isDefault: Schema.Boolean.annotate({
    description: "The default version (workspace prompt only), shared by everyone without personal inputs"
  })
}).annotate({ identifier: "NotesVersion" })

export const Call = Schema.Struct({
  id: Schema.Number.annotate({ description: "Call id (integer)" }),
  uuid: Id.annotate({ description: "Call UUID (the selection endpoints take it)" }),
  recordingId: Schema.Number.annotate({ description: "Recording id (64-bit integer)" }),
  workspaceId: Id,
  name: Schema.String,
  attendees: Schema.Array(Attendee),
  calendarEventId: Schema.NullOr(Schema.String),
  status: RecordingStatus,
  summary: Schema.String,
  keyPoints: Schema.Array(Schema.String),
  actionItems: Schema.Array(CallActionItem),
  enhancedNotes: Schema.String,
  userNotes: Schema.NullOr(Schema.String).annotate({ description: "The caller's own notes only" }),
  myPrompt: Schema.NullOr(Schema.String).annotate({ description: "The caller's own per-call prompt" }),
  notesVersion: NotesVersion,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Call" })
export type Call = typeof Call.Type

const empty: VersionContent = { summary: "", keyPoints: [], actionItems: [], enhancedNotes: "" }

/** The call for `userId` whose inputs are `inputs` (the version must exist when the recording is ready). */
export const callFor = (state: CallState, userId: string, inputs: VersionInputs): Call => {
  const key = inputKey(inputs)
  const recording = state.recording
  const content = state.versions[key]?.content ?? empty
  const personal = state.participants[userId]
  return {
    id: recording.callId,
    uuid: recording.callUuid,
    recordingId: recording.id,
    workspaceId: recording.workspaceId,
    name: recording.name,
    attendees: recording.attendees,
    calendarEventId: recording.calendarEventId,
    status: recording.status,
    summary: content.summary,
    keyPoints: content.keyPoints,
    actionItems: content.actionItems.map((item) => ({
      ...item,
      status: state.actions[item.id]?.status ?? "open",
      assigneeEmail: state.actions[item.id]?.assigneeEmail ?? null
    })),
    enhancedNotes: content.enhancedNotes,
    userNotes: personal?.notes ?? null,
    myPrompt: personal?.prompt ?? null,
    notesVersion: { id: key, isDefault: isDefaultInputs(inputs) },
    createdAt: recording.createdAt,
    updatedAt: recording.updatedAt
  }
}
