/** Tags, shares and the meeting report over real calls of the calls service (the CallDirectory port installed by the hub extension). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { record, settled, workspaceWith } from "./support/calls.ts"

let atrium: TestServer
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

describe("calls through the CallDirectory", () => {
  it("tags a real call, reports its talk time, and keeps strangers out", async () => {
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const eve = await signUp(atrium, "Eve")
    const workspaceId = await workspaceWith(atrium, alice, [bob])
    const call = await record(atrium, alice.token, workspaceId)
    await settled(atrium, alice.token, call.id)
    const tag = (await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/tags`, { token: alice.token, body: { name: "Launch" } }))
      .body
    const tagged = await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, { token: bob.token, body: { tagIds: [tag.id] } })
    expect(tagged.status, tagged.text).toBe(200)
    expect((await atrium.request("PUT", `/hub/v1/calls/${call.callId}/tags`, { token: eve.token, body: { tagIds: [] } })).status).toBe(404)
    const shared = await atrium.request("POST", `/hub/v1/calls/${call.callId}/shares`, {
      token: alice.token,
      body: { userIds: [bob.userId] }
    })
    expect(shared.status, shared.text).toBe(201)
    const mine = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/shared-with-me`, { token: bob.token })
    expect(mine.body.items).toEqual([expect.objectContaining({ callId: call.callId, callUuid: call.callUuid, callName: "Launch review" })])
    const report = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/reports/meetings`, { token: alice.token })
    expect(report.status, report.text).toBe(200)
    expect(report.body).toMatchObject({ meetings: 1, processedMeetings: 1, totalDurationMs: 33000, tags: [{ tagId: tag.id, meetings: 1 }] })
    expect(report.body.speakers.map((s: any) => [s.name, s.talkMs])).toEqual([
      ["Alice", 12800],
      ["Bob", 9800],
      ["Carol", 4900],
      ["Dan", 4900]
    ])
    const view = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/views`, {
      token: alice.token,
      body: { name: "Launch", filters: { tagIds: [tag.id] } }
    })
    expect(view.body.callCount).toBe(1)
  })
})
