import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { createBoard, createRequest, freshSlug, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await newTeam(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

describe("boards and feature requests", () => {
  it("creates a board with the default workflow, posts numbered requests and reads them back", async () => {
    const board = await createBoard(atrium, t, { name: "Product ideas" })
    expect(board).toMatchObject({ workspaceId: t.workspaceId, name: "Product ideas", visibility: "public", archived: false })
    expect(board.settings).toMatchObject({ whoMayPost: "anyone", anonymousVoting: false, moderation: false })
    const first = await createRequest(atrium, t.member.token, board.id, {
      title: "Dark mode",
      description: "A dark theme for the **whole** app."
    })
    expect(first).toMatchObject({
      shortId: "FR-1",
      boardId: board.id,
      title: "Dark mode",
      description: "A dark theme for the **whole** app.",
      voteCount: 0,
      mergedInto: null,
      status: { name: "Open", type: "open" },
      author: { userId: t.member.userId, name: "Member" }
    })
    expect(first.content.content[0].content[1]).toEqual({ type: "text", text: "whole", marks: [{ type: "bold" }] })
    const second = await createRequest(atrium, t.owner.token, board.id, { title: "Export to CSV" })
    expect(second.shortId).toBe("FR-2")
    const read = await atrium.request("GET", `/feedback/v1/feature-requests/${first.id}`, { token: t.viewer.token })
    expect(read.status).toBe(200)
    expect(read.body).toEqual(first)
    const rows = await atrium.sql("SELECT type FROM feedback_events WHERE board_id = $1 ORDER BY seq", [board.id])
    expect(rows.map((r) => r.type)).toEqual(["board.created", "request.created", "request.created"])
  })

  it("refuses a taken slug, a non-admin creator and rich text off the schema", async () => {
    const board = await createBoard(atrium, t)
    const clash = await atrium.request("POST", "/feedback/v1/boards", {
      token: t.owner.token,
      body: { workspaceId: t.workspaceId, name: "Again", slug: board.slug, visibility: "public" }
    })
    expect(clash.status).toBe(409)
    expect(clash.body.error.details[0].path).toBe("body.slug")
    const member = await atrium.request("POST", "/feedback/v1/boards", {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, name: "Mine", slug: freshSlug(), visibility: "public" }
    })
    expect(member.status).toBe(403)
    const badDoc = await atrium.request("POST", `/feedback/v1/boards/${board.id}/feature-requests`, {
      token: t.member.token,
      body: { title: "Bad", content: { type: "doc", content: [{ type: "marquee", content: [] }] } }
    })
    expect(badDoc.status).toBe(400)
    expect(badDoc.body.error.details[0].path).toBe("body.content.content[0].type")
  })

  it("hides members and private boards from those who may not see them", async () => {
    const members = await createBoard(atrium, t, { visibility: "members" })
    const priv = await createBoard(atrium, t, { visibility: "private" })
    const request = await createRequest(atrium, t.owner.token, priv.id)
    expect((await atrium.request("GET", `/feedback/v1/boards/${members.id}`, { token: t.viewer.token })).status).toBe(200)
    expect((await atrium.request("GET", `/feedback/v1/boards/${members.id}`, { token: t.outsider.token })).status).toBe(404)
    expect((await atrium.request("GET", `/feedback/v1/boards/${priv.id}`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/feedback/v1/boards/${priv.id}`, { token: t.admin.token })).status).toBe(200)
  })
})
