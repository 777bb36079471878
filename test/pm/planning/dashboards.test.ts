/**
 * Dashboard, Dashboard (Lite) and Workspace Dashboard Resource: every
 * aggregate computed from live data (counts, distributions, workload,
 * throughput, cycle time, overdue, relationship graph, votes, burndown,
 * velocity), scoped and limited to what the caller may see; dashboards and
 * widgets; the Lite read by names; the workspace overview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Planning, qs, startPlanning } from "./planningSupport.ts"

let p: Planning
const DAY = 86_400_000
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString()
const tasks: Record<string, any> = {}
let analytics: string

beforeAll(async () => {
  p = await startPlanning()
  const { call, newTask, w, list, other } = p
  analytics = `/workspaces/${w.workspaceId}/analytics`
  // Backlog: A (urgent, member, overdue, 60m, ui), B (high, member+owner, due in 3 days, 120m), C (no priority, unassigned, due in 30 days, ui+api)
  // Bugs: D (low, owner, overdue) finished; E (normal) in progress.
  tasks.a = await newTask({
    name: "A",
    priority: "urgent",
    assigneeIds: [w.member.userId],
    dueDate: inDays(-2),
    timeEstimateMinutes: 60,
    tags: ["ui"]
  })
  tasks.b = await newTask({
    name: "B",
    priority: "high",
    assigneeIds: [w.member.userId, w.owner.userId],
    dueDate: inDays(3),
    timeEstimateMinutes: 120
  })
  tasks.c = await newTask({ name: "C", dueDate: inDays(30), tags: ["ui", "api"] })
  tasks.d = await newTask({ name: "D", priority: "low", assigneeIds: [w.owner.userId], dueDate: inDays(-1) }, other.id)
  tasks.e = await newTask({ name: "E", priority: "normal" }, other.id)
  await call("PUT", `/tasks/${tasks.d.id}/status`, { status: "in progress" })
  await call("PUT", `/tasks/${tasks.d.id}/status`, { status: "done" })
  await call("PUT", `/tasks/${tasks.e.id}/status`, { status: "in progress" })
  // A blocks B blocks C; A relates to E.
  await call("POST", `/tasks/${tasks.a.id}/relationships`, { type: "blocks", relatedTaskId: tasks.b.id }, w.member.token, 201)
  await call("POST", `/tasks/${tasks.b.id}/relationships`, { type: "blocks", relatedTaskId: tasks.c.id }, w.member.token, 201)
  await call("POST", `/tasks/${tasks.a.id}/relationships`, { type: "relates_to", relatedTaskId: tasks.e.id }, w.member.token, 201)
  expect(list.id).toBeDefined()
})
afterAll(async () => {
  await p?.atrium.close()
})

const count = (items: Array<{ key: string; count: number }>, key: string) => items.find((i) => i.key === key)?.count ?? 0

describe("Dashboard aggregates", () => {
  it("counts tasks by status, status type, priority, assignee, tag, list, space and creator", async () => {
    const { call, w, space, list } = p
    const by = (groupBy: string, extra: Record<string, string> = {}) =>
      call("GET", `${analytics}/task-counts?${qs({ groupBy, ...extra })}`, undefined, w.viewer.token)
    const status = await by("status")
    expect(status.total).toBe(5)
    expect(status.items.map((i: { key: string; count: number }) => [i.key, i.count])).toEqual([
      ["to do", 3],
      ["in progress", 1],
      ["done", 1]
    ])
    expect(status.items[0]).toMatchObject({ unfinished: 3, estimateMinutes: 180 })
    const types = await by("status_type")
    expect([count(types.items, "open"), count(types.items, "active"), count(types.items, "done")]).toEqual([3, 1, 1])
    const priority = await by("priority")
    expect(priority.items.map((i: { key: string }) => i.key)).toEqual(["urgent", "high", "normal", "low", "none"])
    const assignee = await by("assignee")
    expect(count(assignee.items, w.member.userId)).toBe(2)
    expect(count(assignee.items, w.owner.userId)).toBe(2)
    expect(count(assignee.items, "unassigned")).toBe(2)
    expect(assignee.items.find((i: { key: string }) => i.key === w.member.userId).label).toBe(w.member.email)
    const tag = await by("tag")
    expect([count(tag.items, "ui"), count(tag.items, "api"), count(tag.items, "none")]).toEqual([2, 1, 3])
    expect(count((await by("list")).items, list.id)).toBe(3)
    expect(count((await by("space")).items, space.id)).toBe(5)
    expect(count((await by("creator")).items, w.member.userId)).toBe(5)
    // Narrowed to one list.
    expect((await by("status", { listId: list.id })).total).toBe(3)
  })

  it("distributes by due date, estimate and age; workload per assignee; overdue work", async () => {
    const { call, w } = p
    const due = await call("GET", `${analytics}/distribution?field=due_date`)
    expect(due.total).toBe(4)
    expect(Object.fromEntries(due.buckets.map((b: { key: string; count: number }) => [b.key, b.count]))).toMatchObject({
      overdue: 1,
      this_week: 1,
      later: 1,
      none: 1
    })
    expect(due.summary).toEqual({ withDueDate: 3, overdue: 1 })
    const estimate = await call("GET", `${analytics}/distribution?field=time_estimate`)
    expect(estimate.total).toBe(5)
    expect(Object.fromEntries(estimate.buckets.map((b: { key: string; count: number }) => [b.key, b.count]))).toMatchObject({
      none: 3,
      up_to_1h: 1,
      up_to_2h: 1
    })
    expect(estimate.summary).toEqual({ totalMinutes: 180, estimatedTasks: 2, averageMinutes: 90 })
    const age = await call("GET", `${analytics}/distribution?field=age`)
    expect(age.buckets[0]).toMatchObject({ key: "under_1d", count: 4 })

    const load = await call("GET", `${analytics}/workload?capacityMinutes=240`)
    const member = load.items.find((i: { user: { id: string } | null }) => i.user?.id === w.member.userId)
    expect(member).toMatchObject({
      openTasks: 2,
      overdueTasks: 1,
      dueThisWeek: 1,
      estimateMinutes: 180,
      byPriority: { urgent: 1, high: 1 },
      utilization: 75
    })
    expect(load.items.at(-1)).toMatchObject({ user: null, openTasks: 2 })

    const late = await call("GET", `${analytics}/overdue`)
    expect(late.total).toBe(1)
    expect(late.items[0]).toMatchObject({ daysOverdue: 2, task: { id: tasks.a.id } })
    expect(late.byAssignee).toEqual([{ user: expect.objectContaining({ id: w.member.userId }), count: 1 }])
  })

  it("throughput and cycle time come from the status history", async () => {
    const { call, fail } = p
    const week = await call("GET", `${analytics}/throughput?days=7`)
    expect(week.days.length).toBe(7)
    expect(week.totals).toEqual({ created: 5, closed: 1, net: 4 })
    const today = new Date().toISOString().slice(0, 10)
    const span = await call("GET", `${analytics}/throughput?${qs({ from: today, to: today })}`)
    expect(span.days).toEqual([{ date: today, created: 5, closed: 1 }])
    await fail("GET", `${analytics}/throughput?${qs({ from: today })}`, undefined, 400)
    await fail("GET", `${analytics}/throughput?${qs({ from: "2026-02-30", to: "2026-03-01" })}`, undefined, 400)
    await fail("GET", `${analytics}/throughput?${qs({ from: "2026-03-02", to: "2026-03-01" })}`, undefined, 400)
    await fail("GET", `${analytics}/throughput?${qs({ from: "2024-01-01", to: "2026-03-01" })}`, undefined, 400)
    await fail("GET", `${analytics}/throughput?${qs({ from: today, to: today, days: 3 })}`, undefined, 400)
    const cycle = await call("GET", `${analytics}/cycle-time?days=7`)
    expect(cycle.count).toBe(1)
    expect(cycle.items[0]).toMatchObject({ taskId: tasks.d.id, startedAt: expect.any(String) })
    expect(cycle.cycleHours.max).toBeLessThanOrEqual(cycle.leadHours.max)
  })

  it("draws the relationship graph with blocked tasks and the longest blocking chain", async () => {
    const { call, list } = p
    const graph = await call("GET", `${analytics}/relationship-graph`)
    expect(graph.stats).toEqual({
      nodes: 4,
      edges: 3,
      byType: { blocks: 2, relates_to: 1, duplicates: 0 },
      blockedTasks: 2,
      longestBlockingChain: [tasks.a.id, tasks.b.id, tasks.c.id]
    })
    expect(
      graph.nodes
        .filter((n: { degree: number }) => n.degree === 2)
        .map((n: { id: string }) => n.id)
        .sort()
    ).toEqual([tasks.a.id, tasks.b.id].sort())
    const blocks = await call("GET", `${analytics}/relationship-graph?${qs({ types: "blocks", listId: list.id })}`)
    expect(blocks.edges.every((e: { type: string }) => e.type === "blocks")).toBe(true)
    expect(blocks.nodes.every((n: { inScope: boolean }) => n.inScope)).toBe(true)
    // E is outside the list but related to A: shown, marked out of scope.
    const related = await call("GET", `${analytics}/relationship-graph?${qs({ types: "relates_to", listId: list.id })}`)
    expect(related.nodes.find((n: { id: string }) => n.id === tasks.e.id)).toMatchObject({ inScope: false, statusType: "active" })
  })

  it("casts and withdraws votes; ranks voting results with reactions", async () => {
    const { call, fail, w } = p
    expect(await call("PUT", `/tasks/${tasks.b.id}/vote`, { vote: true })).toEqual({ taskId: tasks.b.id, votes: 1, votedByMe: true })
    expect((await call("PUT", `/tasks/${tasks.b.id}/vote`, { vote: true })).votes).toBe(1)
    expect(await call("PUT", `/tasks/${tasks.b.id}/vote`, { vote: true }, w.owner.token)).toEqual({
      taskId: tasks.b.id,
      votes: 2,
      votedByMe: true
    })
    await call("PUT", `/tasks/${tasks.c.id}/vote`, { vote: true }, w.owner.token)
    await call("PUT", `/tasks/${tasks.d.id}/vote`, { vote: true })
    await fail("PUT", `/tasks/${tasks.c.id}/vote`, { vote: true }, 403, w.viewer.token)
    await fail("PUT", `/tasks/${tasks.c.id}/vote`, { vote: true }, 404, w.outsider.token)
    const comment = await call("POST", `/tasks/${tasks.b.id}/comments`, { text: "Yes please" }, w.member.token, 201)
    await call("POST", `/tasks/${tasks.b.id}/comments/${comment.id}/reactions`, { emoji: "thumbsup" }, w.owner.token, 201)
    await call("POST", `/tasks/${tasks.b.id}/comments/${comment.id}/reactions`, { emoji: "thumbsup" }, w.member.token, 201)
    const results = await call("GET", `${analytics}/votes`)
    expect(results).toMatchObject({ totalVotes: 3, voters: 2, reactions: [{ emoji: "thumbsup", count: 2 }] })
    expect(results.items.map((i: { taskId: string; votes: number; votedByMe: boolean }) => [i.taskId, i.votes, i.votedByMe])).toEqual([
      [tasks.b.id, 2, true],
      [tasks.c.id, 1, false]
    ])
    expect(results.items[0].share).toBe(66.67)
    expect(results.items[0].voters.map((u: { email: string }) => u.email)).toEqual([w.member.email, w.owner.email])
    expect((await call("GET", `${analytics}/votes?includeFinished=true`)).totalVotes).toBe(4)
    expect(await call("PUT", `/tasks/${tasks.b.id}/vote`, { vote: false })).toEqual({ taskId: tasks.b.id, votes: 1, votedByMe: false })
    expect((await p.atrium.changes(w.workspaceId)).map((e) => e.type)).toEqual(
      expect.arrayContaining(["task.voted", "task.vote_withdrawn"])
    )
  })

  it("scopes by one space, folder or list (and sprint), and never counts what the caller may not see", async () => {
    const { call, fail, w, list, space } = p
    const secret = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Secret", isPrivate: true }, w.owner.token, 201)
    const secretList = await call("POST", `/spaces/${secret.id}/lists`, { name: "Hidden" }, w.owner.token, 201)
    await call("POST", `/lists/${secretList.id}/tasks`, { name: "Hidden task", dueDate: inDays(-3) }, w.owner.token, 201)
    expect((await call("GET", `${analytics}/task-counts?groupBy=status`)).total).toBe(5)
    expect((await call("GET", `${analytics}/task-counts?groupBy=status`, undefined, w.owner.token)).total).toBe(6)
    expect((await call("GET", `${analytics}/overdue`)).total).toBe(1)
    expect(
      (await fail("GET", `${analytics}/task-counts?${qs({ groupBy: "status", listId: secretList.id })}`, undefined, 404)).error.details[0]
        .path
    ).toBe("query.listId")
    expect(
      (await fail("GET", `${analytics}/task-counts?${qs({ groupBy: "status", listId: list.id, spaceId: space.id })}`, undefined, 400)).error
        .details[0].path
    ).toBe("query.listId")
    const theirs = await call("POST", `/workspaces/${w.otherWorkspaceId}/spaces`, { name: "Theirs" }, w.outsider.token, 201)
    await fail("GET", `${analytics}/task-counts?${qs({ groupBy: "status", spaceId: theirs.id })}`, undefined, 404)
    await fail("GET", `${analytics}/task-counts?groupBy=status`, undefined, 404, w.outsider.token)
    expect(
      (await fail("GET", `${analytics}/workload?sprintId=00000000-0000-4000-8000-000000000000`, undefined, 404)).error.details[0].path
    ).toBe("query.sprintId")
  })
})

describe("Sprint charts", () => {
  it("burns down from the membership and status history; velocity of completed sprints", async () => {
    const { call, fail, space, w, newTask } = p
    const group = await call("POST", `/spaces/${space.id}/sprint-groups`, { name: "Charts", defaultLengthDays: 10 }, w.member.token, 201)
    const sprint = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const planned = await call("GET", `/sprints/${sprint.id}/burndown`)
    expect(planned.days.every((d: { remaining: number | null }) => d.remaining === null)).toBe(true)
    const x = await newTask({ name: "X", timeEstimateMinutes: 30 })
    const y = await newTask({ name: "Y", timeEstimateMinutes: 90 })
    const z = await newTask({ name: "Z" })
    await call("POST", `/sprints/${sprint.id}/tasks`, { taskIds: [x.id, y.id] })
    await call("POST", `/sprints/${sprint.id}/start`)
    await call("PUT", `/tasks/${x.id}/status`, { status: "done" })
    await call("POST", `/sprints/${sprint.id}/tasks`, { taskIds: [z.id] })
    const chart = await call("GET", `/sprints/${sprint.id}/burndown`, undefined, w.viewer.token)
    expect(chart).toMatchObject({
      sprintId: sprint.id,
      unit: "tasks",
      status: "active",
      committed: 2,
      current: { scope: 3, completed: 1, remaining: 2 }
    })
    expect(chart.days.length).toBe(10)
    expect(chart.days[0]).toMatchObject({ date: new Date().toISOString().slice(0, 10), scope: 3, completed: 1, remaining: 2, ideal: 2 })
    expect(chart.days.at(-1)).toMatchObject({ remaining: null, ideal: 0 })
    const minutes = await call("GET", `/sprints/${sprint.id}/burndown?unit=minutes`)
    expect(minutes).toMatchObject({ committed: 120, current: { scope: 120, completed: 30, remaining: 90 } })
    // Reopening makes it remaining again.
    await call("PUT", `/tasks/${x.id}/status`, { status: "to do" })
    expect((await call("GET", `/sprints/${sprint.id}/burndown`)).current).toEqual({ scope: 3, completed: 0, remaining: 3 })
    await call("PUT", `/tasks/${x.id}/status`, { status: "done" })
    await fail("GET", `/sprints/${sprint.id}/burndown`, undefined, 404, w.outsider.token)

    await call("POST", `/sprints/${sprint.id}/complete`, {})
    const velocity = await call("GET", `/spaces/${space.id}/velocity?${qs({ sprintGroupId: group.id })}`, undefined, w.viewer.token)
    expect(velocity.sprints).toEqual([
      expect.objectContaining({
        sprintId: sprint.id,
        committedTasks: 2,
        completedTasks: 1,
        committedMinutes: 120,
        completedMinutes: 30,
        completionRate: 50
      })
    ])
    expect(velocity.average).toEqual({ completedTasks: 1, completedMinutes: 30, completionRate: 50 })
    const done = await call("GET", `/sprints/${sprint.id}/burndown`)
    expect(done.status).toBe("completed")
    expect(done.current.completed).toBe(1)
    await fail("GET", `/spaces/${space.id}/velocity`, undefined, 404, w.outsider.token)
  })
})

describe("Dashboards", () => {
  it("creates dashboards with widgets, computes their data live, and keeps private ones private", async () => {
    const { call, fail, w, space } = p
    const sprint = await call("POST", `/spaces/${space.id}/sprints`, { name: "Dash sprint" }, w.member.token, 201)
    const base = `/workspaces/${w.workspaceId}/dashboards`
    const missingSprint = await fail("POST", base, { name: "X", widgets: [{ type: "burndown" }] }, 400)
    expect(missingSprint.error.details[0].path).toBe("body.widgets.0.config.sprintId")
    expect(
      (await fail("POST", base, { name: "X", widgets: [{ type: "workload", config: { groupBy: "status" } }] }, 400)).error.details[0].path
    ).toBe("body.widgets.0.config.groupBy")
    expect((await fail("POST", base, { name: "X", widgets: [{ type: "velocity" }] }, 400)).error.details[0].path).toBe(
      "body.widgets.0.config.sprintGroupId"
    )
    await fail("POST", base, { name: "X" }, 403, w.viewer.token)
    const dashboard = await call(
      "POST",
      base,
      {
        name: "Engineering",
        scopeType: "space",
        scopeId: space.id,
        widgets: [
          { type: "task_count", title: "By status" },
          { type: "distribution", config: { field: "time_estimate" } },
          { type: "burndown", config: { sprintId: sprint.id } },
          { type: "velocity" }
        ]
      },
      w.member.token,
      201
    )
    expect(dashboard).toMatchObject({ name: "Engineering", scopeType: "space", spaceId: space.id, isPrivate: false })
    expect(dashboard.widgets.map((x: { type: string; title: string; config: object }) => [x.type, x.title, x.config])).toEqual([
      ["task_count", "By status", { groupBy: "status" }],
      ["distribution", "Distribution", { field: "time_estimate" }],
      ["burndown", "Sprint burndown", { sprintId: sprint.id }],
      ["velocity", "Velocity", {}]
    ])
    const withWidget = await call(
      "POST",
      `/dashboards/${dashboard.id}/widgets`,
      { type: "votes", config: { limit: 3 }, width: 12 },
      w.member.token,
      201
    )
    const votes = withWidget.widgets.at(-1)
    expect(votes).toMatchObject({ type: "votes", title: "Most wanted", width: 12, height: 4, position: 5 })
    const throughputWidget = (
      await call(
        "POST",
        `/dashboards/${dashboard.id}/widgets`,
        { type: "throughput", config: { days: 3, criteria: { priorities: ["urgent"] } } },
        w.member.token,
        201
      )
    ).widgets.at(-1)
    expect(
      (
        await fail(
          "POST",
          `/dashboards/${dashboard.id}/widgets`,
          { type: "burndown", config: { sprintId: "00000000-0000-4000-8000-000000000000" } },
          404
        )
      ).error.details[0].path
    ).toBe("body.config.sprintId")
    const changed = await call("PATCH", `/dashboards/${dashboard.id}/widgets/${dashboard.widgets[0].id}`, {
      title: "By priority",
      config: { groupBy: "priority" },
      width: 4
    })
    expect(changed.widgets[0]).toMatchObject({ title: "By priority", config: { groupBy: "priority" }, width: 4 })
    await fail("PATCH", `/dashboards/${dashboard.id}/widgets/${dashboard.widgets[0].id}`, { config: { field: "age" } }, 400)

    const data = await call("GET", `/dashboards/${dashboard.id}/data`, undefined, w.viewer.token)
    expect(data.widgets.map((x: { type: string; error: string | null }) => [x.type, x.error])).toEqual([
      ["task_count", null],
      ["distribution", null],
      ["burndown", null],
      ["velocity", null],
      ["votes", null],
      ["throughput", null]
    ])
    const counts = data.widgets[0].data
    expect(counts.groupBy).toBe("priority")
    expect(counts.total).toBeGreaterThanOrEqual(5)
    expect(data.widgets[2].data).toMatchObject({ sprintId: sprint.id, status: "planned" })
    expect(data.widgets[5].data.totals.created).toBe(1)
    await call("DELETE", `/dashboards/${dashboard.id}/widgets/${throughputWidget.id}`, undefined, w.member.token, 204)
    await fail("DELETE", `/dashboards/${dashboard.id}/widgets/${throughputWidget.id}`, undefined, 404)
    // A widget whose sprint is gone reports its error; the rest still compute.
    await call("DELETE", `/sprints/${sprint.id}`, undefined, w.member.token, 204)
    const after = await call("GET", `/dashboards/${dashboard.id}/data`)
    expect(after.widgets[2]).toMatchObject({ type: "burndown", data: null, error: "No such sprint" })
    expect(after.widgets[0].error).toBeNull()

    const mine = await call(
      "POST",
      base,
      { name: "Mine", isPrivate: true, widgets: [{ type: "workload", config: { capacityMinutes: 600 } }] },
      w.member.token,
      201
    )
    expect(mine).toMatchObject({ scopeType: "workspace", scopeId: w.workspaceId, isPrivate: true })
    await fail("GET", `/dashboards/${mine.id}`, undefined, 404, w.owner.token)
    expect((await call("GET", base, undefined, w.owner.token)).items.map((d: { name: string }) => d.name)).not.toContain("Mine")
    expect((await call("GET", base)).items.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(["Engineering", "Mine"]))
    expect(
      (await call("GET", `${base}?${qs({ scopeType: "space", scopeId: space.id })}`)).items.map((d: { name: string }) => d.name)
    ).toEqual(["Engineering"])
    expect((await call("PATCH", `/dashboards/${mine.id}`, { name: "My work", description: "just me" })).name).toBe("My work")
    await fail("PATCH", `/dashboards/${dashboard.id}`, { isPrivate: true }, 403, w.owner.token)
    expect((await call("PATCH", `/dashboards/${dashboard.id}`, { description: "shared" }, w.owner.token)).description).toBe("shared")
    await fail("PATCH", `/dashboards/${dashboard.id}`, { name: "v" }, 403, w.viewer.token)
    await fail("GET", `/dashboards/${dashboard.id}`, undefined, 404, w.outsider.token)
    expect((await call("GET", `/dashboards/${dashboard.id}`, undefined, w.viewer.token)).widgets.length).toBe(5)
    const ownerBoard = await call("POST", base, { name: "Owner board" }, w.owner.token, 201)
    await fail("DELETE", `/dashboards/${ownerBoard.id}`, undefined, 403)
    await call("DELETE", `/dashboards/${ownerBoard.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `/dashboards/${mine.id}`, undefined, w.member.token, 204)
    expect((await p.atrium.changes(w.workspaceId)).map((e) => e.type)).toEqual(
      expect.arrayContaining(["dashboard.created", "dashboard.widget_added", "dashboard.deleted"])
    )
  })
})

describe("Dashboard (Lite) and the workspace overview", () => {
  it("reads a dashboard by name, or the standard overview of a scope by names", async () => {
    const { call, fail, w } = p
    const ws = w.workspaceId
    const byName = await call("GET", `/lite/dashboards?${qs({ workspaceId: ws, dashboard: "engineering" })}`, undefined, w.viewer.token)
    expect(byName).toMatchObject({ dashboard: "Engineering", scope: "space Engineering", sprint: null })
    expect(byName.widgets.map((x: { title: string }) => x.title)).toEqual([
      "By priority",
      "Distribution",
      "Sprint burndown",
      "Velocity",
      "Most wanted"
    ])
    expect(
      (await fail("GET", `/lite/dashboards?${qs({ workspaceId: ws, dashboard: "Nope" })}`, undefined, 404)).error.details[0].path
    ).toBe("query.dashboard")
    await fail("GET", `/lite/dashboards?${qs({ workspaceId: ws, dashboard: "Engineering", space: "Engineering" })}`, undefined, 400)

    const overview = await call("GET", `/lite/dashboards?${qs({ workspaceId: ws, space: "Engineering", list: "Backlog" })}`)
    expect(overview).toMatchObject({ dashboard: null, scope: "list Engineering / Backlog" })
    const byTitle = Object.fromEntries(overview.widgets.map((x: { title: string; data: unknown }) => [x.title, x.data]))
    expect(byTitle["By assignee"].items.map((i: { label: string }) => i.label)).toContain(w.member.email)
    expect(byTitle.Overdue.items[0].task).toMatchObject({ name: "A", list: "Backlog", space: "Engineering", assignees: [w.member.email] })
    const sprint = await call("POST", `/spaces/${p.space.id}/sprints`, { name: "Lite sprint" }, w.member.token, 201)
    await call("POST", `/sprints/${sprint.id}/tasks`, { taskIds: [tasks.a.id] })
    const ofSprint = await call("GET", `/lite/dashboards?${qs({ workspaceId: ws, space: "Engineering", sprint: "lite sprint" })}`)
    expect(ofSprint.sprint).toBe("Lite sprint")
    expect(ofSprint.widgets[0].data.total).toBe(1)
    expect((await fail("GET", `/lite/dashboards?${qs({ workspaceId: ws, sprint: "Nope" })}`, undefined, 404)).error.details[0].path).toBe(
      "query.sprint"
    )
    expect((await fail("GET", `/lite/dashboards?${qs({ workspaceId: ws, space: "Nowhere" })}`, undefined, 404)).error.details[0].path).toBe(
      "query.space"
    )
    const workspace = await call("GET", `/lite/dashboards?${qs({ workspaceId: ws })}`)
    expect(workspace.scope).toBe("workspace")
    await fail("GET", `/lite/dashboards?${qs({ workspaceId: ws })}`, undefined, 404, w.outsider.token)
  })

  it("the workspace overview sums the live work the caller may see", async () => {
    const { call, fail, w, space } = p
    const overview = await call("GET", `/workspaces/${w.workspaceId}/overview`)
    expect(overview.workspaceId).toBe(w.workspaceId)
    expect(overview.totals.tasks).toBe(overview.totals.unfinished + overview.totals.finished)
    expect(overview.spaces.find((s: { spaceId: string }) => s.spaceId === space.id)).toMatchObject({ name: "Engineering" })
    expect(overview.spaces.map((s: { name: string }) => s.name)).not.toContain("Secret")
    expect(overview.totals.overdue).toBe(1)
    expect(overview.myWork).toMatchObject({ overdue: 1 })
    expect(overview.byStatusType.open + overview.byStatusType.active + overview.byStatusType.done + overview.byStatusType.closed).toBe(
      overview.totals.tasks
    )
    expect(overview.mostVoted[0]).toMatchObject({ taskId: expect.any(String), votes: expect.any(Number) })
    expect(overview.dashboards).toBe(1)
    expect(overview.lastSevenDays.created).toBeGreaterThanOrEqual(5)
    const owners = await call("GET", `/workspaces/${w.workspaceId}/overview`, undefined, w.owner.token)
    expect(owners.totals.overdue).toBe(2)
    expect(owners.spaces.map((s: { name: string }) => s.name)).toContain("Secret")
    await fail("GET", `/workspaces/${w.workspaceId}/overview`, undefined, 404, w.outsider.token)
  })

  it("API keys: tasks:read reads dashboards, tasks:write is needed to change them; a key sees only its workspace", async () => {
    const { call, w, atrium } = p
    const reader = await call(
      "POST",
      "/api-keys",
      { workspaceId: w.workspaceId, name: "dash reader", scopes: ["tasks:read"] },
      w.owner.token,
      201
    )
    const writer = await call(
      "POST",
      "/api-keys",
      { workspaceId: w.workspaceId, name: "dash writer", scopes: ["tasks:read", "tasks:write"] },
      w.owner.token,
      201
    )
    const other = await call(
      "POST",
      "/api-keys",
      { workspaceId: w.otherWorkspaceId, name: "other", scopes: ["tasks:read"] },
      w.outsider.token,
      201
    )
    expect((await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/overview`, { apiKey: reader.key })).status).toBe(200)
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/analytics/task-counts?groupBy=priority`, { apiKey: reader.key }))
        .status
    ).toBe(200)
    expect((await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/overview`, { apiKey: other.key })).status).toBe(404)
    const denied = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/dashboards`, {
      apiKey: reader.key,
      body: { name: "By key" }
    })
    expect(denied.status).toBe(403)
    const created = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/dashboards`, {
      apiKey: writer.key,
      body: { name: "By key" }
    })
    expect(created.status).toBe(201)
    expect(created.body.createdBy).toBe(w.owner.userId)
    expect((await atrium.request("PUT", `/pm/v1/tasks/${tasks.e.id}/vote`, { apiKey: reader.key, body: { vote: true } })).status).toBe(403)
  })
})
