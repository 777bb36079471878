/**
 * Resource Views, Filters and Views (Lite): every operation on its happy
 * path; configurations checked against the scope (custom field columns,
 * what may group and sort); private views and filters stay private; names
 * resolve (404 unknown, 409 ambiguous); applying a view filters, sorts and
 * groups the live tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Planning, qs, startPlanning } from "./planningSupport.ts"

let p: Planning
let points: any
let env: any
beforeAll(async () => {
  p = await startPlanning()
  points = await p.call("POST", `/lists/${p.list.id}/custom-fields`, { name: "Points", type: "number" }, p.w.member.token, 201)
  env = await p.call(
    "POST",
    `/spaces/${p.space.id}/custom-fields`,
    { name: "Env", type: "dropdown", options: [{ name: "prod" }, { name: "dev" }] },
    p.w.member.token,
    201
  )
})
afterAll(async () => {
  await p?.atrium.close()
})

describe("Resource Views", () => {
  it("creates views at every level with columns, grouping, sorting and criteria checked against the scope", async () => {
    const { call, fail, w, space, list, other } = p
    const base = `/workspaces/${w.workspaceId}/views`
    const board = await call(
      "POST",
      base,
      {
        scopeType: "list",
        scopeId: list.id,
        name: "Board",
        type: "board",
        columns: [{ field: "name", width: 300 }, { field: `cf:${points.id}` }, { field: "assignees" }],
        sortBy: [{ field: "priority", direction: "asc" }],
        filters: { includeClosed: false, dueAfter: "2026-01-01" }
      },
      w.member.token,
      201
    )
    expect(board).toMatchObject({
      scopeType: "list",
      scopeId: list.id,
      spaceId: space.id,
      type: "board",
      isPrivate: false,
      position: 1,
      columns: [
        { field: "name", width: 300 },
        { field: `cf:${points.id}`, width: null },
        { field: "assignees", width: null }
      ],
      groupBy: { field: "status", direction: "asc", collapsed: [], showEmpty: false },
      filters: { includeClosed: false, dueAfter: "2026-01-01T00:00:00.000Z" }
    })
    expect(board.shortId).toMatch(/^V-\d+$/)
    const table = await call("POST", base, { scopeType: "workspace", name: "Everything", type: "table" }, w.member.token, 201)
    expect(table).toMatchObject({ scopeType: "workspace", scopeId: w.workspaceId, spaceId: null, groupBy: null })
    expect(table.columns.map((c: { field: string }) => c.field)).toContain("timeEstimate")
    const folder = await call("POST", `/spaces/${space.id}/folders`, { name: "Roadmap" }, w.member.token, 201)
    const folderView = await call(
      "POST",
      base,
      { scopeType: "folder", scopeId: folder.id, name: "Calendar", type: "calendar", settings: { dateField: "startDate" } },
      w.member.token,
      201
    )
    expect(folderView.settings).toEqual({ dateField: "startDate" })
    await call(
      "POST",
      base,
      { scopeType: "space", scopeId: space.id, name: "Space list", type: "list", groupBy: { field: `cf:${env.id}` } },
      w.member.token,
      201
    )

    // Points is defined on the list: not a column of the other list; name cannot group; tags cannot sort.
    const notHere = await fail(
      "POST",
      base,
      { scopeType: "list", scopeId: other.id, name: "X", type: "table", columns: [{ field: `cf:${points.id}` }] },
      400
    )
    expect(notHere.error.details[0].path).toBe("body.columns.0.field")
    expect(
      (await fail("POST", base, { scopeType: "list", scopeId: list.id, name: "X", type: "list", groupBy: { field: "name" } }, 400)).error
        .details[0].path
    ).toBe("body.groupBy.field")
    expect(
      (
        await fail(
          "POST",
          base,
          { scopeType: "list", scopeId: list.id, name: "X", type: "list", sortBy: [{ field: "tags", direction: "asc" }] },
          400
        )
      ).error.details[0].path
    ).toBe("body.sortBy.0.field")
    expect(
      (
        await fail(
          "POST",
          base,
          { scopeType: "list", scopeId: list.id, name: "X", type: "list", columns: [{ field: "name" }, { field: "name" }] },
          400
        )
      ).error.details[0].path
    ).toBe("body.columns.1.field")
    expect(
      (
        await fail(
          "POST",
          base,
          { scopeType: "list", scopeId: list.id, name: "X", type: "list", filters: { assigneeIds: [w.outsider.userId] } },
          400
        )
      ).error.details[0].path
    ).toBe("body.filters.assigneeIds.0")
    expect((await fail("POST", base, { scopeType: "list", name: "X", type: "list" }, 400)).error.details[0].path).toBe("body.scopeId")
    await fail("POST", base, { scopeType: "list", scopeId: list.id, name: "board", type: "list" }, 409)
    await fail("POST", base, { scopeType: "list", scopeId: list.id, name: "Y", type: "list" }, 403, w.viewer.token)
    await fail("POST", base, { scopeType: "workspace", name: "Y", type: "list" }, 404, w.outsider.token)
    const foreign = await call("POST", `/workspaces/${w.otherWorkspaceId}/spaces`, { name: "Theirs" }, w.outsider.token, 201)
    expect(
      (await fail("POST", base, { scopeType: "space", scopeId: foreign.id, name: "Y", type: "list" }, 404)).error.details[0].path
    ).toBe("body.scopeId")

    const ofList = await call("GET", `${base}?${qs({ scopeType: "list", scopeId: list.id })}`, undefined, w.viewer.token)
    expect(ofList.items.map((v: { name: string }) => v.name)).toEqual(["Board"])
    const all = await call("GET", base, undefined, w.viewer.token)
    expect(all.items.map((v: { name: string }) => v.name).sort()).toEqual(["Board", "Calendar", "Everything", "Space list"])
    await fail("GET", `${base}?${qs({ scopeId: list.id })}`, undefined, 400)
    await fail("GET", base, undefined, 404, w.outsider.token)
    expect((await p.atrium.changes(w.workspaceId, "view.created")).find((c) => c.entityId === board.id)).toMatchObject({
      scope: "list",
      listId: list.id,
      data: { name: "Board", type: "board" }
    })
  })

  it("changes column order, grouping and settings; private views stay private; deletion rights", async () => {
    const { call, fail, w, list } = p
    const base = `/workspaces/${w.workspaceId}/views`
    const view = await call(
      "POST",
      base,
      { scopeType: "list", scopeId: list.id, name: "Mine", type: "table", isPrivate: true, settings: { wrapText: true } },
      w.member.token,
      201
    )
    const other = await call("GET", `${base}?${qs({ scopeType: "list", scopeId: list.id })}`, undefined, w.owner.token)
    expect(other.items.map((v: { id: string }) => v.id)).not.toContain(view.id)
    await fail("PATCH", `${base}/${view.id}`, { name: "x" }, 404, w.owner.token)
    const reordered = await call("PATCH", `${base}/${view.id}`, {
      columns: [{ field: "dueDate" }, { field: "name", width: 200 }],
      groupBy: { field: "priority", direction: "desc", showEmpty: true },
      settings: { dateField: "dueDate" },
      position: 7
    })
    expect(reordered).toMatchObject({
      columns: [
        { field: "dueDate", width: null },
        { field: "name", width: 200 }
      ],
      groupBy: { field: "priority", direction: "desc", showEmpty: true },
      settings: { wrapText: true, dateField: "dueDate" },
      position: 7
    })
    expect((await call("PATCH", `${base}/${view.id}`, { groupBy: null, isPrivate: false })).groupBy).toBeNull()
    // Now shared: others see and edit it, but only the creator changes its privacy; deleting takes the creator or an admin.
    const member2 = await call("PATCH", `${base}/${view.id}`, { name: "Ours" }, w.owner.token)
    expect(member2.name).toBe("Ours")
    await fail("PATCH", `${base}/${view.id}`, { isPrivate: true }, 403, w.owner.token)
    await fail("PATCH", `${base}/${view.id}`, { name: "v" }, 403, w.viewer.token)
    const byOwner = await call("POST", base, { scopeType: "list", scopeId: list.id, name: "Owner's", type: "list" }, w.owner.token, 201)
    await fail("DELETE", `${base}/${byOwner.id}`, undefined, 403)
    await call("DELETE", `${base}/${view.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `${base}/${byOwner.id}`, undefined, w.owner.token, 204)
    await fail("DELETE", `${base}/${view.id}`, undefined, 404)
    await fail("DELETE", `/workspaces/${w.otherWorkspaceId}/views/${byOwner.id}`, undefined, 404)
  })
})

describe("Filters", () => {
  it("saves, lists and deletes a list's filters; counts and query strings match the task listing", async () => {
    const { call, fail, w, other, newTask } = p
    await newTask({ name: "F1", priority: "high", assigneeIds: [w.member.userId] }, other.id)
    await newTask({ name: "F2", priority: "high" }, other.id)
    const closed = await newTask({ name: "F3", priority: "high" }, other.id)
    await call("PUT", `/tasks/${closed.id}/status`, { status: "done" })
    await newTask({ name: "F4", priority: "low" }, other.id)
    const base = `/lists/${other.id}/saved-filters`
    const open = await call(
      "POST",
      base,
      { name: "Open high", criteria: { priorities: ["high"], includeClosed: false }, shared: true },
      w.member.token,
      201
    )
    expect(open).toMatchObject({
      name: "Open high",
      shared: true,
      matchingTasks: 2,
      criteria: { priorities: ["high"], includeClosed: false }
    })
    const listed = await call("GET", `/lists/${other.id}/tasks?${open.taskQuery}`)
    expect(listed.total).toBe(open.matchingTasks)
    const mine = await call("POST", base, { name: "Mine", criteria: { assigneeIds: [w.member.userId] } }, w.member.token, 201)
    expect(mine).toMatchObject({ shared: false, matchingTasks: 1 })
    await fail("POST", base, { name: "open HIGH", criteria: {} }, 409)
    expect((await fail("POST", base, { name: "Bad", criteria: { dueBefore: "2026-02-30" } }, 400)).error.details[0].path).toBe(
      "body.criteria.dueBefore"
    )
    await fail("POST", base, { name: "V", criteria: {} }, 403, w.viewer.token)
    await fail("POST", base, { name: "V", criteria: {} }, 404, w.outsider.token)

    expect((await call("GET", base, undefined, w.viewer.token)).items.map((f: { name: string }) => f.name)).toEqual(["Open high"])
    expect((await call("GET", base)).items.map((f: { name: string }) => f.name)).toEqual(["Mine", "Open high"])
    await fail("GET", base, undefined, 404, w.outsider.token)

    await fail("DELETE", `${base}/${mine.id}`, undefined, 404, w.owner.token)
    const ownersShared = await call("POST", base, { name: "Owner's", criteria: { overdue: true }, shared: true }, w.owner.token, 201)
    await fail("DELETE", `${base}/${ownersShared.id}`, undefined, 403)
    await call("DELETE", `${base}/${ownersShared.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `${base}/${open.id}`, undefined, w.owner.token, 204)
    await call("DELETE", `${base}/${mine.id}`, undefined, w.member.token, 204)
    expect((await call("GET", base)).items).toEqual([])
    expect((await p.atrium.changes(w.workspaceId, "saved_filter.created")).length).toBe(3)
  })
})

describe("Views (Lite)", () => {
  it("creates, reads, changes and applies views by names", async () => {
    const { call, fail, w, newTask } = p
    const ws = w.workspaceId
    const space = await call("POST", "/lite/spaces", { workspaceId: ws, name: "Product" }, w.member.token, 201)
    await call("POST", "/lite/lists", { workspaceId: ws, space: "Product", name: "Now" }, w.member.token, 201)
    await call(
      "POST",
      "/lite/custom-fields",
      { workspaceId: ws, space: "Product", list: "Now", name: "Size", type: "dropdown", options: ["S", "L"] },
      w.member.token,
      201
    )
    const resolved = await call("GET", `/lite/lists/resolve?${qs({ workspaceId: ws, space: "Product", list: "Now" })}`)
    const _t1 = await newTask({ name: "Alpha", priority: "urgent", assigneeIds: [w.member.userId], tags: ["ui"] }, resolved.id)
    const _t2 = await newTask({ name: "Beta", priority: "low", assigneeIds: [w.member.userId, w.owner.userId] }, resolved.id)
    const t3 = await newTask({ name: "Gamma", priority: "high" }, resolved.id)
    await call("PUT", `/tasks/${t3.id}/status`, { status: "in progress" })
    const done = await newTask({ name: "Delta" }, resolved.id)
    await call("PUT", `/tasks/${done.id}/status`, { status: "done" })

    const view = await call(
      "POST",
      "/lite/views",
      {
        workspaceId: ws,
        space: "Product",
        list: "Now",
        name: "Board",
        type: "board",
        columns: ["Name", "size", "Assignee", "due date"],
        groupBy: "Status",
        sortBy: [{ column: "Priority" }],
        filters: { includeClosed: false, assignees: [w.member.email] }
      },
      w.member.token,
      201
    )
    expect(view).toMatchObject({
      name: "Board",
      type: "board",
      scope: "list Product / Now",
      isPrivate: false,
      columns: [
        { name: "Name", width: null },
        { name: "Size", width: null },
        { name: "Assignees", width: null },
        { name: "Due date", width: null }
      ],
      groupBy: { column: "Status", direction: "asc", collapsed: [], showEmpty: false },
      sortBy: [{ column: "Priority", direction: "asc" }],
      filters: { includeClosed: false, assignees: [w.member.email] }
    })
    expect(
      (await fail("POST", "/lite/views", { workspaceId: ws, space: "Product", list: "Now", name: "X", columns: ["Name", "Nope"] }, 404))
        .error.details[0].path
    ).toBe("body.columns.1")
    expect((await fail("POST", "/lite/views", { workspaceId: ws, space: "Nowhere", name: "X" }, 404)).error.details[0].path).toBe(
      "body.space"
    )
    expect(
      (await fail("POST", "/lite/views", { workspaceId: ws, name: "X", filters: { assignees: ["nobody@example.com"] } }, 404)).error
        .details[0].path
    ).toBe("body.filters.assignees.0")
    await fail("POST", "/lite/views", { workspaceId: ws, name: "X" }, 403, w.viewer.token)
    const spaceBoard = await call("POST", "/lite/views", { workspaceId: ws, space: "Product", name: "Board" }, w.member.token, 201)
    expect(spaceBoard).toMatchObject({ scope: "space Product", type: "list" })
    await call("POST", "/lite/views", { workspaceId: ws, name: "Team" }, w.member.token, 201)

    // Reading: by scope, all, by name (ambiguous without a level), short id, id.
    expect(
      (await call("GET", `/lite/views?${qs({ workspaceId: ws, space: "Product", list: "Now" })}`, undefined, w.viewer.token)).items.map(
        (v: { name: string }) => v.name
      )
    ).toEqual(["Board"])
    const everywhere = (await call("GET", `/lite/views?${qs({ workspaceId: ws })}`)).items.map((v: { scope: string }) => v.scope)
    expect(everywhere).toEqual(expect.arrayContaining(["workspace", "space Product", "list Product / Now"]))
    const ambiguous = await fail("GET", `/lite/views/Board?${qs({ workspaceId: ws })}`, undefined, 409)
    // Product's two, and the Board of Engineering / Backlog made above.
    expect(ambiguous.error.details.length).toBe(3)
    expect(ambiguous.error.details.map((d: { message: string }) => d.message)).toEqual(
      expect.arrayContaining([expect.stringContaining(view.id), expect.stringContaining(spaceBoard.id)])
    )
    expect((await call("GET", `/lite/views/board?${qs({ workspaceId: ws, space: "Product", list: "Now" })}`)).id).toBe(view.id)
    expect((await call("GET", `/lite/views/${view.shortId.toLowerCase()}?${qs({ workspaceId: ws })}`)).id).toBe(view.id)
    expect((await call("GET", `/lite/views/${spaceBoard.id}?${qs({ workspaceId: ws })}`)).scope).toBe("space Product")
    // Without a workspace, the caller's workspaces are searched.
    expect((await call("GET", `/lite/views/${view.shortId}`)).id).toBe(view.id)
    expect((await call("GET", `/lite/views/Board?${qs({ space: "Product" })}`)).id).toBe(spaceBoard.id)
    await fail("GET", `/lite/views/${view.shortId}`, undefined, 404, w.outsider.token)
    expect((await fail("GET", `/lite/views/Nope?${qs({ workspaceId: ws })}`, undefined, 404)).error.details[0].path).toBe("path.viewRef")
    await fail("GET", `/lite/views/${view.shortId}?${qs({ workspaceId: ws })}`, undefined, 404, w.outsider.token)

    // Applying: Alpha and Beta (assigned to the member, unfinished), grouped by status, urgent first.
    const applied = await call("GET", `/lite/views/${view.shortId}/tasks?${qs({ workspaceId: ws })}`, undefined, w.viewer.token)
    expect(applied).toMatchObject({ view: "Board", total: 2, truncated: false })
    expect(applied.tasks.map((t: { name: string }) => t.name)).toEqual(["Alpha", "Beta"])
    expect(applied.groups).toEqual([{ key: "to do", label: "to do", count: 2, collapsed: false, tasks: applied.tasks }])
    expect(applied.tasks[0]).toMatchObject({ list: "Now", space: "Product", assignees: [w.member.email] })

    // Columns, grouping, sort by names.
    const columns = await call("PUT", `/lite/views/${view.shortId}/columns`, {
      workspaceId: ws,
      columns: ["Name", "Priority", "Size"],
      widths: { name: 280 }
    })
    expect(columns.columns).toEqual([
      { name: "Name", width: 280 },
      { name: "Priority", width: null },
      { name: "Size", width: null }
    ])
    expect(
      (await fail("PUT", `/lite/views/${view.shortId}/columns`, { workspaceId: ws, columns: ["Name"], widths: { Size: 100 } }, 400)).error
        .details[0].path
    ).toBe("body.widths.size")
    const moved = await call("POST", `/lite/views/${view.shortId}/columns/move`, { workspaceId: ws, column: "Size", after: "Name" })
    expect(moved.columns.map((c: { name: string }) => c.name)).toEqual(["Name", "Size", "Priority"])
    expect(
      (await call("POST", `/lite/views/${view.shortId}/columns/move`, { workspaceId: ws, column: "Tags", position: 1 })).columns.map(
        (c: { name: string }) => c.name
      )
    ).toEqual(["Tags", "Name", "Size", "Priority"])
    expect(
      (await call("POST", `/lite/views/${view.shortId}/columns/move`, { workspaceId: ws, column: "Tags", before: "Priority" })).columns.map(
        (c: { name: string }) => c.name
      )
    ).toEqual(["Name", "Size", "Tags", "Priority"])
    await fail("POST", `/lite/views/${view.shortId}/columns/move`, { workspaceId: ws, column: "Tags" }, 400)
    await fail("POST", `/lite/views/${view.shortId}/columns/move`, { workspaceId: ws, column: "Tags", after: "Votes" }, 404)
    const grouped = await call("PUT", `/lite/views/${view.shortId}/grouping`, {
      workspaceId: ws,
      groupBy: "Assignees",
      collapsed: [w.owner.email]
    })
    expect(grouped.groupBy).toEqual({ column: "Assignees", direction: "asc", collapsed: [w.owner.email], showEmpty: false })
    expect(
      (await fail("PUT", `/lite/views/${view.shortId}/grouping`, { workspaceId: ws, groupBy: "Name" }, 400)).error.details[0].path
    ).toBe("body.groupBy.field")
    const sorted = await call("PUT", `/lite/views/${view.shortId}/sort`, {
      workspaceId: ws,
      sortBy: [{ column: "Name", direction: "desc" }]
    })
    expect(sorted.sortBy).toEqual([{ column: "Name", direction: "desc" }])
    const byAssignee = await call("GET", `/lite/views/${view.shortId}/tasks?${qs({ workspaceId: ws })}`)
    expect(byAssignee.groups.map((g: { label: string; count: number; collapsed: boolean }) => [g.label, g.count, g.collapsed])).toEqual(
      [w.member.email, w.owner.email].sort().map((email) => [email, email === w.member.email ? 2 : 1, email === w.owner.email])
    )
    expect(byAssignee.groups.find((g: { label: string }) => g.label === w.member.email).tasks.map((t: { name: string }) => t.name)).toEqual(
      ["Beta", "Alpha"]
    )

    // Update, duplicate to the space (Size applies only to the list), delete.
    const renamed = await call("PATCH", `/lite/views/${view.shortId}`, {
      workspaceId: ws,
      newName: "Sprint board",
      filters: { priorities: ["urgent", "high"] },
      type: "table"
    })
    expect(renamed).toMatchObject({ name: "Sprint board", type: "table", filters: { priorities: ["urgent", "high"] } })
    const byPriority = await call("GET", `/lite/views/${view.shortId}/tasks?${qs({ workspaceId: ws, limit: 1 })}`)
    expect(byPriority).toMatchObject({ total: 2, truncated: true })
    await call("PUT", `/lite/views/${view.shortId}/grouping`, { workspaceId: ws, groupBy: null })
    expect((await call("GET", `/lite/views/${view.shortId}/tasks?${qs({ workspaceId: ws })}`)).groups).toBeNull()
    const copy = await call(
      "POST",
      `/lite/views/${view.shortId}/duplicate`,
      { workspaceId: ws, to: { space: "Product" } },
      w.member.token,
      201
    )
    expect(copy.view).toMatchObject({ name: "Sprint board (copy)", scope: "space Product" })
    expect(copy.droppedColumns).toEqual(["Size"])
    expect(copy.view.columns.map((c: { name: string }) => c.name)).toEqual(["Name", "Tags", "Priority"])
    const again = await call("POST", `/lite/views/${view.shortId}/duplicate`, { workspaceId: ws }, w.member.token, 201)
    expect(again.view).toMatchObject({ name: "Sprint board (copy)", scope: "list Product / Now" })
    await fail("POST", `/lite/views/${view.shortId}/duplicate`, { workspaceId: ws }, 403, w.viewer.token)
    await fail("DELETE", `/lite/views/${view.shortId}?${qs({ workspaceId: ws })}`, undefined, 403, w.viewer.token)
    await call("DELETE", `/lite/views/${view.shortId}?${qs({ workspaceId: ws })}`, undefined, w.member.token, 204)
    await fail("GET", `/lite/views/${view.shortId}?${qs({ workspaceId: ws })}`, undefined, 404)
    expect(space.name).toBe("Product")
  })
})
