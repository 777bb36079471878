/**
 * Visitors' comments on a public board's portal: a comment appears to
 * visitors under the name given and to the team marked as a visitor's (with
 * the e-mail only the team sees), the request's subscribers are told, bad
 * input names its field, a bot's honeypot comment is swallowed, the
 * per-address limit answers 429, and boards that take no visitors' comments
 * answer 403 or, when not public, 404.
 */
import { describe, expect, it } from "vitest"
import { VISITOR_COMMENTS_PER_HOUR } from "../../facade/feedback/PublicComments.ts"
import { atriumWithTeam, createBoard, createRequest } from "./fixture.ts"

const world = atriumWithTeam()

const comment = (slug: string, body: Record<string, unknown>, shortId = "FR-1") =>
  world.atrium.request("POST", `/feedback/v1/public/boards/${slug}/feature-requests/${shortId}/comments`, { body })

describe("visitors' comments on the public portal", () => {
  it("shows the comment to visitors and, marked as a visitor's, to the team; subscribers are told", async () => {
    const board = await createBoard(world.atrium, world.t)
    const request = await createRequest(world.atrium, world.t.member.token, board.id)
    const posted = await comment(board.slug, { name: " Dana ", email: "Dana@Example.com", body: "We need this at night." })
    expect(posted.status, posted.text).toBe(202)
    expect(posted.body).toMatchObject({
      received: true,
      moderation: "approved",
      comment: { parentId: null, authorName: "Dana", body: "We need this at night.", edited: false }
    })
    const shown = await world.atrium.request("GET", `/feedback/v1/public/boards/${board.slug}/feature-requests/FR-1/comments`)
    expect(shown.body.items).toEqual([expect.objectContaining({ authorName: "Dana", body: "We need this at night." })])
    expect(shown.text).not.toContain("dana@example.com")
    const team = await world.atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/comments`, { token: world.t.admin.token })
    expect(team.body.items[0]).toMatchObject({ author: null, visitor: { name: "Dana", email: "dana@example.com" } })
    const viewer = await world.atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/comments`, {
      token: world.t.viewer.token
    })
    expect(viewer.body.items[0].visitor).toEqual({ name: "Dana", email: null })
    const read = await world.atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: world.t.member.token })
    expect(read.body.commentCount).toBe(1)
    const told = await world.atrium.sql("SELECT reason FROM feedback_notifications WHERE request_id = $1 AND user_id = $2", [
      request.id,
      world.t.member.userId
    ])
    expect(told).toEqual([{ reason: "commented" }])
  })

  it("holds comments on a moderated board, naming no one until approved", async () => {
    const board = await createBoard(world.atrium, world.t, { settings: { moderation: true } })
    await createRequest(world.atrium, world.t.owner.token, board.id)
    const posted = await comment(board.slug, { name: "Eve", body: "Held?" })
    expect(posted.status, posted.text).toBe(202)
    expect(posted.body).toEqual({ received: true, moderation: "pending", comment: null })
    const shown = await world.atrium.request("GET", `/feedback/v1/public/boards/${board.slug}/feature-requests/FR-1/comments`)
    expect(shown.body.items).toEqual([])
  })

  it("names the field of bad input", async () => {
    const board = await createBoard(world.atrium, world.t)
    await createRequest(world.atrium, world.t.member.token, board.id)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ body: "No name" }, "body.name"],
      [{ name: "  ", body: "Blank name" }, "body.name"],
      [{ name: "Dana", body: "   " }, "body.body"],
      [{ name: "Dana", body: "x".repeat(5_001) }, "body.body"],
      [{ name: "Dana", body: "Hi", email: "not-an-email" }, "body.email"]
    ]
    for (const [body, field] of cases) {
      const reply = await comment(board.slug, body)
      expect(reply.status, reply.text).toBe(400)
      expect(reply.body.error.details.map((d: { path: string }) => d.path)).toContain(field)
    }
    expect((await comment(board.slug, { name: "Dana", body: "Hi" }, "FR-99")).status).toBe(404)
  })

  it("swallows a bot's honeypot comment and limits comments per address", async () => {
    const board = await createBoard(world.atrium, world.t)
    await createRequest(world.atrium, world.t.member.token, board.id)
    const bot = await comment(board.slug, { name: "Bot", body: "Cheap pills", website: "http://spam.example" })
    expect(bot.status).toBe(202)
    expect(bot.body).toEqual({ received: true, moderation: "pending", comment: null })
    const accepted = []
    for (let i = 0; i < VISITOR_COMMENTS_PER_HOUR; i++)
      accepted.push((await comment(board.slug, { name: "Dana", body: `Note ${i}` })).status)
    expect(accepted).toEqual(accepted.map(() => 202))
    const over = await comment(board.slug, { name: "Dana", body: "One too many" })
    expect(over.status, over.text).toBe(429)
    const rows = await world.atrium.sql("SELECT body FROM feedback_comments WHERE board_id = $1", [board.id])
    expect(rows).toHaveLength(VISITOR_COMMENTS_PER_HOUR)
    expect(rows.map((r) => r.body)).not.toContain("Cheap pills")
  })

  it("answers 403 where visitors may not comment and 404 on boards that are not public", async () => {
    const membersPost = await createBoard(world.atrium, world.t, { settings: { whoMayPost: "members" } })
    await createRequest(world.atrium, world.t.member.token, membersPost.id)
    expect((await comment(membersPost.slug, { name: "Dana", body: "Hi" })).status).toBe(403)
    const noComments = await createBoard(world.atrium, world.t, { settings: { allowComments: false } })
    await createRequest(world.atrium, world.t.member.token, noComments.id)
    expect((await comment(noComments.slug, { name: "Dana", body: "Hi" })).status).toBe(403)
    const board = await world.atrium.request("GET", `/feedback/v1/public/boards/${noComments.slug}`)
    expect(board.body).toMatchObject({ allowComments: false, visitorComments: false })
    for (const visibility of ["private", "members"]) {
      const hidden = await createBoard(world.atrium, world.t, { visibility })
      await createRequest(world.atrium, world.t.owner.token, hidden.id)
      const reply = await comment(hidden.slug, { name: "Dana", body: "Hi" })
      expect(reply.status, reply.text).toBe(404)
    }
  })
})
