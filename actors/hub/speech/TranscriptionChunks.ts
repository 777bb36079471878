/**
 * The finished chunks of a recording's transcription (hub_transcription_chunks):
 * what resumes an interrupted job, and what tells a full reprocess whether
 * the transcript came from an engine (and which) or was imported.
 */
import { Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import * as SqlSchema from "../../../persistence/SqlSchema.ts"

const HeardSegmentRow = Schema.Struct({
  startMs: Schema.Number,
  endMs: Schema.Number,
  text: Schema.String,
  speaker: Schema.NullOr(Schema.String)
})

export const FinishedChunk = Schema.Struct({
  source: Schema.String,
  track: Schema.Number,
  chunk: Schema.Number,
  segments: Schema.Array(HeardSegmentRow),
  sends: Schema.Number
})
export type FinishedChunk = typeof FinishedChunk.Type

const RecordingId = Schema.Struct({ recordingId: Schema.Number })

/** Every finished chunk of the recording, whatever its source. */
export const finishedChunks = SqlSchema.findAll({
  Request: RecordingId,
  Result: FinishedChunk,
  execute: ({ recordingId }) => [
    `SELECT source, track, chunk, segments, sends FROM hub_transcription_chunks WHERE recording_id = $1 ORDER BY track, chunk`,
    [recordingId]
  ]
})

/** Forgets chunks transcribed from another source (engine, model, language or media). */
export const forgetOtherSources = (recordingId: number, source: string) =>
  query(`DELETE FROM hub_transcription_chunks WHERE recording_id = $1 AND source <> $2`, [recordingId, source])

export const saveChunk = (recordingId: number, chunk: FinishedChunk & { readonly startMs: number; readonly endMs: number }) =>
  query(
    `INSERT INTO hub_transcription_chunks (recording_id, source, track, chunk, start_ms, end_ms, segments, sends)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (recording_id, track, chunk) DO UPDATE SET source = EXCLUDED.source, start_ms = EXCLUDED.start_ms,
       end_ms = EXCLUDED.end_ms, segments = EXCLUDED.segments, sends = EXCLUDED.sends`,
    [recordingId, chunk.source, chunk.track, chunk.chunk, chunk.startMs, chunk.endMs, chunk.segments, chunk.sends]
  )
