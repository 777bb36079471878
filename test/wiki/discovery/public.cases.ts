/**
 * The public wiki: publishing a space (space admins only), reading it without
 * credentials (site, tree, pages, home, children, recent, search), sharing
 * single pages, resolving public paths, the sitemap, and the analytics the
 * public reads feed. Archived and view-restricted pages never leak.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { addMember, createPage, createSpace, createWorkspace, type DiscoveryAtrium, signUp, type TestUser } from "./harness.ts"

/** Registers the cases; `current` is the Atrium they run against (started by discovery.test.ts). */
export const publicWikiCases = (current: () => DiscoveryAtrium) => {
  let atrium: DiscoveryAtrium
  beforeAll(() => {
    atrium = current()
  })

  const get = (path: string, token?: string) => atrium.request("GET", path, token ? { token } : {})

  interface World {
    owner: TestUser
    member: TestUser
    viewer: TestUser
    workspaceId: string
    space: { id: string; key: string }
    home: { id: string; slug: string }
    child: { id: string; slug: string }
    secret: { id: string; slug: string }
    archived: { id: string; slug: string }
  }

  const world = async (key: string): Promise<World> => {
    const owner = await signUp(atrium, "Owner")
    const member = await signUp(atrium, "Member")
    const viewer = await signUp(atrium, "Viewer")
    const workspaceId = await createWorkspace(atrium, owner)
    await addMember(atrium, owner, workspaceId, member, "member")
    await addMember(atrium, owner, workspaceId, viewer, "viewer")
    const space = await createSpace(atrium, owner, workspaceId, { name: "Docs", key })
    const home = await createPage(atrium, owner, space.id, {
      title: "Getting started",
      markdown: "Install the **CLI**, then run `acme init`."
    })
    const child = await createPage(atrium, owner, space.id, {
      title: "Configuration",
      markdown: "Set ACME_TOKEN before you install.",
      parentPageId: home.id
    })
    const secret = await createPage(atrium, owner, space.id, { title: "Salaries", markdown: "Confidential install budget." })
    const restricted = await atrium.request("PUT", `/wiki/v1/pages/${secret.id}/permissions`, {
      token: owner.token,
      body: { restriction: "view" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    const archived = await createPage(atrium, owner, space.id, { title: "Old install notes", markdown: "Outdated." })
    expect((await atrium.request("POST", `/wiki/v1/pages/${archived.id}/archive`, { token: owner.token })).status).toBeLessThan(300)
    return { owner, member, viewer, workspaceId, space, home, child, secret, archived }
  }

  describe("publishing a public wiki", () => {
    it("only space admins configure and publish; nothing is public before", async () => {
      const w = await world("DOCS")
      const base = `/wiki/v1/public/workspaces/${w.workspaceId}/spaces/${w.space.key}`
      expect((await get(base)).status).toBe(404)
      expect((await get(`/wiki/v1/public/pages/${w.home.id}`)).status).toBe(404)
      for (const user of [w.member, w.viewer]) {
        expect((await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/public-wiki/publish`, { token: user.token })).status).toBe(403)
        expect((await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki`, { token: user.token })).status).toBe(403)
      }
      const stranger = await signUp(atrium, "Stranger")
      expect((await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki`, { token: stranger.token })).status).toBe(404)
      const defaults = await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki`, { token: w.owner.token })
      expect(defaults.status, defaults.text).toBe(200)
      expect(defaults.body).toMatchObject({ enabled: false, slug: "docs", allowSearch: true, allowIndexing: true })
      const configured = await atrium.request("PATCH", `/wiki/v1/spaces/${w.space.id}/public-wiki`, {
        token: w.owner.token,
        body: { title: "Acme Docs", accentColor: "#3355ff", showAuthors: true }
      })
      expect(configured.status, configured.text).toBe(200)
      expect(configured.body).toMatchObject({ title: "Acme Docs", accentColor: "#3355ff", enabled: false })
      const bad = await atrium.request("PATCH", `/wiki/v1/spaces/${w.space.id}/public-wiki`, {
        token: w.owner.token,
        body: { slug: "Not A Slug" }
      })
      expect(bad.status).toBe(400)
      expect(bad.body.error.details[0].path).toBe("body.slug")
      const published = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/public-wiki/publish`, { token: w.owner.token })
      expect(published.status, published.text).toBe(200)
      expect(published.body).toMatchObject({ enabled: true, slug: "docs", path: "/docs" })
      expect(published.body.enabledAt).toEqual(expect.any(String))
      const space = await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}`, { token: w.owner.token })
      expect(space.body.isPublic).toBe(true)

      // Another space cannot take the slug.
      const other = await createSpace(atrium, w.owner, w.workspaceId, { name: "Other", key: "OTHER" })
      const clash = await atrium.request("PATCH", `/wiki/v1/spaces/${other.id}/public-wiki`, {
        token: w.owner.token,
        body: { slug: "docs" }
      })
      expect(clash.status).toBe(409)
      expect(clash.body.error.details[0].path).toBe("body.slug")

      // Read without credentials; the workspace branding fills in what the site leaves unset.
      await atrium.request("PATCH", `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings/branding`, {
        token: w.owner.token,
        body: { logoUrl: "https://acme.example/logo.png", accentColor: "#000000" }
      })
      const site = await get(base)
      expect(site.status, site.text).toBe(200)
      expect(site.body).toMatchObject({
        spaceKey: "DOCS",
        name: "Docs",
        pageCount: 2,
        site: { title: "Acme Docs", accentColor: "#3355ff", logoUrl: "https://acme.example/logo.png", path: "/docs" }
      })
      expect(site.body.homePage.id).toBe(w.home.id)
      const tree = await get(`${base}/tree`)
      expect(tree.body.items).toEqual([
        {
          id: w.home.id,
          title: "Getting started",
          slug: w.home.slug,
          icon: null,
          children: [{ id: w.child.id, title: "Configuration", slug: w.child.slug, icon: null, children: [] }]
        }
      ])
      const list = await get(`${base}/pages?limit=1`)
      expect(list.body.total).toBe(2)
      expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([w.home.id])
      expect(list.body.items[0].path).toBe(`/docs/${w.home.slug}`)
      const page = await get(`${base}/pages/${w.home.slug}?visitorId=visitor-0001`)
      expect(page.status, page.text).toBe(200)
      expect(page.body.html).toContain("<strong>CLI</strong>")
      expect(page.body.author).toBe("Owner")
      expect(page.body.children.map((c: { id: string }) => c.id)).toEqual([w.child.id])
      const childPage = await get(`${base}/pages/${w.child.slug}?visitorId=visitor-0002`)
      expect(childPage.body.breadcrumbs.map((b: { id: string }) => b.id)).toEqual([w.home.id])
      expect((await get(`${base}/pages/${w.secret.slug}`)).status).toBe(404)
      expect((await get(`${base}/pages/${w.archived.slug}`)).status).toBe(404)
      const home = await get(`${base}/home?visitorId=visitor-0001`)
      expect(home.body.id).toBe(w.home.id)
      const children = await get(`${base}/pages/${w.home.slug}/children`)
      expect(children.body.items.map((c: { id: string }) => c.id)).toEqual([w.child.id])
      const recent = await get(`${base}/recent`)
      expect(recent.body.items.map((c: { id: string }) => c.id).sort()).toEqual([w.home.id, w.child.id].sort())
      const found = await get(`${base}/search?q=install`)
      expect(found.status, found.text).toBe(200)
      expect(found.body.results.map((r: { pageId: string }) => r.pageId).sort()).toEqual([w.home.id, w.child.id].sort())
      expect(found.body.results.find((r: { pageId: string }) => r.pageId === w.home.id).snippet).toContain("<mark>Install</mark>")
      await get(`${base}/search?q=kubernetes`)
      // By id, too (a page of a public wiki is public).
      expect((await get(`/wiki/v1/public/pages/${w.child.id}`)).status).toBe(200)
      expect((await get(`/wiki/v1/public/pages/${w.secret.id}`)).status).toBe(404)

      // Resolve public paths.
      const resolved = await get(`/wiki/v1/public/resolve?path=${encodeURIComponent(`/docs/${w.child.slug}`)}`)
      expect(resolved.status, resolved.text).toBe(200)
      expect(resolved.body).toMatchObject({
        workspaceId: w.workspaceId,
        spaceId: w.space.id,
        spaceKey: "DOCS",
        siteSlug: "docs",
        page: { id: w.child.id }
      })
      const long = await get(`/wiki/v1/public/resolve?path=${encodeURIComponent(`/${w.workspaceId}/docs/`)}`)
      expect(long.body).toMatchObject({ spaceKey: "DOCS", page: null, canonicalPath: "/docs" })
      expect((await get(`/wiki/v1/public/resolve?path=${encodeURIComponent(`/docs/${w.secret.slug}`)}`)).status).toBe(404)
      expect((await get("/wiki/v1/public/resolve?path=/nothing-here")).status).toBe(404)

      // Sitemap.
      const sitemap = await get(`/wiki/v1/public/workspaces/${w.workspaceId}/sitemap`)
      expect(sitemap.status, sitemap.text).toBe(200)
      expect(sitemap.body.sites).toEqual([{ spaceKey: "DOCS", path: "/docs", lastModified: expect.any(String) }])
      expect(sitemap.body.entries.map((e: { pageId: string }) => e.pageId).sort()).toEqual([w.home.id, w.child.id].sort())
      expect(sitemap.body.entries.find((e: { pageId: string }) => e.pageId === w.home.id).home).toBe(true)

      // Analytics from the reads above.
      const analytics = await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki/analytics`, { token: w.owner.token })
      expect(analytics.status, analytics.text).toBe(200)
      expect(analytics.body).toMatchObject({ views: 4, visitors: 2, anonymousViews: 1 })
      expect(analytics.body.series.reduce((sum: number, p: { views: number }) => sum + p.views, 0)).toBe(4)
      expect(analytics.body.topPages).toEqual([
        { pageId: w.child.id, title: "Configuration", slug: w.child.slug, views: 2, visitors: 1 },
        { pageId: w.home.id, title: "Getting started", slug: w.home.slug, views: 2, visitors: 1 }
      ])
      const terms = await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki/analytics/searches`, { token: w.owner.token })
      // Equally frequent: the latest first.
      expect(terms.body.items).toEqual([
        expect.objectContaining({ query: "kubernetes", searches: 1, averageResults: 0, zeroResultSearches: 1 }),
        expect.objectContaining({ query: "install", searches: 1, averageResults: 2, zeroResultSearches: 0 })
      ])
      expect(
        (
          await atrium.request("GET", `/wiki/v1/spaces/${w.space.id}/public-wiki/analytics?from=2026-12-01&to=2026-11-01`, {
            token: w.owner.token
          })
        ).status
      ).toBe(400)

      // Turning search and indexing off.
      await atrium.request("PATCH", `/wiki/v1/spaces/${w.space.id}/public-wiki`, {
        token: w.owner.token,
        body: { allowSearch: false, allowIndexing: false }
      })
      expect((await get(`${base}/search?q=install`)).status).toBe(403)
      expect((await get(`/wiki/v1/public/workspaces/${w.workspaceId}/sitemap`)).body.entries).toEqual([])

      // A workspace that turns public wikis off hides them all at once (settings kept).
      const settingsPath = `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings`
      await atrium.request("PATCH", settingsPath, { token: w.owner.token, body: { allowPublicWikis: false } })
      expect((await get(base)).status).toBe(404)
      expect((await get(`/wiki/v1/public/pages/${w.home.id}`)).status).toBe(404)
      expect((await get("/wiki/v1/public/resolve?path=/docs")).status).toBe(404)
      await atrium.request("PATCH", settingsPath, { token: w.owner.token, body: { allowPublicWikis: true } })
      expect((await get(base)).status).toBe(200)

      // Unpublishing takes it offline at once.
      const unpublished = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/public-wiki/unpublish`, { token: w.owner.token })
      expect(unpublished.body.enabled).toBe(false)
      expect((await get(base)).status).toBe(404)
      expect((await get(`/wiki/v1/public/pages/${w.home.id}`)).status).toBe(404)
      expect((await get(`/wiki/v1/public/workspaces/${w.workspaceId}/sitemap`)).status).toBe(404)
    })

    it("shares single pages, with or without their subpages", async () => {
      const w = await world("TEAM")
      const sharesPath = `/wiki/v1/spaces/${w.space.id}/public-wiki/shares`
      expect((await atrium.request("PUT", `${sharesPath}/${w.home.id}`, { token: w.member.token, body: { shared: true } })).status).toBe(
        403
      )
      const shared = await atrium.request("PUT", `${sharesPath}/${w.home.id}`, { token: w.owner.token, body: { shared: true } })
      expect(shared.status, shared.text).toBe(200)
      expect(shared.body).toMatchObject({
        pageId: w.home.id,
        includeSubpages: false,
        path: `/share/${w.home.id}`,
        title: "Getting started"
      })
      const page = await get(`/wiki/v1/public/pages/${w.home.id}`)
      expect(page.status, page.text).toBe(200)
      expect(page.body.children).toEqual([])
      expect((await get(`/wiki/v1/public/pages/${w.child.id}`)).status).toBe(404)
      const withSubpages = await atrium.request("PUT", `${sharesPath}/${w.home.id}`, {
        token: w.owner.token,
        body: { shared: true, includeSubpages: true }
      })
      expect(withSubpages.body.includeSubpages).toBe(true)
      expect((await get(`/wiki/v1/public/pages/${w.child.id}`)).status).toBe(200)
      const tree = await get(`/wiki/v1/public/pages/${w.home.id}/tree`)
      expect(tree.body).toEqual({
        page: { id: w.home.id, title: "Getting started", slug: w.home.slug, icon: null },
        children: [{ id: w.child.id, title: "Configuration", slug: w.child.slug, icon: null, children: [] }]
      })
      const resolved = await get(`/wiki/v1/public/resolve?path=/share/${w.home.id}`)
      expect(resolved.body).toMatchObject({
        spaceKey: "TEAM",
        siteSlug: null,
        page: { id: w.home.id },
        canonicalPath: `/share/${w.home.id}`
      })
      // A view-restricted page cannot be exposed by sharing.
      await atrium.request("PUT", `${sharesPath}/${w.secret.id}`, { token: w.owner.token, body: { shared: true } })
      expect((await get(`/wiki/v1/public/pages/${w.secret.id}`)).status).toBe(404)
      const list = await atrium.request("GET", sharesPath, { token: w.owner.token })
      expect(list.body.items.map((s: { pageId: string }) => s.pageId).sort()).toEqual([w.home.id, w.secret.id].sort())
      // The space itself is not public.
      expect((await get(`/wiki/v1/public/workspaces/${w.workspaceId}/spaces/${w.space.key}`)).status).toBe(404)
      const unshared = await atrium.request("PUT", `${sharesPath}/${w.home.id}`, { token: w.owner.token, body: { shared: false } })
      expect(unshared.status).toBe(204)
      expect((await get(`/wiki/v1/public/pages/${w.home.id}`)).status).toBe(404)
      expect((await atrium.request("PUT", `${sharesPath}/${w.home.id}`, { token: w.owner.token, body: { shared: false } })).status).toBe(
        404
      )
    })
  })
}
