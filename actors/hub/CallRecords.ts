/**
 * The call aggregate as the call actor holds it: the recording (status,
 * media), its transcript, its participants' personal inputs, their note
 * templates, the generated versions by input key, and what was done with
 * its action items. Rebuilt from the rows; SQL is the truth.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { ActionItem, VersionContent } from "./summarizer/VersionContent.ts"
import { NoteTemplate } from "./summarizer/VersionInputs.ts"
import { Segment } from "./Transcript.ts"

export const RecordingStatus = Schema.Literals(["queued", "processing", "ready", "failed"])
export type RecordingStatus = typeof RecordingStatus.Type

/** What a processing job is doing now (null when none runs). */
export const ProcessingStage = Schema.Literals(["extracting", "transcribing", "summarizing"])
export type ProcessingStage = typeof ProcessingStage.Type

/** Chunks of audio transcribed so far, of all, while transcribing. */
export const ChunkProgress = Schema.Struct({ done: Schema.Number, total: Schema.Number })

export const Attendee = Schema.Struct({
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  userId: Schema.NullOr(Schema.String)
}).annotate({ identifier: "CallAttendee" })
export type Attendee = typeof Attendee.Type

export const MediaInfo = Schema.Struct({
  contentType: Schema.String,
  size: Schema.Number,
  durationMs: Schema.NullOr(Schema.Number),
  hasAudio: Schema.Boolean,
  hasVideo: Schema.Boolean,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  /** Blob keys of what was extracted (null until processed). */
  audioKey: Schema.NullOr(Schema.String),
  frames: Schema.Array(Schema.Struct({ atMs: Schema.Number, key: Schema.String }))
})
export type MediaInfo = typeof MediaInfo.Type

export const RecordingRecord = Schema.Struct({
  id: Schema.Number,
  callId: Schema.Number,
  callUuid: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  createdBy: Schema.String,
  attendees: Schema.Array(Attendee),
  calendarEventId: Schema.NullOr(Schema.String),
  status: RecordingStatus,
  percent: Schema.Number,
  error: Schema.NullOr(Schema.String),
  stage: Schema.NullOr(ProcessingStage),
  chunks: Schema.NullOr(ChunkProgress),
  media: Schema.NullOr(MediaInfo),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type RecordingRecord = typeof RecordingRecord.Type

export const PersonalInputs = Schema.Struct({ notes: Schema.NullOr(Schema.String), prompt: Schema.NullOr(Schema.String) })
export type PersonalInputs = typeof PersonalInputs.Type

export const StoredVersion = Schema.Struct({ isDefault: Schema.Boolean, content: VersionContent, generatedAt: Schema.String })
export type StoredVersion = typeof StoredVersion.Type

export const ActionStatus = Schema.Literals(["open", "completed", "dismissed"])
export const ActionState = Schema.Struct({
  status: ActionStatus,
  assigneeEmail: Schema.NullOr(Schema.String),
  updatedBy: Schema.String,
  updatedAt: Schema.String
})
export type ActionState = typeof ActionState.Type

export const CallState = Schema.Struct({
  recording: RecordingRecord,
  segments: Schema.Array(Segment),
  participants: Schema.Record(Schema.String, PersonalInputs),
  templates: Schema.Record(Schema.String, Schema.NullOr(NoteTemplate)),
  versions: Schema.Record(Schema.String, StoredVersion),
  actions: Schema.Record(Schema.String, ActionState)
})
export type CallState = typeof CallState.Type

export { ActionItem }

const recordingColumns = `r.id, r.call_id AS "callId", r.call_uuid AS "callUuid", r.workspace_id AS "workspaceId", r.name,
  r.created_by AS "createdBy", r.attendees, r.calendar_event_id AS "calendarEventId", r.status, r.percent, r.error, r.stage, r.chunks, r.media,
  r.created_at AS "createdAt", r.updated_at AS "updatedAt"`

/** Loads the recording rows (without transcript) matching `where`. */
export const recordingRows = (where: string, params: ReadonlyArray<unknown>) =>
  query<RecordingRecord>(`SELECT ${recordingColumns} FROM hub_recordings r WHERE ${where}`, params)

/** A user's note template, or null. */
export const templateOf = (userId: string) =>
  Effect.map(
    query<{ name: string; sections: NoteTemplate["sections"] }>(`SELECT name, sections FROM hub_note_templates WHERE user_id = $1`, [
      userId
    ]),
    (rows) => (rows[0] ? { name: rows[0].name, sections: rows[0].sections } : null)
  )

/** The whole aggregate of recording `id`, or null when it does not exist. */
export const loadCall = (id: string) =>
  Effect.gen(function* () {
    if (!/^\d{1,15}$/.test(id)) return null
    const [recording] = yield* recordingRows("r.id = $1", [Number(id)])
    if (recording === undefined) return null
    const [{ segments }] = (yield* query<{ segments: Array<Segment> }>(`SELECT segments FROM hub_recordings WHERE id = $1`, [
      Number(id)
    ])) as [{ segments: Array<Segment> }]
    const participants = yield* query<{ userId: string; notes: string | null; prompt: string | null }>(
      `SELECT user_id AS "userId", notes, prompt FROM hub_call_participants WHERE recording_id = $1`,
      [Number(id)]
    )
    const templates = yield* query<{ userId: string; name: string; sections: NoteTemplate["sections"] }>(
      `SELECT t.user_id AS "userId", t.name, t.sections FROM hub_note_templates t
        JOIN hub_call_participants p ON p.user_id = t.user_id AND p.recording_id = $1`,
      [Number(id)]
    )
    const versions = yield* query<{ key: string; isDefault: boolean; content: VersionContent; generatedAt: string }>(
      `SELECT input_key AS "key", is_default AS "isDefault", content, generated_at AS "generatedAt" FROM hub_call_versions WHERE recording_id = $1`,
      [Number(id)]
    )
    const actions = yield* query<{
      id: string
      status: ActionState["status"]
      assigneeEmail: string | null
      updatedBy: string
      updatedAt: string
    }>(
      `SELECT action_item_id AS "id", status, assignee_email AS "assigneeEmail", updated_by AS "updatedBy", updated_at AS "updatedAt"
         FROM hub_action_item_states WHERE recording_id = $1`,
      [Number(id)]
    )
    const state: CallState = {
      recording,
      segments,
      participants: Object.fromEntries(participants.map((p) => [p.userId, { notes: p.notes, prompt: p.prompt }])),
      templates: Object.fromEntries([
        ...participants.map((p) => [p.userId, null] as const),
        ...templates.map((t) => [t.userId, { name: t.name, sections: t.sections }] as const)
      ]),
      versions: Object.fromEntries(
        versions.map((v) => [v.key, { isDefault: v.isDefault, content: v.content, generatedAt: v.generatedAt }])
      ),
      actions: Object.fromEntries(actions.map(({ id, ...rest }) => [id, rest]))
    }
    return state
  })
