/**
 * pm organization on PostgreSQL (its own throwaway database): the SQL of
 * favorites, public links, invitations and joining by domain, search,
 * statistics and the agent context, as PGlite runs it in the other files.
 * Skipped loudly without PostgreSQL unless ATRIUM_REQUIRE_SERVICES=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp } from "../../support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../../support/database.ts"
import { type PmAtrium, setupWorkspace, startPmAtrium } from "../work/support/pmAtrium.ts"
import { auditOf, buildHierarchy, caller, qs } from "./support.ts"

const available = await checkPostgres("pm organization on PostgreSQL")

describe.skipIf(!available)("pm organization on PostgreSQL", () => {
  let database: TestDatabase
  let atrium: PmAtrium
  let w: Awaited<ReturnType<typeof setupWorkspace>>
  let h: Awaited<ReturnType<typeof buildHierarchy>>
  beforeAll(async () => {
    database = await createTestDatabase()
    atrium = await startPmAtrium({ databaseUrl: database.url })
    w = await setupWorkspace(atrium)
    h = await buildHierarchy(atrium, w)
  })
  afterAll(async () => {
    await atrium?.close()
    await database?.drop()
  })

  it("favorites, public links, context, search, statistics", async () => {
    const { call } = caller(atrium)
    const ws = w.workspaceId
    await call("POST", `/workspaces/${ws}/favorites`, w.member.token, { type: "task", id: h.task.id }, 201)
    expect((await call("GET", `/workspaces/${ws}/favorites`, w.member.token)).items[0].path).toBe("Engineering / Roadmap / Backlog")
    const link = await call(
      "POST",
      `/tasks/${h.task.id}/share-links`,
      w.member.token,
      { includeSubtasks: true, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      201
    )
    const read = await atrium.request("GET", `/pm/v1/public/shared-tasks/${link.token}`)
    expect(read.status).toBe(200)
    expect(read.text).not.toMatch(/@example\.com/)
    expect((await call("GET", `/workspaces/${ws}/share-links?status=active`, w.viewer.token)).total).toBe(1)
    const context = await call("GET", `/lite/context?${qs({ workspaceId: ws })}`, w.member.token)
    expect(context.spaces[0].folders[0].lists[0].statuses.length).toBe(4)
    expect((await call("GET", `/workspaces/${ws}/search?${qs({ q: "log_n%" })}`, w.member.token)).items).toEqual([])
    expect((await call("GET", `/workspaces/${ws}/search?${qs({ q: "login" })}`, w.member.token)).items).toHaveLength(2)
    await call("PATCH", `/workspaces/${ws}/settings`, w.owner.token, { timeZone: "America/New_York", weekStart: "sunday" })
    const stats = await call("GET", `/workspaces/${ws}/stats`, w.member.token)
    expect(stats.tasks.total).toBe(3)
    expect((await call("GET", `/workspaces/${ws}/stats/throughput?days=2`, w.member.token)).days).toHaveLength(2)
    expect((await call("GET", `/workspaces/${ws}/members/${w.member.userId}/summary`, w.owner.token)).assigned.open).toBe(1)
  })

  it("invitations, joining by domain, the audit", async () => {
    const { call } = caller(atrium)
    const ws = w.workspaceId
    const carol = await signUp(atrium, "Carol")
    const invited = await call("POST", `/workspaces/${ws}/invitations`, w.owner.token, { email: carol.email, role: "member" }, 201)
    expect((await call("GET", "/workspace-invitations", carol.token)).items).toHaveLength(1)
    await call("POST", "/workspace-invitations/accept", carol.token, { token: invited.token })
    const owner = await signUp(atrium, "DomainOwner")
    const id = (await call("POST", "/workspaces", owner.token, { name: "Open" }, 201)).id
    await call("PATCH", `/workspaces/${id}/security`, owner.token, { autoJoinDomains: ["example.com"] })
    await call("PATCH", `/workspaces/${id}/features`, owner.token, { domainJoin: true })
    expect((await call("GET", "/workspaces/joinable", carol.token)).items.map((x: { id: string }) => x.id)).toEqual([id])
    await call("POST", `/workspaces/${id}/join`, carol.token)
    expect((await auditOf(atrium, ws, w.owner.token, { type: "member.joined" })).map((e) => e.data.via)).toEqual(["invitation"])
  })
})
