/**
 * Audio for the engine, with ffmpeg: the audio tracks of a media file (one
 * per participant when a meeting bot recorded them apart, named by their
 * `title` tag or, in MP4/MOV, their handler name), each as 16 kHz mono WAV, where it falls silent, and the
 * pieces of it that chunks send.
 */
import { readFile } from "node:fs/promises"
import path from "node:path"
import { Effect, Schema } from "effect"
import { FFMPEG, FFPROBE, MediaError, runTool } from "../Media.ts"
import { parseSilences, type Silence } from "./Stitching.ts"

export interface AudioTrack {
  /** Position among the file's audio streams (`-map 0:a:N`). */
  readonly index: number
  /** Who the track is, as the recorder tagged it (a name or an e-mail), if it did. */
  readonly label: string | null
}

const Streams = Schema.Struct({
  streams: Schema.Array(
    Schema.Struct({
      codec_type: Schema.String,
      tags: Schema.optional(Schema.Record(Schema.String, Schema.String))
    })
  ),
  format: Schema.Struct({ duration: Schema.optional(Schema.String) })
})
const decodeStreams = Schema.decodeUnknownEffect(Schema.fromJsonString(Streams))

const probe = (file: string) =>
  runTool(FFPROBE, ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", file]).pipe(
    Effect.flatMap((out) =>
      Effect.mapError(decodeStreams(out.stdout), () => new MediaError({ message: "ffprobe gave an unreadable answer" }))
    )
  )

/** The audio tracks of `file`, in order. */
export const audioTracks = (file: string): Effect.Effect<ReadonlyArray<AudioTrack>, MediaError> =>
  Effect.map(probe(file), (info) =>
    info.streams
      .filter((stream) => stream.codec_type === "audio")
      .map((stream, index) => {
        const tags = Object.fromEntries(Object.entries(stream.tags ?? {}).map(([key, value]) => [key.toLowerCase(), value.trim()]))
        // MP4/MOV carry a track's name as its handler name; muxers' own defaults ("SoundHandler", …) name nobody.
        const handler = tags.handler_name && !/handler$|^(core media|apple|mainconcept|gpac|isomedia|l-smash)/i.test(tags.handler_name)
        return { index, label: tags.title || (handler ? tags.handler_name : null) || null }
      })
  )

/** Track `index` of `file` as 16 kHz mono 16-bit WAV in `out`, with its duration. */
export const trackWav = (file: string, index: number, out: string): Effect.Effect<number, MediaError> =>
  Effect.gen(function* () {
    yield* runTool(FFMPEG, ["-v", "error", "-y", "-i", file, "-map", `0:a:${index}`, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", out])
    const info = yield* probe(out)
    return Math.round(Number(info.format.duration ?? 0) * 1000)
  })

/** Where `wav` is quieter than -35 dB for at least 0.4 s. */
export const silencesOf = (wav: string): Effect.Effect<ReadonlyArray<Silence>, MediaError> =>
  Effect.map(runTool(FFMPEG, ["-hide_banner", "-nostats", "-i", wav, "-af", "silencedetect=noise=-35dB:d=0.4", "-f", "null", "-"]), (out) =>
    parseSilences(out.stderr)
  )

/** The part `[startMs, endMs)` of `wav`, as WAV bytes (sample-exact: PCM needs no key frames). */
export const wavPart = (wav: string, startMs: number, endMs: number, dir: string, name: string): Effect.Effect<Uint8Array, MediaError> =>
  Effect.gen(function* () {
    const out = path.join(dir, `${name}.wav`)
    yield* runTool(FFMPEG, [
      "-v",
      "error",
      "-y",
      "-i",
      wav,
      "-ss",
      (startMs / 1000).toFixed(3),
      "-t",
      ((endMs - startMs) / 1000).toFixed(3),
      "-c:a",
      "pcm_s16le",
      out
    ])
    return new Uint8Array(yield* Effect.promise(() => readFile(out)))
  })
