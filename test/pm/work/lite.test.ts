/**
 * The Lite tags: names, e-mail addresses and short ids instead of UUIDs.
 * Every operation on its happy path; unknown names answer 404 naming them,
 * ambiguous ones 409 listing the candidates; the search cursor survives
 * concurrent inserts without duplicates or gaps; e-mail mentions notify.
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

async function call(method: string, path: string, body?: unknown, token = w.member.token, status?: number) {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  if (status !== undefined) return expectStatus(response, status)
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`)
  return response.body
}
const fail = async (method: string, path: string, body: unknown, status: number, token = w.member.token) => {
  const response = await atrium.request(method, `/pm/v1${path}`, body === undefined ? { token } : { token, body })
  expect(response.status, response.text).toBe(status)
  return response.body
}
const qs = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()

describe("Structure (Lite)", () => {
  it("creates spaces, folders, lists, statuses and fields by name; reads the tree; renames", async () => {
    const ws = w.workspaceId
    const space = await call("POST", "/lite/spaces", { workspaceId: ws, name: "Product" }, w.member.token, 201)
    expect(space).toMatchObject({ name: "Product", isPrivate: false })
    await fail("POST", "/lite/spaces", { workspaceId: ws, name: "product" }, 409)
    const folder = await call("POST", "/lite/folders", { workspaceId: ws, space: "product", name: "Roadmap" }, w.member.token, 201)
    expect(folder).toMatchObject({ name: "Roadmap", space: "Product" })
    await fail("POST", "/lite/folders", { workspaceId: ws, space: "Product", name: "roadmap" }, 409)
    const missing = await fail("POST", "/lite/folders", { workspaceId: ws, space: "Nope", name: "X" }, 404)
    expect(missing.error.details[0]).toEqual({ path: "body.space", message: 'no space named "Nope"' })
    const list = await call(
      "POST",
      "/lite/lists",
      { workspaceId: ws, space: "Product", folder: "Roadmap", name: "Now" },
      w.member.token,
      201
    )
    expect(list).toMatchObject({ name: "Now", space: "Product", folder: "Roadmap" })
    const loose = await call("POST", "/lite/lists", { workspaceId: ws, space: space.shortId, name: "Inbox" }, w.member.token, 201)
    expect(loose.folder).toBeNull()
    const field = await call(
      "POST",
      "/lite/custom-fields",
      { workspaceId: ws, space: "Product", name: "Env", type: "dropdown", options: ["prod", "dev"] },
      w.member.token,
      201
    )
    expect(field).toMatchObject({ name: "Env", type: "dropdown", options: ["prod", "dev"], definedOn: "space Product" })
    const listField = await call(
      "POST",
      "/lite/custom-fields",
      { workspaceId: ws, space: "Product", folder: "Roadmap", list: "Now", name: "Points", type: "number" },
      w.member.token,
      201
    )
    expect(listField.definedOn).toBe("list Now")
    const withOption = await call(
      "POST",
      "/lite/custom-fields/options",
      { workspaceId: ws, space: "Product", list: "Now", field: "env", option: "staging" },
      w.member.token,
      201
    )
    expect(withOption.options).toEqual(["prod", "dev", "staging"])
    await fail("POST", "/lite/custom-fields/options", { workspaceId: ws, space: "Product", field: "Nope", option: "x" }, 404)
    const statuses = await call(
      "POST",
      "/lite/statuses",
      { workspaceId: ws, space: "Product", list: "Now", name: "review", type: "active" },
      w.member.token,
      201
    )
    expect(statuses.items.map((s: { name: string }) => s.name)).toContain("review")
    expect((await call("GET", `/lists/${list.id}/statuses`)).own).toBe(true)
    const tree = await call("GET", `/lite/structure?${qs({ workspaceId: ws, space: "Product" })}`, undefined, w.viewer.token)
    expect(tree).toEqual({
      spaces: [
        {
          name: "Product",
          shortId: space.shortId,
          folders: [{ name: "Roadmap", shortId: folder.shortId, lists: [{ name: "Now", shortId: list.shortId, openTasks: 0 }] }],
          lists: [{ name: "Inbox", shortId: loose.shortId, openTasks: 0 }]
        }
      ]
    })
    expect((await call("GET", `/lite/structure?${qs({ workspaceId: ws })}`)).spaces.map((s: { name: string }) => s.name)).toContain(
      "Product"
    )
    const resolved = await call("GET", `/lite/lists/resolve?${qs({ workspaceId: ws, space: "Product", list: "now" })}`)
    expect(resolved).toMatchObject({ id: list.id, spaceId: space.id, folderId: folder.id, folder: "Roadmap" })
    expect(resolved.statuses.map((s: { name: string }) => s.name)).toContain("review")
    expect(resolved.customFields.map((f: { name: string }) => f.name)).toEqual(["Env", "Points"])
    expect((await call("GET", `/lite/lists/resolve?${qs({ workspaceId: ws, list: "Inbox" })}`)).id).toBe(loose.id)
    expect(await call("PATCH", "/lite/folders", { workspaceId: ws, space: "Product", folder: "Roadmap", newName: "Plan" })).toMatchObject({
      name: "Plan"
    })
    expect(
      await call("PATCH", "/lite/lists", { workspaceId: ws, space: "Product", list: "Inbox", newName: "Triage", description: "new stuff" })
    ).toMatchObject({ name: "Triage" })
    await fail("PATCH", "/lite/lists", { workspaceId: ws, list: "Nothing" }, 404)
    await fail("POST", "/lite/folders", { workspaceId: ws, space: "Product", name: "X" }, 403, w.viewer.token)
    await fail("POST", "/lite/folders", { workspaceId: ws, space: "Product", name: "X" }, 404, w.outsider.token)
  })

  it("ambiguous names answer 409 listing the candidates", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Twins" }, w.member.token, 201)
    await call("POST", "/lite/folders", { workspaceId: ws, space: "Twins", name: "One" }, w.member.token, 201)
    await call("POST", "/lite/folders", { workspaceId: ws, space: "Twins", name: "Two" }, w.member.token, 201)
    const a = await call("POST", "/lite/lists", { workspaceId: ws, space: "Twins", folder: "One", name: "Shared" }, w.member.token, 201)
    const b = await call("POST", "/lite/lists", { workspaceId: ws, space: "Twins", folder: "Two", name: "Shared" }, w.member.token, 201)
    const ambiguous = await fail("POST", "/lite/tasks", { workspaceId: ws, space: "Twins", list: "Shared", name: "x" }, 409)
    expect(ambiguous.error.code).toBe("conflict")
    expect(ambiguous.error.message).toContain("in folder One")
    expect(ambiguous.error.message).toContain("in folder Two")
    expect(ambiguous.error.details.map((d: { path: string; message: string }) => d.path)).toEqual(["body.list", "body.list"])
    expect(ambiguous.error.details.map((d: { message: string }) => d.message).join(" ")).toContain(a.id)
    expect(ambiguous.error.details.map((d: { message: string }) => d.message).join(" ")).toContain(b.id)
    // Naming the folder, or the short id, settles it.
    expect(
      (
        await call(
          "POST",
          "/lite/tasks",
          { workspaceId: ws, space: "Twins", folder: "Two", list: "Shared", name: "x" },
          w.member.token,
          201
        )
      ).listId
    ).toBe(b.id)
    expect((await call("POST", "/lite/tasks", { workspaceId: ws, list: a.shortId, name: "y" }, w.member.token, 201)).listId).toBe(a.id)
    // Two spaces of one name
    await call("POST", `/workspaces/${ws}/spaces`, { name: "Twins" }, w.member.token, 201)
    const spaces = await fail("POST", "/lite/folders", { workspaceId: ws, space: "twins", name: "Z" }, 409)
    expect(spaces.error.details).toHaveLength(2)
    expect(spaces.error.details[0].path).toBe("body.space")
  })
})

describe("Tasks (Lite)", () => {
  it("create, read, update, move, custom fields, subtasks — all by name", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Ops" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Ops", name: "Queue" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Ops", name: "Done pile" }, w.member.token, 201)
    await call(
      "POST",
      "/lite/custom-fields",
      { workspaceId: ws, space: "Ops", name: "Severity", type: "dropdown", options: ["low", "high"] },
      w.member.token,
      201
    )
    const task = await call(
      "POST",
      "/lite/tasks",
      {
        workspaceId: ws,
        space: "ops",
        list: "queue",
        name: "Rotate keys",
        assigneeEmails: [w.owner.email.toUpperCase()],
        status: "In Progress",
        priority: "urgent",
        dueDate: "2026-12-24",
        tags: ["security"],
        customFields: { severity: "HIGH" }
      },
      w.member.token,
      201
    )
    expect(task).toMatchObject({
      name: "Rotate keys",
      space: "Ops",
      list: "Queue",
      folder: null,
      status: "in progress",
      statusType: "active",
      priority: "urgent",
      dueDate: "2026-12-24T00:00:00.000Z",
      assignees: [w.owner.email],
      tags: ["security"],
      customFields: { Severity: "high" }
    })
    expect((await atrium.notifications(w.owner.userId)).some((n) => n.reason === "assigned" && n.entityId === task.id)).toBe(true)
    const unknownEmail = await fail(
      "POST",
      "/lite/tasks",
      { workspaceId: ws, space: "Ops", list: "Queue", name: "x", assigneeEmails: ["ghost@example.com"] },
      404
    )
    expect(unknownEmail.error.message).toContain("ghost@example.com")
    expect(unknownEmail.error.details[0].path).toBe("body.assigneeEmails.0")
    const unknownList = await fail("POST", "/lite/tasks", { workspaceId: ws, space: "Ops", list: "Nope", name: "x" }, 404)
    expect(unknownList.error.details[0]).toEqual({ path: "body.list", message: 'no list named "Nope"' })
    expect(
      (await fail("POST", "/lite/tasks", { workspaceId: ws, space: "Ops", list: "Queue", name: "x", status: "limbo" }, 404)).error
        .details[0].path
    ).toBe("body.status")
    expect(
      (await fail("POST", "/lite/tasks", { workspaceId: ws, space: "Ops", list: "Queue", name: "x", customFields: { Nope: 1 } }, 404)).error
        .details[0].path
    ).toBe("body.customFields.Nope")
    await fail("POST", "/lite/tasks", { workspaceId: w.otherWorkspaceId, space: "Ops", list: "Queue", name: "x" }, 404)

    expect(await call("GET", `/lite/tasks/${task.shortId.toLowerCase()}?workspaceId=${ws}`, undefined, w.viewer.token)).toEqual({
      ...task,
      feedback: []
    })
    expect((await call("GET", `/lite/tasks/${task.id}?workspaceId=${ws}`)).shortId).toBe(task.shortId)
    await fail("GET", `/lite/tasks/T-99999?workspaceId=${ws}`, undefined, 404)
    await fail("GET", `/lite/tasks/${task.shortId}?workspaceId=${w.otherWorkspaceId}`, undefined, 404, w.outsider.token)

    const updated = await call("PATCH", `/lite/tasks/${task.shortId}`, {
      workspaceId: ws,
      status: "done",
      addAssigneeEmails: [w.member.email],
      removeAssigneeEmails: [w.owner.email],
      customFields: { Severity: null },
      tags: []
    })
    expect(updated).toMatchObject({ status: "done", statusType: "done", assignees: [w.member.email], customFields: {}, tags: [] })
    expect(updated.closedAt).not.toBeNull()
    await fail("PATCH", `/lite/tasks/${task.shortId}`, { workspaceId: ws, status: "limbo" }, 404)
    await fail("PATCH", `/lite/tasks/${task.shortId}`, { workspaceId: ws, name: "x" }, 403, w.viewer.token)

    const moved = await call("POST", `/lite/tasks/${task.shortId}/move`, { workspaceId: ws, space: "Ops", list: "Done pile" })
    expect(moved).toMatchObject({ list: "Done pile", status: "done" })
    const set = await call("PUT", `/lite/tasks/${task.shortId}/custom-fields`, { workspaceId: ws, field: "severity", value: "low" })
    expect(set.customFields).toEqual({ Severity: "low" })
    const badValue = await fail(
      "PUT",
      `/lite/tasks/${task.shortId}/custom-fields`,
      { workspaceId: ws, field: "severity", value: "extreme" },
      400
    )
    expect(badValue.error.details[0].path).toBe("body.value")
    await fail("PUT", `/lite/tasks/${task.shortId}/custom-fields`, { workspaceId: ws, field: "Nope", value: 1 }, 404)
    const sub = await call(
      "POST",
      `/lite/tasks/${task.shortId}/subtasks`,
      { workspaceId: ws, name: "Revoke old keys", assigneeEmails: [w.viewer.email] },
      w.member.token,
      201
    )
    expect(sub).toMatchObject({ parentTaskId: task.id, list: "Done pile", assignees: [w.viewer.email] })
  })
})

describe("Search (Lite)", () => {
  it("filters by names, e-mail, text and dates; unknown names 404", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Search" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Search", name: "Bugs" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Search", name: "Ideas" }, w.member.token, 201)
    const bug = await call(
      "POST",
      "/lite/tasks",
      {
        workspaceId: ws,
        space: "Search",
        list: "Bugs",
        name: "Crash on login",
        assigneeEmails: [w.owner.email],
        tags: ["p1"],
        dueDate: "2026-01-10"
      },
      w.member.token,
      201
    )
    await call("POST", "/lite/tasks", { workspaceId: ws, space: "Search", list: "Bugs", name: "Typo", status: "done" }, w.member.token, 201)
    const idea = await call(
      "POST",
      "/lite/tasks",
      { workspaceId: ws, space: "Search", list: "Ideas", name: "Dark mode", description: "crash-proof" },
      w.member.token,
      201
    )
    const search = (params: Record<string, string | number>) =>
      call("GET", `/lite/search/tasks?${qs({ workspaceId: ws, ...params })}`, undefined, w.viewer.token)
    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((t) => t.id)
    expect(ids(await search({ space: "search", list: "bugs", status: "to do" }))).toEqual([bug.id])
    expect(ids(await search({ space: "Search", assigneeEmail: w.owner.email }))).toEqual([bug.id])
    expect(ids(await search({ space: "Search", q: "crash" }))).toEqual([bug.id, idea.id])
    expect(ids(await search({ space: "Search", tag: "P1" }))).toEqual([bug.id])
    expect(ids(await search({ space: "Search", includeClosed: "false", order: "newest" }))).toEqual([idea.id, bug.id])
    expect(ids(await search({ space: "Search", dueBefore: "2026-02-01", dueAfter: "2026-01-01" }))).toEqual([bug.id])
    expect(ids(await search({ list: "Ideas" }))).toEqual([idea.id])
    expect(ids(await search({ q: bug.shortId }))).toEqual([bug.id])
    const page = await search({ space: "Search", q: "crash" })
    expect(page.items[0]).toMatchObject({ space: "Search", list: "Bugs", assignees: [w.owner.email], tags: ["p1"] })
    expect(page.nextCursor).toBeNull()
    for (const [params, path] of [
      [{ space: "Nowhere" }, "query.space"],
      [{ space: "Search", list: "Nope" }, "query.list"],
      [{ space: "Search", status: "limbo" }, "query.status"],
      [{ space: "Search", tag: "p9" }, "query.tag"],
      [{ assigneeEmail: "ghost@example.com" }, "query.assigneeEmail"]
    ] as const) {
      const response = await atrium.request("GET", `/pm/v1/lite/search/tasks?${qs({ workspaceId: ws, ...params })}`, {
        token: w.member.token
      })
      expect(response.status, JSON.stringify(params)).toBe(404)
      expect(response.body.error.details[0].path).toBe(path)
    }
    await fail("GET", `/lite/search/tasks?${qs({ workspaceId: ws, folder: "x" })}`, undefined, 400)
    await fail("GET", `/lite/search/tasks?${qs({ workspaceId: ws, limit: 0 })}`, undefined, 400)
    await fail("GET", `/lite/search/tasks?${qs({ workspaceId: ws })}`, undefined, 404, w.outsider.token)
  })

  it("pages by an opaque cursor: no duplicates and no gaps while tasks are created concurrently", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Paging" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Paging", name: "Stream" }, w.member.token, 201)
    const initial: Array<string> = []
    for (let i = 0; i < 25; i++)
      initial.push(
        (await call("POST", "/lite/tasks", { workspaceId: ws, space: "Paging", list: "Stream", name: `seed ${i}` }, w.member.token, 201)).id
      )
    for (const order of ["oldest", "newest"] as const) {
      const seen: Array<string> = []
      const inserted: Array<string> = []
      /** Tasks created while the walk had pages left to read (the last round races the end of the walk). */
      let beforeLastRound: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        beforeLastRound = [...inserted]
        const params: Record<string, string | number> = {
          workspaceId: ws,
          space: "Paging",
          list: "Stream",
          limit: 4,
          order,
          ...(cursor ? { cursor } : {})
        }
        // Other clients keep creating tasks while this one pages.
        const [page] = await Promise.all([
          call("GET", `/lite/search/tasks?${qs(params)}`),
          ...Array.from({ length: 2 }, (_, i) =>
            call(
              "POST",
              "/lite/tasks",
              { workspaceId: ws, space: "Paging", list: "Stream", name: `live ${order} ${pages} ${i}` },
              w.owner.token,
              201
            ).then((t) => inserted.push(t.id))
          )
        ])
        seen.push(...page.items.map((t: { id: string }) => t.id))
        cursor = page.nextCursor
        pages++
      } while (cursor !== null && pages < 100)
      expect(new Set(seen).size).toBe(seen.length)
      for (const id of initial) expect(seen).toContain(id)
      // Oldest first, tasks created during the walk come after the cursor, so they are seen too.
      if (order === "oldest") for (const id of beforeLastRound) expect(seen).toContain(id)
      initial.push(...inserted)
    }
    const first = await call("GET", `/lite/search/tasks?${qs({ workspaceId: ws, space: "Paging", limit: 2 })}`)
    const tampered = await fail(
      "GET",
      `/lite/search/tasks?${qs({ workspaceId: ws, space: "Paging", list: "Stream", limit: 2, cursor: first.nextCursor })}`,
      undefined,
      400
    )
    expect(tampered.error.details[0].path).toBe("query.cursor")
    await fail("GET", `/lite/search/tasks?${qs({ workspaceId: ws, cursor: "garbage" })}`, undefined, 400)
  })

  it("shows each found task as it is now: searched again after a change (the task then in memory), the change shows", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Now" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Now", name: "Board" }, w.member.token, 201)
    const task = await call(
      "POST",
      "/lite/tasks",
      { workspaceId: ws, space: "Now", list: "Board", name: "Quartz 50% off_sale" },
      w.member.token,
      201
    )
    const search = async (q: string) =>
      (await call("GET", `/lite/search/tasks?${qs({ workspaceId: ws, space: "Now", q })}`, undefined, w.viewer.token)).items
    // Read thrice: the first answered from its rows, the next ones from the task's actor.
    for (let i = 0; i < 3; i++) expect(await search("quartz")).toMatchObject([{ id: task.id, name: "Quartz 50% off_sale", priority: null }])
    await call("PATCH", `/tasks/${task.id}`, { name: "Quartz 50% off_sale v2", priority: "urgent" }, w.member.token, 200)
    expect(await search("quartz")).toMatchObject([{ id: task.id, name: "Quartz 50% off_sale v2", priority: "urgent", version: 2 }])
    // The text is matched as it is written: % and _ are characters, not wildcards.
    expect(await search("50% off_")).toHaveLength(1)
    expect(await search("50%_off")).toHaveLength(0)
    await call("DELETE", `/tasks/${task.id}`, undefined, w.member.token, 204)
    expect(await search("quartz")).toEqual([])
  })

  it("a text search over more tasks than its first window pages exactly like a search without one", async () => {
    const ws = w.workspaceId
    const space = await call("POST", "/lite/spaces", { workspaceId: ws, name: "Window" }, w.member.token, 201)
    const list = await call("POST", "/lite/lists", { workspaceId: ws, space: "Window", name: "Many" }, w.member.token, 201)
    const [{ status }] = await atrium.sql<{ status: string }>(
      "SELECT name AS status FROM pm_statuses WHERE scope_type = 'space' AND scope_id = $1 ORDER BY position LIMIT 1",
      [space.id]
    )
    // 2,400 tasks a millisecond apart: one in 9 is a "beacon"; "lonely" only far past the window of the first page.
    await atrium.sql(
      `INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, status, position, created_by, created_at)
       SELECT gen_random_uuid()::text, $1, $2, $3, 'WIN-' || n,
              'task ' || n || CASE WHEN n % 9 = 0 THEN ' Beacon' WHEN n IN (1200, 2350) THEN ' lonely' ELSE '' END,
              $4, n, $5, now() - (3000 - n) * interval '1 millisecond'
         FROM generate_series(1, 2400) n`,
      [ws, space.id, list.id, status, w.owner.userId]
    )
    const walk = async (q: string, order: "oldest" | "newest", limit: number) => {
      const seen: Array<string> = []
      let cursor: string | null = null
      do {
        const page: { items: Array<{ id: string }>; nextCursor: string | null } = await call(
          "GET",
          `/lite/search/tasks?${qs({ workspaceId: ws, space: "Window", q, order, limit, ...(cursor ? { cursor } : {}) })}`
        )
        seen.push(...page.items.map((t) => t.id))
        cursor = page.nextCursor
      } while (cursor !== null)
      return seen
    }
    const expected = async (q: string, order: "oldest" | "newest") =>
      (
        await atrium.sql<{ id: string }>(
          `SELECT id FROM pm_tasks WHERE list_id = $1 AND lower(name) LIKE $2 ORDER BY created_at ${order === "oldest" ? "ASC" : "DESC"}, id`,
          [list.id, `%${q}%`]
        )
      ).map((r) => r.id)
    for (const order of ["oldest", "newest"] as const) {
      expect(await walk("beacon", order, 20)).toEqual(await expected("beacon", order))
      expect(await walk("lonely", order, 20)).toEqual(await expected("lonely", order))
    }
    expect(await expected("lonely", "oldest")).toHaveLength(2)
  })
})

describe("Comments (Lite)", () => {
  it("comments with @e-mail mentions that resolve to members and notify them", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Talk" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Talk", name: "Threads" }, w.member.token, 201)
    const task = await call(
      "POST",
      "/lite/tasks",
      { workspaceId: ws, space: "Talk", list: "Threads", name: "Discuss" },
      w.member.token,
      201
    )
    const comment = await call(
      "POST",
      "/lite/comments",
      { workspaceId: ws, taskId: task.shortId, text: `Hey @${w.owner.email} and @${w.viewer.email.toUpperCase()}, thoughts?` },
      w.member.token,
      201
    )
    expect(comment).toMatchObject({
      task: task.shortId,
      author: w.member.email,
      mentions: [w.owner.email, w.viewer.email],
      parentCommentId: null
    })
    for (const user of [w.owner, w.viewer]) {
      const notes = await atrium.notifications(user.userId)
      expect(notes.some((n) => n.reason === "mentioned" && n.entityId === comment.id && n.title.includes(task.shortId))).toBe(true)
    }
    const logged = (await atrium.changes(ws, "comment.created")).find((c) => c.entityId === comment.id)!
    expect(logged).toMatchObject({ taskId: task.id, data: { mentions: [w.owner.userId, w.viewer.userId] } })
    const unknown = await fail("POST", "/lite/comments", { workspaceId: ws, taskId: task.shortId, text: "@ghost@example.com hi" }, 404)
    expect(unknown.error.message).toContain("ghost@example.com")
    expect((await fail("POST", "/lite/comments", { workspaceId: ws, taskId: "T-99999", text: "hi" }, 404)).error.details[0].path).toBe(
      "taskId"
    )
    await fail("POST", "/lite/comments", { workspaceId: ws, taskId: "not a ref", text: "hi" }, 400)
    await fail("POST", "/lite/comments", { workspaceId: ws, taskId: task.id, text: "hi" }, 403, w.viewer.token)
    const byId = await call("POST", "/lite/comments", { workspaceId: ws, taskId: task.id, text: "plain" }, w.member.token, 201)
    expect(byId.mentions).toEqual([])
    const reply = await call(
      "POST",
      `/lite/comments/${comment.id}/replies`,
      { workspaceId: ws, text: `thanks @${w.member.email}` },
      w.owner.token,
      201
    )
    expect(reply).toMatchObject({ parentCommentId: comment.id, author: w.owner.email, mentions: [w.member.email] })
    const replyToReply = await call(
      "POST",
      `/lite/comments/${reply.id}/replies`,
      { workspaceId: ws, text: "nested goes to the thread" },
      w.member.token,
      201
    )
    expect(replyToReply.parentCommentId).toBe(comment.id)
    const edited = await call("PATCH", `/lite/comments/${byId.id}`, { workspaceId: ws, text: `now with @${w.owner.email}` })
    expect(edited.mentions).toEqual([w.owner.email])
    await fail("PATCH", `/lite/comments/${byId.id}`, { workspaceId: ws, text: "not mine" }, 403, w.owner.token)
    await fail("PATCH", `/lite/comments/${byId.id}`, { workspaceId: w.otherWorkspaceId, text: "x" }, 404, w.outsider.token)
    const threads = await call("GET", `/lite/comments?${qs({ workspaceId: ws, taskId: task.shortId })}`, undefined, w.viewer.token)
    expect(threads.total).toBe(2)
    expect(threads.items[0]).toMatchObject({ id: comment.id, replyCount: 2 })
    expect(threads.items[0].replies.map((r: { id: string }) => r.id)).toEqual([reply.id, replyToReply.id])
  })
})

describe("Relationships (Lite)", () => {
  it("relates tasks by short id and type name; cycles refused; delete by names", async () => {
    const ws = w.workspaceId
    await call("POST", "/lite/spaces", { workspaceId: ws, name: "Deps" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Deps", name: "Plan" }, w.member.token, 201)
    const make = (name: string) => call("POST", "/lite/tasks", { workspaceId: ws, space: "Deps", list: "Plan", name }, w.member.token, 201)
    const [a, b, c] = [await make("A"), await make("B"), await make("C")]
    const ab = await call(
      "POST",
      "/lite/relationships",
      { workspaceId: ws, task: a.shortId, type: "Blocks", relatedTask: b.shortId },
      w.member.token,
      201
    )
    expect(ab).toMatchObject({ type: "blocks", task: a.shortId, relatedTask: b.shortId, relatedTaskName: "B" })
    const cb = await call(
      "POST",
      "/lite/relationships",
      { workspaceId: ws, task: c.shortId, type: "depends on", relatedTask: b.shortId },
      w.member.token,
      201
    )
    expect(cb).toMatchObject({ type: "blocked by", task: c.shortId, relatedTask: b.shortId })
    await fail("POST", "/lite/relationships", { workspaceId: ws, task: c.shortId, type: "blocks", relatedTask: a.shortId }, 409)
    await call(
      "POST",
      "/lite/relationships",
      { workspaceId: ws, task: a.shortId, type: "relates-to", relatedTask: c.shortId },
      w.member.token,
      201
    )
    const unknownType = await fail(
      "POST",
      "/lite/relationships",
      { workspaceId: ws, task: a.shortId, type: "loves", relatedTask: c.shortId },
      404
    )
    expect(unknownType.error.details[0].path).toBe("body.type")
    expect(
      (await fail("POST", "/lite/relationships", { workspaceId: ws, task: a.shortId, type: "blocks", relatedTask: "T-99999" }, 404)).error
        .details[0].path
    ).toBe("body.relatedTask")
    const listed = await call("GET", `/lite/relationships?${qs({ workspaceId: ws, task: b.shortId })}`, undefined, w.viewer.token)
    expect(listed.items.map((r: { type: string; relatedTask: string }) => [r.type, r.relatedTask])).toEqual([
      ["blocked by", a.shortId],
      ["blocks", c.shortId]
    ])
    await call(
      "DELETE",
      `/lite/relationships?${qs({ workspaceId: ws, task: b.shortId, type: "blocked by", relatedTask: a.shortId })}`,
      undefined,
      w.member.token,
      204
    )
    await fail(
      "DELETE",
      `/lite/relationships?${qs({ workspaceId: ws, task: a.shortId, type: "blocks", relatedTask: b.shortId })}`,
      undefined,
      404
    )
    expect(
      (await call("GET", `/lite/relationships?${qs({ workspaceId: ws, task: a.shortId })}`)).items.map((r: { type: string }) => r.type)
    ).toEqual(["relates to"])
    await fail(
      "POST",
      "/lite/relationships",
      { workspaceId: ws, task: a.shortId, type: "blocks", relatedTask: c.shortId },
      403,
      w.viewer.token
    )
  })
})
