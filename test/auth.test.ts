import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Effect } from "effect"
import { SignJWT } from "jose"
import { make as makeAccessTokens } from "../actors/auth/AccessTokens.ts"
import { signUp, startAtrium, type TestAtrium } from "./support/atrium.ts"

let atrium: TestAtrium
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

describe("pm Authentication", () => {
  it("registers, refuses a second registration of the same e-mail (any case), logs in", async () => {
    const email = `Carol-${Date.now()}@Example.com`
    const first = await atrium.request("POST", "/pm/v1/auth/register", { body: { email, password: "long enough pw", name: "Carol" } })
    expect(first.status).toBe(201)
    expect(first.body.user).toMatchObject({ email: email.toLowerCase(), name: "Carol" })
    expect(first.body.user.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(first.text).not.toContain("password")
    const again = await atrium.request("POST", "/pm/v1/auth/register", {
      body: { email: email.toUpperCase(), password: "long enough pw", name: "C2" }
    })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe("conflict")
    const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email, password: "long enough pw" } })
    expect(login.status).toBe(200)
    expect(login.body).toMatchObject({ tokenType: "Bearer", expiresIn: 900 })
    expect(typeof login.body.accessToken).toBe("string")
    const me = await atrium.request("GET", "/pm/v1/auth/me", { token: login.body.accessToken })
    expect(me.status).toBe(200)
    expect(me.body.email).toBe(email.toLowerCase())
  })

  it("refuses a wrong password and an unknown user with the same 401", async () => {
    const user = await signUp(atrium, "Dan")
    const wrong = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: "nope nope nope" } })
    const unknown = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: "nobody@example.com", password: "nope nope nope" } })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body.error.message).toBe(unknown.body.error.message)
    expect(wrong.headers.get("www-authenticate")).toContain("Bearer")
  })

  it("rotates refresh tokens and revokes the family when an old one is reused", async () => {
    const user = await signUp(atrium, "Erin")
    const first = await atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: user.refreshToken } })
    expect(first.status).toBe(200)
    expect(first.body.refreshToken).not.toBe(user.refreshToken)
    const second = await atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: first.body.refreshToken } })
    expect(second.status).toBe(200)
    // Reuse of the first token: refused, and the whole session dies.
    const reuse = await atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: user.refreshToken } })
    expect(reuse.status).toBe(401)
    expect(reuse.body.error.message).toMatch(/reuse/i)
    const latest = await atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: second.body.refreshToken } })
    expect(latest.status).toBe(401)
    const me = await atrium.request("GET", "/pm/v1/auth/me", { token: second.body.accessToken })
    expect(me.status).toBe(401)
  })

  it("concurrent use of one refresh token lets at most one win", async () => {
    const user = await signUp(atrium, "Fay")
    const results = await Promise.all(
      Array.from({ length: 5 }, () => atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: user.refreshToken } }))
    )
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1)
    expect(results.every((r) => r.status === 200 || r.status === 401)).toBe(true)
  })

  it("logout ends the session at once; logout-all ends every session", async () => {
    const user = await signUp(atrium, "Gus")
    const second = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: user.password } })
    const sessions = await atrium.request("GET", "/pm/v1/auth/sessions", { token: user.token })
    expect(sessions.body.sessions).toHaveLength(2)
    expect(sessions.body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1)
    expect((await atrium.request("POST", "/pm/v1/auth/logout", { token: user.token })).status).toBe(204)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: user.token })).status).toBe(401)
    expect((await atrium.request("POST", "/pm/v1/auth/refresh", { body: { refreshToken: user.refreshToken } })).status).toBe(401)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: second.body.accessToken })).status).toBe(200)
    const all = await atrium.request("POST", "/pm/v1/auth/logout-all", { token: second.body.accessToken })
    expect(all.status).toBe(200)
    expect(all.body.revoked).toBe(1)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: second.body.accessToken })).status).toBe(401)
  })

  it("changes the password: the old one stops working, other sessions end", async () => {
    const user = await signUp(atrium, "Hal")
    const other = await atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: user.password } })
    const wrong = await atrium.request("POST", "/pm/v1/auth/password", {
      token: user.token,
      body: { currentPassword: "wrong wrong", newPassword: "brand new passphrase" }
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.details[0].path).toBe("currentPassword")
    const changed = await atrium.request("POST", "/pm/v1/auth/password", {
      token: user.token,
      body: { currentPassword: user.password, newPassword: "brand new passphrase" }
    })
    expect(changed.status).toBe(200)
    expect(changed.body.sessionsEnded).toBe(1)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: other.body.accessToken })).status).toBe(401)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: user.token })).status).toBe(200)
    expect((await atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: user.password } })).status).toBe(401)
    expect(
      (await atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: "brand new passphrase" } })).status
    ).toBe(200)
  })

  it("refuses tampered, foreign-key-signed, expired and malformed JWTs", async () => {
    const user = await signUp(atrium, "Ivy")
    const [header, payload, signature] = user.token.split(".")
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString())
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "00000000-0000-4000-8000-000000000000" })).toString("base64url")
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: `${header}.${forged}.${signature}` })).status).toBe(401)
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("not the server's key"))
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: foreign })).status).toBe(401)
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: none })).status).toBe(401)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { headers: { authorization: "Basic abc" } })).status).toBe(401)
    expect((await atrium.request("GET", "/pm/v1/auth/me", { token: "garbage" })).status).toBe(401)
    expect((await atrium.request("GET", "/pm/v1/auth/me")).status).toBe(401)
  })

  it("refuses an expired JWT even when correctly signed", async () => {
    const secret = new TextEncoder().encode("test secret of sufficient length")
    const tokens = makeAccessTokens(secret)
    const past = Math.floor(Date.now() / 1000) - 3600
    const expired = await new SignJWT({ email: "a@example.com", name: "A", sid: "s" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u")
      .setIssuer("atrium")
      .setIssuedAt(past - 900)
      .setExpirationTime(past)
      .sign(secret)
    const result = await Effect.runPromise(Effect.flip(tokens.verify(expired)))
    expect(result.code).toBe("unauthorized")
    expect(result.message).toMatch(/expired/)
    const fresh = await Effect.runPromise(tokens.issue({ userId: "u", email: "a@example.com", name: "A", sessionId: "s" }))
    expect(await Effect.runPromise(tokens.verify(fresh.token))).toEqual({ userId: "u", email: "a@example.com", name: "A", sessionId: "s" })
    // Once verified the token is cached; the cache still honours expiry.
    vi.useFakeTimers({ now: Date.now() + 16 * 60_000, toFake: ["Date"] })
    try {
      const late = await Effect.runPromise(Effect.flip(tokens.verify(fresh.token)))
      expect(late.message).toMatch(/expired/)
    } finally {
      vi.useRealTimers()
    }
  })

  it("a crowd verifying one token at once all get its claims, and a bad token fails for each", async () => {
    const secret = new TextEncoder().encode("test secret of sufficient length")
    const tokens = makeAccessTokens(secret)
    const claims = { userId: "u", email: "a@example.com", name: "A", sessionId: "s" }
    const fresh = await Effect.runPromise(tokens.issue(claims))
    const crowd = await Promise.all(Array.from({ length: 50 }, () => Effect.runPromise(tokens.verify(fresh.token))))
    expect(crowd).toEqual(Array.from({ length: 50 }, () => claims))
    const forged = `${fresh.token.slice(0, -4)}AAAA`
    const refused = await Promise.all(Array.from({ length: 20 }, () => Effect.runPromise(Effect.flip(tokens.verify(forged)))))
    expect(refused.map((rejection) => rejection.code)).toEqual(Array.from({ length: 20 }, () => "unauthorized"))
    // Refused once, refused again (nothing of the failure is kept as a success).
    expect((await Effect.runPromise(Effect.flip(tokens.verify(forged)))).code).toBe("unauthorized")
  })
})
