/**
 * Platform administration: operator-only (ATRIUM_PLATFORM_ADMINS), refused
 * to ordinary users and API keys; users deactivated and reset, workspaces
 * suspended (their members refused with the reason) and resumed; stats,
 * growth, the audit trail and alert rules evaluated on read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atriumRegistry } from "../../../facade/operations.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"

let atrium: TestServer
let admin: Awaited<ReturnType<typeof signUp>>
let owner: Awaited<ReturnType<typeof signUp>>
let workspaceId: string
let apiKey: string

beforeAll(async () => {
  atrium = await startAtrium()
  admin = await signUp(atrium, "Operator")
  owner = await signUp(atrium, "Owner")
  process.env.ATRIUM_PLATFORM_ADMINS = ` ${admin.email.toUpperCase()} , someone@else.test`
  const ws = await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name: "Acme" } })
  workspaceId = ws.body.id
  const key = await atrium.request("POST", "/pm/v1/api-keys", {
    token: owner.token,
    body: { workspaceId, name: "k", scopes: ["tasks:read"] }
  })
  apiKey = key.body.key
}, 60_000)
afterAll(async () => {
  delete process.env.ATRIUM_PLATFORM_ADMINS
  await atrium?.close()
})

describe("operator operations", () => {
  it("every one is refused to ordinary users and to API keys with 403", async () => {
    const ops = atriumRegistry.operations.filter((op) => op.tag.startsWith("Admin - ") && op.path.startsWith("/v1/admin/"))
    expect(ops.map((op) => op.operationId).sort()).toEqual(
      [
        "createPlatformAlertRule",
        "deletePlatformAlertRule",
        "getPlatformGrowth",
        "getPlatformStats",
        "getPlatformUser",
        "getPlatformWorkspace",
        "listFailingAutomations",
        "listPlatformActivity",
        "listPlatformAlerts",
        "resetPlatformUserPassword",
        "searchPlatformUsers",
        "setPlatformUserStatus",
        "setPlatformWorkspaceSuspension"
      ].sort()
    )
    for (const op of ops) {
      const path = `/pm${op.path}`
        .replace("{workspaceId}", workspaceId)
        .replace("{userId}", owner.userId)
        .replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000")
      const body = op.examples[0]?.request?.body
      const asUser = await atrium.request(op.method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) })
      expect(asUser.status, `${op.operationId} as user: ${asUser.text}`).toBe(403)
      expect(asUser.body.error.message).toMatch(/platform admin/)
      const asKey = await atrium.request(op.method, path, { apiKey, ...(body !== undefined ? { body } : {}) })
      expect(asKey.status, `${op.operationId} as API key`).toBe(403)
    }
  })

  it("search, inspect, deactivate (sessions end, login refused), reactivate, reset the password", async () => {
    const found = await atrium.request("GET", `/pm/v1/admin/users?q=${encodeURIComponent(owner.email)}`, { token: admin.token })
    expect(found.status).toBe(200)
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([owner.userId])
    const detail = await atrium.request("GET", `/pm/v1/admin/users/${owner.userId}`, { token: admin.token })
    expect(detail.body.workspaces).toEqual([{ id: workspaceId, name: "Acme", role: "owner", owner: true }])
    expect(detail.body.liveSessions).toBe(1)

    const self = await atrium.request("PUT", `/pm/v1/admin/users/${admin.userId}/status`, { token: admin.token, body: { active: false } })
    expect(self.status).toBe(409)

    const off = await atrium.request("PUT", `/pm/v1/admin/users/${owner.userId}/status`, {
      token: admin.token,
      body: { active: false, reason: "Fraud check" }
    })
    expect(off.status).toBe(200)
    expect(off.body.sessionsEnded).toBe(1)
    expect(off.body.deactivatedReason).toBe("Fraud check")
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: owner.token })).status).toBe(401)
    const keyRefused = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/spaces`, { apiKey })
    expect(keyRefused.status).toBe(401)
    expect(keyRefused.body.error.message).toMatch(/owner is deactivated/)
    const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: owner.email, password: owner.password } })
    expect(login.status).toBe(403)
    expect(login.body.error.message).toMatch(/deactivated/)
    const deactivated = await atrium.request("GET", "/pm/v1/admin/users?status=deactivated", { token: admin.token })
    expect(deactivated.body.items.map((u: { id: string }) => u.id)).toContain(owner.userId)

    const on = await atrium.request("PUT", `/pm/v1/admin/users/${owner.userId}/status`, { token: admin.token, body: { active: true } })
    expect(on.body.deactivatedAt).toBeNull()
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}/spaces`, { apiKey })).status).toBe(200)
    const reset = await atrium.request("POST", `/pm/v1/admin/users/${owner.userId}/password-reset`, { token: admin.token, body: {} })
    expect(reset.status).toBe(200)
    expect(reset.body.temporaryPassword).toMatch(/^tmp-/)
    expect((await atrium.request("POST", "/pm/v1/auth/login", { body: { email: owner.email, password: owner.password } })).status).toBe(401)
    const again = await atrium.request("POST", "/pm/v1/auth/login", {
      body: { email: owner.email, password: reset.body.temporaryPassword }
    })
    expect(again.status).toBe(200)
    owner = { ...owner, token: again.body.accessToken }
    const missing = await atrium.request("GET", "/pm/v1/admin/users/00000000-0000-4000-8000-000000000000", { token: admin.token })
    expect(missing.status).toBe(404)
  })

  it("a suspended workspace refuses its members with the reason until resumed", async () => {
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}`, { token: owner.token })).status).toBe(200)
    const noReason = await atrium.request("PUT", `/pm/v1/admin/workspaces/${workspaceId}/suspension`, {
      token: admin.token,
      body: { suspended: true }
    })
    expect(noReason.status).toBe(400)
    expect(noReason.body.error.details[0].path).toBe("body.reason")
    const suspended = await atrium.request("PUT", `/pm/v1/admin/workspaces/${workspaceId}/suspension`, {
      token: admin.token,
      body: { suspended: true, reason: "Unpaid invoices" }
    })
    expect(suspended.status).toBe(200)
    expect(suspended.body.status).toBe("suspended")
    const refused = await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}`, { token: owner.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/suspended \(Unpaid invoices\)/)
    const inspected = await atrium.request("GET", `/pm/v1/admin/workspaces/${workspaceId}`, { token: admin.token })
    expect(inspected.body.suspension.reason).toBe("Unpaid invoices")
    expect(inspected.body.owner.id).toBe(owner.userId)
    await atrium.request("PUT", `/pm/v1/admin/workspaces/${workspaceId}/suspension`, { token: admin.token, body: { suspended: false } })
    expect((await atrium.request("GET", `/pm/v1/workspaces/${workspaceId}`, { token: owner.token })).status).toBe(200)
  })

  it("stats, growth and the audit trail", async () => {
    const stats = await atrium.request("GET", "/pm/v1/admin/stats?windowDays=7", { token: admin.token })
    expect(stats.status).toBe(200)
    expect(stats.body.users.total).toBeGreaterThanOrEqual(2)
    expect(stats.body.workspaces.total).toBeGreaterThanOrEqual(1)
    expect(stats.body.requestsLastHour.total).toBeGreaterThan(0)
    const growth = await atrium.request("GET", "/pm/v1/admin/stats/growth?days=3", { token: admin.token })
    expect(growth.body.days).toHaveLength(3)
    expect(growth.body.days[2].users).toBeGreaterThanOrEqual(2)
    const activity = await atrium.request("GET", `/pm/v1/admin/activity?workspaceId=${workspaceId}`, { token: admin.token })
    expect(activity.body.items.map((e: { action: string }) => e.action)).toEqual(["workspace.resumed", "workspace.suspended"])
    const page = await atrium.request("GET", "/pm/v1/admin/activity?limit=1", { token: admin.token })
    expect(page.body.nextBefore).toBe(page.body.items[0].id)
    const bad = await atrium.request("GET", "/pm/v1/admin/activity?limit=0", { token: admin.token })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("query.limit")
  })

  it("alert rules are evaluated on read, over the request counters, the dead-letter queue and automation runs", async () => {
    const rule = await atrium.request("POST", "/pm/v1/admin/alerts/rules", {
      token: admin.token,
      body: { name: "Any client error", metric: "error_rate", threshold: 0, windowMinutes: 60 }
    })
    expect(rule.status).toBe(201)
    await atrium.request("POST", "/pm/v1/admin/alerts/rules", {
      token: admin.token,
      body: { name: "DLQ", metric: "dlq_depth", threshold: 10 }
    })
    await atrium.request("POST", "/pm/v1/admin/alerts/rules", {
      token: admin.token,
      body: { name: "Automations", metric: "automation_failures", threshold: 0, windowMinutes: 60 }
    })
    const alerts = await atrium.request("GET", "/pm/v1/admin/alerts", { token: admin.token })
    const byName = Object.fromEntries(alerts.body.items.map((r: { name: string }) => [r.name, r]))
    expect(byName["Any client error"].state).toBe("firing")
    expect(byName["Any client error"].value).toBeGreaterThan(0)
    expect(byName.DLQ).toMatchObject({ state: "ok", value: 0 })
    expect(byName.Automations).toMatchObject({ state: "ok", value: 0 })
    expect(alerts.body.firing).toBe(1)
    expect((await atrium.request("DELETE", `/pm/v1/admin/alerts/rules/${rule.body.id}`, { token: admin.token })).status).toBe(204)
    expect((await atrium.request("DELETE", `/pm/v1/admin/alerts/rules/${rule.body.id}`, { token: admin.token })).status).toBe(404)
    const wrong = await atrium.request("POST", "/pm/v1/admin/alerts/rules", {
      token: admin.token,
      body: { name: "x", metric: "cpu", threshold: 1 }
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details[0].path).toBe("body.metric")
  })
})
