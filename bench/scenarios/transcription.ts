/**
 * transcription (issue 25): a meeting recording of N minutes (60; smoke 1),
 * spoken by espeak-ng in two voices and encoded as a 32 kbit/s MP3 as a
 * meeting tool uploads it, transcribed by Atrium (server/main.ts, PGlite)
 * through a local fake OpenAI-compatible engine whose answer takes a fixed
 * 400 ms plus 1/25 of the audio's length (a hosted Whisper's order of
 * magnitude), at chunk parallelism 1, 4 and 8 (STT_PARALLELISM, a fresh
 * server each); against the same engine sent the whole file in one request
 * (what an integration without chunking does).
 *
 * Figures: wall time from the upload to the recording ready (transcript and
 * the participant's version), minutes of audio per minute of wall time, and
 * the server's CPU per audio minute — its own and its ffmpeg children's
 * (extraction, silence detection, chunk cuts), stitching, SQL and the
 * version included.
 */
import { execFile, execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Histogram } from "../load/Histogram.ts"
import { machineBusyCores, readMachine } from "../process.ts"
import type { Point, RunOptions, Scenario, Series } from "../Scenario.ts"
import { failedSeries } from "../Scenario.ts"
import { startEmbeddedAtrium } from "../subjects/embedded-server.ts"

const execFileAsync = promisify(execFile)
/** The recording's length in a full run (`BENCH_STT_MINUTES` for a shorter one on a busy machine). */
const MINUTES = Number(process.env.BENCH_STT_MINUTES) > 0 ? Number(process.env.BENCH_STT_MINUTES) : 60
const SMOKE_MINUTES = 1
/** Chunk length (STT_CHUNK_SECONDS): a minute, so a full hour is 60 requests; smoke runs 15-second chunks. */
const chunkSeconds = (options: RunOptions) => (options.smoke ? 15 : 60)
const minutesOf = (options: RunOptions) => (options.smoke ? SMOKE_MINUTES : MINUTES)
/** The fake engine's latency: a fixed part (upload, queueing, model load) and a real-time factor. */
const ENGINE_FIXED_MS = 400
const ENGINE_REAL_TIME_FACTOR = 25
const RATE = 16_000

const SCRIPT = [
  "Good morning, this is the weekly review of the mobile launch.",
  "Two items are still open from the last review.",
  "The crash on the settings screen is fixed in the beta build.",
  "We cut the start time on cold launch from four seconds to two.",
  "The beta closed on Monday with four hundred testers.",
  "Login errors on older Android phones were the most common complaint.",
  "The patch is ready and waiting for review.",
  "Then the release candidate ships on Thursday.",
  "Marketing wants the store screenshots by Wednesday.",
  "I will update the pricing page today.",
  "Support needs a short guide for the new login flow.",
  "Single sign on is planned for the next quarter.",
  "Crashes fell by half since the memory fix landed.",
  "Legal still has to approve the new privacy text.",
  "Maya is on call Saturday and I take Sunday.",
  "Thanks everyone, see you on Thursday."
]

/** The script spoken in turn by two voices, 0.7 s apart, as 16 kHz mono samples (a minute or so). */
const spokenScript = (dir: string): Buffer => {
  const gap = Buffer.alloc(Math.round(0.7 * RATE) * 2)
  const pieces = SCRIPT.map((line, index) => {
    const wav = join(dir, `line-${index}.wav`)
    const raw = join(dir, `line-${index}.raw`)
    execFileSync("espeak-ng", ["-v", index % 2 === 0 ? "en+m3" : "en+f3", "-s", "160", "-w", wav, line])
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-f", "s16le", "-ac", "1", "-ar", String(RATE), raw])
    return readFileSync(raw)
  })
  return Buffer.concat(pieces.flatMap((piece) => [piece, gap]))
}

/** The meeting: the spoken script looped to `minutes`, as a 32 kbit/s mono MP3. */
const meetingMp3 = (dir: string, minutes: number): Buffer => {
  const raw = join(dir, "script.raw")
  writeFileSync(raw, spokenScript(dir))
  const mp3 = join(dir, "meeting.mp3")
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-stream_loop", "-1", "-f", "s16le", "-ar", String(RATE), "-ac", "1", "-i", raw],
    ...["-t", String(minutes * 60), "-c:a", "libmp3lame", "-b:a", "32k", mp3]
  ])
  return readFileSync(mp3)
}

/** Milliseconds of audio in a WAV (16-bit mono at its rate), or of any other file by ffprobe. */
const audioMsOf = async (file: Buffer, dir: string): Promise<number> => {
  const riff = file.indexOf("RIFF")
  if (riff >= 0 && file.toString("ascii", riff + 8, riff + 12) === "WAVE") {
    const rate = file.readUInt32LE(riff + 24)
    const data = file.indexOf("data", riff + 12)
    return (file.readUInt32LE(data + 4) / 2 / rate) * 1000
  }
  const path = join(dir, `upload-${randomUUID()}`)
  writeFileSync(path, file)
  try {
    const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    return Number(stdout.trim()) * 1000
  } finally {
    rmSync(path, { force: true })
  }
}

interface FakeEngine {
  readonly url: string
  /** Requests answered, and the most in flight at once. */
  readonly stats: () => { readonly requests: number; readonly maxInFlight: number }
  readonly close: () => Promise<void>
}

/**
 * `POST /v1/audio/transcriptions` (multipart, verbose_json): answers after ENGINE_FIXED_MS + audio /
 * ENGINE_REAL_TIME_FACTOR with a segment per 5 s of the audio it got; requests are served side by side.
 */
const startFakeEngine = async (dir: string): Promise<FakeEngine> => {
  let requests = 0
  let inFlight = 0
  let maxInFlight = 0
  const server = createServer((request, response) => {
    const parts: Array<Buffer> = []
    request.on("data", (part: Buffer) => parts.push(part))
    request.on("end", async () => {
      if (request.method !== "POST" || request.url !== "/v1/audio/transcriptions") {
        response.writeHead(404).end()
        return
      }
      // The answer is due a latency after the request arrived; finding the audio's length is part of that time.
      const arrived = performance.now()
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      const audioMs = await audioMsOf(Buffer.concat(parts), dir)
      setTimeout(
        () => {
          inFlight--
          requests++
          const segments = Array.from({ length: Math.max(1, Math.floor(audioMs / 5000)) }, (_, i) => ({
            start: i * 5,
            end: Math.min(audioMs / 1000, i * 5 + 4.5),
            text: ` Segment ${i} of a ${Math.round(audioMs / 1000)} second request.`
          }))
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ text: segments.map((s) => s.text).join(""), segments }))
        },
        Math.max(0, arrived + ENGINE_FIXED_MS + audioMs / ENGINE_REAL_TIME_FACTOR - performance.now())
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => ({ requests, maxInFlight }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const json = async (url: string, init: RequestInit & { token?: string } = {}) => {
  const { token, ...rest } = init
  const response = await fetch(url, {
    ...rest,
    headers: { ...(rest.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) }
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${rest.method ?? "GET"} ${url} → ${response.status}: ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}
const postJson = (url: string, body: unknown, token?: string) =>
  json(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), ...(token ? { token } : {}) })

interface Measured {
  readonly point: Point
  readonly requests: number
  readonly maxInFlight: number
  /** Each stage of the recording's progress and when it was first seen. */
  readonly stages?: string
}

const pointOf = (load: number, audioMs: number, wallSec: number, server?: Point["server"], busy?: number): Point => {
  const histogram = new Histogram()
  histogram.record(wallSec * 1e9)
  return {
    load,
    durationSec: wallSec,
    ops: audioMs / 1000,
    errors: 0,
    throughput: audioMs / 1000 / wallSec,
    latency: histogram.latency(),
    ...(server ? { server } : {}),
    ...(busy === undefined ? {} : { machineBusyCores: busy })
  }
}

/** Atrium at `parallelism`: the recording created, its MP3 uploaded, until it is ready. */
const measureAtrium = async (
  options: RunOptions,
  engine: FakeEngine,
  mp3: Buffer,
  audioMs: number,
  parallelism: number
): Promise<Measured> => {
  const server = await startEmbeddedAtrium(options.root, {
    STT_ENGINE: "openai-compatible",
    STT_BASE_URL: engine.url,
    STT_CHUNK_SECONDS: String(chunkSeconds(options)),
    STT_PARALLELISM: String(parallelism)
  })
  try {
    const email = `stt-${Date.now().toString(36)}@bench.example`
    await postJson(`${server.url}/pm/v1/auth/register`, { email, password: "correct horse battery", name: "Speaker" })
    const { accessToken: token } = await postJson(`${server.url}/pm/v1/auth/login`, { email, password: "correct horse battery" })
    const workspace = await postJson(`${server.url}/pm/v1/workspaces`, { name: "Bench meetings" }, token)
    const created = await postJson(
      `${server.url}/hub/v1/recordings`,
      { workspaceId: workspace.id, name: "Weekly review", attendeeEmails: [email] },
      token
    )
    const before = { engine: engine.stats(), server: server.sample(), machine: readMachine() }
    const started = performance.now()
    await json(`${server.url}/hub/v1/recordings/${created.id}/media`, {
      method: "PUT",
      headers: { "content-type": "audio/mpeg" },
      body: new Uint8Array(mp3),
      token
    })
    // When each stage was first seen (seconds after the upload started): where the wall time goes.
    const stages = new Map<string, number>()
    for (;;) {
      const progress = await json(`${server.url}/hub/v1/recordings/${created.id}/progress`, { token })
      const stage = `${progress.status}${progress.stage ? `/${progress.stage}` : ""}`
      if (!stages.has(stage)) stages.set(stage, (performance.now() - started) / 1000)
      if (progress.status === "ready") break
      if (progress.status === "failed") throw new Error(`transcription failed: ${progress.error}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const wallSec = (performance.now() - started) / 1000
    const after = { engine: engine.stats(), server: server.sample(), machine: readMachine() }
    const cpuSec = after.server.cpuSec - before.server.cpuSec + (after.server.childCpuSec - before.server.childCpuSec)
    return {
      point: pointOf(
        parallelism,
        audioMs,
        wallSec,
        { cpuSec, cores: cpuSec / wallSec, peakRssBytes: after.server.peakRssBytes, tool: "server/main.ts + its ffmpeg children" },
        machineBusyCores(before.machine, after.machine)
      ),
      requests: after.engine.requests - before.engine.requests,
      maxInFlight: after.engine.maxInFlight,
      stages: [...stages].map(([stage, at]) => `${stage} ${at.toFixed(1)} s`).join(", ")
    }
  } finally {
    await server.stop()
  }
}

/** The whole MP3 in one request to the same engine, as an integration without chunking sends it. */
const measureWholeFile = async (engine: FakeEngine, mp3: Buffer, audioMs: number): Promise<Measured> => {
  const form = new FormData()
  form.set("file", new Blob([new Uint8Array(mp3)], { type: "audio/mpeg" }), "meeting.mp3")
  form.set("model", "whisper-1")
  form.set("response_format", "verbose_json")
  form.append("timestamp_granularities[]", "segment")
  const before = engine.stats()
  const started = performance.now()
  const answer = await json(`${engine.url}/v1/audio/transcriptions`, { method: "POST", body: form })
  if (!Array.isArray(answer.segments) || answer.segments.length === 0) throw new Error("the engine answered no segments")
  return {
    point: pointOf(1, audioMs, (performance.now() - started) / 1000),
    requests: engine.stats().requests - before.requests,
    maxInFlight: 1
  }
}

const cpuPerAudioMinute = (point: Point) => ((point.server?.cpuSec ?? 0) / (point.ops / 60)) * 1000

export const transcription: Scenario = {
  name: "transcription",
  subject: "speech to text of an uploaded meeting recording: wall time and server CPU per audio minute at chunk parallelism 1, 4, 8",
  baselines: ["the same fake engine sent the whole file in one request (no chunking)"],
  levels: { sweep: [1, 4, 8], smoke: 4 },
  workload: (options) => [
    `A ${minutesOf(options)}-minute meeting (a full run's length: BENCH_STT_MINUTES, default 60): a script spoken by espeak-ng in two voices, 0.7 s between turns, looped, as a 32 kbit/s mono MP3 (${options.smoke ? "smoke" : "about 14 MiB"}); uploaded to a recording (PUT …/media) of a fresh Atrium (server/main.ts, PGlite) per parallelism level.`,
    `Engine: a local fake speaking the OpenAI-compatible protocol; each answer takes ${ENGINE_FIXED_MS} ms + audio length / ${ENGINE_REAL_TIME_FACTOR}; requests are served concurrently. Atrium cuts ${chunkSeconds(options)}-second chunks on silence (STT_CHUNK_SECONDS) and sends ${options.levels.join(", ")} at a time (STT_PARALLELISM).`,
    "Wall time: upload → recording ready (transcript stitched, the participant's version made). Server CPU: server/main.ts and the ffmpeg processes it ran, over that time, per minute of audio. Throughput column: seconds of audio per second of wall time.",
    "Baseline: the MP3 posted whole in one request to the same engine (no extraction, no chunks): only the engine's time."
  ],
  estimateSec: (options) => (options.smoke ? 45 : 60 + 3 * 40 + (MINUTES * 60) / ENGINE_REAL_TIME_FACTOR + 200),
  run: async (options, progress) => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-bench-stt-"))
    const engine = await startFakeEngine(dir)
    try {
      progress.update(0, "speaking the meeting (espeak-ng, ffmpeg)")
      let mp3: Buffer
      try {
        mp3 = meetingMp3(dir, minutesOf(options))
      } catch (error) {
        return {
          notBuilt: `not built here: espeak-ng and ffmpeg (Debian) make the recording (${error instanceof Error ? error.message : error})`
        }
      }
      const audioMs = await audioMsOf(mp3, dir)
      const notes: Array<string> = [
        `Recording: ${(audioMs / 60_000).toFixed(1)} min of audio, ${(mp3.length / 2 ** 20).toFixed(1)} MiB MP3.`
      ]
      const steps = options.levels.length + 1
      progress.update(0.05, "whole file, one request")
      let whole: Measured | undefined
      const baseline: Series = await measureWholeFile(engine, mp3, audioMs).then(
        (measured) => {
          whole = measured
          return { label: "whole file, one request", role: "baseline" as const, status: "ok" as const, points: [measured.point] }
        },
        (error) => failedSeries("whole file, one request", "baseline", error)
      )
      const points: Array<Point> = []
      const measured = new Map<number, Measured>()
      let subject: Series | undefined
      for (const [index, parallelism] of options.levels.entries()) {
        progress.update((index + 1) / steps, `Atrium, ${parallelism} chunks at a time`)
        try {
          const result = await measureAtrium(options, engine, mp3, audioMs, parallelism)
          measured.set(parallelism, result)
          points.push(result.point)
          notes.push(
            `${parallelism} at a time: ${result.point.durationSec.toFixed(1)} s, ${result.requests} requests (at most ${result.maxInFlight} in flight), server CPU ${cpuPerAudioMinute(result.point).toFixed(0)} ms per audio minute; stages first seen: ${result.stages}.`
          )
        } catch (error) {
          subject = failedSeries(`Atrium, ${chunkSeconds(options)}-s chunks`, "subject", error, points)
          break
        }
      }
      subject ??= { label: `Atrium, ${chunkSeconds(options)}-s chunks`, role: "subject", status: "ok", points }
      for (const parallelism of options.levels) {
        const ours = measured.get(parallelism)?.point
        if (ours !== undefined && whole !== undefined)
          notes.push(
            `Parallelism ${parallelism}: wall time ${(ours.durationSec / whole.point.durationSec).toFixed(2)}× the whole file's in one request (${ours.durationSec.toFixed(1)} s vs ${whole.point.durationSec.toFixed(1)} s); ${ours.throughput.toFixed(1)} audio minutes per minute against ${whole.point.throughput.toFixed(1)}.`
          )
      }
      return {
        groups: [{ name: `${minutesOf(options)}-minute recording → transcript ready`, unit: "audio s", series: [subject, baseline] }],
        notes
      }
    } finally {
      await engine.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
