/**
 * Internal service-to-service operations: only an internal key
 * (X-Internal-Key from ATRIUM_INTERNAL_KEYS) passes; user sessions and API
 * keys get 403. Workspace lifecycle, users, API-key introspection, quotas
 * (a member quota refuses members beyond it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atriumRegistry } from "../../../facade/operations.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

const KEY = "k".repeat(40)
const internal = { "x-internal-key": KEY }
let atrium: TestServer
let user: Awaited<ReturnType<typeof signUp>>
let apiKey: string
let userWorkspace: string

beforeAll(async () => {
  process.env.ATRIUM_INTERNAL_KEYS = `provisioner:${KEY}, short`
  atrium = await startAtrium()
  user = await signUp(atrium, "Someone")
  userWorkspace = (await atrium.request("POST", "/pm/v1/workspaces", { token: user.token, body: { name: "Mine" } })).body.id
  apiKey = (
    await atrium.request("POST", "/pm/v1/api-keys", {
      token: user.token,
      body: { workspaceId: userWorkspace, name: "k", scopes: ["tasks:read"] }
    })
  ).body.key
}, 60_000)
afterAll(async () => {
  delete process.env.ATRIUM_INTERNAL_KEYS
  await atrium?.close()
})

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = internal) =>
  atrium.request(method, `/pm/v1/internal${path}`, { headers, ...(body !== undefined ? { body } : {}) })

describe("internal operations", () => {
  it("every one refuses user sessions, API keys, a wrong or too short key (403)", async () => {
    const ops = atriumRegistry.operations.filter((op) => op.service === "pm" && op.tag.startsWith("Internal "))
    expect(ops.length).toBe(22)
    for (const op of ops) {
      const path = `/pm${op.path}`
        .replace("{domain}", "corp.example")
        .replace(/\{\w+\}/g, userWorkspace)
        .replace(`/members/${userWorkspace}`, `/members/${user.userId}`)
      const example = op.examples[0]?.request
      const query = example?.query ? `?${new URLSearchParams(example.query as Record<string, string>)}` : ""
      const body = example?.body
      for (const credentials of [
        { token: user.token },
        { apiKey },
        { headers: { "x-internal-key": "short" } },
        { headers: { "x-internal-key": "x".repeat(40) } }
      ]) {
        const response = await atrium.request(op.method, path + query, { ...credentials, ...(body !== undefined ? { body } : {}) })
        expect(response.status, `${op.operationId} ${JSON.stringify(credentials).slice(0, 20)}: ${response.text}`).toBe(403)
      }
    }
  })

  it("provision a workspace for a new owner on a plan, list, rename, suspend, resume, transfer, delete, restore", async () => {
    const provisioned = await call("POST", "/workspaces", {
      name: "Globex",
      ownerEmail: "hank@globex.test",
      ownerName: "Hank",
      planId: "team",
      seats: 3
    })
    expect(provisioned.status).toBe(201)
    expect(provisioned.body.ownerCreated).toBe(true)
    const ws = provisioned.body.workspace
    expect(ws.limits.seats).toBe(3)
    const id = ws.id
    const found = await call("GET", "/users?email=HANK@globex.test")
    expect(found.body.id).toBe(ws.owner.id)
    const again = await call("POST", "/users", { email: "hank@globex.test", name: "Other" })
    expect(again.body).toMatchObject({ created: false, user: { name: "Hank" } })

    expect((await call("GET", "/workspaces?q=globex")).body.items.map((w: { id: string }) => w.id)).toEqual([id])
    expect((await call("PATCH", `/workspaces/${id}`, { name: "Globex Corp" })).body.name).toBe("Globex Corp")
    // Members: the third seat is the last one.
    expect((await call("POST", `/workspaces/${id}/members`, { email: "bob@globex.test", role: "member" })).status).toBe(400)
    const bob = await call("POST", `/workspaces/${id}/members`, { email: "bob@globex.test", name: "Bob", role: "member" })
    expect(bob.status).toBe(200)
    expect((await call("POST", `/workspaces/${id}/members`, { email: user.email, role: "viewer" })).status).toBe(200)
    const full = await call("POST", `/workspaces/${id}/members`, { email: "carol@globex.test", name: "Carol", role: "member" })
    expect(full.status).toBe(409)
    expect(full.body.error.message).toMatch(/limit of 3 members/)

    expect((await atrium.request("GET", `/pm/v1/workspaces/${id}`, { token: user.token })).status).toBe(200)
    expect((await call("POST", `/workspaces/${id}/suspend`, { reason: "Abuse report" })).body.status).toBe("suspended")
    const refused = await atrium.request("GET", `/pm/v1/workspaces/${id}`, { token: user.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/Abuse report/)
    expect((await call("POST", `/workspaces/${id}/resume`)).body.status).toBe("active")
    expect((await atrium.request("GET", `/pm/v1/workspaces/${id}`, { token: user.token })).status).toBe(200)

    const transferred = await call("POST", `/workspaces/${id}/transfer-ownership`, { userId: user.userId })
    expect(transferred.body.owner.id).toBe(user.userId)
    const bobId = bob.body.members.find((m: { email: string }) => m.email === "bob@globex.test").userId
    const removed = await call("DELETE", `/workspaces/${id}/members/${bobId}`)
    expect(removed.body.members.map((m: { userId: string }) => m.userId)).not.toContain(bobId)

    const exported = await call("GET", `/workspaces/${id}/export`)
    expect(exported.body.subscription).toMatchObject({ planId: "team", seats: 3 })
    expect(exported.body.invoices).toHaveLength(1)
    const usage = await call("GET", `/workspaces/${id}/usage`)
    expect(usage.body.usage.members).toBe(2)

    expect((await call("DELETE", `/workspaces/${id}`)).body.status).toBe("deleted")
    expect((await atrium.request("GET", `/pm/v1/workspaces/${id}`, { token: user.token })).status).toBe(404)
    expect((await call("POST", `/workspaces/${id}/restore`)).body.status).toBe("active")
    const activity = await atrium.sql<{ action: string }>("SELECT action FROM platform_audit WHERE workspace_id = $1 ORDER BY id", [id])
    expect(activity.map((row) => row.action)).toEqual([
      "workspace.provisioned",
      "workspace.renamed",
      "member.added",
      "member.added",
      "workspace.suspended",
      "workspace.resumed",
      "workspace.ownership_transferred",
      "member.removed",
      "workspace.exported",
      "workspace.deleted",
      "workspace.restored"
    ])
  })

  it("introspects API keys", async () => {
    const live = await call("POST", "/api-keys/introspect", { key: apiKey })
    expect(live.body).toMatchObject({ active: true, workspaceId: userWorkspace, userId: user.userId, scopes: ["tasks:read"] })
    expect((await call("POST", "/api-keys/introspect", { key: "nope" })).body.active).toBe(false)
    expect((await call("POST", "/api-keys/introspect", { key: `${apiKey}x` })).body.active).toBe(false)
  })

  it("quotas: read with usage, set (members enforced), check, reset", async () => {
    const report = await call("GET", `/workspaces/${userWorkspace}/quota`)
    expect(report.body.limits).toEqual({ members: null, tasks: null, storageBytes: null })
    expect((await call("PATCH", `/workspaces/${userWorkspace}/quota`, { members: 0 })).status).toBe(409)
    const set = await call("PATCH", `/workspaces/${userWorkspace}/quota`, { members: 1, tasks: 0 })
    expect(set.body.limits).toEqual({ members: 1, tasks: 0, storageBytes: null })
    const other = await signUp(atrium, "Other")
    const add = await atrium.request("POST", `/pm/v1/workspaces/${userWorkspace}/members`, {
      token: user.token,
      body: { email: other.email, role: "member" }
    })
    expect(add.status).toBe(409)
    // Tasks are refused on creation beyond the quota, whatever the path.
    const space = await atrium.request("POST", `/pm/v1/workspaces/${userWorkspace}/spaces`, { token: user.token, body: { name: "Work" } })
    const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: user.token, body: { name: "Backlog" } })
    const refusedTask = await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, {
      token: user.token,
      body: { name: "One too many" }
    })
    expect(refusedTask.status).toBe(409)
    expect(refusedTask.body.error.message).toMatch(/quota of 0 tasks/)
    await call("PATCH", `/workspaces/${userWorkspace}/quota`, { tasks: 1, storageBytes: 4 })
    const task = await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, { token: user.token, body: { name: "Fits" } })
    expect(task.status).toBe(201)
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, { token: user.token, body: { name: "Second" } })).status
    ).toBe(409)
    const upload = (bytes: string) =>
      atrium.request("POST", `/pm/v1/tasks/${task.body.id}/attachments?filename=a.txt`, {
        token: user.token,
        rawBody: bytes,
        headers: { "content-type": "text/plain" }
      })
    expect((await upload("abc")).status).toBe(201)
    const overStorage = await upload("de")
    expect(overStorage.status).toBe(409)
    expect(overStorage.body.error.message).toMatch(/storage quota of 4 bytes/)
    await call("PATCH", `/workspaces/${userWorkspace}/quota`, { tasks: 0, storageBytes: null })
    const check = await call("POST", `/workspaces/${userWorkspace}/quota/check`, { resource: "tasks", amount: 1 })
    expect(check.body).toEqual({ allowed: false, resource: "tasks", limit: 0, used: 1, remaining: 0 })
    const bad = await call("POST", `/workspaces/${userWorkspace}/quota/check`, { resource: "cpu", amount: 1 })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.resource")
    await call("DELETE", `/workspaces/${userWorkspace}/quota`)
    expect(
      (
        await atrium.request("POST", `/pm/v1/workspaces/${userWorkspace}/members`, {
          token: user.token,
          body: { email: other.email, role: "member" }
        })
      ).status
    ).toBeLessThan(300)
  })
})
