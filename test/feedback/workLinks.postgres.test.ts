/**
 * Progress flows back across a restart (PostgreSQL, its own throwaway
 * database): a task's status change logged while no node follows the log is
 * applied by the next node to start, once. Skipped loudly without PostgreSQL
 * unless ATRIUM_REQUIRE_SERVICES=1.
 */
import { afterAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually } from "../support/collabAtrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { createBoard, createRequest, newTeam } from "./fixture.ts"

const available = await checkPostgres("work progress across a restart")

describe.skipIf(!available)("work progress across a restart", () => {
  let database: TestDatabase | undefined
  let first: TestServer | undefined
  let second: TestServer | undefined
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await database?.drop()
  })

  it("a status change logged before a restart moves the linked request after it, once", async () => {
    database = await createTestDatabase()
    // The first node's worker reads the log once at start, then not for an hour: the change below waits in the log.
    process.env.FEEDBACK_WORK_POLL_MS = "3600000"
    let node: TestServer
    try {
      node = await startAtrium({ databaseUrl: database.url })
      first = node
    } finally {
      delete process.env.FEEDBACK_WORK_POLL_MS
    }
    const t = await newTeam(node)
    const space = await node.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, { token: t.owner.token, body: { name: "P" } })
    const list = await node.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: t.owner.token, body: { name: "L" } })
    const task = await node.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, { token: t.member.token, body: { name: "Build it" } })
    expect(task.status, task.text).toBe(201)
    const board = await createBoard(node, t)
    const statuses = (await node.request("GET", `/feedback/v1/boards/${board.id}/statuses`, { token: t.owner.token })).body.items as Array<{
      id: string
      type: string
    }>
    const declared = await node.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
      token: t.admin.token,
      body: { startedStatusId: statuses.find((s) => s.type === "in_progress")!.id, doneStatusId: null }
    })
    expect(declared.status, declared.text).toBe(200)
    const request = await createRequest(node, t.member.token, board.id)
    const linked = await node.request("PUT", `/feedback/v1/feature-requests/${request.id}/tasks/${task.body.id}`, {
      token: t.member.token
    })
    expect(linked.status, linked.text).toBe(200)
    const started = await node.request("PATCH", `/pm/v1/tasks/${task.body.id}`, { token: t.member.token, body: { status: "in progress" } })
    expect(started.status, started.text).toBe(200)
    const statusOn = async (node: TestServer) =>
      (await node.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.owner.token })).body.status.type as string
    expect(await statusOn(node)).toBe("open")
    await node.close()
    first = undefined

    node = await startAtrium({ databaseUrl: database.url })
    second = node
    await eventually(async () => (await statusOn(node)) === "in_progress", "the request moved after the restart")
    const moves = (await node.request("GET", `/feedback/v1/feature-requests/${request.id}/status-history`, { token: t.owner.token })).body
      .items as Array<{ changedBy: { name: string } }>
    expect(moves.map((m) => m.changedBy.name)).toEqual(["Member", "Work automation"])
  })
})
