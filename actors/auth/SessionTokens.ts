/**
 * Browser sessions as pm's "Authentication" and the hub's "Auth Resource"
 * both offer them: login opens a Session (a refresh-token family) and answers
 * a token pair; refresh rotates the refresh token; a stale one revokes the
 * family (the Session actor decides). One implementation, two services.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account, User } from "../identity/Account.ts"
import { sessionIdsOf } from "../identity/IdentityQueries.ts"
import { Session } from "../identity/Session.ts"
import { normalizeEmail } from "../Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { AccessTokens } from "./AccessTokens.ts"
import { refuseWhenSsoEnforced } from "./SsoEnforcement.ts"

const REFRESH_TOKEN_DAYS = 30

export const TokenPair = Schema.Struct({
  accessToken: Schema.String,
  refreshToken: Schema.String,
  tokenType: Schema.Literal("Bearer"),
  expiresIn: Schema.Number.annotate({ description: "Seconds until the access token expires" }),
  user: User
}).annotate({ identifier: "TokenPair" })

export const exampleUser = {
  id: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  email: "alice@example.com",
  name: "Alice",
  createdAt: "2026-11-21T12:00:00.000Z"
}
export const examplePair = {
  accessToken: "eyJhbGciOiJIUzI1NiIs…",
  refreshToken: "rt_9b2f….Qm3k…",
  tokenType: "Bearer",
  expiresIn: 900,
  user: exampleUser
}

/** A refresh token names its session: `rt_<sessionId>.<secret>`; only its hash is kept. */
export const mintRefreshToken = (sessionId: string) => {
  const token = `rt_${sessionId}.${randomBytes(32).toString("base64url")}`
  return { token, hash: createHash("sha256").update(token).digest("base64url") }
}
export const refreshExpiry = () => new Date(Date.now() + REFRESH_TOKEN_DAYS * 86_400_000).toISOString()
const sessionIdOf = (refreshToken: string) => /^rt_([0-9a-f-]{36})\.[\w-]+$/.exec(refreshToken)?.[1]

export const tokenPair = (user: User, sessionId: string, refreshToken: string) =>
  Effect.gen(function* () {
    const access = yield* (yield* AccessTokens).issue({ userId: user.id, email: user.email, name: user.name, sessionId })
    return { accessToken: access.token, refreshToken, tokenType: "Bearer" as const, expiresIn: access.expiresIn, user }
  })

const invalidRefresh = reject("unauthorized", "Invalid or expired refresh token")

/** Checks the password and opens a session: the token pair. */
export const logIn = (email: string, password: string, userAgent: string | null = null) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    // A domain whose workspace enforces single sign-on signs in through its identity provider only.
    yield* refuseWhenSsoEnforced(normalizeEmail(email))
    const user = yield* Account.client(actors)(normalizeEmail(email)).authenticate({ password })
    const sessionId = randomUUID()
    const refresh = mintRefreshToken(sessionId)
    yield* Session.client(actors)(sessionId).open({
      userId: user.id,
      email: normalizeEmail(user.email),
      tokenHash: refresh.hash,
      expiresAt: refreshExpiry(),
      userAgent
    })
    return yield* tokenPair(user, sessionId, refresh.token)
  })

/** Exchanges a refresh token for the next pair (each refresh token is valid once). */
export const refresh = (refreshToken: string) =>
  Effect.gen(function* () {
    const sessionId = sessionIdOf(refreshToken)
    if (sessionId === undefined) return yield* invalidRefresh
    const actors = yield* ActorSystem
    const next = mintRefreshToken(sessionId)
    const rotated = yield* Session.client(actors)(sessionId).rotate({
      tokenHash: createHash("sha256").update(refreshToken).digest("base64url"),
      nextTokenHash: next.hash,
      nextExpiresAt: refreshExpiry()
    })
    if (!rotated.ok) return yield* reject("unauthorized", rotated.reason)
    const user = yield* Account.client(actors)(rotated.email)
      .profile({})
      .pipe(Effect.catchTag("UserNotFound", () => Effect.fail(invalidRefresh)))
    return yield* tokenPair(user, sessionId, next.token)
  })

/** Ends every session of the user except `keep`; answers how many were ended. */
export const endSessions = (userId: string, reason: string, keep?: string) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const ids = (yield* sessionIdsOf(userId).pipe(Effect.orDie)).filter((id) => id !== keep)
    yield* Effect.forEach(ids, (id) => Session.client(actors)(id).revoke({ userId, reason }), { concurrency: 8, discard: true })
    return ids.length
  })
