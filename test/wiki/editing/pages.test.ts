import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { connectEditor, eventually, synced, typeText } from "../../support/collabAtrium.ts"
import { apiKey, closeEditor, createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const get = (token: string, pageId: string) => atrium.request("GET", `/wiki/v1/pages/${pageId}`, { token })

describe("Wiki Pages: create, read, update, delete", () => {
  it("creates pages from Markdown, HTML or ProseMirror JSON and reads them back in every form", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const md = await createPage(atrium, t.member.token, space.id, {
      title: "Onboarding",
      markdown: "# Welcome\n\nRead the **setup guide** first.",
      icon: "👋"
    })
    expect(md).toMatchObject({
      title: "Onboarding",
      slug: "onboarding",
      icon: "👋",
      parentPageId: null,
      spaceKey: space.key,
      access: "edit",
      restriction: "open"
    })
    expect(md.content).toEqual({
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Welcome" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "Read the " },
            { type: "text", text: "setup guide", marks: [{ type: "bold" }] },
            { type: "text", text: " first." }
          ]
        }
      ]
    })
    expect(md.markdown).toContain("**setup guide**")
    expect(md.text).toContain("Read the setup guide first.")
    const html = await createPage(atrium, t.member.token, space.id, { title: "From HTML", html: "<h2>Hi</h2><p>there <em>you</em></p>" })
    expect(html.markdown).toContain("## Hi")
    const json = await createPage(atrium, t.member.token, space.id, {
      title: "From JSON",
      parentPageId: md.id,
      content: { type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "child" }] }] }
    })
    expect(json.parentPageId).toBe(md.id)
    const read = await get(t.viewer.token, md.id)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ id: md.id, access: "read", markdown: md.markdown })
    // Duplicate titles get distinct slugs.
    expect((await createPage(atrium, t.member.token, space.id, { title: "Onboarding" })).slug).toBe("onboarding-2")
    const empty = await createPage(atrium, t.member.token, space.id, { title: "Empty" })
    expect(empty.content).toEqual({ type: "doc", content: [] })
  })

  it("refuses bad content naming the field, viewers and outsiders", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const url = `/wiki/v1/spaces/${space.id}/pages`
    const unknownNode = await atrium.request("POST", url, {
      token: t.member.token,
      body: { title: "X", content: { type: "doc", content: [{ type: "video" }] } }
    })
    expect(unknownNode.status).toBe(400)
    expect(unknownNode.body.error.details[0].path).toMatch(/^body\.content\.content\[0\]/)
    const two = await atrium.request("POST", url, { token: t.member.token, body: { title: "X", markdown: "a", html: "<p>b</p>" } })
    expect(two.status).toBe(400)
    expect(two.body.error.details[0].path).toBe("body.html")
    const blank = await atrium.request("POST", url, { token: t.member.token, body: { title: " " } })
    expect(blank.body.error.details[0].path).toBe("body.title")
    const badParent = await atrium.request("POST", url, {
      token: t.member.token,
      body: { title: "X", parentPageId: "00000000-0000-4000-8000-000000000000" }
    })
    expect(badParent.status).toBe(404)
    expect(badParent.body.error.details[0].path).toBe("body.parentPageId")
    const badCover = await atrium.request("POST", url, { token: t.member.token, body: { title: "X", coverImage: "gallery:nope" } })
    expect(badCover.status).toBe(400)
    expect(badCover.body.error.details[0].path).toBe("body.coverImage")
    expect((await atrium.request("POST", url, { token: t.viewer.token, body: { title: "X" } })).status).toBe(403)
    expect((await atrium.request("POST", url, { token: t.outsider.token, body: { title: "X" } })).status).toBe(404)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Mine" })
    expect((await get(t.outsider.token, page.id)).status).toBe(404)
  })

  it("updates title (slug follows), icon, cover and content; keeps title and text searchable in SQL", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Draft", markdown: "old words" })
    const updated = await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
      token: t.member.token,
      body: { title: "Release notes", icon: "🚀", coverImage: "gallery:gradient-ocean", markdown: "fresh words" }
    })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ title: "Release notes", slug: "release-notes", icon: "🚀", coverImage: "gallery:gradient-ocean" })
    expect(updated.body.text).toBe("fresh words")
    const cleared = await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
      token: t.member.token,
      body: { icon: null, coverImage: null }
    })
    expect(cleared.body).toMatchObject({ icon: null, coverImage: null, text: "fresh words" })
    expect((await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { token: t.viewer.token, body: { title: "Mine" } })).status).toBe(
      403
    )
    expect(
      (await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { token: t.member.token, body: { coverImage: "ftp://x" } })).status
    ).toBe(400)
    // The listing sees the new title.
    const listed = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/pages?q=release`, { token: t.viewer.token })
    expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual([page.id])
  })

  it("a REST edit reaches a connected editor at once, and reads include what editors typed", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Live", markdown: "first" })
    const editor = connectEditor(atrium.origin.replace("http", "ws") + "/wiki/v1/collab", page.id, t.member.token)
    try {
      await synced(editor)
      expect(editor.text()).toBe("first")
      await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { token: t.owner.token, body: { markdown: "second" } })
      await eventually(() => editor.text() === "second", "the editor sees the REST edit")
      typeText(editor, " typed")
      await eventually(async () => (await get(t.viewer.token, page.id)).body.text === "second typed", "REST reads the live text")
      const editors = await atrium.request("GET", `/wiki/v1/pages/${page.id}/editors`, { token: t.viewer.token })
      expect(editors.body.items.map((e: { userId: string }) => e.userId)).toContain(t.member.userId)
    } finally {
      await closeEditor(editor)
    }
  })

  it("deletes a page with its subpages for good (editors; restricted subpages take a space admin)", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const parent = await createPage(atrium, t.member.token, space.id, { title: "Parent" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Child", parentPageId: parent.id })
    expect((await atrium.request("DELETE", `/wiki/v1/pages/${parent.id}`, { token: t.viewer.token })).status).toBe(403)
    // A subpage hidden from the member: only a space admin may delete the parent.
    expect(
      (await atrium.request("PUT", `/wiki/v1/pages/${child.id}/permissions`, { token: t.owner.token, body: { restriction: "view" } }))
        .status
    ).toBe(200)
    expect((await atrium.request("DELETE", `/wiki/v1/pages/${parent.id}`, { token: t.member.token })).status).toBe(403)
    expect((await atrium.request("DELETE", `/wiki/v1/pages/${parent.id}`, { token: t.admin.token })).status).toBe(204)
    expect((await get(t.owner.token, parent.id)).status).toBe(404)
    expect((await get(t.owner.token, child.id)).status).toBe(404)
  })
})

describe("Wiki Pages: the tree", () => {
  it("lists, nests, orders, moves (not under itself), across spaces too", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const a = await createPage(atrium, t.member.token, space.id, { title: "A" })
    const b = await createPage(atrium, t.member.token, space.id, { title: "B" })
    const c = await createPage(atrium, t.member.token, space.id, { title: "C", index: 0 })
    const a1 = await createPage(atrium, t.member.token, space.id, { title: "A1", parentPageId: a.id })
    const a2 = await createPage(atrium, t.member.token, space.id, { title: "A2", parentPageId: a.id })
    const tree = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree`, { token: t.viewer.token })
    expect(tree.body.items.map((n: { title: string }) => n.title)).toEqual(["C", "A", "B"])
    expect(tree.body.items[1].children.map((n: { title: string }) => n.title)).toEqual(["A1", "A2"])
    const shallow = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree?depth=1`, { token: t.viewer.token })
    expect(shallow.body.items[1].children).toEqual([])
    const sub = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree?rootPageId=${a.id}`, { token: t.viewer.token })
    expect(sub.body.items.map((n: { id: string }) => n.id)).toEqual([a1.id, a2.id])

    const children = await atrium.request("GET", `/wiki/v1/pages/${a.id}/children`, { token: t.viewer.token })
    expect(children.body.items.map((p: { id: string }) => p.id)).toEqual([a1.id, a2.id])
    const top = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/pages?topLevel=true&sort=title`, { token: t.viewer.token })
    expect(top.body.items.map((p: { title: string }) => p.title)).toEqual(["A", "B", "C"])
    expect(top.body.total).toBe(3)
    const paged = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/pages?limit=2&offset=1`, { token: t.viewer.token })
    expect(paged.body).toMatchObject({ total: 5 })
    expect(paged.body.items).toHaveLength(2)

    // Move A2 first under B, then C under A1; A may not go under A1.
    const moved = await atrium.request("POST", `/wiki/v1/pages/${a2.id}/move`, {
      token: t.member.token,
      body: { parentPageId: b.id, index: 0 }
    })
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body.parentPageId).toBe(b.id)
    const cycle = await atrium.request("POST", `/wiki/v1/pages/${a.id}/move`, { token: t.member.token, body: { parentPageId: a1.id } })
    expect(cycle.status).toBe(400)
    expect(cycle.body.error.details[0].path).toBe("body.parentPageId")
    expect(
      (await atrium.request("POST", `/wiki/v1/pages/${b.id}/move`, { token: t.member.token, body: { parentPageId: null, index: 0 } }))
        .status
    ).toBe(200)
    const reordered = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree`, { token: t.viewer.token })
    expect(reordered.body.items.map((n: { title: string }) => n.title)).toEqual(["B", "C", "A"])
    expect(
      (await atrium.request("POST", `/wiki/v1/pages/${c.id}/move`, { token: t.viewer.token, body: { parentPageId: null } })).status
    ).toBe(403)

    // Across spaces: the subtree follows.
    const other = await createSpace(atrium, t.owner.token, t.workspaceId)
    const across = await atrium.request("POST", `/wiki/v1/pages/${a.id}/move`, {
      token: t.member.token,
      body: { parentPageId: null, spaceId: other.id }
    })
    expect(across.status, across.text).toBe(200)
    expect(across.body.spaceId).toBe(other.id)
    expect((await get(t.member.token, a1.id)).body.spaceId).toBe(other.id)
    const foreign = await atrium.request("POST", `/wiki/v1/pages/${a.id}/move`, {
      token: t.member.token,
      body: { parentPageId: null, spaceId: "00000000-0000-4000-8000-000000000000" }
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.details[0].path).toBe("body.spaceId")
  })

  it("breadcrumbs run from the top level to the page", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const a = await createPage(atrium, t.member.token, space.id, { title: "A" })
    const b = await createPage(atrium, t.member.token, space.id, { title: "B", parentPageId: a.id })
    const c = await createPage(atrium, t.member.token, space.id, { title: "C", parentPageId: b.id })
    const crumbs = await atrium.request("GET", `/wiki/v1/pages/${c.id}/breadcrumbs`, { token: t.viewer.token })
    expect(crumbs.status).toBe(200)
    expect(crumbs.body.space).toEqual({ id: space.id, key: space.key, name: "Engineering" })
    expect(crumbs.body.items.map((p: { title: string }) => p.title)).toEqual(["A", "B", "C"])
    expect((await atrium.request("GET", `/wiki/v1/pages/${c.id}/breadcrumbs`, { token: t.outsider.token })).status).toBe(404)
  })

  it("duplicates a page (with visible children and content) beside itself or elsewhere", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Guide", markdown: "# Guide body" })
    await createPage(atrium, t.member.token, space.id, { title: "Step", parentPageId: page.id, markdown: "step body" })
    const hidden = await createPage(atrium, t.owner.token, space.id, { title: "Secret step", parentPageId: page.id })
    await atrium.request("PUT", `/wiki/v1/pages/${hidden.id}/permissions`, { token: t.owner.token, body: { restriction: "view" } })
    const copy = await atrium.request("POST", `/wiki/v1/pages/${page.id}/duplicate`, {
      token: t.member.token,
      body: { includeChildren: true }
    })
    expect(copy.status, copy.text).toBe(201)
    expect(copy.body.page).toMatchObject({ title: "Copy of Guide", parentPageId: null })
    expect(copy.body.copiedPageIds).toHaveLength(2)
    expect((await get(t.member.token, copy.body.page.id)).body.markdown).toContain("# Guide body")
    const copyChildren = await atrium.request("GET", `/wiki/v1/pages/${copy.body.page.id}/children`, { token: t.owner.token })
    expect(copyChildren.body.items.map((p: { title: string }) => p.title)).toEqual(["Step"])
    expect((await get(t.member.token, copyChildren.body.items[0].id)).body.text).toBe("step body")
    // Beside the original in the tree.
    const tree = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree?depth=1`, { token: t.member.token })
    expect(tree.body.items.map((n: { title: string }) => n.title)).toEqual(["Guide", "Copy of Guide"])
    const other = await createSpace(atrium, t.owner.token, t.workspaceId)
    const elsewhere = await atrium.request("POST", `/wiki/v1/pages/${page.id}/duplicate`, {
      token: t.member.token,
      body: { title: "Guide (ops)", spaceId: other.id }
    })
    expect(elsewhere.body.page).toMatchObject({ title: "Guide (ops)", spaceId: other.id })
    expect(elsewhere.body.copiedPageIds).toHaveLength(1)
    expect((await atrium.request("POST", `/wiki/v1/pages/${page.id}/duplicate`, { token: t.viewer.token, body: {} })).status).toBe(403)
  })

  it("archives a subtree to the trash and restores it; archived pages are read-only", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const a = await createPage(atrium, t.member.token, space.id, { title: "A" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Child", parentPageId: a.id })
    expect((await atrium.request("POST", `/wiki/v1/pages/${a.id}/archive`, { token: t.viewer.token })).status).toBe(403)
    const archived = await atrium.request("POST", `/wiki/v1/pages/${a.id}/archive`, { token: t.member.token })
    expect(archived.status).toBe(200)
    expect(archived.body.archivedPageIds.sort()).toEqual([a.id, child.id].sort())
    expect((await atrium.request("POST", `/wiki/v1/pages/${a.id}/archive`, { token: t.member.token })).status).toBe(409)
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree`, { token: t.member.token })).body.items).toEqual([])
    expect((await get(t.member.token, child.id)).body.archivedAt).toEqual(expect.any(String))
    expect((await atrium.request("PATCH", `/wiki/v1/pages/${child.id}`, { token: t.member.token, body: { title: "No" } })).status).toBe(409)
    const restored = await atrium.request("POST", `/wiki/v1/pages/${a.id}/restore`, { token: t.member.token })
    expect(restored.status).toBe(200)
    expect(restored.body.archivedAt).toBeNull()
    expect((await get(t.member.token, child.id)).body.archivedAt).toBeNull()
    expect((await atrium.request("POST", `/wiki/v1/pages/${a.id}/restore`, { token: t.member.token })).status).toBe(409)
    // A child restored without its archived parent goes to the top level.
    await atrium.request("POST", `/wiki/v1/pages/${a.id}/archive`, { token: t.member.token })
    const alone = await atrium.request("POST", `/wiki/v1/pages/${child.id}/restore`, { token: t.member.token })
    expect(alone.body.parentPageId).toBeNull()
  })
})

describe("Wiki Pages: content formats, info, save, backlinks", () => {
  it("downloads the content as Markdown, HTML, JSON or text", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Doc", markdown: "# Title\n\nSome *text*." })
    const md = await atrium.request("GET", `/wiki/v1/pages/${page.id}/content`, { token: t.viewer.token })
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/)
    expect(md.text).toContain("# Title")
    const html = await atrium.request("GET", `/wiki/v1/pages/${page.id}/content?format=html`, { token: t.viewer.token })
    expect(html.text).toContain("<h1>Title</h1>")
    expect(html.headers.get("content-security-policy")).toContain("sandbox")
    const json = await atrium.request("GET", `/wiki/v1/pages/${page.id}/content?format=json`, { token: t.viewer.token })
    expect(json.body.type).toBe("doc")
    const text = await atrium.request("GET", `/wiki/v1/pages/${page.id}/content?format=text`, { token: t.viewer.token })
    expect(text.text).toBe("Title\nSome text.")
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/content?format=pdf`, { token: t.viewer.token })).status).toBe(400)
  })

  it("saves named versions, reports page info and backlinks", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const target = await createPage(atrium, t.member.token, space.id, {
      title: "Target",
      markdown: "# Heading one\n\n## Two\n\none two three four"
    })
    const linking = await createPage(atrium, t.member.token, space.id, {
      title: "Linking",
      markdown: `See [the target](/wiki/pages/${target.id}).`
    })
    const saved = await atrium.request("POST", `/wiki/v1/pages/${target.id}/save`, { token: t.member.token, body: { label: "Approved" } })
    expect(saved.status, saved.text).toBe(201)
    expect(saved.body).toMatchObject({ reason: "saved", label: "Approved", authorId: t.member.userId, number: 2 })
    expect((await atrium.request("POST", `/wiki/v1/pages/${target.id}/save`, { token: t.viewer.token, body: {} })).status).toBe(403)
    const info = await atrium.request("GET", `/wiki/v1/pages/${target.id}/info`, { token: t.viewer.token })
    expect(info.status, info.text).toBe(200)
    expect(info.body).toMatchObject({ pageId: target.id, versionCount: 2, backlinkCount: 1, childCount: 0, readingMinutes: 1 })
    expect(info.body.headings).toEqual([
      { level: 1, text: "Heading one" },
      { level: 2, text: "Two" }
    ])
    expect(info.body.words).toBe(7)
    expect(info.body.contributors.map((c: { userId: string }) => c.userId)).toContain(t.member.userId)
    const backlinks = await atrium.request("GET", `/wiki/v1/pages/${target.id}/backlinks`, { token: t.viewer.token })
    expect(backlinks.body.items.map((p: { id: string }) => p.id)).toEqual([linking.id])
    // Links go when the content no longer has them.
    await atrium.request("PATCH", `/wiki/v1/pages/${linking.id}`, { token: t.member.token, body: { markdown: "No links." } })
    expect((await atrium.request("GET", `/wiki/v1/pages/${target.id}/backlinks`, { token: t.viewer.token })).body.items).toEqual([])
  })

  it("every page read answers 404 to those who may not see the page; backlinks hide pages the caller cannot see", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Seen", markdown: "x" })
    const secret = await createPage(atrium, t.member.token, space.id, { title: "Secret", markdown: `[link](/wiki/pages/${page.id})` })
    await atrium.request("PUT", `/wiki/v1/pages/${secret.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    for (const suffix of [
      "",
      "/children",
      "/breadcrumbs",
      "/content",
      "/editors",
      "/info",
      "/backlinks",
      "/versions",
      "/comments",
      "/attachments",
      "/permissions"
    ]) {
      expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}${suffix}`, { token: t.outsider.token })).status, suffix).toBe(404)
      expect((await atrium.request("GET", `/wiki/v1/pages/${secret.id}${suffix}`, { token: t.viewer.token })).status, suffix).toBe(404)
    }
    expect(
      (await atrium.request("GET", `/wiki/v1/pages/${page.id}/backlinks`, { token: t.member.token })).body.items.map(
        (p: { id: string }) => p.id
      )
    ).toEqual([secret.id])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/backlinks`, { token: t.viewer.token })).body.items).toEqual([])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/info`, { token: t.viewer.token })).body.backlinkCount).toBe(0)
  })

  it("API keys: read with wiki:read, write with wiki:write; other workspaces' pages are invisible", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Keyed", markdown: "x" })
    const reader = await apiKey(atrium, t.member, t.workspaceId, ["wiki:read"])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, { apiKey: reader, body: { title: "No" } })).status).toBe(403)
    const writer = await apiKey(atrium, t.member, t.workspaceId, ["wiki:write"])
    const created = await atrium.request("POST", `/wiki/v1/spaces/${space.id}/pages`, {
      apiKey: writer,
      body: { title: "By key", markdown: "hi" }
    })
    expect(created.status).toBe(201)
    const other = await atrium.request("POST", "/pm/v1/workspaces", { token: t.member.token, body: { name: "Mine" } })
    const foreignKey = await apiKey(atrium, t.member, other.body.id, ["wiki:read"])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { apiKey: foreignKey })).status).toBe(404)
  })
})
