/**
 * The discovery SQL on PostgreSQL (the other suites run on PGlite): the
 * generated tsvector column and its GIN index, ranked search with snippets,
 * facets, live-typed text, the public wiki and its analytics, dashboards and
 * a space export — one pass over each on a database of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordPageView } from "../../../actors/wiki/PageActivity.ts"
import { acknowledged, addParagraph, connectEditor, synced } from "../../support/collabAtrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import {
  addMember,
  createPage,
  createSpace,
  createWorkspace,
  type DiscoveryAtrium,
  eventually,
  signUp,
  startDiscoveryAtrium
} from "./harness.ts"

const ready = await checkPostgres("test/wiki/discovery/postgres.test.ts (wiki discovery on PostgreSQL)")

let database: TestDatabase | undefined
let atrium: DiscoveryAtrium
beforeAll(async () => {
  if (!ready) return
  database = await createTestDatabase()
  atrium = await startDiscoveryAtrium({ databaseUrl: database.url })
})
afterAll(async () => {
  await atrium?.close()
  await database?.drop()
})

describe.skipIf(!ready)("wiki discovery on PostgreSQL", () => {
  it("indexes with a GIN index and answers search, public wiki, dashboards and exports", async () => {
    const index = await atrium.sql<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'wiki_pages_search'")
    expect(index[0]!.indexdef).toMatch(/USING gin \(search_vector\)/)
    const owner = await signUp(atrium, "Owner")
    const member = await signUp(atrium, "Member")
    const workspaceId = await createWorkspace(atrium, owner)
    await addMember(atrium, owner, workspaceId, member, "member")
    const space = await createSpace(atrium, owner, workspaceId, { name: "Docs", key: "DOCS" })
    const runbook = await createPage(atrium, owner, space.id, { title: "Deployment runbook", markdown: "Run the migrations if x < y." })
    const notes = await createPage(atrium, member, space.id, {
      title: "Notes",
      markdown: "How to deploy faster.",
      parentPageId: runbook.id
    })

    const found = await atrium.request("GET", `/wiki/v1/search?workspaceId=${workspaceId}&q=deploy`, { token: member.token })
    expect(found.status, found.text).toBe(200)
    expect(found.body.results.map((r: { pageId: string }) => r.pageId)).toEqual([runbook.id, notes.id])
    expect(found.body.results[1].snippet).toContain("<mark>deploy</mark>")
    const facets = await atrium.request("GET", `/wiki/v1/search/facets?workspaceId=${workspaceId}&q=deploy`, { token: member.token })
    expect(facets.body.total).toBe(2)
    const titles = await atrium.request("GET", `/wiki/v1/search/titles?workspaceId=${workspaceId}&q=dep`, { token: member.token })
    expect(titles.body.items.map((i: { pageId: string }) => i.pageId)).toEqual([runbook.id])
    expect(
      (await atrium.request("GET", `/wiki/v1/search/recent?workspaceId=${workspaceId}`, { token: member.token })).body.items
    ).toHaveLength(1)

    const editor = connectEditor(atrium.collabUrl, notes.id, member.token)
    try {
      await synced(editor)
      addParagraph(editor, "quasarflux")
      await acknowledged(editor)
      await eventually(async () => {
        const response = await atrium.request("GET", `/wiki/v1/search?workspaceId=${workspaceId}&q=quasarflux`, { token: owner.token })
        return response.body.total === 1 ? true : undefined
      }, "typed text searchable")
    } finally {
      editor.destroy()
    }

    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/public-wiki/publish`, { token: owner.token })).status).toBe(200)
    const base = `/wiki/v1/public/workspaces/${workspaceId}/spaces/DOCS`
    expect((await atrium.request("GET", `${base}/tree`)).body.items[0].children[0].id).toBe(notes.id)
    expect((await atrium.request("GET", `${base}/pages/${runbook.slug}?visitorId=visitor-01`)).status).toBe(200)
    expect((await atrium.request("GET", `${base}/search?q=migrations`)).body.total).toBe(1)
    expect((await atrium.request("GET", `/wiki/v1/public/resolve?path=/docs/${notes.slug}`)).body.page.id).toBe(notes.id)
    expect((await atrium.request("GET", `/wiki/v1/public/workspaces/${workspaceId}/sitemap`)).body.entries).toHaveLength(2)
    const analytics = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/public-wiki/analytics?interval=week`, { token: owner.token })
    expect(analytics.status, analytics.text).toBe(200)
    expect(analytics.body).toMatchObject({ views: 1, visitors: 1 })
    const terms = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/public-wiki/analytics/searches`, { token: owner.token })
    expect(terms.body.items[0]).toMatchObject({ query: "migrations", searches: 1, averageResults: 1 })

    await atrium.run(recordPageView(runbook.id, member.userId))
    const summary = await atrium.request("GET", `/wiki/v1/dashboard?workspaceId=${workspaceId}`, { token: member.token })
    expect(summary.status, summary.text).toBe(200)
    expect(summary.body).toMatchObject({ pages: 2, views: 2, publicViews: 1, uniqueViewers: 1 })
    for (const report of [
      "views?interval=month",
      "edits",
      "editors",
      "top-pages",
      "spaces",
      "growth?interval=week",
      "stale-pages?olderThanDays=0"
    ]) {
      const [name, query] = report.split("?")
      const response = await atrium.request("GET", `/wiki/v1/dashboard/${name}?workspaceId=${workspaceId}${query ? `&${query}` : ""}`, {
        token: member.token
      })
      expect(response.status, `${report}: ${response.text}`).toBe(200)
    }
    const home = await atrium.request("GET", `/wiki/v1/home?workspaceId=${workspaceId}`, { token: member.token })
    expect(home.body.recentlyViewed.map((v: { pageId: string }) => v.pageId)).toEqual([runbook.id])

    const job = await atrium.request("POST", `/wiki/v1/spaces/${space.id}/export`, { token: member.token, body: { format: "html" } })
    expect(job.status, job.text).toBe(202)
    const done = await eventually(async () => {
      const status = await atrium.request("GET", `/wiki/v1/exports/${job.body.id}`, { token: member.token })
      return status.body.status === "succeeded" ? status : undefined
    }, "export finished")
    expect(done.body.pageCount).toBe(2)
  })
})
