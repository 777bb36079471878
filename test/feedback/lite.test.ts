/**
 * Feature Requests (Lite) and Bug Reports (Lite): boards by slug or name,
 * statuses, categories and levels by name, people by e-mail, short ids —
 * unknown names 404 naming the field, ambiguous ones 409 with candidates —
 * and cursor pagination that never repeats or skips an item. Short ids that
 * identify (issue 24): each board has a key, unique in its workspace, and each
 * request and bug report a reference (MOBILE-12, MOBILE-B3) that names one
 * thing without the board — in Lite lookups and when linking requests to
 * tasks from either side — while FR-12 keeps working (409 when ambiguous).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { firstFree, keyFromSlug } from "../../actors/feedback/BoardKeys.ts"
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

const lite = (method: string, path: string, token: string, body?: Record<string, unknown>) =>
  atrium.request(method, `/feedback/v1/lite${path}`, { token, ...(body ? { body } : {}) })

describe("Feature Requests (Lite)", () => {
  it("resolves boards, statuses and categories by name, short ids across boards, and pages by cursor", async () => {
    const first = await createBoard(atrium, t, { name: "Ideas" })
    const second = await createBoard(atrium, t, { name: "Ideas" })
    await atrium.request("POST", `/feedback/v1/boards/${first.id}/categories`, { token: t.owner.token, body: { name: "Integrations" } })
    const ambiguous = await lite("POST", "/feature-requests", t.member.token, { workspaceId: t.workspaceId, board: "ideas", title: "x" })
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.body.error.details).toHaveLength(2)
    expect(ambiguous.body.error.details[0].path).toBe("body.board")
    const unknown = await lite("POST", "/feature-requests", t.member.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      title: "x",
      category: "Nope"
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.details[0].path).toBe("body.category")
    const created = await lite("POST", "/feature-requests", t.member.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      title: "Slack integration",
      description: "Post **updates** to Slack",
      category: "integrations"
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      shortId: "FR-1",
      boardSlug: first.slug,
      category: "Integrations",
      status: "Open",
      description: "Post **updates** to Slack",
      authorEmail: t.member.email
    })
    const onSecond = await lite("POST", "/feature-requests", t.owner.token, {
      workspaceId: t.workspaceId,
      board: second.slug,
      title: "Other"
    })
    expect(onSecond.body.shortId).toBe("FR-1")
    const which = await lite("GET", `/feature-requests/FR-1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(which.status).toBe(409)
    expect(which.body.error.details.map((d: any) => d.message)).toEqual([
      `candidate: FR-1 on ${first.slug}`,
      `candidate: FR-1 on ${second.slug}`
    ])
    const got = await lite("GET", `/feature-requests/fr-1?workspaceId=${t.workspaceId}&board=${second.slug}`, t.member.token)
    expect(got.body.title).toBe("Other")
    expect((await lite("GET", `/feature-requests/FR-9?workspaceId=${t.workspaceId}&board=${first.slug}`, t.member.token)).status).toBe(404)

    const planned = await lite("POST", "/feature-requests/FR-1/status", t.admin.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      status: "planned"
    })
    expect(planned.body).toMatchObject({ status: "Planned", statusType: "planned" })
    expect(
      (
        await lite("POST", "/feature-requests/FR-1/status", t.member.token, {
          workspaceId: t.workspaceId,
          board: first.slug,
          status: "Shipped"
        })
      ).status
    ).toBe(403)
    const badStatus = await lite("POST", "/feature-requests/FR-1/status", t.admin.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      status: "Someday"
    })
    expect(badStatus.status).toBe(404)
    expect(badStatus.body.error.details[0].path).toBe("body.status")
    const voted = await lite("POST", "/feature-requests/FR-1/votes", t.viewer.token, { workspaceId: t.workspaceId, board: first.slug })
    expect(voted.body.voteCount).toBe(1)
    const onBehalf = await lite("POST", "/feature-requests/FR-1/votes", t.member.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      onBehalfOfEmail: "customer@example.com"
    })
    expect(onBehalf.body.voteCount).toBe(2)
    const comment = await lite("POST", "/feature-requests/FR-1/comments", t.member.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      body: "cc",
      mentionEmails: [t.viewer.email]
    })
    expect(comment.status, comment.text).toBe(201)
    const badMention = await lite("POST", "/feature-requests/FR-1/comments", t.member.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      body: "cc",
      mentionEmails: [t.outsider.email]
    })
    expect(badMention.status).toBe(400)
    expect(badMention.body.error.details[0].path).toBe("body.mentionEmails.0")

    for (let i = 2; i <= 6; i++)
      await lite("POST", "/feature-requests", t.member.token, { workspaceId: t.workspaceId, board: first.slug, title: `Idea ${i}` })
    const seen: Array<string> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: any = await lite(
        "GET",
        `/feature-requests?workspaceId=${t.workspaceId}&board=${first.slug}&limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        t.member.token
      )
      expect(page.status, page.text).toBe(200)
      seen.push(...page.body.items.map((i: any) => i.shortId))
      cursor = page.body.nextCursor
      pages++
      if (pages === 1)
        await lite("POST", "/feature-requests", t.member.token, { workspaceId: t.workspaceId, board: first.slug, title: "Late" })
    } while (cursor !== null)
    expect(seen).toEqual(["FR-1", "FR-2", "FR-3", "FR-4", "FR-5", "FR-6", "FR-7"])
    const firstPage = await lite("GET", `/feature-requests?workspaceId=${t.workspaceId}&board=${first.slug}&limit=2`, t.member.token)
    const mismatch = await lite(
      "GET",
      `/feature-requests?workspaceId=${t.workspaceId}&status=Open&limit=2&cursor=${firstPage.body.nextCursor}`,
      t.member.token
    )
    expect(mismatch.status).toBe(400)
    expect(mismatch.body.error.details[0].path).toBe("query.cursor")
    const byAuthor = await lite(
      "GET",
      `/feature-requests?workspaceId=${t.workspaceId}&authorEmail=${encodeURIComponent(t.owner.email)}`,
      t.member.token
    )
    expect(byAuthor.body.items.map((i: any) => i.title)).toEqual(["Other"])
    const nobody = await lite("GET", `/feature-requests?workspaceId=${t.workspaceId}&authorEmail=nobody@example.com`, t.member.token)
    expect(nobody.status).toBe(404)
    expect(nobody.body.error.details[0].path).toBe("query.authorEmail")

    const merged = await lite("POST", "/feature-requests/FR-2/merge", t.admin.token, {
      workspaceId: t.workspaceId,
      board: first.slug,
      into: "FR-1"
    })
    expect(merged.status, merged.text).toBe(200)
    expect(merged.body).toMatchObject({ shortId: "FR-2", mergedInto: "FR-1" })
    const outsider = await lite("GET", `/feature-requests?workspaceId=${t.workspaceId}`, t.outsider.token)
    expect(outsider.status).toBe(404)
  })
})

describe("Bug Reports (Lite)", () => {
  it("files, triages, assigns, comments and deletes bug reports by names and short ids", async () => {
    const board = await createBoard(atrium, t, { name: "Bugs" })
    const created = await lite("POST", "/bug-reports", t.member.token, {
      workspaceId: t.workspaceId,
      board: "bugs",
      title: "Crash on save",
      actual: "White screen",
      severity: "critical"
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      shortId: "B-1",
      boardSlug: board.slug,
      severity: "Critical",
      status: "New",
      reporterEmail: t.member.email
    })
    const other = await lite("POST", "/bug-reports", t.outsider.token, { workspaceId: t.workspaceId, board: board.slug, title: "x" })
    expect(other.status).toBe(404)
    const ref = `?workspaceId=${t.workspaceId}&board=${board.slug}`
    const where = { workspaceId: t.workspaceId, board: board.slug }
    const confirmed = await lite("POST", "/bug-reports/B-1/status", t.member.token, { ...where, name: "Confirmed" })
    expect(confirmed.body.status).toBe("Confirmed")
    const badLevel = await lite("POST", "/bug-reports/B-1/severity", t.member.token, { ...where, name: "Apocalyptic" })
    expect(badLevel.status).toBe(404)
    expect(badLevel.body.error.details[0].path).toBe("body.name")
    const assigned = await lite("POST", "/bug-reports/B-1/assignee", t.member.token, { ...where, email: t.admin.email })
    expect(assigned.body.assigneeEmail).toBe(t.admin.email)
    expect((await lite("POST", "/bug-reports/B-1/assignee", t.member.token, { ...where, email: "ghost@example.com" })).status).toBe(404)
    const updated = await lite("PATCH", "/bug-reports/B-1", t.member.token, { ...where, expected: "Saved" })
    expect(updated.body).toMatchObject({ expected: "Saved", actual: "White screen" })
    await lite("POST", "/bug-reports/B-1/comments", t.member.token, { ...where, body: "Looking", internal: true })
    const comments = await lite("GET", `/bug-reports/B-1/comments${ref}`, t.admin.token)
    expect(comments.body.items).toEqual([expect.objectContaining({ body: "Looking", internal: true, authorEmail: t.member.email })])
    const found = await lite(
      "GET",
      `/bug-reports?workspaceId=${t.workspaceId}&severity=Critical,High&assigneeEmail=${encodeURIComponent(t.admin.email)}`,
      t.admin.token
    )
    expect(found.body.items.map((b: any) => b.shortId)).toEqual(["B-1"])
    const none = await lite("GET", `/bug-reports?workspaceId=${t.workspaceId}&status=Fixed`, t.admin.token)
    expect(none.body).toEqual({ items: [], nextCursor: null })
    expect((await lite("DELETE", `/bug-reports/B-1${ref}`, t.member.token)).status).toBe(204)
    expect((await lite("GET", `/bug-reports/B-1${ref}`, t.member.token)).status).toBe(404)
  })
})

const patchKey = (boardId: string, key: unknown) =>
  atrium.request("PATCH", `/feedback/v1/boards/${boardId}`, { token: t.owner.token, body: { key } })

describe("board keys", () => {
  it("derive from the slug, within 10 letters and digits, never the reserved FR, numbered past those taken", () => {
    expect(keyFromSlug("mobile-app")).toBe("MOBILEAPP")
    expect(keyFromSlug("2024-roadmap")).toBe("ROADMAP")
    expect(keyFromSlug("customer-feedback-portal")).toBe("CUSTOMERFE")
    expect(keyFromSlug("fr")).toBe("BOARD")
    expect(keyFromSlug("x")).toBe("BOARD")
    expect(firstFree("CUSTOMERFE", new Set(["CUSTOMERFE"]))).toBe("CUSTOMERF2")
    expect(firstFree("WEB", new Set(["WEB", "WEB2"]))).toBe("WEB3")
  })

  it("are distinct for boards whose slugs derive the same key, and admins change them with 400 / 409 naming body.key", async () => {
    const first = await createBoard(atrium, t, { name: "Mobile app", slug: "mobile-app" })
    const second = await createBoard(atrium, t, { name: "Mobile App", slug: "mobileapp" })
    expect(first.key).toBe("MOBILEAPP")
    expect(second.key).toBe("MOBILEAPP2")

    for (const bad of ["ios", "X", "1OS", "FR", "TOOLONGKEY1", 7]) {
      const refused = await patchKey(second.id, bad)
      expect(refused.status, `${bad}: ${refused.text}`).toBe(400)
      expect(refused.body.error.details[0].path).toBe("body.key")
    }
    const taken = await patchKey(second.id, "MOBILEAPP")
    expect(taken.status, taken.text).toBe(409)
    expect(taken.body.error.details[0].path).toBe("body.key")
    const changed = await patchKey(second.id, "IOS")
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toMatchObject({ key: "IOS", slug: "mobileapp" })
    expect((await atrium.request("GET", `/feedback/v1/boards/${second.id}`, { token: t.member.token })).body.key).toBe("IOS")

    const chosen = await createBoard(atrium, t, { name: "Android", slug: "android", key: "DROID" })
    expect(chosen.key).toBe("DROID")
    const badCreate = await atrium.request("POST", "/feedback/v1/boards", {
      token: t.owner.token,
      body: { workspaceId: t.workspaceId, name: "Watch", slug: "watch", visibility: "public", key: "watch" }
    })
    expect(badCreate.status).toBe(400)
    expect(badCreate.body.error.details[0].path).toBe("body.key")
    const takenCreate = await atrium.request("POST", "/feedback/v1/boards", {
      token: t.owner.token,
      body: { workspaceId: t.workspaceId, name: "Watch", slug: "watch", visibility: "public", key: "IOS" }
    })
    expect(takenCreate.status).toBe(409)
    expect(takenCreate.body.error.details[0].path).toBe("body.key")
  })
})

describe("references", () => {
  it("name one request or bug report without the board, where FR-1 is on two boards", async () => {
    const mobile = await createBoard(atrium, t, { name: "Mobile", slug: "mobile" })
    const web = await createBoard(atrium, t, { name: "Web", slug: "web" })
    const onMobile = await createRequest(atrium, t.member.token, mobile.id, { title: "Offline mode" })
    const onWeb = await createRequest(atrium, t.member.token, web.id, { title: "Keyboard shortcuts" })
    expect(onMobile).toMatchObject({ shortId: "FR-1", reference: "MOBILE-1" })
    expect(onWeb).toMatchObject({ shortId: "FR-1", reference: "WEB-1" })

    const ambiguous = await lite("GET", `/feature-requests/FR-1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.body.error.details[0].path).toBe("path.requestRef")
    const mobileOne = await lite("GET", `/feature-requests/MOBILE-1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(mobileOne.status, mobileOne.text).toBe(200)
    expect(mobileOne.body).toMatchObject({ id: onMobile.id, shortId: "FR-1", reference: "MOBILE-1", boardSlug: "mobile" })
    const webOne = await lite("GET", `/feature-requests/web-1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(webOne.body).toMatchObject({ id: onWeb.id, reference: "WEB-1" })
    expect((await lite("GET", `/feature-requests/WEB-2?workspaceId=${t.workspaceId}`, t.member.token)).status).toBe(404)
    expect((await lite("GET", `/feature-requests/NOPE-1?workspaceId=${t.workspaceId}`, t.member.token)).status).toBe(404)
    const malformed = await lite("GET", `/feature-requests/MOBILE-X1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.details[0].path).toBe("path.requestRef")
    const read = await atrium.request("GET", `/feedback/v1/feature-requests/${onWeb.id}`, { token: t.member.token })
    expect(read.body).toMatchObject({ shortId: "FR-1", reference: "WEB-1" })

    const bug = await lite("POST", "/bug-reports", t.member.token, { workspaceId: t.workspaceId, board: "mobile", title: "Crash on start" })
    expect(bug.status, bug.text).toBe(201)
    expect(bug.body).toMatchObject({ shortId: "B-1", reference: "MOBILE-B1" })
    const fullBug = await atrium.request("GET", `/feedback/v1/bug-reports/${bug.body.id}`, { token: t.member.token })
    expect(fullBug.body).toMatchObject({ shortId: "B-1", reference: "MOBILE-B1", boardId: mobile.id })
    await lite("POST", "/bug-reports", t.member.token, { workspaceId: t.workspaceId, board: "web", title: "Blank page" })
    expect((await lite("GET", `/bug-reports/B-1?workspaceId=${t.workspaceId}`, t.member.token)).status).toBe(409)
    const bugOne = await lite("GET", `/bug-reports/web-b1?workspaceId=${t.workspaceId}`, t.member.token)
    expect(bugOne.status, bugOne.text).toBe(200)
    expect(bugOne.body).toMatchObject({ title: "Blank page", shortId: "B-1", reference: "WEB-B1" })

    // After a key changes the new reference resolves, the old one no longer does.
    expect((await patchKey(web.id, "BROWSER")).status).toBe(200)
    expect((await lite("GET", `/feature-requests/BROWSER-1?workspaceId=${t.workspaceId}`, t.member.token)).body.id).toBe(onWeb.id)
    expect((await lite("GET", `/feature-requests/WEB-1?workspaceId=${t.workspaceId}`, t.member.token)).status).toBe(404)
  })

  it("link requests to tasks from both sides", async () => {
    const space = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, { token: t.owner.token, body: { name: "Eng" } })
    const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: t.owner.token, body: { name: "Work" } })
    const newTask = async (name: string) =>
      (await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, { token: t.member.token, body: { name } })).body as {
        id: string
        shortId: string
      }
    const alpha = await createBoard(atrium, t, { name: "Alpha", slug: "alpha" })
    const beta = await createBoard(atrium, t, { name: "Beta", slug: "beta" })
    const onAlpha = await createRequest(atrium, t.member.token, alpha.id, { title: "Export" })
    const onBeta = await createRequest(atrium, t.member.token, beta.id, { title: "Import" })
    const task = await newTask("Data tools")

    const byShortId = await lite("POST", "/feature-requests/FR-1/tasks", t.owner.token, { workspaceId: t.workspaceId, task: task.shortId })
    expect(byShortId.status).toBe(409)
    const fromRequest = await lite("POST", "/feature-requests/ALPHA-1/tasks", t.owner.token, {
      workspaceId: t.workspaceId,
      task: task.shortId
    })
    expect(fromRequest.status, fromRequest.text).toBe(200)
    expect(fromRequest.body.items.map((i: any) => i.taskId)).toEqual([task.id])

    const fromTask = await atrium.request("POST", `/pm/v1/lite/tasks/${task.shortId}/feature-requests`, {
      token: t.owner.token,
      body: { workspaceId: t.workspaceId, request: "beta-1" }
    })
    expect(fromTask.status, fromTask.text).toBe(200)
    expect(fromTask.body.items.map((i: any) => `${i.id} ${i.shortId} ${i.reference}`)).toEqual([
      `${onAlpha.id} FR-1 ALPHA-1`,
      `${onBeta.id} FR-1 BETA-1`
    ])
  })
})
