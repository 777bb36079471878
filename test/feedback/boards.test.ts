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

  it("changes, archives, restores, lists, duplicates and deletes boards; settings and permissions", async () => {
    const board = await createBoard(atrium, t, { name: "Roadmap" })
    const api = (method: string, path: string, token: string, body?: unknown) =>
      atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
    expect((await api("PATCH", `/boards/${board.id}`, t.member.token, { name: "Nope" })).status).toBe(403)
    const renamed = await api("PATCH", `/boards/${board.id}`, t.owner.token, { name: "Public roadmap", visibility: "members" })
    expect(renamed.body).toMatchObject({ name: "Public roadmap", visibility: "members", slug: board.slug })
    const settings = await api("PATCH", `/boards/${board.id}/settings`, t.admin.token, { whoMayPost: "members", moderation: true })
    expect(settings.body).toMatchObject({ whoMayPost: "members", moderation: true, whoMayVote: "anyone" })
    expect((await api("GET", `/boards/${board.id}/settings`, t.viewer.token)).body).toEqual(settings.body)
    expect((await api("GET", `/boards/${board.id}/permissions`, t.viewer.token)).body).toEqual({
      see: true,
      post: false,
      vote: true,
      comment: true,
      team: false,
      admin: false
    })
    expect((await api("GET", `/boards/${board.id}/permissions`, t.owner.token)).body).toMatchObject({ post: true, team: true, admin: true })
    expect((await api("POST", `/boards/${board.id}/feature-requests`, t.viewer.token, { title: "x" })).status).toBe(403)

    const archived = await api("POST", `/boards/${board.id}/archive`, t.owner.token)
    expect(archived.body).toMatchObject({ archived: true, archivedAt: expect.any(String) })
    expect((await api("POST", `/boards/${board.id}/archive`, t.owner.token)).status).toBe(409)
    expect((await api("POST", `/boards/${board.id}/feature-requests`, t.owner.token, { title: "x" })).status).toBe(409)
    const listed = await atrium.request("GET", `/feedback/v1/boards?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(listed.body.items.map((b: any) => b.id)).not.toContain(board.id)
    const withArchived = await atrium.request("GET", `/feedback/v1/boards?workspaceId=${t.workspaceId}&includeArchived=true`, {
      token: t.viewer.token
    })
    expect(withArchived.body.items.map((b: any) => b.id)).toContain(board.id)
    expect((await api("POST", `/boards/${board.id}/restore`, t.owner.token)).body.archived).toBe(false)

    const category = await api("POST", `/boards/${board.id}/categories`, t.owner.token, { name: "Integrations" })
    const copy = await api("POST", `/boards/${board.id}/duplicate`, t.owner.token, { name: "Copy", slug: freshSlug("copy") })
    expect(copy.status, copy.text).toBe(201)
    expect(copy.body).toMatchObject({ name: "Copy", visibility: "members", settings: settings.body })
    const copiedCategories = await api("GET", `/boards/${copy.body.id}/categories`, t.owner.token)
    expect(copiedCategories.body.items.map((c: any) => c.name)).toEqual(["Integrations"])
    expect(copiedCategories.body.items[0].id).not.toBe(category.body.id)
    expect((await api("DELETE", `/boards/${copy.body.id}`, t.member.token)).status).toBe(403)
    expect((await api("DELETE", `/boards/${copy.body.id}`, t.owner.token)).status).toBe(204)
    expect((await api("GET", `/boards/${copy.body.id}`, t.owner.token)).status).toBe(404)
  })

  it("board members and admins; subscriptions", async () => {
    const board = await createBoard(atrium, t, { visibility: "private" })
    const api = (method: string, path: string, token: string, body?: unknown) =>
      atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
    expect((await api("GET", `/boards/${board.id}`, t.member.token)).status).toBe(404)
    const added = await api("POST", `/boards/${board.id}/members`, t.owner.token, { userId: t.member.userId, role: "member" })
    expect(added.status, added.text).toBe(201)
    expect(added.body).toMatchObject({ userId: t.member.userId, name: "Member", role: "member" })
    expect((await api("GET", `/boards/${board.id}`, t.member.token)).status).toBe(200)
    expect((await api("PATCH", `/boards/${board.id}/settings`, t.member.token, { moderation: true })).status).toBe(403)
    expect((await api("PATCH", `/boards/${board.id}/members/${t.member.userId}`, t.owner.token, { role: "admin" })).body.role).toBe("admin")
    expect((await api("PATCH", `/boards/${board.id}/settings`, t.member.token, { moderation: true })).status).toBe(200)
    expect((await api("POST", `/boards/${board.id}/members`, t.owner.token, { userId: t.outsider.userId, role: "member" })).status).toBe(
      400
    )
    expect((await api("GET", `/boards/${board.id}/members`, t.member.token)).body.items.map((m: any) => m.userId)).toEqual([
      t.member.userId
    ])
    expect((await api("DELETE", `/boards/${board.id}/members/${t.member.userId}`, t.owner.token)).status).toBe(204)
    expect((await api("GET", `/boards/${board.id}`, t.member.token)).status).toBe(404)
    expect((await api("DELETE", `/boards/${board.id}/members/${t.member.userId}`, t.owner.token)).status).toBe(404)

    expect((await api("GET", `/boards/${board.id}/subscription`, t.owner.token)).body).toEqual({ subscribed: false })
    expect((await api("PUT", `/boards/${board.id}/subscription`, t.owner.token)).body).toEqual({ subscribed: true })
    expect((await api("GET", `/boards/${board.id}/subscription`, t.owner.token)).body).toEqual({ subscribed: true })
    expect((await api("DELETE", `/boards/${board.id}/subscription`, t.owner.token)).body).toEqual({ subscribed: false })
  })

  it("options: create, rename, reorder, default status, delete with a replacement", async () => {
    const board = await createBoard(atrium, t)
    const api = (method: string, path: string, token: string, body?: unknown) =>
      atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
    for (const [segment, defaults] of [
      ["categories", []],
      ["product-areas", []],
      ["bug-status-levels", ["New", "Confirmed", "Fixing", "Fixed", "Won't fix"]],
      ["severity-levels", ["Low", "Medium", "High", "Critical"]]
    ] as const) {
      expect((await api("GET", `/boards/${board.id}/${segment}`, t.viewer.token)).body.items.map((o: any) => o.name)).toEqual(defaults)
      const first = await api("POST", `/boards/${board.id}/${segment}`, t.owner.token, { name: "First", color: "#112233" })
      expect(first.status, first.text).toBe(201)
      const top = await api("POST", `/boards/${board.id}/${segment}`, t.owner.token, { name: "Top", position: 0 })
      expect(top.body.position).toBe(0)
      expect((await api("POST", `/boards/${board.id}/${segment}`, t.owner.token, { name: "first" })).status).toBe(409)
      expect((await api("POST", `/boards/${board.id}/${segment}`, t.member.token, { name: "Nope" })).status).toBe(403)
      const renamed = await api("PATCH", `/${segment}/${first.body.id}`, t.owner.token, { name: "Renamed", position: 0 })
      expect(renamed.body).toMatchObject({ name: "Renamed", color: "#112233", position: 0 })
      const names = (await api("GET", `/boards/${board.id}/${segment}`, t.viewer.token)).body.items.map((o: any) => o.name)
      expect(names.slice(0, 2)).toEqual(["Renamed", "Top"])
      expect((await api("DELETE", `/${segment}/${top.body.id}`, t.owner.token)).status).toBe(204)
      expect((await api("PATCH", `/${segment}/${top.body.id}`, t.owner.token, { name: "Gone" })).status).toBe(404)
    }
    const statuses = (await api("GET", `/boards/${board.id}/statuses`, t.viewer.token)).body.items
    expect(statuses.map((s: any) => [s.name, s.type, s.isDefault])).toEqual([
      ["Open", "open", true],
      ["Under review", "under_review", false],
      ["Planned", "planned", false],
      ["In progress", "in_progress", false],
      ["Shipped", "shipped", false],
      ["Declined", "declined", false]
    ])
    const beta = await api("POST", `/boards/${board.id}/statuses`, t.owner.token, { name: "Beta", type: "in_progress", isDefault: true })
    expect(beta.body).toMatchObject({ type: "in_progress", isDefault: true })
    const request = await createRequest(atrium, t.owner.token, board.id)
    expect(request.status.name).toBe("Beta")
    const order = [beta.body.id, ...statuses.map((s: any) => s.id)].reverse()
    const reordered = await api("PUT", `/boards/${board.id}/statuses/order`, t.owner.token, { ids: order })
    expect(reordered.body.items.map((s: any) => s.id)).toEqual(order)
    const incomplete = await api("PUT", `/boards/${board.id}/statuses/order`, t.owner.token, { ids: order.slice(1) })
    expect(incomplete.status).toBe(400)
    expect(incomplete.body.error.details[0].path).toBe("body.ids")
    const planned = statuses.find((s: any) => s.type === "planned")
    expect((await api("DELETE", `/statuses/${beta.body.id}?replacementId=${planned.id}`, t.owner.token)).status).toBe(204)
    expect((await api("GET", `/feature-requests/${request.id}`, t.owner.token)).body.status.name).toBe("Planned")
    const after = (await api("GET", `/boards/${board.id}/statuses`, t.owner.token)).body.items
    expect(after.filter((s: any) => s.isDefault)).toHaveLength(1)
  })

  it("lists, searches, finds similar requests, my contributions, activity, top voters, export and Lite discovery", async () => {
    const board = await createBoard(atrium, t, { name: "Search" })
    const api = (method: string, path: string, token: string, body?: unknown) =>
      atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
    const dark = await createRequest(atrium, t.viewer.token, board.id, {
      title: "Dark mode for the editor",
      description: "=Night owls unite"
    })
    const csv = await createRequest(atrium, t.member.token, board.id, {
      title: "Export reports to CSV",
      description: "Spreadsheet friendly"
    })
    await createRequest(atrium, t.member.token, board.id, { title: "Keyboard shortcuts" })
    await api("POST", `/feature-requests/${csv.id}/votes`, t.viewer.token)
    await api("POST", `/feature-requests/${csv.id}/votes`, t.member.token, undefined)
    await api("POST", `/feature-requests/${csv.id}/comments`, t.admin.token, { body: "Which columns?" })

    const search = await api("GET", `/boards/${board.id}/search?q=${encodeURIComponent("night editor")}`, t.viewer.token)
    expect(search.body.items.map((r: any) => r.id)).toEqual([dark.id])
    const spreadsheet = await api("GET", `/boards/${board.id}/search?q=spreadsheet`, t.viewer.token)
    expect(spreadsheet.body.items.map((r: any) => r.id)).toEqual([csv.id])
    const similar = await api("GET", `/boards/${board.id}/similar?title=${encodeURIComponent("export")}`, t.viewer.token)
    expect(similar.body.items[0].id).toBe(csv.id)
    expect((await api("GET", `/boards/${board.id}/search?q=%20`, t.viewer.token)).status).toBe(400)

    const mine = await api("GET", `/boards/${board.id}/my-contributions`, t.viewer.token)
    expect(mine.body.items.map((c: any) => [c.featureRequest.id, c.posted, c.voted, c.commented])).toEqual([
      [csv.id, false, true, false],
      [dark.id, true, false, false]
    ])
    const filtered = await api("GET", `/boards/${board.id}/feature-requests?authorId=${t.member.userId}&sort=old`, t.viewer.token)
    expect(filtered.body.items.map((r: any) => r.title)).toEqual(["Export reports to CSV", "Keyboard shortcuts"])
    const activity = await api("GET", `/boards/${board.id}/activity?limit=2`, t.member.token)
    expect(activity.body.items.map((e: any) => e.type)).toEqual(["comment.created", "request.voted"])
    const older = await api("GET", `/boards/${board.id}/activity?beforeSeq=${activity.body.items[1].seq}&limit=1`, t.member.token)
    expect(older.body.items[0].type).toBe("request.voted")
    const voters = await api("GET", `/boards/${board.id}/top-voters`, t.member.token)
    expect(voters.body.items.map((v: any) => v.votes)).toEqual([1, 1])

    const json = await api("GET", `/boards/${board.id}/export?format=json`, t.owner.token)
    expect(json.headers.get("content-disposition")).toContain(".json")
    expect(json.body.requests.map((r: any) => r.shortId)).toEqual(["FR-1", "FR-2", "FR-3"])
    const table = await api("GET", `/boards/${board.id}/export?format=csv`, t.owner.token)
    expect(table.headers.get("content-type")).toContain("text/csv")
    expect(table.text.split("\r\n")[0]).toBe(
      "shortId,title,status,category,productArea,votes,comments,author,mergedInto,createdAt,description"
    )
    expect(table.text).toContain("'=Night owls unite")
    expect((await api("GET", `/boards/${board.id}/export`, t.member.token)).status).toBe(403)

    const lite = await atrium.request("GET", `/feedback/v1/lite/boards?workspaceId=${t.workspaceId}&slug=${board.slug}`, {
      token: t.viewer.token
    })
    expect(lite.body.items).toEqual([
      expect.objectContaining({
        slug: board.slug,
        name: "Search",
        requestCount: 3,
        statuses: ["Open", "Under review", "Planned", "In progress", "Shipped", "Declined"],
        id: board.id
      })
    ])
    const unknown = await atrium.request("GET", `/feedback/v1/lite/boards?workspaceId=${t.workspaceId}&slug=no-such-board`, {
      token: t.viewer.token
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.details[0].path).toBe("query.slug")
    const all = await atrium.request("GET", `/feedback/v1/lite/boards?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(all.body.items.length).toBeGreaterThan(1)
  })

  it("edits and deletes requests: author or admin", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.viewer.token, board.id, { title: "Mine" })
    const api = (method: string, path: string, token: string, body?: unknown) =>
      atrium.request(method, `/feedback/v1${path}`, { token, ...(body !== undefined ? { body } : {}) })
    expect((await api("PATCH", `/feature-requests/${request.id}`, t.member.token, { title: "Theirs" })).status).toBe(403)
    const category = await api("POST", `/boards/${board.id}/categories`, t.owner.token, { name: "UI" })
    const edited = await api("PATCH", `/feature-requests/${request.id}`, t.viewer.token, {
      title: "Mine, edited",
      content: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "Now as JSON" }] }] },
      categoryId: category.body.id
    })
    expect(edited.status, edited.text).toBe(200)
    expect(edited.body).toMatchObject({ title: "Mine, edited", description: "Now as JSON", category: { id: category.body.id, name: "UI" } })
    const foreign = await api("PATCH", `/feature-requests/${request.id}`, t.viewer.token, {
      categoryId: "00000000-0000-4000-8000-000000000000"
    })
    expect(foreign.status).toBe(400)
    expect(foreign.body.error.details[0].path).toBe("body.categoryId")
    expect((await api("DELETE", `/categories/${category.body.id}`, t.owner.token)).status).toBe(204)
    expect((await api("GET", `/feature-requests/${request.id}`, t.viewer.token)).body.category).toBeNull()
    expect((await api("DELETE", `/feature-requests/${request.id}`, t.member.token)).status).toBe(403)
    expect((await api("DELETE", `/feature-requests/${request.id}`, t.viewer.token)).status).toBe(204)
    expect((await api("GET", `/feature-requests/${request.id}`, t.viewer.token)).status).toBe(404)
  })
})
