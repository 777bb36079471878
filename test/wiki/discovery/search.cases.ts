/**
 * Wiki Search: ranked full-text search with highlighted snippets over what
 * the caller may read, filters, query syntax, text typed live becoming
 * searchable, the title quick-find, facets, recent searches and reindexing.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { acknowledged, addParagraph, connectEditor, synced } from "../../support/collabAtrium.ts"
import { addMember, createPage, createSpace, createWorkspace, type DiscoveryAtrium, eventually, signUp, type TestUser } from "./harness.ts"

/** Registers the cases; `current` is the Atrium they run against (started by discovery.test.ts). */
export const searchCases = (current: () => DiscoveryAtrium) => {
  let atrium: DiscoveryAtrium
  beforeAll(() => {
    atrium = current()
  })

  const search = (auth: { token?: string; apiKey?: string }, query: Record<string, string>, path = "/wiki/v1/search") =>
    atrium.request("GET", `${path}?${new URLSearchParams(query)}`, auth)
  const ids = (response: { body: { results: Array<{ pageId: string }> } }) => response.body.results.map((r) => r.pageId)

  interface World {
    owner: TestUser
    member: TestUser
    workspaceId: string
    eng: { id: string }
    ops: { id: string }
    runbook: { id: string }
    notes: { id: string }
    lunch: { id: string }
  }

  const world = async (): Promise<World> => {
    const owner = await signUp(atrium, "Owner")
    const member = await signUp(atrium, "Member")
    const workspaceId = await createWorkspace(atrium, owner)
    await addMember(atrium, owner, workspaceId, member, "member")
    const eng = await createSpace(atrium, owner, workspaceId, { name: "Engineering", key: "ENG" })
    const ops = await createSpace(atrium, member, workspaceId, { name: "Operations", key: "OPS" })
    const runbook = await createPage(atrium, owner, eng.id, {
      title: "Deployment runbook",
      markdown: "Tag the release, then run the migrations if x < y & the queue is empty."
    })
    const notes = await createPage(atrium, member, ops.id, {
      title: "Meeting notes",
      markdown: "We talked about how to deploy faster on Tuesdays. The release train leaves weekly."
    })
    const lunch = await createPage(atrium, owner, eng.id, { title: "Lunch menu", markdown: "Soup and bread, no release." })
    return { owner, member, workspaceId, eng, ops, runbook, notes, lunch }
  }

  describe("searchWiki", () => {
    it("finds pages by title and content, ranked, with highlighted and escaped snippets", async () => {
      const w = await world()
      const found = await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "deploy" })
      expect(found.status, found.text).toBe(200)
      expect(found.body.total).toBe(2)
      // The title match ranks first.
      expect(ids(found)).toEqual([w.runbook.id, w.notes.id])
      expect(found.body.results[0]).toMatchObject({
        title: "Deployment runbook",
        titleHighlight: "<mark>Deployment</mark> runbook",
        spaceKey: "ENG",
        spaceName: "Engineering",
        authorId: w.owner.userId
      })
      expect(found.body.results[1].snippet).toContain("<mark>deploy</mark>")
      const escaped = await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "migrations" })
      expect(escaped.body.results[0].snippet).toContain("<mark>migrations</mark> if x &lt; y &amp; the queue")
    })

    it("supports phrases, exclusions, OR, filters and paging", async () => {
      const w = await world()
      const q = (query: Record<string, string>) => search({ token: w.owner.token }, { workspaceId: w.workspaceId, ...query })
      expect(ids(await q({ q: '"release train"' }))).toEqual([w.notes.id])
      expect(ids(await q({ q: "release -soup" })).sort()).toEqual([w.runbook.id, w.notes.id].sort())
      expect(ids(await q({ q: "soup OR tuesdays" })).sort()).toEqual([w.notes.id, w.lunch.id].sort())
      expect(ids(await q({ q: "release", spaceId: w.eng.id })).sort()).toEqual([w.runbook.id, w.lunch.id].sort())
      expect(ids(await q({ q: "release", authorId: w.member.userId }))).toEqual([w.notes.id])
      expect((await q({ q: "release", updatedAfter: "2999-01-01" })).body.total).toBe(0)
      expect((await q({ q: "release", updatedBefore: "2999-01-01T00:00:00Z" })).body.total).toBe(3)
      const first = await q({ q: "release", limit: "2" })
      const second = await q({ q: "release", limit: "2", offset: "2" })
      expect(first.body.total).toBe(3)
      expect(second.body.total).toBe(3)
      expect([...ids(first), ...ids(second)].sort()).toEqual([w.runbook.id, w.notes.id, w.lunch.id].sort())
      expect((await q({ q: "release", offset: "10" })).body).toMatchObject({ total: 3, results: [] })
      const noWord = await q({ q: "-soup !!" })
      expect(noWord.status).toBe(400)
      expect(noWord.body.error.details[0].path).toBe("query.q")
      const badDate = await q({ q: "release", updatedAfter: "yesterday" })
      expect(badDate.status).toBe(400)
      expect(badDate.body.error.details[0].path).toBe("query.updatedAfter")
      expect((await q({ q: "release", spaceId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404)
    })

    it("shows only what the caller may read", async () => {
      const w = await world()
      const outsider = await signUp(atrium, "Outsider")
      expect((await search({ token: outsider.token }, { workspaceId: w.workspaceId, q: "release" })).status).toBe(404)
      // A restricted space: its pages disappear for members without an entry, not for admins.
      const hr = await createSpace(atrium, w.owner, w.workspaceId, { name: "People", key: "HR", visibility: "restricted" })
      const salaries = await createPage(atrium, w.owner, hr.id, { title: "Release of salaries", markdown: "Confidential." })
      // A page restricted to named readers, and an archived page.
      const secret = await createPage(atrium, w.owner, w.eng.id, { title: "Release secrets", markdown: "Only for the owner." })
      expect(
        (await atrium.request("PUT", `/wiki/v1/pages/${secret.id}/permissions`, { token: w.owner.token, body: { restriction: "view" } }))
          .status
      ).toBe(200)
      const secretChild = await createPage(atrium, w.owner, w.eng.id, { title: "Release secret child", parentPageId: secret.id })
      const old = await createPage(atrium, w.owner, w.eng.id, { title: "Old release notes" })
      expect((await atrium.request("POST", `/wiki/v1/pages/${old.id}/archive`, { token: w.owner.token })).status).toBeLessThan(300)
      const asMember = await search({ token: w.member.token }, { workspaceId: w.workspaceId, q: "release" })
      expect(ids(asMember).sort()).toEqual([w.runbook.id, w.notes.id, w.lunch.id].sort())
      const asOwner = await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "release" })
      expect(ids(asOwner).sort()).toEqual([w.runbook.id, w.notes.id, w.lunch.id, salaries.id, secret.id, secretChild.id].sort())
      expect((await search({ token: w.member.token }, { workspaceId: w.workspaceId, q: "release", spaceId: hr.id })).status).toBe(404)
      // API keys: only their workspace, only with wiki:read.
      const minted = await atrium.request("POST", "/hub/v1/api-keys", {
        token: w.member.token,
        body: { workspaceId: w.workspaceId, name: "bot", scopes: ["wiki:read"] }
      })
      expect(minted.status, minted.text).toBe(201)
      expect(ids(await search({ apiKey: minted.body.key }, { workspaceId: w.workspaceId, q: "release" })).sort()).toEqual(
        ids(asMember).sort()
      )
      const otherWorkspace = await createWorkspace(atrium, w.member, "Other")
      expect((await search({ apiKey: minted.body.key }, { workspaceId: otherWorkspace, q: "release" })).status).toBe(404)
      const noScope = await atrium.request("POST", "/hub/v1/api-keys", {
        token: w.member.token,
        body: { workspaceId: w.workspaceId, name: "bot2", scopes: ["tasks:read"] }
      })
      expect((await search({ apiKey: noScope.body.key }, { workspaceId: w.workspaceId, q: "release" })).status).toBe(403)
    })

    it("finds text typed in the live editor within seconds", async () => {
      const w = await world()
      const editor = connectEditor(atrium.collabUrl, w.runbook.id, w.owner.token)
      try {
        await synced(editor)
        addParagraph(editor, "Remember the zebracorn checklist")
        await acknowledged(editor)
        const found = await eventually(async () => {
          const response = await search({ token: w.member.token }, { workspaceId: w.workspaceId, q: "zebracorn" })
          return response.body.total === 1 ? response : undefined
        }, "typed text searchable")
        expect(found.body.results[0]).toMatchObject({ pageId: w.runbook.id })
        expect(found.body.results[0].snippet).toContain("<mark>zebracorn</mark>")
      } finally {
        editor.destroy()
      }
      // The typing counts as the owner's edit for the dashboards.
      const edits = await atrium.sql<{ user_id: string }>("SELECT user_id FROM wiki_page_edits WHERE page_id = $1", [w.runbook.id])
      expect(edits.map((row) => row.user_id)).toContain(w.owner.userId)
    })
  })

  describe("title quick-find and facets", () => {
    it("matches title prefixes, exact and leading matches first", async () => {
      const w = await world()
      await createPage(atrium, w.owner, w.eng.id, { title: "Deploy", markdown: "" })
      const child = await createPage(atrium, w.owner, w.eng.id, { title: "Deploying to staging", parentPageId: w.runbook.id })
      const found = await search({ token: w.member.token }, { workspaceId: w.workspaceId, q: "depl" }, "/wiki/v1/search/titles")
      expect(found.status, found.text).toBe(200)
      expect(found.body.items.map((i: { title: string }) => i.title)).toEqual(["Deploy", "Deployment runbook", "Deploying to staging"])
      expect(found.body.items.find((i: { pageId: string }) => i.pageId === child.id).parentTitle).toBe("Deployment runbook")
      // Body text does not count here.
      expect(
        (await search({ token: w.member.token }, { workspaceId: w.workspaceId, q: "tuesdays" }, "/wiki/v1/search/titles")).body.items
      ).toEqual([])
    })

    it("counts results per space, author and age", async () => {
      const w = await world()
      const facets = await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "release" }, "/wiki/v1/search/facets")
      expect(facets.status, facets.text).toBe(200)
      expect(facets.body.total).toBe(3)
      expect(facets.body.spaces).toEqual([
        { spaceId: w.eng.id, key: "ENG", name: "Engineering", count: 2 },
        { spaceId: w.ops.id, key: "OPS", name: "Operations", count: 1 }
      ])
      expect(facets.body.authors).toEqual([
        { userId: w.owner.userId, name: "Owner", count: 2 },
        { userId: w.member.userId, name: "Member", count: 1 }
      ])
      expect(facets.body.updated).toEqual({ lastDay: 3, lastWeek: 3, lastMonth: 3, lastYear: 3 })
    })
  })

  describe("recent searches", () => {
    it("remembers a user's searches newest first, forgets them on request or when history is turned off", async () => {
      const w = await world()
      const auth = { token: w.member.token }
      await search(auth, { workspaceId: w.workspaceId, q: "deploy" })
      await search(auth, { workspaceId: w.workspaceId, q: "release", spaceId: w.eng.id, limit: "5" })
      await search(auth, { workspaceId: w.workspaceId, q: "Deploy" })
      const recent = await search(auth, { workspaceId: w.workspaceId }, "/wiki/v1/search/recent")
      expect(recent.status, recent.text).toBe(200)
      expect(recent.body.items.map((i: { query: string }) => i.query)).toEqual(["Deploy", "release"])
      expect(recent.body.items[1]).toMatchObject({ filters: { spaceId: w.eng.id }, resultCount: 2 })
      expect(recent.body.items[1].filters).toEqual({ spaceId: w.eng.id })
      // Someone else's searches are theirs.
      expect((await search({ token: w.owner.token }, { workspaceId: w.workspaceId }, "/wiki/v1/search/recent")).body.items).toEqual([])
      const forgetId = recent.body.items[0].id
      expect((await atrium.request("DELETE", `/wiki/v1/search/recent/${forgetId}`, { token: w.owner.token })).status).toBe(404)
      expect((await atrium.request("DELETE", `/wiki/v1/search/recent/${forgetId}`, auth)).status).toBe(204)
      expect(
        (await search(auth, { workspaceId: w.workspaceId }, "/wiki/v1/search/recent")).body.items.map((i: { query: string }) => i.query)
      ).toEqual(["release"])
      const cleared = await atrium.request("DELETE", `/wiki/v1/search/recent?workspaceId=${w.workspaceId}`, auth)
      expect(cleared.body).toEqual({ deleted: 1 })
      await atrium.request("PATCH", "/wiki/v1/user-settings", { ...auth, body: { saveSearchHistory: false } })
      await search(auth, { workspaceId: w.workspaceId, q: "deploy" })
      expect((await search(auth, { workspaceId: w.workspaceId }, "/wiki/v1/search/recent")).body.items).toEqual([])
    })
  })

  describe("reindexWikiSearch", () => {
    it("rewrites drifted search text from the live documents (workspace admins only)", async () => {
      const w = await world()
      await atrium.sql("UPDATE wiki_pages SET content_text = 'stale' WHERE id = $1", [w.runbook.id])
      expect((await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "migrations" })).body.total).toBe(0)
      expect(
        (await atrium.request("POST", "/wiki/v1/search/reindex", { token: w.member.token, body: { workspaceId: w.workspaceId } })).status
      ).toBe(403)
      const reindexed = await atrium.request("POST", "/wiki/v1/search/reindex", {
        token: w.owner.token,
        body: { workspaceId: w.workspaceId, spaceId: w.eng.id }
      })
      expect(reindexed.status, reindexed.text).toBe(200)
      expect(reindexed.body).toEqual({ checked: 2, updated: 1 })
      expect(ids(await search({ token: w.owner.token }, { workspaceId: w.workspaceId, q: "migrations" }))).toEqual([w.runbook.id])
    })
  })
}
