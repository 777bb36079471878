/** pm "Activity Log": queries and statistics over the event log, with the same visibility as the live streams. */
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

/** A workspace with history: 3 task updates and a comment by the owner, 2 by Bob, a list change, and a change in a private space. */
const setup = async () => {
  const owner = await signUp(atrium, "Owner")
  const bob = await signUp(atrium, "Bob")
  const workspaceId = await createWorkspace(atrium, owner.token)
  await addMember(atrium, owner.token, workspaceId, bob.email)
  const spaceId = await seedSpace(atrium, workspaceId, owner.userId)
  const listId = await seedList(atrium, workspaceId, spaceId, owner.userId)
  const taskId = await seedTask(atrium, workspaceId, spaceId, listId, owner.userId)
  const otherTask = await seedTask(atrium, workspaceId, spaceId, listId, owner.userId)
  const secretSpace = await seedSpace(atrium, workspaceId, owner.userId, { isPrivate: true })
  const secretList = await seedList(atrium, workspaceId, secretSpace, owner.userId)
  const secretTask = await seedTask(atrium, workspaceId, secretSpace, secretList, owner.userId)
  const where = { spaceId, listId, taskId }
  for (let i = 1; i <= 3; i++) await emit(atrium, [taskChange(workspaceId, where, owner.userId, { i })])
  await emit(atrium, [taskChange(workspaceId, where, owner.userId, { text: "Looks good" }, "comment.created")])
  await emit(atrium, [taskChange(workspaceId, { ...where, taskId: otherTask }, bob.userId, { status: "done" }, "status.changed")])
  await emit(atrium, [taskChange(workspaceId, { ...where, taskId: otherTask }, bob.userId, { name: "Renamed" })])
  await emit(atrium, [
    { workspaceId, scope: "list", entityId: listId, path: { spaceId }, type: "list.updated", data: { name: "L" }, actorId: owner.userId }
  ])
  await emit(atrium, [
    taskChange(workspaceId, { spaceId: secretSpace, listId: secretList, taskId: secretTask }, owner.userId, { secret: true })
  ])
  return { owner, bob, workspaceId, where, otherTask, secretSpace, secretTask }
}

const get = (token: string, path: string) => atrium.request("GET", `/pm/v1${path}`, { token })
const seqs = (body: { items: Array<{ seq: number }> }) => body.items.map((e) => e.seq)

describe("activity queries", () => {
  it("lists a workspace's activity newest first, with type, user and time filters and paging", async () => {
    const { owner, bob, workspaceId } = await setup()
    const all = await get(owner.token, `/workspaces/${workspaceId}/activity`)
    expect(all.status).toBe(200)
    expect(seqs(all.body)).toEqual([8, 7, 6, 5, 4, 3, 2, 1])
    expect(all.body.items[7]).toMatchObject({ seq: 1, type: "task.updated", data: { i: 1 }, actor: { id: owner.userId, name: "Owner" } })
    // Bob is not in the private space: its event is not shown to him.
    expect(seqs((await get(bob.token, `/workspaces/${workspaceId}/activity`)).body)).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(seqs((await get(owner.token, `/workspaces/${workspaceId}/activity?type=comment,status`)).body)).toEqual([5, 4])
    expect(seqs((await get(owner.token, `/workspaces/${workspaceId}/activity?type=task.updated&actorId=${bob.userId}`)).body)).toEqual([6])
    const page1 = await get(owner.token, `/workspaces/${workspaceId}/activity?limit=3`)
    expect(seqs(page1.body)).toEqual([8, 7, 6])
    const page2 = await get(owner.token, `/workspaces/${workspaceId}/activity?limit=3&before=${page1.body.nextBefore}`)
    expect(seqs(page2.body)).toEqual([5, 4, 3])
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity?from=2000-01-01&to=2000-01-02`)).body.items).toEqual([])
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity?from=2000-01-01`)).body.items.length).toBe(8)
    const badDate = await get(owner.token, `/workspaces/${workspaceId}/activity?from=2026-02-31`)
    expect(badDate.status).toBe(400)
    expect(badDate.body.error.details[0].path).toBe("query.from")
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity?type=a,,b`)).status).toBe(400)
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity?from=2026-01-02&to=2026-01-01`)).status).toBe(400)
  })

  it("narrows to a space, a list, a task, a user, or the caller; hides what the caller may not see", async () => {
    const { owner, bob, workspaceId, where, otherTask, secretSpace, secretTask } = await setup()
    expect(seqs((await get(bob.token, `/spaces/${where.spaceId}/activity`)).body)).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(seqs((await get(bob.token, `/lists/${where.listId}/activity`)).body)).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(seqs((await get(bob.token, `/tasks/${otherTask}/activity`)).body)).toEqual([6, 5])
    expect(seqs((await get(owner.token, `/workspaces/${workspaceId}/users/${bob.userId}/activity`)).body)).toEqual([6, 5])
    expect(seqs((await get(bob.token, `/workspaces/${workspaceId}/activity/mine`)).body)).toEqual([6, 5])
    expect(seqs((await get(owner.token, `/spaces/${secretSpace}/activity`)).body)).toEqual([8])
    expect((await get(bob.token, `/spaces/${secretSpace}/activity`)).status).toBe(404)
    expect((await get(bob.token, `/tasks/${secretTask}/activity`)).status).toBe(404)
    const stranger = await signUp(atrium, "Stranger")
    for (const path of [
      `/workspaces/${workspaceId}/activity`,
      `/spaces/${where.spaceId}/activity`,
      `/lists/${where.listId}/activity`,
      `/tasks/${where.taskId}/activity`
    ]) {
      expect((await get(stranger.token, path)).status, path).toBe(404)
    }
    expect((await get(owner.token, `/tasks/${crypto.randomUUID()}/activity`)).status).toBe(404)
  })

  it("gets one event by seq", async () => {
    const { owner, bob, workspaceId } = await setup()
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity/4`)).body).toMatchObject({
      seq: 4,
      type: "comment.created",
      data: { text: "Looks good" }
    })
    expect((await get(bob.token, `/workspaces/${workspaceId}/activity/8`)).status).toBe(404)
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity/99`)).status).toBe(404)
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity/zero`)).status).toBe(400)
  })
})

describe("activity statistics", () => {
  it("summarizes and counts per day, type, user, space and task", async () => {
    const { owner, bob, workspaceId, where, otherTask } = await setup()
    const summary = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/summary`)
    expect(summary.body).toMatchObject({
      total: 8,
      actors: 2,
      firstSeq: 1,
      lastSeq: 8,
      byScope: { workspace: 0, space: 0, list: 1, task: 7 }
    })
    expect((await get(bob.token, `/workspaces/${workspaceId}/activity/stats/summary`)).body.total).toBe(7)

    const today = new Date().toISOString().slice(0, 10)
    const daily = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/daily?timezone=UTC`)
    expect(daily.body.timezone).toBe("UTC")
    expect(daily.body.items.length).toBeGreaterThanOrEqual(30)
    expect(daily.body.items.find((d: { date: string }) => d.date === today)?.count).toBe(8)
    expect(daily.body.items.reduce((sum: number, d: { count: number }) => sum + d.count, 0)).toBe(8)
    const fixed = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/daily?from=2026-01-01&to=2026-01-04`)
    expect(fixed.body.items).toEqual([
      { date: "2026-01-01", count: 0 },
      { date: "2026-01-02", count: 0 },
      { date: "2026-01-03", count: 0 }
    ])
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity/stats/daily?timezone=Mars/Olympus`)).status).toBe(400)
    expect((await get(owner.token, `/workspaces/${workspaceId}/activity/stats/daily?from=2020-01-01&to=2026-01-01`)).status).toBe(400)

    const types = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/types`)
    expect(types.body.items.map((t: { type: string; count: number }) => [t.type, t.count])).toEqual([
      ["task.updated", 5],
      ["comment.created", 1],
      ["list.updated", 1],
      ["status.changed", 1]
    ])
    const users = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/users`)
    expect(users.body.items.map((u: { name: string; count: number }) => [u.name, u.count])).toEqual([
      ["Owner", 6],
      ["Bob", 2]
    ])
    const spaces = await get(bob.token, `/workspaces/${workspaceId}/activity/stats/spaces`)
    expect(spaces.body.items).toEqual([{ spaceId: where.spaceId, name: "Space", count: 7, lastAt: expect.any(String) }])
    const tasks = await get(owner.token, `/workspaces/${workspaceId}/activity/stats/tasks?limit=2`)
    expect(tasks.body.items.map((t: { taskId: string; count: number }) => [t.taskId, t.count])).toEqual([
      [where.taskId, 4],
      [otherTask, 2]
    ])
    expect(tasks.body.items[0]).toMatchObject({ name: "Task", shortId: expect.stringMatching(/^T-/) })
  })

  it("exports CSV, quoting and neutralizing cells", async () => {
    const { owner, workspaceId } = await setup()
    await emit(atrium, [
      {
        workspaceId,
        scope: "workspace",
        entityId: workspaceId,
        path: {},
        type: "workspace.updated",
        data: { name: '=HYPERLINK("x")' },
        actorId: owner.userId
      }
    ])
    const csv = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/activity/export?type=workspace,comment`, {
      token: owner.token
    })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
    expect(csv.headers.get("content-disposition")).toContain("attachment")
    const lines = csv.text.trim().split("\n")
    expect(lines[0]).toBe("seq,at,type,scope,entityId,spaceId,listId,taskId,actorId,actorName,data")
    expect(lines.length).toBe(3)
    expect(lines[1]).toMatch(/^4,.*,comment\.created,task,.*,Owner,"{""text"":""Looks good""}"$/)
    expect(lines[2]).toContain(`"{""name"":""=HYPERLINK(\\""x\\"")""}"`)
    const key = (
      await atrium.request("POST", "/hub/v1/api-keys", { token: owner.token, body: { workspaceId, name: "bi", scopes: ["tasks:read"] } })
    ).body.key as string
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/activity/stats/summary`, { apiKey: key })).body.total).toBe(9)
  })
})
