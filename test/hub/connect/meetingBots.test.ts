/**
 * Meeting bots and vendor calls against local fakes: a meeting-bot provider
 * (schedules, cancels, hands over transcripts) and one fake server speaking
 * the video-meeting, team-meeting and office-suite vendors' shapes. The
 * provider's signed status callbacks (bad signature or stale → 401,
 * malformed → 400, replay → 200 without effect, out-of-order → stale) and,
 * on `done`, the recording imported for the calendar occurrence.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signPayment } from "../../../actors/billing/PaymentSignature.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { apiKey, fakeServer, json, type User, workspaceWith } from "../support/calls.ts"

const BOT_SECRET = "bot_whsec_test"
const saved = Object.fromEntries(
  ["HUB_BOT_PROVIDER_URL", "HUB_BOT_PROVIDER_API_KEY", "HUB_BOT_WEBHOOK_SECRET", "ATRIUM_ALLOW_PRIVATE_URLS"].map((name) => [
    name,
    process.env[name]
  ])
)
let atrium: TestServer
let provider: Awaited<ReturnType<typeof fakeServer>>
let vendors: Awaited<ReturnType<typeof fakeServer>>
let alice: User
let bob: User
let outsider: User
let workspaceId: string
let occurrenceId: string
let providerFails = false
let vendorLimited = false
let vendorFailures = 0
let botCount = 0

const vtt =
  "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Alice>We ship the beta on Friday.\n\n00:00:04.500 --> 00:00:08.000\n<v Bob>I'll fix the login bug first.\n"

beforeAll(async () => {
  provider = await fakeServer((request, response) => {
    if (request.headers.authorization !== "Token bot-key") return json(response, 401, {})
    if (request.method === "POST" && request.url === "/api/v1/bot/") return json(response, 201, { id: `bot_${++botCount}` })
    if (request.method === "DELETE" || request.url.endsWith("/leave_call/")) return json(response, 200, {})
    if (request.url.endsWith("/transcript/")) {
      if (providerFails) return json(response, 500, {})
      return json(response, 200, [
        {
          speaker: "Alice",
          words: [
            { text: "Launch", start_time: 0, end_time: 0.5 },
            { text: "plan.", start_time: 0.6, end_time: 1 }
          ]
        },
        { speaker: "Bob", words: [{ text: "I'll send the timeline.", start_time: 1.2, end_time: 3 }] }
      ])
    }
    json(response, 404, {})
  })
  vendors = await fakeServer((request, response) => {
    // The transcript download is on "another host" (localhost): it must come without the API token.
    if (request.url === "/download/812.vtt") {
      if (request.headers.authorization !== undefined) return json(response, 400, { error: "token leaked" })
      response.writeHead(200, { "content-type": "text/vtt" })
      return response.end(vtt)
    }
    if (request.headers.authorization !== "Bearer vendor-token") return json(response, 401, {})
    if (vendorLimited) return json(response, 429, {}, { "retry-after": "30" })
    if (vendorFailures > 0) {
      vendorFailures--
      return json(response, 503, {})
    }
    const url = request.url
    const videomeet = {
      id: 81234567890,
      topic: "Weekly sync",
      start_time: "2026-12-01T10:00:00Z",
      duration: 30,
      join_url: "https://videomeet.example.com/j/812"
    }
    const teams = {
      id: "MSo1N2Y5",
      subject: "Design review",
      startDateTime: "2026-12-02T09:00:00Z",
      endDateTime: "2026-12-02T09:45:00Z",
      joinWebUrl: "https://workchat.example.com/l/meetup-join/19",
      participants: { attendees: [{ upn: bob.email }] }
    }
    const suite = {
      name: "conferenceRecords/abc-123",
      startTime: "2026-12-03T15:00:00Z",
      endTime: "2026-12-03T15:30:00Z",
      meetingUri: "https://suite.example.com/abc"
    }
    if (url.startsWith("/users/me/meetings")) return json(response, 200, { meetings: [videomeet] })
    if (url === "/meetings/81234567890") return json(response, 200, videomeet)
    if (url === "/meetings/81234567890/recordings")
      return json(response, 200, {
        recording_files: [{ file_type: "TRANSCRIPT", download_url: `${vendors.url.replace("127.0.0.1", "localhost")}/download/812.vtt` }]
      })
    if (url === "/me/onlineMeetings") return json(response, 200, { value: [teams] })
    if (url === "/me/onlineMeetings/MSo1N2Y5") return json(response, 200, teams)
    if (url === "/me/onlineMeetings/MSo1N2Y5/transcripts") return json(response, 200, { value: [{ id: "t1" }] })
    if (url.startsWith("/me/onlineMeetings/MSo1N2Y5/transcripts/t1/content")) {
      response.writeHead(200, { "content-type": "text/vtt" })
      return response.end(vtt)
    }
    if (url === "/v2/conferenceRecords") return json(response, 200, { conferenceRecords: [suite] })
    if (url === "/v2/conferenceRecords/abc-123") return json(response, 200, suite)
    if (url === "/v2/conferenceRecords/abc-123/transcripts")
      return json(response, 200, { transcripts: [{ name: "conferenceRecords/abc-123/transcripts/tr1" }] })
    if (url === "/v2/conferenceRecords/abc-123/transcripts/tr1/entries")
      return json(response, 200, {
        transcriptEntries: [
          { participantName: "Alice", text: "Quarterly goals first.", startTime: "2026-12-03T15:00:01Z", endTime: "2026-12-03T15:00:04Z" },
          { participantName: "Bob", text: "Hiring second.", startTime: "2026-12-03T15:00:05Z", endTime: "2026-12-03T15:00:07Z" }
        ]
      })
    json(response, 404, {})
  })
  Object.assign(process.env, {
    HUB_BOT_PROVIDER_URL: provider.url,
    HUB_BOT_PROVIDER_API_KEY: "bot-key",
    HUB_BOT_WEBHOOK_SECRET: BOT_SECRET,
    ATRIUM_ALLOW_PRIVATE_URLS: "1"
  })
  atrium = await startAtrium()
  ;[alice, bob, outsider] = await Promise.all(["Alice", "Bob", "Outsider"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice, [bob])
  const event = await atrium.request("POST", "/hub/v1/calendar/events", {
    token: alice.token,
    body: {
      title: "Weekly sync",
      start: "2030-12-02T10:00:00.000Z",
      end: "2030-12-02T10:30:00.000Z",
      location: "https://videomeet.example.com/j/812",
      recurrence: "FREQ=WEEKLY;COUNT=3",
      attendeeEmails: [bob.email]
    }
  })
  expect(event.status, event.text).toBe(201)
  const listed = await atrium.request("GET", "/hub/v1/calendar/events?from=2030-12-01T00:00:00.000Z&to=2030-12-03T00:00:00.000Z", {
    token: alice.token
  })
  occurrenceId = listed.body.items[0].occurrenceId
  for (const vendor of ["videomeet", "workchat", "suite"]) {
    const connected = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/integrations`, {
      token: alice.token,
      body: { vendor, name: `Our ${vendor}`, baseUrl: vendors.url, token: "vendor-token" }
    })
    expect(connected.status, connected.text).toBe(201)
  }
}, 60_000)
afterAll(async () => {
  await atrium?.close()
  await Promise.all([provider?.close(), vendors?.close()])
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const hub = (method: string, path: string, body?: unknown, token = alice.token) =>
  atrium.request(method, `/hub/v1/workspaces/${workspaceId}${path}`, { token, ...(body !== undefined ? { body } : {}) })

const statusEvent = (id: string, botId: string, code: string, at: Date) => ({
  id,
  event: "bot.status_change",
  data: { bot: { id: botId, metadata: { workspaceId } }, status: { code, updated_at: at.toISOString() } }
})

const callback = (event: unknown, options: { secret?: string; at?: number; body?: string } = {}) => {
  const body = options.body ?? JSON.stringify(event)
  const t = options.at ?? Math.floor(Date.now() / 1000)
  return atrium.request("POST", "/hub/v1/videomeet/bot-events", {
    rawBody: body,
    headers: { "content-type": "application/json", "bot-signature": `t=${t},v1=${signPayment(options.secret ?? BOT_SECRET, t, body)}` }
  })
}

describe("meeting bots", () => {
  it("a bot for a calendar occurrence: scheduled at the provider, followed through signed callbacks, its recording imported for the occurrence", async () => {
    const scheduled = await hub("POST", "/videomeet/bots", { occurrenceId })
    expect(scheduled.status, scheduled.text).toBe(201)
    const bot = scheduled.body
    expect(bot).toMatchObject({
      status: "scheduled",
      occurrenceId,
      meetingUrl: "https://videomeet.example.com/j/812",
      title: "Weekly sync"
    })
    const sent = provider.requests.find((request) => request.method === "POST")!
    expect(sent.body).toMatchObject({ meeting_url: bot.meetingUrl, join_at: "2030-12-02T10:00:00.000Z", metadata: { workspaceId } })
    expect((await hub("POST", "/videomeet/bots", { occurrenceId })).status).toBe(409)

    const t0 = Date.now()
    const recording = statusEvent("evt_1", bot.providerBotId, "in_call_recording", new Date(t0))
    expect((await callback(recording, { secret: "wrong" })).status).toBe(401)
    expect((await callback(recording, { at: Math.floor(t0 / 1000) - 400 })).status).toBe(401)
    expect((await callback(undefined, { body: "{oops" })).status).toBe(400)
    const malformed = await callback({ ...recording, data: { ...recording.data, status: { code: "dancing", updated_at: "x" } } })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details[0].path).toMatch(/^body\.data\.status/)
    expect((await hub("GET", `/videomeet/bots/${bot.id}`)).body.status).toBe("scheduled")

    expect((await callback(recording)).body).toMatchObject({ outcome: "applied", status: "in_call_recording", botId: bot.id })
    expect((await callback(recording)).body.outcome).toBe("duplicate")
    expect((await callback(statusEvent("evt_0", bot.providerBotId, "joining_call", new Date(t0 - 5000)))).body.outcome).toBe("stale")

    providerFails = true
    const done = statusEvent("evt_2", bot.providerBotId, "done", new Date(t0 + 1000))
    const failed = await callback(done)
    expect(failed.status).toBe(502)
    expect(failed.body.error.message).toMatch(/meeting-bot provider/)
    expect((await hub("GET", `/videomeet/bots/${bot.id}`)).body).toMatchObject({ status: "in_call_recording", recordingId: null })
    providerFails = false
    const imported = await callback(done)
    expect(imported.body).toMatchObject({ outcome: "applied", status: "done" })
    const finished = (await hub("GET", `/videomeet/bots/${bot.id}`)).body
    expect(finished.recordingId).toEqual(expect.any(Number))
    expect((await callback(done)).body.outcome).toBe("duplicate")

    const call = await atrium.request("GET", `/hub/v1/recordings/${finished.recordingId}`, { token: bob.token })
    expect(call.status, call.text).toBe(200)
    expect(call.body).toMatchObject({ calendarEventId: occurrenceId, name: "Weekly sync" })
    const listed = await hub("GET", "/videomeet/bots?status=done")
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([bot.id])
    expect((await hub("GET", "/billing/usage")).body.meetingBots).toBe(1)
  })

  it("a bot by URL: joinAt in the past refused, cancelled at the provider, finished bots stay finished", async () => {
    expect((await hub("POST", "/videomeet/bots", {})).body.error.details[0].path).toBe("body.meetingUrl")
    expect((await hub("POST", "/videomeet/bots", { meetingUrl: "https://m.example.com/x", joinAt: "2001-01-01T00:00:00Z" })).status).toBe(
      400
    )
    expect((await hub("POST", "/videomeet/bots", { meetingUrl: "https://m.example.com/x", colour: "red" })).status).toBe(400)
    const bot = (await hub("POST", "/videomeet/bots", { meetingUrl: "https://m.example.com/x", title: "Ad hoc" })).body
    expect(bot).toMatchObject({ status: "scheduled", occurrenceId: null, joinAt: null })
    const cancelled = await hub("DELETE", `/videomeet/bots/${bot.id}`, undefined, bob.token)
    expect(cancelled.body.status).toBe("cancelled")
    expect(provider.requests.some((request) => request.method === "DELETE" && request.url === `/api/v1/bot/${bot.providerBotId}/`)).toBe(
      true
    )
    expect((await hub("DELETE", `/videomeet/bots/${bot.id}`)).status).toBe(409)
    expect((await callback(statusEvent("evt_late", bot.providerBotId, "in_call_recording", new Date()))).body.outcome).toBe("ignored")
    const twice = await Promise.all([1, 2].map(() => hub("POST", "/videomeet/bots", { meetingUrl: "https://m.example.com/z" })))
    expect(twice.map((reply) => reply.status).sort()).toEqual([201, 409])
    const doomed = twice.find((reply) => reply.status === 201)!.body
    const fatal = statusEvent("evt_fatal", doomed.providerBotId, "fatal", new Date())
    const reported = await callback({ ...fatal, data: { ...fatal.data, status: { ...fatal.data.status, message: "Meeting locked" } } })
    expect(reported.body).toMatchObject({ outcome: "applied", status: "fatal" })
    expect((await hub("GET", `/videomeet/bots/${doomed.id}`)).body).toMatchObject({
      status: "fatal",
      error: "Meeting locked",
      recordingId: null
    })
    const stranger = statusEvent("evt_other", "bot_unknown", "done", new Date())
    expect(
      (
        await callback({
          ...stranger,
          data: { ...stranger.data, bot: { id: "bot_unknown", metadata: { workspaceId: "00000000-0000-4000-8000-000000000000" } } }
        })
      ).body.outcome
    ).toBe("ignored")
  })

  it("another workspace's user sees no bots; an API key needs the recordings scopes", async () => {
    expect((await hub("GET", "/videomeet/bots", undefined, outsider.token)).status).toBe(404)
    const reader = await apiKey(atrium, alice, workspaceId, ["recordings:read"])
    const asKey = (method: string, path: string, body?: unknown) =>
      atrium.request(method, `/hub/v1/workspaces/${workspaceId}${path}`, { headers: { "x-api-key": reader }, ...(body ? { body } : {}) })
    expect((await asKey("GET", "/videomeet/bots")).status).toBe(200)
    expect((await asKey("POST", "/videomeet/bots", { meetingUrl: "https://m.example.com/y" })).status).toBe(403)
  })
})

describe("vendor calls", () => {
  it("video-meeting app: list, get, link to an occurrence, import once for it", async () => {
    const listed = await hub("GET", "/videomeet/meetings")
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: "81234567890", title: "Weekly sync", endAt: "2026-12-01T10:30:00.000Z", occurrenceId: null })
    ])
    expect(JSON.stringify(listed.body)).not.toContain("vendor-token")
    expect((await hub("PUT", "/videomeet/meetings/81234567890/link", { occurrenceId: "nope" })).status).toBe(404)
    const linked = await hub("PUT", "/videomeet/meetings/81234567890/link", { occurrenceId })
    expect(linked.body).toMatchObject({ vendor: "videomeet", occurrenceId, recordingId: null })
    const imported = await hub("POST", "/videomeet/meetings/81234567890/import", {})
    expect(imported.status, imported.text).toBe(202)
    expect(imported.body.link).toMatchObject({ occurrenceId, recordingId: imported.body.recordingId })
    const recording = await atrium.request("GET", `/hub/v1/recordings/${imported.body.recordingId}`, { token: alice.token })
    expect(recording.body.calendarEventId).toBe(occurrenceId)
    expect((await hub("POST", "/videomeet/meetings/81234567890/import", {})).status).toBe(409)
    expect((await hub("GET", "/videomeet/meetings/81234567890")).body.recordingId).toBe(imported.body.recordingId)
  })

  it("team-meeting app: transcript, import with attendees, links, bot start and stop", async () => {
    const transcript = await hub("GET", "/workchat/meetings/MSo1N2Y5/transcript")
    expect(transcript.body.segments).toEqual([
      { speaker: "Alice", startMs: 0, endMs: 4000, text: "We ship the beta on Friday." },
      { speaker: "Bob", startMs: 4500, endMs: 8000, text: "I'll fix the login bug first." }
    ])
    const started = await hub("POST", "/workchat/meetings/MSo1N2Y5/bot", {})
    expect(started.status, started.text).toBe(201)
    expect(started.body).toMatchObject({
      meetingUrl: "https://workchat.example.com/l/meetup-join/19",
      meeting: { vendor: "workchat", meetingId: "MSo1N2Y5" }
    })
    expect((await hub("DELETE", "/workchat/meetings/MSo1N2Y5/bot")).body.status).toBe("cancelled")
    expect((await hub("DELETE", "/workchat/meetings/MSo1N2Y5/bot")).status).toBe(404)
    const imported = await hub("POST", "/workchat/meetings/MSo1N2Y5/import", { occurrenceId, name: "Design review (imported)" })
    expect(imported.status, imported.text).toBe(202)
    const recording = await atrium.request("GET", `/hub/v1/recordings/${imported.body.recordingId}`, { token: bob.token })
    expect(recording.status).toBe(200)
    expect(recording.body.attendees.map((a: { email: string }) => a.email)).toContain(bob.email)
    const links = await hub("GET", "/workchat/links")
    expect(links.body.items).toEqual([expect.objectContaining({ meetingId: "MSo1N2Y5", occurrenceId })])
    expect((await hub("DELETE", "/workchat/meetings/MSo1N2Y5/link")).body.occurrenceId).toBeNull()
    expect((await hub("DELETE", "/workchat/meetings/MSo1N2Y5/link")).status).toBe(404)
  })

  it("office suite: conference records and transcript entries become segments", async () => {
    const listed = await hub("GET", "/suite/meetings")
    expect(listed.body.items[0]).toMatchObject({ id: "abc-123", joinUrl: "https://suite.example.com/abc" })
    const transcript = await hub("GET", "/suite/meetings/abc-123/transcript")
    expect(transcript.body.segments).toEqual([
      { speaker: "Alice", startMs: 0, endMs: 3000, text: "Quarterly goals first." },
      { speaker: "Bob", startMs: 4000, endMs: 6000, text: "Hiring second." }
    ])
    expect((await hub("GET", "/suite/meetings/missing")).status).toBe(404)
    // Two imports at once: one recording, the other refused (being imported, or already imported).
    const both = await Promise.all([hub("POST", "/suite/meetings/abc-123/import", {}), hub("POST", "/suite/meetings/abc-123/import", {})])
    expect(both.map((reply) => reply.status).sort()).toEqual([202, 409])
  })

  it("a rate-limiting or failing vendor is a 502 naming it (a read is retried once); no connection is a 409; outsiders see nothing", async () => {
    vendorLimited = true
    const limited = await hub("GET", "/suite/meetings")
    vendorLimited = false
    expect(limited.status).toBe(502)
    expect(limited.body.error.message).toMatch(/office suite "Our suite" is rate limiting; retry after 30/)
    vendorFailures = 1
    expect((await hub("GET", "/suite/meetings")).status).toBe(200)
    vendorFailures = 2
    const failing = await hub("GET", "/suite/meetings")
    expect(failing.status).toBe(502)
    expect(failing.body.error.message).toMatch(/office suite "Our suite" failed \(503\)/)
    const other = await workspaceWith(atrium, outsider, [])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${other}/suite/meetings`, { token: outsider.token })).status).toBe(409)
    expect((await hub("GET", "/suite/meetings", undefined, outsider.token)).status).toBe(404)
    expect((await hub("GET", "/suite/meetings/bad%20id")).status).toBe(400)
  })
})
