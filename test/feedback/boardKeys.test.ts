/**
 * Short ids that identify (issue 24): every board has a key, unique in its
 * workspace, and each request and bug report a reference (MOBILE-12,
 * MOBILE-B3) that names one thing without the board — in Lite lookups and
 * when linking requests to tasks from either side — while FR-12 keeps
 * working (409 when it is on several boards).
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
