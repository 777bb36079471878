import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { rawClient } from "../pm/live/support.ts"
import { createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await newTeam(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const follow = async (token: string, boardId: string) => {
  const ticket = await atrium.request("POST", `/feedback/v1/boards/${boardId}/stream-ticket`, { token })
  expect(ticket.status, ticket.text).toBe(201)
  const client = await rawClient(ticket.body.url)
  const reply = await client.subscribe(ticket.body.subscribe.scope, ticket.body.subscribe.id)
  return { client, reply }
}

describe("live board updates on the pm stream (scope board)", () => {
  it("followers of a board see its changes; team-only events stay out; private boards refuse strangers", async () => {
    const board = await createBoard(atrium, t)
    const { client, reply } = await follow(t.viewer.token, board.id)
    expect(reply.type).toBe("subscribed")
    const request = await createRequest(atrium, t.member.token, board.id, { title: "Live" })
    await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/comments`, {
      token: t.member.token,
      body: { body: "internal", internal: true }
    })
    await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes`, { token: t.member.token })
    const voted = await client.inbox.next((f) => f.type === "request.voted")
    expect(voted).toMatchObject({ scope: "board", entityId: board.id, data: { entityId: request.id, voteCount: 1 } })
    const seen = client.inbox.events().map((f) => f.type)
    expect(seen).toEqual(["request.created", "request.voted"])
    client.close()

    // Resuming with lastSeq replays from the log.
    const again = await follow(t.viewer.token, board.id)
    again.client.send({ type: "subscribe", scope: "board", id: board.id, lastSeq: 0 })
    await again.client.inbox.next((f) => f.type === "request.voted")
    expect(again.client.inbox.events().map((f) => f.type)).toEqual(["board.created", "request.created", "request.voted"])
    again.client.close()

    const hidden = await createBoard(atrium, t, { visibility: "private" })
    expect((await atrium.request("POST", `/feedback/v1/boards/${hidden.id}/stream-ticket`, { token: t.member.token })).status).toBe(404)
    const ticket = await atrium.request("POST", "/pm/v1/ws/ticket", { token: t.member.token, body: { workspaceId: t.workspaceId } })
    const sneaky = await rawClient(ticket.body.url)
    const refused = await sneaky.subscribe("board", hidden.id)
    expect(refused).toMatchObject({ type: "error", code: "not_found" })
    // A member's workspace subscription does not carry a private board's events.
    await sneaky.subscribe("workspace", t.workspaceId)
    await createRequest(atrium, t.owner.token, hidden.id, { title: "Secret" })
    await createRequest(atrium, t.owner.token, board.id, { title: "Public one" })
    const follower = await follow(t.member.token, board.id)
    await createRequest(atrium, t.owner.token, board.id, { title: "Marker" })
    await follower.client.inbox.next((f) => f.type === "request.created" && f.data?.title === "Marker")
    expect(sneaky.inbox.events().some((f) => f.data?.title === "Secret")).toBe(false)
    sneaky.close()
    follower.client.close()
  })
})
