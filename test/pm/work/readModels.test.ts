/**
 * Tasks, lists and spaces are served from their actors' memory: a change made
 * elsewhere that alters how they are shown, or who may see them, must be
 * visible in the very next read after it was acknowledged. Every test warms
 * the read models first (reads them), then changes something through another
 * actor, then reads again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof setupWorkspace>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await setupWorkspace(atrium)
})
afterAll(() => atrium?.close())

const call = async (method: string, path: string, body?: unknown, token = w.owner.token) => {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}
const status = async (method: string, path: string, token: string) => (await atrium.request(method, `/pm/v1${path}`, { token })).status

const setup = async (name: string) => {
  const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name })
  const list = await call("POST", `/spaces/${space.id}/lists`, { name: `${name} list` })
  const tasks = await Promise.all([1, 2, 3].map((n) => call("POST", `/lists/${list.id}/tasks`, { name: `${name} ${n}` })))
  // Warm every read model.
  for (const task of tasks) await call("GET", `/tasks/${task.id}`)
  return { space, list, tasks }
}

describe("read models follow changes made elsewhere", () => {
  it("a status renamed on the list is visible in the next getTask of each of its tasks", async () => {
    const { list, tasks } = await setup("Statuses")
    const statuses = await call("GET", `/lists/${list.id}/statuses`)
    const first = statuses.items[0]
    expect(tasks.every((t: any) => t.status.name === first.name)).toBe(true)
    await call("PATCH", `/lists/${list.id}/statuses/${first.id}`, { name: "triage", color: "#123456" })
    for (const task of tasks) {
      const read = await call("GET", `/tasks/${task.id}`)
      expect(read.status).toMatchObject({ name: "triage", color: "#123456" })
    }
  })

  it("a list's workflow in memory follows its space: statuses and custom fields added above it", async () => {
    const { space, list } = await setup("Workflow")
    const before = await call("GET", `/lists/${list.id}/statuses`)
    expect(before.inheritedFrom).toBe("space")
    await call("POST", `/spaces/${space.id}/statuses`, { name: "in review", type: "active" })
    const after = await call("GET", `/lists/${list.id}/statuses`)
    expect(after.items.map((s: any) => s.name)).toContain("in review")
    const fieldsBefore = await call("GET", `/lists/${list.id}/custom-fields`)
    await call("POST", `/spaces/${space.id}/custom-fields`, { name: "Effort", type: "number" })
    const fieldsAfter = await call("GET", `/lists/${list.id}/custom-fields`)
    expect(fieldsAfter.items.length).toBe(fieldsBefore.items.length + 1)
  })

  it("a tag recoloured on the space is visible on the tasks that carry it", async () => {
    const { space, tasks } = await setup("Tags")
    const tag = await call("POST", `/spaces/${space.id}/tags`, { name: "ux", color: "#111111" })
    await call("POST", `/tasks/${tasks[0].id}/tags`, { name: "ux" })
    expect((await call("GET", `/tasks/${tasks[0].id}`)).tags.map((t: any) => t.color)).toEqual(["#111111"])
    await call("PATCH", `/spaces/${space.id}/tags/${tag.id}`, { color: "#222222" })
    expect((await call("GET", `/tasks/${tasks[0].id}`)).tags.map((t: any) => t.color)).toEqual(["#222222"])
  })

  it("a subtask created in the list counts on its parent at once", async () => {
    const { list, tasks } = await setup("Subtasks")
    expect((await call("GET", `/tasks/${tasks[0].id}`)).subtaskCount).toBe(0)
    await call("POST", `/lists/${list.id}/tasks`, { name: "child", parentTaskId: tasks[0].id })
    expect((await call("GET", `/tasks/${tasks[0].id}`)).subtaskCount).toBe(1)
  })

  it("an assignee's new name is shown at once", async () => {
    const { tasks } = await setup("People")
    await call("POST", `/tasks/${tasks[0].id}/assignees`, { userId: w.member.userId })
    expect((await call("GET", `/tasks/${tasks[0].id}`)).assignees.map((a: any) => a.name)).toEqual(["Member"])
    await call("PATCH", "/users/me", { name: "Member Renamed" }, w.member.token)
    expect((await call("GET", `/tasks/${tasks[0].id}`)).assignees.map((a: any) => a.name)).toEqual(["Member Renamed"])
    await call("PATCH", "/users/me", { name: "Member" }, w.member.token)
  })

  it("a space made private hides its tasks from non-members on the next request", async () => {
    const { space, list, tasks } = await setup("Privacy")
    expect(await status("GET", `/tasks/${tasks[0].id}`, w.viewer.token)).toBe(200)
    expect(await status("GET", `/lists/${list.id}`, w.viewer.token)).toBe(200)
    await call("PATCH", `/spaces/${space.id}`, { isPrivate: true })
    expect(await status("GET", `/tasks/${tasks[0].id}`, w.viewer.token)).toBe(404)
    expect(await status("GET", `/lists/${list.id}`, w.viewer.token)).toBe(404)
    expect(await status("GET", `/tasks/${tasks[0].id}`, w.owner.token)).toBe(200)
  })

  it("a list moved to another space answers from its new place", async () => {
    const { list, tasks } = await setup("Mover")
    const target = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Mover target" })
    await call("POST", `/lists/${list.id}/move`, { spaceId: target.id })
    expect((await call("GET", `/tasks/${tasks[0].id}`)).spaceId).toBe(target.id)
    expect((await call("GET", `/lists/${list.id}`)).spaceId).toBe(target.id)
  })

  it("a member removed from the workspace is refused on the next request", async () => {
    const extra = await import("../../support/atrium.ts").then((m) => m.signUp(atrium, "Leaver"))
    expectStatus(
      await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/members`, {
        token: w.owner.token,
        body: { email: extra.email, role: "member" }
      }),
      201
    )
    const { tasks } = await setup("Leaving")
    expect(await status("GET", `/tasks/${tasks[0].id}`, extra.token)).toBe(200)
    await call("DELETE", `/workspaces/${w.workspaceId}/members/${extra.userId}`)
    expect(await status("GET", `/tasks/${tasks[0].id}`, extra.token)).toBe(404)
    expect(await status("PATCH", `/tasks/${tasks[0].id}`, extra.token)).not.toBe(200)
  })

  it("a write of the task's own columns answers exactly what SQL then shows", async () => {
    const { space, list, tasks } = await setup("Own columns")
    await call("POST", `/spaces/${space.id}/tags`, { name: "kept", color: "#333333" })
    await call("POST", `/tasks/${tasks[0].id}/tags`, { name: "kept" })
    await call("POST", `/tasks/${tasks[0].id}/assignees`, { userId: w.member.userId })
    const patched = await call("PATCH", `/tasks/${tasks[0].id}`, {
      name: "  renamed  ",
      description: "new text",
      priority: "high",
      dueDate: "2026-12-24",
      timeEstimateMinutes: 90
    })
    const listed = (await call("GET", `/lists/${list.id}/tasks`)).items.find((t: any) => t.id === tasks[0].id)
    expect(patched).toEqual(listed)
    expect(patched).toMatchObject({ name: "renamed", priority: "high", tags: [{ name: "kept" }], assignees: [{ id: w.member.userId }] })
  })

  it("an own-column write starts from memory only while the row is at the version it holds", async () => {
    const { list, tasks } = await setup("Behind")
    const task = tasks[0]
    const second = (await call("GET", `/lists/${list.id}/statuses`)).items[1]
    // Changed behind the actor's back (no invalidation): its task is now a version behind.
    await atrium.sql(`UPDATE pm_tasks SET name = 'changed in SQL', description = 'in SQL', version = version + 1 WHERE id = $1`, [task.id])
    // Equal to what memory holds, not to the row: written.
    const patched = await call("PATCH", `/tasks/${task.id}`, { description: "" })
    expect(patched).toMatchObject({ name: "changed in SQL", description: "", version: task.version + 2 })
    const renamed = await call("PATCH", `/tasks/${task.id}`, { name: "renamed" })
    expect(renamed.version).toBe(task.version + 3)
    const updates = (await atrium.changes(w.workspaceId, "task.updated")).filter((c) => c.entityId === task.id)
    expect(updates.map((c) => c.data)).toEqual([
      { description: "", previous: { description: "in SQL" }, version: task.version + 2 },
      { name: "renamed", previous: { name: "changed in SQL" }, version: task.version + 3 }
    ])
    // A status changed on the row without a version (as a rename on the list does) is shown as the row has it.
    await atrium.sql(`UPDATE pm_tasks SET status = $2 WHERE id = $1`, [task.id, second.name])
    const after = await call("PATCH", `/tasks/${task.id}`, { description: "second" })
    expect(after.status).toEqual({ name: second.name, type: second.type, color: second.color })
    expect(after).toEqual(await call("GET", `/tasks/${task.id}`))
  })

  it("a PATCH after a status renamed on the list answers the new name", async () => {
    const { list, tasks } = await setup("Renamed")
    const first = (await call("GET", `/lists/${list.id}/statuses`)).items[0]
    await call("PATCH", `/lists/${list.id}/statuses/${first.id}`, { name: "queued", color: "#654321" })
    const patched = await call("PATCH", `/tasks/${tasks[0].id}`, { description: "after the rename" })
    expect(patched.status).toMatchObject({ name: "queued", color: "#654321" })
    expect(patched).toEqual(await call("GET", `/tasks/${tasks[0].id}`))
  })

  it("a deleted task is gone from memory too", async () => {
    const { tasks } = await setup("Trash")
    await call("DELETE", `/tasks/${tasks[0].id}`)
    expect(await status("GET", `/tasks/${tasks[0].id}`, w.owner.token)).toBe(404)
  })
})
