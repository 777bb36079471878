/**
 * The work hierarchy on PostgreSQL (its own throwaway database): the SQL
 * that differs from PGlite's single session — real concurrency on one task,
 * on one list and on the "blocks" graph, status remapping and moves, option
 * removal from jsonb values, keyset cursors over microsecond timestamps.
 * Skipped loudly without PostgreSQL unless ATRIUM_REQUIRE_SERVICES=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { expectStatus, type PmAtrium, setupWorkspace, startPmAtrium } from "./support/pmAtrium.ts"

const available = await checkPostgres("pm work hierarchy on PostgreSQL")

describe.skipIf(!available)("work hierarchy on PostgreSQL", () => {
  let database: TestDatabase
  let atrium: PmAtrium
  let w: Awaited<ReturnType<typeof setupWorkspace>>
  beforeAll(async () => {
    database = await createTestDatabase()
    atrium = await startPmAtrium({ databaseUrl: database.url })
    w = await setupWorkspace(atrium)
  })
  afterAll(async () => {
    await atrium?.close()
    await database?.drop()
  })

  const call = async (method: string, path: string, body?: unknown, status = method === "POST" ? 201 : 200, token = w.member.token) =>
    expectStatus(await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body }), status)

  it("structure, statuses, fields, moves and watchers", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "PG" })
    const target = await call("POST", `/workspaces/${w.workspaceId}/spaces`, {
      name: "PG 2",
      statuses: [
        { name: "new", type: "open" },
        { name: "live", type: "closed" }
      ]
    })
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "F" })
    const list = await call("POST", `/folders/${folder.id}/lists`, { name: "L" })
    await call("POST", `/lists/${list.id}/watchers`, {})
    const labels = await call("POST", `/spaces/${space.id}/custom-fields`, {
      name: "Areas",
      type: "labels",
      options: [{ name: "ui" }, { name: "api" }]
    })
    const task = await call(
      "POST",
      `/lists/${list.id}/tasks`,
      { name: "T", status: "done", tags: ["pg"], customFields: { Areas: ["ui", "api"] } },
      201,
      w.owner.token
    )
    expect((await atrium.notifications(w.member.userId)).some((n) => n.reason === "watching" && n.entityId === task.id)).toBe(true)
    await call("DELETE", `/spaces/${space.id}/custom-fields/${labels.id}/options/${labels.config.options[0].id}`, undefined, 200)
    const after = await call("GET", `/tasks/${task.id}`)
    expect(after.customFields[0].value.map((o: { name: string }) => o.name)).toEqual(["api"])
    await call("POST", `/folders/${folder.id}/move`, { spaceId: target.id }, 200)
    const moved = await call("GET", `/tasks/${task.id}`)
    expect(moved).toMatchObject({
      spaceId: target.id,
      status: { name: "live", type: "closed" },
      tags: [{ name: "pg", spaceId: target.id }],
      customFields: []
    })
    const replaced = await call(
      "PUT",
      `/spaces/${target.id}/statuses`,
      {
        statuses: [
          { name: "todo", type: "open" },
          { name: "shipped", type: "done" }
        ]
      },
      200
    )
    expect(replaced.tasksMoved).toBe(1)
    expect((await call("GET", `/tasks/${task.id}`)).status.name).toBe("shipped")
  })

  it("50 concurrent edits of one task and 20 concurrent creations in one list", async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Busy" })
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" })
    const task = await call("POST", `/lists/${list.id}/tasks`, { name: "Hot" })
    const checklist = await call("POST", `/tasks/${task.id}/checklists`, { name: "C" })
    const base = (await call("GET", `/tasks/${task.id}`)).version
    const added = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        atrium.request("POST", `/pm/v1/tasks/${task.id}/checklists/${checklist.id}/items`, {
          token: i % 2 ? w.owner.token : w.member.token,
          body: { name: `i${i}` }
        })
      )
    )
    expect(added.every((r) => r.status === 201)).toBe(true)
    expect((await call("GET", `/tasks/${task.id}/checklists/${checklist.id}`)).items).toHaveLength(50)
    expect((await call("GET", `/tasks/${task.id}`)).version).toBe(base + 50)
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        atrium.request("POST", `/pm/v1/lists/${list.id}/tasks`, { token: w.member.token, body: { name: `c${i}` } })
      )
    )
    expect(created.every((r) => r.status === 201)).toBe(true)
    expect(new Set(created.map((r) => r.body.shortId)).size).toBe(20)
    expect(new Set(created.map((r) => r.body.position)).size).toBe(20)
  })

  it('a ring of concurrent "blocks" never closes; search pages by cursor', async () => {
    const space = await call("POST", `/workspaces/${w.workspaceId}/spaces`, { name: "Ring" })
    const list = await call("POST", `/spaces/${space.id}/lists`, { name: "L" })
    const tasks: Array<{ id: string }> = []
    for (let i = 0; i < 8; i++) tasks.push(await call("POST", `/lists/${list.id}/tasks`, { name: `r${i}` }))
    const results = await Promise.all(
      tasks.map((t, i) =>
        atrium.request("POST", `/pm/v1/tasks/${t.id}/relationships`, {
          token: w.member.token,
          body: { type: "blocks", relatedTaskId: tasks[(i + 1) % tasks.length].id }
        })
      )
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(7)
    const seen: Array<string> = []
    let cursor: string | null = null
    do {
      const params = new URLSearchParams({ workspaceId: w.workspaceId, space: "Ring", limit: "3", ...(cursor ? { cursor } : {}) })
      const page = await call("GET", `/lite/search/tasks?${params}`)
      seen.push(...page.items.map((t: { id: string }) => t.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(tasks.map((t) => t.id))
  })
})
