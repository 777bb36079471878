/**
 * Moderation end to end: with moderation on, posts and comments from
 * outside the team wait in the queue (feature requests, comments, bug
 * reports, bug comments); approve-and-verify lets the author's next posts
 * through, decline-and-block refuses them; spam markers (a moderator's and
 * the heuristics'); the log records every action, merges included, and
 * undoes them (a merge by unmerging).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
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

const queue = async (boardId: string) => {
  const reply = await atrium.request("GET", `/feedback/v1/boards/${boardId}/moderation/queue`, { token: t.admin.token })
  expect(reply.status, reply.text).toBe(200)
  return reply.body.items as Array<{ id: string; kind: string; spam: boolean; spamReasons: Array<string>; shortId: string | null }>
}
const act = (boardId: string, itemId: string, action: string, body: Record<string, unknown> = {}) =>
  atrium.request("POST", `/feedback/v1/boards/${boardId}/moderation/items/${itemId}/${action}`, { token: t.admin.token, body })

describe("moderation", () => {
  it("queues outsiders' posts and comments, verifies and blocks authors, and undoes from the log", async () => {
    const spammer = await signUp(atrium, "Spammer")
    const joined = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/members`, {
      token: t.owner.token,
      body: { email: spammer.email, role: "viewer" }
    })
    expect(joined.status, joined.text).toBeLessThan(300)
    const board = await createBoard(atrium, t, { settings: { moderation: true } })
    const team = await createRequest(atrium, t.member.token, board.id, { title: "Team idea" })
    expect(team.moderationState).toBe("approved")
    const idea = await createRequest(atrium, t.viewer.token, board.id, { title: "Outsider idea" })
    expect(idea.moderationState).toBe("pending")
    const comment = await atrium.request("POST", `/feedback/v1/feature-requests/${team.id}/comments`, {
      token: t.viewer.token,
      body: { body: "Me too" }
    })
    expect(comment.status, comment.text).toBe(201)
    const bug = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: spammer.token,
      body: { title: "BUY NOW CHEAP PILLS http://a http://b http://c" }
    })
    expect(bug.body.moderation).toBe("pending")
    const bugComment = await atrium.request("POST", `/feedback/v1/bug-reports/${bug.body.id}/comments`, {
      token: spammer.token,
      body: { body: "click here" }
    })
    expect(bugComment.body.moderation).toBe("pending")

    const waiting = await queue(board.id)
    expect(waiting.map((i) => i.kind)).toEqual(["featureRequest", "comment", "bugReport", "bugComment"])
    expect(waiting.find((i) => i.kind === "bugReport")).toMatchObject({
      spam: true,
      spamReasons: expect.arrayContaining(["many links", "spam phrase"])
    })
    expect((await atrium.request("GET", `/feedback/v1/boards/${board.id}/moderation/queue`, { token: t.member.token })).status).toBe(403)
    // The outsider sees their own pending post; others do not.
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${idea.id}`, { token: t.viewer.token })).status).toBe(200)
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${idea.id}`, { token: spammer.token })).status).toBe(404)

    const approved = await act(board.id, idea.id, "approve", { verifyAuthor: true })
    expect(approved.status, approved.text).toBe(200)
    expect(approved.body).toMatchObject({ action: "approveAndVerify", targetKind: "featureRequest", undoable: true })
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${idea.id}`, { token: spammer.token })).body.moderationState).toBe(
      "approved"
    )
    expect((await act(board.id, idea.id, "approve")).status).toBe(409)
    const next = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.viewer.token,
      body: { title: "Verified now" }
    })
    expect(next.body.moderation).toBe("approved")
    expect((await createRequest(atrium, t.viewer.token, board.id, { title: "Verified idea" })).moderationState).toBe("approved")

    const commentOk = await act(board.id, comment.body.id, "approve")
    expect(commentOk.status, commentOk.text).toBe(200)
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${team.id}`, { token: t.admin.token })).body.commentCount).toBe(1)

    const marked = await act(board.id, bugComment.body.id, "spam", { spam: true, reason: "link farm" })
    expect(marked.body.action).toBe("markSpam")
    expect((await queue(board.id)).find((i) => i.id === bugComment.body.id)).toMatchObject({
      spam: true,
      spamReasons: expect.arrayContaining(["moderator: link farm"])
    })
    const blocked = await act(board.id, bug.body.id, "decline", { blockAuthor: true, reason: "spam" })
    expect(blocked.body).toMatchObject({ action: "declineAndBlock", detail: { reason: "spam" } })
    const refused = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: spammer.token,
      body: { title: "again" }
    })
    expect(refused.status).toBe(403)
    const refusedIdea = await atrium.request("POST", `/feedback/v1/boards/${board.id}/feature-requests`, {
      token: spammer.token,
      body: { title: "again" }
    })
    expect(refusedIdea.status).toBe(403)
    const refusedComment = await atrium.request("POST", `/feedback/v1/feature-requests/${team.id}/comments`, {
      token: spammer.token,
      body: { body: "again" }
    })
    expect(refusedComment.status).toBe(403)
    expect((await queue(board.id)).map((i) => i.id)).toEqual([bugComment.body.id])

    const log = await atrium.request("GET", `/feedback/v1/boards/${board.id}/moderation/log`, { token: t.admin.token })
    expect(log.body.items.map((e: any) => e.action)).toEqual(["declineAndBlock", "markSpam", "approve", "approveAndVerify"])
    const undone = await atrium.request("POST", `/feedback/v1/boards/${board.id}/moderation/log/${blocked.body.id}/undo`, {
      token: t.admin.token
    })
    expect(undone.status, undone.text).toBe(200)
    expect(undone.body).toMatchObject({ action: "undo", detail: { undid: blocked.body.id } })
    expect((await queue(board.id)).map((i) => i.id)).toContain(bug.body.id)
    expect(
      (await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, { token: spammer.token, body: { title: "again" } }))
        .status
    ).toBe(201)
    expect(
      (await atrium.request("POST", `/feedback/v1/boards/${board.id}/moderation/log/${blocked.body.id}/undo`, { token: t.admin.token }))
        .status
    ).toBe(409)
    const undoApprove = await atrium.request("POST", `/feedback/v1/boards/${board.id}/moderation/log/${approved.body.id}/undo`, {
      token: t.admin.token
    })
    expect(undoApprove.status, undoApprove.text).toBe(200)
    expect((await atrium.request("GET", `/feedback/v1/feature-requests/${idea.id}`, { token: t.admin.token })).body.moderationState).toBe(
      "pending"
    )
  })

  it("shows merges in the log and undoes them by unmerging", async () => {
    const board = await createBoard(atrium, t)
    const original = await createRequest(atrium, t.member.token, board.id, { title: "Dark mode" })
    const duplicate = await createRequest(atrium, t.viewer.token, board.id, { title: "Night theme" })
    const merged = await atrium.request("POST", `/feedback/v1/feature-requests/${duplicate.id}/merge`, {
      token: t.admin.token,
      body: { intoId: original.id }
    })
    expect(merged.status, merged.text).toBe(200)
    const log = await atrium.request("GET", `/feedback/v1/boards/${board.id}/moderation/log`, { token: t.admin.token })
    const entry = log.body.items.find((e: any) => e.action === "merge")
    expect(entry).toMatchObject({ targetId: duplicate.id, detail: { intoId: original.id }, undoable: true })
    const undo = await atrium.request("POST", `/feedback/v1/boards/${board.id}/moderation/log/${entry.id}/undo`, { token: t.admin.token })
    expect(undo.status, undo.text).toBe(200)
    expect(undo.body).toMatchObject({ action: "unmerge", targetId: duplicate.id })
    expect(
      (await atrium.request("GET", `/feedback/v1/feature-requests/${duplicate.id}`, { token: t.admin.token })).body.mergedInto
    ).toBeNull()
    const after = await atrium.request("GET", `/feedback/v1/boards/${board.id}/moderation/log`, { token: t.admin.token })
    expect(after.body.items.find((e: any) => e.id === entry.id)).toMatchObject({ undoable: false })
  })
})
