/**
 * hub Auth Resource, Email Resource and workspace invitations (V1) against a
 * local SMTP sink: sessions, password reset and e-mail verification by mailed
 * single-use tokens, the outbox each user reads, invitations from invite to
 * accept (and everything that must refuse on the way).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { retryFailedMail } from "../../../actors/hub/Mail.ts"
import { signUp, startAtrium, type TestServer } from "../../support/atrium.ts"
import { eventually } from "../support/receiver.ts"
import { startSmtpSink } from "../../support/SmtpSink.ts"

let atrium: TestServer
let sink: Awaited<ReturnType<typeof startSmtpSink>>
let refuseMail = false

beforeAll(async () => {
  sink = await startSmtpSink({ refuse: () => refuseMail })
  process.env.SMTP_URL = sink.url
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
  await sink?.close()
  delete process.env.SMTP_URL
})

const mails = async (token: string, kind?: string) => {
  const response = await atrium.request("GET", `/hub/v1/emails${kind ? `?kind=${kind}` : ""}`, { token })
  expect(response.status, response.text).toBe(200)
  return response.body.items as Array<{ to: string; kind: string; subject: string; text: string; status: string; lastError: string | null }>
}
const tokenIn = (text: string, prefix: string) => new RegExp(`${prefix}[A-Za-z0-9_.-]+`).exec(text)![0]

describe("hub sessions", () => {
  it("logs in, shows the session, refreshes once per token, logs out", async () => {
    const user = await signUp(atrium, "Sess")
    const login = await atrium.request("POST", "/hub/v1/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { "user-agent": "vitest-browser" }
    })
    expect(login.status, login.text).toBe(200)
    const session = await atrium.request("GET", "/hub/v1/auth/session", { token: login.body.accessToken })
    expect(session.status).toBe(200)
    expect(session.body.user.email).toBe(user.email)
    expect(session.body.emailVerifiedAt).toBeNull()
    expect(session.body.session.userAgent).toBe("vitest-browser")
    expect(session.body.session.current).toBe(true)

    const refreshed = await atrium.request("POST", "/hub/v1/auth/refresh", { body: { refreshToken: login.body.refreshToken } })
    expect(refreshed.status).toBe(200)
    const reused = await atrium.request("POST", "/hub/v1/auth/refresh", { body: { refreshToken: login.body.refreshToken } })
    expect(reused.status).toBe(401)

    const fresh = await atrium.request("POST", "/hub/v1/auth/login", { body: { email: user.email, password: user.password } })
    expect((await atrium.request("POST", "/hub/v1/auth/logout", { token: fresh.body.accessToken })).status).toBe(204)
    expect((await atrium.request("GET", "/hub/v1/auth/session", { token: fresh.body.accessToken })).status).toBe(401)
    const wrong = await atrium.request("POST", "/hub/v1/auth/login", { body: { email: user.email, password: "not the password" } })
    expect(wrong.status).toBe(401)
  })

  it("refuses API keys on session operations", async () => {
    const user = await signUp(atrium, "Keyed")
    const ws = await atrium.request("POST", "/hub/v1/workspaces", { token: user.token, body: { name: "Keyed" } })
    const key = await atrium.request("POST", "/pm/v1/api-keys", {
      token: user.token,
      body: { workspaceId: ws.body.id, name: "k", scopes: ["workspaces:read"] }
    })
    expect(key.status, key.text).toBe(201)
    expect((await atrium.request("GET", "/hub/v1/auth/session", { apiKey: key.body.key })).status).toBe(403)
    expect((await atrium.request("GET", "/hub/v1/emails", { apiKey: key.body.key })).status).toBe(403)
  })
})

describe("password reset by e-mail", () => {
  it("mails a single-use token through SMTP; it sets the password and ends every session", async () => {
    const user = await signUp(atrium, "Forgetful")
    const before = sink.received.length
    const asked = await atrium.request("POST", "/hub/v1/auth/password-reset", { body: { email: user.email.toUpperCase() } })
    expect(asked.status).toBe(202)
    const unknown = await atrium.request("POST", "/hub/v1/auth/password-reset", { body: { email: "nobody-here@example.com" } })
    expect(unknown.status).toBe(202)
    expect(unknown.body).toEqual(asked.body)
    // The mail goes out from the outbox after the reply; the unknown address gets none, nor a token.
    await eventually(() => sink.received.length > before, "the reset mail")
    expect(sink.received.slice(before).map((m) => m.to)).toEqual([[user.email]])
    expect(await atrium.sql("SELECT 1 FROM hub_mail_outbox WHERE recipient = 'nobody-here@example.com'")).toEqual([])
    expect(await atrium.sql("SELECT 1 FROM hub_email_tokens WHERE email = 'nobody-here@example.com'")).toEqual([])

    const [mail] = await mails(user.token, "password_reset")
    expect(mail!.status).toBe("sent")
    const token = tokenIn(mail!.text, "hrst_")
    const confirmed = await atrium.request("POST", "/hub/v1/auth/password-reset/confirm", {
      body: { token, newPassword: "a brand new passphrase" }
    })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.body.sessionsEnded).toBeGreaterThanOrEqual(1)
    expect((await atrium.request("GET", "/hub/v1/auth/session", { token: user.token })).status).toBe(401)
    const again = await atrium.request("POST", "/hub/v1/auth/password-reset/confirm", {
      body: { token, newPassword: "another passphrase" }
    })
    expect(again.status).toBe(400)
    expect(again.body.error.details[0].path).toBe("body.token")
    expect((await atrium.request("POST", "/hub/v1/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(401)
    const login = await atrium.request("POST", "/hub/v1/auth/login", { body: { email: user.email, password: "a brand new passphrase" } })
    expect(login.status).toBe(200)
  })

  it("names the field of a malformed token and a short password", async () => {
    const bad = await atrium.request("POST", "/hub/v1/auth/password-reset/confirm", { body: { token: "nope", newPassword: "x" } })
    expect(bad.status).toBe(400)
    const paths = bad.body.error.details.map((d: { path: string }) => d.path)
    expect(paths.some((p: string) => p.includes("token") || p.includes("newPassword"))).toBe(true)
  })

  it("keeps a mail the SMTP server refused in the outbox, marked failed with the reason", async () => {
    const user = await signUp(atrium, "Bounced")
    refuseMail = true
    try {
      expect((await atrium.request("POST", "/hub/v1/auth/password-reset", { body: { email: user.email } })).status).toBe(202)
      await eventually(async () => (await mails(user.token, "password_reset"))[0]?.status === "failed", "the refused hand-over")
    } finally {
      refuseMail = false
    }
    const [mail] = await mails(user.token, "password_reset")
    expect(mail!.status).toBe("failed")
    expect(mail!.lastError).toContain("mailbox unavailable")

    // The retry pass (every MAIL_RETRY_SECONDS) sends it once the server takes mail again.
    await atrium.sql("UPDATE hub_mail_outbox SET created_at = now() - interval '1 minute' WHERE recipient = $1", [user.email])
    const delivered = sink.received.length
    expect(await atrium.run(retryFailedMail())).toBeGreaterThanOrEqual(1)
    const [retried] = await mails(user.token, "password_reset")
    expect(retried).toMatchObject({ status: "sent", attempts: 2, lastError: null })
    expect(sink.received.slice(delivered).some((m) => m.to.includes(user.email))).toBe(true)
  })
})

describe("e-mail verification", () => {
  it("verifies the address with the mailed token once; asking again sends nothing", async () => {
    const user = await signUp(atrium, "Verify")
    const asked = await atrium.request("POST", "/hub/v1/auth/email-verification", { token: user.token })
    expect(asked.status).toBe(202)
    expect(asked.body).toEqual({ sentTo: user.email, alreadyVerified: false })
    const token = tokenIn((await mails(user.token, "email_verification"))[0]!.text, "hvrf_")
    const confirmed = await atrium.request("POST", "/hub/v1/auth/email-verification/confirm", { body: { token } })
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.body.email).toBe(user.email)
    expect((await atrium.request("GET", "/hub/v1/auth/session", { token: user.token })).body.emailVerifiedAt).toBe(
      confirmed.body.emailVerifiedAt
    )
    expect((await atrium.request("POST", "/hub/v1/auth/email-verification/confirm", { body: { token } })).status).toBe(400)
    const again = await atrium.request("POST", "/hub/v1/auth/email-verification", { token: user.token })
    expect(again.body.alreadyVerified).toBe(true)
    expect(await mails(user.token, "email_verification")).toHaveLength(1)
  })
})

describe("workspace invitations", () => {
  it("invites by e-mail, shows only workspace and inviter publicly, and lets only the invitee accept once", async () => {
    const owner = await signUp(atrium, "Owner")
    const invitee = await signUp(atrium, "Invitee")
    const stranger = await signUp(atrium, "Stranger")
    const ws = (await atrium.request("POST", "/hub/v1/workspaces", { token: owner.token, body: { name: "Invite Co" } })).body
    const base = `/hub/v1/workspaces/${ws.id}/invitations`

    const created = await atrium.request("POST", base, {
      token: owner.token,
      body: { email: invitee.email, role: "viewer", expiresInDays: 3 }
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ email: invitee.email, role: "viewer", status: "pending", invitedBy: { id: owner.userId } })
    expect(JSON.stringify(created.body)).not.toContain("hinv_")
    const duplicate = await atrium.request("POST", base, { token: owner.token, body: { email: invitee.email, role: "member" } })
    expect(duplicate.status).toBe(409)

    const token = tokenIn((await mails(invitee.token, "invitation"))[0]!.text, "hinv_")
    const face = await atrium.request("GET", `/hub/v1/public/invitations/${token}`)
    expect(face.status).toBe(200)
    expect(face.body).toEqual({ workspaceName: "Invite Co", inviterName: "Owner" })

    // Members below admin and strangers cannot manage; the listing is the admin's.
    expect((await atrium.request("GET", base, { token: stranger.token })).status).toBe(404)
    const listed = await atrium.request("GET", `${base}?status=pending`, { token: owner.token })
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([created.body.id])
    // One aggregate: pm's routes see the hub's invitation, and answer for its address as already invited.
    const inPm = await atrium.request("GET", `/pm/v1/workspaces/${ws.id}/invitations`, { token: owner.token })
    expect(inPm.body.items.map((i: { id: string }) => i.id)).toEqual([created.body.id])
    const again = await atrium.request("POST", `/pm/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email: invitee.email, role: "member" }
    })
    expect(again.status).toBe(409)

    const changed = await atrium.request("PATCH", `${base}/${created.body.id}`, { token: owner.token, body: { role: "member" } })
    expect(changed.body.role).toBe("member")

    expect((await atrium.request("POST", "/hub/v1/invitations/accept", { token: stranger.token, body: { token } })).status).toBe(403)
    const accepted = await atrium.request("POST", "/hub/v1/invitations/accept", { token: invitee.token, body: { token } })
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.body).toMatchObject({ workspaceId: ws.id, workspaceName: "Invite Co", role: "member" })
    const members = await atrium.request("GET", `/hub/v1/workspaces/${ws.id}/members`, { token: invitee.token })
    expect(members.body.items.map((m: { email: string }) => m.email)).toContain(invitee.email)
    expect((await atrium.request("POST", "/hub/v1/invitations/accept", { token: invitee.token, body: { token } })).status).toBe(404)
    expect((await atrium.request("GET", `/hub/v1/public/invitations/${token}`)).status).toBe(404)
    expect((await atrium.request("GET", `${base}/${created.body.id}`, { token: owner.token })).body.status).toBe("accepted")
    // A member cannot be invited again.
    expect((await atrium.request("POST", base, { token: owner.token, body: { email: invitee.email, role: "member" } })).status).toBe(409)
  })

  it("resend replaces the link; revoke kills it", async () => {
    const owner = await signUp(atrium, "Admin")
    const ws = (await atrium.request("POST", "/hub/v1/workspaces", { token: owner.token, body: { name: "Resend Co" } })).body
    const base = `/hub/v1/workspaces/${ws.id}/invitations`
    const email = `later-${Date.now()}@example.com`
    const created = await atrium.request("POST", base, { token: owner.token, body: { email, role: "member" } })
    expect(created.status).toBe(201)
    const firstToken = tokenIn(
      (await atrium.sql<{ body_text: string }>("SELECT body_text FROM hub_mail_outbox WHERE recipient = $1", [email]))[0]!.body_text,
      "hinv_"
    )
    const resent = await atrium.request("POST", `${base}/${created.body.id}/resend`, { token: owner.token, body: { expiresInDays: 10 } })
    expect(resent.status, resent.text).toBe(200)
    expect(resent.body.sendCount).toBe(2)
    expect((await atrium.request("GET", `/hub/v1/public/invitations/${firstToken}`)).status).toBe(404)
    const rows = await atrium.sql<{ body_text: string }>("SELECT body_text FROM hub_mail_outbox WHERE recipient = $1 ORDER BY created_at", [
      email
    ])
    const secondToken = tokenIn(rows.at(-1)!.body_text, "hinv_")
    expect((await atrium.request("GET", `/hub/v1/public/invitations/${secondToken}`)).status).toBe(200)
    const revoked = await atrium.request("DELETE", `${base}/${created.body.id}`, { token: owner.token })
    expect(revoked.body.status).toBe("revoked")
    expect((await atrium.request("GET", `/hub/v1/public/invitations/${secondToken}`)).status).toBe(404)
    expect((await atrium.request("DELETE", `${base}/${created.body.id}`, { token: owner.token })).status).toBe(409)
  })

  it("refuses bad input naming the field", async () => {
    const owner = await signUp(atrium, "Picky")
    const ws = (await atrium.request("POST", "/hub/v1/workspaces", { token: owner.token, body: { name: "Picky" } })).body
    const bad = await atrium.request("POST", `/hub/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email: "not-an-address", role: "owner", expiresInDays: 365 }
    })
    expect(bad.status).toBe(400)
    const extra = await atrium.request("POST", `/hub/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email: "ok@example.com", role: "member", surprise: 1 }
    })
    expect(extra.status).toBe(400)
    expect((await atrium.request("GET", "/hub/v1/public/invitations/hinv_garbage")).status).toBe(400)
  })
})
