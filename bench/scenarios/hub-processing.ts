import { join } from "node:path"
import { Histogram } from "../load/Histogram.ts"
import { type HttpLoad, runHttpLoad } from "../load/http.ts"
import { machineBusyCores, readMachine, type Server, startHttpServer, tsNode, usageBetween } from "../process.ts"
import type { Point, RunOptions, Scenario, Series, Target } from "../Scenario.ts"
import { failedSeries } from "../Scenario.ts"
import { inputKey, type NoteTemplate, type VersionInputs } from "../../actors/hub/summarizer/VersionInputs.ts"
import { startEmbeddedAtrium } from "../subjects/embedded-server.ts"

const PARTICIPANTS = 10
/** Recordings measured per series: a recording costs the server about a tenth of a second, read from /proc in 10 ms ticks. */
const RECORDINGS = 10
/** Participants per input set: no personal input, then three note templates. */
const SETS = [4, 3, 2, 1]
const SPEAKERS = ["Alice", "Bob", "Carol", "Dan"]
const TOPICS = [
  "pricing",
  "launch",
  "hiring",
  "budget",
  "roadmap",
  "security",
  "onboarding",
  "analytics",
  "support",
  "design",
  "billing",
  "mobile"
]
const ADJECTIVES = ["better", "worse", "steady", "uneven", "promising", "late", "early", "solid"]
const SENTENCES = [
  (t: string, n: number, a: string) => `We reviewed the ${t} numbers for week ${n} and they look ${a} compared with last quarter.`,
  (t: string, n: number) => `I'll update the ${t} plan and share it with everyone by Friday, item ${n}.`,
  (t: string, n: number) => `Bob, can you check the ${t} dashboard before the review on day ${n}?`,
  (t: string, n: number, a: string) => `The ${t} team needs more time for milestone ${n} because the estimate was ${a}.`,
  (t: string, n: number) => `We need to decide who owns ${t} for phase ${n} before the end of the month.`,
  (t: string, n: number) => `Customers asked about ${t} again in ticket ${n}, so support wants a clear answer.`
]

/** About `words` words of meeting, in 6-second segments rotating over four speakers. */
export const meetingTranscript = (words: number) => {
  const segments: Array<{ speaker: string; startMs: number; endMs: number; text: string }> = []
  let count = 0
  for (let i = 0; count < words; i++) {
    const text = SENTENCES[i % SENTENCES.length]!(TOPICS[(i * 7) % TOPICS.length]!, i + 1, ADJECTIVES[i % ADJECTIVES.length]!)
    count += text.split(/\s+/).length
    segments.push({ speaker: SPEAKERS[i % SPEAKERS.length]!, startMs: i * 6000, endMs: i * 6000 + 5800, text })
  }
  return segments
}

const templateOf = (set: number): NoteTemplate => ({
  name: `Template ${set}`,
  sections: [
    { title: TOPICS[set]!, instruction: `What was said about ${TOPICS[set]}` },
    { title: "Next steps", instruction: "owners and dates" }
  ]
})

/** The participants' inputs: SETS[0] without personal input, the others sharing one template per set. */
const participantInputs = (): Array<VersionInputs> =>
  SETS.flatMap((size, set) =>
    Array.from({ length: size }, () => ({
      workspacePrompt: null,
      personalPrompt: null,
      notes: null,
      template: set === 0 ? null : templateOf(set)
    }))
  )

/**
 * The summarizer's own version work in this process: one generation per distinct input set, or one per
 * participant. Each recording's transcript is analysed first, outside the measure: that analysis is done
 * once per recording whatever the sharing (`prepare`), so it is reported apart (`analysisMs`).
 */
/** Loaded when measured, not with the runner (wink-nlp's model costs the runner of every scenario seconds of CPU). */
type Summarizer = typeof import("../../actors/hub/summarizer/LocalSummarizer.ts")

const measureSummarizer = (
  { prepare, summarize }: Summarizer,
  shared: boolean,
  words: number,
  runs: number
): { point: Point; analysisMs: number } => {
  const histogram = new Histogram()
  const inputs = participantInputs()
  const wanted = shared ? [...new Map(inputs.map((i) => [inputKey(i), i])).values()] : inputs
  // Warm the same code on both sides (every participant's inputs, a few transcripts): the side measured first must
  // not pay the JIT's warm-up alone.
  for (let run = 0; run < 3; run++) {
    const warm = meetingTranscript(words)
    for (const each of inputs) summarize({ segments: warm, inputs: each, meetingDate: "2026-11-24" })
  }
  let cpuMicros = 0
  let analysisMicros = 0
  let wallMs = 0
  for (let run = 0; run < runs; run++) {
    const segments = meetingTranscript(words)
    const analysisBefore = process.cpuUsage()
    prepare(segments, "2026-11-24")
    const analysis = process.cpuUsage(analysisBefore)
    analysisMicros += analysis.user + analysis.system
    const cpuBefore = process.cpuUsage()
    const t0 = performance.now()
    for (const each of wanted) summarize({ segments, inputs: each, meetingDate: "2026-11-24" })
    const elapsed = performance.now() - t0
    const cpu = process.cpuUsage(cpuBefore)
    cpuMicros += cpu.user + cpu.system
    wallMs += elapsed
    histogram.record(elapsed * 1e6)
  }
  const wallSec = wallMs / 1000
  const cpuSec = cpuMicros / 1e6
  return {
    analysisMs: analysisMicros / 1000 / runs,
    point: {
      load: PARTICIPANTS,
      durationSec: wallSec,
      ops: runs * PARTICIPANTS,
      errors: 0,
      throughput: (runs * PARTICIPANTS) / wallSec,
      latency: histogram.latency(),
      server: { cpuSec, cores: cpuSec / Math.max(1e-9, wallSec) }
    }
  }
}

const post = async (url: string, body: unknown, token?: string, method = "POST") => {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status}: ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

/** One Atrium with `shared` on or off: the participants, then `runs` recordings measured one after another. */
/** A closed-loop HTTP load on `server` (after a warmup), as one point with the server's CPU over the load alone. */
const loadPoint = async (server: Server, load: Omit<HttpLoad, "durationSec" | "connections">, options: RunOptions): Promise<Point> => {
  const connections = options.levels.at(-1) ?? PARTICIPANTS
  if (options.warmupSec > 0) await runHttpLoad({ ...load, connections, durationSec: options.warmupSec }, options.loader, options.root)
  let before = server.sample()
  const result = await runHttpLoad({ ...load, connections, durationSec: options.durationSec }, options.loader, options.root, () => {
    before = server.sample()
  })
  const after = server.sample()
  return {
    load: connections,
    durationSec: result.durationSec,
    ops: result.ok + result.errors,
    errors: result.errors,
    throughput: result.ok / result.durationSec,
    latency: result.latency,
    server: usageBetween(before, after),
    ...(result.loadgen ? { loadgen: result.loadgen } : {})
  }
}

/** The limit the issue measures getCall against: a bare uWS hello. */
const measureHello = async (options: RunOptions): Promise<Point> => {
  const [command, args] = tsNode(join(options.root, "bench/baselines/uws-hello.ts"))
  const server = await startHttpServer({ label: "uws-hello", command, args, cwd: options.root, readyPath: "/" })
  try {
    return await loadPoint(server, { url: `${server.url}/`, method: "GET" }, options)
  } finally {
    await server.stop()
  }
}

const measure = async (
  options: RunOptions,
  shared: boolean,
  words: number,
  runs: number
): Promise<{ point: Point; distinct: number; getCall?: Point }> => {
  const server = await startEmbeddedAtrium(options.root, { HUB_SHARE_VERSIONS: shared ? "1" : "0" })
  try {
    const users: Array<{ email: string; token: string }> = []
    for (let i = 0; i < PARTICIPANTS; i++) {
      const email = `p${i}-${Date.now().toString(36)}@bench.example`
      await post(`${server.url}/pm/v1/auth/register`, { email, password: "correct horse battery", name: `P${i}` })
      const login = await post(`${server.url}/pm/v1/auth/login`, { email, password: "correct horse battery" })
      users.push({ email, token: login.accessToken })
    }
    const owner = users[0]!
    const workspace = await post(`${server.url}/pm/v1/workspaces`, { name: "Bench meetings" }, owner.token)
    for (const user of users.slice(1))
      await post(`${server.url}/pm/v1/workspaces/${workspace.id}/members`, { email: user.email, role: "member" }, owner.token)
    // Set 0 has no personal input; sets 1..3 each share one note template.
    let index = SETS[0]!
    for (const [set, size] of SETS.entries()) {
      if (set === 0) continue
      const template = templateOf(set)
      for (let k = 0; k < size; k++) await post(`${server.url}/hub/v1/users/me/note-template`, template, users[index++]!.token, "PUT")
    }
    const segments = meetingTranscript(words)
    /** Uploads the meeting and waits until every participant's version is ready. */
    const processMeeting = async (name: string): Promise<{ id: number; callId: number }> => {
      const created = await post(
        `${server.url}/hub/v1/recordings`,
        { workspaceId: workspace.id, name, transcript: { format: "segments", segments }, attendeeEmails: users.map((u) => u.email) },
        owner.token
      )
      for (;;) {
        const progress = (await (
          await fetch(`${server.url}/hub/v1/recordings/${created.id}/progress`, { headers: { authorization: `Bearer ${owner.token}` } })
        ).json()) as { status: string; error: string | null }
        if (progress.status === "ready") return created
        if (progress.status === "failed") throw new Error(`processing failed: ${progress.error}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    // One meeting before the measure, as the getCall load has its warmup: the figures are the steady state's,
    // not the first run's JIT compilation (the same on both sides, over only a few runs).
    await processMeeting("Warm-up meeting")
    const histogram = new Histogram()
    const machineBefore = readMachine()
    const before = server.sample()
    const started = performance.now()
    let distinct = 0
    let lastCallId = 0
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now()
      const created = await processMeeting(`Meeting ${run}`)
      histogram.record((performance.now() - t0) * 1e6)
      lastCallId = created.callId
      if (run === 0) {
        const ids = new Set<string>()
        for (const user of users) {
          const call = (await (
            await fetch(`${server.url}/hub/v1/calls/${created.callId}`, { headers: { authorization: `Bearer ${user.token}` } })
          ).json()) as { notesVersion: { id: string } }
          ids.add(call.notesVersion.id)
        }
        distinct = ids.size
      }
    }
    const wallSec = (performance.now() - started) / 1000
    const after = server.sample()
    const machineAfter = readMachine()
    // Reading each participant's call (first run) is inside the window; it is the same on both sides.
    const point: Point = {
      load: PARTICIPANTS,
      durationSec: wallSec,
      ops: runs * PARTICIPANTS,
      errors: 0,
      throughput: (runs * PARTICIPANTS) / wallSec,
      latency: histogram.latency(),
      server: usageBetween(before, after),
      ...(machineBusyCores(machineBefore, machineAfter) !== undefined
        ? { machineBusyCores: machineBusyCores(machineBefore, machineAfter)! }
        : {})
    }
    // Reading a call with the caller's version, served from the call actor's memory.
    const getCall = shared
      ? await loadPoint(
          server,
          { url: `${server.url}/hub/v1/calls/${lastCallId}`, method: "GET", headers: { authorization: `Bearer ${users[1]!.token}` } },
          options
        )
      : undefined
    return { point, distinct, ...(getCall ? { getCall } : {}) }
  } finally {
    await server.stop()
  }
}

const cpuPerVersionMs = (point: Point) => ((point.server?.cpuSec ?? 0) * 1000) / point.ops

export const hubProcessing: Scenario = {
  name: "hub-processing",
  subject: "Recording processing: a 60-minute transcript to every participant's version ready, with and without version sharing",
  baselines: ["the same pipeline with sharing disabled (HUB_SHARE_VERSIONS=0): one generation per participant"],
  levels: { sweep: [PARTICIPANTS], smoke: PARTICIPANTS },
  workload: (options) => [
    `${options.smoke ? "about 600 words (smoke)" : "about 9,000 words (60 minutes, 6-second segments)"}, 4 speakers; ${PARTICIPANTS} participants in ${SETS.length} input sets (${SETS.join(", ")}): none, then three shared note templates.`,
    `${options.smoke ? 1 : RECORDINGS} recording(s) per series after one unmeasured warm-up recording, one after another, on Atrium (server/main.ts, PGlite, local summarizer); each from createRecording (202) to progress "ready".`,
    "A point's ops are participant versions made ready (10 per recording); server CPU is server/main.ts's over the whole series.",
    `Then getCall of the last recording (a member's own version) at ${options.levels.at(-1) ?? PARTICIPANTS} keep-alive connections for ${options.durationSec} s against a bare uWS hello, same loader.`
  ],
  estimateSec: (options) => (options.smoke ? 40 : 150),
  run: async (options, progress) => {
    const words = options.smoke ? 600 : 9000
    const runs = options.smoke ? 1 : RECORDINGS
    const series: Array<Series> = []
    const points = new Map<boolean, { point: Point; distinct: number; getCall?: Point }>()
    // Smoke: only the shared series end to end (one server start), enough to see the pipeline produce its figures.
    for (const shared of options.smoke ? [true] : [true, false]) {
      const label = shared ? "Atrium, versions shared" : "Atrium, sharing disabled"
      progress.update(shared ? 0 : 0.5, label)
      try {
        const measured = await measure(options, shared, words, runs)
        points.set(shared, measured)
        series.push({ label, role: shared ? "subject" : "baseline", status: "ok", points: [measured.point] })
        progress.note(
          `${label}: ${cpuPerVersionMs(measured.point).toFixed(1)} ms CPU per participant version, ${measured.distinct} distinct versions`
        )
      } catch (error) {
        series.push(failedSeries(label, shared ? "subject" : "baseline", error))
      }
    }
    let hello: Point | undefined
    try {
      progress.update(0.9, "uWS hello (limit)")
      hello = await measureHello(options)
    } catch (error) {
      progress.note(`uWS hello failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    const summarizer = await import("../../actors/hub/summarizer/LocalSummarizer.ts")
    const local = [true, false].map((shared) => measureSummarizer(summarizer, shared, words, options.smoke ? 2 : 50))
    const [localOn, localOff] = [local[0]!.point, local[1]!.point]
    const on = points.get(true)
    const off = points.get(false)
    const expected = PARTICIPANTS / SETS.length
    const targets: Array<Target> = [
      on && off
        ? {
            target: `sharing cuts server CPU per participant version by the ratio of distinct input sets (${PARTICIPANTS}/${SETS.length} = ${expected}×)`,
            figure: `${(cpuPerVersionMs(off.point) / cpuPerVersionMs(on.point)).toFixed(2)}× (${cpuPerVersionMs(on.point).toFixed(1)} ms vs ${cpuPerVersionMs(off.point).toFixed(1)} ms); ${on.distinct} distinct versions served`,
            met: cpuPerVersionMs(off.point) / cpuPerVersionMs(on.point) >= expected
          }
        : {
            target: `sharing cuts server CPU per participant version by ${expected}×`,
            figure: options.smoke ? "smoke: only the shared series runs" : "a series failed",
            met: undefined
          }
    ]
    const ratioLocal = cpuPerVersionMs(localOff) / cpuPerVersionMs(localOn)
    targets.push({
      target: `the summarizer's own CPU per participant version shrinks by ${expected}× with sharing (in process)`,
      figure: `${ratioLocal.toFixed(2)}× (${cpuPerVersionMs(localOn).toFixed(2)} ms vs ${cpuPerVersionMs(localOff).toFixed(2)} ms); the transcript's analysis, once per recording either way: ${local[0]!.analysisMs.toFixed(0)} ms`,
      met: ratioLocal >= expected
    })
    const getCall = points.get(true)?.getCall
    targets.push(
      getCall && hello
        ? {
            target: "getCall (the caller's version, from the call actor's memory) ≥ 25% of the uWS hello limit",
            figure: `${((100 * getCall.throughput) / hello.throughput).toFixed(0)}% (${getCall.throughput.toFixed(0)}/s vs ${hello.throughput.toFixed(0)}/s)`,
            met: getCall.throughput >= 0.25 * hello.throughput
          }
        : { target: "getCall ≥ 25% of the uWS hello limit", figure: "a series failed", met: undefined }
    )
    return {
      groups: [
        {
          name: "GET /hub/v1/calls/{callId} (caller's version)",
          unit: "req",
          series: [
            getCall
              ? { label: "Atrium getCall", role: "subject", status: "ok", points: [getCall] }
              : failedSeries("Atrium getCall", "subject", "the processing series failed"),
            hello
              ? { label: "uWS hello (limit)", role: "baseline", status: "ok", points: [hello] }
              : failedSeries("uWS hello (limit)", "baseline", "did not start")
          ]
        },
        { name: "createRecording → all participant versions ready", unit: "version", series },
        {
          name: "summarizer only, in this process (wink-nlp)",
          unit: "version",
          series: [
            { label: "one generation per distinct input set", role: "subject", status: "ok", points: [localOn] },
            { label: "one generation per participant", role: "baseline", status: "ok", points: [localOff] }
          ]
        }
      ],
      targets,
      notes: [
        "Server CPU includes what is the same on both sides (HTTP, transcript parsing, SQL, reading each participant's call once), so the ratio of the whole is below the ratio of the summarizer's own work.",
        "getCall is read by one member (a participant with a note template) over keep-alive connections; the uWS hello is a bare `GET /` (5 B)."
      ]
    }
  }
}
