/**
 * Favorites, Public Sharing and Context (Lite): every operation on its happy
 * path, visibility (private spaces, other workspaces: 404), roles (viewers
 * cannot share), the public read without credentials showing no e-mail
 * addresses, revocation and expiry, and the workspace switching sharing off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PmAtrium, setupWorkspace, startPmAtrium } from "../work/support/pmAtrium.ts"
import { buildHierarchy, caller, qs } from "./support.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof setupWorkspace>>
let h: Awaited<ReturnType<typeof buildHierarchy>>
let call: ReturnType<typeof caller>["call"]
let fail: ReturnType<typeof caller>["fail"]

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await setupWorkspace(atrium)
  ;({ call, fail } = caller(atrium))
  h = await buildHierarchy(atrium, w)
})
afterAll(async () => {
  await atrium?.close()
})

describe("Favorites", () => {
  it("stars what the caller sees, lists it in order with paths, hides what they can no longer see, unstars", async () => {
    const ws = w.workspaceId
    const onList = await call("POST", `/workspaces/${ws}/favorites`, w.viewer.token, { type: "list", id: h.list.id }, 201)
    expect(onList).toMatchObject({
      type: "list",
      entityId: h.list.id,
      name: "Backlog",
      shortId: h.list.shortId,
      path: "Engineering / Roadmap",
      archived: false
    })
    const onTask = await call("POST", `/workspaces/${ws}/favorites`, w.viewer.token, { type: "task", id: h.task.id }, 201)
    expect(onTask.path).toBe("Engineering / Roadmap / Backlog")
    await call("POST", `/workspaces/${ws}/favorites`, w.viewer.token, { type: "space", id: h.space.id }, 201)
    await fail("POST", `/workspaces/${ws}/favorites`, w.viewer.token, 409, { type: "list", id: h.list.id })
    // Not visible (private space), wrong kind, other workspace: 404 naming the field.
    const hidden = await fail("POST", `/workspaces/${ws}/favorites`, w.viewer.token, 404, { type: "space", id: h.secret.id })
    expect(hidden.error.details[0].path).toBe("body.id")
    await fail("POST", `/workspaces/${ws}/favorites`, w.viewer.token, 404, { type: "folder", id: h.list.id })
    await fail("POST", `/workspaces/${w.otherWorkspaceId}/favorites`, w.viewer.token, 404, { type: "list", id: h.list.id })
    await fail("GET", `/workspaces/${ws}/favorites`, w.outsider.token, 404)

    const listed = await call("GET", `/workspaces/${ws}/favorites`, w.viewer.token)
    expect(listed.items.map((f: { type: string }) => f.type)).toEqual(["list", "task", "space"])
    expect((await call("GET", `/workspaces/${ws}/favorites?type=task`, w.viewer.token)).items).toHaveLength(1)
    // Personal: another member sees their own (none).
    expect((await call("GET", `/workspaces/${ws}/favorites`, w.member.token)).items).toEqual([])

    // The owner stars a task in their private space; it disappears from the list once the task is deleted.
    const secret = await call("POST", `/workspaces/${ws}/favorites`, w.owner.token, { type: "task", id: h.secretTask.id }, 201)
    expect(secret.path).toBe("Engineering secret / Hidden")
    const temp = await call("POST", `/lists/${h.loose.id}/tasks`, w.owner.token, { name: "Temp" }, 201)
    await call("POST", `/workspaces/${ws}/favorites`, w.owner.token, { type: "task", id: temp.id }, 201)
    await call("DELETE", `/tasks/${temp.id}`, w.owner.token)
    expect((await call("GET", `/workspaces/${ws}/favorites`, w.owner.token)).items.map((f: { entityId: string }) => f.entityId)).toEqual([
      h.secretTask.id
    ])

    // Someone else's favorite id answers 404; the viewer removes their own.
    await fail("DELETE", `/workspaces/${ws}/favorites/${secret.id}`, w.viewer.token, 404)
    await call("DELETE", `/workspaces/${ws}/favorites/${onTask.id}`, w.viewer.token, undefined, 204)
    await fail("DELETE", `/workspaces/${ws}/favorites/${onTask.id}`, w.viewer.token, 404)
    expect((await call("GET", `/workspaces/${ws}/favorites`, w.viewer.token)).items.map((f: { id: string }) => f.id)).not.toContain(
      onTask.id
    )
  })
})

describe("Public Sharing", () => {
  it("makes a link, reads the task publicly without e-mails, lists, updates, revokes", async () => {
    await call(
      "POST",
      `/tasks/${h.task.id}/comments`,
      w.member.token,
      { text: `Thanks @${w.owner.email}, reach me at ${w.member.email}` },
      201
    )
    await fail("POST", `/tasks/${h.task.id}/share-links`, w.viewer.token, 403, {})
    await fail("POST", `/tasks/${h.secretTask.id}/share-links`, w.member.token, 404, {})
    await fail("POST", `/tasks/${h.task.id}/share-links`, w.member.token, 400, { expiresAt: "2020-01-01T00:00:00Z" })
    const created = await call(
      "POST",
      `/tasks/${h.task.id}/share-links`,
      w.member.token,
      { includeSubtasks: true, includeComments: true },
      201
    )
    expect(created.token).toMatch(/^pmsh_[A-Za-z0-9_-]{43}$/)
    expect(created.url).toBe(`${atrium.origin}/pm/v1/public/shared-tasks/${created.token}`)
    expect(created.link).toMatchObject({
      taskId: h.task.id,
      taskShortId: h.task.shortId,
      status: "active",
      includeSubtasks: true,
      viewCount: 0,
      createdBy: { id: w.member.userId }
    })
    expect(created.token.startsWith(created.link.tokenPrefix)).toBe(true)

    const read = await atrium.request("GET", `/pm/v1/public/shared-tasks/${created.token}`)
    expect(read.status, read.text).toBe(200)
    expect(read.body.task).toMatchObject({
      shortId: h.task.shortId,
      name: "Ship login",
      priority: "high",
      list: "Backlog",
      tags: ["frontend"],
      assignees: [{ name: "Member" }]
    })
    expect(read.body.task.description).toBe("Ask Member about it")
    expect(read.body.subtasks.map((s: { name: string }) => s.name)).toEqual(["Login copy"])
    expect(read.body.comments[0]).toMatchObject({ author: "Member", text: "Thanks @Owner, reach me at Member" })
    expect(read.body.workspace.name).toBe("Acme")
    // No e-mail address and no internal id anywhere in the public view.
    expect(read.text).not.toMatch(/@example\.com/)
    expect(read.text).not.toContain(h.task.id)
    expect(read.text).not.toContain(w.member.userId)

    const listed = await call("GET", `/tasks/${h.task.id}/share-links`, w.viewer.token)
    expect(listed.items).toHaveLength(1)
    expect(listed.items[0].viewCount).toBe(1)
    expect(listed.text ?? JSON.stringify(listed)).not.toContain(created.token)
    await fail("GET", `/tasks/${h.task.id}/share-links`, w.outsider.token, 404)

    // A second link, expiring; the workspace overview filters by status and creator.
    const other = await call(
      "POST",
      `/tasks/${h.other.id}/share-links`,
      w.owner.token,
      { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
      201
    )
    const all = await call("GET", `/workspaces/${w.workspaceId}/share-links`, w.member.token)
    expect(all.total).toBe(2)
    expect(
      (await call("GET", `/workspaces/${w.workspaceId}/share-links?${qs({ createdBy: w.owner.userId })}`, w.member.token)).items.map(
        (l: { id: string }) => l.id
      )
    ).toEqual([other.link.id])

    // Only the creator or an admin changes a link.
    await fail("PATCH", `/share-links/${other.link.id}`, w.member.token, 403, { includeComments: true })
    const updated = await call("PATCH", `/share-links/${created.link.id}`, w.owner.token, { includeComments: false, expiresAt: null })
    expect(updated).toMatchObject({ includeComments: false, expiresAt: null })
    expect((await atrium.request("GET", `/pm/v1/public/shared-tasks/${created.token}`)).body.comments).toBeUndefined()

    const revoked = await call("DELETE", `/share-links/${created.link.id}`, w.member.token)
    expect(revoked.status).toBe("revoked")
    await fail("DELETE", `/share-links/${created.link.id}`, w.member.token, 409)
    await fail("PATCH", `/share-links/${created.link.id}`, w.member.token, 409, { includeSubtasks: false })
    expect((await atrium.request("GET", `/pm/v1/public/shared-tasks/${created.token}`)).status).toBe(404)
    expect(
      (await call("GET", `/workspaces/${w.workspaceId}/share-links?status=revoked`, w.member.token)).items.map((l: { id: string }) => l.id)
    ).toEqual([created.link.id])
    expect((await call("GET", `/workspaces/${w.workspaceId}/share-links?status=active`, w.member.token)).total).toBe(1)

    // The change log has the link's history (never the token).
    const events = await atrium.changes(w.workspaceId)
    expect(events.filter((e) => e.type.startsWith("share_link.")).map((e) => e.type)).toEqual([
      "share_link.created",
      "share_link.created",
      "share_link.updated",
      "share_link.revoked"
    ])
    expect(JSON.stringify(events)).not.toContain(created.token)
  })

  it("stops working when the task is deleted or the workspace turns sharing off; unknown tokens are 404; bad tokens 400", async () => {
    const task = await call("POST", `/lists/${h.loose.id}/tasks`, w.member.token, { name: "Public note" }, 201)
    const link = await call("POST", `/tasks/${task.id}/share-links`, w.member.token, {}, 201)
    const open = () => atrium.request("GET", `/pm/v1/public/shared-tasks/${link.token}`)
    expect((await open()).status).toBe(200)
    await call("PATCH", `/workspaces/${w.workspaceId}/features`, w.owner.token, { publicSharing: false })
    expect((await open()).status).toBe(404)
    await fail("POST", `/tasks/${task.id}/share-links`, w.member.token, 403, {})
    await call("PATCH", `/workspaces/${w.workspaceId}/features`, w.owner.token, { publicSharing: true })
    expect((await open()).status).toBe(200)
    await call("DELETE", `/tasks/${task.id}`, w.member.token)
    expect((await open()).status).toBe(404)
    expect((await atrium.request("GET", `/pm/v1/public/shared-tasks/pmsh_${"A".repeat(43)}`)).status).toBe(404)
    const bad = await atrium.request("GET", "/pm/v1/public/shared-tasks/not-a-token")
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("path.shareToken")
  })
})

describe("Context (Lite)", () => {
  it("describes the workspace in one call: structure with statuses and fields per list, members by e-mail, short ids", async () => {
    const ctx = await call("GET", `/lite/context?${qs({ workspaceId: w.workspaceId })}`, w.member.token)
    expect(ctx.workspace).toEqual({ id: w.workspaceId, name: "Acme", role: "member" })
    expect(ctx.you).toMatchObject({ id: w.member.userId, email: w.member.email })
    const space = ctx.spaces.find((s: { name: string }) => s.name === "Engineering")
    expect(space).toMatchObject({ id: h.space.id, shortId: h.space.shortId, isPrivate: false, tags: ["frontend"] })
    expect(space.statuses.map((s: { name: string }) => s.name)).toEqual(["to do", "in progress", "done", "closed"])
    expect(space.customFields).toEqual([{ id: h.field.id, name: "Env", type: "dropdown", required: false, options: ["prod", "dev"] }])
    const backlog = space.folders[0].lists[0]
    expect(backlog).toMatchObject({ id: h.list.id, shortId: h.list.shortId, name: "Backlog" })
    expect(backlog.customFields.map((f: { name: string }) => f.name)).toEqual(["Env"])
    expect(backlog.openTasks).toBeGreaterThanOrEqual(3)
    expect(space.lists.map((l: { name: string }) => l.name)).toEqual(["Inbox"])
    // The private space is the owner's alone.
    expect(ctx.spaces.map((s: { name: string }) => s.name)).not.toContain("Engineering secret")
    const owner = await call("GET", `/lite/context?${qs({ workspaceId: w.workspaceId })}`, w.owner.token)
    expect(owner.spaces.map((s: { name: string }) => s.name)).toContain("Engineering secret")
    expect(ctx.members.map((m: { email: string }) => m.email).sort()).toEqual([w.owner.email, w.member.email, w.viewer.email].sort())
    expect(ctx.references.shortIds["T-"]).toBe("task")
    expect(ctx.priorities).toEqual(["urgent", "high", "normal", "low"])
    expect(ctx.counts).toMatchObject({ members: 3 })

    // A list with its own workflow shows it; the names in the context work in Lite calls.
    await call(
      "POST",
      `/lite/statuses`,
      w.member.token,
      { workspaceId: w.workspaceId, space: "Engineering", list: "Inbox", name: "triage", type: "open" },
      201
    )
    const again = await call("GET", `/lite/context?${qs({ workspaceId: w.workspaceId })}`, w.member.token)
    const inbox = again.spaces.find((s: { name: string }) => s.name === "Engineering").lists[0]
    expect(inbox.statuses.map((s: { name: string }) => s.name)).toContain("triage")
    await call(
      "POST",
      "/lite/tasks",
      w.member.token,
      {
        workspaceId: w.workspaceId,
        list: inbox.shortId,
        name: "From the agent",
        status: "triage",
        assigneeEmails: [again.members[0].email]
      },
      201
    )

    // Without workspaceId: an API key's workspace, or the caller's only one; several → 400 naming the field.
    const key = await call("POST", "/api-keys", w.owner.token, { workspaceId: w.workspaceId, name: "agent", scopes: ["tasks:read"] }, 201)
    expect((await call("GET", "/lite/context", key.key)).workspace.id).toBe(w.workspaceId)
    expect((await call("GET", "/lite/context", w.member.token)).workspace.id).toBe(w.workspaceId)
    await call("POST", "/workspaces", w.owner.token, { name: "Second" }, 201)
    const ambiguous = await fail("GET", "/lite/context", w.owner.token, 400)
    expect(ambiguous.error.details[0].path).toBe("query.workspaceId")
    await fail("GET", `/lite/context?${qs({ workspaceId: w.workspaceId })}`, w.outsider.token, 404)
    await fail("GET", `/lite/context?${qs({ workspaceId: w.otherWorkspaceId })}`, key.key, 404)
  })
})
