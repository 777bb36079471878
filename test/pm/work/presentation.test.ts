/**
 * How tasks are presented by the one-statement reads (TaskReads, counts):
 * a task's status carries the type and colour of its list's effective
 * workflow (list → folder → space) in getTask, list listings (offset and
 * total) and search (keyset), the related collections come along, and the
 * counts by status type agree; a status renamed or recoloured on the folder
 * shows on the next read of every task below it.
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

describe("task presentation in one statement", () => {
  it("status type and colour from the effective workflow, with the related collections, in every read", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Presented" }, w.member.token, 201)
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "Folder" }, w.member.token, 201)
    await call("PUT", `/folders/${folder.id}/statuses`, {
      statuses: [
        { name: "Backlog", type: "open", color: "#111111" },
        { name: "Doing", type: "active", color: "#222222" },
        { name: "Shipped", type: "closed", color: "#333333" }
      ]
    })
    const inFolder = await call("POST", `/folders/${folder.id}/lists`, { name: "Inherits the folder" }, w.member.token, 201)
    const own = await call("POST", `/folders/${folder.id}/lists`, { name: "Own workflow" }, w.member.token, 201)
    await call("PUT", `/lists/${own.id}/statuses`, {
      statuses: [
        { name: "new", type: "open", color: "#444444" },
        { name: "gone", type: "done", color: "#555555" }
      ]
    })
    const loose = await call("POST", `/spaces/${space.id}/lists`, { name: "Inherits the space" }, w.member.token, 201)

    const doing = await call(
      "POST",
      `/lists/${inFolder.id}/tasks`,
      {
        name: "Presented doing",
        status: "doing",
        assigneeIds: [w.member.userId, w.owner.userId],
        tags: ["zeta", "Alpha"]
      },
      w.member.token,
      201
    )
    const gone = await call("POST", `/lists/${own.id}/tasks`, { name: "Presented gone", status: "GONE" }, w.member.token, 201)
    const plain = await call("POST", `/lists/${loose.id}/tasks`, { name: "Presented plain" }, w.member.token, 201)
    await call("POST", `/lists/${inFolder.id}/tasks`, { name: "Presented child", parentTaskId: doing.id }, w.member.token, 201)

    const read = await call("GET", `/tasks/${doing.id}`)
    expect(read.status).toEqual({ name: "Doing", type: "active", color: "#222222" })
    // assigned together: ordered by user id
    expect(read.assignees.map((a: { id: string }) => a.id)).toEqual([w.member.userId, w.owner.userId].sort())
    expect(read.assignees).toContainEqual({ id: w.member.userId, email: w.member.email, name: expect.any(String) })
    expect(read.tags.map((t: { name: string }) => t.name)).toEqual(["Alpha", "zeta"])
    expect(read.tags[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(read.watcherIds).toContain(w.member.userId)
    expect(read.subtaskCount).toBe(1)
    expect((await call("GET", `/tasks/${gone.id}`)).status).toEqual({ name: "gone", type: "done", color: "#555555" })
    expect((await call("GET", `/tasks/${plain.id}`)).status).toMatchObject({ name: "to do", type: "open" })

    // The list listing (offset page with its total) and search (keyset) present the same tasks the same way.
    const listed = await call("GET", `/lists/${inFolder.id}/tasks?limit=1`)
    expect(listed.total).toBe(2)
    expect(listed.items).toHaveLength(1)
    const page = await call("GET", `/lists/${inFolder.id}/tasks?limit=1&offset=1`)
    const walked = [...listed.items, ...page.items].map((t: { id: string }) => t.id)
    expect(new Set(walked).size).toBe(2)
    expect(walked).toContain(doing.id)
    expect((await call("GET", `/lists/${inFolder.id}/tasks?offset=5`)) as { total: number; items: Array<unknown> }).toMatchObject({
      total: 2,
      items: []
    })
    const found = await call("GET", `/lite/search/tasks?workspaceId=${w.workspaceId}&q=presented%20doing`)
    expect(found.items.map((t: { id: string }) => t.id)).toEqual([doing.id])
    expect(found.items[0]).toMatchObject({
      status: "Doing",
      statusType: "active",
      space: "Presented",
      folder: "Folder",
      list: "Inherits the folder",
      tags: ["Alpha", "zeta"]
    })
    const byShortId = await call("GET", `/lite/search/tasks?workspaceId=${w.workspaceId}&q=${doing.shortId.toLowerCase()}`)
    expect(byShortId.items.map((t: { id: string }) => t.id)).toEqual([doing.id])

    // Counts by status type follow each list's workflow.
    const counts = await call("GET", `/workspaces/${w.workspaceId}/analytics/task-counts?groupBy=status_type&spaceId=${space.id}`)
    expect(counts.total).toBe(4)
    expect(Object.fromEntries(counts.items.map((i: { key: string; count: number }) => [i.key, i.count]))).toEqual({
      open: 2,
      active: 1,
      done: 1
    })
    const spaces = await call("GET", `/workspaces/${w.workspaceId}/stats/spaces`)
    expect(spaces.items.find((s: { spaceId: string }) => s.spaceId === space.id).tasks).toMatchObject({
      total: 4,
      open: 2,
      active: 1,
      done: 1,
      closed: 0
    })

    // A status renamed and recoloured on the folder shows on the next read.
    const folderStatuses = (await call("GET", `/folders/${folder.id}/statuses`)).items
    const doingStatus = folderStatuses.find((s: { name: string }) => s.name === "Doing")
    await call("PATCH", `/folders/${folder.id}/statuses/${doingStatus.id}`, { name: "In flight", color: "#999999" })
    expect((await call("GET", `/tasks/${doing.id}`)).status).toEqual({ name: "In flight", type: "active", color: "#999999" })
  })
})
