/**
 * The workspace side of wiki discovery: favorites, the home screen, wiki and
 * user settings, the users picker, the real-time collaboration descriptors
 * and the dashboard — each only counting what the caller may read.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { recordPageView } from "../../../actors/wiki/PageActivity.ts"
import { connectEditor, synced } from "../../support/collabAtrium.ts"
import { addMember, createPage, createSpace, createWorkspace, type DiscoveryAtrium, eventually, signUp, type TestUser } from "./harness.ts"

/** Registers the cases; `current` is the Atrium they run against (started by discovery.test.ts). */
export const workspaceCases = (current: () => DiscoveryAtrium) => {
  let atrium: DiscoveryAtrium
  beforeAll(() => {
    atrium = current()
  })

  interface World {
    owner: TestUser
    member: TestUser
    viewer: TestUser
    workspaceId: string
    eng: { id: string; key: string }
    hr: { id: string; key: string }
    a: { id: string; slug: string }
    b: { id: string; slug: string }
    hidden: { id: string; slug: string }
  }

  const world = async (): Promise<World> => {
    const owner = await signUp(atrium, "Owner")
    const member = await signUp(atrium, "Member Bob")
    const viewer = await signUp(atrium, "Viewer")
    const workspaceId = await createWorkspace(atrium, owner)
    await addMember(atrium, owner, workspaceId, member, "member")
    await addMember(atrium, owner, workspaceId, viewer, "viewer")
    const eng = await createSpace(atrium, owner, workspaceId, { name: "Engineering", key: "ENG" })
    const hr = await createSpace(atrium, owner, workspaceId, { name: "People", key: "HR", visibility: "restricted" })
    const a = await createPage(atrium, owner, eng.id, { title: "Architecture", markdown: "Services and queues." })
    const b = await createPage(atrium, member, eng.id, { title: "Backlog", markdown: "Things to do." })
    const hidden = await createPage(atrium, owner, hr.id, { title: "Hiring plan", markdown: "Two engineers." })
    return { owner, member, viewer, workspaceId, eng, hr, a, b, hidden }
  }

  const get = (path: string, token: string) => atrium.request("GET", path, { token })

  describe("favorites", () => {
    it("pins readable pages, lists them newest first, unpins", async () => {
      const w = await world()
      const pin = (pageId: string, token = w.member.token) => atrium.request("POST", "/wiki/v1/favorites", { token, body: { pageId } })
      const pinned = await pin(w.a.id)
      expect(pinned.status, pinned.text).toBe(201)
      expect(pinned.body).toMatchObject({ pageId: w.a.id, title: "Architecture", spaceKey: "ENG", spaceName: "Engineering" })
      expect((await pin(w.b.id)).status).toBe(201)
      expect((await pin(w.a.id)).status).toBe(409)
      const hidden = await pin(w.hidden.id)
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.details[0].path).toBe("body.pageId")
      const list = await get(`/wiki/v1/favorites?workspaceId=${w.workspaceId}`, w.member.token)
      expect(list.body.items.map((f: { pageId: string }) => f.pageId)).toEqual([w.b.id, w.a.id])
      // Favorites are the caller's own.
      expect((await get(`/wiki/v1/favorites?workspaceId=${w.workspaceId}`, w.viewer.token)).body.items).toEqual([])
      // An archived page drops out of the list (and cannot be pinned).
      await atrium.request("POST", `/wiki/v1/pages/${w.b.id}/archive`, { token: w.owner.token })
      expect(
        (await get(`/wiki/v1/favorites?workspaceId=${w.workspaceId}`, w.member.token)).body.items.map((f: { pageId: string }) => f.pageId)
      ).toEqual([w.a.id])
      expect((await pin(w.b.id, w.owner.token)).status).toBe(409)
      expect((await atrium.request("DELETE", `/wiki/v1/favorites/${w.a.id}`, { token: w.member.token })).status).toBe(204)
      expect((await atrium.request("DELETE", `/wiki/v1/favorites/${w.a.id}`, { token: w.member.token })).status).toBe(404)
      expect((await get(`/wiki/v1/favorites?workspaceId=${w.workspaceId}`, w.member.token)).body.items).toEqual([])
    })
  })

  describe("home screen", () => {
    it("summarizes spaces, favorites, recent views, edits and updates the caller may see", async () => {
      const w = await world()
      await atrium.request("POST", "/wiki/v1/favorites", { token: w.member.token, body: { pageId: w.a.id } })
      await atrium.run(recordPageView(w.a.id, w.member.userId))
      await atrium.run(recordPageView(w.hidden.id, w.member.userId))
      await atrium.request("PATCH", `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings`, {
        token: w.owner.token,
        body: { defaultHomeSpaceId: w.eng.id }
      })
      // The member's own page creation is an edit (counted after the indexer ran).
      await eventually(async () => {
        const rows = await atrium.sql("SELECT 1 FROM wiki_page_edits WHERE page_id = $1 AND user_id = $2", [w.b.id, w.member.userId])
        return rows.length > 0 ? true : undefined
      }, "edit recorded")
      const home = await get(`/wiki/v1/home?workspaceId=${w.workspaceId}`, w.member.token)
      expect(home.status, home.text).toBe(200)
      expect(home.body.homeSpace).toMatchObject({ id: w.eng.id, key: "ENG", pageCount: 2 })
      expect(home.body.spaces.map((s: { key: string }) => s.key)).toEqual(["ENG"])
      expect(home.body.favorites.map((f: { pageId: string }) => f.pageId)).toEqual([w.a.id])
      expect(home.body.recentlyViewed.map((v: { pageId: string }) => v.pageId)).toEqual([w.a.id])
      expect(home.body.recentlyEdited.map((v: { pageId: string }) => v.pageId)).toEqual([w.b.id])
      expect(home.body.recentlyUpdated.map((v: { pageId: string }) => v.pageId).sort()).toEqual([w.a.id, w.b.id].sort())
      expect(home.body.recentlyUpdated.find((v: { pageId: string }) => v.pageId === w.b.id).updatedBy).toEqual({
        userId: w.member.userId,
        name: "Member Bob"
      })
      expect(home.body.totals).toEqual({ spaces: 1, pages: 2 })
      const ownerHome = await get(`/wiki/v1/home?workspaceId=${w.workspaceId}`, w.owner.token)
      expect(ownerHome.body.totals).toEqual({ spaces: 2, pages: 3 })
      expect((await get(`/wiki/v1/home?workspaceId=${w.workspaceId}`, (await signUp(atrium, "Stranger")).token)).status).toBe(404)
    })
  })

  describe("wiki settings", () => {
    it("members read, admins change, every change is recorded, and the switches take effect", async () => {
      const w = await world()
      const path = `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings`
      const defaults = await get(path, w.viewer.token)
      expect(defaults.body).toEqual({
        workspaceId: w.workspaceId,
        allowPublicWikis: true,
        allowExports: true,
        allowImports: true,
        trackPageViews: true,
        defaultHomeSpaceId: null,
        updatedBy: null,
        updatedAt: null
      })
      expect((await atrium.request("PATCH", path, { token: w.member.token, body: { allowExports: false } })).status).toBe(403)
      const badSpace = await atrium.request("PATCH", path, {
        token: w.owner.token,
        body: { defaultHomeSpaceId: "00000000-0000-4000-8000-000000000000" }
      })
      expect(badSpace.status).toBe(400)
      expect(badSpace.body.error.details[0].path).toBe("body.defaultHomeSpaceId")
      const changed = await atrium.request("PATCH", path, {
        token: w.owner.token,
        body: { trackPageViews: false, allowPublicWikis: false }
      })
      expect(changed.body).toMatchObject({ trackPageViews: false, allowPublicWikis: false, updatedBy: w.owner.userId })
      // Page views are no longer recorded; public wikis cannot be published.
      await atrium.run(recordPageView(w.a.id, w.member.userId))
      expect(await atrium.sql("SELECT 1 FROM wiki_page_views WHERE page_id = $1", [w.a.id])).toEqual([])
      expect((await atrium.request("POST", `/wiki/v1/spaces/${w.eng.id}/public-wiki/publish`, { token: w.owner.token })).status).toBe(403)
      const branding = await atrium.request("PATCH", `${path}/branding`, {
        token: w.owner.token,
        body: { siteName: "Acme KB", accentColor: "#112233" }
      })
      expect(branding.status, branding.text).toBe(200)
      expect(branding.body).toEqual({ siteName: "Acme KB", logoUrl: null, accentColor: "#112233" })
      expect((await atrium.request("PATCH", `${path}/branding`, { token: w.owner.token, body: { accentColor: "blue" } })).status).toBe(400)
      expect((await get(`${path}/branding`, w.viewer.token)).body).toEqual(branding.body)
      const reset = await atrium.request("DELETE", path, { token: w.owner.token })
      expect(reset.body).toMatchObject({ trackPageViews: true, allowPublicWikis: true })
      expect((await get(`${path}/branding`, w.viewer.token)).body.siteName).toBe("Acme KB")
      const changes = await get(`${path}/changes`, w.owner.token)
      expect(changes.status, changes.text).toBe(200)
      expect(changes.body.items.map((c: { changes: Record<string, unknown> }) => Object.keys(c.changes).sort())).toEqual([
        ["allowPublicWikis", "trackPageViews"],
        ["accentColor", "siteName"],
        ["allowPublicWikis", "trackPageViews"]
      ])
      expect(changes.body.items[2]).toMatchObject({
        changedBy: { userId: w.owner.userId, name: "Owner" },
        changes: { trackPageViews: { from: true, to: false } }
      })
      expect((await get(`${path}/changes`, w.member.token)).status).toBe(403)
    })

    it("keeps each user's own preferences", async () => {
      const w = await world()
      const initial = await get("/wiki/v1/user-settings", w.member.token)
      expect(initial.body).toEqual({
        theme: "system",
        fullWidth: false,
        spellcheck: true,
        defaultEditMode: "edit",
        saveSearchHistory: true,
        updatedAt: null
      })
      const changed = await atrium.request("PATCH", "/wiki/v1/user-settings", {
        token: w.member.token,
        body: { theme: "dark", fullWidth: true }
      })
      expect(changed.body).toMatchObject({ theme: "dark", fullWidth: true, spellcheck: true })
      expect((await get("/wiki/v1/user-settings", w.member.token)).body.theme).toBe("dark")
      expect((await get("/wiki/v1/user-settings", w.viewer.token)).body.theme).toBe("system")
      const bad = await atrium.request("PATCH", "/wiki/v1/user-settings", { token: w.member.token, body: { theme: "neon" } })
      expect(bad.status).toBe(400)
      expect(bad.body.error.details[0].path).toBe("body.theme")
    })
  })

  describe("users", () => {
    it("lists and searches workspace members for mentions", async () => {
      const w = await world()
      const all = await get(`/wiki/v1/users?workspaceId=${w.workspaceId}`, w.viewer.token)
      expect(all.status, all.text).toBe(200)
      expect(all.body.items.map((u: { name: string }) => u.name)).toEqual(["Member Bob", "Owner", "Viewer"])
      const bob = await get(`/wiki/v1/users?workspaceId=${w.workspaceId}&q=bo`, w.viewer.token)
      expect(bob.body.items).toEqual([{ userId: w.member.userId, name: "Member Bob", email: w.member.email, role: "member" }])
      const byEmail = await get(
        `/wiki/v1/users?workspaceId=${w.workspaceId}&q=${encodeURIComponent(w.owner.email.slice(0, 6))}`,
        w.viewer.token
      )
      expect(byEmail.body.items.map((u: { userId: string }) => u.userId)).toContain(w.owner.userId)
      expect((await get(`/wiki/v1/users?workspaceId=${w.workspaceId}`, (await signUp(atrium, "Stranger")).token)).status).toBe(404)
    })
  })

  describe("real-time collaboration", () => {
    it("describes how to connect, and who is editing a page now", async () => {
      const w = await world()
      const info = await get(`/wiki/v1/collab?pageId=${w.a.id}`, w.viewer.token)
      expect(info.status, info.text).toBe(200)
      expect(info.body).toMatchObject({
        protocol: "hocuspocus",
        url: atrium.collabUrl,
        fragment: "default",
        page: { pageId: w.a.id, right: "read" }
      })
      expect(info.body.limits.maxMessageBytes).toEqual(expect.any(Number))
      expect((await get(`/wiki/v1/collab?pageId=${w.hidden.id}`, w.member.token)).body.page.right).toBe("none")
      expect((await get("/wiki/v1/collab", w.member.token)).body.page).toBeNull()
      const empty = await get(`/wiki/v1/collab/pages/${w.a.id}`, w.member.token)
      expect(empty.body).toMatchObject({ pageId: w.a.id, documentName: w.a.id, right: "edit", editors: [], active: false })
      const editor = connectEditor(atrium.collabUrl, w.a.id, w.member.token)
      try {
        await synced(editor)
        const session = await eventually(async () => {
          const response = await get(`/wiki/v1/collab/pages/${w.a.id}`, w.viewer.token)
          return response.body.active ? response : undefined
        }, "editor listed")
        expect(session.body.editors).toEqual([{ userId: w.member.userId, name: "Member Bob", since: expect.any(String) }])
        expect(session.body.right).toBe("read")
      } finally {
        editor.destroy()
      }
      expect((await get(`/wiki/v1/collab/pages/${w.hidden.id}`, w.member.token)).status).toBe(404)
    })
  })

  describe("dashboard", () => {
    it("reports views, edits, editors, top pages, spaces, growth and stale pages of what the caller may read", async () => {
      const w = await world()
      for (const [pageId, userId] of [
        [w.a.id, w.member.userId],
        [w.a.id, w.viewer.userId],
        [w.b.id, w.member.userId],
        [w.hidden.id, w.owner.userId]
      ] as const) {
        await atrium.run(recordPageView(pageId, userId))
      }
      await eventually(async () => {
        const rows = await atrium.sql("SELECT DISTINCT page_id FROM wiki_page_edits WHERE workspace_id = $1", [w.workspaceId])
        return rows.length === 3 ? true : undefined
      }, "edits recorded")
      const q = `workspaceId=${w.workspaceId}`
      const summary = await get(`/wiki/v1/dashboard?${q}`, w.member.token)
      expect(summary.status, summary.text).toBe(200)
      expect(summary.body).toMatchObject({
        spaces: 1,
        pages: 2,
        pagesCreated: 2,
        views: 3,
        publicViews: 0,
        uniqueViewers: 2,
        activeEditors: 2
      })
      expect(summary.body.edits).toBeGreaterThanOrEqual(2)
      const ownerSummary = await get(`/wiki/v1/dashboard?${q}`, w.owner.token)
      expect(ownerSummary.body).toMatchObject({ spaces: 2, pages: 3, views: 4 })
      const views = await get(`/wiki/v1/dashboard/views?${q}&interval=week`, w.member.token)
      expect(views.body.range.interval).toBe("week")
      expect(views.body.points.reduce((sum: number, p: { views: number }) => sum + p.views, 0)).toBe(3)
      expect(views.body.points.length).toBeGreaterThanOrEqual(5)
      expect(views.body.points.every((p: { date: string }) => /^\d{4}-\d{2}-\d{2}$/.test(p.date))).toBe(true)
      const publicOnly = await get(`/wiki/v1/dashboard/views?${q}&source=public`, w.member.token)
      expect(publicOnly.body.points.reduce((sum: number, p: { views: number }) => sum + p.views, 0)).toBe(0)
      const edits = await get(`/wiki/v1/dashboard/edits?${q}`, w.member.token)
      // 30 days back from now: a bucket per day, the first and the last partial.
      expect(edits.body.points.length).toBeGreaterThanOrEqual(30)
      expect(edits.body.points.reduce((sum: number, p: { pagesEdited: number }) => sum + p.pagesEdited, 0)).toBe(2)
      const editors = await get(`/wiki/v1/dashboard/editors?${q}`, w.member.token)
      expect(editors.body.items.map((e: { userId: string }) => e.userId).sort()).toEqual([w.owner.userId, w.member.userId].sort())
      expect(editors.body.items[0]).toMatchObject({ pagesEdited: 1, name: expect.any(String) })
      const top = await get(`/wiki/v1/dashboard/top-pages?${q}`, w.member.token)
      expect(top.body.items.map((p: { pageId: string; views: number }) => [p.pageId, p.views])).toEqual([
        [w.a.id, 2],
        [w.b.id, 1]
      ])
      const topEdited = await get(`/wiki/v1/dashboard/top-pages?${q}&metric=edits&spaceId=${w.eng.id}`, w.member.token)
      expect(topEdited.body.metric).toBe("edits")
      expect(topEdited.body.items.map((p: { pageId: string }) => p.pageId).sort()).toEqual([w.a.id, w.b.id].sort())
      const spaces = await get(`/wiki/v1/dashboard/spaces?${q}`, w.owner.token)
      expect(spaces.body.items.map((s: { key: string; pages: number; views: number }) => [s.key, s.pages, s.views])).toEqual([
        ["ENG", 2, 3],
        ["HR", 1, 1]
      ])
      const growth = await get(`/wiki/v1/dashboard/growth?${q}&interval=month&from=2026-01-01T00:00:00Z`, w.member.token)
      expect(growth.status, growth.text).toBe(200)
      expect(growth.body.points.at(-1).total).toBe(2)
      expect(growth.body.points.reduce((sum: number, p: { created: number }) => sum + p.created, 0)).toBe(2)
      // Nothing is stale yet; with a zero-day threshold everything is.
      expect((await get(`/wiki/v1/dashboard/stale-pages?${q}`, w.member.token)).body.items).toEqual([])
      const stale = await get(`/wiki/v1/dashboard/stale-pages?${q}&olderThanDays=0`, w.member.token)
      expect(stale.body.items.map((p: { pageId: string }) => p.pageId).sort()).toEqual([w.a.id, w.b.id].sort())
      expect(stale.body.items[0]).toMatchObject({ daysSinceUpdate: 0, updatedBy: { name: expect.any(String) } })
      // Bad ranges and hidden spaces.
      const reversed = await get(`/wiki/v1/dashboard?${q}&from=2026-12-01&to=2026-11-01`, w.member.token)
      expect(reversed.status).toBe(400)
      expect(reversed.body.error.details[0].path).toBe("query.from")
      expect((await get(`/wiki/v1/dashboard/views?${q}&from=2000-01-01`, w.member.token)).status).toBe(400)
      expect((await get(`/wiki/v1/dashboard?${q}&spaceId=${w.hr.id}`, w.member.token)).status).toBe(404)
      expect((await get(`/wiki/v1/dashboard?${q}`, (await signUp(atrium, "Stranger")).token)).status).toBe(404)
    })
  })
}
