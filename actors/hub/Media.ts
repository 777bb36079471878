/**
 * Media work with ffmpeg (Debian's package): probe an uploaded file, extract
 * its audio track and a few preview frames. ffmpeg is detected at start
 * (`detectFfmpeg`); without it, recordings with media fail with a message
 * saying how to install it, and transcript-only recordings work as before.
 */
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect, Schema } from "effect"

export const FFMPEG = process.env.FFMPEG_PATH || "ffmpeg"
export const FFPROBE = process.env.FFPROBE_PATH || "ffprobe"

/** Preview frames extracted from a video. */
export const FRAME_COUNT = 4

export class MediaError extends Schema.TaggedError<MediaError>()("MediaError", { message: Schema.String }) {}

/** Runs ffmpeg or ffprobe; `stderr` carries what filters such as silencedetect report. */
export const runTool = (command: string, args: ReadonlyArray<string>) =>
  Effect.callback<{ readonly stdout: string; readonly stderr: string }, MediaError>((resume) => {
    const child = execFile(command, [...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === "ENOENT"
        resume(
          Effect.fail(
            new MediaError({
              message: missing
                ? `${command} is not installed: install Debian's ffmpeg package (apt-get install -y ffmpeg) or set FFMPEG_PATH/FFPROBE_PATH`
                : `${path.basename(command)} failed: ${String(stderr).trim().split("\n").slice(-2).join(" ").slice(0, 300)}`
            })
          )
        )
      } else resume(Effect.succeed({ stdout: String(stdout), stderr: String(stderr) }))
    })
    return Effect.sync(() => child.kill())
  })

const run = (command: string, args: ReadonlyArray<string>) => Effect.map(runTool(command, args), (out) => out.stdout)

let detected: string | null | undefined
/** The ffmpeg version line, or null when it is missing (logged once, clearly). */
export const detectFfmpeg = Effect.suspend(() =>
  detected !== undefined
    ? Effect.succeed(detected)
    : run(FFMPEG, ["-hide_banner", "-version"]).pipe(
        Effect.map((out) => out.split("\n")[0] ?? "ffmpeg"),
        Effect.catch((error) =>
          Effect.as(Effect.logWarning(`hub: ${error.message}; recordings with media files will fail until it is installed`), null)
        ),
        Effect.tap((version) => Effect.sync(() => (detected = version)))
      )
)

export interface Extracted {
  readonly durationMs: number
  readonly hasAudio: boolean
  readonly hasVideo: boolean
  readonly width: number | null
  readonly height: number | null
  /** MP3, mono 16 kHz, when the file has audio. */
  readonly audio: Uint8Array | null
  /** JPEG frames spread over the duration, when it has video. */
  readonly frames: ReadonlyArray<{ readonly atMs: number; readonly bytes: Uint8Array }>
}

const Probe = Schema.Struct({
  streams: Schema.Array(
    Schema.Struct({ codec_type: Schema.String, width: Schema.optional(Schema.Number), height: Schema.optional(Schema.Number) })
  ),
  format: Schema.Struct({ duration: Schema.optional(Schema.String) })
})
const decodeProbe = Schema.decodeUnknownEffect(Schema.fromJsonString(Probe))

/** Probes `bytes` and extracts what previews need; temporary files are removed whatever happens. */
export const extract = (bytes: Uint8Array, fileExtension: string): Effect.Effect<Extracted, MediaError> =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "atrium-media-"))),
    (dir) =>
      Effect.gen(function* () {
        const input = path.join(dir, `input.${fileExtension}`)
        yield* Effect.promise(() => writeFile(input, bytes))
        const probe = yield* run(FFPROBE, ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", input]).pipe(
          Effect.flatMap((out) => Effect.mapError(decodeProbe(out), () => new MediaError({ message: "ffprobe gave an unreadable answer" })))
        )
        const video = probe.streams.find((s) => s.codec_type === "video")
        const hasAudio = probe.streams.some((s) => s.codec_type === "audio")
        if (video === undefined && !hasAudio) return yield* new MediaError({ message: "The file has neither audio nor video" })
        const durationMs = Math.max(0, Math.round(Number(probe.format.duration ?? 0) * 1000))
        let audio: Uint8Array | null = null
        if (hasAudio) {
          const out = path.join(dir, "audio.mp3")
          yield* run(FFMPEG, [
            "-v",
            "error",
            "-y",
            "-i",
            input,
            "-vn",
            "-ac",
            "1",
            "-ar",
            "16000",
            "-c:a",
            "libmp3lame",
            "-b:a",
            "48k",
            out
          ])
          audio = new Uint8Array(yield* Effect.promise(() => readFile(out)))
        }
        const frames: Array<{ atMs: number; bytes: Uint8Array }> = []
        if (video !== undefined) {
          const every = Math.max(0.1, durationMs / 1000 / FRAME_COUNT)
          yield* run(FFMPEG, [
            "-v",
            "error",
            "-y",
            "-i",
            input,
            "-vf",
            `fps=1/${every.toFixed(3)},scale=320:-2`,
            "-frames:v",
            String(FRAME_COUNT),
            path.join(dir, "frame-%02d.jpg")
          ])
          const names = (yield* Effect.promise(() => readdir(dir))).filter((name) => name.startsWith("frame-")).sort()
          for (const [index, name] of names.entries()) {
            frames.push({
              atMs: Math.round(index * every * 1000),
              bytes: new Uint8Array(yield* Effect.promise(() => readFile(path.join(dir, name))))
            })
          }
        }
        return {
          durationMs,
          hasAudio,
          hasVideo: video !== undefined,
          width: video?.width ?? null,
          height: video?.height ?? null,
          audio,
          frames
        }
      }),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

/** The part of a media file between two instants, in the same container (stream copy: fast, cut at key frames). */
export const cut = (bytes: Uint8Array, fileExtension: string, startMs: number, endMs: number): Effect.Effect<Uint8Array, MediaError> =>
  Effect.acquireUseRelease(
    Effect.promise(() => mkdtemp(path.join(tmpdir(), "atrium-clip-"))),
    (dir) =>
      Effect.gen(function* () {
        const input = path.join(dir, `input.${fileExtension}`)
        const output = path.join(dir, `clip.${fileExtension}`)
        yield* Effect.promise(() => writeFile(input, bytes))
        yield* run(FFMPEG, [
          "-v",
          "error",
          "-y",
          "-ss",
          (startMs / 1000).toFixed(3),
          "-i",
          input,
          "-t",
          ((endMs - startMs) / 1000).toFixed(3),
          "-c",
          "copy",
          output
        ])
        return new Uint8Array(yield* Effect.promise(() => readFile(output)))
      }),
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )
