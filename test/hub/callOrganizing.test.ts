/**
 * Tags, shares, saved views and the meeting report over calls. Calls belong
 * to the calls service; here a fake CallDirectory (the port's test double)
 * knows a handful of calls in two workspaces.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CallDirectoryShape, type CallFacts, installCallDirectory } from "../../actors/hub/people/CallDirectory.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

let atrium: TestServer
let previous: CallDirectoryShape
const calls: Array<CallFacts> = []
beforeAll(async () => {
  atrium = await startAtrium()
  previous = installCallDirectory({
    call: (callId) => Effect.succeed(calls.find((call) => call.callId === callId)),
    callsIn: (workspaceId, from, to) =>
      Effect.succeed(calls.filter((c) => c.workspaceId === workspaceId && Date.parse(c.createdAt) >= from && Date.parse(c.createdAt) < to))
  })
})
afterAll(async () => {
  installCallDirectory(previous)
  await atrium?.close()
})

let nextCallId = 5000
const addCall = (workspaceId: string, facts: Partial<CallFacts> = {}): CallFacts => {
  const callId = ++nextCallId
  const call: CallFacts = {
    callId,
    callUuid: `c0ffee00-0000-4000-8000-${String(callId).padStart(12, "0")}`,
    workspaceId,
    name: `Call ${callId}`,
    createdAt: "2026-11-18T10:00:00.000Z",
    durationMs: 1_800_000,
    status: "ready",
    participantUserIds: [],
    attendeeEmails: [],
    speakers: [],
    ...facts
  }
  calls.push(call)
  return call
}

const setup = async () => {
  const alice = await signUp(atrium, "Alice")
  const bob = await signUp(atrium, "Bob")
  const eve = await signUp(atrium, "Eve")
  const workspaceId = (await atrium.request("POST", "/pm/v1/workspaces", { token: alice.token, body: { name: "Acme" } })).body.id as string
  await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
    token: alice.token,
    body: { email: bob.email, role: "member" }
  })
  const evesWorkspace = (await atrium.request("POST", "/pm/v1/workspaces", { token: eve.token, body: { name: "Eve Inc" } })).body
    .id as string
  return { alice, bob, eve, workspaceId, evesWorkspace }
}

describe("tags on calls", () => {
  it("creates unique tags, sets and removes them on calls, counts them, and deleting a tag untags its calls", async () => {
    const { alice, bob, eve, workspaceId } = await setup()
    const call = addCall(workspaceId)
    const other = addCall(workspaceId)
    const tags = `/hub/v1/workspaces/${workspaceId}/tags`
    const customer = await atrium.request("POST", tags, { token: alice.token, body: { name: "Customer", color: "#3b82f6" } })
    expect(customer.status, customer.text).toBe(201)
    const internal = (await atrium.request("POST", tags, { token: bob.token, body: { name: "Internal" } })).body
    const clash = await atrium.request("POST", tags, { token: bob.token, body: { name: "customer" } })
    expect(clash.status).toBe(409)
    expect(
      (await atrium.request("POST", tags, { token: alice.token, body: { name: "x", color: "blue" } })).body.error.details[0].path
    ).toBe("body.color")

    const set = await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, {
      token: bob.token,
      body: { tagIds: [customer.body.id, internal.id] }
    })
    expect(set.status, set.text).toBe(200)
    expect(set.body.tags.map((t: any) => t.name)).toEqual(["Customer", "Internal"])
    await atrium.request("PUT", `/hub/v1/calls/${other.callId}/tags`, { token: bob.token, body: { tagIds: [customer.body.id] } })
    const unknown = await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, {
      token: bob.token,
      body: { tagIds: [customer.body.id, "00000000-0000-4000-8000-000000000000"] }
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.details[0].path).toBe("body.tagIds.1")

    const listed = await atrium.request("GET", tags, { token: alice.token })
    expect(listed.body.items.map((t: any) => [t.name, t.callCount])).toEqual([
      ["Customer", 2],
      ["Internal", 1]
    ])
    const ofCall = await atrium.request("GET", `${tags}?callId=${other.callId}`, { token: alice.token })
    expect(ofCall.body.items.map((t: any) => t.name)).toEqual(["Customer"])

    const removed = await atrium.request("DELETE", `/hub/v1/calls/${call.callId}/tags/${internal.id}`, { token: alice.token })
    expect(removed.body.tags.map((t: any) => t.name)).toEqual(["Customer"])
    expect((await atrium.request("DELETE", `/hub/v1/calls/${call.callId}/tags/${internal.id}`, { token: alice.token })).status).toBe(404)
    const renamed = await atrium.request("PATCH", `${tags}/${internal.id}`, { token: alice.token, body: { name: "Team", color: null } })
    expect(renamed.body).toMatchObject({ name: "Team", color: null })
    expect((await atrium.request("DELETE", `${tags}/${customer.body.id}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `${tags}?callId=${other.callId}`, { token: alice.token })).body.items).toEqual([])

    // Strangers: the workspace's tags and its calls are 404.
    expect((await atrium.request("GET", tags, { token: eve.token })).status).toBe(404)
    expect((await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, { token: eve.token, body: { tagIds: [] } })).status).toBe(404)
    expect((await atrium.request("PUT", `/hub/v1/calls/999999999/tags`, { token: alice.token, body: { tagIds: [] } })).status).toBe(404)
  })
})

describe("API keys", () => {
  it("recordings:read reads tags and shares but cannot change them; a key never reaches another workspace's calls", async () => {
    const { alice, workspaceId, evesWorkspace, eve } = await setup()
    const call = addCall(workspaceId)
    const foreignCall = addCall(evesWorkspace)
    const keyOf = async (scopes: Array<string>) =>
      (await atrium.request("POST", "/hub/v1/api-keys", { token: alice.token, body: { workspaceId, name: "k", scopes } })).body
        .key as string
    const reader = await keyOf(["recordings:read"])
    const writer = await keyOf(["recordings:read", "recordings:write"])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/tags`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("GET", `/hub/v1/calls/${call.callId}/shares`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tags`, { apiKey: reader, body: { name: "x" } })).status).toBe(
      403
    )
    expect((await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, { apiKey: reader, body: { tagIds: [] } })).status).toBe(403)
    expect((await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, { apiKey: writer, body: { tagIds: [] } })).status).toBe(200)
    expect((await atrium.request("PUT", `/hub/v1/calls/${foreignCall.callId}/tags`, { apiKey: writer, body: { tagIds: [] } })).status).toBe(
      404
    )
    expect((await atrium.request("GET", `/hub/v1/calls/${foreignCall.callId}/shares`, { apiKey: writer })).status).toBe(404)
    // Eve herself (a member there) may.
    expect((await atrium.request("GET", `/hub/v1/calls/${foreignCall.callId}/shares`, { token: eve.token })).status).toBe(200)
  })
})

describe("sharing calls", () => {
  it("shares with users and teams, lists what reached me, and lets the sharer or an admin revoke", async () => {
    const { alice, bob, eve, workspaceId } = await setup()
    const carol = await signUp(atrium, "Carol")
    await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
      token: alice.token,
      body: { email: carol.email, role: "member" }
    })
    const team = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/teams`, {
      token: alice.token,
      body: { name: "Sales", members: [{ userId: carol.userId, role: "member" }] }
    })
    expect(team.status, team.text).toBe(201)
    const call = addCall(workspaceId, { name: "Acme renewal" })
    const shares = `/hub/v1/calls/${call.callId}/shares`
    const shared = await atrium.request("POST", shares, {
      token: bob.token,
      body: { userIds: [alice.userId], teamIds: [team.body.id], message: "Pricing at 12:30" }
    })
    expect(shared.status, shared.text).toBe(201)
    expect(shared.body.items.map((s: any) => [s.recipientType, s.recipientName])).toEqual([
      ["user", "Alice"],
      ["team", "Sales"]
    ])
    // Sharing again with the same recipient keeps one share.
    await atrium.request("POST", shares, { token: bob.token, body: { userIds: [alice.userId], message: "Updated note" } })
    const listed = await atrium.request("GET", shares, { token: alice.token })
    expect(listed.body.items).toHaveLength(2)
    expect(listed.body.items.find((s: any) => s.recipientType === "user").message).toBe("Updated note")

    const stranger = await atrium.request("POST", shares, { token: bob.token, body: { userIds: [eve.userId] } })
    expect(stranger.status).toBe(400)
    expect(stranger.body.error.details[0].path).toBe("body.userIds.0")
    expect((await atrium.request("POST", shares, { token: bob.token, body: {} })).status).toBe(400)

    const carolSees = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/shared-with-me`, { token: carol.token })
    expect(carolSees.body.items).toEqual([
      expect.objectContaining({ callId: call.callId, callName: "Acme renewal", via: "team", teamId: team.body.id })
    ])
    const teams = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/share-teams`, { token: carol.token })
    expect(teams.body.items).toEqual([{ id: team.body.id, name: "Sales", memberCount: 1, isMember: true }])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/shared-with-me`, { token: bob.token })).body.items).toEqual([])

    const teamShare = listed.body.items.find((s: any) => s.recipientType === "team")
    expect((await atrium.request("DELETE", `${shares}/${teamShare.id}`, { token: carol.token })).status).toBe(403)
    expect((await atrium.request("DELETE", `${shares}/${teamShare.id}`, { token: alice.token })).status).toBe(204)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/shared-with-me`, { token: carol.token })).body.items).toEqual([])
    expect((await atrium.request("GET", shares, { token: eve.token })).status).toBe(404)
  })
})

describe("saved views and the meeting report", () => {
  it("saves private views whose match counts follow tags, shares and call facts", async () => {
    const { alice, bob, workspaceId } = await setup()
    const tag = (await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tags`, { token: alice.token, body: { name: "Customer" } }))
      .body
    const long = addCall(workspaceId, { name: "Acme kickoff", durationMs: 3_600_000, participantUserIds: [alice.userId] })
    addCall(workspaceId, { name: "Standup", durationMs: 600_000 })
    await atrium.request("PUT", `/hub/v1/calls/${long.callId}/tags`, { token: alice.token, body: { tagIds: [tag.id] } })
    const views = `/hub/v1/workspaces/${workspaceId}/views`
    const created = await atrium.request("POST", views, {
      token: alice.token,
      body: { name: "Long customer calls", filters: { tagIds: [tag.id], minDurationMinutes: 30 }, pinned: true }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ callCount: 1, sort: { field: "createdAt", direction: "desc" } })
    await atrium.request("POST", views, { token: alice.token, body: { name: "All", filters: {} } })
    const shared = await atrium.request("POST", views, {
      token: bob.token,
      body: { name: "Shared with me", filters: { sharedWithMe: true } }
    })
    expect(shared.body.callCount).toBe(0)
    await atrium.request("POST", `/hub/v1/calls/${long.callId}/shares`, { token: alice.token, body: { userIds: [bob.userId] } })
    expect((await atrium.request("GET", views, { token: bob.token })).body.items.map((v: any) => [v.name, v.callCount])).toEqual([
      ["Shared with me", 1]
    ])
    const mine = await atrium.request("GET", views, { token: alice.token })
    expect(mine.body.items.map((v: any) => [v.name, v.pinned, v.callCount])).toEqual([
      ["Long customer calls", true, 1],
      ["All", false, 2]
    ])
    const bad = await atrium.request("POST", views, {
      token: alice.token,
      body: { name: "x", filters: { tagIds: ["00000000-0000-4000-8000-000000000000"] } }
    })
    expect(bad.body.error.details[0].path).toBe("body.filters.tagIds.0")
    const updated = await atrium.request("PATCH", `${views}/${created.body.id}`, {
      token: alice.token,
      body: { filters: { text: "stand" }, pinned: false }
    })
    expect(updated.body).toMatchObject({ callCount: 1, pinned: false, filters: { text: "stand" } })
    // Views are private: Bob cannot change Alice's.
    expect((await atrium.request("PATCH", `${views}/${created.body.id}`, { token: bob.token, body: { pinned: true } })).status).toBe(404)
    expect((await atrium.request("DELETE", `${views}/${created.body.id}`, { token: alice.token })).status).toBe(204)
  })

  it("reports meetings, talk time per speaker, participants, weeks and tags over a period", async () => {
    const { alice, bob, eve, workspaceId } = await setup()
    const first = addCall(workspaceId, {
      createdAt: "2026-11-16T09:00:00.000Z",
      durationMs: 3_600_000,
      participantUserIds: [alice.userId, bob.userId],
      speakers: [
        { name: "Alice", userId: alice.userId, talkMs: 2_000_000 },
        { name: "Guest", userId: null, talkMs: 1_000_000 }
      ]
    })
    addCall(workspaceId, {
      createdAt: "2026-11-25T09:00:00.000Z",
      durationMs: 1_800_000,
      status: "failed",
      participantUserIds: [alice.userId],
      speakers: [{ name: "Alice", userId: alice.userId, talkMs: 1_000_000 }]
    })
    addCall(workspaceId, { createdAt: "2026-12-05T09:00:00.000Z" })
    const tag = (await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tags`, { token: alice.token, body: { name: "Demo" } }))
      .body
    await atrium.request("PUT", `/hub/v1/calls/${first.callId}/tags`, { token: alice.token, body: { tagIds: [tag.id] } })
    const report = await atrium.request(
      "GET",
      `/hub/v1/workspaces/${workspaceId}/reports/meetings?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z`,
      {
        token: bob.token
      }
    )
    expect(report.status, report.text).toBe(200)
    expect(report.body).toMatchObject({
      meetings: 2,
      processedMeetings: 1,
      failedMeetings: 1,
      totalDurationMs: 5_400_000,
      averageDurationMs: 2_700_000,
      totalTalkMs: 4_000_000,
      uniqueParticipants: 2,
      byWeek: [
        { weekStart: "2026-11-16", meetings: 1, durationMs: 3_600_000 },
        { weekStart: "2026-11-23", meetings: 1, durationMs: 1_800_000 }
      ],
      speakers: [
        { name: "Alice", userId: alice.userId, talkMs: 3_000_000, talkShare: 0.75, meetings: 2 },
        { name: "Guest", userId: null, talkMs: 1_000_000, talkShare: 0.25, meetings: 1 }
      ],
      participants: [
        { userId: alice.userId, meetings: 2, durationMs: 5_400_000 },
        { userId: bob.userId, meetings: 1, durationMs: 3_600_000 }
      ],
      tags: [{ tagId: tag.id, name: "Demo", meetings: 1 }]
    })
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/reports/meetings`, { token: eve.token })).status).toBe(404)
    const backwards = await atrium.request(
      "GET",
      `/hub/v1/workspaces/${workspaceId}/reports/meetings?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z`,
      {
        token: bob.token
      }
    )
    expect(backwards.status).toBe(400)
  })
})
