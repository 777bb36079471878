/**
 * The Workspaces tag, part 1: lifecycle (delete with restore, leave,
 * ownership), the switcher, settings, features, default views, security
 * policy, seat limit, branding and logo, statistics and usage, and the
 * hierarchy reads (tree, folders, short ids, search, archive, statuses,
 * fields, tags, export and import).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { type PmAtrium, setupWorkspace, startPmAtrium } from "../work/support/pmAtrium.ts"
import { auditOf, buildHierarchy, caller, qs } from "./support.ts"

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

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3, 4])

describe("lifecycle", () => {
  it("deletes (owner, confirming the name), hides, restores; leaves; transfers ownership", async () => {
    const owner = await signUp(atrium, "Founder")
    const bob = await signUp(atrium, "Bob")
    const created = await call("POST", "/workspaces", owner.token, { name: "Doomed" }, 201)
    const id = created.id
    await call("POST", `/workspaces/${id}/members`, owner.token, { email: bob.email, role: "admin" }, 201)
    await fail("DELETE", `/workspaces/${id}?confirm=Doomed`, bob.token, 403)
    const wrong = await fail("DELETE", `/workspaces/${id}?confirm=doomed`, owner.token, 400)
    expect(wrong.error.details[0].path).toBe("query.confirm")
    const deleted = await call("DELETE", `/workspaces/${id}?confirm=Doomed`, owner.token)
    expect(deleted).toMatchObject({ id, name: "Doomed" })
    expect(Date.parse(deleted.restorableUntil) - Date.parse(deleted.deletedAt)).toBe(30 * 86_400_000)
    await fail("GET", `/workspaces/${id}`, owner.token, 404)
    await fail("GET", `/workspaces/${id}`, bob.token, 404)
    expect((await call("GET", "/workspaces", owner.token)).items.map((x: { id: string }) => x.id)).not.toContain(id)
    expect((await call("GET", "/workspaces/deleted", owner.token)).items.map((x: { id: string }) => x.id)).toEqual([id])
    expect((await call("GET", "/workspaces/deleted", bob.token)).items).toEqual([])
    await fail("POST", `/workspaces/${id}/restore`, bob.token, 404)
    const restored = await call("POST", `/workspaces/${id}/restore`, owner.token)
    expect(restored).toMatchObject({ id, name: "Doomed", memberCount: 2 })
    await fail("POST", `/workspaces/${id}/restore`, owner.token, 404)
    expect((await call("GET", `/workspaces/${id}`, bob.token)).role).toBe("admin")

    // Ownership: owner only; the old owner becomes admin; the owner cannot leave.
    await fail("POST", `/workspaces/${id}/leave`, owner.token, 409)
    await fail("POST", `/workspaces/${id}/ownership`, bob.token, 403, { userId: bob.userId })
    const notMember = await fail("POST", `/workspaces/${id}/ownership`, owner.token, 400, { userId: w.outsider.userId })
    expect(notMember.error.details[0].path).toBe("body.userId")
    expect(await call("POST", `/workspaces/${id}/ownership`, owner.token, { userId: bob.userId })).toMatchObject({
      ownerId: bob.userId,
      role: "admin"
    })
    await call("POST", `/workspaces/${id}/leave`, owner.token, undefined, 204)
    await fail("GET", `/workspaces/${id}`, owner.token, 404)
    const audit = await auditOf(atrium, id, bob.token)
    expect(audit.map((e) => e.type)).toEqual([
      "workspace.created",
      "member.added",
      "workspace.deleted",
      "workspace.restored",
      "ownership.transferred",
      "member.left"
    ])
    expect(audit[4]).toMatchObject({ by: { id: owner.userId }, user: { id: bob.userId } })
  })

  it("renames (recorded), profiles, switches and orders workspaces", async () => {
    await call("PATCH", `/workspaces/${w.workspaceId}`, w.owner.token, { name: "Acme Co" })
    await call("PATCH", `/workspaces/${w.workspaceId}`, w.owner.token, { name: "Acme" })
    expect((await auditOf(atrium, w.workspaceId, w.owner.token, { type: "workspace.renamed" })).map((e) => e.data)).toEqual([
      { from: "Acme", to: "Acme Co" },
      { from: "Acme Co", to: "Acme" }
    ])
    const profile = await call("GET", `/workspaces/${w.workspaceId}/profile`, w.member.token)
    expect(profile.workspace).toMatchObject({ id: w.workspaceId, name: "Acme", role: "member" })
    expect(profile.counts).toMatchObject({ members: 3, guests: 0 })
    expect(profile.counts.spaces).toBe(1) // the owner's private space is hidden from the member
    expect(profile.you.allowed).toMatchObject({ "tasks.write": true, "members.manage": false, "workspace.delete": false })
    expect(profile.branding.initials).toBe("A")

    const second = await call("POST", "/workspaces", w.member.token, { name: "Side project" }, 201)
    const before = await call("GET", "/workspaces/switcher", w.member.token)
    expect(before.items.map((x: { id: string }) => x.id)).toEqual([w.workspaceId, second.id])
    await call("PUT", "/workspaces/order", w.member.token, { workspaceIds: [second.id, w.workspaceId] })
    const after = await call("GET", "/workspaces/switcher", w.member.token)
    expect(after.items.map((x: { id: string }) => x.id)).toEqual([second.id, w.workspaceId])
    expect(after.items[1]).toMatchObject({ name: "Acme", role: "member", memberCount: 3, position: 2 })
    const foreign = await fail("PUT", "/workspaces/order", w.member.token, 400, { workspaceIds: [w.otherWorkspaceId] })
    expect(foreign.error.details[0].path).toBe("body.workspaceIds.0")
    await fail("PUT", "/workspaces/order", w.member.token, 400, { workspaceIds: [second.id, second.id] })
  })
})

describe("settings", () => {
  it("reads and changes preferences, features, default views, security policy; admins only; resets", async () => {
    const ws = w.workspaceId
    const initial = await call("GET", `/workspaces/${ws}/settings`, w.viewer.token)
    expect(initial.general).toMatchObject({ timeZone: "UTC", weekStart: "monday" })
    await fail("PATCH", `/workspaces/${ws}/settings`, w.member.token, 403, { timeZone: "Europe/Berlin" })
    const bad = await fail("PATCH", `/workspaces/${ws}/settings`, w.owner.token, 400, { timeZone: "Mars/Olympus" })
    expect(bad.error.details[0].path).toBe("body.timeZone")
    await fail("PATCH", `/workspaces/${ws}/settings`, w.owner.token, 400, {})
    const updated = await call("PATCH", `/workspaces/${ws}/settings`, w.owner.token, {
      timeZone: "Europe/Berlin",
      weekStart: "sunday",
      description: "Rockets"
    })
    expect(updated.general).toMatchObject({
      timeZone: "Europe/Berlin",
      weekStart: "sunday",
      description: "Rockets",
      dateFormat: "YYYY-MM-DD"
    })

    expect(await call("GET", `/workspaces/${ws}/features`, w.viewer.token)).toEqual({
      publicSharing: true,
      guests: true,
      inviteLinks: true,
      domainJoin: false
    })
    expect(await call("PATCH", `/workspaces/${ws}/features`, w.owner.token, { inviteLinks: false })).toMatchObject({
      inviteLinks: false,
      guests: true
    })
    expect(await call("GET", `/workspaces/${ws}/default-views`, w.viewer.token)).toEqual({
      space: "list",
      folder: "list",
      list: "list",
      everything: "list"
    })
    expect(await call("PATCH", `/workspaces/${ws}/default-views`, w.owner.token, { list: "board" })).toMatchObject({
      list: "board",
      space: "list"
    })
    await fail("PATCH", `/workspaces/${ws}/default-views`, w.owner.token, 400, { list: "spreadsheet" })

    await fail("GET", `/workspaces/${ws}/security`, w.member.token, 403)
    const policy = await call("PATCH", `/workspaces/${ws}/security`, w.owner.token, {
      allowedEmailDomains: ["Example.com"],
      invitationExpiryDays: 3
    })
    expect(policy).toMatchObject({ allowedEmailDomains: ["example.com"], invitationExpiryDays: 3, membersCanInvite: false })
    await fail("PATCH", `/workspaces/${ws}/security`, w.owner.token, 400, { autoJoinDomains: ["not a domain"] })
    expect((await call("GET", `/workspaces/${ws}/security`, w.owner.token)).invitationExpiryDays).toBe(3)

    const events = (await atrium.changes(ws)).map((e) => e.type)
    expect(events).toEqual(
      expect.arrayContaining([
        "workspace.settings_updated",
        "workspace.features_updated",
        "workspace.default_views_updated",
        "workspace.security_updated"
      ])
    )

    const reset = await call("DELETE", `/workspaces/${ws}/settings`, w.owner.token)
    expect(reset.general.timeZone).toBe("UTC")
    expect(reset.features.inviteLinks).toBe(true)
    expect((await call("GET", `/workspaces/${ws}/security`, w.owner.token)).allowedEmailDomains).toEqual([])
  })

  it("seat limit: owner only, not below the members, enforced when adding", async () => {
    const owner = await signUp(atrium, "SeatOwner")
    const a = await signUp(atrium, "A")
    const b = await signUp(atrium, "B")
    const id = (await call("POST", "/workspaces", owner.token, { name: "Small" }, 201)).id
    await call("POST", `/workspaces/${id}/members`, owner.token, { email: a.email, role: "admin" }, 201)
    await fail("PUT", `/workspaces/${id}/seat-limit`, a.token, 403, { seatLimit: 5 })
    await fail("PUT", `/workspaces/${id}/seat-limit`, owner.token, 409, { seatLimit: 1 })
    expect(await call("PUT", `/workspaces/${id}/seat-limit`, owner.token, { seatLimit: 2 })).toMatchObject({
      limit: 2,
      members: 2,
      available: 0
    })
    await fail("POST", `/workspaces/${id}/members`, owner.token, 409, { email: b.email, role: "member" })
    expect((await call("GET", `/workspaces/${id}/settings`, a.token)).seatLimit).toBe(2)
    expect(await call("PUT", `/workspaces/${id}/seat-limit`, owner.token, { seatLimit: null })).toMatchObject({
      limit: null,
      available: null
    })
    await call("POST", `/workspaces/${id}/members`, owner.token, { email: b.email, role: "member" }, 201)
  })

  it("branding and logo: color, tagline, upload (checked), download, remove", async () => {
    const ws = w.workspaceId
    await fail("PATCH", `/workspaces/${ws}/branding`, w.member.token, 403, { color: "#112233" })
    await fail("PATCH", `/workspaces/${ws}/branding`, w.owner.token, 400, { color: "blue" })
    expect(await call("PATCH", `/workspaces/${ws}/branding`, w.owner.token, { color: "#112233", tagline: "Up" })).toMatchObject({
      color: "#112233",
      tagline: "Up",
      logoUrl: null
    })
    const notPng = await atrium.request("PUT", `/pm/v1/workspaces/${ws}/logo`, {
      token: w.owner.token,
      rawBody: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
      headers: { "content-type": "image/png" }
    })
    expect(notPng.status).toBe(400)
    const svg = await atrium.request("PUT", `/pm/v1/workspaces/${ws}/logo`, {
      token: w.owner.token,
      rawBody: "<svg/>",
      headers: { "content-type": "image/svg+xml" }
    })
    expect(svg.status).toBe(415)
    await fail("GET", `/workspaces/${ws}/logo`, w.member.token, 404)
    const uploaded = await atrium.request("PUT", `/pm/v1/workspaces/${ws}/logo`, {
      token: w.owner.token,
      rawBody: png,
      headers: { "content-type": "image/png" }
    })
    expect(uploaded.status, uploaded.text).toBe(200)
    expect(uploaded.body.logo).toMatchObject({ contentType: "image/png", size: png.length })
    const image = await atrium.request("GET", uploaded.body.logoUrl.replace(/^\/pm\/v1/, "/pm/v1"), { token: w.viewer.token })
    expect(image.status).toBe(200)
    expect(image.headers.get("content-type")).toBe("image/png")
    await fail("GET", `/workspaces/${ws}/logo`, w.outsider.token, 404)
    expect((await call("GET", `/workspaces/${ws}/branding`, w.viewer.token)).logoUrl).toBe(uploaded.body.logoUrl)
    await call("DELETE", `/workspaces/${ws}/logo`, w.owner.token, undefined, 204)
    await fail("DELETE", `/workspaces/${ws}/logo`, w.owner.token, 404)
    expect((await call("GET", `/workspaces/${ws}/branding`, w.viewer.token)).logo).toBeNull()
  })
})

describe("statistics", () => {
  it("counts tasks by status type, workload, throughput per day, usage; private spaces only for who sees them", async () => {
    const ws = w.workspaceId
    const due = new Date(Date.now() - 86_400_000).toISOString()
    await call("PATCH", `/tasks/${h.other.id}`, w.owner.token, {
      status: "in progress",
      dueDate: due,
      assigneeIds: [w.member.userId],
      timeEstimateMinutes: 30
    })
    const done = await call("POST", `/lists/${h.loose.id}/tasks`, w.owner.token, { name: "Finished" }, 201)
    await call("PATCH", `/tasks/${done.id}`, w.owner.token, { status: "done" })
    const stats = await call("GET", `/workspaces/${ws}/stats`, w.member.token)
    expect(stats.tasks).toMatchObject({ active: 1, done: 1, overdue: 1 })
    expect(stats.tasks.total).toBe(stats.tasks.open + stats.tasks.active + stats.tasks.done + stats.tasks.closed)
    expect(stats.members).toMatchObject({ owner: 1, member: 1, viewer: 1, guests: 0 })
    expect(stats.thisWeek.completed).toBeGreaterThanOrEqual(1)
    expect(Date.parse(stats.thisWeek.to) - Date.parse(stats.thisWeek.from)).toBe(7 * 86_400_000)
    const ownerStats = await call("GET", `/workspaces/${ws}/stats`, w.owner.token)
    expect(ownerStats.tasks.total).toBe(stats.tasks.total + 1) // the private space's task
    const spaces = await call("GET", `/workspaces/${ws}/stats/spaces`, w.member.token)
    expect(spaces.items.map((s: { name: string }) => s.name)).toEqual(["Engineering"])
    expect(spaces.items[0]).toMatchObject({ folders: 1, lists: 2 })
    const load = await call("GET", `/workspaces/${ws}/stats/workload?days=3`, w.member.token)
    expect(load.items.find((m: { userId: string }) => m.userId === w.member.userId)).toMatchObject({
      openTasks: 2,
      overdueTasks: 1,
      estimateMinutes: 30
    })
    expect(load.days).toBe(3)
    const flow = await call("GET", `/workspaces/${ws}/stats/throughput?days=3`, w.member.token)
    expect(flow.days).toHaveLength(3)
    expect(flow.days[2].created).toBeGreaterThanOrEqual(3)
    expect(flow.days[2].completed).toBe(1)
    await fail("GET", `/workspaces/${ws}/stats/throughput?days=0`, w.member.token, 400)
    await fail("GET", `/workspaces/${ws}/usage`, w.member.token, 403)
    const usage = await call("GET", `/workspaces/${ws}/usage`, w.owner.token)
    expect(usage.seats).toMatchObject({ limit: null, members: 3 })
    expect(usage.counts.spaces).toBe(2)
    expect(usage.storage.totalBytes).toBe(usage.storage.attachmentBytes + usage.storage.logoBytes)
  })
})

describe("hierarchy", () => {
  it("reads the tree, folders, short ids, search, archive and the properties across spaces", async () => {
    const ws = w.workspaceId
    const tree = await call("GET", `/workspaces/${ws}/hierarchy`, w.member.token)
    expect(tree.spaces.map((s: { name: string }) => s.name)).toEqual(["Engineering"])
    const backlog = tree.spaces[0].folders[0].lists[0]
    expect(backlog).toMatchObject({ id: h.list.id, statusesFrom: "space", statusCount: 4, customFieldCount: 1 })
    expect(tree.totals).toMatchObject({ spaces: 1, folders: 1, lists: 2 })
    expect((await call("GET", `/workspaces/${ws}/hierarchy`, w.owner.token)).spaces).toHaveLength(2)

    expect((await call("GET", `/workspaces/${ws}/folders`, w.viewer.token)).items).toEqual([
      { id: h.folder.id, shortId: h.folder.shortId, name: "Roadmap", spaceId: h.space.id, space: "Engineering", lists: 1, archived: false }
    ])
    const task = await call("GET", `/workspaces/${ws}/resolve/${h.task.shortId}`, w.viewer.token)
    expect(task).toMatchObject({
      type: "task",
      id: h.task.id,
      name: "Ship login",
      path: "Engineering / Roadmap / Backlog",
      listId: h.list.id
    })
    expect(await call("GET", `/workspaces/${ws}/resolve/${h.folder.shortId.toLowerCase()}`, w.viewer.token)).toMatchObject({
      type: "folder",
      id: h.folder.id,
      path: "Engineering"
    })
    await fail("GET", `/workspaces/${ws}/resolve/${h.secretTask.shortId}`, w.viewer.token, 404)
    await fail("GET", `/workspaces/${ws}/resolve/X-1`, w.viewer.token, 404)
    await fail("GET", `/workspaces/${ws}/resolve/nonsense`, w.viewer.token, 400)

    const hits = await call("GET", `/workspaces/${ws}/search?${qs({ q: "login" })}`, w.viewer.token)
    expect(hits.items.map((x: { name: string }) => x.name)).toEqual(["Login copy", "Ship login"])
    expect(
      (await call("GET", `/workspaces/${ws}/search?${qs({ q: "back", types: "list" })}`, w.viewer.token)).items.map(
        (x: { id: string }) => x.id
      )
    ).toEqual([h.list.id])
    expect((await call("GET", `/workspaces/${ws}/search?${qs({ q: "top secret" })}`, w.viewer.token)).items).toEqual([])
    expect((await call("GET", `/workspaces/${ws}/search?${qs({ q: "top secret" })}`, w.owner.token)).items).toHaveLength(1)
    await fail("GET", `/workspaces/${ws}/search?${qs({ q: "x", types: "planet" })}`, w.viewer.token, 400)

    const archivedList = await call("POST", `/spaces/${h.space.id}/lists`, w.owner.token, { name: "Old stuff" }, 201)
    await call("POST", `/lists/${archivedList.id}/archive`, w.owner.token, {})
    const archive = await call("GET", `/workspaces/${ws}/archived`, w.member.token)
    expect(archive.lists.map((l: { name: string; path: string }) => [l.name, l.path])).toEqual([["Old stuff", "Engineering"]])
    expect(
      (await call("GET", `/workspaces/${ws}/hierarchy?archived=only`, w.member.token)).spaces[0].lists.map((l: { name: string }) => l.name)
    ).toEqual(["Old stuff"])

    const statuses = await call("GET", `/workspaces/${ws}/statuses`, w.member.token)
    expect(statuses.items.find((s: { name: string }) => s.name === "to do")).toMatchObject({
      types: ["open"],
      definedIn: [{ scopeType: "space", scopeId: h.space.id, name: "Engineering" }]
    })
    const fields = await call("GET", `/workspaces/${ws}/custom-fields`, w.member.token)
    expect(fields.items).toEqual([
      expect.objectContaining({
        id: h.field.id,
        name: "Env",
        scopeType: "space",
        scopeName: "Engineering",
        options: ["prod", "dev"],
        values: 0
      })
    ])
    expect((await call("GET", `/workspaces/${ws}/custom-fields?type=number`, w.member.token)).items).toEqual([])
    expect((await call("GET", `/workspaces/${ws}/tags`, w.member.token)).items).toEqual([
      expect.objectContaining({ name: "frontend", space: "Engineering", tasks: 1 })
    ])
    await fail("GET", `/workspaces/${ws}/tags`, w.outsider.token, 404)
  })

  it("exports the structure as JSON and imports it into another workspace (admins), taking its settings when asked", async () => {
    await call("PATCH", `/workspaces/${w.workspaceId}/default-views`, w.owner.token, { space: "board" })
    const exported = await atrium.request("GET", `/pm/v1/workspaces/${w.workspaceId}/export`, { token: w.member.token })
    expect(exported.status).toBe(200)
    expect(exported.headers.get("content-disposition")).toContain("attachment")
    const doc = exported.body
    expect(doc).toMatchObject({ format: "atrium.pm.workspace-structure", version: 1 })
    expect(doc.spaces.map((s: { name: string }) => s.name)).toEqual(["Engineering"])
    expect(doc.spaces[0].folders[0].lists[0].name).toBe("Backlog")
    expect(exported.text).not.toContain("Ship login")

    const target = w.otherWorkspaceId
    await fail("POST", `/workspaces/${w.workspaceId}/import`, w.member.token, 403, { structure: doc })
    const badDoc = await fail("POST", `/workspaces/${target}/import`, w.outsider.token, 400, { structure: { ...doc, format: "other" } })
    expect(badDoc.error.details[0].path).toBe("body.structure.format")
    const imported = await call("POST", `/workspaces/${target}/import`, w.outsider.token, { structure: doc, applySettings: true }, 201)
    expect(imported.spaces.map((s: { name: string }) => s.name)).toEqual(["Engineering"])
    expect(imported.settingsApplied).toBe(true)
    expect((await call("GET", `/workspaces/${target}/default-views`, w.outsider.token)).space).toBe("board")
    const tree = await call("GET", `/workspaces/${target}/hierarchy`, w.outsider.token)
    expect(tree.spaces[0].folders[0].lists[0]).toMatchObject({ name: "Backlog", customFieldCount: 1, tasks: 0 })
  })
})
