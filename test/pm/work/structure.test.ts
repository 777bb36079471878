/**
 * Spaces, Folders and Lists: every operation on its happy path, the rules
 * that matter (inheritance of statuses down the hierarchy, copy-on-write,
 * task status remapping, private spaces, moves), and the change log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof setupWorkspace>>
beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await setupWorkspace(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const call = async (method: string, path: string, body?: unknown, token = w.owner.token, status?: number) => {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  if (status !== undefined) return expectStatus(response, status)
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}
const names = (items: Array<{ name: string }>) => items.map((i) => i.name)

describe("spaces", () => {
  it("create, read, list, update, order, archive and restore, by short id, and the change log", async () => {
    const eng = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      { name: "Engineering", color: "#7b68ee", description: "Builders" },
      w.member.token,
      201
    )
    expect(eng).toMatchObject({ name: "Engineering", color: "#7b68ee", isPrivate: false, archived: false, createdBy: w.member.userId })
    expect(eng.shortId).toMatch(/^S-\d+$/)
    const ops = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Operations" }, w.owner.token, 201)
    expect(await call("GET", `/spaces/${eng.id}`, undefined, w.viewer.token)).toMatchObject({ id: eng.id, name: "Engineering" })
    const listed = await call("GET", `/workspaces/${w.workspaceId}/spaces`, undefined, w.viewer.token)
    expect(names(listed.items)).toEqual(expect.arrayContaining(["Engineering", "Operations"]))
    const updated = await call("PATCH", `/spaces/${eng.id}`, { name: "Product Engineering", color: null })
    expect(updated).toMatchObject({ name: "Product Engineering", color: null, description: "Builders" })
    expect(await call("GET", `/workspaces/${w.workspaceId}/spaces/by-short-id/${eng.shortId.toLowerCase()}`)).toMatchObject({ id: eng.id })
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/spaces/by-short-id/S-999`, { token: w.owner.token })).status
    ).toBe(404)

    const order = listed.items.map((s: { id: string }) => s.id)
    const reversed = [...order].reverse()
    expect(await call("PUT", `/workspaces/${w.workspaceId}/spaces/order`, { spaceIds: reversed })).toEqual({ spaceIds: reversed })
    expect((await call("GET", `/workspaces/${w.workspaceId}/spaces`)).items.map((s: { id: string }) => s.id)).toEqual(reversed)
    const bad = await atrium.request("PUT", `/pm/v1/workspaces/${w.workspaceId}/spaces/order`, {
      token: w.owner.token,
      body: { spaceIds: [eng.id] }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.spaceIds")

    expect(await call("POST", `/spaces/${ops.id}/archive`)).toMatchObject({ archived: true })
    expect((await atrium.request("POST", `/pm/v1/spaces/${ops.id}/archive`, { token: w.owner.token })).status).toBe(409)
    expect(names((await call("GET", `/workspaces/${w.workspaceId}/spaces`)).items)).not.toContain("Operations")
    expect(names((await call("GET", `/workspaces/${w.workspaceId}/spaces?archived=only`)).items)).toEqual(["Operations"])
    expect(await call("POST", `/spaces/${ops.id}/restore`)).toMatchObject({ archived: false })

    const logged = await atrium.changes(w.workspaceId)
    const created = logged.find((c) => c.type === "space.created" && c.entityId === eng.id)!
    expect(created).toMatchObject({ scope: "space", spaceId: eng.id, actorId: w.member.userId, data: { name: "Engineering" } })
    expect(logged.find((c) => c.type === "space.updated" && c.entityId === eng.id)!.data).toMatchObject({
      name: "Product Engineering",
      color: null
    })
    expect(logged.map((c) => c.type)).toEqual(expect.arrayContaining(["spaces.reordered", "space.archived", "space.restored"]))
  })

  it("delete takes an admin and removes everything below; other workspaces and viewers are refused", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Doomed" }, w.member.token, 201)
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" }, w.member.token, 201)
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "T" }, w.member.token, 201)
    expect((await atrium.request("GET", `/pm/v1/spaces/${space.id}`, { token: w.outsider.token })).status).toBe(404)
    expect((await atrium.request("PATCH", `/pm/v1/spaces/${space.id}`, { token: w.viewer.token, body: { name: "x" } })).status).toBe(403)
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/spaces`, { token: w.viewer.token, body: { name: "x" } })).status
    ).toBe(403)
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${w.otherWorkspaceId}/spaces`, { token: w.owner.token, body: { name: "x" } })).status
    ).toBe(404)
    expect((await atrium.request("DELETE", `/pm/v1/spaces/${space.id}`, { token: w.member.token })).status).toBe(403)
    await call("DELETE", `/spaces/${space.id}`, undefined, w.owner.token, 204)
    for (const path of [`/spaces/${space.id}`, `/lists/${list.id}`, `/tasks/${task.id}`]) {
      expect((await atrium.request("GET", `/pm/v1${path}`, { token: w.owner.token })).status).toBe(404)
    }
    expect((await atrium.changes(w.workspaceId, "space.deleted")).at(-1)!.data).toMatchObject({ lists: 1, tasks: 1 })
  })

  it("hierarchy reads: tree, space hierarchy, tasks, stats, archive, search, assignees", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Tree" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "Roadmap" }, w.member.token, 201)
    const inFolder = await call("POST", `/folders/${folder.id}/lists`, { name: "Now" }, w.member.token, 201)
    const loose = await call("POST", `/spaces/${space.id}/lists`, { name: "Inbox" }, w.member.token, 201)
    await call(
      "POST",
      `/lists/${inFolder.id}/tasks`,
      { name: "Login page", assigneeEmails: [w.member.email], priority: "high", dueDate: "2020-01-01" },
      w.member.token,
      201
    )
    await call("POST", `/lists/${loose.id}/tasks`, { name: "Triage", status: "done" }, w.member.token, 201)
    const tree = await call("GET", `/workspaces/${w.workspaceId}/spaces/tree`, undefined, w.viewer.token)
    const node = tree.items.find((s: { id: string }) => s.id === space.id)
    expect(node.folders[0]).toMatchObject({ name: "Roadmap", lists: [{ name: "Now", taskCounts: { total: 1, open: 1, overdue: 1 } }] })
    expect(node.lists[0]).toMatchObject({ name: "Inbox", taskCounts: { total: 1, done: 1 } })
    expect(await call("GET", `/spaces/${space.id}/hierarchy`)).toEqual(node)
    const tasks = await call("GET", `/spaces/${space.id}/tasks?priorities=high&includeClosed=false`)
    expect(names(tasks.items)).toEqual(["Login page"])
    expect((await call("GET", `/spaces/${space.id}/tasks?order=name&direction=desc`)).items.map((t: { name: string }) => t.name)).toEqual([
      "Triage",
      "Login page"
    ])
    const badQuery = await atrium.request("GET", `/pm/v1/spaces/${space.id}/tasks?priorities=urgent,meh`, { token: w.owner.token })
    expect(badQuery.status).toBe(400)
    expect(badQuery.body.error.details[0].path).toBe("query.priorities")
    const stats = await call("GET", `/spaces/${space.id}/stats`)
    expect(stats).toMatchObject({ taskCounts: { total: 2, open: 1, done: 1, overdue: 1 }, folderCount: 1, listCount: 2 })
    await call("POST", `/lists/${loose.id}/archive-closed-tasks`, undefined, w.member.token)
    const archive = await call("GET", `/spaces/${space.id}/archive`)
    expect(archive.archivedTaskCount).toBe(1)
    expect(names(archive.tasks)).toEqual(["Triage"])
    const search = await call("GET", `/spaces/${space.id}/search?q=no`)
    expect(names(search.lists)).toEqual(["Now"])
    expect((await call("GET", `/spaces/${space.id}/search?q=login`)).tasks[0].name).toBe("Login page")
    const assignees = await call("GET", `/spaces/${space.id}/assignees`)
    expect(assignees.items).toEqual([
      {
        user: { id: w.member.userId, email: w.member.email, name: "Member" },
        openTasks: 1,
        totalTasks: 1,
        openEstimateMinutes: 0,
        overdueTasks: 1
      }
    ])
  })

  it("features gate task fields; task defaults fill new tasks, lists override spaces", async () => {
    const space = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      { name: "Gated", features: { timeTracking: false } },
      w.member.token,
      201
    )
    expect(space.features).toMatchObject({ timeTracking: false, priorities: true })
    expect(await call("PATCH", `/spaces/${space.id}/features`, { priorities: false })).toMatchObject({
      priorities: false,
      timeTracking: false
    })
    expect(await call("GET", `/spaces/${space.id}/features`)).toMatchObject({ priorities: false })
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" }, w.member.token, 201)
    const refused = await atrium.request("POST", `/pm/v1/lists/${list.id}/tasks`, {
      token: w.member.token,
      body: { name: "T", priority: "high" }
    })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details[0].path).toBe("body.priority")
    await call("PATCH", `/spaces/${space.id}/features`, { priorities: true })
    expect(
      await call("PATCH", `/spaces/${space.id}/task-defaults`, { priority: "low", timeEstimateMinutes: 30, assigneeIds: [w.member.userId] })
    ).toMatchObject({ priority: "low", timeEstimateMinutes: 30 })
    expect(await call("GET", `/spaces/${space.id}/task-defaults`)).toMatchObject({ priority: "low" })
    const badDefault = await atrium.request("PATCH", `/pm/v1/spaces/${space.id}/task-defaults`, {
      token: w.owner.token,
      body: { assigneeIds: [w.outsider.userId] }
    })
    expect(badDefault.status).toBe(400)
    expect(badDefault.body.error.details[0].path).toBe("body.assigneeIds.0")
    expect(await call("PATCH", `/lists/${list.id}/task-defaults`, { priority: "urgent", dueInDays: 3 })).toEqual({
      priority: "urgent",
      dueInDays: 3
    })
    expect(await call("GET", `/lists/${list.id}/task-defaults`)).toEqual({
      own: { priority: "urgent", dueInDays: 3 },
      effective: { priority: "urgent", timeEstimateMinutes: 30, assigneeIds: [w.member.userId], dueInDays: 3 }
    })
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Defaults" }, w.owner.token, 201)
    expect(task).toMatchObject({ priority: "urgent", timeEstimateMinutes: 30, assignees: [{ id: w.member.userId }] })
    expect(Date.parse(task.dueDate) - Date.now()).toBeGreaterThan(2.9 * 86_400_000)
    const settings = await call("GET", `/lists/${list.id}/settings`)
    expect(settings).toMatchObject({
      statuses: { inheritedFrom: "space", own: false },
      features: { timeTracking: false },
      taskDefaults: { priority: "urgent" }
    })
  })

  it("private spaces: members only (admins see all); permissions", async () => {
    const secret = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Secret", isPrivate: true }, w.member.token, 201)
    expect((await atrium.request("GET", `/pm/v1/spaces/${secret.id}`, { token: w.viewer.token })).status).toBe(404)
    expect(names((await call("GET", `/workspaces/${w.workspaceId}/spaces`, undefined, w.viewer.token)).items)).not.toContain("Secret")
    expect(names((await call("GET", `/workspaces/${w.workspaceId}/spaces`, undefined, w.owner.token)).items)).toContain("Secret")
    const members = await call("GET", `/spaces/${secret.id}/members`, undefined, w.member.token)
    expect(members).toMatchObject({ isPrivate: true, items: [{ user: { id: w.member.userId } }] })
    expect(
      (await atrium.request("POST", `/pm/v1/spaces/${secret.id}/members`, { token: w.member.token, body: { userId: w.viewer.userId } }))
        .status
    ).toBe(403)
    expect(await call("POST", `/spaces/${secret.id}/members`, { userId: w.viewer.userId }, w.owner.token, 201)).toEqual({
      userId: w.viewer.userId
    })
    expect(
      (await atrium.request("POST", `/pm/v1/spaces/${secret.id}/members`, { token: w.owner.token, body: { userId: w.viewer.userId } }))
        .status
    ).toBe(409)
    expect(
      (await atrium.request("POST", `/pm/v1/spaces/${secret.id}/members`, { token: w.owner.token, body: { userId: w.outsider.userId } }))
        .status
    ).toBe(400)
    expect(await call("GET", `/spaces/${secret.id}/permissions`, undefined, w.viewer.token)).toEqual({
      role: "viewer",
      canRead: true,
      canWrite: false,
      canManage: false,
      isPrivate: true
    })
    // a viewer may leave; nobody but an admin removes someone else
    expect(
      (await atrium.request("DELETE", `/pm/v1/spaces/${secret.id}/members/${w.member.userId}`, { token: w.viewer.token })).status
    ).toBe(403)
    await call("DELETE", `/spaces/${secret.id}/members/${w.viewer.userId}`, undefined, w.viewer.token, 204)
    expect((await atrium.request("GET", `/pm/v1/spaces/${secret.id}`, { token: w.viewer.token })).status).toBe(404)
    const open = await call("GET", `/spaces/${secret.id}/members`, undefined, w.owner.token)
    expect(open.items).toHaveLength(1)
    const publicMembers = await call("PATCH", `/spaces/${secret.id}`, { isPrivate: false }, w.owner.token)
    expect(publicMembers.isPrivate).toBe(false)
    expect((await call("GET", `/spaces/${secret.id}/members`, undefined, w.viewer.token)).items).toHaveLength(3)
  })

  it("duplicates, exports and imports structure", async () => {
    const space = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      {
        name: "Template source",
        statuses: [
          { name: "new", type: "open" },
          { name: "shipped", type: "closed" }
        ]
      },
      w.member.token,
      201
    )
    await call(
      "POST",
      `/spaces/${space.id}/custom-fields`,
      { name: "Env", type: "dropdown", options: [{ name: "prod" }] },
      w.member.token,
      201
    )
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" }, w.member.token, 201)
    await call("POST", `/folders/${folder.id}/lists`, { name: "FL" }, w.member.token, 201)
    await call("POST", `/spaces/${space.id}/lists`, { name: "Loose" }, w.member.token, 201)
    const template = await call("GET", `/spaces/${space.id}/template`)
    expect(template).toMatchObject({
      name: "Template source",
      statuses: [{ name: "new" }, { name: "shipped" }],
      folders: [{ name: "F", lists: [{ name: "FL" }] }],
      lists: [{ name: "Loose" }]
    })
    expect(template.customFields[0]).toMatchObject({ name: "Env", type: "dropdown", config: { options: [{ name: "prod" }] } })
    const copy = await call("POST", `/spaces/${space.id}/duplicate`, { name: "Copy" }, w.member.token, 201)
    const copyTree = await call("GET", `/spaces/${copy.id}/hierarchy`)
    expect(copyTree.folders[0]).toMatchObject({ name: "F", lists: [{ name: "FL" }] })
    expect(names((await call("GET", `/spaces/${copy.id}/statuses`)).items)).toEqual(["new", "shipped"])
    const imported = await call("POST", `/workspaces/${w.workspaceId}/spaces/import`, { template, name: "Imported" }, w.member.token, 201)
    expect(names((await call("GET", `/spaces/${imported.id}/custom-fields`)).items)).toEqual(["Env"])
    const invalid = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/spaces/import`, {
      token: w.member.token,
      body: {
        template: {
          name: "X",
          statuses: [
            { name: "a", type: "open" },
            { name: "a", type: "done" }
          ]
        }
      }
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error.details[0].path).toBe("body.template.statuses.1.name")
  })
})

describe("statuses: inherited downward, copy-on-write, tasks follow", () => {
  it("space → folder → list inheritance, overrides and reset", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Flow" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" }, w.member.token, 201)
    const list = await call("POST", `/folders/${folder.id}/lists`, { name: "L" }, w.member.token, 201)
    const spaceStatuses = await call("GET", `/spaces/${space.id}/statuses`)
    expect(spaceStatuses).toMatchObject({ inheritedFrom: "space", own: true })
    expect(spaceStatuses.items.map((s: { type: string }) => s.type)).toEqual(["open", "active", "done", "closed"])
    expect(await call("GET", `/lists/${list.id}/statuses`)).toMatchObject({ inheritedFrom: "space", own: false })

    // A new space status shows up below.
    const review = await call(
      "POST",
      `/spaces/${space.id}/statuses`,
      { name: "review", type: "active", color: "#ff0000" },
      w.member.token,
      201
    )
    expect(review).toMatchObject({ name: "review", type: "active", color: "#ff0000", position: 5 })
    expect(names((await call("GET", `/lists/${list.id}/statuses`)).items)).toContain("review")
    expect(await call("GET", `/spaces/${space.id}/statuses/${review.id}`)).toMatchObject({ name: "review" })

    // The folder gets its own by replacing; the list follows the folder.
    const replaced = await call("PUT", `/folders/${folder.id}/statuses`, {
      statuses: [
        { name: "backlog", type: "open" },
        { name: "doing", type: "active" },
        { name: "shipped", type: "closed" }
      ]
    })
    expect(names(replaced.items)).toEqual(["backlog", "doing", "shipped"])
    expect(await call("GET", `/lists/${list.id}/statuses`)).toMatchObject({ inheritedFrom: "folder", own: false })
    expect((await call("GET", `/folders/${folder.id}`)).ownStatuses).toBe(true)

    // Editing inherited statuses on the list copies them first (copy-on-write).
    const inherited = (await call("GET", `/lists/${list.id}/statuses`)).items
    const renamed = await call("PATCH", `/lists/${list.id}/statuses/${inherited[1].id}`, { name: "in flight" })
    expect(renamed.name).toBe("in flight")
    expect(await call("GET", `/lists/${list.id}/statuses`)).toMatchObject({ inheritedFrom: "list", own: true })
    expect(names((await call("GET", `/folders/${folder.id}/statuses`)).items)).toEqual(["backlog", "doing", "shipped"])
    expect((await call("GET", `/lists/${list.id}`)).ownStatuses).toBe(true)

    // Reset: the list inherits the folder's again; the folder, the space's.
    expect(await call("DELETE", `/lists/${list.id}/statuses`)).toMatchObject({ inheritedFrom: "folder", own: false })
    expect((await atrium.request("DELETE", `/pm/v1/lists/${list.id}/statuses`, { token: w.owner.token })).status).toBe(409)
    expect(await call("DELETE", `/folders/${folder.id}/statuses`)).toMatchObject({ inheritedFrom: "space" })
    const types = (await atrium.changes(w.workspaceId)).map((c) => c.type)
    expect(types).toEqual(expect.arrayContaining(["status.created", "statuses.replaced", "status.updated", "statuses.reset"]))
  })

  it("renames, deletions and replacements move the tasks; a workflow keeps an open and a finished status", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Moves" }, w.member.token, 201)
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" }, w.member.token, 201)
    const a = await call("POST", `/lists/${list.id}/tasks`, { name: "A", status: "in progress" }, w.member.token, 201)
    const b = await call("POST", `/lists/${list.id}/tasks`, { name: "B", status: "done" }, w.member.token, 201)
    expect(b.closedAt).not.toBeNull()
    const statuses = (await call("GET", `/spaces/${space.id}/statuses`)).items
    const byName = (name: string) => statuses.find((s: { name: string }) => s.name === name)
    await call("PATCH", `/spaces/${space.id}/statuses/${byName("in progress").id}`, { name: "working" })
    expect((await call("GET", `/tasks/${a.id}`)).status.name).toBe("working")
    // retyping "done" as active reopens its tasks
    await call("PATCH", `/spaces/${space.id}/statuses/${byName("done").id}`, { type: "active" })
    expect((await call("GET", `/tasks/${b.id}`)).closedAt).toBeNull()
    await call("PATCH", `/spaces/${space.id}/statuses/${byName("done").id}`, { type: "done" })
    const usage = await call("GET", `/spaces/${space.id}/statuses/usage`)
    expect(usage.items.find((u: { name: string }) => u.name === "working").taskCount).toBe(1)
    expect(usage.listIds).toEqual([list.id])
    const deleted = await call("DELETE", `/spaces/${space.id}/statuses/${byName("in progress").id}?moveTo=to%20do`)
    expect(deleted).toEqual({ deleted: byName("in progress").id, tasksMoved: 1 })
    expect((await call("GET", `/tasks/${a.id}`)).status).toMatchObject({ name: "to do", type: "open" })
    const unknownTarget = await atrium.request("DELETE", `/pm/v1/spaces/${space.id}/statuses/${byName("closed").id}?moveTo=nowhere`, {
      token: w.owner.token
    })
    expect(unknownTarget.status).toBe(400)
    const open = (await call("GET", `/spaces/${space.id}/statuses`)).items.filter((s: { type: string }) => s.type === "open")
    const lastOpen = await atrium.request("DELETE", `/pm/v1/spaces/${space.id}/statuses/${open[0].id}`, { token: w.owner.token })
    expect(lastOpen.status).toBe(409)
    const replaced = await call("PUT", `/spaces/${space.id}/statuses`, {
      statuses: [
        { name: "new", type: "open" },
        { name: "finished", type: "done" }
      ],
      mapping: { done: "finished" }
    })
    expect(replaced.tasksMoved).toBe(2)
    expect((await call("GET", `/tasks/${a.id}`)).status.name).toBe("new")
    expect((await call("GET", `/tasks/${b.id}`)).status).toMatchObject({ name: "finished", type: "done" })
    const current = (await call("GET", `/spaces/${space.id}/statuses`)).items
    const reordered = await call("PUT", `/spaces/${space.id}/statuses/order`, { statusIds: [current[1].id, current[0].id] })
    expect(names(reordered.items)).toEqual(["finished", "new"])
    const notPermutation = await atrium.request("PUT", `/pm/v1/spaces/${space.id}/statuses/order`, {
      token: w.owner.token,
      body: { statusIds: [current[0].id] }
    })
    expect(notPermutation.status).toBe(400)
    const duplicate = await atrium.request("POST", `/pm/v1/spaces/${space.id}/statuses`, {
      token: w.owner.token,
      body: { name: "NEW", type: "open" }
    })
    expect(duplicate.status).toBe(409)
    expect((await atrium.changes(w.workspaceId, "tasks.statuses_remapped")).length).toBeGreaterThan(0)
  })

  it("folder and list status operations", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Scoped" }, w.member.token, 201)
    const folder = await call(
      "POST",
      `/spaces/${space.id}/folders`,
      {
        name: "F",
        statuses: [
          { name: "todo", type: "open" },
          { name: "done", type: "done" }
        ]
      },
      w.member.token,
      201
    )
    expect(folder.ownStatuses).toBe(true)
    const list = await call("POST", `/folders/${folder.id}/lists`, { name: "L" }, w.member.token, 201)
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "T" }, w.member.token, 201)
    expect(task.status.name).toBe("todo")
    const wip = await call("POST", `/folders/${folder.id}/statuses`, { name: "wip", type: "active" }, w.member.token, 201)
    expect(await call("GET", `/folders/${folder.id}/statuses/${wip.id}`)).toMatchObject({ name: "wip" })
    await call("PATCH", `/folders/${folder.id}/statuses/${wip.id}`, { color: "#00ff00" })
    const folderUsage = await call("GET", `/folders/${folder.id}/statuses/usage`)
    expect(folderUsage.items.find((u: { name: string }) => u.name === "todo").taskCount).toBe(1)
    const ids = (await call("GET", `/folders/${folder.id}/statuses`)).items.map((s: { id: string }) => s.id)
    await call("PUT", `/folders/${folder.id}/statuses/order`, { statusIds: [ids[0], ids[2], ids[1]] })
    await call("DELETE", `/folders/${folder.id}/statuses/${wip.id}`)
    // list level
    const listWip = await call("POST", `/lists/${list.id}/statuses`, { name: "blocked", type: "active" }, w.member.token, 201)
    expect(await call("GET", `/lists/${list.id}/statuses/${listWip.id}`)).toMatchObject({ name: "blocked" })
    await call("PATCH", `/lists/${list.id}/statuses/${listWip.id}`, { name: "stuck" })
    await call("PATCH", `/tasks/${task.id}`, { status: "stuck" })
    const listUsage = await call("GET", `/lists/${list.id}/statuses/usage`)
    expect(listUsage.items.find((u: { name: string }) => u.name === "stuck").taskCount).toBe(1)
    const listIds = (await call("GET", `/lists/${list.id}/statuses`)).items.map((s: { id: string }) => s.id)
    await call("PUT", `/lists/${list.id}/statuses/order`, { statusIds: [...listIds].reverse() })
    await call("DELETE", `/lists/${list.id}/statuses/${listWip.id}`)
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("todo")
    await call("PUT", `/lists/${list.id}/statuses`, {
      statuses: [
        { name: "a", type: "open" },
        { name: "z", type: "closed" }
      ]
    })
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("a")
    await call("DELETE", `/lists/${list.id}/statuses`)
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("todo")
    expect(
      (await atrium.request("POST", `/pm/v1/folders/${folder.id}/statuses`, { token: w.viewer.token, body: { name: "x", type: "open" } }))
        .status
    ).toBe(403)
    expect((await atrium.request("GET", `/pm/v1/lists/${list.id}/statuses`, { token: w.outsider.token })).status).toBe(404)
  })
})

describe("custom field definitions", () => {
  it("on each level, inherited downward, with options; values follow definitions", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Fields" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" }, w.member.token, 201)
    const list = await call("POST", `/folders/${folder.id}/lists`, { name: "L" }, w.member.token, 201)
    const env = await call(
      "POST",
      `/spaces/${space.id}/custom-fields`,
      { name: "Env", type: "dropdown", options: [{ name: "prod", color: "#ff0000" }, { name: "dev" }] },
      w.member.token,
      201
    )
    expect(env.config.options.map((o: { name: string }) => o.name)).toEqual(["prod", "dev"])
    const points = await call(
      "POST",
      `/folders/${folder.id}/custom-fields`,
      { name: "Points", type: "number", min: 0, max: 100 },
      w.member.token,
      201
    )
    const budget = await call(
      "POST",
      `/lists/${list.id}/custom-fields`,
      { name: "Budget", type: "currency", currency: "EUR" },
      w.member.token,
      201
    )
    expect(budget.config).toEqual({ currency: "EUR", precision: 2 })
    const labels = await call(
      "POST",
      `/lists/${list.id}/custom-fields`,
      { name: "Areas", type: "labels", options: [{ name: "ui" }, { name: "api" }] },
      w.member.token,
      201
    )
    const available = await call("GET", `/lists/${list.id}/custom-fields`)
    expect(available.items.map((f: { name: string; inherited: boolean }) => [f.name, f.inherited])).toEqual([
      ["Env", true],
      ["Points", true],
      ["Budget", false],
      ["Areas", false]
    ])
    expect(names((await call("GET", `/folders/${folder.id}/custom-fields`)).items)).toEqual(["Env", "Points"])
    expect(names((await call("GET", `/spaces/${space.id}/custom-fields`)).items)).toEqual(["Env"])
    expect(await call("GET", `/lists/${list.id}/custom-fields/${env.id}`)).toMatchObject({ name: "Env", inherited: true })
    expect(await call("GET", `/folders/${folder.id}/custom-fields/${points.id}`)).toMatchObject({ inherited: false })
    expect(await call("GET", `/spaces/${space.id}/custom-fields/${env.id}`)).toMatchObject({ inherited: false })
    // Name clashes with inherited fields; options only where they belong.
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${list.id}/custom-fields`, { token: w.owner.token, body: { name: "env", type: "text" } }))
        .status
    ).toBe(409)
    const noOptions = await atrium.request("POST", `/pm/v1/spaces/${space.id}/custom-fields`, {
      token: w.owner.token,
      body: { name: "X", type: "text", options: [{ name: "a" }] }
    })
    expect(noOptions.status).toBe(400)
    expect(noOptions.body.error.details[0].path).toBe("body.options")
    expect(
      (await atrium.request("POST", `/pm/v1/spaces/${space.id}/custom-fields`, { token: w.owner.token, body: { name: "Y", type: "blob" } }))
        .status
    ).toBe(400)

    // Values validated against definitions
    const task = await call(
      "POST",
      `/lists/${list.id}/tasks`,
      { name: "T", customFields: { [env.id]: "prod", [points.id]: 8, [labels.id]: ["ui", "API"] } },
      w.member.token,
      201
    )
    const value = (t: { customFields: Array<{ name: string; value: unknown }> }, name: string) =>
      t.customFields.find((f) => f.name === name)?.value
    expect(value(task, "Env")).toMatchObject({ name: "prod" })
    expect(value(task, "Points")).toBe(8)
    expect((value(task, "Areas") as Array<{ name: string }>).map((o) => o.name)).toEqual(["ui", "api"])
    const tooBig = await atrium.request("PATCH", `/pm/v1/tasks/${task.id}`, {
      token: w.owner.token,
      body: { customFields: { [points.id]: 101 } }
    })
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.error.details[0].path).toBe(`body.customFields.${points.id}`)

    // Field and option edits
    expect(await call("PATCH", `/folders/${folder.id}/custom-fields/${points.id}`, { name: "Story points", max: null })).toMatchObject({
      name: "Story points",
      config: { min: 0 }
    })
    await call("PATCH", `/tasks/${task.id}`, { customFields: { [points.id]: 1000 } })
    const staging = await call("POST", `/spaces/${space.id}/custom-fields/${env.id}/options`, { name: "staging" }, w.member.token, 201)
    const stagingId = staging.config.options.find((o: { name: string }) => o.name === "staging").id
    await call("PATCH", `/spaces/${space.id}/custom-fields/${env.id}/options/${stagingId}`, { name: "stage", color: "#00ff00" })
    const optionIds = (await call("GET", `/spaces/${space.id}/custom-fields/${env.id}`)).config.options.map((o: { id: string }) => o.id)
    const reordered = await call("PUT", `/spaces/${space.id}/custom-fields/${env.id}/options/order`, {
      optionIds: [...optionIds].reverse()
    })
    expect(reordered.config.options.map((o: { name: string }) => o.name)).toEqual(["stage", "dev", "prod"])
    await call("DELETE", `/spaces/${space.id}/custom-fields/${env.id}/options/${optionIds[0]}`)
    expect(value(await call("GET", `/tasks/${task.id}`), "Env")).toBeUndefined()
    await call("PATCH", `/spaces/${space.id}/custom-fields/${env.id}`, { description: "Where it runs" })
    const folderField = await call(
      "POST",
      `/folders/${folder.id}/custom-fields`,
      { name: "Risk", type: "rating", max: 3 },
      w.member.token,
      201
    )
    const folderOrder = await call("PUT", `/folders/${folder.id}/custom-fields/order`, { fieldIds: [folderField.id, points.id] })
    expect(names(folderOrder.items)).toEqual(["Risk", "Story points"])
    const sel = await call(
      "POST",
      `/folders/${folder.id}/custom-fields`,
      { name: "Sev", type: "dropdown", options: [{ name: "a" }, { name: "b" }] },
      w.member.token,
      201
    )
    const selIds = sel.config.options.map((o: { id: string }) => o.id)
    await call("POST", `/folders/${folder.id}/custom-fields/${sel.id}/options`, { name: "c" }, w.member.token, 201)
    await call("PATCH", `/folders/${folder.id}/custom-fields/${sel.id}/options/${selIds[0]}`, { name: "A" })
    const all = (await call("GET", `/folders/${folder.id}/custom-fields/${sel.id}`)).config.options.map((o: { id: string }) => o.id)
    await call("PUT", `/folders/${folder.id}/custom-fields/${sel.id}/options/order`, { optionIds: [...all].reverse() })
    await call("DELETE", `/folders/${folder.id}/custom-fields/${sel.id}/options/${selIds[1]}`)
    await call("PATCH", `/lists/${list.id}/custom-fields/${labels.id}`, { required: false, description: "areas" })
    await call("POST", `/lists/${list.id}/custom-fields/${labels.id}/options`, { name: "infra" }, w.member.token, 201)
    const labelIds = (await call("GET", `/lists/${list.id}/custom-fields/${labels.id}`)).config.options.map((o: { id: string }) => o.id)
    await call("PATCH", `/lists/${list.id}/custom-fields/${labels.id}/options/${labelIds[0]}`, { color: "#123456" })
    await call("PUT", `/lists/${list.id}/custom-fields/${labels.id}/options/order`, { optionIds: [...labelIds].reverse() })
    await call("DELETE", `/lists/${list.id}/custom-fields/${labels.id}/options/${labelIds[1]}`)
    expect((value(await call("GET", `/tasks/${task.id}`), "Areas") as Array<{ name: string }>).map((o) => o.name)).toEqual(["ui"])
    await call("PUT", `/lists/${list.id}/custom-fields/order`, { fieldIds: [labels.id, budget.id] })
    const region = await call("POST", `/spaces/${space.id}/custom-fields`, { name: "Region", type: "text" }, w.member.token, 201)
    expect(names((await call("PUT", `/spaces/${space.id}/custom-fields/order`, { fieldIds: [region.id, env.id] })).items)).toEqual([
      "Region",
      "Env"
    ])
    // Deleting takes an admin and clears values.
    expect((await atrium.request("DELETE", `/pm/v1/lists/${list.id}/custom-fields/${labels.id}`, { token: w.member.token })).status).toBe(
      403
    )
    await call("DELETE", `/lists/${list.id}/custom-fields/${labels.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `/folders/${folder.id}/custom-fields/${folderField.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `/spaces/${space.id}/custom-fields/${env.id}`, undefined, w.owner.token, 204)
    expect(value(await call("GET", `/tasks/${task.id}`), "Areas")).toBeUndefined()
    // A field defined elsewhere is not this scope's to change.
    expect(
      (await atrium.request("PATCH", `/pm/v1/lists/${list.id}/custom-fields/${points.id}`, { token: w.owner.token, body: { name: "x" } }))
        .status
    ).toBe(404)
    const types = (await atrium.changes(w.workspaceId)).map((c) => c.type)
    expect(types).toEqual(
      expect.arrayContaining([
        "custom_field.created",
        "custom_field.updated",
        "custom_field.deleted",
        "custom_field.option_added",
        "custom_field.options_reordered"
      ])
    )
  })
})

describe("folders", () => {
  it("CRUD, order, archive, duplicate, move across spaces, reads", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Folders" }, w.member.token, 201)
    const other = await call(
      "POST",
      `/workspaces/${w.workspaceId}/spaces`,
      {
        name: "Elsewhere",
        statuses: [
          { name: "open", type: "open" },
          { name: "in progress", type: "active" },
          { name: "finished", type: "closed" }
        ]
      },
      w.member.token,
      201
    )
    const a = await call("POST", `/spaces/${space.id}/folders`, { name: "A", description: "first", color: "#111111" }, w.member.token, 201)
    const b = await call("POST", `/spaces/${space.id}/folders`, { name: "B" }, w.member.token, 201)
    expect(a).toMatchObject({ name: "A", spaceId: space.id, ownStatuses: false })
    expect(a.shortId).toMatch(/^F-\d+$/)
    expect(await call("GET", `/folders/${a.id}`, undefined, w.viewer.token)).toMatchObject({ description: "first" })
    expect(await call("GET", `/workspaces/${w.workspaceId}/folders/by-short-id/${a.shortId}`)).toMatchObject({ id: a.id })
    expect(await call("PATCH", `/folders/${a.id}`, { name: "Alpha", color: null })).toMatchObject({ name: "Alpha", color: null })
    expect(names((await call("GET", `/spaces/${space.id}/folders`)).items)).toEqual(["Alpha", "B"])
    await call("PUT", `/spaces/${space.id}/folders/order`, { folderIds: [b.id, a.id] })
    expect(names((await call("GET", `/spaces/${space.id}/folders`)).items)).toEqual(["B", "Alpha"])
    await call("POST", `/folders/${b.id}/archive`)
    expect(names((await call("GET", `/spaces/${space.id}/folders`)).items)).toEqual(["Alpha"])
    expect(names((await call("GET", `/spaces/${space.id}/folders?archived=include`)).items)).toEqual(["B", "Alpha"])
    expect((await call("GET", `/spaces/${space.id}/archive`)).folders[0].name).toBe("B")
    await call("POST", `/folders/${b.id}/restore`)
    expect((await atrium.request("POST", `/pm/v1/folders/${b.id}/restore`, { token: w.owner.token })).status).toBe(409)

    const list = await call("POST", `/folders/${a.id}/lists`, { name: "Work" }, w.member.token, 201)
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "T", status: "in progress", tags: ["ui"] }, w.member.token, 201)
    await call("POST", `/lists/${list.id}/tasks`, { name: "Done one", status: "done" }, w.member.token, 201)
    expect((await call("GET", `/folders/${a.id}/tasks?statuses=In%20Progress`)).items.map((t: { id: string }) => t.id)).toEqual([task.id])
    expect(await call("GET", `/folders/${a.id}/stats`)).toMatchObject({ taskCounts: { total: 2, active: 1, done: 1 }, listCount: 1 })
    const copy = await call("POST", `/folders/${a.id}/duplicate`, {}, w.member.token, 201)
    expect(copy.name).toBe("Alpha (copy)")
    expect(names((await call("GET", `/folders/${copy.id}/lists`)).items)).toEqual(["Work"])

    const moved = await call("POST", `/folders/${a.id}/move`, { spaceId: other.id })
    expect(moved.spaceId).toBe(other.id)
    const movedTask = await call("GET", `/tasks/${task.id}`)
    expect(movedTask).toMatchObject({ spaceId: other.id, status: { name: "in progress" } })
    expect(movedTask.tags.map((t: { name: string; spaceId: string }) => [t.name, t.spaceId])).toEqual([["ui", other.id]])
    const finished = (await call("GET", `/folders/${a.id}/tasks?statuses=finished`)).items
    expect(names(finished)).toEqual(["Done one"])
    expect(
      (await atrium.request("POST", `/pm/v1/folders/${a.id}/move`, { token: w.owner.token, body: { spaceId: w.otherWorkspaceId } })).status
    ).toBe(404)
    expect((await atrium.changes(w.workspaceId, "folder.moved")).length).toBe(2)

    expect((await atrium.request("DELETE", `/pm/v1/folders/${copy.id}`, { token: w.member.token })).status).toBe(403)
    await call("DELETE", `/folders/${copy.id}`, undefined, w.owner.token, 204)
    expect((await atrium.request("GET", `/pm/v1/folders/${copy.id}`, { token: w.owner.token })).status).toBe(404)
    expect((await atrium.request("GET", `/pm/v1/folders/${a.id}`, { token: w.outsider.token })).status).toBe(404)
  })
})

describe("lists", () => {
  it("CRUD, placement, order, archive, duplicate, short ids, all lists", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Lists" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" }, w.member.token, 201)
    const one = await call(
      "POST",
      `/spaces/${space.id}/lists`,
      { name: "One", priority: "high", dueDate: "2026-12-31", ownerId: w.member.userId },
      w.member.token,
      201
    )
    expect(one).toMatchObject({ folderId: null, priority: "high", dueDate: "2026-12-31T00:00:00.000Z", ownerId: w.member.userId })
    const two = await call("POST", `/spaces/${space.id}/lists`, { name: "Two" }, w.member.token, 201)
    const inFolder = await call("POST", `/folders/${folder.id}/lists`, { name: "Three" }, w.member.token, 201)
    expect(inFolder.folderId).toBe(folder.id)
    const badOwner = await atrium.request("POST", `/pm/v1/spaces/${space.id}/lists`, {
      token: w.owner.token,
      body: { name: "X", ownerId: w.outsider.userId }
    })
    expect(badOwner.status).toBe(400)
    expect(badOwner.body.error.details[0].path).toBe("body.ownerId.0")
    const badDates = await atrium.request("PATCH", `/pm/v1/lists/${one.id}`, { token: w.owner.token, body: { startDate: "2027-01-05" } })
    expect(badDates.status).toBe(400)
    expect(names((await call("GET", `/spaces/${space.id}/lists`)).items)).toEqual(["One", "Two"])
    expect(names((await call("GET", `/folders/${folder.id}/lists`)).items)).toEqual(["Three"])
    const all = (await call("GET", `/workspaces/${w.workspaceId}/lists`)).items.filter((l: { spaceId: string }) => l.spaceId === space.id)
    expect(all.map((l: { name: string; folderName: string | null }) => [l.name, l.folderName])).toEqual([
      ["One", null],
      ["Two", null],
      ["Three", "F"]
    ])
    expect(await call("GET", `/lists/${one.id}`)).toMatchObject({ name: "One" })
    expect(await call("GET", `/workspaces/${w.workspaceId}/lists/by-short-id/${one.shortId}`)).toMatchObject({ id: one.id })
    expect(await call("PATCH", `/lists/${one.id}`, { name: "Uno", dueDate: null, description: "first" })).toMatchObject({
      name: "Uno",
      dueDate: null,
      description: "first"
    })
    await call("PUT", `/spaces/${space.id}/lists/order`, { listIds: [two.id, one.id] })
    expect(names((await call("GET", `/spaces/${space.id}/lists`)).items)).toEqual(["Two", "Uno"])
    await call("PUT", `/spaces/${space.id}/lists/order`, { folderId: folder.id, listIds: [inFolder.id] })
    await call("POST", `/lists/${two.id}/archive`)
    expect(names((await call("GET", `/spaces/${space.id}/lists`)).items)).toEqual(["Uno"])
    await call("POST", `/lists/${two.id}/restore`)
    const copy = await call("POST", `/lists/${one.id}/duplicate`, { folderId: folder.id }, w.member.token, 201)
    expect(copy).toMatchObject({ name: "Uno (copy)", folderId: folder.id, priority: "high", ownerId: w.member.userId })

    // Moves: into a folder with its own statuses, then out of it
    await call("PUT", `/folders/${folder.id}/statuses`, {
      statuses: [
        { name: "queued", type: "open" },
        { name: "running", type: "active" },
        { name: "over", type: "closed" }
      ]
    })
    const task = await call("POST", `/lists/${one.id}/tasks`, { name: "Move me", status: "in progress" }, w.member.token, 201)
    const moved = await call("POST", `/lists/${one.id}/move`, { folderId: folder.id })
    expect(moved.folderId).toBe(folder.id)
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("running")
    const out = await call("POST", `/lists/${one.id}/move`, { folderId: null })
    expect(out.folderId).toBeNull()
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("in progress")
    const elsewhere = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Lists 2" }, w.member.token, 201)
    expect(await call("POST", `/lists/${one.id}/move`, { spaceId: elsewhere.id })).toMatchObject({ spaceId: elsewhere.id, folderId: null })
    expect((await call("GET", `/tasks/${task.id}`)).spaceId).toBe(elsewhere.id)
    expect((await atrium.request("POST", `/pm/v1/lists/${one.id}/move`, { token: w.owner.token, body: {} })).status).toBe(400)

    expect((await atrium.request("DELETE", `/pm/v1/lists/${two.id}`, { token: w.member.token })).status).toBe(403)
    await call("DELETE", `/lists/${two.id}`, undefined, w.owner.token, 204)
    expect((await atrium.request("GET", `/pm/v1/lists/${two.id}`, { token: w.owner.token })).status).toBe(404)
    expect((await atrium.request("GET", `/pm/v1/lists/${one.id}`, { token: w.outsider.token })).status).toBe(404)
    expect((await atrium.request("PATCH", `/pm/v1/lists/${one.id}`, { token: w.viewer.token, body: { name: "x" } })).status).toBe(403)
    const logged = await atrium.changes(w.workspaceId)
    expect(logged.find((c) => c.type === "list.created" && c.entityId === one.id)).toMatchObject({
      scope: "list",
      listId: one.id,
      spaceId: space.id
    })
    expect(logged.map((c) => c.type)).toEqual(
      expect.arrayContaining(["list.updated", "list.moved", "list.archived", "list.restored", "list.deleted", "lists.reordered"])
    )
    const ownerNotified = await atrium.notifications(w.member.userId)
    expect(ownerNotified.length).toBeGreaterThanOrEqual(0)
  })

  it("tasks in several lists, stats, settings, CSV export, archiving finished tasks", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Multi" }, w.member.token, 201)
    const home = await call("POST", `/spaces/${space.id}/lists`, { name: "Home" }, w.member.token, 201)
    const extra = await call("POST", `/spaces/${space.id}/lists`, { name: "Extra" }, w.member.token, 201)
    await call("POST", `/lists/${home.id}/custom-fields`, { name: "Notes, quoted", type: "text" }, w.member.token, 201)
    const fields = (await call("GET", `/lists/${home.id}/custom-fields`)).items
    const task = await call(
      "POST",
      `/lists/${home.id}/tasks`,
      { name: 'Say "hi", twice', assigneeEmails: [w.member.email], customFields: { [fields[0].id]: "a,b" } },
      w.member.token,
      201
    )
    await call("POST", `/lists/${home.id}/tasks`, { name: "Finished", status: "closed" }, w.member.token, 201)
    expect(await call("POST", `/lists/${extra.id}/linked-tasks`, { taskId: task.id }, w.member.token, 201)).toEqual({
      taskId: task.id,
      listId: extra.id
    })
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${extra.id}/linked-tasks`, { token: w.member.token, body: { taskId: task.id } })).status
    ).toBe(409)
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${home.id}/linked-tasks`, { token: w.member.token, body: { taskId: task.id } })).status
    ).toBe(409)
    expect((await call("GET", `/lists/${extra.id}/tasks`)).items.map((t: { id: string }) => t.id)).toEqual([task.id])
    expect((await call("GET", `/tasks/${task.id}/lists`)).items.map((l: { id: string; home: boolean }) => [l.id, l.home])).toEqual([
      [home.id, true],
      [extra.id, false]
    ])
    await call("DELETE", `/lists/${extra.id}/linked-tasks/${task.id}`, undefined, w.member.token, 204)
    expect((await call("GET", `/lists/${extra.id}/tasks`)).items).toEqual([])
    const stats = await call("GET", `/lists/${home.id}/stats`)
    expect(stats).toMatchObject({ taskCounts: { total: 2, open: 1, closed: 1 }, completion: 0.5 })
    expect(stats.byStatus.find((s: { name: string }) => s.name === "to do").count).toBe(1)
    const csv = await atrium.request("GET", `/pm/v1/lists/${home.id}/export.csv`, { token: w.viewer.token })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toContain("text/csv")
    const lines = csv.text.trim().split("\r\n")
    expect(lines[0]).toBe('shortId,name,status,priority,assignees,startDate,dueDate,timeEstimateMinutes,tags,createdAt,"Notes, quoted"')
    expect(lines[1]).toContain('"Say ""hi"", twice",to do,,' + w.member.email)
    expect(lines[1].endsWith(',"a,b"')).toBe(true)
    expect(await call("POST", `/lists/${home.id}/archive-closed-tasks`, undefined, w.member.token)).toMatchObject({ archived: 1 })
    expect((await call("GET", `/lists/${home.id}/stats`)).taskCounts.total).toBe(1)
  })
})

describe("watchers of spaces, folders and lists", () => {
  it("watch and unwatch; watchers hear of new tasks", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Watched" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" }, w.member.token, 201)
    const list = await call("POST", `/folders/${folder.id}/lists`, { name: "L" }, w.member.token, 201)
    expect(await call("POST", `/spaces/${space.id}/watchers`, {}, w.member.token, 201)).toEqual({ userId: w.member.userId })
    expect((await atrium.request("POST", `/pm/v1/spaces/${space.id}/watchers`, { token: w.member.token, body: {} })).status).toBe(409)
    await call("POST", `/folders/${folder.id}/watchers`, { userId: w.viewer.userId }, w.owner.token, 201)
    await call("POST", `/lists/${list.id}/watchers`, { userId: w.owner.userId }, w.member.token, 201)
    expect((await call("GET", `/spaces/${space.id}/watchers`)).items.map((x: { user: { id: string } }) => x.user.id)).toEqual([
      w.member.userId
    ])
    expect((await call("GET", `/folders/${folder.id}/watchers`)).items[0].user.email).toBe(w.viewer.email)
    expect((await call("GET", `/lists/${list.id}/watchers`)).items[0].user.id).toBe(w.owner.userId)
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Watch this" }, w.owner.token, 201)
    for (const user of [w.member, w.viewer]) {
      const received = await atrium.notifications(user.userId)
      expect(received.some((n) => n.reason === "watching" && n.entityId === task.id)).toBe(true)
    }
    expect((await atrium.notifications(w.owner.userId)).some((n) => n.entityId === task.id)).toBe(false)
    await call("DELETE", `/spaces/${space.id}/watchers/${w.member.userId}`, undefined, w.member.token, 204)
    await call("DELETE", `/folders/${folder.id}/watchers/${w.viewer.userId}`, undefined, w.member.token, 204)
    await call("DELETE", `/lists/${list.id}/watchers/${w.owner.userId}`, undefined, w.member.token, 204)
    expect((await atrium.request("DELETE", `/pm/v1/lists/${list.id}/watchers/${w.owner.userId}`, { token: w.member.token })).status).toBe(
      404
    )
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${list.id}/watchers`, { token: w.member.token, body: { userId: w.outsider.userId } }))
        .status
    ).toBe(400)
  })
})
