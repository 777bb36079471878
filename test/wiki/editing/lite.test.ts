import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { apiKey, createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

describe("Wiki Pages (Lite)", () => {
  it("outlines, reads, creates, rewrites and appends by space key and slug or title", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const key = space.key.toLowerCase()
    const base = `/wiki/v1/lite/spaces/${key}/pages`
    const created = await atrium.request("POST", base, { token: t.member.token, body: { title: "Onboarding", markdown: "# Welcome" } })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      spaceKey: space.key,
      slug: "onboarding",
      title: "Onboarding",
      parentSlug: null,
      path: ["Onboarding"],
      access: "edit"
    })
    expect(created.body.markdown).toContain("# Welcome")
    const child = await atrium.request("POST", base, {
      token: t.member.token,
      body: { title: "Laptop setup", parent: "onboarding", markdown: "1. VPN" }
    })
    expect(child.body).toMatchObject({ slug: "laptop-setup", parentSlug: "onboarding", path: ["Onboarding", "Laptop setup"] })
    // Parent by title, case-insensitive.
    const grandchild = await atrium.request("POST", base, { token: t.member.token, body: { title: "Mac", parent: "LAPTOP SETUP" } })
    expect(grandchild.body.parentSlug).toBe("laptop-setup")

    const outline = await atrium.request("GET", base, { token: t.viewer.token })
    expect(outline.status).toBe(200)
    expect(outline.body.space).toMatchObject({ key: space.key, workspaceId: t.workspaceId })
    expect(outline.body.items.map((i: { slug: string; depth: number }) => [i.slug, i.depth])).toEqual([
      ["onboarding", 0],
      ["laptop-setup", 1],
      ["mac", 2]
    ])

    const bySlug = await atrium.request("GET", `${base}/onboarding`, { token: t.viewer.token })
    expect(bySlug.body).toMatchObject({ slug: "onboarding", childSlugs: ["laptop-setup"], access: "read" })
    const byTitle = await atrium.request("GET", `${base}/${encodeURIComponent("Laptop Setup")}`, { token: t.viewer.token })
    expect(byTitle.body.markdown).toContain("VPN")

    const rewritten = await atrium.request("PATCH", `${base}/laptop-setup`, {
      token: t.member.token,
      body: { title: "Laptop", markdown: "1. VPN\n2. Repo" }
    })
    expect(rewritten.status, rewritten.text).toBe(200)
    expect(rewritten.body).toMatchObject({ slug: "laptop", title: "Laptop" })
    expect(rewritten.body.markdown).toContain("2. Repo")
    const appended = await atrium.request("POST", `${base}/laptop/append`, {
      token: t.member.token,
      body: { markdown: "## Help\n\nAsk IT." }
    })
    expect(appended.status, appended.text).toBe(200)
    expect(appended.body.markdown).toMatch(/2\. Repo[\s\S]*## Help[\s\S]*Ask IT\./)
    // The UUID API sees the same page.
    const full = await atrium.request("GET", `/wiki/v1/pages/${appended.body.id}`, { token: t.member.token })
    expect(full.body.text).toContain("Ask IT.")
  })

  it("refuses viewers' writes, unknown pages, ambiguous titles and bad input", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const base = `/wiki/v1/lite/spaces/${space.key}/pages`
    await createPage(atrium, t.member.token, space.id, { title: "Twin" })
    await createPage(atrium, t.member.token, space.id, { title: "Twin" })
    expect((await atrium.request("POST", base, { token: t.viewer.token, body: { title: "X" } })).status).toBe(403)
    expect((await atrium.request("PATCH", `${base}/twin`, { token: t.viewer.token, body: { title: "X" } })).status).toBe(403)
    expect((await atrium.request("POST", `${base}/twin/append`, { token: t.viewer.token, body: { markdown: "x" } })).status).toBe(403)
    const missing = await atrium.request("GET", `${base}/nothing-here`, { token: t.viewer.token })
    expect(missing.status).toBe(404)
    expect(missing.body.error.details[0].path).toBe("path.pageRef")
    // Two pages titled "Q&A": the title is ambiguous, the slugs are not; a slug wins over a title.
    await createPage(atrium, t.member.token, space.id, { title: "Q&A" })
    await createPage(atrium, t.member.token, space.id, { title: "q&a" })
    const ambiguous = await atrium.request("GET", `${base}/${encodeURIComponent("Q&A")}`, { token: t.member.token })
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.body.error.message).toContain("q-a-2")
    expect((await atrium.request("GET", `${base}/q-a-2`, { token: t.member.token })).body.title).toBe("q&a")
    expect((await atrium.request("GET", `${base}/${encodeURIComponent("Twin ")}`, { token: t.member.token })).body.slug).toBe("twin")
    const badParent = await atrium.request("POST", base, { token: t.member.token, body: { title: "X", parent: "ghost" } })
    expect(badParent.status).toBe(404)
    expect(badParent.body.error.details[0].path).toBe("body.parent")
    expect((await atrium.request("POST", `${base}/twin/append`, { token: t.member.token, body: { markdown: "   " } })).status).toBe(400)
    expect((await atrium.request("GET", `/wiki/v1/lite/spaces/NOPE99/pages`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", base, { token: t.outsider.token })).status).toBe(404)
  })

  it("resolves a key across the user's workspaces, asking for workspaceId only when ambiguous; API keys know theirs", async () => {
    const solo = await createSpace(atrium, t.owner.token, t.workspaceId)
    expect((await atrium.request("GET", `/wiki/v1/lite/spaces/${solo.key}/pages`, { token: t.owner.token })).status).toBe(200)
    const second = await atrium.request("POST", "/pm/v1/workspaces", { token: t.owner.token, body: { name: "Second" } })
    await createSpace(atrium, t.owner.token, second.body.id, { key: solo.key })
    const ambiguous = await atrium.request("GET", `/wiki/v1/lite/spaces/${solo.key}/pages`, { token: t.owner.token })
    expect(ambiguous.status).toBe(400)
    expect(ambiguous.body.error.details[0].path).toBe("query.workspaceId")
    const scoped = await atrium.request("GET", `/wiki/v1/lite/spaces/${solo.key}/pages?workspaceId=${second.body.id}`, {
      token: t.owner.token
    })
    expect(scoped.body.space.workspaceId).toBe(second.body.id)
    const key = await apiKey(atrium, t.owner, t.workspaceId, ["wiki:read", "wiki:write"])
    const viaKey = await atrium.request("GET", `/wiki/v1/lite/spaces/${solo.key}/pages`, { apiKey: key })
    expect(viaKey.body.space.workspaceId).toBe(t.workspaceId)
    expect(
      (await atrium.request("GET", `/wiki/v1/lite/spaces/${solo.key}/pages?workspaceId=${second.body.id}`, { apiKey: key })).status
    ).toBe(404)
    const written = await atrium.request("POST", `/wiki/v1/lite/spaces/${solo.key}/pages`, {
      apiKey: key,
      body: { title: "From an agent", markdown: "hello" }
    })
    expect(written.status).toBe(201)
  })
})

describe("Wiki Spaces (Lite)", () => {
  it("discovers spaces by key with their home and top-level pages as slugs", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId, { name: "Handbook" })
    const home = await createPage(atrium, t.owner.token, space.id, { title: "Start here" })
    await createPage(atrium, t.owner.token, space.id, { title: "Policies" })
    await createPage(atrium, t.owner.token, space.id, { title: "Leave", parentPageId: home.id })
    await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/home-page`, { token: t.owner.token, body: { pageId: home.id } })
    const secret = await createSpace(atrium, t.owner.token, t.workspaceId, { visibility: "restricted" })

    const all = await atrium.request("GET", `/wiki/v1/lite/spaces?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(all.status).toBe(200)
    const found = all.body.items.find((s: { key: string }) => s.key === space.key)
    expect(found).toMatchObject({
      name: "Handbook",
      role: "viewer",
      canEdit: false,
      pageCount: 3,
      homePage: { slug: "start-here", title: "Start here" },
      topPages: [
        { slug: "start-here", title: "Start here" },
        { slug: "policies", title: "Policies" }
      ]
    })
    expect(all.body.items.map((s: { key: string }) => s.key)).not.toContain(secret.key)
    const one = await atrium.request("GET", `/wiki/v1/lite/spaces?key=${space.key.toLowerCase()}`, { token: t.member.token })
    expect(one.body.items).toHaveLength(1)
    expect(one.body.items[0]).toMatchObject({ key: space.key, role: "editor", canEdit: true })
    expect((await atrium.request("GET", `/wiki/v1/lite/spaces?key=${secret.key}`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/lite/spaces?key=bad%20key`, { token: t.member.token })).status).toBe(400)
    // Without workspaceId: every workspace of the user.
    const everywhere = await atrium.request("GET", "/wiki/v1/lite/spaces", { token: t.viewer.token })
    expect(everywhere.body.items.map((s: { key: string }) => s.key)).toContain(space.key)
    expect((await atrium.request("GET", `/wiki/v1/lite/spaces?workspaceId=${t.workspaceId}`, { token: t.outsider.token })).status).toBe(404)
  })
})
