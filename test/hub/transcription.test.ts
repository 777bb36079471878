/**
 * Speech to text: a three-minute call spoken by espeak-ng in two voices goes
 * through local fake engines speaking the OpenAI-compatible and Deepgram
 * protocols. A bot's multi-track file is attributed by track; a single track
 * by the engine's speakers; chunks are cut on silence and stitched without
 * repeated words; 429 and 500 answers are retried the fewest times; without
 * an engine the recording says so. (Resuming after kill -9: transcriptionResume.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mergeTracks, planChunks, stitchTrack } from "../../actors/hub/speech/Stitching.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { type User, workspaceWith } from "./support/calls.ts"
import {
  espeakAvailable,
  fakeDeepgram,
  fakeOpenAiEngine,
  type Line,
  multiTrackMov,
  byteAt,
  type Speech,
  singleTrackWav,
  speak,
  wavOf,
  wordsOf
} from "./support/speech.ts"

const SENTENCES = [
  "Good morning, this is the weekly review of the mobile launch.",
  "Before we start, the notes from last week are in the wiki.",
  "I read them. Two items are still open from the last review.",
  "The first one is the crash on the settings screen.",
  "That one is fixed and the fix is in the beta build.",
  "The second one is the slow start on cold launch.",
  "We cut the start time from four seconds to two seconds.",
  "That is a big improvement, thank you for that work.",
  "The design team also sent new icons for the home screen.",
  "They look good. Do they work in dark mode as well?",
  "Yes, every icon has a dark variant in the same file.",
  "Then let us move on to the beta results.",
  "Thanks. The beta closed on Monday with four hundred testers.",
  "What was the most common complaint from the testers?",
  "Login errors on older Android phones, by a wide margin.",
  "Can we fix that before the release candidate?",
  "Yes, the patch is ready and waiting for review.",
  "Good. Then the release candidate ships on Thursday.",
  "Marketing wants the store screenshots by Wednesday.",
  "I will send them the final screenshots tomorrow.",
  "The pricing page still shows the old tiers.",
  "We agreed on two tiers, basic and team.",
  "Right, I will update the pricing page today.",
  "Support needs a short guide for the new login flow.",
  "I can write that guide this afternoon.",
  "The enterprise customers asked about single sign on.",
  "That is planned for the next quarter, not this launch.",
  "Please tell them the date in the customer newsletter.",
  "Sure, the newsletter goes out on Friday morning.",
  "Do we have the crash numbers from the last build?",
  "Crashes fell by half since the memory fix landed.",
  "Great work. Let us keep watching them after launch.",
  "The analytics dashboard needs the new funnel events.",
  "I will add the funnel events before Thursday.",
  "Legal still has to approve the new privacy text.",
  "I will ask legal again this afternoon.",
  "Who is on call during the launch weekend?",
  "Maya is on call Saturday and I take Sunday.",
  "Then we need the runbook updated by Friday.",
  "I will update the runbook with the rollback steps.",
  "Anything else before we close the meeting?",
  "Only that the launch party is on the next Tuesday.",
  "Perfect. Thanks everyone, see you on Thursday."
]
// Mostly alternating, with a few turns where one person says two things.
const SCRIPT: ReadonlyArray<Line> = SENTENCES.map((text, index) => ({
  speaker: (index % 5 === 4 ? (index + 1) % 2 : index % 2) as 0 | 1,
  text
}))

const available = espeakAvailable()
const env = ["STT_ENGINE", "STT_BASE_URL", "STT_API_KEY", "STT_MODEL", "STT_LANGUAGE", "STT_CHUNK_SECONDS", "STT_PARALLELISM"] as const
const saved = Object.fromEntries(env.map((name) => [name, process.env[name]]))
const configure = (values: Partial<Record<(typeof env)[number], string>>) => {
  for (const name of env) delete process.env[name]
  Object.assign(process.env, values)
}

let atrium: TestServer
let alice: User
let bob: User
let workspaceId: string
let speech: Speech

const settledSlowly = async (recordingId: number) => {
  const seen = new Set<string>()
  for (let i = 0; i < 1200; i++) {
    const progress = await atrium.request("GET", `/hub/v1/recordings/${recordingId}/progress`, { token: alice.token })
    if (progress.body.stage) seen.add(progress.body.stage)
    if (progress.body.status === "ready" || progress.body.status === "failed") return { ...progress.body, stages: [...seen] }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`recording ${recordingId} never settled`)
}

/** A recording of both users with `media` uploaded (no transcript), processed. */
const recordWith = async (media: Uint8Array, contentType: string) => {
  const created = await atrium.request("POST", "/hub/v1/recordings", {
    token: alice.token,
    body: { workspaceId, name: "Mobile launch review", attendeeEmails: [alice.email, bob.email] }
  })
  expect(created.status, created.text).toBe(202)
  const upload = await atrium.request("PUT", `/hub/v1/recordings/${created.body.id}/media`, {
    token: alice.token,
    rawBody: media,
    headers: { "content-type": contentType }
  })
  expect(upload.status, upload.text).toBe(202)
  return { id: created.body.id as number, callId: created.body.callId as number, progress: await settledSlowly(created.body.id) }
}

const transcriptOf = async (callId: number) => {
  const transcript = await atrium.request("GET", `/hub/v1/calls/${callId}/transcript`, { token: alice.token })
  expect(transcript.status, transcript.text).toBe(200)
  return transcript.body as { segments: Array<{ speaker: string; startMs: number; endMs: number; text: string }> }
}

describe("stitching chunks", () => {
  it("cuts in the middle of a silence under the limit, overlapping each neighbour", () => {
    const plans = planChunks(
      100_000,
      [
        { startMs: 30_000, endMs: 31_000 },
        { startMs: 60_000, endMs: 62_000 }
      ],
      43_000,
      1500
    )
    expect(plans.map((p) => [p.ownStartMs, p.ownEndMs])).toEqual([
      [0, 30_500],
      [30_500, 61_000],
      [61_000, 100_000]
    ])
    expect(plans[1]).toMatchObject({ startMs: 29_000, endMs: 62_500 })
    // No silence in reach: cut at the limit.
    expect(planChunks(90_000, [], 43_000, 1500).map((p) => p.ownEndMs)).toEqual([40_000, 80_000, 90_000])
  })

  it("keeps each segment once, in the chunk its middle falls in, and drops words heard by both", () => {
    const segments = stitchTrack([
      {
        plan: { startMs: 0, endMs: 11_500, ownStartMs: 0, ownEndMs: 10_000 },
        heard: [
          { startMs: 0, endMs: 6000, text: "we ship on friday", speaker: null },
          { startMs: 8000, endMs: 10_400, text: "after the review of", speaker: null },
          { startMs: 10_600, endMs: 11_500, text: "the", speaker: null }
        ]
      },
      {
        plan: { startMs: 8500, endMs: 20_000, ownStartMs: 10_000, ownEndMs: 20_000 },
        heard: [
          { startMs: 0, endMs: 1900, text: "review of", speaker: null },
          { startMs: 1800, endMs: 5000, text: "of the beta", speaker: null }
        ]
      }
    ])
    expect(segments.map((s) => s.text)).toEqual(["we ship on friday", "after the review of", "the beta"])
  })

  it("merges tracks by time without overlapping segments", () => {
    const merged = mergeTracks([
      { segments: [{ startMs: 0, endMs: 3000, text: "hello", speaker: null }], speakerOf: () => "Alice" },
      { segments: [{ startMs: 2500, endMs: 4000, text: "hi", speaker: null }], speakerOf: () => "Bob" }
    ])
    expect(merged).toEqual([
      { speaker: "Alice", startMs: 0, endMs: 3000, text: "hello" },
      { speaker: "Bob", startMs: 3000, endMs: 4000, text: "hi" }
    ])
  })
})

describe.skipIf(!available)("speech to text through the engines", () => {
  beforeAll(async () => {
    speech = speak(SCRIPT)
    atrium = await startAtrium()
    alice = await signUp(atrium, "Alice")
    bob = await signUp(atrium, "Bob")
    workspaceId = await workspaceWith(atrium, alice, [bob])
  }, 120_000)
  afterAll(async () => {
    configure({})
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, value]) => value !== undefined)))
    await atrium?.close()
  })

  it("has a three-minute call to transcribe", () => {
    expect(speech.durationMs).toBeGreaterThan(150_000)
  })

  it("without an engine, keeps the media and says how to get a transcript", async () => {
    configure({})
    const { id, progress } = await recordWith(singleTrackWav(speech), "audio/wav")
    expect(progress.status).toBe("failed")
    expect(progress.error).toMatch(/No transcription engine is configured.*STT_BASE_URL/)
    const media = await atrium.request("GET", `/hub/v1/recordings/${id}/media`, { token: alice.token })
    expect(media.body).toMatchObject({ hasAudio: true })
    const audio = await atrium.request("GET", `/hub/v1/recordings/${id}/audio-url`, { token: alice.token })
    expect(audio.status).toBe(200)
  }, 300_000)

  it("transcribes a bot's multi-track file per track, attributing each track, and stitches chunks without repeated words", async () => {
    const engine = await fakeOpenAiEngine(speech, speech.tracks)
    // Second request: 429 with Retry-After; third: 500. Every other answer is a transcript.
    engine.plan = (n) => (n === 2 ? { status: 429, headers: { "retry-after": "1" } } : n === 3 ? { status: 500 } : "answer")
    configure({
      STT_BASE_URL: engine.url,
      STT_API_KEY: "stt-key",
      STT_MODEL: "whisper-large-v3",
      STT_CHUNK_SECONDS: "40",
      STT_LANGUAGE: "en"
    })
    try {
      const { id, callId, progress } = await recordWith(multiTrackMov(speech, [alice.email, bob.email]), "video/quicktime")
      expect(progress.status, progress.error).toBe("ready")
      expect(progress.stages).toContain("transcribing")

      // Every request is the protocol's multipart: a 16 kHz mono WAV under the chunk limit, and the fields.
      for (const request of engine.requests) {
        expect(request.path).toBe("/v1/audio/transcriptions")
        expect(request.headers.authorization).toBe("Bearer stt-key")
        expect(request.heard).not.toBe("not-wav")
        expect(request.bytes).toBeLessThanOrEqual(40 * 32_000 + 1024)
        expect(request.fields).toMatchObject({
          model: ["whisper-large-v3"],
          response_format: ["verbose_json"],
          "timestamp_granularities[]": ["segment"],
          language: ["en"],
          file: ["file:audio/wav:chunk.wav"]
        })
        expect(request.fields.prompt?.[0]).toContain("Alice")
      }
      // Several chunks per track; each sent once, but the two that failed: twice.
      const chunks = new Map<string, number>()
      for (const request of engine.requests) {
        if (typeof request.heard === "string") continue
        const key = `${request.heard.track}:${Math.round(request.heard.offsetMs)}`
        chunks.set(key, (chunks.get(key) ?? 0) + 1)
      }
      expect(chunks.size).toBeGreaterThanOrEqual(8)
      expect([...chunks.values()].sort()).toEqual([...Array(chunks.size - 2).fill(1), 2, 2])
      const stored = await atrium.sql(`SELECT sends FROM hub_transcription_chunks WHERE recording_id = $1`, [id])
      expect(stored.map((row) => Number(row.sends)).sort()).toEqual([...chunks.values()].sort())

      const { segments } = await transcriptOf(callId)
      // Each person's words, attributed by track, in order, none repeated at a chunk border.
      for (const [speaker, name] of [
        [0, "Alice"],
        [1, "Bob"]
      ] as const) {
        const spoken = segments.filter((s) => s.speaker === name).map((s) => s.text)
        const said = SCRIPT.filter((line) => line.speaker === speaker).map((line) => line.text)
        expect(wordsOf(spoken), JSON.stringify(segments.filter((s) => s.speaker === name))).toEqual(wordsOf(said))
      }
      expect(new Set(segments.map((s) => s.speaker))).toEqual(new Set(["Alice", "Bob"]))
      expect(segments.every((s, i) => i === 0 || s.startMs >= segments[i - 1]!.endMs)).toBe(true)
      // The transcript is placed where it was said.
      const launch = segments.find((s) => s.text.includes("launch party"))!
      const said = speech.lines.find((line) => line.text.includes("launch party"))!
      expect(Math.abs(launch.startMs - said.startMs)).toBeLessThan(1000)

      // Both participants get their own version, from what was said.
      for (const user of [alice, bob]) {
        const recording = await atrium.request("GET", `/hub/v1/recordings/${id}`, { token: user.token })
        expect(recording.status).toBe(200)
        expect(`${recording.body.summary} ${recording.body.keyPoints.join(" ")}`.toLowerCase()).toMatch(/launch|login|pricing|runbook/)
      }
      // Engine use is metered: one credit per started minute of audio sent.
      const usage = await atrium.sql(
        `SELECT purpose, model, credits, duration_ms FROM lens_usage WHERE workspace_id = $1 AND purpose = 'transcription'`,
        [workspaceId]
      )
      expect(usage).toHaveLength(1)
      expect(usage[0]).toMatchObject({ model: "whisper-large-v3" })
      expect(usage[0].duration_ms).toBeGreaterThan(2 * 150_000)

      // A full reprocess with the same engine and media sends nothing again; another model transcribes anew.
      const before = engine.requests.length
      const again = await atrium.request("POST", `/hub/v1/recordings/${id}/reprocess`, { token: alice.token })
      expect(again.status, again.text).toBe(202)
      expect((await settledSlowly(id)).status).toBe("ready")
      expect(engine.requests.length).toBe(before)
      process.env.STT_MODEL = "whisper-turbo"
      await atrium.request("POST", `/hub/v1/recordings/${id}/reprocess`, { token: alice.token })
      expect((await settledSlowly(id)).status).toBe("ready")
      expect(engine.requests.length).toBe(before + chunks.size)
      expect(engine.requests.at(-1)!.fields.model).toEqual(["whisper-turbo"])
    } finally {
      await engine.close()
    }
  }, 300_000)

  it("names a single track's speakers by the engine's labels (OpenAI-compatible diarizing server)", async () => {
    const engine = await fakeOpenAiEngine(speech, [speech.mixed], true)
    configure({ STT_BASE_URL: engine.url, STT_CHUNK_SECONDS: "600" })
    try {
      const { callId, progress } = await recordWith(singleTrackWav(speech), "audio/wav")
      expect(progress.status, progress.error).toBe("ready")
      expect(engine.requests).toHaveLength(1)
      expect(engine.requests[0]!.headers.authorization).toBeUndefined()
      const { segments } = await transcriptOf(callId)
      expect(new Set(segments.map((s) => s.speaker))).toEqual(new Set(["Speaker 1", "Speaker 2"]))
      expect(wordsOf(segments.map((s) => s.text))).toEqual(wordsOf(SCRIPT.map((line) => line.text)))
    } finally {
      await engine.close()
    }
  }, 300_000)

  it("takes speakers from Deepgram's diarized utterances", async () => {
    const engine = await fakeDeepgram(speech, [speech.mixed])
    configure({ STT_ENGINE: "deepgram", STT_BASE_URL: engine.url, STT_API_KEY: "dg-key", STT_CHUNK_SECONDS: "600" })
    try {
      const { callId, progress } = await recordWith(singleTrackWav(speech), "audio/wav")
      expect(progress.status, progress.error).toBe("ready")
      const [request] = engine.requests
      expect(request!.path).toBe("/v1/listen")
      expect(request!.headers.authorization).toBe("Token dg-key")
      expect(request!.headers["content-type"]).toBe("audio/wav")
      expect(request!.fields).toMatchObject({ model: ["nova-3"], diarize: ["true"], utterances: ["true"] })
      const { segments } = await transcriptOf(callId)
      const first = SCRIPT[0]!.text
      const firstSpeaker = segments.find((s) => first.startsWith(s.text.split(" ")[0]!))!.speaker
      expect(firstSpeaker).toBe("Speaker 1")
      expect(new Set(segments.map((s) => s.speaker))).toEqual(new Set(["Speaker 1", "Speaker 2"]))
      expect(wordsOf(segments.map((s) => s.text))).toEqual(wordsOf(SCRIPT.map((line) => line.text)))
    } finally {
      await engine.close()
    }
  }, 300_000)

  it("transcribes live audio pieces as they arrive, placed where they start", async () => {
    const engine = await fakeOpenAiEngine(speech, [speech.mixed], true)
    configure({})
    try {
      const created = await atrium.request("POST", "/hub/v1/recordings", { token: alice.token, body: { workspaceId, name: "Live call" } })
      expect((await settledSlowly(created.body.id)).status).toBe("ready")
      const live = `/hub/v1/calls/${created.body.callId}/live-transcript`
      const [first, second] = speech.lines
      const startMs = Math.round(first!.startMs - 300)
      const piece = wavOf(speech.mixed.subarray(byteAt(startMs), byteAt(second!.endMs + 300))).toString("base64")
      const audio = { data: piece, startMs, speaker: "Alice" }

      const unconfigured = await atrium.request("POST", live, { token: alice.token, body: { audio } })
      expect(unconfigured.status).toBe(409)
      expect(unconfigured.body.error.message).toMatch(/STT_BASE_URL/)
      const both = await atrium.request("POST", live, {
        token: alice.token,
        body: { audio, segments: [{ speaker: "A", startMs: 0, endMs: 1, text: "x" }] }
      })
      expect(both.status).toBe(400)
      const neither = await atrium.request("POST", live, { token: alice.token, body: {} })
      expect(neither.status).toBe(400)

      configure({ STT_BASE_URL: engine.url })
      const appended = await atrium.request("POST", live, { token: alice.token, body: { audio } })
      expect(appended.status, appended.text).toBe(202)
      const { segments } = await transcriptOf(created.body.callId)
      expect(segments.every((s) => s.speaker === "Alice")).toBe(true)
      expect(wordsOf(segments.map((s) => s.text))).toEqual(wordsOf([first!.text, second!.text]))
      expect(Math.abs(segments[0]!.startMs - first!.startMs)).toBeLessThan(500)
    } finally {
      await engine.close()
    }
  }, 300_000)

  it("fails clearly when the engine refuses the audio, and never with an empty transcript", async () => {
    const engine = await fakeOpenAiEngine(speech, [speech.mixed])
    engine.plan = () => ({ status: 401 })
    configure({ STT_BASE_URL: engine.url, STT_CHUNK_SECONDS: "600" })
    try {
      const { progress } = await recordWith(singleTrackWav(speech), "audio/wav")
      expect(progress.status).toBe("failed")
      expect(progress.error).toMatch(/refused the audio \(401\)/)
      expect(engine.requests).toHaveLength(1)
    } finally {
      await engine.close()
    }
  }, 300_000)
})
