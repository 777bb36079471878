/**
 * hub Demo Resource and Demo User Resource: demo workspaces seeded by the
 * `--demo` generator (tasks, wiki pages), reset, extended, deleted, the admin
 * listing and purge of expired ones, and the throwaway demo account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoPages, demoTasks } from "../../../facade/DemoContent.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

let atrium: TestServer
let owner: Awaited<ReturnType<typeof signUp>>
let admin: Awaited<ReturnType<typeof signUp>>

beforeAll(async () => {
  atrium = await startAtrium()
  owner = await signUp(atrium, "DemoOwner")
  admin = await signUp(atrium, "Operator")
  process.env.ATRIUM_PLATFORM_ADMINS = admin.email
})
afterAll(async () => {
  delete process.env.ATRIUM_PLATFORM_ADMINS
  await atrium?.close()
})

const tasksOf = async (workspaceId: string, apiKey: string) => {
  const found = await atrium.request("GET", `/pm/v1/lite/search/tasks?workspaceId=${workspaceId}&includeClosed=true&limit=100`, { apiKey })
  expect(found.status, found.text).toBe(200)
  return found.body.items as Array<{ name: string }>
}

describe("demo workspaces", () => {
  it("creates a workspace with the generator's tasks and pages, owned by the caller, with a working agent key", async () => {
    const created = await atrium.request("POST", "/hub/v1/demo/workspaces", { token: owner.token, body: { name: "My demo" } })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ name: "My demo", ownerId: owner.userId, resets: 0, expired: false })
    expect(created.body.contents).toMatchObject({ lists: 3, tasks: demoTasks.length, pages: demoPages.length })
    const tasks = await tasksOf(created.body.workspaceId, created.body.apiKey)
    expect(tasks).toHaveLength(demoTasks.length)
    expect(new Set(tasks.map((t) => t.name))).toEqual(new Set(demoTasks.map((t) => t.name)))
    const ws = await atrium.request("GET", `/hub/v1/workspaces/${created.body.workspaceId}`, { token: owner.token })
    expect(ws.body.role).toBe("owner")

    const listed = await atrium.request("GET", "/hub/v1/demo/workspaces", { token: owner.token })
    expect(listed.body.items.map((d: { id: string }) => d.id)).toContain(created.body.id)
    const content = await atrium.request("GET", "/hub/v1/demo/content", { token: owner.token })
    expect(content.body.tasks).toHaveLength(demoTasks.length)
    expect(content.body.meetings.length).toBeGreaterThan(0)

    // Another user sees nothing of it.
    const other = await signUp(atrium, "Other")
    expect((await atrium.request("GET", `/hub/v1/demo/workspaces/${created.body.id}`, { token: other.token })).status).toBe(404)
    expect((await atrium.request("DELETE", `/hub/v1/demo/workspaces/${created.body.id}`, { token: other.token })).status).toBe(404)

    // Reset: a fresh workspace under the same demo; the old one is gone.
    await atrium.request("POST", "/pm/v1/lite/tasks", {
      apiKey: created.body.apiKey,
      body: { workspaceId: created.body.workspaceId, space: "Product", list: "Backlog", name: "Scribble" }
    })
    const reset = await atrium.request("POST", `/hub/v1/demo/workspaces/${created.body.id}/reset`, { token: owner.token })
    expect(reset.status, reset.text).toBe(200)
    expect(reset.body.id).toBe(created.body.id)
    expect(reset.body.resets).toBe(1)
    expect(reset.body.workspaceId).not.toBe(created.body.workspaceId)
    expect(await tasksOf(reset.body.workspaceId, reset.body.apiKey)).toHaveLength(demoTasks.length)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${created.body.workspaceId}`, { token: owner.token })).status).toBe(404)

    const minted = await atrium.request("POST", `/hub/v1/demo/workspaces/${created.body.id}/api-key`, { token: owner.token })
    expect(minted.status).toBe(201)
    expect(await tasksOf(reset.body.workspaceId, minted.body.apiKey)).toHaveLength(demoTasks.length)

    const extended = await atrium.request("POST", `/hub/v1/demo/workspaces/${created.body.id}/extend`, {
      token: owner.token,
      body: { days: 20 }
    })
    expect(Date.parse(extended.body.expiresAt)).toBeGreaterThan(Date.now() + 19 * 86_400_000)
    expect(
      (await atrium.request("POST", `/hub/v1/demo/workspaces/${created.body.id}/extend`, { token: owner.token, body: { days: 365 } }))
        .status
    ).toBe(400)

    expect((await atrium.request("DELETE", `/hub/v1/demo/workspaces/${created.body.id}`, { token: owner.token })).status).toBe(204)
    expect((await atrium.request("GET", `/hub/v1/demo/workspaces/${created.body.id}`, { token: owner.token })).status).toBe(404)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${reset.body.workspaceId}`, { token: owner.token })).status).toBe(404)
  })

  it("lets platform admins list and purge expired demos; others get 403", async () => {
    // An expired demo's bookkeeping over a plain workspace (seeding is covered above; purging is what is tested here).
    const ws = await atrium.request("POST", "/hub/v1/workspaces", { token: owner.token, body: { name: "Old demo" } })
    const created = { body: { id: crypto.randomUUID(), workspaceId: ws.body.id as string } }
    await atrium.sql(
      `INSERT INTO hub_demo_workspaces (id, workspace_id, owner_id, name, origin, contents, expires_at)
       VALUES ($1, $2, $3, 'Old demo', 'user', '{"lists":0,"tasks":0,"pages":0,"meetings":0}', now() - interval '1 minute')`,
      [created.body.id, created.body.workspaceId, owner.userId]
    )
    expect((await atrium.request("GET", "/hub/v1/demo/admin/workspaces", { token: owner.token })).status).toBe(403)
    expect((await atrium.request("POST", "/hub/v1/demo/admin/purge", { token: owner.token })).status).toBe(403)
    const expired = await atrium.request("GET", "/hub/v1/demo/admin/workspaces?expired=true", { token: admin.token })
    expect(expired.status).toBe(200)
    expect(expired.body.items.map((d: { id: string }) => d.id)).toEqual([created.body.id])
    const purged = await atrium.request("POST", "/hub/v1/demo/admin/purge", { token: admin.token })
    expect(purged.body.purged).toBe(1)
    expect((await atrium.request("GET", `/hub/v1/workspaces/${created.body.workspaceId}`, { token: owner.token })).status).toBe(404)
  })
})

describe("demo users", () => {
  it("gives a visitor a logged-in throwaway account that owns a seeded demo", async () => {
    const visitor = await atrium.request("POST", "/hub/v1/demo/users", { body: { name: "Visitor" } })
    expect(visitor.status, visitor.text).toBe(201)
    expect(visitor.body.email).toMatch(/@demo\.atrium\.local$/)
    const session = await atrium.request("GET", "/hub/v1/auth/session", { token: visitor.body.session.accessToken })
    expect(session.body.user.name).toBe("Visitor")
    const mine = await atrium.request("GET", "/hub/v1/demo/workspaces", { token: visitor.body.session.accessToken })
    expect(mine.body.items.map((d: { id: string }) => d.id)).toEqual([visitor.body.demo.id])
    const login = await atrium.request("POST", "/hub/v1/auth/login", {
      body: { email: visitor.body.email, password: visitor.body.password }
    })
    expect(login.status).toBe(200)
  })

  it("answers 429 once the hourly allowance is used", async () => {
    process.env.DEMO_USERS_PER_HOUR = "1"
    try {
      const refused = await atrium.request("POST", "/hub/v1/demo/users", { body: {} })
      expect(refused.status).toBe(429)
    } finally {
      delete process.env.DEMO_USERS_PER_HOUR
    }
  })
})
