/**
 * The wiki's page and space actors serve one page's or space's metadata and
 * access checks from memory: what changes them elsewhere (space permissions,
 * a parent's restriction or title, a move, a member leaving the workspace)
 * shows in the very next request, and a warm read runs no SQL.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pageAccess } from "../../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../../actors/wiki/WikiPage.ts"
import { WikiSpace } from "../../../actors/wiki/WikiSpace.ts"
import { Sql } from "../../../persistence/Sql.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { connectEditor, eventually, synced, typeText } from "../../support/collabAtrium.ts"
import { closeEditor, createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const readPage = async (token: string, pageId: string) => {
  const got = await atrium.request("GET", `/wiki/v1/pages/${pageId}`, { token })
  return got.status === 200 ? got.body.access : got.status
}

const joined = async (name: string, role: "member" | "viewer") => {
  const user = await signUp(atrium, name)
  const added = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/members`, {
    token: t.owner.token,
    body: { email: user.email, role }
  })
  expect(added.status, added.text).toBe(201)
  return user
}

/** The statements the server runs while `body` runs (every query goes through the one Sql service). */
const statementsDuring = async (body: () => Promise<unknown>) => {
  const sql = await atrium.run(
    Effect.gen(function* () {
      return yield* Sql
    })
  )
  const original = sql.query
  const seen: Array<string> = []
  const counting: typeof sql.query = (text, params) => {
    seen.push(text)
    return original(text, params)
  }
  ;(sql as { query: typeof sql.query }).query = counting
  try {
    await body()
  } finally {
    ;(sql as { query: typeof sql.query }).query = original
  }
  return seen
}

describe("Wiki read models: changes made elsewhere show in the next request", () => {
  it("a space permission change applies to the next page access check", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId, { visibility: "restricted" })
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Roadmap", markdown: "Q3" })
    const granted = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { userId: t.member.userId, role: "editor" }
    })
    expect(granted.status, granted.text).toBe(200)
    // Warm: the page, its space and the workspace are in memory now.
    expect(await readPage(t.member.token, page.id)).toBe("edit")
    expect(await readPage(t.member.token, page.id)).toBe("edit")
    const demoted = await atrium.request("PUT", `/wiki/v1/spaces/${space.id}/permissions`, {
      token: t.owner.token,
      body: { userId: t.member.userId, role: "viewer" }
    })
    expect(demoted.status).toBe(200)
    expect(await readPage(t.member.token, page.id)).toBe("read")
    const removed = await atrium.request("DELETE", `/wiki/v1/spaces/${space.id}/permissions/${granted.body.id}`, { token: t.owner.token })
    expect(removed.status).toBe(204)
    expect(await readPage(t.member.token, page.id)).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/breadcrumbs`, { token: t.member.token })).status).toBe(404)
  })

  it("a space made restricted hides its pages from the next request", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Handbook" })
    expect(await readPage(t.viewer.token, page.id)).toBe("read")
    const restricted = await atrium.request("PATCH", `/wiki/v1/spaces/${space.id}`, {
      token: t.owner.token,
      body: { visibility: "restricted" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    expect(await readPage(t.viewer.token, page.id)).toBe(404)
  })

  it("a member removed from the workspace gets 404 on the next request for a page", async () => {
    const leaving = await joined("Leaving", "member")
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Team notes" })
    expect(await readPage(leaving.token, page.id)).toBe("edit")
    const gone = await atrium.request("DELETE", `/pm/v1/workspaces/${t.workspaceId}/members/${leaving.userId}`, { token: t.owner.token })
    expect(gone.status, gone.text).toBe(204)
    expect(await readPage(leaving.token, page.id)).toBe(404)
  })

  it("a restriction on a parent applies at once to its warm children and grandchildren", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const parent = await createPage(atrium, t.member.token, space.id, { title: "Salaries" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "2026", parentPageId: parent.id })
    const grandchild = await createPage(atrium, t.member.token, space.id, { title: "Q1", parentPageId: child.id })
    expect(await readPage(t.viewer.token, child.id)).toBe("read")
    expect(await readPage(t.viewer.token, grandchild.id)).toBe("read")
    const restricted = await atrium.request("PUT", `/wiki/v1/pages/${parent.id}/permissions`, {
      token: t.member.token,
      body: { restriction: "view" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    expect(await readPage(t.viewer.token, child.id)).toBe(404)
    expect(await readPage(t.viewer.token, grandchild.id)).toBe(404)
    expect(await readPage(t.member.token, grandchild.id)).toBe("edit")
    // An entry on the parent lets the viewer back in below it, at once.
    const entry = await atrium.request("POST", `/wiki/v1/pages/${parent.id}/permissions/entries`, {
      token: t.member.token,
      body: { userId: t.viewer.userId, access: "view" }
    })
    expect(entry.status, entry.text).toBe(201)
    expect(await readPage(t.viewer.token, grandchild.id)).toBe("read")
    const inherited = await atrium.request("GET", `/wiki/v1/pages/${grandchild.id}/permissions`, { token: t.viewer.token })
    expect(inherited.body.inherited).toEqual([{ pageId: parent.id, title: "Salaries", restriction: "view" }])
    // Renaming the parent shows in the children's breadcrumbs.
    expect((await atrium.request("PATCH", `/wiki/v1/pages/${parent.id}`, { token: t.member.token, body: { title: "Pay" } })).status).toBe(
      200
    )
    const crumbs = await atrium.request("GET", `/wiki/v1/pages/${grandchild.id}/breadcrumbs`, { token: t.viewer.token })
    expect(crumbs.body.items.map((item: { title: string }) => item.title)).toEqual(["Pay", "2026", "Q1"])
  })

  it("a page moved under a restricted page is hidden at once; moved back, it shows again", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const secret = await createPage(atrium, t.member.token, space.id, { title: "Secret" })
    await atrium.request("PUT", `/wiki/v1/pages/${secret.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    const page = await createPage(atrium, t.member.token, space.id, { title: "Plan" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Plan detail", parentPageId: page.id })
    expect(await readPage(t.viewer.token, child.id)).toBe("read")
    const moved = await atrium.request("POST", `/wiki/v1/pages/${page.id}/move`, {
      token: t.member.token,
      body: { parentPageId: secret.id }
    })
    expect(moved.status, moved.text).toBe(200)
    expect(await readPage(t.viewer.token, page.id)).toBe(404)
    expect(await readPage(t.viewer.token, child.id)).toBe(404)
    const back = await atrium.request("POST", `/wiki/v1/pages/${page.id}/move`, { token: t.member.token, body: { parentPageId: null } })
    expect(back.status, back.text).toBe(200)
    expect(await readPage(t.viewer.token, child.id)).toBe("read")
  })

  it("archiving, restoring and deleting a parent show at once on its warm children; so does archiving the space", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const parent = await createPage(atrium, t.member.token, space.id, { title: "Old" })
    const child = await createPage(atrium, t.member.token, space.id, { title: "Older", parentPageId: parent.id })
    const read = async () => (await atrium.request("GET", `/wiki/v1/pages/${child.id}`, { token: t.member.token })).body
    expect(await read()).toMatchObject({ archivedAt: null, access: "edit" })
    expect((await atrium.request("POST", `/wiki/v1/pages/${parent.id}/archive`, { token: t.member.token })).status).toBe(200)
    expect(await read()).toMatchObject({ archivedAt: expect.any(String), access: "read" })
    expect((await atrium.request("POST", `/wiki/v1/pages/${parent.id}/restore`, { token: t.member.token })).status).toBe(200)
    expect(await read()).toMatchObject({ archivedAt: null, access: "edit" })
    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/archive`, { token: t.owner.token })).status).toBe(200)
    expect(await read()).toMatchObject({ access: "read" })
    expect((await atrium.request("POST", `/wiki/v1/spaces/${space.id}/restore`, { token: t.owner.token })).status).toBe(200)
    expect((await atrium.request("DELETE", `/wiki/v1/pages/${parent.id}`, { token: t.member.token })).status).toBe(204)
    expect(await readPage(t.member.token, child.id)).toBe(404)
  })

  it("a page asked for before it existed is found once created", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const pageId = crypto.randomUUID()
    const view = () => atrium.run(ActorSystem.use((system) => system.ask(WikiPage, pageId, "view", {})))
    // Live now, with "no such page".
    expect(await atrium.run(Effect.flip(ActorSystem.use((system) => system.ask(WikiPage, pageId, "view", {}))))).toMatchObject({
      _tag: "WikiPageNotFound"
    })
    await atrium.run(
      ActorSystem.use((system) =>
        system.ask(WikiSpace, space.id, "createPage", {
          by: t.owner.userId,
          pageId,
          parentId: null,
          title: "Late",
          icon: null,
          coverImage: null,
          index: null
        })
      )
    )
    const created = await view()
    expect(created.page).toMatchObject({ id: pageId, title: "Late", spaceId: space.id })
  })
})

describe("Wiki read models: live editing", () => {
  it("a page's metadata follows what editors type (who changed it, when)", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Live", markdown: "first" })
    const before = (await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.viewer.token })).body
    expect(before.updatedBy).toBe(t.owner.userId)
    const editor = connectEditor(atrium.origin.replace("http", "ws") + "/wiki/v1/collab", page.id, t.member.token)
    try {
      await synced(editor)
      typeText(editor, " and more")
      await eventually(async () => {
        const now = (await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.viewer.token })).body
        return now.text === "first and more" && now.updatedBy === t.member.userId && now.updatedAt > before.updatedAt
      }, "the page's metadata shows the live edit")
    } finally {
      await closeEditor(editor)
    }
  })
})

describe("Wiki read models: a warm read runs no SQL", () => {
  it("reads a page's metadata and decides access twice; the second time without a statement", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const parent = await createPage(atrium, t.member.token, space.id, { title: "Guides" })
    await atrium.request("PUT", `/wiki/v1/pages/${parent.id}/permissions`, { token: t.member.token, body: { restriction: "edit" } })
    const page = await createPage(atrium, t.member.token, space.id, { title: "Laptop setup", parentPageId: parent.id })
    const check = () => atrium.run(pageAccess({ userId: t.viewer.userId }, page.id))
    // Cold: as after a change made elsewhere, the page rebuilds from its rows.
    await atrium.run(ActorSystem.use((system) => system.invalidate(WikiPage, page.id)))
    const first = await statementsDuring(check)
    expect(first.some((text) => text.includes("wiki_pages"))).toBe(true)
    let second: Awaited<ReturnType<typeof check>> | undefined
    const again = await statementsDuring(async () => {
      second = await check()
    })
    expect(again).toEqual([])
    expect(second).toMatchObject({
      right: "read",
      page: { id: page.id, title: "Laptop setup" },
      space: { id: space.id },
      ancestors: [{ id: parent.id, restriction: "edit" }]
    })
    // The same through HTTP: breadcrumbs are metadata only; nothing of the wiki is read from the database.
    const crumbs = await statementsDuring(async () => {
      const got = await atrium.request("GET", `/wiki/v1/pages/${page.id}/breadcrumbs`, { token: t.viewer.token })
      expect(got.status).toBe(200)
      expect(got.body.items.map((item: { title: string }) => item.title)).toEqual(["Guides", "Laptop setup"])
    })
    expect(crumbs.filter((text) => /wiki_|actor_state/.test(text))).toEqual([])
  })
})
