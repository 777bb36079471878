import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
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

const api = (method: string, path: string, token: string, body?: unknown) =>
  atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
const notifications = (boardId: string, userId: string) =>
  atrium.sql("SELECT reason, delivery, title FROM feedback_notifications WHERE board_id = $1 AND user_id = $2 ORDER BY created_at", [
    boardId,
    userId
  ])

describe("comments", () => {
  it("threads, replies, internal notes for the team only, mentions, edit own, delete by author or admin", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.viewer.token, board.id)
    const root = await api("POST", `/feature-requests/${request.id}/comments`, t.viewer.token, { body: "Please add it" })
    expect(root.status, root.text).toBe(201)
    expect(root.body).toMatchObject({
      featureRequestId: request.id,
      parentId: null,
      body: "Please add it",
      internal: false,
      author: { userId: t.viewer.userId, name: "Viewer" }
    })
    const reply = await api("POST", `/feature-requests/${request.id}/comments`, t.member.token, {
      body: `On it @${t.admin.email}`,
      parentId: root.body.id
    })
    expect(reply.status).toBe(201)
    expect(reply.body.mentions).toEqual([{ userId: t.admin.userId, name: "Admin" }])
    const note = await api("POST", `/feature-requests/${request.id}/comments`, t.member.token, {
      body: "Costly, see infra",
      internal: true
    })
    expect(note.status).toBe(201)
    expect((await api("POST", `/feature-requests/${request.id}/comments`, t.viewer.token, { body: "sneaky", internal: true })).status).toBe(
      403
    )
    const badMention = await api("POST", `/feature-requests/${request.id}/comments`, t.member.token, {
      body: "hey",
      mentions: [t.outsider.userId]
    })
    expect(badMention.status).toBe(400)
    expect(badMention.body.error.details[0].path).toBe("body.mentions[0]")

    const forTeam = await api("GET", `/feature-requests/${request.id}/comments`, t.member.token)
    expect(forTeam.body.items.map((c: any) => c.body)).toEqual(["Please add it", "Costly, see infra"])
    expect(forTeam.body.items[0].replies.map((c: any) => c.id)).toEqual([reply.body.id])
    const forCustomer = await api("GET", `/feature-requests/${request.id}/comments`, t.viewer.token)
    expect(forCustomer.body.items.map((c: any) => c.body)).toEqual(["Please add it"])
    expect((await api("GET", `/comments/${note.body.id}`, t.viewer.token)).status).toBe(404)
    expect((await api("GET", `/feature-requests/${request.id}`, t.viewer.token)).body.commentCount).toBe(2)

    expect((await api("PATCH", `/comments/${root.body.id}`, t.member.token, { body: "x" })).status).toBe(403)
    const edited = await api("PATCH", `/comments/${root.body.id}`, t.viewer.token, { body: "Please add it soon" })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ body: "Please add it soon", editedAt: expect.any(String) })
    expect((await api("DELETE", `/comments/${reply.body.id}`, t.viewer.token)).status).toBe(403)
    expect((await api("DELETE", `/comments/${root.body.id}`, t.owner.token)).status).toBe(204)
    const after = await api("GET", `/feature-requests/${request.id}/comments`, t.member.token)
    expect(after.body.items[0]).toMatchObject({ id: root.body.id, deleted: true, body: "" })
    expect(after.body.items[0].replies).toHaveLength(1)
    expect((await api("GET", `/comments/${root.body.id}`, t.member.token)).status).toBe(404)
  })

  it("moderated boards hold posts and comments of non-team members as pending", async () => {
    const board = await createBoard(atrium, t, { settings: { moderation: true } })
    const pending = await createRequest(atrium, t.viewer.token, board.id, { title: "From a customer" })
    expect(pending.moderationState).toBe("pending")
    const fromTeam = await createRequest(atrium, t.member.token, board.id, { title: "From the team" })
    expect(fromTeam.moderationState).toBe("approved")
    expect((await api("GET", `/feature-requests/${pending.id}`, t.viewer.token)).status).toBe(200)
    const list = await api("GET", `/boards/${board.id}/feature-requests`, t.viewer.token)
    expect(list.body.items.map((r: any) => r.title).sort()).toEqual(["From a customer", "From the team"])
    const comment = await api("POST", `/feature-requests/${fromTeam.id}/comments`, t.viewer.token, { body: "+1" })
    expect(comment.body.moderationState).toBe("pending")
    expect((await api("GET", `/feature-requests/${fromTeam.id}`, t.member.token)).body.commentCount).toBe(0)
  })
})

describe("status workflow and notifications", () => {
  it("status changes keep a history and notify subscribers as each chose (instant, digest, off)", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.viewer.token, board.id)
    await api("POST", `/feature-requests/${request.id}/votes`, t.member.token)
    await api("PUT", `/feature-requests/${request.id}/subscription`, t.admin.token)
    expect((await api("PUT", `/boards/${board.id}/notification-preference`, t.member.token, { mode: "digest" })).body).toMatchObject({
      mode: "digest"
    })
    expect((await api("PUT", `/boards/${board.id}/notification-preference`, t.admin.token, { mode: "off" })).status).toBe(200)
    expect((await api("GET", `/boards/${board.id}/notification-preference`, t.viewer.token)).body).toEqual({
      boardId: board.id,
      mode: "instant",
      updatedAt: null
    })
    const statuses = (await api("GET", `/boards/${board.id}/statuses`, t.viewer.token)).body.items
    const planned = statuses.find((s: any) => s.type === "planned")
    expect((await api("POST", `/feature-requests/${request.id}/status`, t.member.token, { statusId: planned.id })).status).toBe(403)
    const changed = await api("POST", `/feature-requests/${request.id}/status`, t.owner.token, { statusId: planned.id, note: "Q1" })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body.status).toMatchObject({ id: planned.id, type: "planned" })
    expect((await api("POST", `/feature-requests/${request.id}/status`, t.owner.token, { statusId: planned.id })).status).toBe(409)
    const history = await api("GET", `/feature-requests/${request.id}/status-history`, t.viewer.token)
    expect(history.body.items.map((h: any) => [h.fromName, h.toName, h.note])).toEqual([
      [null, "Open", "created"],
      ["Open", "Planned", "Q1"]
    ])
    expect(await notifications(board.id, t.viewer.userId)).toEqual([
      { reason: "status_changed", delivery: "instant", title: "FR-1 Dark mode: Planned" }
    ])
    expect(await notifications(board.id, t.member.userId)).toEqual([
      { reason: "status_changed", delivery: "digest", title: "FR-1 Dark mode: Planned" }
    ])
    expect(await notifications(board.id, t.admin.userId)).toEqual([])
    await api("DELETE", `/feature-requests/${request.id}/subscription`, t.viewer.token)
    await api("POST", `/feature-requests/${request.id}/comments`, t.member.token, { body: "Started" })
    expect((await notifications(board.id, t.viewer.userId)).length).toBe(1)
    const activity = await api("GET", `/feature-requests/${request.id}/activity`, t.viewer.token)
    expect(activity.body.items.map((e: any) => e.type)).toEqual([
      "comment.created",
      "request.unsubscribed",
      "request.status_changed",
      "request.subscribed",
      "request.voted",
      "request.created"
    ])
  })

  it("followers of the whole board hear of new requests, unless they turned notifications off", async () => {
    const board = await createBoard(atrium, t)
    await api("PUT", `/boards/${board.id}/subscription`, t.viewer.token)
    await api("PUT", `/boards/${board.id}/subscription`, t.admin.token)
    await api("PUT", `/boards/${board.id}/notification-preference`, t.admin.token, { mode: "off" })
    await createRequest(atrium, t.member.token, board.id, { title: "Offline mode" })
    expect(await notifications(board.id, t.viewer.userId)).toEqual([
      { reason: "new_request", delivery: "instant", title: "New on Ideas: FR-1 Offline mode" }
    ])
    expect(await notifications(board.id, t.admin.userId)).toEqual([])
  })

  it("pin, lock, owner; roadmap by status type; stats; bulk triage", async () => {
    const board = await createBoard(atrium, t)
    const [a, b, c] = [
      await createRequest(atrium, t.owner.token, board.id, { title: "Alpha" }),
      await createRequest(atrium, t.owner.token, board.id, { title: "Beta" }),
      await createRequest(atrium, t.owner.token, board.id, { title: "Gamma" })
    ]
    await api("POST", `/feature-requests/${c!.id}/votes`, t.member.token)
    expect((await api("PUT", `/feature-requests/${b!.id}/pin`, t.owner.token, { pinned: true })).body.pinned).toBe(true)
    const top = await api("GET", `/boards/${board.id}/feature-requests?sort=top`, t.viewer.token)
    expect(top.body.items.map((r: any) => r.title)).toEqual(["Beta", "Gamma", "Alpha"])
    const newest = await api("GET", `/boards/${board.id}/feature-requests?sort=new&limit=2`, t.viewer.token)
    expect(newest.body).toMatchObject({ total: 3, nextOffset: 2 })
    expect(newest.body.items.map((r: any) => r.title)).toEqual(["Beta", "Gamma"])
    const owner = await api("PUT", `/feature-requests/${a!.id}/owner`, t.owner.token, { ownerId: t.member.userId })
    expect(owner.body.owner).toEqual({ userId: t.member.userId, name: "Member" })
    expect((await api("PUT", `/feature-requests/${a!.id}/owner`, t.owner.token, { ownerId: t.outsider.userId })).status).toBe(400)
    const statuses = (await api("GET", `/boards/${board.id}/statuses`, t.owner.token)).body.items
    const shipped = statuses.find((s: any) => s.type === "shipped")
    const bulk = await api("POST", `/boards/${board.id}/feature-requests/bulk`, t.owner.token, {
      ids: [a!.id, c!.id],
      statusId: shipped.id
    })
    expect(bulk.status, bulk.text).toBe(200)
    expect(bulk.body.items.map((r: any) => r.status.type)).toEqual(["shipped", "shipped"])
    const roadmap = await api("GET", `/boards/${board.id}/roadmap`, t.viewer.token)
    expect(roadmap.body.columns.map((col: any) => col.type)).toEqual([
      "open",
      "under_review",
      "planned",
      "in_progress",
      "shipped",
      "declined"
    ])
    expect(roadmap.body.columns[4].items.map((r: any) => r.title)).toEqual(["Gamma", "Alpha"])
    expect(roadmap.body.columns[0].items.map((r: any) => r.title)).toEqual(["Beta"])
    const stats = await api("GET", `/boards/${board.id}/stats`, t.member.token)
    expect(stats.body).toMatchObject({ requests: 3, votes: 1, merged: 0 })
    expect(stats.body.byStatusType.find((s: any) => s.type === "shipped").count).toBe(2)
    expect((await api("GET", `/boards/${board.id}/stats`, t.viewer.token)).status).toBe(403)
    await api("PUT", `/feature-requests/${a!.id}/lock`, t.owner.token, { locked: true })
    expect((await api("POST", `/feature-requests/${a!.id}/comments`, t.member.token, { body: "late" })).status).toBe(409)
  })
})

describe("attachments", () => {
  it("uploads, lists, downloads and deletes files of a request", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.viewer.token, board.id)
    const uploaded = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/attachments?filename=notes.txt`, {
      token: t.viewer.token,
      rawBody: "steps to reproduce",
      headers: { "content-type": "text/plain" }
    })
    expect(uploaded.status, uploaded.text).toBe(201)
    expect(uploaded.body).toMatchObject({
      filename: "notes.txt",
      contentType: "text/plain",
      size: 18,
      uploadedBy: { userId: t.viewer.userId }
    })
    const listed = await api("GET", `/feature-requests/${request.id}/attachments`, t.member.token)
    expect(listed.body.items.map((a: any) => a.id)).toEqual([uploaded.body.id])
    const content = await atrium.request("GET", uploaded.body.url, { token: t.member.token })
    expect(content.status).toBe(200)
    expect(content.text).toBe("steps to reproduce")
    const lying = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/attachments`, {
      token: t.viewer.token,
      rawBody: "not a png",
      headers: { "content-type": "image/png" }
    })
    expect(lying.status).toBe(415)
    expect((await api("DELETE", `/attachments/${uploaded.body.id}`, t.member.token)).status).toBe(403)
    expect((await api("DELETE", `/attachments/${uploaded.body.id}`, t.viewer.token)).status).toBe(204)
    expect((await atrium.request("GET", uploaded.body.url, { token: t.member.token })).status).toBe(404)
    expect((await api("GET", `/feature-requests/${request.id}/attachments`, t.outsider.token)).status).toBe(404)
  })
})
