/**
 * The Workspaces tag, part 2: members (roles, removal, bulk changes,
 * deactivation, search, summaries, spaces, export, permissions),
 * invitations by e-mail (accept, decline, revoke, resend, expiry, domain
 * policy, seats), the invite link, guests with an end of access, joining by
 * e-mail domain, and the membership audit.
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

/** A fresh workspace owned by a fresh user. */
const fresh = async (name: string) => {
  const owner = await signUp(atrium, `${name}Owner`)
  const id = (await call("POST", "/workspaces", owner.token, { name }, 201)).id as string
  return { owner, id }
}

describe("members", () => {
  it("reads, searches, changes roles, summarizes, lists spaces, exports, removes, with the audit recording it", async () => {
    const ws = w.workspaceId
    expect(await call("GET", `/workspaces/${ws}/members/me`, w.member.token)).toMatchObject({
      userId: w.member.userId,
      role: "member",
      guest: false,
      guestExpiresAt: null
    })
    expect(await call("GET", `/workspaces/${ws}/members/${w.viewer.userId}`, w.member.token)).toMatchObject({
      email: w.viewer.email,
      role: "viewer"
    })
    await fail("GET", `/workspaces/${ws}/members/${w.outsider.userId}`, w.member.token, 404)
    await fail("GET", `/workspaces/${ws}/members/me`, w.outsider.token, 404)

    const search = await call("GET", `/workspaces/${ws}/members/search?${qs({ q: "VIEW" })}`, w.member.token)
    expect(search).toMatchObject({ total: 1, items: [{ userId: w.viewer.userId }] })
    expect(
      (await call("GET", `/workspaces/${ws}/members/search?${qs({ role: "owner" })}`, w.member.token)).items.map(
        (m: { userId: string }) => m.userId
      )
    ).toEqual([w.owner.userId])
    expect(await call("GET", `/workspaces/${ws}/members/search?${qs({ limit: 1, offset: 1 })}`, w.member.token)).toMatchObject({
      total: 3,
      offset: 1,
      limit: 1
    })

    await fail("PATCH", `/workspaces/${ws}/members/${w.viewer.userId}`, w.member.token, 403, { role: "member" })
    await fail("PATCH", `/workspaces/${ws}/members/${w.owner.userId}`, w.owner.token, 409, { role: "admin" })
    expect(await call("PATCH", `/workspaces/${ws}/members/${w.viewer.userId}`, w.owner.token, { role: "member" })).toMatchObject({
      role: "member"
    })
    await call("PATCH", `/workspaces/${ws}/members/${w.viewer.userId}`, w.owner.token, { role: "viewer" })

    await call("POST", `/tasks/${h.task.id}/comments`, w.member.token, { text: "on it" }, 201)
    const summary = await call("GET", `/workspaces/${ws}/members/${w.member.userId}/summary`, w.viewer.token)
    expect(summary).toMatchObject({
      member: { userId: w.member.userId },
      assigned: { open: 1, done: 0, overdue: 0 },
      comments: 1,
      created: 0
    })
    expect(summary.lastActiveAt).not.toBeNull()
    expect((await call("GET", `/workspaces/${ws}/members/${w.owner.userId}/summary`, w.viewer.token)).created).toBe(3) // the private space's task is not counted for the viewer

    await fail("GET", `/workspaces/${ws}/members/${w.member.userId}/spaces`, w.viewer.token, 403)
    expect(
      (await call("GET", `/workspaces/${ws}/members/${w.member.userId}/spaces`, w.member.token)).items.map(
        (s: { access: string }) => s.access
      )
    ).toEqual(["public"])
    expect(
      (await call("GET", `/workspaces/${ws}/members/${w.owner.userId}/spaces`, w.owner.token)).items.map(
        (s: { name: string; access: string }) => [s.name, s.access]
      )
    ).toEqual([
      ["Engineering", "public"],
      ["Engineering secret", "member"]
    ])

    await fail("GET", `/workspaces/${ws}/members/export`, w.member.token, 403)
    const exported = await atrium.request("GET", `/pm/v1/workspaces/${ws}/members/export`, { token: w.owner.token })
    expect(exported.headers.get("content-type")).toContain("text/csv")
    expect(exported.text.split("\r\n")[0]).toBe("email,name,role,guest,guestExpiresAt,addedAt")
    expect(exported.text).toContain(`${w.viewer.email},Viewer,viewer,false,,`)

    const perms = await call("GET", `/workspaces/${ws}/permissions`, w.viewer.token)
    expect(perms).toMatchObject({
      role: "viewer",
      guest: false,
      allowed: { "workspace.read": true, "tasks.write": false, "favorites.manage": true }
    })
    expect(perms.rules.find((r: { id: string }) => r.id === "workspace.delete").minimumRole).toBe("owner")

    const extra = await signUp(atrium, "Extra")
    await call("POST", `/workspaces/${ws}/members`, w.owner.token, { email: extra.email, role: "viewer" }, 201)
    await fail("DELETE", `/workspaces/${ws}/members/${extra.userId}`, w.member.token, 403)
    await call("DELETE", `/workspaces/${ws}/members/${extra.userId}`, w.owner.token, undefined, 204)
    await fail("GET", `/workspaces/${ws}`, extra.token, 404)

    await fail("GET", `/workspaces/${ws}/audit`, w.member.token, 403)
    const audit = await call("GET", `/workspaces/${ws}/audit?${qs({ type: "member" })}`, w.owner.token)
    expect(audit.items.map((e: { type: string }) => e.type).slice(0, 4)).toEqual([
      "member.removed",
      "member.added",
      "member.role_changed",
      "member.role_changed"
    ])
    expect(audit.items[0]).toMatchObject({
      user: { id: extra.userId, email: extra.email },
      by: { id: w.owner.userId, email: w.owner.email },
      data: { role: "viewer" }
    })
    expect(audit.items[2].data).toEqual({ from: "member", to: "viewer" })
    const page = await call("GET", `/workspaces/${ws}/audit?${qs({ limit: 2 })}`, w.owner.token)
    expect(page.items).toHaveLength(2)
    const next = await call("GET", `/workspaces/${ws}/audit?${qs({ limit: 2, before: page.nextBefore })}`, w.owner.token)
    expect(next.items[0].seq).toBeLessThan(page.items[1].seq)
    expect(
      (await call("GET", `/workspaces/${ws}/audit?${qs({ userId: extra.userId })}`, w.owner.token)).items.map(
        (e: { type: string }) => e.type
      )
    ).toEqual(["member.removed", "member.added"])
    await fail("GET", `/workspaces/${ws}/audit?type=task`, w.owner.token, 400)
  })

  it("adds and removes in bulk, row by row; deactivates and reactivates with the kept role", async () => {
    const { owner, id } = await fresh("Bulk")
    const a = await signUp(atrium, "BulkA")
    const b = await signUp(atrium, "BulkB")
    const added = await call("POST", `/workspaces/${id}/members/bulk`, owner.token, {
      members: [
        { email: a.email, role: "admin" },
        { email: "ghost@example.com", role: "member" },
        { email: b.email, role: "viewer" },
        { email: a.email, role: "member" }
      ]
    })
    expect(added.items.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true, false])
    expect(added.items[1].error.code).toBe("not_found")
    expect(added.items[3].error.code).toBe("conflict")
    expect(added.items[0].member).toMatchObject({ userId: a.userId, role: "admin" })
    await fail("POST", `/workspaces/${id}/members/bulk`, b.token, 403, { members: [{ email: w.outsider.email, role: "viewer" }] })

    await fail("POST", `/workspaces/${id}/members/${a.userId}/deactivate`, a.token, 409)
    await fail("POST", `/workspaces/${id}/members/${owner.userId}/deactivate`, a.token, 409)
    const deactivated = await call("POST", `/workspaces/${id}/members/${a.userId}/deactivate`, owner.token)
    expect(deactivated).toMatchObject({ userId: a.userId, role: "admin", email: a.email, deactivatedBy: owner.userId })
    await fail("GET", `/workspaces/${id}`, a.token, 404)
    expect(
      (await call("GET", `/workspaces/${id}/members/deactivated`, owner.token)).items.map((d: { userId: string }) => d.userId)
    ).toEqual([a.userId])
    await fail("POST", `/workspaces/${id}/members/${b.userId}/reactivate`, owner.token, 404)
    expect(await call("POST", `/workspaces/${id}/members/${a.userId}/reactivate`, owner.token)).toMatchObject({
      userId: a.userId,
      role: "admin"
    })
    expect((await call("GET", `/workspaces/${id}/members/deactivated`, owner.token)).items).toEqual([])

    const removed = await call("POST", `/workspaces/${id}/members/bulk-remove`, owner.token, {
      userIds: [b.userId, owner.userId, w.outsider.userId]
    })
    expect(removed.items.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false])
    expect(removed.items[1].error.code).toBe("conflict")
    expect(removed.items[2].error.code).toBe("not_found")
    const audit = await auditOf(atrium, id, owner.token)
    expect(audit.map((e) => e.type)).toEqual([
      "workspace.created",
      "member.added",
      "member.added",
      "member.removed",
      "member.joined",
      "member.removed"
    ])
    expect(audit[3].data).toMatchObject({ role: "admin", reason: "deactivated" })
    expect(audit[4]).toMatchObject({ by: { id: owner.userId }, user: { id: a.userId }, data: { role: "admin", via: "reactivation" } })
  })
})

describe("invitations", () => {
  it("invites by e-mail; the invitee previews, lists and accepts; tokens are single-purpose and hashed", async () => {
    const { owner, id } = await fresh("Invites")
    const carol = await signUp(atrium, "Carol")
    const dave = await signUp(atrium, "Dave")
    const created = await call(
      "POST",
      `/workspaces/${id}/invitations`,
      owner.token,
      { email: carol.email.toUpperCase(), role: "member", message: "Welcome" },
      201
    )
    expect(created.invitation).toMatchObject({
      email: carol.email,
      role: "member",
      status: "pending",
      invitedBy: { id: owner.userId },
      message: "Welcome"
    })
    expect(created.token).toMatch(/^pminv_/)
    await fail("POST", `/workspaces/${id}/invitations`, owner.token, 409, { email: carol.email, role: "viewer" })
    await fail("POST", `/workspaces/${id}/invitations`, owner.token, 409, { email: owner.email, role: "viewer" })
    expect(JSON.stringify(await atrium.sql("SELECT * FROM pm_workspace_invitations"))).not.toContain(created.token)

    const preview = await atrium.request("GET", `/pm/v1/workspace-invitations/preview?${qs({ token: created.token })}`)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ workspaceName: "Invites", invitedBy: "InvitesOwner", role: "member", status: "pending" })
    expect(preview.body.emailHint).not.toBe(carol.email)
    expect((await atrium.request("GET", `/pm/v1/workspace-invitations/preview?${qs({ token: `pminv_${"x".repeat(43)}` })}`)).status).toBe(
      404
    )

    expect((await call("GET", "/workspace-invitations", carol.token)).items).toEqual([
      expect.objectContaining({ id: created.invitation.id, workspaceName: "Invites" })
    ])
    expect((await call("GET", "/workspace-invitations", dave.token)).items).toEqual([])
    // Someone else's token is not theirs to use.
    await fail("POST", "/workspace-invitations/accept", dave.token, 404, { token: created.token })
    const joined = await call("POST", "/workspace-invitations/accept", carol.token, { token: created.token })
    expect(joined.workspace).toMatchObject({ id, role: "member" })
    expect(joined.member).toMatchObject({ userId: carol.userId, role: "member", guest: false })
    await fail("POST", "/workspace-invitations/accept", carol.token, 409, { token: created.token })
    expect(
      (await call("GET", `/workspaces/${id}/invitations?status=accepted`, owner.token)).items.map((i: { id: string }) => i.id)
    ).toEqual([created.invitation.id])

    // By id, from the in-app list; and declining.
    const forDave = await call("POST", `/workspaces/${id}/invitations`, owner.token, { email: dave.email, role: "viewer" }, 201)
    await fail("POST", `/workspace-invitations/${forDave.invitation.id}/accept`, carol.token, 404)
    await fail("POST", `/workspace-invitations/${forDave.invitation.id}/decline`, carol.token, 404)
    expect(await call("POST", `/workspace-invitations/${forDave.invitation.id}/decline`, dave.token)).toMatchObject({ status: "declined" })
    await fail("POST", `/workspace-invitations/${forDave.invitation.id}/accept`, dave.token, 409)
    const again = await call("POST", `/workspaces/${id}/invitations`, owner.token, { email: dave.email, role: "viewer" }, 201)
    expect((await call("POST", `/workspace-invitations/${again.invitation.id}/accept`, dave.token)).member.role).toBe("viewer")
    const types = (await atrium.changes(id)).map((e) => e.type)
    expect(types).toEqual([
      "invitation.created",
      "invitation.accepted",
      "invitation.created",
      "invitation.declined",
      "invitation.created",
      "invitation.accepted"
    ])
    const joins = await auditOf(atrium, id, owner.token, { type: "member.joined" })
    expect(joins.map((e) => [e.user?.id, e.by.id, e.data.via])).toEqual([
      [carol.userId, owner.userId, "invitation"],
      [dave.userId, owner.userId, "invitation"]
    ])
  })

  it("manages pending invitations: update, resend (new token), revoke; expiry; who may invite; domains; seats", async () => {
    const { owner, id } = await fresh("Manage")
    const erin = await signUp(atrium, "Erin")
    const member = await signUp(atrium, "Mem")
    await call("POST", `/workspaces/${id}/members`, owner.token, { email: member.email, role: "member" }, 201)
    // Members invite only when the policy allows, and never admins or guests.
    await fail("POST", `/workspaces/${id}/invitations`, member.token, 403, { email: erin.email, role: "member" })
    await call("PATCH", `/workspaces/${id}/security`, owner.token, { membersCanInvite: true })
    await fail("POST", `/workspaces/${id}/invitations`, member.token, 403, { email: erin.email, role: "admin" })
    const byMember = await call("POST", `/workspaces/${id}/invitations`, member.token, { email: erin.email, role: "viewer" }, 201)
    expect((await call("GET", `/workspaces/${id}/invitations`, member.token)).items.map((i: { id: string }) => i.id)).toEqual([
      byMember.invitation.id
    ])
    expect(await call("GET", `/workspaces/${id}/invitations/${byMember.invitation.id}`, owner.token)).toMatchObject({ role: "viewer" })
    await fail("PATCH", `/workspaces/${id}/invitations/${byMember.invitation.id}`, member.token, 403, { role: "admin" })
    expect(
      await call("PATCH", `/workspaces/${id}/invitations/${byMember.invitation.id}`, member.token, { role: "member", message: "Hi" })
    ).toMatchObject({ role: "member", message: "Hi" })

    const resent = await call("POST", `/workspaces/${id}/invitations/${byMember.invitation.id}/resend`, owner.token)
    expect(resent.invitation.resendCount).toBe(1)
    expect(resent.token).not.toBe(byMember.token)
    await fail("POST", "/workspace-invitations/accept", erin.token, 404, { token: byMember.token })

    // Expiry: an expired invitation cannot be accepted; resending revives it.
    await atrium.sql("UPDATE pm_workspace_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [byMember.invitation.id])
    expect((await call("GET", `/workspaces/${id}/invitations?status=expired`, owner.token)).items).toHaveLength(1)
    expect((await call("GET", "/workspace-invitations", erin.token)).items).toEqual([])
    await fail("POST", "/workspace-invitations/accept", erin.token, 409, { token: resent.token })
    const revived = await call("POST", `/workspaces/${id}/invitations/${byMember.invitation.id}/resend`, owner.token)
    expect(revived.invitation.status).toBe("pending")

    const revoked = await call("DELETE", `/workspaces/${id}/invitations/${byMember.invitation.id}`, owner.token)
    expect(revoked.status).toBe("revoked")
    await fail("DELETE", `/workspaces/${id}/invitations/${byMember.invitation.id}`, owner.token, 409)
    await fail("POST", "/workspace-invitations/accept", erin.token, 409, { token: revived.token })

    // Allowed domains, and seats reserved by pending invitations.
    await call("PATCH", `/workspaces/${id}/security`, owner.token, { allowedEmailDomains: ["acme.test"] })
    const outside = await fail("POST", `/workspaces/${id}/invitations`, owner.token, 400, { email: erin.email, role: "member" })
    expect(outside.error.details[0].path).toBe("body.email")
    await call("PATCH", `/workspaces/${id}/security`, owner.token, { allowedEmailDomains: [] })
    await call("PUT", `/workspaces/${id}/seat-limit`, owner.token, { seatLimit: 3 })
    await call("POST", `/workspaces/${id}/invitations`, owner.token, { email: erin.email, role: "member" }, 201)
    await fail("POST", `/workspaces/${id}/invitations`, owner.token, 409, { email: "frank@example.com", role: "member" })
    const bulk = await call("POST", `/workspaces/${id}/invitations/bulk`, owner.token, {
      invitations: [
        { email: "gina@example.com", role: "viewer", guest: { expiresAt: null } },
        { email: "hal@example.com", role: "member" }
      ]
    })
    expect(bulk.items[0]).toMatchObject({ email: "gina@example.com", invitation: { guest: true } })
    expect(bulk.items[1].error.code).toBe("conflict")
  })

  it("the invite link: admins make one (shown once), people join with it until it is used up or disabled", async () => {
    const { owner, id } = await fresh("Linked")
    const ivy = await signUp(atrium, "Ivy")
    const jon = await signUp(atrium, "Jon")
    expect((await call("GET", `/workspaces/${id}/invite-link`, owner.token)).enabled).toBe(false)
    const made = await call("POST", `/workspaces/${id}/invite-link`, owner.token, { role: "viewer", maxUses: 1 }, 201)
    expect(made.code).toMatch(/^pmjoin_/)
    expect(made.link).toMatchObject({ enabled: true, role: "viewer", maxUses: 1, uses: 0 })
    const joined = await call("POST", "/workspace-invitations/join", ivy.token, { code: made.code })
    expect(joined.member).toMatchObject({ userId: ivy.userId, role: "viewer" })
    await fail("POST", "/workspace-invitations/join", jon.token, 404, { code: made.code })
    expect(await call("GET", `/workspaces/${id}/invite-link`, owner.token)).toMatchObject({ enabled: false, uses: 1 })
    await fail("GET", `/workspaces/${id}/invite-link`, ivy.token, 403)

    const second = await call("POST", `/workspaces/${id}/invite-link`, owner.token, {}, 201)
    await fail("POST", "/workspace-invitations/join", ivy.token, 409, { code: second.code })
    await call("DELETE", `/workspaces/${id}/invite-link`, owner.token, undefined, 204)
    await fail("DELETE", `/workspaces/${id}/invite-link`, owner.token, 404)
    await fail("POST", "/workspace-invitations/join", jon.token, 404, { code: second.code })
    await call("PATCH", `/workspaces/${id}/features`, owner.token, { inviteLinks: false })
    await fail("POST", `/workspaces/${id}/invite-link`, owner.token, 403, {})
    await fail("POST", "/workspace-invitations/join", jon.token, 400, { code: "nope" })
  })
})

describe("guests and joining", () => {
  it("guests: added with an end of access and private spaces, listed, extended, converted, removed; expired guests lose access", async () => {
    const ws = w.workspaceId
    const kim = await signUp(atrium, "Kim")
    const leo = await signUp(atrium, "Leo")
    const badSpace = await fail("POST", `/workspaces/${ws}/guests`, w.owner.token, 400, { email: kim.email, spaceIds: [h.space.id] })
    expect(badSpace.error.details[0].path).toBe("body.spaceIds.0")
    await fail("POST", `/workspaces/${ws}/guests`, w.member.token, 403, { email: kim.email })
    await fail("POST", `/workspaces/${ws}/guests`, w.owner.token, 400, { email: kim.email, expiresAt: "2020-01-01T00:00:00Z" })
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString()
    const guest = await call(
      "POST",
      `/workspaces/${ws}/guests`,
      w.owner.token,
      { email: kim.email, expiresAt: until, spaceIds: [h.secret.id] },
      201
    )
    expect(guest).toMatchObject({
      userId: kim.userId,
      role: "viewer",
      guest: true,
      guestExpiresAt: until,
      spaces: [{ id: h.secret.id, name: "Engineering secret" }]
    })
    // The guest sees the private space they were let into.
    expect(
      (await call("GET", `/lite/context?${qs({ workspaceId: ws })}`, kim.token)).spaces.map((s: { name: string }) => s.name)
    ).toContain("Engineering secret")
    expect((await call("GET", `/workspaces/${ws}/guests`, w.member.token)).items.map((g: { userId: string }) => g.userId)).toEqual([
      kim.userId
    ])
    expect((await call("GET", `/workspaces/${ws}/permissions`, kim.token)).guest).toBe(true)
    await fail("PATCH", `/workspaces/${ws}/members/${kim.userId}`, w.owner.token, 409, { role: "admin" })
    await fail("PATCH", `/workspaces/${ws}/guests/${w.member.userId}`, w.owner.token, 404, { expiresAt: null })
    expect(await call("PATCH", `/workspaces/${ws}/guests/${kim.userId}`, w.owner.token, { expiresAt: null })).toMatchObject({
      guestExpiresAt: null
    })
    expect(await call("POST", `/workspaces/${ws}/guests/${kim.userId}/convert`, w.owner.token, { role: "member" })).toMatchObject({
      role: "member",
      guest: false
    })
    await fail("DELETE", `/workspaces/${ws}/guests/${kim.userId}`, w.owner.token, 404)

    const brief = await call("POST", `/workspaces/${ws}/guests`, w.owner.token, { email: leo.email, role: "member" }, 201)
    expect(brief.guestExpiresAt).toBeNull()
    await call("DELETE", `/workspaces/${ws}/guests/${leo.userId}`, w.owner.token, undefined, 204)
    const ends = Date.now() + 2000
    await call("POST", `/workspaces/${ws}/guests`, w.owner.token, { email: leo.email, expiresAt: new Date(ends).toISOString() }, 201)
    expect((await call("GET", `/workspaces/${ws}`, leo.token)).role).toBe("viewer")
    // Once the end of access has passed, the guest is out (whoever asks first).
    while (Date.now() <= ends + 50) await new Promise((resolve) => setTimeout(resolve, 100))
    await fail("GET", `/workspaces/${ws}`, leo.token, 404)
    expect((await call("GET", `/workspaces/${ws}/guests`, w.owner.token)).items.map((g: { userId: string }) => g.userId)).not.toContain(
      leo.userId
    )
    expect((await call("GET", `/workspaces/${ws}/members`, w.owner.token)).items.map((m: { userId: string }) => m.userId)).not.toContain(
      leo.userId
    )

    await call("PATCH", `/workspaces/${ws}/features`, w.owner.token, { guests: false })
    await fail("POST", `/workspaces/${ws}/guests`, w.owner.token, 403, { email: leo.email })
    await call("PATCH", `/workspaces/${ws}/features`, w.owner.token, { guests: true })
    expect((await auditOf(atrium, ws, w.owner.token, { userId: kim.userId })).map((e) => e.type)).toEqual([
      "member.joined",
      "guest.updated",
      "guest.converted",
      "member.role_changed"
    ])
    const leoAudit = await auditOf(atrium, ws, w.owner.token, { userId: leo.userId })
    expect(leoAudit.map((e) => e.type)).toEqual(["member.joined", "member.removed", "member.joined", "guest.expired"])
    expect(leoAudit[0].data).toMatchObject({ via: "guest", guest: true, role: "member" })
  })

  it("joining by e-mail domain: listed when open to the caller's domain, joined with the policy's role", async () => {
    const { owner, id } = await fresh("Domain")
    const mia = await signUp(atrium, "Mia")
    expect((await call("GET", "/workspaces/joinable", mia.token)).items).toEqual([])
    await call("PATCH", `/workspaces/${id}/security`, owner.token, { autoJoinDomains: ["example.com"], autoJoinRole: "viewer" })
    expect((await call("GET", "/workspaces/joinable", mia.token)).items).toEqual([]) // the feature is still off
    await fail("POST", `/workspaces/${id}/join`, mia.token, 404)
    await call("PATCH", `/workspaces/${id}/features`, owner.token, { domainJoin: true })
    expect((await call("GET", "/workspaces/joinable", mia.token)).items).toEqual([{ id, name: "Domain", role: "viewer", memberCount: 1 }])
    const joined = await call("POST", `/workspaces/${id}/join`, mia.token)
    expect(joined.member).toMatchObject({ userId: mia.userId, role: "viewer" })
    expect((await call("GET", "/workspaces/joinable", mia.token)).items).toEqual([])
    await fail("POST", `/workspaces/${id}/join`, mia.token, 404)
    expect((await auditOf(atrium, id, owner.token, { type: "member.joined" }))[0]!).toMatchObject({
      user: { id: mia.userId },
      data: { via: "domain", role: "viewer" }
    })
  })
})
