/** Clips (highlights) of a recording: a titled time range, with the transcript said in it. */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"
import type { Segment } from "./Transcript.ts"

export const Clip = Schema.Struct({
  id: Id,
  recordingId: Schema.Number,
  title: Schema.String,
  startMs: Schema.Number,
  endMs: Schema.Number,
  transcript: Schema.String.annotate({ description: "What was said during the clip" }),
  createdBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "RecordingClip" })
export type Clip = typeof Clip.Type

type ClipRow = Omit<Clip, "transcript">

const columns = `id, recording_id AS "recordingId", title, start_ms AS "startMs", end_ms AS "endMs", created_by AS "createdBy", created_at AS "createdAt"`

/** The clip with the transcript segments that overlap it. */
export const withTranscript = (row: ClipRow, segments: ReadonlyArray<Segment>): Clip => ({
  ...row,
  recordingId: Number(row.recordingId),
  transcript: segments
    .filter((s) => s.endMs > row.startMs && s.startMs < row.endMs)
    .map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text))
    .join("\n")
})

export const clipsOf = (recordingId: number) =>
  Effect.orDie(query<ClipRow>(`SELECT ${columns} FROM hub_clips WHERE recording_id = $1 ORDER BY start_ms, id`, [recordingId]))

export const clipOf = (recordingId: number, clipId: string) =>
  Effect.flatMap(
    Effect.orDie(query<ClipRow>(`SELECT ${columns} FROM hub_clips WHERE recording_id = $1 AND id = $2`, [recordingId, clipId])),
    ([row]) => (row ? Effect.succeed(row) : Effect.fail(reject("not_found", "No such clip")))
  )

export const addClip = (recordingId: number, by: string, clip: { title: string; startMs: number; endMs: number }) =>
  Effect.map(
    Effect.orDie(
      query<ClipRow>(
        `INSERT INTO hub_clips (id, recording_id, title, start_ms, end_ms, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
        [randomUUID(), recordingId, clip.title, clip.startMs, clip.endMs, by]
      )
    ),
    (rows) => rows[0]!
  )

export const removeClip = (recordingId: number, clipId: string) =>
  Effect.flatMap(
    Effect.orDie(query<{ id: string }>(`DELETE FROM hub_clips WHERE recording_id = $1 AND id = $2 RETURNING id`, [recordingId, clipId])),
    ([row]) => (row ? Effect.void : Effect.fail(reject("not_found", "No such clip")))
  )
