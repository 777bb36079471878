/**
 * Integrations and action items: connections (token encrypted, never shown,
 * JWT-only changes), sending selected action items to a fake issue tracker,
 * task tool and spreadsheet-database tool (local servers speaking their REST
 * shapes) and to Atrium's pm, idempotent per (call, item, target); vendor
 * failures → 502 naming the vendor; task actions; changed tasks synced back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { apiKey, fakeServer, json, record, settled, type User, workspaceWith } from "./support/calls.ts"

let atrium: TestServer
let alice: User
let bob: User
let workspaceId: string
let call: { id: number; callId: number; callUuid: string }
let items: Array<{ id: string; text: string; owner?: string }>
let tracker: Awaited<ReturnType<typeof fakeServer>>
let taskapp: Awaited<ReturnType<typeof fakeServer>>
let tablebase: Awaited<ReturnType<typeof fakeServer>>
const trackerIssues = new Map<string, { status: string; assignee: string | null }>()
let trackerMode: "ok" | "rate-limited" | "down" = "ok"

const connect = (body: Record<string, unknown>) =>
  atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/integrations`, { token: alice.token, body })

const allowPrivate = process.env.ATRIUM_ALLOW_PRIVATE_URLS

beforeAll(async () => {
  // The fake vendors listen on loopback, which the SSRF guard refuses unless allowed.
  process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
  tracker = await fakeServer((request, response) => {
    if (request.headers.authorization !== "Bearer trk-secret") return json(response, 401, { message: "bad token" })
    if (trackerMode === "rate-limited") return json(response, 429, { message: "slow down" }, { "retry-after": "30" })
    if (trackerMode === "down") return json(response, 503, { message: "maintenance" })
    if (request.method === "POST" && request.url === "/api/issues") {
      const id = `ENG-${trackerIssues.size + 1}`
      trackerIssues.set(id, { status: "open", assignee: request.body.assignee ?? null })
      return json(response, 201, { id, url: `https://tracker.example/issues/${id}` })
    }
    const issue = /^\/api\/issues\/(.+)$/.exec(request.url)
    if (request.method === "GET" && issue && trackerIssues.has(issue[1]!))
      return json(response, 200, { id: issue[1], ...trackerIssues.get(issue[1]!) })
    json(response, 404, { message: "no such route" })
  })
  taskapp = await fakeServer((request, response) =>
    request.method === "POST" && request.url === "/tasks"
      ? json(response, 201, { id: 9001, permalink_url: "https://tasks.example/t/9001" })
      : json(response, 404, {})
  )
  tablebase = await fakeServer((request, response) =>
    request.method === "POST" && request.url === "/tables/Actions/records"
      ? json(response, 200, { id: "rec123", fields: request.body.fields })
      : json(response, 404, {})
  )
  atrium = await startAtrium()
  ;[alice, bob] = await Promise.all([signUp(atrium, "Alice"), signUp(atrium, "Bob")])
  workspaceId = await workspaceWith(atrium, alice, [bob])
  call = await record(atrium, alice.token, workspaceId)
  await settled(atrium, alice.token, call.id)
  items = (await atrium.request("GET", `/hub/v1/calls/by-uuid/${call.callUuid}/action-items`, { token: alice.token })).body.items
})
afterAll(async () => {
  if (allowPrivate === undefined) delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
  else process.env.ATRIUM_ALLOW_PRIVATE_URLS = allowPrivate
  await atrium?.close()
  await Promise.all([tracker?.close(), taskapp?.close(), tablebase?.close()])
})

describe("integrations", () => {
  it("stores connections with the token encrypted, never shows it, and keeps changes to user sessions", async () => {
    const created = await connect({
      vendor: "tracker",
      name: "Engineering",
      baseUrl: `${tracker.url}/api/`,
      token: "trk-secret",
      settings: { project: "ENG" }
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ vendor: "tracker", baseUrl: `${tracker.url}/api`, hasToken: true, settings: { project: "ENG" } })
    expect(created.text).not.toContain("trk-secret")
    const [stored] = await atrium.sql<{ sealed: string }>(`SELECT token_ciphertext AS sealed FROM hub_connections WHERE id = $1`, [
      created.body.id
    ])
    expect(stored!.sealed).not.toContain("trk-secret")

    const reader = await apiKey(atrium, alice, workspaceId, ["integrations:read"])
    const listed = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations`, { apiKey: reader })
    expect(listed.status).toBe(200)
    expect(listed.body.items.map((c: any) => c.id)).toEqual([created.body.id])
    expect(listed.text).not.toContain("trk-secret")
    expect(
      (await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations/${created.body.id}`, { apiKey: reader })).body.id
    ).toBe(created.body.id)
    const noScope = await apiKey(atrium, alice, workspaceId, ["recordings:read"])
    expect((await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations`, { apiKey: noScope })).status).toBe(403)
    const allScopes = await apiKey(atrium, alice, workspaceId, ["integrations:read", "recordings:write"])
    expect(
      (
        await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/integrations`, {
          apiKey: allScopes,
          body: { vendor: "tracker", name: "x", baseUrl: tracker.url, token: "t" }
        })
      ).status
    ).toBe(403)
    expect(
      (await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/integrations/${created.body.id}`, { apiKey: allScopes })).status
    ).toBe(403)
    // A member is not an admin: connecting is refused.
    expect(
      (
        await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/integrations`, {
          token: bob.token,
          body: { vendor: "tracker", name: "x", baseUrl: tracker.url, token: "t" }
        })
      ).status
    ).toBe(403)
    const badUrl = await connect({ vendor: "tracker", name: "x", baseUrl: "ftp://nope", token: "t" })
    expect(badUrl.status).toBe(400)
    expect(badUrl.body.error.details[0].path).toBe("body.baseUrl")
    delete process.env.ATRIUM_ALLOW_PRIVATE_URLS
    const internal = await connect({ vendor: "tracker", name: "x", baseUrl: "http://169.254.169.254/latest", token: "t" })
    process.env.ATRIUM_ALLOW_PRIVATE_URLS = "1"
    expect(internal.status).toBe(400)
    expect(internal.body.error.details[0]).toMatchObject({ path: "body.baseUrl", message: expect.stringContaining("private or internal") })

    await connect({ vendor: "taskapp", name: "Tasks", baseUrl: taskapp.url, token: "task-secret" })
    await connect({ vendor: "tablebase", name: "Table", baseUrl: tablebase.url, token: "tb-secret", settings: { table: "Actions" } })
  })
})

describe("sending action items", () => {
  const send = (body: Record<string, unknown>, token = alice.token) =>
    atrium.request("POST", `/hub/v1/calls/by-uuid/${call.callUuid}/action-items/send`, { token, body })

  it("sends to the issue tracker once per item, and answers the same task on resend", async () => {
    const first = await send({ target: "tracker", actionItemIds: [items[0]!.id] })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      target: "tracker",
      sent: [{ actionItemId: items[0]!.id, externalId: "ENG-1", url: "https://tracker.example/issues/ENG-1", alreadySent: false }]
    })
    const posted = tracker.requests.filter((r) => r.method === "POST")
    expect(posted).toHaveLength(1)
    expect(posted[0]!.body).toMatchObject({ title: items[0]!.text, project: "ENG" })
    if (items[0]!.owner) expect(posted[0]!.body.assignee).toBe(items[0]!.owner)

    const again = await send({ target: "tracker", actionItemIds: [items[0]!.id, items[1]!.id] })
    expect(again.body.sent[0]).toEqual({ ...first.body.sent[0], alreadySent: true })
    expect(again.body.sent[1]).toMatchObject({ externalId: "ENG-2", alreadySent: false })
    expect(tracker.requests.filter((r) => r.method === "POST")).toHaveLength(2)
    const tasks = await atrium.request("GET", `/hub/v1/calls/by-uuid/${call.callUuid}/tasks`, { token: bob.token })
    expect(tasks.body.items.map((t: any) => t.externalId)).toEqual(["ENG-1", "ENG-2"])
  })

  it("sends to the task tool and the spreadsheet-database tool in their shapes", async () => {
    const toTasks = await send({ target: "taskapp", actionItemIds: [items[0]!.id] })
    expect(toTasks.body.sent[0]).toMatchObject({ externalId: "9001", url: "https://tasks.example/t/9001" })
    expect(taskapp.requests[0]!.body).toMatchObject({ name: items[0]!.text })
    expect(taskapp.requests[0]!.headers.authorization).toBe("Bearer task-secret")
    const toTable = await send({ target: "tablebase", actionItemIds: [items[0]!.id] })
    expect(toTable.body.sent[0]).toMatchObject({ externalId: "rec123", url: `${tablebase.url}/tables/Actions/records/rec123` })
    expect(tablebase.requests[0]!.body.fields).toMatchObject({ Name: items[0]!.text, Status: "Open" })
  })

  it("uses the workspace's preferred target by default, and refuses when there is none", async () => {
    const none = await send({ actionItemIds: [items[0]!.id] })
    expect(none.status).toBe(409)
    expect(none.body.error.details[0].path).toBe("body.target")
    await atrium.request("PATCH", `/hub/v1/workspaces/${workspaceId}/settings`, {
      token: alice.token,
      body: { preferredIntegrationTarget: "tracker" }
    })
    const preferred = await send({ actionItemIds: [items[0]!.id] })
    expect(preferred.body).toMatchObject({ target: "tracker", sent: [{ externalId: "ENG-1", alreadySent: true }] })
  })

  it("answers 502 naming the vendor when it rate-limits or fails, and records nothing", async () => {
    trackerMode = "rate-limited"
    const limited = await send({ target: "tracker", actionItemIds: [items[2]!.id] })
    expect(limited.status).toBe(502)
    expect(limited.body.error.message).toContain('issue tracker "Engineering"')
    expect(limited.body.error.message).toContain("retry after 30 s")
    trackerMode = "down"
    const down = await send({ target: "tracker", actionItemIds: [items[2]!.id] })
    expect(down.status).toBe(502)
    expect(down.body.error.message).toContain("failed (503)")
    trackerMode = "ok"
    expect((await send({ target: "tracker", actionItemIds: [items[2]!.id] })).body.sent[0].alreadySent).toBe(false)
  })

  it("creates tasks in a pm list through pm's normal write path", async () => {
    const space = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { token: alice.token, body: { name: "Launch" } })
    const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: alice.token, body: { name: "Follow-ups" } })
    expect(list.status).toBe(201)
    const noList = await send({ target: "pm", actionItemIds: [items[0]!.id] })
    expect(noList.status).toBe(400)
    expect(noList.body.error.details[0].path).toBe("body.destination")
    const sent = await send({ target: "pm", actionItemIds: [items[0]!.id], destination: list.body.id })
    expect(sent.status).toBe(200)
    const taskId = sent.body.sent[0].externalId
    expect(sent.body.sent[0].url).toBe(`${atrium.origin}/pm/v1/tasks/${taskId}`)
    const task = await atrium.request("GET", `/pm/v1/tasks/${taskId}`, { token: alice.token })
    expect(task.status).toBe(200)
    expect(task.body).toMatchObject({ name: items[0]!.text, listId: list.body.id })
    expect((await send({ target: "pm", actionItemIds: [items[0]!.id], destination: list.body.id })).body.sent[0]).toMatchObject({
      externalId: taskId,
      alreadySent: true
    })
    const tasks = await atrium.request("GET", `/pm/v1/lists/${list.body.id}/tasks`, { token: alice.token })
    expect(tasks.body.items ?? tasks.body.tasks).toHaveLength(1)
  })

  it("refuses unknown action items naming the index", async () => {
    const unknown = await send({ target: "tracker", actionItemIds: [items[0]!.id, "ai_nope"] })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.details[0].path).toBe("body.actionItemIds[1]")
  })
})

describe("task actions and changed tasks", () => {
  it("completes, dismisses and assigns action items; everyone sees the state", async () => {
    const base = `/hub/v1/calls/by-uuid/${call.callUuid}/action-items`
    const done = await atrium.request("POST", `${base}/${items[1]!.id}/complete`, { token: alice.token })
    expect(done.body).toMatchObject({ actionItemId: items[1]!.id, status: "completed", updatedBy: alice.userId })
    const assigned = await atrium.request("PUT", `${base}/${items[2]!.id}/assignee`, {
      token: bob.token,
      body: { email: "Carol@Example.com" }
    })
    expect(assigned.body).toMatchObject({ status: "open", assigneeEmail: "carol@example.com" })
    expect((await atrium.request("POST", `${base}/${items[3]!.id}/dismiss`, { token: alice.token })).body.status).toBe("dismissed")
    const seen = (await atrium.request("GET", `/hub/v1/calls/${call.callId}`, { token: bob.token })).body.actionItems
    expect(seen.find((i: any) => i.id === items[1]!.id).status).toBe("completed")
    expect(seen.find((i: any) => i.id === items[2]!.id).assigneeEmail).toBe("carol@example.com")
    expect((await atrium.request("POST", `${base}/ai_missing/complete`, { token: alice.token })).status).toBe(404)
  })

  it("syncs sent tasks back, lists what changed, applies and acknowledges changes", async () => {
    const base = `/hub/v1/workspaces/${workspaceId}/changed-tasks`
    expect((await atrium.request("POST", `${base}/sync`, { token: alice.token, body: {} })).body.changes).toBe(0)
    trackerIssues.set("ENG-1", { status: "closed", assignee: "dana@example.com" })
    const synced = await atrium.request("POST", `${base}/sync`, { token: alice.token, body: {} })
    expect(synced.body).toMatchObject({ changes: 2 })
    const listed = await atrium.request("GET", base, { token: bob.token })
    // Both changes come from one sync (same time): compare them in field order.
    const byField = [...listed.body.items].sort((a: any, b: any) => b.field.localeCompare(a.field))
    expect(byField.map((c: any) => [c.field, c.oldValue, c.newValue])).toEqual([
      ["status", "open", "closed"],
      ["assignee", items[0]!.owner ?? null, "dana@example.com"]
    ])
    const status = byField[0]
    const applied = await atrium.request("POST", `${base}/${status.id}/apply`, { token: alice.token })
    expect(applied.body).toMatchObject({ id: status.id, appliedAt: expect.any(String), acknowledgedAt: expect.any(String) })
    const item = (await atrium.request("GET", `/hub/v1/calls/${call.callId}`, { token: alice.token })).body.actionItems.find(
      (i: any) => i.id === status.actionItemId
    )
    expect(item.status).toBe("completed")
    expect((await atrium.request("GET", `${base}/${byField[1].id}`, { token: alice.token })).body.acknowledgedAt).toBeNull()
    expect(
      (await atrium.request("POST", `${base}/${byField[1].id}/acknowledge`, { token: alice.token })).body.acknowledgedAt
    ).not.toBeNull()
    expect((await atrium.request("GET", base, { token: bob.token })).body.items).toEqual([])
    expect((await atrium.request("GET", `${base}?includeAcknowledged=true`, { token: bob.token })).body.items).toHaveLength(2)
    expect((await atrium.request("POST", `${base}/acknowledge-all`, { token: alice.token })).body).toEqual({ acknowledged: 0 })
    // Nothing changed since: a new sync finds nothing.
    expect((await atrium.request("POST", `${base}/sync`, { token: alice.token, body: {} })).body.changes).toBe(0)
  })

  it("disconnecting erases the token: sending to that vendor is refused", async () => {
    const listed = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations`, { token: alice.token })
    const taskConnection = listed.body.items.find((c: any) => c.vendor === "taskapp")
    expect(
      (await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/integrations/${taskConnection.id}`, { token: alice.token })).status
    ).toBe(204)
    const refused = await atrium.request("POST", `/hub/v1/calls/by-uuid/${call.callUuid}/action-items/send`, {
      token: alice.token,
      body: { target: "taskapp", actionItemIds: [items[1]!.id] }
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain("no taskapp connection")
  })
})
