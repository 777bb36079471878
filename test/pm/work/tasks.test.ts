/**
 * Tasks, Tags and Relationships: every operation on its happy path, the
 * rules that matter (features, validation, notifications, cycles), the
 * change log, and concurrent edits of one task from 50 clients.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof setupWorkspace>>
let space: any
let list: any
let other: any
/** A second plain member: neither the author of things nor an admin. */
let member2: Awaited<ReturnType<typeof signUp>>
beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await setupWorkspace(atrium)
  member2 = await signUp(atrium, "Member Two")
  expectStatus(
    await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/members`, {
      token: w.owner.token,
      body: { email: member2.email, role: "member" }
    }),
    201
  )
  space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Work" }, w.member.token, 201)
  list = await call("POST", `/spaces/${space.id}/lists`, { name: "Backlog" }, w.member.token, 201)
  other = await call("POST", `/spaces/${space.id}/lists`, { name: "Sprint" }, w.member.token, 201)
})
afterAll(async () => {
  await atrium?.close()
})

async function call(method: string, path: string, body?: unknown, token = w.member.token, status?: number) {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  if (status !== undefined) return expectStatus(response, status)
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}
const fail = async (method: string, path: string, body: unknown, status: number, token = w.member.token) => {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  expect(response.status, response.text).toBe(status)
  return response.body
}
const newTask = (body: Record<string, unknown> = {}, target = list) =>
  call("POST", `/lists/${target.id}/tasks`, { name: "Task", ...body }, w.member.token, 201)
const names = (items: Array<{ name: string }>) => items.map((i) => i.name)

describe("task CRUD", () => {
  it("creates with defaults, assignees by e-mail, and logs task.created with notifications", async () => {
    const task = await newTask({
      name: "Ship it",
      description: "soon",
      assigneeEmails: [w.owner.email],
      priority: "high",
      dueDate: "2026-12-01",
      tags: ["ui"]
    })
    expect(task).toMatchObject({
      name: "Ship it",
      description: "soon",
      priority: "high",
      dueDate: "2026-12-01T00:00:00.000Z",
      status: { name: "to do", type: "open" },
      assignees: [{ id: w.owner.userId, email: w.owner.email }],
      tags: [{ name: "ui" }],
      version: 1,
      createdBy: w.member.userId,
      listId: list.id,
      spaceId: space.id
    })
    expect(task.shortId).toMatch(/^T-\d+$/)
    expect(task.watcherIds.sort()).toEqual([w.member.userId, w.owner.userId].sort())
    expect(await call("GET", `/tasks/${task.id}`, undefined, w.viewer.token)).toEqual(task)
    const created = (await atrium.changes(w.workspaceId, "task.created")).find((c) => c.entityId === task.id)!
    expect(created).toMatchObject({
      scope: "task",
      taskId: task.id,
      listId: list.id,
      spaceId: space.id,
      actorId: w.member.userId,
      data: { name: "Ship it", status: "to do" }
    })
    expect((await atrium.notifications(w.owner.userId)).some((n) => n.reason === "assigned" && n.entityId === task.id)).toBe(true)

    const unknown = await fail("POST", `/lists/${list.id}/tasks`, { name: "x", assigneeEmails: ["nobody@example.com"] }, 404)
    expect(unknown.error.details[0].path).toBe("body.assigneeEmails.0")
    const badStatus = await fail("POST", `/lists/${list.id}/tasks`, { name: "x", status: "nope" }, 400)
    expect(badStatus.error.details[0].path).toBe("body.status")
    const badDate = await fail("POST", `/lists/${list.id}/tasks`, { name: "x", dueDate: "2026-02-31" }, 400)
    expect(badDate.error.details[0].path).toBe("body.dueDate")
    const badOrder = await fail("POST", `/lists/${list.id}/tasks`, { name: "x", startDate: "2026-05-02", dueDate: "2026-05-01" }, 400)
    expect(badOrder.error.details[0].path).toBe("body.startDate")
    await fail("POST", `/lists/${list.id}/tasks`, { name: "   " }, 400)
  })

  it("updates: changed fields only, one version per change, status.changed notifies", async () => {
    const task = await newTask({ name: "Edit me", assigneeIds: [w.owner.userId] })
    const updated = await call("PATCH", `/tasks/${task.id}`, {
      name: "Edited",
      status: "in progress",
      priority: "urgent",
      timeEstimateMinutes: 90,
      addAssigneeIds: [w.viewer.userId]
    })
    expect(updated).toMatchObject({
      name: "Edited",
      status: { name: "in progress", type: "active" },
      priority: "urgent",
      timeEstimateMinutes: 90,
      version: 2
    })
    expect(updated.assignees.map((a: { id: string }) => a.id).sort()).toEqual([w.owner.userId, w.viewer.userId].sort())
    // An accepted write counts even when it changes nothing; an empty patch is no write.
    const same = await call("PATCH", `/tasks/${task.id}`, { name: "Edited" })
    expect(same.version).toBe(3)
    expect((await call("PATCH", `/tasks/${task.id}`, {})).version).toBe(3)
    const changes = (await atrium.changes(w.workspaceId)).filter((c) => c.entityId === task.id)
    const taskUpdated = changes.find((c) => c.type === "task.updated")!
    expect(taskUpdated.data).toMatchObject({
      name: "Edited",
      status: "in progress",
      priority: "urgent",
      previous: { name: "Edit me", status: "to do", priority: null },
      version: 2
    })
    expect(changes.find((c) => c.type === "status.changed")!.data).toEqual({ from: "to do", to: "in progress", type: "active" })
    const ownerNotes = await atrium.notifications(w.owner.userId)
    expect(ownerNotes.some((n) => n.reason === "status_changed" && n.entityId === task.id)).toBe(true)
    expect((await atrium.notifications(w.viewer.userId)).some((n) => n.reason === "assigned" && n.entityId === task.id)).toBe(true)
    const done = await call("PATCH", `/tasks/${task.id}`, { status: "DONE", priority: null, assigneeEmails: [w.member.email] })
    expect(done).toMatchObject({ status: { name: "done" }, priority: null, assignees: [{ id: w.member.userId }] })
    expect(done.closedAt).not.toBeNull()
    expect((await call("PATCH", `/tasks/${task.id}`, { status: "to do" })).closedAt).toBeNull()
    const bad = await fail("PATCH", `/tasks/${task.id}`, { priority: "meh" }, 400)
    expect(bad.error.details[0].path).toBe("body.priority")
    await fail("PATCH", `/tasks/${task.id}`, { assigneeIds: [w.outsider.userId] }, 400)
  })

  it("a patch of own fields logs exactly the changed ones with their previous values; a refused one changes nothing", async () => {
    const task = await newTask({ name: "Own", description: "old", startDate: "2026-03-01T00:00:00Z", dueDate: "2026-03-10T00:00:00Z" })
    const updated = await call("PATCH", `/tasks/${task.id}`, { name: " Own ", description: "new", dueDate: "2026-03-20T00:00:00Z" })
    expect(updated).toMatchObject({ name: "Own", description: "new", dueDate: "2026-03-20T00:00:00.000Z", version: 2 })
    const logged = (await atrium.changes(w.workspaceId, "task.updated")).filter((c) => c.entityId === task.id)
    expect(logged.map((c) => c.data)).toEqual([
      {
        description: "new",
        dueDate: "2026-03-20T00:00:00.000Z",
        previous: { description: "old", dueDate: "2026-03-10T00:00:00.000Z" },
        version: 2
      }
    ])
    const refused = await fail("PATCH", `/tasks/${task.id}`, { description: "never", dueDate: "2026-02-01T00:00:00Z" }, 400)
    expect(refused.error.details).toEqual([{ path: "body.startDate", message: "after dueDate" }])
    await fail("PATCH", `/tasks/${crypto.randomUUID()}`, { description: "nobody" }, 404)
    const gated = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      { name: "No dates", features: { dueDates: false } },
      w.member.token,
      201
    )
    const gatedTask = await newTask({}, await call("POST", `/spaces/${gated.id}/lists`, { name: "L" }, w.member.token, 201))
    await fail("PATCH", `/tasks/${gatedTask.id}`, { description: "never", dueDate: "2026-02-01T00:00:00Z" }, 400)
    expect(await call("GET", `/tasks/${gatedTask.id}`)).toMatchObject({ description: "", version: 1 })
    expect(await call("GET", `/tasks/${task.id}`)).toMatchObject({ description: "new", dueDate: "2026-03-20T00:00:00.000Z", version: 2 })
    expect((await atrium.changes(w.workspaceId, "task.updated")).filter((c) => [task.id, gatedTask.id].includes(c.entityId))).toHaveLength(
      1
    )
  })

  it("lists, filters, pages, finds by short id, and across the workspace", async () => {
    const fresh = await call("POST", `/spaces/${space.id}/lists`, { name: "Filters" }, w.member.token, 201)
    const a = await newTask({ name: "Alpha", priority: "high", assigneeIds: [w.owner.userId], tags: ["red"], dueDate: "2020-01-01" }, fresh)
    const b = await newTask({ name: "Beta", status: "done" }, fresh)
    const c = await newTask({ name: "Gamma", description: "needle here" }, fresh)
    expect(names((await call("GET", `/lists/${fresh.id}/tasks`)).items)).toEqual(["Alpha", "Beta", "Gamma"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?includeClosed=false`)).items)).toEqual(["Alpha", "Gamma"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?assigneeIds=${w.owner.userId}`)).items)).toEqual(["Alpha"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?tags=RED`)).items)).toEqual(["Alpha"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?q=NEEDLE`)).items)).toEqual(["Gamma"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?overdue=true`)).items)).toEqual(["Alpha"])
    expect(names((await call("GET", `/lists/${fresh.id}/tasks?statuses=done,to%20do&order=name&direction=desc`)).items)).toEqual([
      "Gamma",
      "Beta",
      "Alpha"
    ])
    const page = await call("GET", `/lists/${fresh.id}/tasks?limit=2&offset=1`)
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 2 })
    expect(names(page.items)).toEqual(["Beta", "Gamma"])
    await fail("GET", `/lists/${fresh.id}/tasks?limit=0`, undefined, 400)
    expect((await call("GET", `/workspaces/${w.workspaceId}/tasks/by-short-id/${b.shortId.toLowerCase()}`)).id).toBe(b.id)
    await fail("GET", `/workspaces/${w.workspaceId}/tasks/by-short-id/T-99999`, undefined, 404)
    const everywhere = await call("GET", `/workspaces/${w.workspaceId}/tasks?q=gamma`)
    expect(everywhere.items.map((t: { id: string }) => t.id)).toEqual([c.id])
    const mine = await call("GET", `/workspaces/${w.workspaceId}/my-tasks`, undefined, w.owner.token)
    expect(mine.items.map((t: { id: string }) => t.id)).toContain(a.id)
    const batch = await call(
      "POST",
      `/workspaces/${w.workspaceId}/tasks/batch-get`,
      { taskIds: [c.id, a.id, "00000000-0000-4000-8000-000000000000"] },
      w.viewer.token
    )
    expect(batch.items.map((t: { id: string }) => t.id)).toEqual([c.id, a.id])
    expect(batch.missing).toEqual(["00000000-0000-4000-8000-000000000000"])
  })

  it("archive and unarchive, trash and restore", async () => {
    const task = await newTask({ name: "Lifecycle" })
    const sub = await call("POST", `/tasks/${task.id}/subtasks`, { name: "Child" }, w.member.token, 201)
    expect((await call("POST", `/tasks/${task.id}/archive`)).archived).toBe(true)
    await fail("POST", `/tasks/${task.id}/archive`, undefined, 409)
    expect((await call("GET", `/lists/${list.id}/tasks?archived=only`)).items.map((t: { id: string }) => t.id)).toEqual([task.id])
    expect((await call("POST", `/tasks/${task.id}/unarchive`)).archived).toBe(false)
    await call("DELETE", `/tasks/${task.id}`, undefined, w.member.token, 204)
    await fail("GET", `/tasks/${task.id}`, undefined, 404)
    await fail("GET", `/tasks/${sub.id}`, undefined, 404)
    const trash = await call("GET", `/workspaces/${w.workspaceId}/tasks/trash`)
    expect(trash.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([task.id, sub.id]))
    const back = await call("POST", `/tasks/${task.id}/undelete`)
    expect(back.id).toBe(task.id)
    expect((await call("GET", `/tasks/${sub.id}`)).parentTaskId).toBe(task.id)
    await fail("POST", `/tasks/${task.id}/undelete`, undefined, 404)
    expect((await atrium.changes(w.workspaceId)).filter((c) => c.entityId === task.id).map((c) => c.type)).toEqual(
      expect.arrayContaining(["task.archived", "task.restored", "task.deleted", "task.undeleted"])
    )
  })

  it("duplicates, moves (with subtasks and status mapping), orders and merges", async () => {
    await call("PUT", `/lists/${other.id}/statuses`, {
      statuses: [
        { name: "queued", type: "open" },
        { name: "doing", type: "active" },
        { name: "shipped", type: "closed" }
      ]
    })
    const task = await newTask({ name: "Mover", status: "in progress", tags: ["x"] })
    const sub = await call("POST", `/tasks/${task.id}/subtasks`, { name: "Mover child" }, w.member.token, 201)
    await call("POST", `/tasks/${task.id}/checklists`, { name: "C", items: ["one"] }, w.member.token, 201)
    const copy = await call("POST", `/tasks/${task.id}/duplicate`, {}, w.member.token, 201)
    expect(copy).toMatchObject({ name: "Mover (copy)", status: { name: "to do" }, subtaskCount: 1, tags: [{ name: "x" }] })
    expect((await call("GET", `/tasks/${copy.id}/checklists`)).items[0].items[0].name).toBe("one")
    const copyElsewhere = await call("POST", `/tasks/${task.id}/duplicate`, { listId: other.id, name: "Mover 2" }, w.member.token, 201)
    expect(copyElsewhere).toMatchObject({ listId: other.id, name: "Mover 2", status: { name: "queued" } })
    const moved = await call("POST", `/tasks/${task.id}/move`, { listId: other.id })
    expect(moved).toMatchObject({ listId: other.id, status: { name: "doing", type: "active" } })
    expect((await call("GET", `/tasks/${sub.id}`)).listId).toBe(other.id)
    const mapped = await call("POST", `/tasks/${task.id}/move`, { listId: list.id, statusMapping: { doing: "done" } })
    expect(mapped.status.name).toBe("done")
    expect((await atrium.changes(w.workspaceId, "task.moved")).filter((c) => c.entityId === task.id).length).toBe(4)
    await fail("POST", `/tasks/${task.id}/move`, { listId: "00000000-0000-4000-8000-000000000000" }, 404)

    const order = await call("POST", `/spaces/${space.id}/lists`, { name: "Order" }, w.member.token, 201)
    const [one, two, three] = [
      await newTask({ name: "1" }, order),
      await newTask({ name: "2" }, order),
      await newTask({ name: "3" }, order)
    ]
    await call("PUT", `/tasks/${three.id}/position`, { afterTaskId: null })
    await call("PUT", `/tasks/${one.id}/position`, { afterTaskId: two.id })
    expect(names((await call("GET", `/lists/${order.id}/tasks`)).items)).toEqual(["3", "2", "1"])
    await fail("PUT", `/tasks/${one.id}/position`, { afterTaskId: task.id }, 400)

    const target = await newTask({ name: "Target" }, order)
    const source = await newTask({ name: "Source", assigneeIds: [w.owner.userId], tags: ["merged"] }, order)
    await call("POST", `/tasks/${source.id}/comments`, { text: "from source" }, w.member.token, 201)
    const merged = await call("POST", `/tasks/${target.id}/merge`, { sourceTaskIds: [source.id] })
    expect(merged.assignees.map((a: { id: string }) => a.id)).toContain(w.owner.userId)
    expect(names(merged.tags)).toEqual(["merged"])
    expect((await call("GET", `/tasks/${target.id}/comments`)).items[0].text).toBe("from source")
    await fail("GET", `/tasks/${source.id}`, undefined, 404)
    await fail("POST", `/tasks/${target.id}/merge`, { sourceTaskIds: [target.id] }, 400)
  })

  it("field setters, time in status, progress and markdown", async () => {
    const task = await newTask({ name: "Setters" })
    expect((await call("PUT", `/tasks/${task.id}/status`, { status: "in progress" })).status.name).toBe("in progress")
    expect((await call("PUT", `/tasks/${task.id}/priority`, { priority: "low" })).priority).toBe("low")
    expect(await call("PUT", `/tasks/${task.id}/dates`, { startDate: "2026-01-01", dueDate: "2026-01-10T12:00:00Z" })).toMatchObject({
      startDate: "2026-01-01T00:00:00.000Z",
      dueDate: "2026-01-10T12:00:00.000Z"
    })
    await fail("PUT", `/tasks/${task.id}/dates`, { startDate: "2026-02-01" }, 400)
    expect((await call("PUT", `/tasks/${task.id}/dates`, { dueDate: null })).dueDate).toBeNull()
    expect((await call("PUT", `/tasks/${task.id}/time-estimate`, { minutes: 120 })).timeEstimateMinutes).toBe(120)
    await fail("PUT", `/tasks/${task.id}/time-estimate`, { minutes: -1 }, 400)
    const time = await call("GET", `/tasks/${task.id}/time-in-status`)
    expect(time.current.status).toBe("in progress")
    expect(time.items.map((i: { status: string }) => i.status)).toEqual(["to do", "in progress"])
    await call("POST", `/tasks/${task.id}/subtasks`, { name: "s1", status: "done" }, w.member.token, 201)
    await call("POST", `/tasks/${task.id}/subtasks`, { name: "s2" }, w.member.token, 201)
    const checklist = await call("POST", `/tasks/${task.id}/checklists`, { name: "C", items: ["a", "b"] }, w.member.token, 201)
    await call("PATCH", `/tasks/${task.id}/checklists/${checklist.id}/items/${checklist.items[0].id}`, { resolved: true })
    expect(await call("GET", `/tasks/${task.id}/progress`)).toMatchObject({
      subtasks: { total: 2, finished: 1 },
      checklistItems: { total: 2, resolved: 1 },
      estimateMinutes: 120,
      percent: 50
    })
    await call("POST", `/tasks/${task.id}/comments`, { text: "Looks good" }, w.member.token, 201)
    const md = await atrium.request("GET", `/pm/v1/tasks/${task.id}/export.md`, { token: w.viewer.token })
    expect(md.headers.get("content-type")).toContain("text/markdown")
    expect(md.text).toContain(`# ${task.shortId}: Setters`)
    expect(md.text).toContain("- [x] a")
    expect(md.text).toContain("Looks good")
  })
})

describe("subtasks, assignees, watchers", () => {
  it("subtasks live in the parent's list; parents never form cycles", async () => {
    const parent = await newTask({ name: "Parent" })
    const child = await call(
      "POST",
      `/tasks/${parent.id}/subtasks`,
      { name: "Child", assigneeEmails: [w.owner.email] },
      w.member.token,
      201
    )
    expect(child).toMatchObject({ parentTaskId: parent.id, listId: list.id })
    const grandchild = await call("POST", `/tasks/${child.id}/subtasks`, { name: "Grandchild" }, w.member.token, 201)
    expect(names((await call("GET", `/tasks/${parent.id}/subtasks`)).items)).toEqual(["Child"])
    expect(await call("GET", `/tasks/${parent.id}/tree`)).toMatchObject({
      name: "Parent",
      children: [{ name: "Child", children: [{ name: "Grandchild", children: [] }] }]
    })
    await fail("PUT", `/tasks/${parent.id}/parent`, { parentTaskId: grandchild.id }, 409)
    await fail("PUT", `/tasks/${parent.id}/parent`, { parentTaskId: parent.id }, 409)
    const elsewhere = await newTask({ name: "Elsewhere" }, other)
    const adopted = await call("PUT", `/tasks/${elsewhere.id}/parent`, { parentTaskId: parent.id })
    expect(adopted).toMatchObject({ parentTaskId: parent.id, listId: list.id })
    expect((await call("PUT", `/tasks/${grandchild.id}/parent`, { parentTaskId: null })).parentTaskId).toBeNull()
    expect((await call("GET", `/tasks/${parent.id}`)).subtaskCount).toBe(2)
  })

  it("assignees and watchers", async () => {
    const task = await newTask({ name: "People" })
    expect(
      (await call("POST", `/tasks/${task.id}/assignees`, { email: w.owner.email }, w.member.token, 201)).assignees.map(
        (a: { id: string }) => a.id
      )
    ).toEqual([w.owner.userId])
    await fail("POST", `/tasks/${task.id}/assignees`, { userId: w.owner.userId }, 409)
    await fail("POST", `/tasks/${task.id}/assignees`, { email: "ghost@example.com" }, 404)
    await fail("POST", `/tasks/${task.id}/assignees`, { userId: w.outsider.userId }, 400)
    await fail("POST", `/tasks/${task.id}/assignees`, {}, 400)
    await call("POST", `/tasks/${task.id}/assignees`, { userId: w.viewer.userId }, w.member.token, 201)
    expect((await call("GET", `/tasks/${task.id}/assignees`)).items.map((u: { email: string }) => u.email).sort()).toEqual(
      [w.owner.email, w.viewer.email].sort()
    )
    await call("DELETE", `/tasks/${task.id}/assignees/${w.viewer.userId}`, undefined, w.member.token, 204)
    await fail("DELETE", `/tasks/${task.id}/assignees/${w.viewer.userId}`, undefined, 404)
    expect(
      (await call("PUT", `/tasks/${task.id}/assignees`, { userIds: [w.member.userId] })).assignees.map((a: { id: string }) => a.id)
    ).toEqual([w.member.userId])
    const watchers = (await call("GET", `/tasks/${task.id}/watchers`)).items.map((u: { id: string }) => u.id)
    expect(watchers).toEqual(expect.arrayContaining([w.member.userId, w.owner.userId, w.viewer.userId]))
    await call("DELETE", `/tasks/${task.id}/watchers/${w.viewer.userId}`, undefined, w.member.token, 204)
    expect(await call("POST", `/tasks/${task.id}/watchers`, { userId: w.viewer.userId }, w.member.token, 201)).toEqual({
      userId: w.viewer.userId
    })
    await fail("POST", `/tasks/${task.id}/watchers`, { userId: w.viewer.userId }, 409)
    await call("DELETE", `/tasks/${task.id}/watchers/${w.member.userId}`, undefined, w.member.token, 204)
    await call("POST", `/tasks/${task.id}/watchers`, {}, w.member.token, 201)
  })
})

describe("custom field values and tags", () => {
  it("values validated against their definitions", async () => {
    const scoped = await call("POST", `/spaces/${space.id}/lists`, { name: "Typed" }, w.member.token, 201)
    const make = (body: Record<string, unknown>) => call("POST", `/lists/${scoped.id}/custom-fields`, body, w.member.token, 201)
    const fields = {
      text: await make({ name: "Notes", type: "text" }),
      number: await make({ name: "Points", type: "number", min: 0 }),
      date: await make({ name: "Launch", type: "date" }),
      checkbox: await make({ name: "Reviewed", type: "checkbox" }),
      email: await make({ name: "Contact", type: "email" }),
      url: await make({ name: "Link", type: "url" }),
      currency: await make({ name: "Cost", type: "currency" }),
      phone: await make({ name: "Phone", type: "phone" }),
      rating: await make({ name: "Stars", type: "rating", max: 3 }),
      users: await make({ name: "Reviewers", type: "users" }),
      dropdown: await make({ name: "Env", type: "dropdown", options: [{ name: "prod" }] }),
      required: await make({ name: "Owner team", type: "text", required: true })
    }
    await fail("POST", `/lists/${scoped.id}/tasks`, { name: "missing required" }, 400)
    const task = await call(
      "POST",
      `/lists/${scoped.id}/tasks`,
      { name: "Typed", customFields: { "owner team": "core" } },
      w.member.token,
      201
    )
    const good: Array<[any, unknown, unknown]> = [
      [fields.text, "hello", "hello"],
      [fields.number, 3.5, 3.5],
      [fields.date, "2026-03-01", "2026-03-01T00:00:00.000Z"],
      [fields.checkbox, true, true],
      [fields.email, "Ops@Example.com", "ops@example.com"],
      [fields.url, "https://example.com/x", "https://example.com/x"],
      [fields.currency, 12.5, 12.5],
      [fields.phone, "+1 555 0100", "+1 555 0100"],
      [fields.rating, 2, 2],
      [fields.users, [w.owner.userId], [w.owner.userId]],
      [fields.dropdown, "PROD", { name: "prod" }]
    ]
    for (const [field, value, shown] of good) {
      const updated = await call("PUT", `/tasks/${task.id}/custom-fields/${field.id}`, { value })
      const stored = updated.customFields.find((f: { fieldId: string }) => f.fieldId === field.id)
      if (typeof shown === "object" && shown !== null && !Array.isArray(shown)) expect(stored.value).toMatchObject(shown)
      else expect(stored.value).toEqual(shown)
    }
    const bad: Array<[any, unknown]> = [
      [fields.number, -1],
      [fields.number, "3"],
      [fields.date, "soon"],
      [fields.checkbox, "yes"],
      [fields.email, "nope"],
      [fields.url, "ftp://x"],
      [fields.rating, 4],
      [fields.users, [w.outsider.userId]],
      [fields.dropdown, "staging"],
      [fields.text, 5]
    ]
    for (const [field, value] of bad) {
      const body = await fail("PUT", `/tasks/${task.id}/custom-fields/${field.id}`, { value }, 400)
      expect(body.error.details[0].path, JSON.stringify(value)).toMatch(/^body\.value/)
    }
    const listed = await call("GET", `/tasks/${task.id}/custom-fields`)
    expect(listed.items).toHaveLength(12)
    expect(listed.items.find((f: { name: string }) => f.name === "Points").value).toBe(3.5)
    await call("DELETE", `/tasks/${task.id}/custom-fields/${fields.number.id}`, undefined, w.member.token, 204)
    expect((await call("GET", `/tasks/${task.id}/custom-fields`)).items.find((f: { name: string }) => f.name === "Points").value).toBeNull()
    await fail("DELETE", `/tasks/${task.id}/custom-fields/${fields.required.id}`, undefined, 400)
    const many = await call("PATCH", `/tasks/${task.id}/custom-fields`, { values: { Points: 8, [fields.text.id]: null } })
    expect(many.customFields.find((f: { name: string }) => f.name === "Points").value).toBe(8)
    expect(many.customFields.some((f: { name: string }) => f.name === "Notes")).toBe(false)
    const unknownField = await fail("PATCH", `/tasks/${task.id}/custom-fields`, { values: { Nope: 1 } }, 400)
    expect(unknownField.error.details[0].path).toBe("body.values.Nope")
  })

  it("space tags (Tags tag) and task tags", async () => {
    const tag = await call("POST", `/spaces/${space.id}/tags`, { name: "Backend", color: "#123456" }, w.member.token, 201)
    await fail("POST", `/spaces/${space.id}/tags`, { name: "backend" }, 409)
    const task = await newTask({ name: "Tagged" })
    const tagged = await call("POST", `/tasks/${task.id}/tags`, { name: "BACKEND" }, w.member.token, 201)
    expect(tagged.tags).toEqual([{ ...tag }])
    await fail("POST", `/tasks/${task.id}/tags`, { name: "backend" }, 409)
    await call("POST", `/tasks/${task.id}/tags`, { name: "new-one" }, w.member.token, 201)
    expect(names((await call("GET", `/tasks/${task.id}/tags`)).items)).toEqual(["Backend", "new-one"])
    const listed = (await call("GET", `/spaces/${space.id}/tags`)).items
    expect(listed.find((t: { name: string }) => t.name === "Backend").taskCount).toBe(1)
    expect(await call("PATCH", `/spaces/${space.id}/tags/${tag.id}`, { name: "Server", color: "#654321" })).toMatchObject({
      name: "Server",
      color: "#654321"
    })
    expect(names((await call("GET", `/tasks/${task.id}`)).tags)).toEqual(["new-one", "Server"])
    await call("DELETE", `/tasks/${task.id}/tags/${tag.id}`, undefined, w.member.token, 204)
    await fail("DELETE", `/tasks/${task.id}/tags/${tag.id}`, undefined, 404)
    await call("POST", `/tasks/${task.id}/tags`, { name: "server" }, w.member.token, 201)
    await call("DELETE", `/spaces/${space.id}/tags/${tag.id}`, undefined, w.member.token, 204)
    expect(names((await call("GET", `/tasks/${task.id}`)).tags)).toEqual(["new-one"])
    const types = (await atrium.changes(w.workspaceId)).map((c) => c.type)
    expect(types).toEqual(expect.arrayContaining(["tag.created", "tag.updated", "tag.deleted"]))
  })
})

describe("checklists, comments, attachments", () => {
  it("checklists and items", async () => {
    const task = await newTask({ name: "Checklists" })
    const created = await call("POST", `/tasks/${task.id}/checklists`, { name: "Release", items: ["a", "b"] }, w.member.token, 201)
    expect(created).toMatchObject({ name: "Release", resolvedCount: 0 })
    expect(names(created.items)).toEqual(["a", "b"])
    const withItem = await call(
      "POST",
      `/tasks/${task.id}/checklists/${created.id}/items`,
      { name: "c", assigneeId: w.owner.userId },
      w.member.token,
      201
    )
    expect(names(withItem.items)).toEqual(["a", "b", "c"])
    expect(
      (await atrium.notifications(w.owner.userId)).some((n) => n.reason === "assigned" && n.eventType === "checklist.item_added")
    ).toBe(true)
    const [a, b, c] = withItem.items
    expect(
      (await call("PATCH", `/tasks/${task.id}/checklists/${created.id}/items/${a.id}`, { resolved: true, name: "A" })).resolvedCount
    ).toBe(1)
    const reordered = await call("PUT", `/tasks/${task.id}/checklists/${created.id}/items/order`, { itemIds: [c.id, b.id, a.id] })
    expect(names(reordered.items)).toEqual(["c", "b", "A"])
    await fail("PUT", `/tasks/${task.id}/checklists/${created.id}/items/order`, { itemIds: [c.id] }, 400)
    await call("DELETE", `/tasks/${task.id}/checklists/${created.id}/items/${b.id}`, undefined, w.member.token, 204)
    const subtask = await call("POST", `/tasks/${task.id}/checklists/${created.id}/items/${c.id}/convert`, undefined, w.member.token, 201)
    expect(subtask).toMatchObject({ name: "c", parentTaskId: task.id, assignees: [{ id: w.owner.userId }] })
    expect(await call("PATCH", `/tasks/${task.id}/checklists/${created.id}`, { name: "Launch" })).toMatchObject({ name: "Launch" })
    expect(names((await call("GET", `/tasks/${task.id}/checklists/${created.id}`)).items)).toEqual(["A"])
    expect((await call("GET", `/tasks/${task.id}/checklists`)).items).toHaveLength(1)
    await call("DELETE", `/tasks/${task.id}/checklists/${created.id}`, undefined, w.member.token, 204)
    await fail("GET", `/tasks/${task.id}/checklists/${created.id}`, undefined, 404)
  })

  it("comments: mentions, threads, resolve, assign, reactions, edit and delete", async () => {
    const task = await newTask({ name: "Discuss", assigneeIds: [w.viewer.userId] })
    const comment = await call(
      "POST",
      `/tasks/${task.id}/comments`,
      { text: `@${w.owner.email}, please look. cc @nobody@example.com` },
      w.member.token,
      201
    )
    expect(comment.mentions.map((m: { id: string }) => m.id)).toEqual([w.owner.userId])
    expect((await atrium.notifications(w.owner.userId)).some((n) => n.reason === "mentioned" && n.entityId === comment.id)).toBe(true)
    expect((await atrium.notifications(w.viewer.userId)).some((n) => n.reason === "commented" && n.entityId === comment.id)).toBe(true)
    const logged = (await atrium.changes(w.workspaceId, "comment.created")).find((c) => c.entityId === comment.id)!
    expect(logged).toMatchObject({ scope: "task", taskId: task.id, data: { mentions: [w.owner.userId] } })
    const reply = await call("POST", `/tasks/${task.id}/comments/${comment.id}/replies`, { text: "On it" }, w.owner.token, 201)
    expect(reply.parentCommentId).toBe(comment.id)
    expect((await atrium.notifications(w.member.userId)).some((n) => n.reason === "commented" && n.entityId === reply.id)).toBe(true)
    await fail("POST", `/tasks/${task.id}/comments/${reply.id}/replies`, { text: "nested" }, 400)
    expect((await call("GET", `/tasks/${task.id}/comments/${comment.id}/replies`)).items.map((r: { id: string }) => r.id)).toEqual([
      reply.id
    ])
    expect((await call("GET", `/tasks/${task.id}/comments`)).items).toMatchObject([{ id: comment.id, replyCount: 1 }])
    expect((await call("GET", `/tasks/${task.id}/comments/${comment.id}`)).text).toContain("please look")
    expect(
      (await call("PATCH", `/tasks/${task.id}/comments/${comment.id}`, { text: `and @${w.viewer.email}` })).mentions.map(
        (m: { id: string }) => m.id
      )
    ).toEqual([w.viewer.userId])
    await fail("PATCH", `/tasks/${task.id}/comments/${comment.id}`, { text: "hijack" }, 403, w.owner.token)
    expect((await call("POST", `/tasks/${task.id}/comments/${comment.id}/resolve`)).resolved).toBe(true)
    await fail("POST", `/tasks/${task.id}/comments/${comment.id}/resolve`, undefined, 409)
    expect((await call("GET", `/tasks/${task.id}/comments?resolved=true`)).items).toHaveLength(1)
    expect((await call("POST", `/tasks/${task.id}/comments/${comment.id}/reopen`)).resolved).toBe(false)
    const assigned = await call("PUT", `/tasks/${task.id}/comments/${comment.id}/assignee`, { assigneeId: w.owner.userId })
    expect(assigned.assignee.id).toBe(w.owner.userId)
    expect(
      (await call("GET", `/workspaces/${w.workspaceId}/comments/assigned-to-me`, undefined, w.owner.token)).items.map(
        (c: { id: string }) => c.id
      )
    ).toEqual([comment.id])
    const reacted = await call("POST", `/tasks/${task.id}/comments/${comment.id}/reactions`, { emoji: "thumbsup" }, w.owner.token, 201)
    expect(reacted.reactions).toEqual([{ emoji: "thumbsup", count: 1, userIds: [w.owner.userId] }])
    await fail("POST", `/tasks/${task.id}/comments/${comment.id}/reactions`, { emoji: "thumbsup" }, 409, w.owner.token)
    await fail("POST", `/tasks/${task.id}/comments/${comment.id}/reactions`, { emoji: "Thumbs Up!" }, 400, w.owner.token)
    await call("DELETE", `/tasks/${task.id}/comments/${comment.id}/reactions/thumbsup`, undefined, w.owner.token, 204)
    await fail("DELETE", `/tasks/${task.id}/comments/${reply.id}`, undefined, 403)
    await call("DELETE", `/tasks/${task.id}/comments/${comment.id}`, undefined, w.member.token, 204)
    expect((await call("GET", `/tasks/${task.id}/comments`)).items).toEqual([])
    await fail("GET", `/tasks/${task.id}/comments/${reply.id}`, undefined, 404)
  })

  it("attachments are stored in the BlobStore", async () => {
    const task = await newTask({ name: "Files" })
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3, 255])
    const uploaded = expectStatus(
      await atrium.request("POST", `/pm/v1/tasks/${task.id}/attachments?filename=shot.png`, {
        token: w.member.token,
        rawBody: bytes,
        headers: { "content-type": "image/png" }
      }),
      201
    )
    expect(uploaded).toMatchObject({ filename: "shot.png", contentType: "image/png", size: 8, uploadedBy: w.member.userId })
    const download = await fetch(`${atrium.origin}/pm/v1/tasks/${task.id}/attachments/${uploaded.id}/content`, {
      headers: { authorization: `Bearer ${w.viewer.token}` }
    })
    expect(download.headers.get("content-type")).toBe("image/png")
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes)
    expect((await call("GET", `/tasks/${task.id}/attachments`)).items.map((a: { id: string }) => a.id)).toEqual([uploaded.id])
    expect((await call("GET", `/tasks/${task.id}/attachments/${uploaded.id}`)).filename).toBe("shot.png")
    expect((await call("PATCH", `/tasks/${task.id}/attachments/${uploaded.id}`, { filename: "login.png" })).filename).toBe("login.png")
    await fail("PATCH", `/tasks/${task.id}/attachments/${uploaded.id}`, { filename: "../etc" }, 400)
    const wrongType = await atrium.request("POST", `/pm/v1/tasks/${task.id}/attachments`, {
      token: w.member.token,
      rawBody: "x",
      headers: { "content-type": "x-weird/thing" }
    })
    expect(wrongType.status).toBe(415)
    await fail("DELETE", `/tasks/${task.id}/attachments/${uploaded.id}`, undefined, 403, member2.token)
    await call("DELETE", `/tasks/${task.id}/attachments/${uploaded.id}`, undefined, w.owner.token, 204)
    await fail("GET", `/tasks/${task.id}/attachments/${uploaded.id}`, undefined, 404)
  })
})

describe("time, recurrence, templates, bulk", () => {
  it("time tracking: entries, timer, summary, timesheet", async () => {
    const task = await newTask({ name: "Timed", timeEstimateMinutes: 120 })
    const entry = await call(
      "POST",
      `/tasks/${task.id}/time-entries`,
      { startedAt: "2026-11-20T09:00:00Z", durationMinutes: 90, note: "pairing" },
      w.member.token,
      201
    )
    expect(entry).toMatchObject({ durationMinutes: 90, note: "pairing", userId: w.member.userId, endedAt: "2026-11-20T10:30:00.000Z" })
    await fail("POST", `/tasks/${task.id}/time-entries`, { startedAt: "2026-11-20T09:00:00Z" }, 400)
    await fail("POST", `/tasks/${task.id}/time-entries`, { startedAt: "2026-11-20T09:00:00Z", endedAt: "2026-11-20T08:00:00Z" }, 400)
    await fail(
      "POST",
      `/tasks/${task.id}/time-entries`,
      { startedAt: "2026-11-20T09:00:00Z", durationMinutes: 5, userId: w.owner.userId },
      403
    )
    expect((await call("PATCH", `/tasks/${task.id}/time-entries/${entry.id}`, { note: "review", billable: true })).billable).toBe(true)
    await fail("PATCH", `/tasks/${task.id}/time-entries/${entry.id}`, { note: "not mine" }, 403, member2.token)
    const running = await call("POST", `/tasks/${task.id}/timer/start`, {}, w.member.token, 201)
    expect(running.endedAt).toBeNull()
    expect((await call("GET", `/workspaces/${w.workspaceId}/timer`)).entry.id).toBe(running.id)
    const second = await newTask({ name: "Timed 2" })
    await call("POST", `/tasks/${second.id}/timer/start`, {}, w.member.token, 201)
    expect((await call("GET", `/tasks/${task.id}/time-entries`)).items.every((e: { endedAt: string | null }) => e.endedAt !== null)).toBe(
      true
    )
    await fail("POST", `/tasks/${task.id}/timer/stop`, undefined, 409)
    const stopped = await call("POST", `/tasks/${second.id}/timer/stop`)
    expect(stopped.endedAt).not.toBeNull()
    expect((await call("GET", `/workspaces/${w.workspaceId}/timer`)).entry).toBeNull()
    const summary = await call("GET", `/tasks/${task.id}/time-summary`)
    expect(summary).toMatchObject({ estimateMinutes: 120, running: false })
    expect(summary.trackedMinutes).toBeGreaterThanOrEqual(90)
    const sheet = await call("GET", `/workspaces/${w.workspaceId}/time-entries?from=2026-11-20&to=2026-11-21&userId=${w.member.userId}`)
    expect(sheet).toMatchObject({ totalMinutes: 90, items: [{ id: entry.id }] })
    await call("DELETE", `/tasks/${task.id}/time-entries/${entry.id}`, undefined, w.owner.token, 204)
    await fail("DELETE", `/tasks/${task.id}/time-entries/${entry.id}`, undefined, 404)
    const gated = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      { name: "No time", features: { timeTracking: false } },
      w.member.token,
      201
    )
    const gatedList = await call("POST", `/spaces/${gated.id}/lists`, { name: "L" }, w.member.token, 201)
    const gatedTask = await newTask({}, gatedList)
    await fail("POST", `/tasks/${gatedTask.id}/timer/start`, {}, 400)
  })

  it("recurring tasks schedule their next occurrence when finished", async () => {
    const task = await newTask({ name: "Weekly report", dueDate: "2026-01-05T10:00:00Z", assigneeIds: [w.owner.userId] })
    await fail("PUT", `/tasks/${(await newTask({ name: "no dates" })).id}/recurrence`, { frequency: "daily", interval: 1 }, 409)
    expect((await call("PUT", `/tasks/${task.id}/recurrence`, { frequency: "weekly", interval: 1 })).recurrence).toEqual({
      frequency: "weekly",
      interval: 1
    })
    expect(await call("GET", `/tasks/${task.id}/recurrence`)).toEqual({ recurrence: { frequency: "weekly", interval: 1 } })
    await call("PATCH", `/tasks/${task.id}`, { status: "done" })
    const recurred = (await atrium.changes(w.workspaceId, "task.recurred")).find((c) => c.entityId === task.id)!
    const next = await call("GET", `/tasks/${recurred.data.nextTaskId}`)
    expect(next).toMatchObject({
      name: "Weekly report",
      dueDate: "2026-01-12T10:00:00.000Z",
      status: { type: "open" },
      recurrence: { frequency: "weekly", interval: 1 },
      assignees: [{ id: w.owner.userId }]
    })
    expect((await call("GET", `/tasks/${task.id}`)).recurrence).toBeNull()
    await call("DELETE", `/tasks/${next.id}/recurrence`, undefined, w.member.token, 204)
    await fail("DELETE", `/tasks/${next.id}/recurrence`, undefined, 404)
  })

  it("templates", async () => {
    const task = await newTask({ name: "Release", priority: "high", tags: ["release"] })
    await call("POST", `/tasks/${task.id}/checklists`, { name: "Steps", items: ["tag", "publish"] }, w.member.token, 201)
    await call("POST", `/tasks/${task.id}/subtasks`, { name: "Notes" }, w.member.token, 201)
    const template = await call("POST", `/tasks/${task.id}/save-as-template`, { name: "Release template" }, w.member.token, 201)
    expect(template.template).toMatchObject({ name: "Release", priority: "high", tagNames: ["release"] })
    expect((await call("GET", `/workspaces/${w.workspaceId}/task-templates`)).items.map((t: { id: string }) => t.id)).toContain(template.id)
    const made = await call(
      "POST",
      `/lists/${other.id}/tasks/from-template`,
      { templateId: template.id, name: "Release 2.0" },
      w.member.token,
      201
    )
    expect(made).toMatchObject({ name: "Release 2.0", priority: "high", listId: other.id, subtaskCount: 1 })
    expect(names((await call("GET", `/tasks/${made.id}/checklists`)).items[0].items)).toEqual(["tag", "publish"])
    await fail("POST", `/lists/${other.id}/tasks/from-template`, { templateId: "00000000-0000-4000-8000-000000000000" }, 404)
    await call("DELETE", `/workspaces/${w.workspaceId}/task-templates/${template.id}`, undefined, w.member.token, 204)
    await fail("DELETE", `/workspaces/${w.workspaceId}/task-templates/${template.id}`, undefined, 404)
  })

  it("bulk create, update, move, custom field, archive, delete — each task on its own", async () => {
    const created = await call(
      "POST",
      `/lists/${list.id}/tasks/bulk`,
      { tasks: [{ name: "B1" }, { name: "B2", priority: "low" }, { name: "B3" }] },
      w.member.token,
      201
    )
    expect(names(created.items)).toEqual(["B1", "B2", "B3"])
    const invalid = await fail("POST", `/lists/${list.id}/tasks/bulk`, { tasks: [{ name: "ok" }, { name: "bad", status: "nope" }] }, 400)
    expect(invalid.error.details[0].path).toBe("body.tasks.1.status")
    const ids = created.items.map((t: { id: string }) => t.id)
    const updated = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-update`, {
      taskIds: ids,
      patch: { priority: "urgent", status: "in progress" }
    })
    expect(updated.items.every((i: { ok: boolean; task: { priority: string } }) => i.ok && i.task.priority === "urgent")).toBe(true)
    await fail(
      "POST",
      `/workspaces/${w.workspaceId}/tasks/bulk-update`,
      { taskIds: [...ids, "00000000-0000-4000-8000-000000000000"], patch: { priority: "low" } },
      404
    )
    const field = await call("POST", `/spaces/${space.id}/custom-fields`, { name: "Bulk points", type: "number" }, w.member.token, 201)
    const valued = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-custom-field`, { taskIds: ids, fieldId: field.id, value: 3 })
    expect(valued.items.every((i: { ok: boolean }) => i.ok)).toBe(true)
    const partly = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-custom-field`, {
      taskIds: ids,
      fieldId: field.id,
      value: "three"
    })
    expect(partly.items.every((i: { ok: boolean; error: { code: string } }) => !i.ok && i.error.code === "invalid")).toBe(true)
    const moved = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-move`, { taskIds: ids.slice(0, 2), listId: other.id })
    expect(moved.items.map((i: { task: { listId: string } }) => i.task.listId)).toEqual([other.id, other.id])
    const archived = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-archive`, { taskIds: ids })
    expect(archived.items.every((i: { ok: boolean }) => i.ok)).toBe(true)
    const again = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-archive`, { taskIds: ids })
    expect(again.items.every((i: { ok: boolean; error: { code: string } }) => !i.ok && i.error.code === "conflict")).toBe(true)
    const deleted = await call("POST", `/workspaces/${w.workspaceId}/tasks/bulk-delete`, { taskIds: ids })
    expect(deleted.items.every((i: { ok: boolean }) => i.ok)).toBe(true)
    for (const id of ids) await fail("GET", `/tasks/${id}`, undefined, 404)
  })
})

describe("relationships", () => {
  it("CRUD, readings from both sides, bulk, graph, blocked tasks; cycles of blocks are refused", async () => {
    const [a, b, c, d] = [
      await newTask({ name: "A" }),
      await newTask({ name: "B" }),
      await newTask({ name: "C" }),
      await newTask({ name: "D" })
    ]
    const ab = await call("POST", `/tasks/${a.id}/relationships`, { type: "blocks", relatedTaskId: b.id }, w.member.token, 201)
    expect(ab).toMatchObject({
      type: "blocks",
      sourceTaskId: a.id,
      targetTaskId: b.id,
      source: { shortId: a.shortId },
      target: { shortId: b.shortId }
    })
    const cb = await call("POST", `/tasks/${c.id}/relationships`, { type: "blocked_by", relatedTaskId: b.id }, w.member.token, 201)
    expect(cb).toMatchObject({ type: "blocks", sourceTaskId: b.id, targetTaskId: c.id })
    const cycle = await fail("POST", `/tasks/${c.id}/relationships`, { type: "blocks", relatedTaskId: a.id }, 409)
    expect(cycle.error.message).toContain("cycle")
    await fail("POST", `/tasks/${a.id}/relationships`, { type: "blocked_by", relatedTaskId: c.id }, 409)
    await fail("POST", `/tasks/${a.id}/relationships`, { type: "blocks", relatedTaskId: b.id }, 409)
    await fail("POST", `/tasks/${a.id}/relationships`, { type: "relates_to", relatedTaskId: a.id }, 400)
    const rel = await call("POST", `/tasks/${d.id}/relationships`, { type: "relates_to", relatedTaskId: a.id }, w.member.token, 201)
    await fail("POST", `/tasks/${a.id}/relationships`, { type: "relates_to", relatedTaskId: d.id }, 409)
    expect(
      (await call("GET", `/tasks/${b.id}/relationships`)).items.map((r: { type: string; task: { id: string } }) => [r.type, r.task.id])
    ).toEqual([
      ["blocked_by", a.id],
      ["blocks", c.id]
    ])
    expect(await call("GET", `/workspaces/${w.workspaceId}/relationships/${rel.id}`)).toMatchObject({ type: "relates_to" })
    const graph = await call("GET", `/tasks/${c.id}/relationships/graph`)
    expect(graph.blockedBy.sort()).toEqual([a.id, b.id].sort())
    expect(graph.openBlockers.sort()).toEqual([a.id, b.id].sort())
    expect(graph.edges).toHaveLength(2)
    const blocked = (await call("GET", `/workspaces/${w.workspaceId}/relationships/blocked`)).items
    expect(
      blocked
        .filter((t: { id: string }) => [b.id, c.id].includes(t.id))
        .map((t: { id: string; blockerIds: Array<string> }) => [t.id, t.blockerIds])
    ).toEqual([
      [b.id, [a.id]],
      [c.id, [b.id]]
    ])
    await call("PATCH", `/tasks/${a.id}`, { status: "done" })
    expect((await call("GET", `/workspaces/${w.workspaceId}/relationships/blocked`)).items.map((t: { id: string }) => t.id)).not.toContain(
      b.id
    )

    // Bulk: all or nothing
    const e = await newTask({ name: "E" })
    const bulkCycle = await fail(
      "POST",
      `/workspaces/${w.workspaceId}/relationships/bulk`,
      {
        items: [
          { taskId: c.id, type: "blocks", relatedTaskId: e.id },
          { taskId: e.id, type: "blocks", relatedTaskId: a.id }
        ]
      },
      409
    )
    expect(bulkCycle.error.details[0].path).toBe("body.items.1.otherTaskId")
    expect((await call("GET", `/tasks/${e.id}/relationships`)).items).toEqual([])
    const bulk = await call(
      "POST",
      `/workspaces/${w.workspaceId}/relationships/bulk`,
      {
        items: [
          { taskId: c.id, type: "blocks", relatedTaskId: e.id },
          { taskId: e.id, type: "duplicates", relatedTaskId: d.id }
        ]
      },
      w.member.token,
      201
    )
    expect(bulk.items.map((r: { type: string }) => r.type)).toEqual(["blocks", "duplicates"])
    expect((await call("GET", `/tasks/${d.id}/relationships`)).items.map((r: { type: string }) => r.type)).toEqual([
      "relates_to",
      "duplicated_by"
    ])
    expect(
      await call("POST", `/workspaces/${w.workspaceId}/relationships/bulk-delete`, {
        relationshipIds: bulk.items.map((r: { id: string }) => r.id)
      })
    ).toEqual({ deleted: 2 })
    await fail("POST", `/workspaces/${w.workspaceId}/relationships/bulk-delete`, { relationshipIds: [bulk.items[0].id] }, 404)
    await call("DELETE", `/workspaces/${w.workspaceId}/relationships/${ab.id}`, undefined, w.member.token, 204)
    await fail("GET", `/workspaces/${w.workspaceId}/relationships/${ab.id}`, undefined, 404)
    expect((await atrium.changes(w.workspaceId, "relationship.created")).length).toBeGreaterThanOrEqual(8)
  })

  it('concurrent "blocks" requests can never close a cycle', async () => {
    const tasks = await Promise.all(Array.from({ length: 6 }, (_, i) => newTask({ name: `ring ${i}` })))
    // Every link of a ring at once: all but at least one must be refused.
    const results = await Promise.all(
      tasks.map((t, i) =>
        atrium.request("POST", `/pm/v1/tasks/${t.id}/relationships`, {
          token: w.member.token,
          body: { type: "blocks", relatedTaskId: tasks[(i + 1) % tasks.length].id }
        })
      )
    )
    expect(results.filter((r) => r.status === 201).length).toBe(tasks.length - 1)
    expect(results.filter((r) => r.status === 409).length).toBe(1)
  })
})

describe("writes go through the task's actor", () => {
  it("50 concurrent clients editing one task: every update applied exactly once", async () => {
    const task = await newTask({ name: "Hot" })
    const checklist = await call("POST", `/tasks/${task.id}/checklists`, { name: "Many" }, w.member.token, 201)
    const base = (await call("GET", `/tasks/${task.id}`)).version
    const clients = [w.member, w.owner]
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        atrium.request("POST", `/pm/v1/tasks/${task.id}/checklists/${checklist.id}/items`, {
          token: clients[i % 2]!.token,
          body: { name: `item ${i}` }
        })
      )
    )
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201))
    const items = (await call("GET", `/tasks/${task.id}/checklists/${checklist.id}`)).items
    expect(items.map((i: { name: string }) => i.name).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `item ${i}`).sort())
    expect(new Set(items.map((i: { position: number }) => i.position)).size).toBe(50)
    expect((await call("GET", `/tasks/${task.id}`)).version).toBe(base + 50)
    const logged = (await atrium.changes(w.workspaceId, "checklist.item_added")).filter((c) => c.taskId === task.id)
    expect(logged.map((c) => c.data.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => base + 1 + i))

    const tagged = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        atrium.request("PATCH", `/pm/v1/tasks/${task.id}`, {
          token: clients[i % 2]!.token,
          body: { description: `edit ${i}`, addAssigneeIds: [i % 2 === 0 ? w.member.userId : w.owner.userId] }
        })
      )
    )
    expect(tagged.every((r) => r.status === 200)).toBe(true)
    const final = await call("GET", `/tasks/${task.id}`)
    expect(final.version).toBe(base + 100)
    expect(final.assignees.map((a: { id: string }) => a.id).sort()).toEqual([w.member.userId, w.owner.userId].sort())
    // The final description is the one the actor applied last: the last logged update's.
    const updates = (await atrium.changes(w.workspaceId, "task.updated")).filter(
      (c) => c.taskId === task.id && c.data.description !== undefined
    )
    expect(updates).toHaveLength(50)
    expect(final.description).toBe(updates.at(-1)!.data.description)
  })
})
