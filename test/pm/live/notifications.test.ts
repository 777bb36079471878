/** pm "Notifications": the caller's notifications (created by the ChangeLog), counts, read status, API-key limits. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { addMember, createWorkspace, emit, type LiveAtrium, seedList, seedSpace, seedTask, startLiveAtrium, taskChange } from "./support.ts"

let atrium: LiveAtrium
beforeAll(async () => {
  atrium = await startLiveAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const setup = async () => {
  const owner = await signUp(atrium, "Owner")
  const bob = await signUp(atrium, "Bob")
  const first = await createWorkspace(atrium, owner.token, "First")
  const second = await createWorkspace(atrium, owner.token, "Second")
  await addMember(atrium, owner.token, first, bob.email)
  await addMember(atrium, owner.token, second, bob.email)
  const places = await Promise.all(
    [first, second].map(async (workspaceId) => {
      const spaceId = await seedSpace(atrium, workspaceId, owner.userId)
      const listId = await seedList(atrium, workspaceId, spaceId, owner.userId)
      return { workspaceId, where: { spaceId, listId, taskId: await seedTask(atrium, workspaceId, spaceId, listId, owner.userId) } }
    })
  )
  const notify = (index: 0 | 1, reason: "assigned" | "mentioned" | "commented", title: string) =>
    emit(atrium, [
      { ...taskChange(places[index]!.workspaceId, places[index]!.where, owner.userId), notify: [{ userId: bob.userId, reason, title }] }
    ])
  await notify(0, "assigned", "Owner assigned you")
  await notify(0, "mentioned", "Owner mentioned you")
  await notify(1, "commented", "Owner commented")
  return { owner, bob, first, second, notify }
}

const list = (token: string, query = "") => atrium.request("GET", `/pm/v1/notifications${query}`, { token })

describe("notifications", () => {
  it("lists the caller's notifications newest first, with filters and cursor paging", async () => {
    const { owner, bob, first, second } = await setup()
    const all = await list(bob.token)
    expect(all.status).toBe(200)
    expect(all.body.items.map((n: { title: string }) => n.title)).toEqual(["Owner commented", "Owner mentioned you", "Owner assigned you"])
    expect(all.body.items[2]).toMatchObject({
      workspaceId: first,
      reason: "assigned",
      read: false,
      readAt: null,
      actorId: owner.userId,
      event: { seq: 1, type: "task.updated", scope: "task" }
    })
    expect(all.body.nextCursor).toBeNull()
    expect((await list(owner.token)).body.items).toEqual([])
    const inFirst = await list(bob.token, `?workspaceId=${first}`)
    expect(inFirst.body.items.map((n: { workspaceId: string }) => n.workspaceId)).toEqual([first, first])
    expect((await list(bob.token, "?reason=commented")).body.items.map((n: { workspaceId: string }) => n.workspaceId)).toEqual([second])
    const page1 = await list(bob.token, "?limit=2")
    expect(page1.body.items.length).toBe(2)
    const page2 = await list(bob.token, `?limit=2&cursor=${page1.body.nextCursor}`)
    expect(page2.body.items.map((n: { title: string }) => n.title)).toEqual(["Owner assigned you"])
    expect(page2.body.nextCursor).toBeNull()
    const badCursor = await list(bob.token, "?cursor=bm9wZQ")
    expect(badCursor.status).toBe(400)
    expect(badCursor.body.error.details[0].path).toBe("query.cursor")
    expect((await list(bob.token, "?limit=0")).status).toBe(400)
    const stranger = await signUp(atrium, "Stranger")
    expect((await list(stranger.token, `?workspaceId=${first}`)).status).toBe(404)
  })

  it("counts, marks one read or unread, and marks all read", async () => {
    const { bob, owner, first, second } = await setup()
    const counts = await atrium.request("GET", "/pm/v1/notifications/counts", { token: bob.token })
    expect(counts.body).toMatchObject({ total: 3, unread: 3 })
    expect(counts.body.byWorkspace).toEqual(
      expect.arrayContaining([
        { workspaceId: first, total: 2, unread: 2 },
        { workspaceId: second, total: 1, unread: 1 }
      ])
    )
    const [newest] = (await list(bob.token)).body.items
    const read = await atrium.request("PATCH", `/pm/v1/notifications/${newest.id}`, { token: bob.token, body: { read: true } })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ id: newest.id, read: true, readAt: expect.any(String) })
    expect((await list(bob.token, "?unread=true")).body.items.length).toBe(2)
    const unread = await atrium.request("PATCH", `/pm/v1/notifications/${newest.id}`, { token: bob.token, body: { read: false } })
    expect(unread.body).toMatchObject({ read: false, readAt: null })
    // Someone else's notification, or none at all: 404.
    expect((await atrium.request("PATCH", `/pm/v1/notifications/${newest.id}`, { token: owner.token, body: { read: true } })).status).toBe(
      404
    )
    expect(
      (await atrium.request("PATCH", `/pm/v1/notifications/${crypto.randomUUID()}`, { token: bob.token, body: { read: true } })).status
    ).toBe(404)
    expect((await atrium.request("PATCH", `/pm/v1/notifications/${newest.id}`, { token: bob.token, body: { read: "yes" } })).status).toBe(
      400
    )
    const marked = await atrium.request("POST", "/pm/v1/notifications/read-all", { token: bob.token, body: { workspaceId: first } })
    expect(marked.body).toEqual({ updated: 2 })
    const after = await atrium.request("GET", `/pm/v1/notifications/counts?workspaceId=${first}`, { token: bob.token })
    expect(after.body).toMatchObject({ total: 2, unread: 0 })
    const rest = await atrium.request("POST", "/pm/v1/notifications/read-all", {
      token: bob.token,
      body: { before: "2000-01-01T00:00:00Z" }
    })
    expect(rest.body).toEqual({ updated: 0 })
    expect((await atrium.request("POST", "/pm/v1/notifications/read-all", { token: bob.token, body: {} })).body).toEqual({ updated: 1 })
    expect(
      (await atrium.request("POST", "/pm/v1/notifications/read-all", { token: bob.token, body: { before: "yesterday" } })).status
    ).toBe(400)
  })

  it("limits API keys to their workspace and scopes; former members lose that workspace's notifications", async () => {
    const { owner, bob, first, second } = await setup()
    const mint = async (scopes: Array<string>) =>
      (await atrium.request("POST", "/hub/v1/api-keys", { token: bob.token, body: { workspaceId: first, name: "bot", scopes } })).body
        .key as string
    const reader = await mint(["notifications:read"])
    const viaKey = await atrium.request("GET", "/pm/v1/notifications", { apiKey: reader })
    expect(viaKey.body.items.map((n: { workspaceId: string }) => n.workspaceId)).toEqual([first, first])
    expect((await atrium.request("GET", `/pm/v1/notifications?workspaceId=${second}`, { apiKey: reader })).status).toBe(404)
    expect((await atrium.request("POST", "/pm/v1/notifications/read-all", { apiKey: reader, body: {} })).status).toBe(403)
    const writer = await mint(["notifications:write"])
    expect((await atrium.request("POST", "/pm/v1/notifications/read-all", { apiKey: writer, body: {} })).body).toEqual({ updated: 2 })
    expect((await atrium.request("GET", "/pm/v1/notifications/counts", { apiKey: writer })).status).toBe(403)
    expect((await atrium.request("DELETE", `/hub/v1/workspaces/${second}/members/${bob.userId}`, { token: owner.token })).status).toBe(204)
    expect((await list(bob.token)).body.items.every((n: { workspaceId: string }) => n.workspaceId === first)).toBe(true)
  })
})
