/**
 * Sprints and Sprint Groups: every operation on its happy path, the rules
 * (one active sprint per series, one open sprint per task, rollover to the
 * next sprint or the backlog, auto-created successors), access, and the
 * change log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Planning, startPlanning } from "./planningSupport.ts"

let p: Planning
beforeAll(async () => {
  p = await startPlanning()
})
afterAll(async () => {
  await p?.atrium.close()
})

const DAY = 86_400_000

describe("Sprint Groups", () => {
  it("creates, lists, updates and deletes groups; names are unique per space; access", async () => {
    const { call, fail, space, w } = p
    const group = await call(
      "POST",
      `/spaces/${space.id}/sprint-groups`,
      { name: "Platform", defaultLengthDays: 7, description: "weekly" },
      w.member.token,
      201
    )
    expect(group).toMatchObject({
      name: "Platform",
      defaultLengthDays: 7,
      autoCreateNext: true,
      teamId: null,
      sprints: { planned: 0, active: 0, completed: 0 },
      activeSprintId: null,
      spaceId: space.id
    })
    await fail("POST", `/spaces/${space.id}/sprint-groups`, { name: "platform" }, 409)
    await fail("POST", `/spaces/${space.id}/sprint-groups`, { name: "X", defaultLengthDays: 0 }, 400)
    await fail("POST", `/spaces/${space.id}/sprint-groups`, { name: "X" }, 403, w.viewer.token)
    await fail("POST", `/spaces/${space.id}/sprint-groups`, { name: "X" }, 404, w.outsider.token)
    const missingTeam = await fail(
      "POST",
      `/spaces/${space.id}/sprint-groups`,
      { name: "X", teamId: "00000000-0000-4000-8000-000000000000" },
      404
    )
    expect(missingTeam.error.details[0].path).toBe("body.teamId")
    const team = await call("POST", `/workspaces/${w.workspaceId}/teams`, { name: "Core" }, w.owner.token, 201)
    const updated = await call("PATCH", `/sprint-groups/${group.id}`, {
      name: "Core platform",
      defaultLengthDays: 10,
      autoCreateNext: false,
      teamId: team.id
    })
    expect(updated).toMatchObject({ name: "Core platform", defaultLengthDays: 10, autoCreateNext: false, teamId: team.id })
    const listed = await call("GET", `/spaces/${space.id}/sprint-groups`, undefined, w.viewer.token)
    expect(listed.items.map((g: { name: string }) => g.name)).toContain("Core platform")
    await fail("GET", `/spaces/${space.id}/sprint-groups`, undefined, 404, w.outsider.token)
    await fail("PATCH", `/sprint-groups/${group.id}`, { name: "Y" }, 403, w.viewer.token)
    await fail("DELETE", `/sprint-groups/${group.id}`, undefined, 404, w.outsider.token)
    // Its sprints stay, outside any group.
    const sprint = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    expect(sprint.name).toBe("Core platform 1")
    await call("DELETE", `/sprint-groups/${group.id}`, undefined, w.member.token, 204)
    expect((await call("GET", `/sprints/${sprint.id}`)).sprintGroupId).toBeNull()
    await fail("PATCH", `/sprint-groups/${group.id}`, { name: "Z" }, 404)
    expect((await p.atrium.changes(w.workspaceId, "sprint_group.deleted")).map((c) => c.entityId)).toContain(group.id)
  })
})

describe("Sprints", () => {
  it("plans, starts and completes a sprint; unfinished tasks roll over to the next one", async () => {
    const { call, fail, space, other, w, newTask } = p
    const group = await call("POST", `/spaces/${space.id}/sprint-groups`, { name: "Web", defaultLengthDays: 14 }, w.member.token, 201)
    const first = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id, goal: "Login" }, w.member.token, 201)
    expect(first).toMatchObject({
      name: "Web 1",
      status: "planned",
      goal: "Login",
      sprintGroupId: group.id,
      startedAt: null,
      summary: null
    })
    expect(Date.parse(first.endDate) - Date.parse(first.startDate)).toBe(14 * DAY)
    const second = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    expect(second).toMatchObject({ name: "Web 2", startDate: first.endDate })
    await fail("POST", `/spaces/${space.id}/sprints`, { startDate: "2026-12-10", endDate: "2026-12-01" }, 400)
    await fail("POST", `/spaces/${space.id}/sprints`, { startDate: "2026-02-31" }, 400)
    const badGroup = await fail("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: "00000000-0000-4000-8000-000000000000" }, 404)
    expect(badGroup.error.details[0].path).toBe("body.sprintGroupId")

    const a = await newTask({ name: "A", timeEstimateMinutes: 60 })
    const b = await newTask({ name: "B", timeEstimateMinutes: 120 }, other.id)
    const c = await newTask({ name: "C" })
    const d = await newTask({ name: "D", priority: "urgent" })
    const backlogBefore = await call("GET", `/spaces/${space.id}/backlog`, undefined, w.viewer.token)
    expect(backlogBefore.items[0].name).toBe("D")
    expect(backlogBefore.items.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([a.id, b.id, c.id, d.id]))

    // Planning: D goes to the second sprint first, then moves to the first.
    await call("POST", `/sprints/${second.id}/tasks`, { taskIds: [d.id] })
    const planned = await call("POST", `/sprints/${first.id}/tasks`, { taskIds: [a.id, b.id, c.id, d.id] })
    expect(planned.added.sort()).toEqual([a.id, b.id, c.id, d.id].sort())
    expect(planned.moved).toEqual([{ taskId: d.id, fromSprintId: second.id }])
    expect(planned.sprint.progress).toMatchObject({ tasks: 4, finished: 0, estimateMinutes: 180 })
    expect((await call("POST", `/sprints/${first.id}/tasks`, { taskIds: [a.id] })).alreadyPlanned).toEqual([a.id])
    const backlogAfter = await call("GET", `/spaces/${space.id}/backlog`)
    expect(backlogAfter.items.map((t: { id: string }) => t.id)).not.toContain(a.id)
    const elsewhere = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Elsewhere" }, w.member.token, 201)
    const foreignList = await call("POST", `/spaces/${elsewhere.id}/lists`, { name: "L" }, w.member.token, 201)
    const foreign = await newTask({ name: "F" }, foreignList.id)
    const refused = await fail("POST", `/sprints/${first.id}/tasks`, { taskIds: [a.id, foreign.id] }, 404)
    expect(refused.error.details).toEqual([{ path: "body.taskIds.1", message: "not a task of this space" }])
    await fail("POST", `/sprints/${first.id}/tasks`, { taskIds: [a.id] }, 403, w.viewer.token)

    const tasks = await call("GET", `/sprints/${first.id}/tasks`, undefined, w.viewer.token)
    expect(tasks.total).toBe(4)
    expect(tasks.items[0]).toMatchObject({ carriedFromSprintId: null, outcome: null, task: { id: expect.any(String) } })
    await call("DELETE", `/sprints/${first.id}/tasks/${c.id}`, undefined, w.member.token, 204)
    await fail("DELETE", `/sprints/${first.id}/tasks/${c.id}`, undefined, 404)
    expect((await call("GET", `/sprints/${first.id}/tasks`)).total).toBe(3)

    // Start: one active sprint per series.
    const started = await call("POST", `/sprints/${first.id}/start`)
    expect(started).toMatchObject({ status: "active", startedAt: expect.any(String), progress: { tasks: 3 } })
    await fail("POST", `/sprints/${first.id}/start`, undefined, 409)
    await fail("POST", `/sprints/${second.id}/start`, undefined, 409)
    // The workspace overview lists it among the active sprints, with its progress.
    const overview = await call("GET", `/workspaces/${w.workspaceId}/overview`, undefined, w.viewer.token)
    expect(overview.activeSprints).toContainEqual(
      expect.objectContaining({ id: first.id, status: "active", progress: expect.objectContaining({ tasks: 3 }) })
    )
    expect(overview.spaces).toContainEqual(expect.objectContaining({ spaceId: space.id, name: "Engineering", tasks: expect.any(Number) }))
    expect(overview.totals.tasks).toBe(overview.spaces.reduce((sum: number, s: { tasks: number }) => sum + s.tasks, 0))
    await fail("DELETE", `/sprints/${first.id}`, undefined, 409)
    await fail("PATCH", `/sprints/${first.id}`, { startDate: "2020-01-01" }, 409)
    expect((await call("PATCH", `/sprints/${first.id}`, { goal: "Login and signup" })).goal).toBe("Login and signup")

    // Work happens: A is done; C (back in the backlog) joins mid-sprint.
    await call("PUT", `/tasks/${a.id}/status`, { status: "done" })
    await call("POST", `/sprints/${first.id}/tasks`, { taskIds: [c.id] })
    const running = await call("GET", `/sprints/${first.id}`)
    expect(running.progress).toMatchObject({ tasks: 4, finished: 1, unfinished: 3, finishedMinutes: 60, percent: 25 })
    const active = await call("GET", `/spaces/${space.id}/sprints?status=active`, undefined, w.viewer.token)
    expect(active.items.map((s: { id: string }) => s.id)).toEqual([first.id])
    expect((await call("GET", `/spaces/${space.id}/sprint-groups`)).items.find((g: { id: string }) => g.id === group.id)).toMatchObject({
      activeSprintId: first.id,
      sprints: { planned: 1, active: 1 }
    })

    // Complete: B, C, D roll over to the second sprint.
    await fail("POST", `/sprints/${first.id}/complete`, {}, 403, w.viewer.token)
    const completed = await call("POST", `/sprints/${first.id}/complete`, {})
    expect(completed.sprint).toMatchObject({ status: "completed", completedAt: expect.any(String) })
    expect(completed.sprint.summary).toEqual({
      committedTasks: 3,
      committedMinutes: 180,
      completedTasks: 1,
      completedMinutes: 60,
      addedDuringSprint: 1,
      removedDuringSprint: 0,
      rolledOver: 3,
      returnedToBacklog: 0,
      nextSprintId: second.id
    })
    expect(completed.sprint.progress).toMatchObject({ tasks: 4, finished: 1 })
    expect(completed.nextSprint.id).toBe(second.id)
    const carried = await call("GET", `/sprints/${second.id}/tasks`)
    expect(carried.items.map((i: { task: { id: string } }) => i.task.id).sort()).toEqual([b.id, c.id, d.id].sort())
    expect(carried.items.every((i: { carriedFromSprintId: string }) => i.carriedFromSprintId === first.id)).toBe(true)
    const record = await call("GET", `/sprints/${first.id}/tasks`)
    expect(record.items.find((i: { task: { id: string } }) => i.task.id === a.id).outcome).toBe("completed")
    expect(record.items.find((i: { task: { id: string } }) => i.task.id === b.id).outcome).toBe("rolled_over")
    await fail("POST", `/sprints/${first.id}/complete`, {}, 409)
    await fail("POST", `/sprints/${first.id}/tasks`, { taskIds: [c.id] }, 409)
    await fail("PATCH", `/sprints/${first.id}`, { endDate: "2030-01-01" }, 409)
    expect((await call("PATCH", `/sprints/${first.id}`, { name: "Web 1 (login)" })).name).toBe("Web 1 (login)")

    const types = (await p.atrium.changes(w.workspaceId)).map((e) => e.type)
    expect(types).toEqual(
      expect.arrayContaining(["sprint.created", "sprint.tasks_added", "sprint.task_removed", "sprint.started", "sprint.completed"])
    )
    const completedEvent = (await p.atrium.changes(w.workspaceId, "sprint.completed")).find((e) => e.entityId === first.id)!
    expect(completedEvent).toMatchObject({ scope: "space", spaceId: space.id, data: { completedTasks: 1, rolledOver: 3 } })

    // A completed sprint may be deleted; its record goes with it.
    await call("DELETE", `/sprints/${first.id}`, undefined, w.member.token, 204)
    await fail("GET", `/sprints/${first.id}`, undefined, 404)
  })

  it("completing the last planned sprint of an auto-creating group creates the next one; backlog on request", async () => {
    const { call, space, w, newTask } = p
    const group = await call("POST", `/spaces/${space.id}/sprint-groups`, { name: "Mobile", defaultLengthDays: 7 }, w.member.token, 201)
    const sprint = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const task = await newTask({ name: "Carry me" })
    await call("POST", `/sprints/${sprint.id}/tasks`, { taskIds: [task.id] })
    await call("POST", `/sprints/${sprint.id}/start`)
    const completed = await call("POST", `/sprints/${sprint.id}/complete`, {})
    expect(completed.nextSprint).toMatchObject({ name: "Mobile 2", status: "planned", sprintGroupId: group.id })
    expect(Date.parse(completed.nextSprint.endDate) - Date.parse(completed.nextSprint.startDate)).toBe(7 * DAY)
    expect((await call("GET", `/sprints/${completed.nextSprint.id}/tasks`)).items[0].task.id).toBe(task.id)

    // Back to the backlog when asked.
    await call("POST", `/sprints/${completed.nextSprint.id}/start`)
    const toBacklog = await call("POST", `/sprints/${completed.nextSprint.id}/complete`, { unfinished: "backlog" })
    expect(toBacklog.nextSprint).toBeNull()
    expect(toBacklog.sprint.summary).toMatchObject({ rolledOver: 0, returnedToBacklog: 1, nextSprintId: null })
    expect((await call("GET", `/spaces/${space.id}/backlog`)).items.map((t: { id: string }) => t.id)).toContain(task.id)
  })

  it("concurrent planning of one task into two sprints leaves it in exactly one", async () => {
    const { call, space, w, newTask } = p
    const group = await call("POST", `/spaces/${space.id}/sprint-groups`, { name: "Race" }, w.member.token, 201)
    const one = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const two = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const task = await newTask({ name: "Contested" })
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        p.atrium.request("POST", `/pm/v1/sprints/${i % 2 === 0 ? one.id : two.id}/tasks`, {
          token: i % 3 === 0 ? w.owner.token : w.member.token,
          body: { taskIds: [task.id] }
        })
      )
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    const current = await p.atrium.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id WHERE st.task_id = $1 AND st.removed_at IS NULL AND sp.status <> 'completed'`,
      [task.id]
    )
    expect(current[0]!.n).toBe(1)
    const totals = (await call("GET", `/sprints/${one.id}`)).progress.tasks + (await call("GET", `/sprints/${two.id}`)).progress.tasks
    expect(totals).toBe(1)
  })

  it("rolls over to a named sprint; ungrouped sprints form one series; access", async () => {
    const { call, fail, space, w, newTask } = p
    const startDate = new Date(Date.now() - 3 * DAY).toISOString().slice(0, 10)
    const endDate = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10)
    const loose = await call("POST", `/spaces/${space.id}/sprints`, { name: "Hotfix week", startDate, endDate }, w.member.token, 201)
    expect(loose).toMatchObject({ sprintGroupId: null, startDate: `${startDate}T00:00:00.000Z` })
    const target = await call("POST", `/spaces/${space.id}/sprints`, {}, w.member.token, 201)
    expect(target.name).toMatch(/^Sprint \d+$/)
    await call("POST", `/sprints/${loose.id}/start`)
    await fail("POST", `/sprints/${target.id}/start`, undefined, 409)
    const task = await newTask({ name: "Hot" })
    await call("POST", `/sprints/${loose.id}/tasks`, { taskIds: [task.id] })
    const self = await fail("POST", `/sprints/${loose.id}/complete`, { nextSprintId: loose.id }, 400)
    expect(self.error.details[0].path).toBe("body.nextSprintId")
    const done = await call("POST", `/sprints/${loose.id}/complete`, { nextSprintId: target.id })
    expect(done.nextSprint.id).toBe(target.id)
    await fail("GET", `/sprints/${loose.id}`, undefined, 404, w.outsider.token)
    await fail("GET", `/sprints/${loose.id}/tasks`, undefined, 404, w.outsider.token)
    await fail("GET", `/spaces/${space.id}/sprints`, undefined, 404, w.outsider.token)
    expect((await call("GET", `/sprints/${loose.id}`, undefined, w.viewer.token)).status).toBe("completed")
    await fail("PATCH", `/sprints/${target.id}`, { name: "x" }, 403, w.viewer.token)
    await fail("POST", `/spaces/${space.id}/sprints`, {}, 403, w.viewer.token)
    await fail("DELETE", `/sprints/${target.id}`, undefined, 403, w.viewer.token)
    await call("DELETE", `/sprints/${target.id}`, undefined, w.member.token, 204)
  })
})
