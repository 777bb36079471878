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

const spaceRole = async (token: string, spaceId: string) => {
  const got = await atrium.request("GET", `/wiki/v1/spaces/${spaceId}`, { token })
  return got.status === 200 ? got.body.role : got.status
}
const pageAccess = async (token: string, pageId: string) => {
  const got = await atrium.request("GET", `/wiki/v1/pages/${pageId}`, { token })
  return got.status === 200 ? got.body.access : got.status
}

describe("Wiki Space Permissions", () => {
  it("lists the baseline and entries; user entries win over role entries, which win over the baseline", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const listed = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/permissions`, { token: t.viewer.token })
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({
      visibility: "workspace",
      baseline: { admin: "admin", member: "editor", viewer: "viewer" },
      yourRole: "viewer"
    })
    // The creator's own entry.
    expect(listed.body.entries).toEqual([expect.objectContaining({ userId: t.owner.userId, role: "admin", email: t.owner.email })])

    // Members read-only here, except one named member who administers the space.
    const byRole = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { workspaceRole: "member", role: "viewer" }
    })
    expect(byRole.status, byRole.text).toBe(200)
    expect(byRole.body).toMatchObject({ workspaceRole: "member", role: "viewer", userId: null })
    expect(await spaceRole(t.member.token, space.id)).toBe("viewer")
    expect(
      (await atrium.request("POST", `/wiki/v1/spaces/${space.id}/pages`, { token: t.member.token, body: { title: "x" } })).status
    ).toBe(403)
    const byEmail = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { email: t.member.email, role: "admin" }
    })
    expect(byEmail.body).toMatchObject({ userId: t.member.userId, role: "admin", name: "Member" })
    expect(await spaceRole(t.member.token, space.id)).toBe("admin")
    // Upserting the same subject changes its entry.
    const again = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { userId: t.member.userId, role: "editor" }
    })
    expect(again.body.id).toBe(byEmail.body.id)
    expect(await spaceRole(t.member.token, space.id)).toBe("editor")
    // Removing the entry falls back to the role entry.
    expect(
      (await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}/permissions/${byEmail.body.id}`, { token: t.owner.token })).status
    ).toBe(204)
    expect(await spaceRole(t.member.token, space.id)).toBe("viewer")
    expect(
      (await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}/permissions/${byEmail.body.id}`, { token: t.owner.token })).status
    ).toBe(404)
    // Workspace admins stay space admins whatever the entries say.
    await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { workspaceRole: "admin", role: "viewer" }
    })
    expect(await spaceRole(t.admin.token, space.id)).toBe("admin")
  })

  it("restricted spaces admit only listed users and roles", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId, { visibility: "restricted" })
    expect(await spaceRole(t.member.token, space.id)).toBe(404)
    const listed = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/permissions`, { token: t.owner.token })
    expect(listed.body.baseline).toBeNull()
    await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { userId: t.member.userId, role: "editor" }
    })
    expect(await spaceRole(t.member.token, space.id)).toBe("editor")
    expect(await spaceRole(t.viewer.token, space.id)).toBe(404)
    await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { workspaceRole: "viewer", role: "viewer" }
    })
    expect(await spaceRole(t.viewer.token, space.id)).toBe("viewer")
  })

  it("only space admins change permissions; bad subjects are named", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const url = `/wiki/v1/spaces/${space.id}/permissions`
    expect((await atrium.request("PUT", url, { token: t.member.token, body: { userId: t.viewer.userId, role: "editor" } })).status).toBe(
      403
    )
    expect((await atrium.request("GET", url, { token: t.outsider.token })).status).toBe(404)
    const none = await atrium.request("PUT", url, { token: t.owner.token, body: { role: "editor" } })
    expect(none.status).toBe(400)
    const two = await atrium.request("PUT", url, {
      token: t.owner.token,
      body: { userId: t.viewer.userId, workspaceRole: "member", role: "editor" }
    })
    expect(two.body.error.details[0].path).toBe("body.workspaceRole")
    const stranger = await atrium.request("PUT", url, { token: t.owner.token, body: { userId: t.outsider.userId, role: "editor" } })
    expect(stranger.status).toBe(400)
    expect(stranger.body.error.details[0].path).toBe("body.userId")
    const strangerMail = await atrium.request("PUT", url, { token: t.owner.token, body: { email: t.outsider.email, role: "editor" } })
    expect(strangerMail.body.error.details[0].path).toBe("body.email")
    const nobody = await atrium.request("PUT", url, { token: t.owner.token, body: { email: "ghost@example.com", role: "editor" } })
    expect(nobody.body.error.details[0].path).toBe("body.email")
    expect((await atrium.request("PUT", url, { token: t.owner.token, body: { userId: t.viewer.userId, role: "god" } })).status).toBe(400)
    // API keys need wiki:admin for permission changes.
    const writer = await apiKey(atrium, t.owner, t.workspaceId, ["wiki:read", "wiki:write"])
    expect((await atrium.request("PUT", url, { apiKey: writer, body: { userId: t.viewer.userId, role: "editor" } })).status).toBe(403)
    const admin = await apiKey(atrium, t.owner, t.workspaceId, ["wiki:admin"])
    expect((await atrium.request("PUT", url, { apiKey: admin, body: { userId: t.viewer.userId, role: "editor" } })).status).toBe(200)
  })
})

describe("Wiki Page Permissions", () => {
  it("edit restrictions: everyone reads, only listed users and roles edit; they hold for the subtree", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Policy" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Detail", parentPageId: page.id })
    const restricted = await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, {
      token: t.member.token,
      body: { restriction: "edit" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    // The member restricted it and keeps editing.
    expect(restricted.body).toMatchObject({
      restriction: "edit",
      yourAccess: "edit",
      entries: [expect.objectContaining({ userId: t.member.userId, access: "edit" })]
    })
    const second = await signUpMember("Second", "member")
    expect(await pageAccess(second.token, page.id)).toBe("read")
    expect(await pageAccess(second.token, child.id)).toBe("read")
    const inherited = await atrium.request("GET", `/wiki/v1/pages/${child.id}/permissions`, { token: second.token })
    expect(inherited.body).toMatchObject({
      restriction: "open",
      inherited: [{ pageId: page.id, title: "Policy", restriction: "edit" }],
      yourAccess: "read"
    })
    expect((await atrium.request("PATCH", `/wiki/v1/pages/${child.id}`, { token: second.token, body: { title: "No" } })).status).toBe(403)
    // Listing every member with edit.
    const entry = await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.member.token,
      body: { workspaceRole: "member", access: "edit" }
    })
    expect(entry.status, entry.text).toBe(201)
    expect(await pageAccess(second.token, child.id)).toBe("edit")
    // A viewer listed with edit still only reads (entries never exceed the space role).
    await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.member.token,
      body: { userId: t.viewer.userId, access: "edit" }
    })
    expect(await pageAccess(t.viewer.token, page.id)).toBe("read")
    expect(
      (await atrium.request("DELETE", `/wiki/v1/pages/${page.id}/permissions/entries/${entry.body.id}`, { token: t.member.token })).status
    ).toBe(204)
    expect(await pageAccess(second.token, child.id)).toBe("read")
    // Opening the page drops its entries.
    const opened = await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, {
      token: t.member.token,
      body: { restriction: "open" }
    })
    expect(opened.body).toMatchObject({ restriction: "open", entries: [] })
    expect(await pageAccess(second.token, child.id)).toBe("edit")
  })

  it("view restrictions hide the page and its subtree from everyone unlisted (404), space admins excepted", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Salaries" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "2026", parentPageId: page.id })
    await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    expect(await pageAccess(t.member.token, child.id)).toBe("edit")
    expect(await pageAccess(t.viewer.token, page.id)).toBe(404)
    expect(await pageAccess(t.viewer.token, child.id)).toBe(404)
    expect(await pageAccess(t.admin.token, child.id)).toBe("edit")
    const tree = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/tree`, { token: t.viewer.token })
    expect(tree.body.items).toEqual([])
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/permissions`, { token: t.viewer.token })).status).toBe(404)
    await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.member.token,
      body: { email: t.viewer.email, access: "view" }
    })
    expect(await pageAccess(t.viewer.token, child.id)).toBe("read")
  })

  it("only editors change restrictions; entries need a restricted page and a workspace member", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Open" })
    expect(
      (await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.viewer.token, body: { restriction: "view" } }))
        .status
    ).toBe(403)
    expect(
      (await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.member.token, body: { restriction: "secret" } }))
        .status
    ).toBe(400)
    const onOpen = await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.member.token,
      body: { userId: t.viewer.userId, access: "view" }
    })
    expect(onOpen.status).toBe(409)
    await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    const stranger = await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.member.token,
      body: { userId: t.outsider.userId, access: "view" }
    })
    expect(stranger.status).toBe(400)
    expect(stranger.body.error.details[0].path).toBe("body.userId")
    expect(
      (
        await atrium.request("DELETE", `/wiki/v1/pages/${page.id}/permissions/entries/00000000-0000-4000-8000-000000000000`, {
          token: t.member.token
        })
      ).status
    ).toBe(404)
  })
})

describe("the collab endpoint honours wiki permissions", () => {
  it("editors edit, readers only read, others are refused", async () => {
    const url = atrium.origin.replace("http", "ws") + "/wiki/v1/collab"
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Shared", markdown: "base" })
    const editor = connectEditor(url, page.id, t.member.token)
    const reader = connectEditor(url, page.id, t.viewer.token)
    const outsider = connectEditor(url, page.id, t.outsider.token)
    try {
      await synced(editor)
      await synced(reader)
      expect(editor.provider.authorizedScope).toBe("read-write")
      expect(reader.provider.authorizedScope).toBe("readonly")
      typeText(editor, " edited")
      await eventually(() => reader.text() === "base edited", "the reader sees the edit")
      // The reader's own edits are refused: the document is untouched.
      typeText(reader, " vandalized")
      typeText(editor, "!")
      await eventually(() => editor.text() === "base edited!", "editor's text")
      await eventually(
        async () => (await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.member.token })).body.text === "base edited!",
        "stored text"
      )
      await eventually(() => outsider.authFailures.length > 0 || outsider.closes.some((c) => c.code === 4403), "the outsider is refused")
      expect(outsider.provider.isSynced).toBe(false)
    } finally {
      await Promise.all([editor, reader, outsider].map(closeEditor))
    }
    // A view restriction locks the viewer out of the live document too; an archived page is read-only.
    await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    const locked = connectEditor(url, page.id, t.viewer.token)
    try {
      await eventually(() => locked.authFailures.length > 0 || locked.closes.some((c) => c.code === 4403), "the viewer is refused")
    } finally {
      await closeEditor(locked)
    }
    // An archived page's document is read-only, even for its editors.
    await atrium.request("POST", `/wiki/v1/pages/${page.id}/archive`, { token: t.member.token })
    const archived = connectEditor(url, page.id, t.member.token)
    try {
      await synced(archived)
      expect(archived.provider.authorizedScope).toBe("readonly")
    } finally {
      await closeEditor(archived)
    }
    await atrium.request("POST", `/wiki/v1/pages/${page.id}/restore`, { token: t.member.token })
    // An API key with wiki:read only reads.
    const key = await apiKey(atrium, t.member, t.workspaceId, ["wiki:read"])
    const keyed = connectEditor(url, page.id, key)
    try {
      await synced(keyed)
      expect(keyed.provider.authorizedScope).toBe("readonly")
      typeText(keyed, " by key")
      await eventually(() => keyed.provider.unsyncedChanges > 0, "the key's change is not applied")
      const stored = await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.member.token })
      expect(stored.body.text).toBe("base edited!")
    } finally {
      await closeEditor(keyed)
    }
  })
})

let extra = 0
const signUpMember = async (name: string, role: "member" | "viewer") => {
  const { signUp } = await import("../../support/atrium.ts")
  const user = await signUp(atrium, `${name}${++extra}`)
  const added = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/members`, {
    token: t.owner.token,
    body: { email: user.email, role }
  })
  expect(added.status).toBe(201)
  return user
}
