/**
 * A recording's media to a transcript, as part of its processing job: each
 * audio track becomes 16 kHz mono WAV, is cut on silence into chunks under
 * the engine's limit, and the chunks go to the engine a few at a time, each
 * retried on 429/5xx (after `Retry-After` when given). Every finished chunk
 * is stored before the next progress report, so a job resumed after a
 * restart sends only the chunks not yet done. A multi-track file (one track
 * per participant) is attributed by track; a single track by the engine's
 * speaker labels.
 */
import { createHash } from "node:crypto"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect } from "effect"
import type { Attendee } from "../CallRecords.ts"
import type { MediaError } from "../Media.ts"
import type { Segment } from "../Transcript.ts"
import { audioTracks, silencesOf, trackWav, wavPart } from "./AudioTracks.ts"
import type { HeardSegment, SpeechEngine, SpeechRefused, SpeechUnavailable } from "./SpeechEngine.ts"
import { type ChunkPlan, engineSpeakers, mergeTracks, planChunks, stitchTrack } from "./Stitching.ts"
import { finishedChunks, forgetOtherSources, saveChunk } from "./TranscriptionChunks.ts"

/** The most times one chunk is sent before the job fails. */
export const MAX_SENDS = 6
const OVERLAP_MS = 1500
/** 16 kHz × 16 bit mono. */
const WAV_BYTES_PER_MS = 32

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

export interface TranscriptionInput<E> {
  readonly recordingId: number
  readonly original: Uint8Array
  readonly extension: string
  readonly attendees: ReadonlyArray<Attendee>
  readonly engine: SpeechEngine
  /** Called after each finished chunk (and once before the first). */
  readonly onProgress: (done: number, total: number) => Effect.Effect<void, E>
}

export interface Transcribed {
  readonly segments: ReadonlyArray<Segment>
  /** Audio sent to the engine by this run (resumed chunks are not sent again), for metering. */
  readonly sentAudioMs: number
}

/** Sends one chunk until the engine answers, waiting between tries; fails when it refuses or after MAX_SENDS. */
const send = (engine: SpeechEngine, wav: Uint8Array, prompt: string | null) => {
  const attempt = (
    sends: number
  ): Effect.Effect<{ readonly heard: ReadonlyArray<HeardSegment>; readonly sends: number }, SpeechUnavailable | SpeechRefused> =>
    engine.transcribe(wav, { prompt }).pipe(
      Effect.map((heard) => ({ heard, sends })),
      Effect.catchTag("SpeechUnavailable", (error) =>
        sends >= MAX_SENDS
          ? Effect.fail(error)
          : Effect.andThen(Effect.sleep(error.retryAfterMs ?? Math.min(20_000, 500 * 2 ** (sends - 1))), attempt(sends + 1))
      )
    )
  return attempt(1)
}

/** The attendee a track's label names (by e-mail, then by name), else the label itself. */
const trackSpeaker = (attendees: ReadonlyArray<Attendee>, label: string | null, index: number) => {
  if (label === null) return `Track ${index + 1}`
  const lower = label.toLowerCase()
  const attendee =
    attendees.find((a) => a.email.toLowerCase() === lower) ?? attendees.find((a) => a.name !== null && a.name.toLowerCase() === lower)
  return attendee === undefined ? label : (attendee.name ?? attendee.email)
}

export const transcribe = <E>(input: TranscriptionInput<E>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "atrium-stt-"))),
    (dir) =>
      Effect.gen(function* () {
        const { engine, recordingId } = input
        const source = `${engine.source}:${createHash("sha256").update(input.original).digest("hex").slice(0, 16)}`
        const file = path.join(dir, `original.${input.extension}`)
        yield* Effect.promise(() => writeFile(file, input.original))
        const tracks = yield* audioTracks(file)
        const maxMs = Math.min(setting("STT_CHUNK_SECONDS", 600) * 1000, Math.floor((engine.maxChunkBytes - 4096) / WAV_BYTES_PER_MS))

        // The plan is the same on every run for the same media, so a resumed job finds its finished chunks by number.
        const planned: Array<{ readonly track: number; readonly wav: string; readonly plans: ReadonlyArray<ChunkPlan> }> = []
        for (const track of tracks) {
          const wav = path.join(dir, `track-${track.index}.wav`)
          const durationMs = yield* trackWav(file, track.index, wav)
          planned.push({ track: track.index, wav, plans: planChunks(durationMs, yield* silencesOf(wav), maxMs, OVERLAP_MS) })
        }
        yield* forgetOtherSources(recordingId, source)
        const finished = new Map((yield* finishedChunks({ recordingId })).map((row) => [`${row.track}:${row.chunk}`, row.segments]))
        const total = planned.reduce((sum, track) => sum + track.plans.length, 0)
        let done = planned.reduce((sum, track) => sum + track.plans.filter((_, chunk) => finished.has(`${track.track}:${chunk}`)).length, 0)
        yield* input.onProgress(done, total)

        const names = input.attendees.map((a) => a.name ?? a.email.split("@")[0]).filter((name) => name !== "")
        const prompt = names.length > 0 ? names.join(", ") : null
        const missing = planned.flatMap(({ track, wav, plans }) =>
          plans.flatMap((plan, chunk) => (finished.has(`${track}:${chunk}`) ? [] : [{ track, wav, plan, chunk }]))
        )
        let sentAudioMs = 0
        yield* Effect.forEach(
          missing,
          ({ track, wav, plan, chunk }) =>
            Effect.gen(function* () {
              const bytes = yield* wavPart(wav, plan.startMs, plan.endMs, dir, `chunk-${track}-${chunk}`)
              const answer = yield* send(engine, bytes, prompt)
              yield* saveChunk(recordingId, { source, track, chunk, segments: answer.heard, sends: answer.sends, ...plan })
              finished.set(`${track}:${chunk}`, answer.heard)
              sentAudioMs += plan.endMs - plan.startMs
              done++
              yield* input.onProgress(done, total)
            }),
          { concurrency: setting("STT_PARALLELISM", 4), discard: true }
        )

        const multiTrack = planned.length > 1
        const segments = mergeTracks(
          planned.map(({ track, plans }) => {
            const label = tracks.find((t) => t.index === track)?.label ?? null
            return {
              segments: stitchTrack(plans.map((plan, chunk) => ({ plan, heard: finished.get(`${track}:${chunk}`) ?? [] }))),
              speakerOf: multiTrack ? () => trackSpeaker(input.attendees, label, track) : engineSpeakers()
            }
          })
        )
        return { segments, sentAudioMs } satisfies Transcribed
      }),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

export type TranscriptionError = MediaError | SpeechUnavailable | SpeechRefused
