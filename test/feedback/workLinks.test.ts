/**
 * Requests linked to work (issue 24): feature requests and bug reports linked
 * to pm tasks from either side, by id and by short id; the links shown on both
 * sides as far as the reader may see; and progress flowing back — a board's
 * declaration moves a request when its first task starts and when all are
 * done, recorded as the automation, never over a person's status, applied
 * once however often the events are read.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually } from "../support/collabAtrium.ts"
import { apiKey, createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
let listId: string
const savedSafetyPoll = process.env.WORKER_SAFETY_POLL_MS
beforeAll(async () => {
  // A cursor moved back by hand (a crash before it moved) is found by the worker's safety poll: keep it short here.
  process.env.WORKER_SAFETY_POLL_MS = "200"
  atrium = await startAtrium()
  t = await newTeam(atrium)
  const space = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, {
    token: t.owner.token,
    body: { name: "Product" }
  })
  expect(space.status, space.text).toBe(201)
  const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: t.owner.token, body: { name: "Build" } })
  expect(list.status, list.text).toBe(201)
  listId = list.body.id
})
afterAll(async () => {
  await atrium?.close()
  if (savedSafetyPoll === undefined) delete process.env.WORKER_SAFETY_POLL_MS
  else process.env.WORKER_SAFETY_POLL_MS = savedSafetyPoll
})

const newTask = async (name: string) => {
  const created = await atrium.request("POST", `/pm/v1/lists/${listId}/tasks`, { token: t.member.token, body: { name } })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; shortId: string }
}
const setTaskStatus = async (taskId: string, status: string) => {
  const changed = await atrium.request("PATCH", `/pm/v1/tasks/${taskId}`, { token: t.member.token, body: { status } })
  expect(changed.status, changed.text).toBe(200)
}
const statusOf = async (requestId: string) =>
  (await atrium.request("GET", `/feedback/v1/feature-requests/${requestId}`, { token: t.owner.token })).body.status as {
    name: string
    type: string
  }
const history = async (requestId: string) =>
  (await atrium.request("GET", `/feedback/v1/feature-requests/${requestId}/status-history`, { token: t.owner.token })).body.items as Array<{
    toName: string
    note: string
    changedBy: { userId: string; name: string }
  }>
const statuses = async (boardId: string) =>
  (await atrium.request("GET", `/feedback/v1/boards/${boardId}/statuses`, { token: t.owner.token })).body.items as Array<{
    id: string
    name: string
    type: string
  }>
const link = (requestId: string, taskId: string, token = t.member.token) =>
  atrium.request("PUT", `/feedback/v1/feature-requests/${requestId}/tasks/${taskId}`, { token })
/** Until the worker has read every pm event logged so far. */
const caughtUp = async () => {
  const [head] = await atrium.sql("SELECT last_seq FROM pm_event_counters WHERE workspace_id = $1", [t.workspaceId])
  await eventually(async () => {
    const [cursor] = await atrium.sql("SELECT last_seq FROM feedback_work_cursors WHERE workspace_id = $1", [t.workspaceId])
    return cursor !== undefined && Number(cursor.last_seq) >= Number(head!.last_seq)
  }, "the work-progress cursor reaches the log's end")
}

describe("requests linked to work", () => {
  it("links from either side by id and short id, shows each side as far as the reader may see, and names refused fields", async () => {
    const board = await createBoard(atrium, t, { name: "Roadmap" })
    const request = await createRequest(atrium, t.member.token, board.id, { title: "Dark mode" })
    for (const email of ["a@customer.test", "b@customer.test"]) {
      const voted = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes?onBehalfOfEmail=${email}`, {
        token: t.member.token
      })
      expect(voted.status, voted.text).toBeLessThan(300)
    }
    const first = await newTask("Theme tokens")
    const second = await newTask("Dark palette")

    const linked = await link(request.id, first.id)
    expect(linked.status, linked.text).toBe(200)
    expect(linked.body.items).toMatchObject([{ taskId: first.id, shortId: first.shortId, name: "Theme tokens", status: { type: "open" } }])
    expect((await link(request.id, first.id)).body.items).toHaveLength(1)

    const fromTask = await atrium.request("POST", `/pm/v1/lite/tasks/${second.shortId}/feature-requests`, {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, request: request.shortId }
    })
    expect(fromTask.status, fromTask.text).toBe(200)
    expect(fromTask.body.items).toMatchObject([
      { kind: "request", id: request.id, shortId: request.shortId, boardSlug: board.slug, title: "Dark mode", voteCount: 2, status: "Open" }
    ])

    const bug = await atrium.request("POST", `/feedback/v1/boards/${board.id}/bug-reports`, {
      token: t.member.token,
      body: { title: "Contrast too low" }
    })
    expect(bug.status, bug.text).toBe(201)
    const bugLinked = await atrium.request("PUT", `/pm/v1/tasks/${second.id}/bug-reports/${bug.body.id}`, { token: t.member.token })
    expect(bugLinked.status, bugLinked.text).toBe(200)
    expect(bugLinked.body.items.map((i: any) => `${i.kind} ${i.shortId}`)).toEqual([
      `request ${request.shortId}`,
      `bug ${bug.body.shortId}`
    ])
    expect(
      (await atrium.request("GET", `/feedback/v1/bug-reports/${bug.body.id}/tasks`, { token: t.viewer.token })).body.items.map(
        (i: any) => i.taskId
      )
    ).toEqual([second.id])

    const lite = await atrium.request("GET", `/feedback/v1/lite/feature-requests/${request.shortId}/tasks?workspaceId=${t.workspaceId}`, {
      token: t.viewer.token
    })
    expect(lite.status, lite.text).toBe(200)
    expect(lite.body.items.map((i: any) => i.shortId)).toEqual([first.shortId, second.shortId])
    const onTask = await atrium.request("GET", `/pm/v1/tasks/${first.id}/feedback`, { token: t.viewer.token })
    expect(onTask.body.items).toMatchObject([{ shortId: request.shortId, voteCount: 2 }])
    const onTaskLite = await atrium.request("GET", `/pm/v1/lite/tasks/${second.shortId}/feedback?workspaceId=${t.workspaceId}`, {
      token: t.member.token
    })
    expect(onTaskLite.body.items).toHaveLength(2)

    // Refusals: the field named, the team's right to link, others' boards and tasks unseen.
    const unknownTask = await link(request.id, "00000000-0000-4000-8000-000000000001")
    expect(unknownTask.status).toBe(404)
    expect(unknownTask.body.error.details).toEqual([{ path: "path.taskId", message: "not found" }])
    const unknownRef = await atrium.request("POST", `/feedback/v1/lite/feature-requests/${request.shortId}/tasks`, {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, task: "T-999" }
    })
    expect(unknownRef.status).toBe(404)
    expect(unknownRef.body.error.details[0].path).toBe("body.task")
    const unknownRequest = await atrium.request("POST", `/pm/v1/lite/tasks/${first.shortId}/feature-requests`, {
      token: t.member.token,
      body: { workspaceId: t.workspaceId, request: "FR-999" }
    })
    expect(unknownRequest.status).toBe(404)
    expect(unknownRequest.body.error.details[0].path).toBe("body.request")
    expect((await link(request.id, first.id, t.viewer.token)).status).toBe(403)
    expect((await link(request.id, first.id, t.outsider.token)).status).toBe(404)
    expect((await atrium.request("GET", `/pm/v1/tasks/${first.id}/feedback`, { token: t.outsider.token })).status).toBe(404)
    const notLinked = await atrium.request("DELETE", `/feedback/v1/bug-reports/${bug.body.id}/tasks/${first.id}`, { token: t.member.token })
    expect(notLinked.status).toBe(404)
    expect(notLinked.body.error.details).toEqual([{ path: "path.taskId", message: "not found" }])

    const unlinked = await atrium.request(
      "DELETE",
      `/pm/v1/lite/tasks/${second.shortId}/feature-requests/${request.shortId}?workspaceId=${t.workspaceId}`,
      {
        token: t.member.token
      }
    )
    expect(unlinked.status, unlinked.text).toBe(200)
    expect(unlinked.body.items.map((i: any) => i.kind)).toEqual(["bug"])
    expect(
      (await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/tasks`, { token: t.member.token })).body.items
    ).toHaveLength(1)

    // A private board's posts are not shown to a task reader who may not see the board.
    const secret = await createBoard(atrium, t, { name: "Secret", visibility: "private" })
    const hidden = await createRequest(atrium, t.owner.token, secret.id, { title: "Hidden" })
    expect((await link(hidden.id, first.id, t.owner.token)).status).toBe(200)
    expect((await atrium.request("GET", `/pm/v1/tasks/${first.id}/feedback`, { token: t.member.token })).body.items).toHaveLength(1)
    expect((await atrium.request("GET", `/pm/v1/tasks/${first.id}/feedback`, { token: t.owner.token })).body.items).toHaveLength(2)
  })

  it("a board's declaration moves requests as their work moves: started, all done, recorded as the automation, once", async () => {
    const board = await createBoard(atrium, t, { name: "Progress" })
    const options = await statuses(board.id)
    const inProgress = options.find((o) => o.type === "in_progress")!
    const shipped = options.find((o) => o.type === "shipped")!
    const badStatus = await atrium.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
      token: t.admin.token,
      body: { startedStatusId: "00000000-0000-4000-8000-000000000002", doneStatusId: shipped.id }
    })
    expect(badStatus.status).toBe(400)
    expect(badStatus.body.error.details).toEqual([{ path: "body.startedStatusId", message: "not a status of this board" }])
    expect(
      (
        await atrium.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
          token: t.member.token,
          body: { startedStatusId: inProgress.id, doneStatusId: shipped.id }
        })
      ).status
    ).toBe(403)
    const declared = await atrium.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
      token: t.admin.token,
      body: { startedStatusId: inProgress.id, doneStatusId: shipped.id }
    })
    expect(declared.status, declared.text).toBe(200)

    const request = await createRequest(atrium, t.member.token, board.id, { title: "Offline mode" })
    const one = await newTask("Sync engine")
    const two = await newTask("Conflict UI")
    expect((await link(request.id, one.id)).status).toBe(200)
    expect((await link(request.id, two.id)).status).toBe(200)
    expect((await statusOf(request.id)).type).toBe("open")

    await setTaskStatus(one.id, "in progress")
    await eventually(async () => (await statusOf(request.id)).type === "in_progress", "the request is in progress")
    await setTaskStatus(one.id, "done")
    await caughtUp()
    expect((await statusOf(request.id)).type).toBe("in_progress")
    await setTaskStatus(two.id, "done")
    await eventually(async () => (await statusOf(request.id)).type === "shipped", "the request is shipped")

    const moves = (await history(request.id)).slice(1)
    expect(moves).toEqual([
      expect.objectContaining({
        toName: inProgress.name,
        note: `Work started (${one.shortId})`,
        changedBy: expect.objectContaining({ name: "Work automation" })
      }),
      expect.objectContaining({
        toName: shipped.name,
        note: `All linked tasks done (${one.shortId}, ${two.shortId})`,
        changedBy: expect.objectContaining({ name: "Work automation" })
      })
    ])

    // Every event read again (a crash before the cursor moved): nothing moves twice.
    await atrium.sql("UPDATE feedback_work_cursors SET last_seq = 0 WHERE workspace_id = $1", [t.workspaceId])
    await caughtUp()
    expect(await history(request.id)).toHaveLength(3)
  })

  it("a person's status wins over the work; linking finished work moves a request at once", async () => {
    const board = await createBoard(atrium, t, { name: "Manual" })
    const options = await statuses(board.id)
    const planned = options.find((o) => o.type === "planned")!
    const declared = await atrium.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
      token: t.admin.token,
      body: {
        startedStatusId: options.find((o) => o.type === "in_progress")!.id,
        doneStatusId: options.find((o) => o.type === "shipped")!.id
      }
    })
    expect(declared.status).toBe(200)

    const held = await createRequest(atrium, t.member.token, board.id, { title: "Held" })
    const task = await newTask("Held work")
    expect((await link(held.id, task.id)).status).toBe(200)
    const manual = await atrium.request("POST", `/feedback/v1/feature-requests/${held.id}/status`, {
      token: t.admin.token,
      body: { statusId: planned.id }
    })
    expect(manual.status, manual.text).toBe(200)
    await setTaskStatus(task.id, "in progress")
    await caughtUp()
    expect((await statusOf(held.id)).name).toBe(planned.name)

    // Linking another task re-arms the automation: the work now started moves it.
    const more = await newTask("More held work")
    expect((await link(held.id, more.id)).status).toBe(200)
    expect((await statusOf(held.id)).type).toBe("in_progress")

    // A deleted task no longer counts: the other one finishing is all the work.
    const kept = await createRequest(atrium, t.member.token, board.id, { title: "Kept" })
    const dropped = await newTask("Dropped work")
    const finishing = await newTask("Finishing work")
    expect((await link(kept.id, dropped.id)).status).toBe(200)
    expect((await link(kept.id, finishing.id)).status).toBe(200)
    const deleted = await atrium.request("DELETE", `/pm/v1/tasks/${dropped.id}`, { token: t.member.token })
    expect(deleted.status, deleted.text).toBeLessThan(300)
    await setTaskStatus(finishing.id, "done")
    await eventually(async () => (await statusOf(kept.id)).type === "shipped", "the request is shipped without the deleted task")

    const done = await newTask("Already done")
    await setTaskStatus(done.id, "done")
    const late = await createRequest(atrium, t.member.token, board.id, { title: "Late link" })
    expect((await link(late.id, done.id)).status).toBe(200)
    expect((await statusOf(late.id)).type).toBe("shipped")
  })

  it("agents link and read through the MCP tools updateTask and getTask, as far as their key's scopes go", async () => {
    const board = await createBoard(atrium, t, { name: "Agents" })
    const request = await createRequest(atrium, t.member.token, board.id, { title: "Keyboard shortcuts" })
    const task = await newTask("Shortcut map")
    const connect = async (key: string) => {
      const client = new Client({ name: "work-links-test", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${atrium.origin}/mcp`), { requestInit: { headers: { "x-api-key": key } } })
      )
      await client.listTools()
      return client
    }
    const agent = await connect(
      await apiKey(atrium, t.member, t.workspaceId, ["tasks:read", "tasks:write", "feedback:read", "feedback:write"])
    )
    const tasksOnly = await connect(await apiKey(atrium, t.member, t.workspaceId, ["tasks:read", "tasks:write"]))
    try {
      const call = async (client: Client, name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult
      const refused = await call(tasksOnly, "updateTask", {
        workspaceId: t.workspaceId,
        taskRef: task.shortId,
        linkFeatureRequests: [{ request: request.shortId, board: board.slug }]
      })
      expect(refused.isError).toBe(true)
      const linked = await call(agent, "updateTask", {
        workspaceId: t.workspaceId,
        taskRef: task.shortId,
        linkFeatureRequests: [{ request: request.shortId, board: board.slug }]
      })
      expect(linked.isError, JSON.stringify(linked.content)).toBeFalsy()
      const read = await call(agent, "getTask", { workspaceId: t.workspaceId, taskRef: task.shortId })
      expect(read.structuredContent).toMatchObject({
        shortId: task.shortId,
        feedback: [{ shortId: request.shortId, title: "Keyboard shortcuts" }]
      })
      const unseen = await call(tasksOnly, "getTask", { workspaceId: t.workspaceId, taskRef: task.shortId })
      expect(unseen.structuredContent).toMatchObject({ shortId: task.shortId, feedback: [] })
      const unlinked = await call(agent, "updateTask", {
        workspaceId: t.workspaceId,
        taskRef: task.shortId,
        unlinkFeatureRequests: [{ request: request.shortId, board: board.slug }]
      })
      expect(unlinked.isError, JSON.stringify(unlinked.content)).toBeFalsy()
      expect((await call(agent, "getTask", { workspaceId: t.workspaceId, taskRef: task.shortId })).structuredContent).toMatchObject({
        feedback: []
      })
    } finally {
      await agent.close()
      await tasksOnly.close()
    }
  })
})
