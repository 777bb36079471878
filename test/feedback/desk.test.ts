/**
 * The feedback desk through the API: bug reports (short ids, levels with
 * history, assignee, comments and internal notes), milestones with their
 * requests and articles, changelog entries (publishing ships the linked
 * requests and notifies their voters), private feedback.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Board } from "../../actors/feedback/Board.ts"
import { FeedbackDesk } from "../../actors/feedback/FeedbackDesk.ts"
import { publishDueEntries } from "../../facade/extensions/FeedbackExtension.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
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

/** A vote through the Board actor (the vote operations are the board tags'). */
const vote = (boardId: string, requestId: string, userId: string) =>
  atrium.run(
    Effect.flatMap(ActorSystem, (system) => Board.client(system)(boardId).vote({ by: userId, requestId, voter: { kind: "user", userId } }))
  )

const optionId = async (boardId: string, kind: string, name: string) =>
  (
    await atrium.sql<{ id: string }>("SELECT id FROM feedback_options WHERE board_id = $1 AND kind = $2 AND name = $3", [
      boardId,
      kind,
      name
    ])
  )[0]!.id

describe("bug reports", () => {
  it("numbers reports per board, triages them with history and keeps internal notes from outsiders", async () => {
    const board = await createBoard(atrium, t)
    const first = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.viewer.token,
      body: {
        title: "Export does nothing",
        stepsToReproduce: "1. Open\n2. Export",
        expected: "A file",
        actual: "Nothing",
        environment: { browser: "Safari 18", os: "macOS" },
        severityLevelId: await optionId(board.id, "severity", "Critical")
      }
    })
    expect(first.status, first.text).toBe(201)
    expect(first.body).toMatchObject({
      shortId: "B-1",
      reporterId: t.viewer.userId,
      environment: { browser: "Safari 18", os: "macOS" },
      severityLevelId: null,
      bugStatusLevelId: await optionId(board.id, "bug_status", "New"),
      moderation: "approved"
    })
    const second = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.member.token,
      body: { title: "Crash" }
    })
    expect(second.body.shortId).toBe("B-2")
    const unknownFile = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.member.token,
      body: { title: "With a file", attachmentIds: ["00000000-0000-4000-8000-000000000000"] }
    })
    expect(unknownFile.status).toBe(400)
    expect(unknownFile.body.error.details[0].path).toBe("body.attachmentIds.0")

    const critical = await optionId(board.id, "severity", "Critical")
    const triaged = await atrium.request("PUT", `/feedback/v1/bug-reports/${first.body.id}/severity-level`, {
      token: t.member.token,
      body: { severityLevelId: critical }
    })
    expect(triaged.status, triaged.text).toBe(200)
    expect(triaged.body.severityLevelId).toBe(critical)
    const byOutsider = await atrium.request("PUT", `/feedback/v1/bug-reports/${first.body.id}/severity-level`, {
      token: t.viewer.token,
      body: { severityLevelId: null }
    })
    expect(byOutsider.status).toBe(403)
    const wrongLevel = await atrium.request("PUT", `/feedback/v1/bug-reports/${first.body.id}/bug-status-level`, {
      token: t.member.token,
      body: { bugStatusLevelId: critical }
    })
    expect(wrongLevel.status).toBe(400)
    expect(wrongLevel.body.error.details[0].path).toBe("body.bugStatusLevelId")
    const assigned = await atrium.request("PUT", `/feedback/v1/bug-reports/${first.body.id}/assignee`, {
      token: t.admin.token,
      body: { assigneeId: t.member.userId }
    })
    expect(assigned.body.assigneeId).toBe(t.member.userId)
    const notMember = await atrium.request("PUT", `/feedback/v1/bug-reports/${first.body.id}/assignee`, {
      token: t.admin.token,
      body: { assigneeId: t.outsider.userId }
    })
    expect(notMember.status).toBe(400)
    const history = await atrium.request("GET", `/feedback/v1/bug-reports/${first.body.id}/history`, { token: t.admin.token })
    expect(history.body.items.map((h: any) => [h.field, h.to])).toEqual([
      ["severityLevel", critical],
      ["assignee", t.member.userId]
    ])

    const note = await atrium.request("POST", `/feedback/v1/bug-reports/${first.body.id}/comments`, {
      token: t.member.token,
      body: { body: "Root cause: CSP header", internal: true }
    })
    expect(note.status, note.text).toBe(201)
    const reply = await atrium.request("POST", `/feedback/v1/bug-reports/${first.body.id}/comments`, {
      token: t.viewer.token,
      body: { body: "Still broken" }
    })
    expect(reply.status).toBe(201)
    const outsiderNote = await atrium.request("POST", `/feedback/v1/bug-reports/${first.body.id}/comments`, {
      token: t.viewer.token,
      body: { body: "sneaky", internal: true }
    })
    expect(outsiderNote.status).toBe(403)
    const seenByOutsider = await atrium.request("GET", `/feedback/v1/bug-reports/${first.body.id}/comments`, { token: t.viewer.token })
    expect(seenByOutsider.body.items.map((c: any) => c.body)).toEqual(["Still broken"])
    const seenByTeam = await atrium.request("GET", `/feedback/v1/bug-reports/${first.body.id}/comments`, { token: t.admin.token })
    expect(seenByTeam.body.items.map((c: any) => c.body)).toEqual(["Root cause: CSP header", "Still broken"])

    const list = await atrium.request("GET", `/feedback/v1/boards/${board.id}/bug-reports?sort=severity`, { token: t.admin.token })
    expect(list.body.items.map((b: any) => b.shortId)).toEqual(["B-1", "B-2"])
    const search = await atrium.request("GET", `/feedback/v1/boards/${board.id}/bug-reports?q=export`, { token: t.admin.token })
    expect(search.body.items.map((b: any) => b.shortId)).toEqual(["B-1"])

    const edit = await atrium.request("PATCH", `/feedback/v1/bug-reports/${second.body.id}`, {
      token: t.viewer.token,
      body: { title: "x" }
    })
    expect(edit.status).toBe(403)
    expect((await atrium.request("DELETE", `/feedback/v1/bug-reports/${second.body.id}`, { token: t.member.token })).status).toBe(204)
    expect((await atrium.request("GET", `/feedback/v1/bug-reports/${second.body.id}`, { token: t.member.token })).status).toBe(404)
  })

  it("never shows a private board's reports to outsiders", async () => {
    const board = await createBoard(atrium, t, { visibility: "private" })
    const bug = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.owner.token,
      body: { title: "Secret" }
    })
    expect(bug.status).toBe(201)
    expect((await atrium.request("GET", `/feedback/v1/bug-reports/${bug.body.id}`, { token: t.outsider.token })).status).toBe(404)
    expect((await atrium.request("GET", `/feedback/v1/boards/${board.id}/bug-reports`, { token: t.member.token })).status).toBe(404)
  })
})

describe("milestones, articles and the changelog", () => {
  it("plans requests into a milestone and round-trips its article in all three forms", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.member.token, board.id, { title: "Dark mode" })
    const milestone = await atrium.request("POST", `/feedback/v1/boards/${board.id}/milestones`, {
      token: t.member.token,
      body: { name: "Q1", date: "2027-03-31" }
    })
    expect(milestone.status, milestone.text).toBe(201)
    expect(milestone.body).toMatchObject({ name: "Q1", date: "2027-03-31", featureRequestIds: [], hasArticle: false })
    const badDate = await atrium.request("POST", `/feedback/v1/boards/${board.id}/milestones`, {
      token: t.member.token,
      body: { name: "x", date: "2027-02-30" }
    })
    expect(badDate.status).toBe(400)
    expect(badDate.body.error.details[0].path).toBe("body.date")
    const added = await atrium.request("POST", `/feedback/v1/milestones/${milestone.body.id}/feature-requests`, {
      token: t.member.token,
      body: { featureRequestId: request.id }
    })
    expect(added.status, added.text).toBe(201)
    expect(added.body.featureRequestIds).toEqual([request.id])
    const listed = await atrium.request("GET", `/feedback/v1/milestones/${milestone.body.id}/feature-requests`, { token: t.viewer.token })
    expect(listed.body.items).toEqual([expect.objectContaining({ id: request.id, shortId: request.shortId, title: "Dark mode" })])

    const markdown = "# Dark mode\n\nIt is **here**, finally.\n\n- toggle in settings\n- follows the system"
    const put = await atrium.request("PUT", `/feedback/v1/milestones/${milestone.body.id}/article`, {
      token: t.member.token,
      body: { markdown }
    })
    expect(put.status, put.text).toBe(200)
    expect(put.body.markdown.trimEnd()).toBe(markdown)
    expect(put.body.html).toContain("<strong>here</strong>")
    expect(put.body.content.content[0]).toMatchObject({ type: "heading", attrs: { level: 1 } })
    const again = await atrium.request("PUT", `/feedback/v1/milestones/${milestone.body.id}/article`, {
      token: t.member.token,
      body: { content: put.body.content }
    })
    expect(again.body).toMatchObject({ content: put.body.content, markdown: put.body.markdown, html: put.body.html })
    const read = await atrium.request("GET", `/feedback/v1/milestones/${milestone.body.id}/article`, { token: t.viewer.token })
    expect(read.body.markdown.trimEnd()).toBe(markdown)
    const offSchema = await atrium.request("PUT", `/feedback/v1/milestones/${milestone.body.id}/article`, {
      token: t.member.token,
      body: { content: { type: "doc", content: [{ type: "paragraph", content: [{ type: "blink", text: "x" }] }] } }
    })
    expect(offSchema.status).toBe(400)
    expect(offSchema.body.error.details[0].path).toBe("body.content.content[0].content[0].type")
    expect(offSchema.body.error.message).toContain("blink")
    const byOutsider = await atrium.request("PUT", `/feedback/v1/milestones/${milestone.body.id}/article`, {
      token: t.viewer.token,
      body: { markdown: "x" }
    })
    expect(byOutsider.status).toBe(403)
  })

  it("publishing an entry ships its requests and notifies their voters", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.owner.token, board.id, { title: "CSV export" })
    await vote(board.id, request.id, t.viewer.userId)
    const draft = await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: { title: "CSV export", kind: "new", markdown: "Export any board as CSV.", featureRequestIds: [request.id] }
    })
    expect(draft.status, draft.text).toBe(201)
    expect(draft.body).toMatchObject({ state: "draft", publishedAt: null, html: "<p>Export any board as CSV.</p>" })
    const hidden = await atrium.request("GET", `/feedback/v1/boards/${board.id}/changelog`, { token: t.viewer.token })
    expect(hidden.body.items).toEqual([])
    const published = await atrium.request("PATCH", `/feedback/v1/changelog/${draft.body.id}`, {
      token: t.member.token,
      body: { state: "published" }
    })
    expect(published.status, published.text).toBe(200)
    expect(published.body.state).toBe("published")
    expect(published.body.notifiedCount).toBeGreaterThanOrEqual(1)
    const shipped = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.admin.token })
    expect(shipped.body.status).toMatchObject({ type: "shipped" })
    const notices = await atrium.sql("SELECT user_id, reason FROM feedback_notifications WHERE request_id = $1", [request.id])
    expect(notices).toContainEqual({ user_id: t.viewer.userId, reason: "shipped" })
    const visible = await atrium.request("GET", `/feedback/v1/boards/${board.id}/changelog`, { token: t.viewer.token })
    expect(visible.body.items.map((e: any) => e.id)).toEqual([draft.body.id])
    const unknown = await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: { title: "x", kind: "fixed", markdown: "x", featureRequestIds: ["00000000-0000-4000-8000-000000000000"] }
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.details[0].path).toBe("body.featureRequestIds.0")
    const pastSchedule = await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: { title: "x", kind: "fixed", markdown: "x", state: "scheduled", publishAt: "2020-01-01T00:00:00Z" }
    })
    expect(pastSchedule.status).toBe(400)
    expect(pastSchedule.body.error.details[0].path).toBe("body.publishAt")
  })

  it("publishes a scheduled entry once its time has come, honouring voters' notification preferences", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.owner.token, board.id, { title: "SSO" })
    await vote(board.id, request.id, t.viewer.userId)
    await vote(board.id, request.id, t.admin.userId)
    const off = await atrium.request("PUT", `/feedback/v1/boards/${board.id}/notification-preference`, {
      token: t.admin.token,
      body: { mode: "off" }
    })
    expect(off.status, off.text).toBe(200)
    const publishAt = new Date(Date.now() + 3_600_000).toISOString()
    const scheduled = await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: {
        title: "SSO",
        kind: "new",
        html: "<p>SAML <em>and</em> OIDC</p>",
        state: "scheduled",
        publishAt,
        featureRequestIds: [request.id]
      }
    })
    expect(scheduled.status, scheduled.text).toBe(201)
    expect(scheduled.body).toMatchObject({ state: "scheduled", publishAt, markdown: "SAML *and* OIDC\n" })
    expect((await atrium.request("GET", `/feedback/v1/boards/${board.id}/changelog`, { token: t.viewer.token })).body.items).toEqual([])
    // Time passes: the entry is due (the desk rebuilds from the rows).
    await atrium.sql("UPDATE feedback_changelog_entries SET publish_at = now() - interval '1 minute' WHERE id = $1", [scheduled.body.id])
    await atrium.run(Effect.flatMap(ActorSystem, (system) => system.invalidate(FeedbackDesk, board.id)))
    // The scheduler's sweep publishes it (a read of the changelog would too).
    await atrium.run(publishDueEntries)
    const row = await atrium.sql("SELECT state FROM feedback_changelog_entries WHERE id = $1", [scheduled.body.id])
    expect(row[0]!.state).toBe("published")
    const listed = await atrium.request("GET", `/feedback/v1/boards/${board.id}/changelog`, { token: t.viewer.token })
    expect(listed.body.items).toEqual([expect.objectContaining({ id: scheduled.body.id, state: "published", notifiedCount: 2 })])
    const notices = await atrium.sql<{ user_id: string }>(
      "SELECT user_id FROM feedback_notifications WHERE request_id = $1 AND reason = 'shipped'",
      [request.id]
    )
    // The voter and the author (subscribed by posting), not the voter who turned notices off.
    expect(notices.map((n) => n.user_id).sort()).toEqual([t.viewer.userId, t.owner.userId].sort())
    const shipped = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.viewer.token })
    expect(shipped.body.status.type).toBe("shipped")
  })

  it("keeps private feedback to the team", async () => {
    const board = await createBoard(atrium, t)
    const sent = await atrium.request("POST", `/feedback/v1/boards/${board.id}/private-feedback`, {
      token: t.viewer.token,
      body: { title: "Pricing", body: "Too expensive" }
    })
    expect(sent.status, sent.text).toBe(201)
    expect((await atrium.request("GET", `/feedback/v1/boards/${board.id}/private-feedback`, { token: t.viewer.token })).status).toBe(403)
    const seen = await atrium.request("GET", `/feedback/v1/boards/${board.id}/private-feedback`, { token: t.admin.token })
    expect(seen.body.items.map((f: any) => f.body)).toEqual(["Too expensive"])
  })
})
