/**
 * Speech for the transcription tests: a script spoken by espeak-ng (Debian)
 * in two voices, laid out on a timeline, muxed as one track per speaker (a
 * meeting bot's file) or as one mixed track; and fake engines speaking the
 * OpenAI-compatible and Deepgram protocols. The fakes "hear" a chunk by
 * finding its samples in the tracks they were given (the pipeline's WAV is
 * sample-exact) and answer the script's words that fall inside it, with the
 * speaker's label, as a real engine would.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"

export interface Line {
  readonly speaker: 0 | 1
  readonly text: string
}

export interface SpokenLine extends Line {
  readonly startMs: number
  readonly endMs: number
}

export interface Speech {
  readonly lines: ReadonlyArray<SpokenLine>
  /** 16 kHz mono s16le samples per speaker (silence where the other speaks), and both mixed. */
  readonly tracks: readonly [Buffer, Buffer]
  readonly mixed: Buffer
  readonly durationMs: number
}

const RATE = 16_000
const GAP_MS = 700
const VOICES = ["en+m3", "en+f3"] as const

export const espeakAvailable = (): boolean => {
  try {
    execFileSync("espeak-ng", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** Speaks `lines` in turn, 0.7 s apart. */
export const speak = (lines: ReadonlyArray<Line>): Speech => {
  const dir = mkdtempSync(path.join(tmpdir(), "atrium-speech-"))
  try {
    const wavs = lines.map((line, index) => {
      const wav = path.join(dir, `line-${index}.wav`)
      execFileSync("espeak-ng", ["-v", VOICES[line.speaker], "-s", "175", "-w", wav, line.text])
      return wav
    })
    // One ffmpeg for every line (each input to its own raw output): a start of ffmpeg costs more than a line's conversion.
    const raws = wavs.map((_, index) => path.join(dir, `line-${index}.raw`))
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      ...wavs.flatMap((wav) => ["-i", wav]),
      ...raws.flatMap((raw, index) => ["-map", `${index}:a`, "-f", "s16le", "-ac", "1", "-ar", String(RATE), raw])
    ])
    const pieces = raws.map((raw) => readFileSync(raw))
    const gap = (GAP_MS * RATE * 2) / 1000
    const total = pieces.reduce((sum, piece) => sum + piece.length + gap, gap)
    const tracks: [Buffer, Buffer] = [Buffer.alloc(total), Buffer.alloc(total)]
    const mixed = Buffer.alloc(total)
    const spoken: Array<SpokenLine> = []
    let at = gap
    for (const [index, piece] of pieces.entries()) {
      const line = lines[index]!
      piece.copy(tracks[line.speaker], at)
      piece.copy(mixed, at)
      spoken.push({ ...line, startMs: at / 2 / (RATE / 1000), endMs: (at + piece.length) / 2 / (RATE / 1000) })
      at += piece.length + gap
    }
    return { lines: spoken, tracks, mixed, durationMs: total / 2 / (RATE / 1000) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Muxes raw tracks with ffmpeg; `names` tag each track (MOV handler names, as bots write them). */
const mux = (tracks: ReadonlyArray<Buffer>, names: ReadonlyArray<string | null>, file: string): Buffer => {
  const dir = mkdtempSync(path.join(tmpdir(), "atrium-mux-"))
  try {
    const args = ["-v", "error", "-y"]
    for (const [index, track] of tracks.entries()) {
      const raw = path.join(dir, `${index}.raw`)
      writeFileSync(raw, track)
      args.push("-f", "s16le", "-ar", String(RATE), "-ac", "1", "-i", raw)
    }
    for (const index of tracks.keys()) args.push("-map", String(index))
    for (const [index, name] of names.entries()) if (name !== null) args.push(`-metadata:s:a:${index}`, `handler_name=${name}`)
    const out = path.join(dir, file)
    execFileSync("ffmpeg", [...args, "-c:a", "pcm_s16le", out])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One MOV with a track per speaker, named by `names`. */
export const multiTrackMov = (speech: Speech, names: readonly [string, string]) => mux(speech.tracks, names, "call.mov")
/** Raw samples as a WAV file. */
export const wavOf = (samples: Buffer) => mux([samples], [null], "piece.wav")
/** The byte offset of an instant in a raw track (sample-aligned). */
export const byteAt = (ms: number) => Math.max(0, Math.round(ms * 16) * 2)
/** One WAV with both voices on one track. */
export const singleTrackWav = (speech: Speech) => mux([speech.mixed], [null], "call.wav")

interface Heard {
  readonly track: number
  readonly offsetMs: number
  readonly lengthMs: number
  readonly segments: ReadonlyArray<{ start: number; end: number; text: string; speaker: number }>
}

/** Finds a WAV chunk's samples in one of `tracks` and answers the words of `lines` inside it (times relative to the chunk). */
const hear = (speech: Speech, tracks: ReadonlyArray<Buffer>, wav: Buffer): Heard | "not-wav" | "unknown" => {
  if (wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") return "not-wav"
  let offset = 12
  let format: { channels: number; rate: number; bits: number } | undefined
  let data: Buffer | undefined
  while (offset + 8 <= wav.length) {
    const id = wav.toString("ascii", offset, offset + 4)
    const size = wav.readUInt32LE(offset + 4)
    if (id === "fmt ")
      format = { channels: wav.readUInt16LE(offset + 10), rate: wav.readUInt32LE(offset + 12), bits: wav.readUInt16LE(offset + 22) }
    if (id === "data") data = wav.subarray(offset + 8, offset + 8 + size)
    offset += 8 + size + (size % 2)
  }
  if (format === undefined || data === undefined || format.channels !== 1 || format.rate !== RATE || format.bits !== 16) return "not-wav"
  // The first 512 bytes that are not silence locate the chunk.
  let probeAt = 0
  while (probeAt + 512 <= data.length && data.subarray(probeAt, probeAt + 512).every((b) => b === 0)) probeAt += 512
  if (probeAt + 512 > data.length) return "unknown"
  const probe = data.subarray(probeAt, probeAt + 512)
  for (const [track, samples] of tracks.entries()) {
    const found = samples.indexOf(probe)
    if (found < 0) continue
    const offsetMs = (found - probeAt) / 32
    const lengthMs = data.length / 32
    const lines = tracks.length === 1 ? speech.lines : speech.lines.filter((line) => line.speaker === track)
    const segments = lines.flatMap((line) => {
      const words = line.text.split(" ")
      const per = (line.endMs - line.startMs) / words.length
      const inside = words
        .map((text, i) => ({ text, start: line.startMs + i * per, end: line.startMs + (i + 1) * per }))
        .filter((word) => (word.start + word.end) / 2 >= offsetMs && (word.start + word.end) / 2 < offsetMs + lengthMs)
      if (inside.length === 0) return []
      return [
        {
          start: Math.max(0, inside[0]!.start - offsetMs) / 1000,
          end: Math.min(lengthMs, inside.at(-1)!.end - offsetMs) / 1000,
          text: ` ${inside.map((word) => word.text).join(" ")}`,
          speaker: line.speaker
        }
      ]
    })
    return { track, offsetMs, lengthMs, segments }
  }
  return "unknown"
}

export interface EngineRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly fields: Record<string, Array<string>>
  readonly bytes: number
  readonly heard: Heard | "not-wav" | "unknown"
}

/** How the fake answers the n-th request (1-based): normally, or with a status (and headers), or never. */
export type Answer = "answer" | "hang" | { readonly status: number; readonly headers?: Record<string, string> }

export interface FakeEngine {
  readonly url: string
  readonly requests: Array<EngineRequest>
  /** Decides each request's answer; defaults to answering. */
  plan: (n: number, request: EngineRequest) => Answer
  readonly close: () => Promise<void>
}

const startFake = async (
  protocol: "openai" | "deepgram",
  speech: Speech,
  tracks: ReadonlyArray<Buffer>,
  speakerLabels: boolean
): Promise<FakeEngine> => {
  const requests: Array<EngineRequest> = []
  const hung: Array<ServerResponse> = []
  const fake: FakeEngine = {
    url: "",
    requests,
    plan: () => "answer",
    close: async () => {
      for (const response of hung) response.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
  const server = createServer((req, res) => {
    const parts: Array<Buffer> = []
    req.on("data", (part: Buffer) => parts.push(part))
    req.on("end", async () => {
      const body = Buffer.concat(parts)
      const url = new URL(req.url ?? "/", "http://fake")
      let audio = body
      const fields: Record<string, Array<string>> = {}
      if (protocol === "openai") {
        const form = await new Response(body, { headers: { "content-type": String(req.headers["content-type"]) } })
          .formData()
          .catch(() => null)
        if (form === null) return void res.writeHead(400).end("expected multipart/form-data")
        for (const [name, value] of form.entries()) {
          if (typeof value === "string") (fields[name] ??= []).push(value)
          else {
            ;(fields[name] ??= []).push(`file:${value.type}:${value.name}`)
            if (name === "file") audio = Buffer.from(await value.arrayBuffer())
          }
        }
      } else for (const [name, value] of url.searchParams) (fields[name] ??= []).push(value)
      const request: EngineRequest = {
        path: url.pathname,
        headers: req.headers,
        fields,
        bytes: audio.length,
        heard: hear(speech, tracks, audio)
      }
      requests.push(request)
      const answer = fake.plan(requests.length, request)
      if (answer === "hang") return void hung.push(res)
      if (answer !== "answer")
        return void res
          .writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
          .end('{"error":{"message":"busy"}}')
      const heard = request.heard
      if (typeof heard === "string") return void res.writeHead(400, { "content-type": "application/json" }).end(`{"error":"${heard}"}`)
      res.writeHead(200, { "content-type": "application/json" })
      if (protocol === "openai") {
        res.end(
          JSON.stringify({
            text: heard.segments.map((s) => s.text).join(""),
            duration: heard.lengthMs / 1000,
            segments: heard.segments.map((s, id) => ({
              id,
              start: s.start,
              end: s.end,
              text: s.text,
              ...(speakerLabels ? { speaker: `SPEAKER_0${s.speaker}` } : {})
            }))
          })
        )
      } else {
        res.end(
          JSON.stringify({
            metadata: { duration: heard.lengthMs / 1000 },
            results: {
              utterances: heard.segments.map((s) => ({
                start: s.start,
                end: s.end,
                transcript: s.text.trim(),
                speaker: s.speaker,
                confidence: 0.9
              }))
            }
          })
        )
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return Object.assign(fake, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
}

/** An OpenAI-compatible `/v1/audio/transcriptions` fake; `speakerLabels` adds a diarizing server's `speaker` per segment. */
export const fakeOpenAiEngine = (speech: Speech, tracks: ReadonlyArray<Buffer>, speakerLabels = false) =>
  startFake("openai", speech, tracks, speakerLabels)

/** A Deepgram `/v1/listen` fake (diarized utterances). */
export const fakeDeepgram = (speech: Speech, tracks: ReadonlyArray<Buffer>) => startFake("deepgram", speech, tracks, true)

/** The script's words in order, for comparing with a transcript. */
export const wordsOf = (texts: ReadonlyArray<string>) =>
  texts
    .join(" ")
    .split(/\s+/)
    .map((w) => w.toLowerCase().replace(/[^a-z0-9']/g, ""))
    .filter((w) => w !== "")
