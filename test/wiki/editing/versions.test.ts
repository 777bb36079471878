import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { connectEditor, eventually, synced, typeText } from "../../support/collabAtrium.ts"
import { closeEditor, createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
const saved = process.env.WIKI_VERSION_INTERVAL_SECONDS
beforeAll(async () => {
  // Every editing window becomes a version at once (the interval is a policy, not what is tested here).
  process.env.WIKI_VERSION_INTERVAL_SECONDS = "0"
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
  if (saved === undefined) delete process.env.WIKI_VERSION_INTERVAL_SECONDS
  else process.env.WIKI_VERSION_INTERVAL_SECONDS = saved
})

const versions = async (token: string, pageId: string, query = "") =>
  (await atrium.request("GET", `/wiki/v1/pages/${pageId}/versions${query}`, { token })).body.items as Array<{
    id: string
    number: number
    reason: string
    title: string
    restoredFrom: string | null
    contributors: Array<string>
  }>

describe("Wiki Page Versions", () => {
  it("keeps a version on creation and on every API edit; lists newest first, pages back", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Policy", markdown: "v one" })
    await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { token: t.member.token, body: { markdown: "v two" } })
    // The same content again is no new version.
    await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { token: t.member.token, body: { markdown: "v two" } })
    const list = await versions(t.viewer.token, page.id)
    expect(list.map((v) => [v.number, v.reason])).toEqual([
      [2, "edited"],
      [1, "created"]
    ])
    expect((await versions(t.viewer.token, page.id, "?before=2")).map((v) => v.number)).toEqual([1])
    expect((await versions(t.viewer.token, page.id, "?limit=1")).map((v) => v.number)).toEqual([2])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/versions?limit=0`, { token: t.viewer.token })).status).toBe(400)
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/versions`, { token: t.outsider.token })).status).toBe(404)
  })

  it("reads one version's content and diffs it against the page now", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Steps", markdown: "# Steps\n\nalpha\n\nbeta\n\ngamma" })
    await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
      token: t.member.token,
      body: { title: "Steps v2", markdown: "# Steps\n\nalpha\n\nBETA\n\ngamma\n\ndelta" }
    })
    const [, first] = await versions(t.viewer.token, page.id)
    const one = await atrium.request("GET", `/wiki/v1/pages/${page.id}/versions/${first!.id}`, { token: t.viewer.token })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ number: 1, title: "Steps", reason: "created" })
    expect(one.body.markdown).toContain("beta")
    expect(one.body.content.type).toBe("doc")
    expect(one.body.text).toContain("alpha")
    const diff = await atrium.request("GET", `/wiki/v1/pages/${page.id}/versions/${first!.id}/diff?context=1`, { token: t.viewer.token })
    expect(diff.status, diff.text).toBe(200)
    expect(diff.body).toMatchObject({ to: "current", title: { from: "Steps", to: "Steps v2" }, from: { versionId: first!.id, number: 1 } })
    expect(
      diff.body.blocks.filter((b: { type: string }) => b.type === "removed").flatMap((b: { lines: Array<string> }) => b.lines)
    ).toEqual(["beta"])
    expect(diff.body.blocks.filter((b: { type: string }) => b.type === "added").flatMap((b: { lines: Array<string> }) => b.lines)).toEqual(
      expect.arrayContaining(["BETA", "delta"])
    )
    expect(diff.body.added).toBeGreaterThanOrEqual(2)
    const missing = await atrium.request("GET", `/wiki/v1/pages/${page.id}/versions/00000000-0000-4000-8000-000000000000`, {
      token: t.viewer.token
    })
    expect(missing.status).toBe(404)
    // A version of another page is not this page's.
    const other = await createPage(atrium, t.member.token, space.id, { title: "Other", markdown: "x" })
    expect((await atrium.request("GET", `/wiki/v1/pages/${other.id}/versions/${first!.id}`, { token: t.viewer.token })).status).toBe(404)
  })

  it("restores a version as a new version; connected editors converge on it", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Original", markdown: "original text" })
    await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
      token: t.member.token,
      body: { title: "Changed", markdown: "changed text" }
    })
    const first = (await versions(t.member.token, page.id)).find((v) => v.number === 1)!
    const editor = connectEditor(atrium.origin.replace("http", "ws") + "/wiki/v1/collab", page.id, t.member.token)
    try {
      await synced(editor)
      await eventually(() => editor.text() === "changed text", "editor has the current text")
      expect(
        (await atrium.request("POST", `/wiki/v1/pages/${page.id}/versions/${first.id}/restore`, { token: t.viewer.token })).status
      ).toBe(403)
      const restored = await atrium.request("POST", `/wiki/v1/pages/${page.id}/versions/${first.id}/restore`, { token: t.member.token })
      expect(restored.status, restored.text).toBe(200)
      expect(restored.body.version).toMatchObject({ reason: "restored", restoredFrom: first.id, title: "Original" })
      expect(restored.body.page).toMatchObject({ title: "Original", slug: "original", text: "original text" })
      await eventually(() => editor.text() === "original text", "the editor converged on the restore")
    } finally {
      await closeEditor(editor)
    }
    const list = await versions(t.member.token, page.id)
    expect(list[0]).toMatchObject({ reason: "restored", restoredFrom: first.id })
    expect(list.map((v) => v.number).slice(-2)).toEqual([2, 1])
  })

  it("live editing becomes automatic versions, and keeps the page's text current", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Live", markdown: "start" })
    const editor = connectEditor(atrium.origin.replace("http", "ws") + "/wiki/v1/collab", page.id, t.member.token)
    try {
      await synced(editor)
      typeText(editor, " and more")
      await eventually(async () => (await versions(t.member.token, page.id)).some((v) => v.reason === "autosaved"), "an automatic version")
      const auto = (await versions(t.member.token, page.id)).find((v) => v.reason === "autosaved")!
      expect(auto.contributors).toContain(t.member.userId)
      // The text projection (listings, search) follows live edits.
      await eventually(
        async () =>
          (await atrium.request("GET", `/wiki/v1/spaces/${space.id}/pages?q=live`, { token: t.member.token })).body.items[0]?.updatedBy ===
          t.member.userId,
        "projection updated"
      )
    } finally {
      await closeEditor(editor)
    }
  })
})
