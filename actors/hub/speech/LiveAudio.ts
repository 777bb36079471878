/**
 * Live transcription of audio as it arrives: one short piece (a few seconds
 * to a minute) becomes 16 kHz mono WAV and goes through the configured
 * engine at once; its segments are placed at `startMs` of the call.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect } from "effect"
import { reject } from "../../../runtime/Rejection.ts"
import { FFMPEG, runTool } from "../Media.ts"
import type { Segment } from "../Transcript.ts"
import { speechEngineFromEnv } from "./Engines.ts"
import { NOT_CONFIGURED } from "./SpeechEngine.ts"
import { engineSpeakers } from "./Stitching.ts"

export interface LiveAudio {
  readonly bytes: Uint8Array
  readonly startMs: number
  /** Who is speaking, when the piece is one participant's track; else the engine's labels name speakers. */
  readonly speaker: string | null
}

const toWav = (bytes: Uint8Array) =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "atrium-live-"))),
    (dir) =>
      Effect.gen(function* () {
        const input = path.join(dir, "input")
        const output = path.join(dir, "audio.wav")
        yield* Effect.promise(() => writeFile(input, bytes))
        yield* runTool(FFMPEG, ["-v", "error", "-y", "-i", input, "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", output])
        return new Uint8Array(yield* Effect.promise(() => readFile(output)))
      }),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

export const transcribeLive = (audio: LiveAudio) =>
  Effect.gen(function* () {
    const engine = speechEngineFromEnv()
    if (engine === null) return yield* reject("conflict", NOT_CONFIGURED)
    const wav = yield* toWav(audio.bytes).pipe(
      Effect.mapError((error) =>
        reject("invalid", `The audio could not be read: ${error.message}`, [{ path: "body.audio.data", message: "not decodable audio" }])
      )
    )
    const heard = yield* engine.transcribe(wav, { prompt: null }).pipe(Effect.mapError((error) => reject("bad_gateway", error.message)))
    const { speaker } = audio
    const speakerOf = speaker !== null ? () => speaker : engineSpeakers()
    return heard.map(
      (segment): Segment => ({
        speaker: speakerOf(segment.speaker),
        startMs: audio.startMs + segment.startMs,
        endMs: audio.startMs + Math.max(segment.endMs, segment.startMs),
        text: segment.text
      })
    )
  })
