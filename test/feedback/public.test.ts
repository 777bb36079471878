/**
 * The public board and form, anonymous: every public operation is called
 * against a workspace holding private data — a private and a members-only
 * board, pending and declined posts, internal notes, e-mail addresses,
 * private feedback, drafts — and none of it may show; boards that are not
 * public answer 404 on every public operation. Anonymous votes and the form's
 * rate limit and honeypot.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AnyOperation } from "../../facade/Operation.ts"
import { atriumRegistry } from "../../facade/operations.ts"
import { fullPath } from "../../facade/Registry.ts"
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

const SECRETS = [
  "PENDING-SECRET",
  "INTERNAL-SECRET",
  "PENDINGCOMMENT-SECRET",
  "BUGNOTE-SECRET",
  "ENV-SECRET",
  "PRIVATEFB-SECRET",
  "DRAFT-SECRET",
  "PRIVATEBOARD-SECRET",
  "MEMBERSBOARD-SECRET",
  "reporter-secret@example.com",
  "DECLINED-SECRET"
]

const publicOps = () => atriumRegistry.operations.filter((op) => op.service === "feedback" && op.auth === "public")

const call = (op: AnyOperation, slug: string, ids: Record<string, string>) => {
  const path = fullPath(op).replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "slug" ? slug : name === "shortId" ? (op.path.includes("bug-reports") ? "B-1" : "FR-1") : (ids[name] ?? "")
  )
  const needsVisitor = op.query !== undefined && "visitorId" in ((op.query as any).fields ?? {})
  const query = needsVisitor
    ? "?visitorId=visitor-12345"
    : op.operationId === "searchPublicFeatureRequests"
      ? "?q=mode"
      : op.operationId === "findSimilarPublicFeatureRequests"
        ? "?title=dark"
        : ""
  const body =
    op.operationId === "submitPublicForm"
      ? { kind: "featureRequest", title: "From the form" }
      : op.operationId === "commentPublicFeatureRequest"
        ? { name: "Visitor", body: "From the portal" }
        : op.body !== undefined
          ? { visitorId: "visitor-12345" }
          : undefined
  return atrium.request(op.method, path + query, body !== undefined ? { body } : {})
}

describe("public board and form", () => {
  it("never leak private boards, private fields, e-mail addresses or internal comments", async () => {
    const board = await createBoard(atrium, t, { settings: { moderation: true, anonymousVoting: true } })
    const priv = await createBoard(atrium, t, { visibility: "private", name: "Secret board" })
    const members = await createBoard(atrium, t, { visibility: "members" })
    await createRequest(atrium, t.owner.token, priv.id, { title: "PRIVATEBOARD-SECRET" })
    await createRequest(atrium, t.owner.token, members.id, { title: "MEMBERSBOARD-SECRET" })
    const approved = await createRequest(atrium, t.member.token, board.id, { title: "Dark mode", description: "Please" })
    const pending = await createRequest(atrium, t.viewer.token, board.id, { title: "PENDING-SECRET" })
    expect(pending.moderationState).toBe("pending")
    const declined = await createRequest(atrium, t.viewer.token, board.id, { title: "DECLINED-SECRET" })
    const decline = await atrium.request("POST", `/feedback/v1/boards/${board.id}/moderation/items/${declined.id}/decline`, {
      token: t.admin.token,
      body: {}
    })
    expect(decline.status, decline.text).toBe(200)
    const comment = (body: string, token: string, internal = false) =>
      atrium.request("POST", `/feedback/v1/feature-requests/${approved.id}/comments`, { token, body: { body, internal } })
    expect((await comment("INTERNAL-SECRET", t.member.token, true)).status).toBe(201)
    expect((await comment("PENDINGCOMMENT-SECRET", t.viewer.token)).status).toBe(201)
    expect((await comment("Public hello", t.member.token)).status).toBe(201)

    const bug = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.member.token,
      body: { title: "Crash", environment: { url: "https://internal.example/ENV-SECRET" } }
    })
    expect(bug.status).toBe(201)
    await atrium.request("POST", `/feedback/v1/bug-reports/${bug.body.id}/comments`, {
      token: t.member.token,
      body: { body: "BUGNOTE-SECRET", internal: true }
    })
    const form = await atrium.request("POST", `/feedback/v1/public/boards/${board.slug}/form`, {
      body: { kind: "bugReport", title: "Form bug", email: "reporter-secret@example.com" }
    })
    expect(form.status, form.text).toBe(202)
    expect(form.body).toMatchObject({ moderation: "pending", shortId: null })
    await atrium.request("POST", `/feedback/v1/boards/${board.id}/private-feedback`, {
      token: t.viewer.token,
      body: { title: "x", body: "PRIVATEFB-SECRET" }
    })
    await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: { title: "DRAFT-SECRET", kind: "new", markdown: "soon" }
    })
    const entry = await atrium.request("POST", `/feedback/v1/boards/${board.id}/changelog`, {
      token: t.member.token,
      body: { title: "Shipped", kind: "new", markdown: "Done.", state: "published", featureRequestIds: [approved.id] }
    })
    expect(entry.status, entry.text).toBe(201)
    const milestone = await atrium.request("POST", `/feedback/v1/boards/${board.id}/milestones`, {
      token: t.member.token,
      body: { name: "Q1" }
    })
    await atrium.request("PUT", `/feedback/v1/milestones/${milestone.body.id}/article`, {
      token: t.member.token,
      body: { markdown: "# Q1" }
    })
    await atrium.request("POST", `/feedback/v1/milestones/${milestone.body.id}/feature-requests`, {
      token: t.member.token,
      body: { featureRequestId: approved.id }
    })

    const ids = { milestoneId: milestone.body.id, changelogEntryId: entry.body.id, workspaceId: t.workspaceId }
    const people = [t.owner, t.admin, t.member, t.viewer, t.outsider].flatMap((u) => [u.email, u.userId])
    const ops = publicOps()
    expect(ops.length).toBe(35)
    for (const op of ops) {
      const reply = await call(op, board.slug, ids)
      expect(reply.status, `${op.operationId}: ${reply.text}`).toBeLessThan(500)
      expect(
        [200, 202, 409].includes(reply.status) || op.operationId.startsWith("unvote"),
        `${op.operationId}: ${reply.status} ${reply.text}`
      ).toBe(true)
      for (const secret of [...SECRETS, ...people]) expect(reply.text, `${op.operationId} leaks ${secret}`).not.toContain(secret)
      for (const hidden of [priv.slug, members.slug, priv.id, members.id])
        expect(reply.text, `${op.operationId} leaks another board`).not.toContain(hidden)
    }
    for (const slug of [priv.slug, members.slug]) {
      for (const op of ops.filter((o) => o.path.includes("{slug}"))) {
        const reply = await call(op, slug, ids)
        expect(reply.status, `${op.operationId} on ${slug}: ${reply.text}`).toBe(404)
      }
    }
  })

  it("takes anonymous votes once per visitor, only where allowed", async () => {
    const open = await createBoard(atrium, t, { settings: { anonymousVoting: true } })
    const closed = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.member.token, open.id)
    await createRequest(atrium, t.member.token, closed.id)
    const vote = (slug: string, visitorId: string) =>
      atrium.request("POST", `/feedback/v1/public/boards/${slug}/feature-requests/FR-1/votes`, { body: { visitorId } })
    const first = await vote(open.slug, "visitor-aaaaaaaa")
    expect(first.status, first.text).toBe(200)
    expect(first.body).toEqual({ shortId: "FR-1", voteCount: 1, voted: true })
    expect((await vote(open.slug, "visitor-aaaaaaaa")).status).toBe(409)
    expect((await vote(closed.slug, "visitor-aaaaaaaa")).status).toBe(403)
    const state = await atrium.request(
      "GET",
      `/feedback/v1/public/boards/${open.slug}/feature-requests/FR-1/votes?visitorId=visitor-aaaaaaaa`
    )
    expect(state.body).toEqual({ shortId: "FR-1", voteCount: 1, voted: true })
    const mine = await atrium.request("GET", `/feedback/v1/public/boards/${open.slug}/votes?visitorId=visitor-aaaaaaaa`)
    expect(mine.body.items).toEqual(["FR-1"])
    const back = await atrium.request(
      "DELETE",
      `/feedback/v1/public/boards/${open.slug}/feature-requests/FR-1/votes?visitorId=visitor-aaaaaaaa`
    )
    expect(back.body).toEqual({ shortId: "FR-1", voteCount: 0, voted: false })
    const read = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.member.token })
    expect(read.body.voteCount).toBe(0)
  })

  it("limits form submissions per address and swallows honeypot ones", async () => {
    const board = await createBoard(atrium, t)
    const submit = (body: Record<string, unknown>) => atrium.request("POST", `/feedback/v1/public/boards/${board.slug}/form`, { body })
    const bot = await submit({ kind: "featureRequest", title: "Cheap pills", website: "http://spam.example" })
    expect(bot.status).toBe(202)
    expect(bot.body).toEqual({ received: true, kind: "featureRequest", shortId: null, moderation: "pending" })
    const spec = await atrium.request("GET", `/feedback/v1/public/boards/${board.slug}/form`)
    const accepted = []
    for (let i = 0; i < spec.body.submissionsPerHour - 1; i++)
      accepted.push(await submit({ kind: "featureRequest", title: `Idea ${i}`, details: "**Bold** idea", name: "Visitor" }))
    expect(accepted.map((r) => r.status)).toEqual(accepted.map(() => 202))
    expect(accepted[0]!.body).toMatchObject({ shortId: "FR-1", moderation: "approved" })
    const over = await submit({ kind: "bugReport", title: "One too many" })
    expect(over.status).toBe(429)
    const requests = await atrium.sql("SELECT title, author_id, author_name FROM feedback_requests WHERE board_id = $1 ORDER BY number", [
      board.id
    ])
    expect(requests.map((r) => r.title)).not.toContain("Cheap pills")
    expect(requests[0]).toEqual({ title: "Idea 0", author_id: null, author_name: "Visitor" })
    const shown = await atrium.request("GET", `/feedback/v1/public/boards/${board.slug}/feature-requests/FR-1`)
    expect(shown.body).toMatchObject({ title: "Idea 0", description: "**Bold** idea", authorName: "Visitor" })
    const bad = await submit({ kind: "featureRequest", title: "x", email: "not-an-email" })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.email")
  })

  it("answers 409 with the candidates when two workspaces have a public board with the slug", async () => {
    const other = await newTeam(atrium)
    const mine = await createBoard(atrium, t)
    const theirs = await atrium.request("POST", "/feedback/v1/boards", {
      token: other.owner.token,
      body: { workspaceId: other.workspaceId, name: "Theirs", slug: mine.slug, visibility: "public" }
    })
    expect(theirs.status).toBe(201)
    const ambiguous = await atrium.request("GET", `/feedback/v1/public/boards/${mine.slug}`)
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.body.error.details.map((d: any) => d.path)).toEqual(["query.workspaceId", "query.workspaceId"])
    const chosen = await atrium.request("GET", `/feedback/v1/public/boards/${mine.slug}?workspaceId=${other.workspaceId}`)
    expect(chosen.body).toMatchObject({ name: "Theirs" })
  })
})
