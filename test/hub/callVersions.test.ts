/**
 * Recordings and calls end to end: creation and processing, the per-user
 * version rules exactly as the seed states them (identical inputs share one
 * version, no personal inputs → the shared default, changing one input
 * regenerates only what it affects, userNotes only the caller's own), scopes
 * and tenancy, malformed transcripts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { apiKey, record, segments, settled, type User, workspaceWith } from "./support/calls.ts"

let atrium: TestServer
let alice: User
let bob: User
let carol: User
let dan: User
let workspaceId: string

beforeAll(async () => {
  atrium = await startAtrium()
  ;[alice, bob, carol, dan] = await Promise.all(["Alice", "Bob", "Carol", "Dan"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice!, [bob!, carol!, dan!])
})
afterAll(() => atrium?.close())

const getCall = (user: User, callId: number) => atrium.request("GET", `/hub/v1/calls/${callId}`, { token: user.token })
const versionRows = async (recordingId: number) =>
  atrium.sql<{ key: string; isDefault: boolean; generatedAt: string }>(
    `SELECT input_key AS key, is_default AS "isDefault", generated_at::text AS "generatedAt" FROM hub_call_versions WHERE recording_id = $1 ORDER BY input_key`,
    [recordingId]
  )

describe("recordings and calls", () => {
  it("creates a recording (202, integer ids and a UUID), processes it asynchronously, and serves the call", async () => {
    const created = await record(atrium, alice.token, workspaceId, { attendeeEmails: [bob.email, "guest@outside.example"] })
    expect(Number.isInteger(created.id) && Number.isInteger(created.callId)).toBe(true)
    expect(created.callUuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(["queued", "processing", "ready"]).toContain(created.status)
    const progress = await settled(atrium, alice.token, created.id)
    expect(progress).toMatchObject({ status: "ready", percent: 100, error: null })

    const call = await getCall(bob, created.callId)
    expect(call.status).toBe(200)
    expect(call.body).toMatchObject({
      id: created.callId,
      uuid: created.callUuid,
      recordingId: created.id,
      name: "Launch review",
      userNotes: null
    })
    expect(call.body.attendees).toEqual([
      { email: bob.email, name: "Bob", userId: bob.userId },
      { email: "guest@outside.example", name: null, userId: null }
    ])
    expect(call.body.summary.length).toBeGreaterThan(20)
    expect(call.body.keyPoints.length).toBeGreaterThan(0)
    const timeline = call.body.actionItems.find((item: any) => item.text.includes("revised launch timeline"))
    // Spoken owner and due date: "I'll … by Friday" said by Alice (the meeting's day resolves Friday).
    expect(timeline).toMatchObject({ owner: "Alice", status: "open" })
    expect(timeline.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(new Date(`${timeline.dueDate}T00:00:00Z`).getUTCDay()).toBe(5)
    expect(call.body.actionItems.find((item: any) => item.text.startsWith("Bob, can you fix"))).toMatchObject({ owner: "Bob" })

    const byUuid = await atrium.request("GET", `/hub/v1/calls/by-uuid/${created.callUuid}`, { token: bob.token })
    expect(byUuid.body).toEqual(call.body)
    const recording = await atrium.request("GET", `/hub/v1/recordings/${created.id}`, { token: bob.token })
    expect(recording.body).toMatchObject({
      id: created.id,
      callId: created.callId,
      summary: call.body.summary,
      notesVersion: call.body.notesVersion
    })
    const transcript = await atrium.request("GET", `/hub/v1/calls/${created.callId}/transcript`, { token: bob.token })
    expect(transcript.body.segments).toEqual(segments)
  })

  it("applies the per-user version rules exactly", async () => {
    const created = await record(atrium, alice.token, workspaceId, { attendeeEmails: [bob.email, carol.email, dan.email] })
    await settled(atrium, alice.token, created.id)
    const id = created.callId

    // Nobody has personal inputs: everyone gets the default version, one stored version.
    const initial = await Promise.all([alice, bob, carol, dan].map((user) => getCall(user, id)))
    const defaultId = initial[0]!.body.notesVersion.id
    for (const view of initial) expect(view.body.notesVersion).toEqual({ id: defaultId, isDefault: true })
    expect(await versionRows(created.id)).toHaveLength(1)

    // Alice writes notes: her own version; the others keep the default, untouched.
    const before = await versionRows(created.id)
    const aliceNotes = await atrium.request("PUT", `/hub/v1/calls/${id}/my-notes`, {
      token: alice.token,
      body: { notes: "pricing tiers\nlogin errors" }
    })
    expect(aliceNotes.status).toBe(200)
    expect(aliceNotes.body.notesVersion.isDefault).toBe(false)
    expect(aliceNotes.body.notesVersion.id).not.toBe(defaultId)
    expect(aliceNotes.body.userNotes).toBe("pricing tiers\nlogin errors")
    expect(aliceNotes.body.enhancedNotes).toContain("- pricing tiers")
    expect(aliceNotes.body.enhancedNotes).toContain('Dan: "Pricing should stay simple')
    expect((await getCall(bob, id)).body.notesVersion).toEqual({ id: defaultId, isDefault: true })
    const afterAlice = await versionRows(created.id)
    expect(afterAlice).toHaveLength(2)
    expect(afterAlice.find((v) => v.key === defaultId)).toEqual(before.find((v) => v.key === defaultId))

    // Bob writes the same notes: identical inputs share Alice's version (nothing new generated).
    const bobNotes = await atrium.request("PUT", `/hub/v1/calls/${id}/my-notes`, {
      token: bob.token,
      body: { notes: "pricing tiers\nlogin errors" }
    })
    expect(bobNotes.body.notesVersion).toEqual(aliceNotes.body.notesVersion)
    expect(bobNotes.body.summary).toBe(aliceNotes.body.summary)
    expect(await versionRows(created.id)).toEqual(afterAlice)

    // userNotes is only the caller's own: Carol sees none, Bob his.
    expect((await getCall(carol, id)).body.userNotes).toBeNull()
    expect((await getCall(bob, id)).body.userNotes).toBe("pricing tiers\nlogin errors")

    // Dan's per-call prompt: his own version, steered by the prompt's terms.
    const danPrompt = await atrium.request("PUT", `/hub/v1/calls/${id}/my-prompt`, {
      token: dan.token,
      body: { prompt: "Focus on the venue and the party" }
    })
    expect(danPrompt.body).toMatchObject({
      myPrompt: "Focus on the venue and the party",
      userNotes: null,
      notesVersion: { isDefault: false }
    })
    expect(danPrompt.body.summary).toContain("venue")
    expect(await versionRows(created.id)).toHaveLength(3)

    // Alice changes her notes: only her version is regenerated; Bob keeps the one they shared.
    const aliceAgain = await atrium.request("PUT", `/hub/v1/calls/${id}/my-notes`, { token: alice.token, body: { notes: "venue" } })
    expect(aliceAgain.body.notesVersion.id).not.toBe(aliceNotes.body.notesVersion.id)
    expect((await getCall(bob, id)).body.notesVersion).toEqual(aliceNotes.body.notesVersion)
    const afterChange = await versionRows(created.id)
    for (const kept of afterAlice) expect(afterChange).toContainEqual(kept)

    // Carol sets a note template: her version is laid out by its sections; nobody else's changes.
    const template = {
      name: "Product review",
      sections: [
        { title: "Pricing", instruction: "pricing tiers and budget" },
        { title: "Risks", instruction: "bugs and complaints" }
      ]
    }
    expect((await atrium.request("PUT", "/hub/v1/users/me/note-template", { token: carol.token, body: template })).status).toBe(200)
    const carolView = (await getCall(carol, id)).body
    expect(carolView.notesVersion.isDefault).toBe(false)
    expect(carolView.enhancedNotes).toMatch(/^## Pricing\n- .*[Pp]ricing/)
    expect(carolView.enhancedNotes).toContain("## Risks")
    expect((await getCall(bob, id)).body.notesVersion).toEqual(aliceNotes.body.notesVersion)
    expect((await getCall(dan, id)).body.notesVersion).toEqual(danPrompt.body.notesVersion)

    // Clearing every personal input returns to the shared default.
    await atrium.request("PUT", `/hub/v1/calls/${id}/my-prompt`, { token: dan.token, body: { prompt: null } })
    expect((await getCall(dan, id)).body.notesVersion).toEqual({ id: defaultId, isDefault: true })
    expect((await atrium.request("DELETE", "/hub/v1/users/me/note-template", { token: carol.token })).status).toBe(204)
    expect((await getCall(carol, id)).body.notesVersion).toEqual({ id: defaultId, isDefault: true })

    // The workspace prompt is an input of every version: the default changes with it.
    await atrium.request("PATCH", `/hub/v1/workspaces/${workspaceId}/settings`, {
      token: alice.token,
      body: { customPrompt: "Decisions about pricing" }
    })
    const steered = (await getCall(carol, id)).body
    expect(steered.notesVersion.isDefault).toBe(true)
    expect(steered.notesVersion.id).not.toBe(defaultId)
    expect((await getCall(dan, id)).body.notesVersion).toEqual(steered.notesVersion)
    await atrium.request("PATCH", `/hub/v1/workspaces/${workspaceId}/settings`, { token: alice.token, body: { customPrompt: null } })
    expect((await getCall(carol, id)).body.notesVersion.id).toBe(defaultId)
  })

  it("regenerates summaries and reprocesses on request, and appends live segments", async () => {
    const created = await record(atrium, alice.token, workspaceId)
    await settled(atrium, alice.token, created.id)
    const regenerated = await atrium.request("POST", `/hub/v1/recordings/${created.id}/regenerate-summary`, { token: alice.token })
    expect(regenerated.status).toBe(202)
    expect(regenerated.body).toMatchObject({ id: created.id, status: "queued", percent: 0 })
    expect((await settled(atrium, alice.token, created.id)).status).toBe("ready")
    expect((await atrium.request("POST", `/hub/v1/recordings/${created.id}/reprocess`, { token: alice.token })).status).toBe(202)
    expect((await settled(atrium, alice.token, created.id)).status).toBe("ready")

    const live = await atrium.request("POST", `/hub/v1/calls/${created.callId}/live-transcript`, {
      token: alice.token,
      body: { segments: [{ speaker: "Erin", startMs: 40_000, endMs: 44_000, text: "Erin will prepare the press release by tomorrow." }] }
    })
    expect(live.status).toBe(202)
    await settled(atrium, alice.token, created.id)
    const call = (await getCall(alice, created.callId)).body
    expect(call.actionItems.some((item: any) => item.owner === "Erin" && item.text.includes("press release"))).toBe(true)
    const back = await atrium.request("POST", `/hub/v1/calls/${created.callId}/live-transcript`, {
      token: alice.token,
      body: { segments: [{ speaker: "Erin", startMs: 1000, endMs: 2000, text: "Too early." }] }
    })
    expect(back.status).toBe(400)
    expect(back.body.error.details[0].message).toContain("overlaps")
  })

  it("imports WebVTT and SRT, and refuses broken transcripts without writing anything", async () => {
    const vtt = await record(atrium, alice.token, workspaceId, {
      transcript: {
        format: "vtt",
        text: "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.000\n<v Alice>We need to ship the beta.\n\n00:00:02.500 --> 00:00:04.000\n<v Bob>I'll write the changelog.\n"
      }
    })
    await settled(atrium, alice.token, vtt.id)
    const imported = await atrium.request("GET", `/hub/v1/calls/${vtt.callId}/transcript`, { token: alice.token })
    expect(imported.body.segments).toEqual([
      { speaker: "Alice", startMs: 0, endMs: 2000, text: "We need to ship the beta." },
      { speaker: "Bob", startMs: 2500, endMs: 4000, text: "I'll write the changelog." }
    ])
    const srt = await record(atrium, alice.token, workspaceId, {
      transcript: {
        format: "srt",
        text: "1\r\n00:00:01,000 --> 00:00:02,000\r\nCarol: Hello there.\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,500\r\nBye.\r\n"
      }
    })
    await settled(atrium, alice.token, srt.id)
    expect((await atrium.request("GET", `/hub/v1/calls/${srt.callId}/transcript`, { token: alice.token })).body.segments).toHaveLength(2)

    const count = async () => Number((await atrium.sql<{ n: number }>("SELECT count(*) AS n FROM hub_recordings"))[0]!.n)
    const before = await count()
    const refused = async (transcript: unknown, status = 400) => {
      const reply = await atrium.request("POST", "/hub/v1/recordings", {
        token: alice.token,
        body: { workspaceId, name: "Bad", transcript }
      })
      expect(reply.status).toBe(status)
      return reply.body.error
    }
    expect((await refused({ format: "vtt", text: "00:00:00.000 --> 00:00:01.000\nhi\n" })).details[0]).toMatchObject({
      path: "body.transcript.text"
    })
    expect((await refused({ format: "vtt", text: "WEBVTT\n\n00:00:0x.000 --> 00:00:01.000\nhi\n" })).message).toContain(
      "broken timing line"
    )
    expect((await refused({ format: "srt", text: "1\n00:00:01,000 -> 00:00:02,000\nhi\n" })).message).toContain("no timing line")
    expect((await refused({ format: "srt", text: "one\n00:00:01,000 --> 00:00:02,000\nhi\n" })).message).toContain("number")
    const overlapping = await refused({ format: "segments", segments: [segments[0], { ...segments[1], startMs: 3000 }] })
    expect(overlapping.details[0]).toMatchObject({ path: "body.transcript.segments[1]" })
    expect(overlapping.message).toContain("overlaps")
    expect((await refused({ format: "segments", segments: [{ ...segments[0], startMs: -5 }] })).message).toContain("negative")
    expect((await refused({ format: "segments", segments: [{ ...segments[0], endMs: 0, startMs: 10 }] })).message).toContain(
      "ends before it starts"
    )
    expect((await refused({ format: "vtt", segments })).details[0].path).toBe("body.transcript.text")
    expect((await refused({ format: "segments", segments, extra: true })).details[0].path).toContain("extra")
    // 50 MB of text: refused before it is buffered.
    const huge = await atrium.request("POST", "/hub/v1/recordings", {
      token: alice.token,
      rawBody: JSON.stringify({ workspaceId, name: "Huge", transcript: { format: "vtt", text: "x".repeat(50 * 1024 * 1024) } }),
      headers: { "content-type": "application/json" }
    })
    expect(huge.status).toBe(413)
    expect(await count()).toBe(before)
  })
})

describe("access", () => {
  it("a recordings:read key reads but cannot write; another workspace's key and non-members never see the call", async () => {
    const created = await record(atrium, alice.token, workspaceId)
    await settled(atrium, alice.token, created.id)
    const reader = await apiKey(atrium, alice, workspaceId, ["recordings:read"])
    expect((await atrium.request("GET", `/hub/v1/calls/${created.callId}`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("GET", `/hub/v1/recordings/${created.id}/progress`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("PUT", `/hub/v1/calls/${created.callId}/my-notes`, { apiKey: reader, body: { notes: "x" } })).status).toBe(
      403
    )
    expect((await atrium.request("POST", `/hub/v1/recordings/${created.id}/reprocess`, { apiKey: reader })).status).toBe(403)
    expect(
      (
        await atrium.request("POST", "/hub/v1/recordings", {
          apiKey: reader,
          body: { workspaceId, name: "x", transcript: { format: "segments", segments } }
        })
      ).status
    ).toBe(403)
    const writer = await apiKey(atrium, alice, workspaceId, ["recordings:read", "recordings:write"])
    expect(
      (await atrium.request("PUT", `/hub/v1/calls/${created.callId}/my-notes`, { apiKey: writer, body: { notes: "from a key" } })).body
        .userNotes
    ).toBe("from a key")

    const stranger = await signUp(atrium, "Stranger")
    const otherWorkspace = await workspaceWith(atrium, stranger, [])
    const otherKey = await apiKey(atrium, stranger, otherWorkspace, ["recordings:read", "recordings:write"])
    for (const [method, url] of [
      ["GET", `/hub/v1/calls/${created.callId}`],
      ["GET", `/hub/v1/calls/by-uuid/${created.callUuid}`],
      ["GET", `/hub/v1/recordings/${created.id}`],
      ["GET", `/hub/v1/recordings/${created.id}/audio-url`],
      ["GET", `/hub/v1/recordings?workspaceId=${workspaceId}`]
    ] as const) {
      expect((await atrium.request(method, url, { apiKey: otherKey })).status, url).toBe(404)
      expect((await atrium.request(method, url, { token: stranger.token })).status, url).toBe(404)
    }
    const own = await atrium.request("GET", `/hub/v1/recordings?workspaceId=${otherWorkspace}`, { apiKey: otherKey })
    expect(own.body.items).toEqual([])
  })

  it("lists the workspace's recordings and calls newest first, each with the caller's version", async () => {
    const listed = await atrium.request("GET", `/hub/v1/calls?workspaceId=${workspaceId}&limit=2`, { token: bob.token })
    expect(listed.status).toBe(200)
    expect(listed.body.items).toHaveLength(2)
    expect(listed.body.items[0].id).toBeGreaterThan(listed.body.items[1].id)
    expect(listed.body.nextBefore).toBe(listed.body.items[1].id)
    const next = await atrium.request("GET", `/hub/v1/calls?workspaceId=${workspaceId}&limit=2&before=${listed.body.nextBefore}`, {
      token: bob.token
    })
    expect(next.body.items[0].id).toBeLessThan(listed.body.items[1].id)
    const recordings = await atrium.request("GET", `/hub/v1/recordings?workspaceId=${workspaceId}`, { token: bob.token })
    expect(recordings.body.items.length).toBeGreaterThan(3)
    expect(recordings.body.items.every((item: any) => typeof item.notesVersion.id === "string")).toBe(true)
  })
})
