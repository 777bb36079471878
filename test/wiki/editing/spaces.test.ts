import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { apiKey, createPage, createSpace, freshKey, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

describe("Wiki Spaces", () => {
  it("creates a space: the key is stored upper case, the creator is its admin, members edit, viewers read", async () => {
    const key = freshKey("eng")
    const created = await atrium.request("POST", "/wiki/v1/spaces", {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, name: "Engineering", key, description: "How we build", icon: "🛠️" }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      key: key.toUpperCase(),
      name: "Engineering",
      description: "How we build",
      icon: "🛠️",
      visibility: "workspace",
      role: "admin",
      pageCount: 0,
      archivedAt: null,
      isPublic: false,
      homePageId: null
    })
    const id = created.body.id
    expect((await atrium.request("GET", `/wiki/v1/spaces/${id}`, { token: t.viewer.token })).body.role).toBe("viewer")
    expect((await atrium.request("GET", `/wiki/v1/spaces/${id}`, { token: t.admin.token })).body.role).toBe("admin")
    expect((await atrium.request("GET", `/wiki/v1/spaces/${id}`, { token: t.outsider.token })).status).toBe(404)
    // Same key (any case) again: conflict naming the field.
    const clash = await atrium.request("POST", "/wiki/v1/spaces", {
      token: t.owner.token,
      body: { workspaceId: t.workspaceId, name: "Other", key: key.toLowerCase() }
    })
    expect(clash.status).toBe(409)
    expect(clash.body.error.details[0].path).toBe("body.key")
  })

  it("makes a free key from the name when none is given", async () => {
    const first = await atrium.request("POST", "/wiki/v1/spaces", {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, name: "Quality Assurance Notes" }
    })
    expect(first.status, first.text).toBe(201)
    expect(first.body.key).toMatch(/^QAN\d*$/)
    const second = await atrium.request("POST", "/wiki/v1/spaces", {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, name: "Quality Assurance Notes" }
    })
    expect(second.body.key).not.toBe(first.body.key)
    expect(second.body.key).toMatch(/^QAN\d+$/)
  })

  it("refuses viewers, outsiders and bad input on create", async () => {
    const body = { workspaceId: t.workspaceId, name: "X", key: freshKey() }
    expect((await atrium.request("POST", "/wiki/v1/spaces", { token: t.viewer.token, body })).status).toBe(403)
    expect((await atrium.request("POST", "/wiki/v1/spaces", { token: t.outsider.token, body })).status).toBe(404)
    const bad = await atrium.request("POST", "/wiki/v1/spaces", { token: t.owner.token, body: { ...body, key: "1-bad key" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.key")
    const blank = await atrium.request("POST", "/wiki/v1/spaces", { token: t.owner.token, body: { ...body, name: "   " } })
    expect(blank.status).toBe(400)
    expect(blank.body.error.details[0].path).toBe("body.name")
  })

  it("lists visible spaces (restricted ones only for listed users and workspace admins), by status", async () => {
    const open = await createSpace(atrium, t.owner.token, t.workspaceId, { name: "Open" })
    const secret = await createSpace(atrium, t.owner.token, t.workspaceId, { name: "Secret", visibility: "restricted" })
    const ids = async (token: string, status?: string) =>
      (
        await atrium.request("GET", `/wiki/v1/spaces?workspaceId=${t.workspaceId}${status ? `&status=${status}` : ""}`, { token })
      ).body.items.map((s: { id: string }) => s.id)
    expect(await ids(t.member.token)).toContain(open.id)
    expect(await ids(t.member.token)).not.toContain(secret.id)
    expect(await ids(t.admin.token)).toContain(secret.id)
    expect((await atrium.request("GET", `/wiki/v1/spaces/${secret.id}`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/spaces?workspaceId=${t.workspaceId}`, { token: t.outsider.token })).status).toBe(404)
    // Archived spaces leave the default list.
    expect((await atrium.request("POST", `/wiki/v1/spaces/${open.id}/archive`, { token: t.owner.token })).status).toBe(200)
    expect(await ids(t.member.token)).not.toContain(open.id)
    expect(await ids(t.member.token, "archived")).toContain(open.id)
    expect(await ids(t.member.token, "all")).toContain(open.id)
    expect(
      (await atrium.request("GET", `/wiki/v1/spaces?workspaceId=${t.workspaceId}&status=gone`, { token: t.member.token })).status
    ).toBe(400)
  })

  it("updates (space admin only), archives and restores; archived spaces refuse changes", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    expect((await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, { token: t.member.token, body: { name: "Mine" } })).status).toBe(
      403
    )
    const newKey = freshKey("nk")
    const updated = await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, {
      token: t.admin.token,
      body: { name: "Platform", key: newKey, icon: null, description: "d" }
    })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ name: "Platform", key: newKey.toUpperCase(), icon: null, description: "d" })
    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/archive`, { token: t.member.token })).status).toBe(403)
    const archived = await atrium.request("POST", `/wiki/v1/spaces/${space.id}/archive`, { token: t.owner.token })
    expect(archived.body.archivedAt).toEqual(expect.any(String))
    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/archive`, { token: t.owner.token })).status).toBe(409)
    expect((await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, { token: t.owner.token, body: { name: "Nope" } })).status).toBe(
      409
    )
    expect(
      (await atrium.request("POST", `/wiki/v1/spaces/${space.id}/pages`, { token: t.owner.token, body: { title: "Nope" } })).status
    ).toBe(409)
    const restored = await atrium.request("POST", `/wiki/v1/spaces/${space.id}/restore`, { token: t.owner.token })
    expect(restored.status).toBe(200)
    expect(restored.body.archivedAt).toBeNull()
    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/restore`, { token: t.owner.token })).status).toBe(409)
  })

  it("checks key availability and suggests free keys", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const taken = await atrium.request(
      "GET",
      `/wiki/v1/spaces/key-availability?workspaceId=${t.workspaceId}&key=${space.key.toLowerCase()}`,
      { token: t.viewer.token }
    )
    expect(taken.status, taken.text).toBe(200)
    expect(taken.body.available).toBe(false)
    expect(taken.body.suggestion).not.toBe(space.key)
    const free = await atrium.request("GET", `/wiki/v1/spaces/key-availability?workspaceId=${t.workspaceId}&key=FREEKEY9`, {
      token: t.viewer.token
    })
    expect(free.body).toEqual({ key: "FREEKEY9", available: true, suggestion: "FREEKEY9" })
    const named = await atrium.request(
      "GET",
      `/wiki/v1/spaces/key-availability?workspaceId=${t.workspaceId}&name=${encodeURIComponent("Customer Success Team")}`,
      { token: t.viewer.token }
    )
    expect(named.body.suggestion).toMatch(/^CST\d*$/)
    const none = await atrium.request("GET", `/wiki/v1/spaces/key-availability?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(none.status).toBe(400)
    expect(
      (await atrium.request("GET", `/wiki/v1/spaces/key-availability?workspaceId=${t.workspaceId}&key=ABC`, { token: t.outsider.token }))
        .status
    ).toBe(404)
  })

  it("sets the home page; lists recent pages; the trash lists archived pages and empties for good", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const home = await createPage(atrium, t.member.token, space.id, { title: "Home" })
    const other = await createPage(atrium, t.member.token, space.id, { title: "Other" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Child", parentPageId: other.id })
    expect(
      (await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/home-page`, { token: t.member.token, body: { pageId: home.id } })).status
    ).toBe(403)
    const set = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/home-page`, { token: t.owner.token, body: { pageId: home.id } })
    expect(set.status, set.text).toBe(200)
    expect(set.body).toMatchObject({ homePageId: home.id, pageCount: 3 })
    const foreign = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/home-page`, {
      token: t.owner.token,
      body: { pageId: "00000000-0000-4000-8000-000000000000" }
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.details[0].path).toBe("body.pageId")

    const recent = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/recent?limit=2`, { token: t.viewer.token })
    expect(recent.status).toBe(200)
    expect(recent.body.items.map((p: { id: string }) => p.id)).toEqual([child.id, other.id])
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}/recent?limit=0`, { token: t.viewer.token })).status).toBe(400)

    expect((await atrium.request("POST", `/wiki/v1/pages/${other.id}/archive`, { token: t.member.token })).status).toBe(200)
    const trash = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/trash`, { token: t.viewer.token })
    expect(trash.body.items.map((p: { id: string }) => p.id)).toEqual([other.id])
    expect((await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}/trash`, { token: t.member.token })).status).toBe(403)
    const emptied = await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}/trash`, { token: t.admin.token })
    expect(emptied.status, emptied.text).toBe(200)
    expect(emptied.body.deletedPageIds.sort()).toEqual([other.id, child.id].sort())
    expect((await atrium.request("GET", `/wiki/v1/pages/${child.id}`, { token: t.owner.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}/trash`, { token: t.viewer.token })).body.items).toEqual([])
  })

  it("deletes a space with its pages (space admin only)", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Doomed", markdown: "# Bye" })
    expect((await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}`, { token: t.member.token })).status).toBe(403)
    expect((await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}`, { token: t.owner.token })).status).toBe(204)
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}`, { token: t.owner.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.owner.token })).status).toBe(404)
  })

  it("API keys: scopes gate reads and writes, other workspaces are invisible", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const reader = await apiKey(atrium, t.owner, t.workspaceId, ["wiki:read"])
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, { apiKey: reader, body: { name: "x" } })).status).toBe(403)
    const writer = await apiKey(atrium, t.owner, t.workspaceId, ["wiki:read", "wiki:write"])
    expect((await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, { apiKey: writer, body: { name: "By key" } })).body.name).toBe(
      "By key"
    )
    const elsewhere = await atrium.request("POST", "/pm/v1/workspaces", { token: t.owner.token, body: { name: "Elsewhere" } })
    const foreign = await createSpace(atrium, t.owner.token, elsewhere.body.id)
    expect((await atrium.request("GET", `/wiki/v1/spaces/${foreign.id}`, { apiKey: reader })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/spaces?workspaceId=${elsewhere.body.id}`, { apiKey: reader })).status).toBe(404)
  })
})
