/**
 * Automation + Admin - Automations: rules run asynchronously from the change
 * log through the normal write path, once per triggering change; a loop
 * between two rules is cut and reported; operators see failing rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { caller, eventually, workspaceWithList } from "./support.ts"

process.env.PM_AUTOMATION_POLL_MS = "20"
process.env.PM_AUTOMATION_DUE_SCAN_MS = "50"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
  process.env.ATRIUM_PLATFORM_ADMINS = w.owner.email
})
afterAll(() => atrium?.close())

const rules = () => `/v1/workspaces/${w.workspaceId}/automations`
const runsOf = async (ruleId: string) => (await w.call("GET", `${rules()}/${ruleId}/runs`)).items as Array<any>
const settle = async () => {
  // The engine has read the whole log when its cursor reached the last seq.
  await eventually(async () => {
    const [cursor] = await atrium.sql<{ last_seq: string }>("SELECT last_seq FROM pm_automation_cursors WHERE workspace_id = $1", [
      w.workspaceId
    ])
    const [counter] = await atrium.sql<{ last_seq: string }>("SELECT last_seq FROM pm_event_counters WHERE workspace_id = $1", [
      w.workspaceId
    ])
    return cursor && counter && Number(cursor.last_seq) >= Number(counter.last_seq) ? true : undefined
  })
}

describe("automations", () => {
  it("acts on a created task through the normal write path, once per change", async () => {
    const list = await w.call("POST", `/v1/spaces/${w.spaceId}/lists`, { name: "Intake" })
    const rule = await w.call("POST", rules(), {
      name: "Triage new work",
      scope: { type: "list", id: list.id },
      trigger: { type: "task_created" },
      actions: [
        { type: "set_priority", priority: "high" },
        { type: "add_tag", name: "triaged" },
        { type: "create_subtask", name: "Write acceptance criteria" },
        { type: "comment", text: "Triaged automatically." },
        { type: "notify", userIds: [w.member.userId], message: "New intake task" }
      ]
    })
    const task = await w.call("POST", `/v1/lists/${list.id}/tasks`, { name: "Customer asks for SSO" })
    // Out of scope: another list.
    await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Elsewhere" })
    const run = await eventually(async () => (await runsOf(rule.id)).find((r) => r.taskId === task.id && r.status !== "running"))
    expect(run).toMatchObject({ status: "succeeded", taskId: task.id, triggerType: "task_created", depth: 0 })
    expect(run.results.every((r: { ok: boolean }) => r.ok)).toBe(true)
    const after = await w.call("GET", `/v1/tasks/${task.id}`)
    expect(after.priority).toBe("high")
    expect(after.tags.map((t: { name: string }) => t.name)).toEqual(["triaged"])
    expect(after.subtaskCount).toBe(1)
    expect((await atrium.notifications(w.member.userId)).some((n) => n.title.includes("New intake task"))).toBe(true)
    await settle()
    // The subtask it created is a task created too: the rule reached again through its own change is cut
    // (reported, not run), so it cannot create subtasks forever; and nothing ran twice.
    const runs = await runsOf(rule.id)
    expect(runs).toHaveLength(2)
    const subtaskRun = runs.find((r) => r.taskId !== task.id)
    expect(subtaskRun).toMatchObject({ status: "loop_cut", depth: 1 })
    expect((await w.call("GET", `/v1/tasks/${subtaskRun.taskId}`)).parentTaskId).toBe(task.id)
    expect(await w.call("GET", `${rules()}/${rule.id}`)).toMatchObject({ runCount: 2, failureCount: 1 })
    await w.call("PATCH", `${rules()}/${rule.id}`, { enabled: false })
  })

  it("checks conditions on the task, and dry-runs and runs a rule on demand", async () => {
    const rule = await w.call("POST", rules(), {
      name: "Bugs in progress are urgent",
      trigger: { type: "status_changed", toStatus: "in progress" },
      conditions: [{ field: "tag", operator: "is", value: "bug" }],
      actions: [{ type: "set_priority", priority: "urgent" }]
    })
    const plain = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Feature" })
    const bug = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Crash", tags: ["bug"] })
    await w.call("PATCH", `/v1/tasks/${plain.id}`, { status: "in progress" })
    await w.call("PATCH", `/v1/tasks/${bug.id}`, { status: "in progress" })
    await settle()
    expect((await w.call("GET", `/v1/tasks/${bug.id}`)).priority).toBe("urgent")
    expect((await w.call("GET", `/v1/tasks/${plain.id}`)).priority).not.toBe("urgent")
    const runs = await runsOf(rule.id)
    expect(runs.map((r) => r.taskId)).toEqual([bug.id])

    const dry = await w.call("POST", `${rules()}/${rule.id}/test`, { taskId: plain.id }, 200)
    expect(dry).toMatchObject({ matches: false, inScope: true, conditions: [{ holds: false }] })
    const manual = await w.call("POST", `${rules()}/${rule.id}/run`, { taskId: plain.id }, 200)
    expect(manual).toMatchObject({ status: "succeeded", triggerType: "manual" })
    expect((await w.call("GET", `/v1/tasks/${plain.id}`)).priority).toBe("urgent")
    await w.call("DELETE", `${rules()}/${rule.id}`, undefined, 204)
  })

  it("cuts a loop between two rules and reports it, to operators too", async () => {
    const a = await w.call("POST", rules(), {
      name: "Back to do",
      trigger: { type: "status_changed", toStatus: "in progress" },
      actions: [{ type: "set_status", status: "to do" }]
    })
    const b = await w.call("POST", rules(), {
      name: "Start it again",
      trigger: { type: "status_changed", toStatus: "to do" },
      actions: [{ type: "set_status", status: "in progress" }]
    })
    const task = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Ping-pong" })
    await w.call("PATCH", `/v1/tasks/${task.id}`, { status: "in progress" })
    const cut = await eventually(async () => (await runsOf(a.id)).find((r) => r.status === "loop_cut"))
    expect(cut.error).toContain("Loop cut")
    expect(cut.depth).toBe(2)
    await settle()
    expect((await runsOf(a.id)).map((r) => r.status).sort()).toEqual(["loop_cut", "succeeded"])
    expect((await runsOf(b.id)).map((r) => r.status)).toEqual(["succeeded"])
    expect((await w.call("GET", `/v1/tasks/${task.id}`)).status.name).toBe("in progress")

    const admin = caller(atrium, w.owner.token)
    const failing = await admin("GET", "/v1/admin/automations/failing")
    expect(failing.items.find((r: { ruleId: string }) => r.ruleId === a.id)).toMatchObject({ failures: 1, workspaceId: w.workspaceId })
    expect((await atrium.request("GET", "/pm/v1/admin/automations/failing", { token: w.member.token })).status).toBe(403)
    for (const id of [a.id, b.id]) await w.call("DELETE", `${rules()}/${id}`, undefined, 204)
  })

  it("acts once on a task whose due date passes", async () => {
    const rule = await w.call("POST", rules(), {
      name: "Flag overdue work",
      trigger: { type: "due_date_passed" },
      actions: [{ type: "add_tag", name: "overdue" }]
    })
    const soon = new Date(Date.now() + 1500).toISOString()
    const task = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Due any moment", dueDate: soon })
    const later = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Due next year", dueDate: "2027-12-31T00:00:00.000Z" })
    const run = await eventually(async () => (await runsOf(rule.id)).find((r) => r.status === "succeeded"))
    expect(run).toMatchObject({ taskId: task.id, triggerType: "due_date_passed" })
    expect((await w.call("GET", `/v1/tasks/${task.id}`)).tags.map((t: { name: string }) => t.name)).toEqual(["overdue"])
    expect((await w.call("GET", `/v1/tasks/${later.id}`)).tags).toEqual([])
    // Later scans find it again and do nothing: one run per (task, due date).
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await runsOf(rule.id)).toHaveLength(1)
    await w.call("DELETE", `${rules()}/${rule.id}`, undefined, 204)
  })

  it("runs a rule only on its own trigger, and sees a rule change on the next change", async () => {
    const rule = await w.call("POST", rules(), {
      name: "Tag discussed work",
      trigger: { type: "comment_added" },
      actions: [{ type: "add_tag", name: "discussed" }]
    })
    const task = await w.call("POST", `/v1/lists/${w.listId}/tasks`, { name: "Quiet task" })
    // Changes of other types (created, updated, status changed) never run it.
    await w.call("PATCH", `/v1/tasks/${task.id}`, { description: "edited", status: "in progress" })
    await settle()
    expect(await runsOf(rule.id)).toEqual([])
    await w.call("POST", `/v1/tasks/${task.id}/comments`, { text: "First comment" })
    const run = await eventually(async () => (await runsOf(rule.id)).find((r) => r.status === "succeeded"))
    expect(run).toMatchObject({ taskId: task.id, triggerType: "comment_added" })
    expect((await w.call("GET", `/v1/tasks/${task.id}`)).tags.map((t: { name: string }) => t.name)).toEqual(["discussed"])

    // Its trigger changed: the next comment does nothing, the next status change runs it (its new action).
    await w.call("PATCH", `${rules()}/${rule.id}`, {
      trigger: { type: "status_changed", toStatus: "to do" },
      actions: [{ type: "set_priority", priority: "high" }]
    })
    await w.call("POST", `/v1/tasks/${task.id}/comments`, { text: "Second comment" })
    await settle()
    expect(await runsOf(rule.id)).toHaveLength(1)
    await w.call("PATCH", `/v1/tasks/${task.id}`, { status: "to do" })
    const second = await eventually(async () =>
      (await runsOf(rule.id)).find((r) => r.triggerType === "status_changed" && r.status !== "running")
    )
    expect(second).toMatchObject({ taskId: task.id, status: "succeeded" })
    expect((await w.call("GET", `/v1/tasks/${task.id}`)).priority).toBe("high")
    await settle()
    expect(await runsOf(rule.id)).toHaveLength(2)
    await w.call("DELETE", `${rules()}/${rule.id}`, undefined, 204)
  })

  it("refuses bad rules naming the field, and viewers", async () => {
    const bad = async (body: unknown, path: RegExp, status = 400) => {
      const response = await atrium.request("POST", `/pm${rules()}`, { token: w.owner.token, body })
      expect(response.status).toBe(status)
      expect(response.body.error.details.map((d: { path: string }) => d.path).join()).toMatch(path)
    }
    const actions = [{ type: "comment", text: "hi" }]
    await bad({ name: "x", trigger: { type: "on_a_whim" }, actions }, /body\.trigger\.type/)
    await bad({ name: "x", trigger: { type: "task_created" }, actions: [] }, /body\.actions/)
    await bad({ name: "x", trigger: { type: "task_created" }, actions, extra: true }, /body\.extra/)
    await bad(
      { name: "x", trigger: { type: "task_created" }, actions: [{ type: "move", listId: crypto.randomUUID() }] },
      /body\.actions\.0\.listId/,
      404
    )
    await bad(
      { name: "x", trigger: { type: "task_created" }, actions: [{ type: "notify", userIds: [w.outsider.userId] }] },
      /body\.actions\.0\.userIds\.0/,
      404
    )
    await bad(
      { name: "x", trigger: { type: "task_created" }, conditions: [{ field: "tag", operator: "is" }], actions },
      /body\.conditions\.0\.value/
    )
    const viewer = await atrium.request("POST", `/pm${rules()}`, {
      token: w.viewer.token,
      body: { name: "x", trigger: { type: "task_created" }, actions }
    })
    expect(viewer.status).toBe(403)
  })
})
