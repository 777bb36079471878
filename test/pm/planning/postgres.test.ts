/**
 * Planning on PostgreSQL (its own throwaway database): the SQL of sprints,
 * views and every dashboard aggregate on the real server, and real
 * concurrency on sprint planning. Skipped loudly without PostgreSQL unless
 * ATRIUM_REQUIRE_SERVICES=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { type Planning, qs, startPlanning } from "./planningSupport.ts"

const available = await checkPostgres("pm planning on PostgreSQL")

describe.skipIf(!available)("planning on PostgreSQL", () => {
  let database: TestDatabase
  let p: Planning
  beforeAll(async () => {
    database = await createTestDatabase()
    p = await startPlanning({ databaseUrl: database.url })
  })
  afterAll(async () => {
    await p?.atrium.close()
    await database?.drop()
  })

  it("sprints, rollover, burndown and velocity; concurrent planning keeps one open sprint per task", async () => {
    const { call, space, w, newTask } = p
    const group = await call("POST", `/spaces/${space.id}/sprint-groups`, { name: "PG", defaultLengthDays: 7 }, w.member.token, 201)
    const first = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const second = await call("POST", `/spaces/${space.id}/sprints`, { sprintGroupId: group.id }, w.member.token, 201)
    const tasks = await Promise.all(["a", "b", "c"].map((name) => newTask({ name, timeEstimateMinutes: 30 })))
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        p.atrium.request("POST", `/pm/v1/sprints/${i % 2 === 0 ? first.id : second.id}/tasks`, {
          token: w.member.token,
          body: { taskIds: tasks.map((t) => t.id) }
        })
      )
    )
    expect(responses.every((r) => r.status === 200)).toBe(true)
    const open = await p.atrium.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pm_sprint_tasks st JOIN pm_sprints sp ON sp.id = st.sprint_id WHERE st.removed_at IS NULL AND sp.status <> 'completed' AND st.task_id = ANY($1::text[])`,
      [tasks.map((t) => t.id)]
    )
    expect(open[0]!.n).toBe(3)
    await call("POST", `/sprints/${first.id}/tasks`, { taskIds: tasks.map((t) => t.id) })
    await call("POST", `/sprints/${first.id}/start`)
    await call("PUT", `/tasks/${tasks[0].id}/status`, { status: "done" })
    expect((await call("GET", `/sprints/${first.id}/burndown?unit=minutes`)).current).toEqual({ scope: 90, completed: 30, remaining: 60 })
    const completed = await call("POST", `/sprints/${first.id}/complete`, {})
    expect(completed.sprint.summary).toMatchObject({ completedTasks: 1, rolledOver: 2, nextSprintId: second.id })
    expect((await call("GET", `/spaces/${space.id}/velocity`)).sprints[0]).toMatchObject({ completedTasks: 1, committedTasks: 3 })
    expect((await call("GET", `/sprints/${second.id}/tasks`)).total).toBe(2)
    expect((await call("GET", `/spaces/${space.id}/backlog`)).total).toBe(0)
  })

  it("views, saved filters and every aggregate", async () => {
    const { call, w, list, newTask } = p
    const ws = w.workspaceId
    const a = await newTask({
      name: "Late",
      priority: "urgent",
      assigneeIds: [w.member.userId],
      dueDate: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      tags: ["pg"]
    })
    const b = await newTask({ name: "Next", priority: "low" })
    await call("POST", `/tasks/${a.id}/relationships`, { type: "blocks", relatedTaskId: b.id }, w.member.token, 201)
    await call("PUT", `/tasks/${b.id}/vote`, { vote: true })
    const view = await call(
      "POST",
      "/lite/views",
      {
        workspaceId: ws,
        space: "Engineering",
        list: "Backlog",
        name: "PG board",
        columns: ["Name", "Priority"],
        groupBy: "Priority",
        sortBy: [{ column: "Due date" }]
      },
      w.member.token,
      201
    )
    const applied = await call("GET", `/lite/views/${view.shortId}/tasks?${qs({ workspaceId: ws })}`)
    expect(applied.groups.map((g: { key: string }) => g.key)).toEqual(expect.arrayContaining(["urgent", "low"]))
    const filter = await call(
      "POST",
      `/lists/${list.id}/saved-filters`,
      { name: "Urgent", criteria: { priorities: ["urgent"] } },
      w.member.token,
      201
    )
    expect(filter.matchingTasks).toBe(1)
    const base = `/workspaces/${ws}/analytics`
    for (const groupBy of ["status", "status_type", "assignee", "priority", "tag", "list", "space", "creator"]) {
      expect((await call("GET", `${base}/task-counts?groupBy=${groupBy}`)).total).toBeGreaterThanOrEqual(5)
    }
    for (const field of ["due_date", "time_estimate", "age"])
      expect((await call("GET", `${base}/distribution?field=${field}`)).buckets.length).toBeGreaterThan(0)
    expect((await call("GET", `${base}/workload?capacityMinutes=60`)).items.length).toBeGreaterThan(0)
    expect((await call("GET", `${base}/throughput?days=3`)).totals.created).toBeGreaterThanOrEqual(5)
    expect((await call("GET", `${base}/cycle-time?days=3`)).count).toBe(1)
    expect((await call("GET", `${base}/overdue`)).total).toBe(1)
    expect((await call("GET", `${base}/relationship-graph`)).stats.longestBlockingChain).toEqual([a.id, b.id])
    expect((await call("GET", `${base}/votes`)).totalVotes).toBe(1)
    const dashboard = await call(
      "POST",
      `/workspaces/${ws}/dashboards`,
      {
        name: "PG",
        widgets: ["task_count", "distribution", "workload", "throughput", "cycle_time", "overdue", "relationship_graph", "votes"].map(
          (type) => ({ type })
        )
      },
      w.member.token,
      201
    )
    const data = await call("GET", `/dashboards/${dashboard.id}/data`)
    expect(data.widgets.every((x: { error: string | null; data: unknown }) => x.error === null && x.data !== null)).toBe(true)
    const overview = await call("GET", `/workspaces/${ws}/overview`)
    expect(overview.totals.overdue).toBe(1)
    expect((await call("GET", `/lite/dashboards?${qs({ workspaceId: ws, dashboard: "PG" })}`)).widgets.length).toBe(8)
  })
})
