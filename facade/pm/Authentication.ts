/** pm tag "Authentication": registration, login, rotating refresh tokens, sessions, password. */
import { Effect, Schema } from "effect"
import { Account, Password, User } from "../../actors/identity/Account.ts"
import { sessionIdsOf } from "../../actors/identity/IdentityQueries.ts"
import { Session, SessionInfo } from "../../actors/identity/Session.ts"
import { Email, Name, normalizeEmail } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { userOf } from "../Access.ts"
import { endSessions, examplePair, exampleUser, logIn, refresh, TokenPair } from "../auth/SessionTokens.ts"
import { operation } from "../Operation.ts"

const tag = "Authentication"
export const authenticationOperations = [
  operation({
    service: "pm",
    tag,
    operationId: "register",
    method: "POST",
    path: "/v1/auth/register",
    summary: "Register a user",
    description: "Creates a user account shared by all four services. The e-mail is case-insensitive and must be unused.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ email: Email, password: Password, name: Name() }),
    responses: {
      201: { description: "Registered", schema: Schema.Struct({ user: User }) },
      409: { description: "E-mail already registered" }
    },
    examples: [
      {
        name: "register",
        request: { body: { email: "alice@example.com", password: "correct horse battery", name: "Alice" } },
        response: { status: 201, body: { user: exampleUser } }
      }
    ],
    handler: ({ body }) =>
      Effect.gen(function* () {
        const user = yield* (yield* ActorSystem).ask(Account, normalizeEmail(body.email), "register", {
          name: body.name,
          password: body.password
        })
        return { user }
      })
  }),
  operation({
    service: "pm",
    tag,
    operationId: "login",
    method: "POST",
    path: "/v1/auth/login",
    summary: "Log in with e-mail and password",
    description: "Opens a session: a 15-minute access token (JWT) and a 30-day refresh token that rotates on every use.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ email: Schema.String.check(Schema.isMaxLength(254)), password: Schema.String.check(Schema.isMaxLength(200)) }),
    responses: { 200: { description: "Logged in", schema: TokenPair }, 401: { description: "Wrong e-mail or password" } },
    examples: [
      {
        name: "login",
        request: { body: { email: "alice@example.com", password: "correct horse battery" } },
        response: { status: 200, body: examplePair }
      }
    ],
    handler: ({ body }) => logIn(body.email, body.password)
  }),
  operation({
    service: "pm",
    tag,
    operationId: "refreshToken",
    method: "POST",
    path: "/v1/auth/refresh",
    summary: "Exchange a refresh token for a new token pair",
    description: "Refresh tokens rotate: each is valid once. Reusing an old one answers 401 and revokes the whole session.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ refreshToken: Schema.String.check(Schema.isMaxLength(200)) }),
    responses: {
      200: { description: "New token pair", schema: TokenPair },
      401: { description: "Invalid, expired or reused refresh token" }
    },
    examples: [{ name: "refresh", request: { body: { refreshToken: "rt_9b2f….Qm3k…" } }, response: { status: 200, body: examplePair } }],
    handler: ({ body }) => refresh(body.refreshToken)
  }),
  operation({
    service: "pm",
    tag,
    operationId: "logout",
    method: "POST",
    path: "/v1/auth/logout",
    summary: "End the current session",
    description: "Revokes the session the access token belongs to: its refresh token and access tokens stop working at once.",
    auth: "jwt",
    scopes: [],
    responses: { 204: { description: "Logged out" } },
    examples: [{ name: "logout", response: { status: 204 } }],
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        yield* (yield* ActorSystem).ask(Session, user.sessionId, "revoke", { userId: user.userId, reason: "logout" })
      })
  }),
  operation({
    service: "pm",
    tag,
    operationId: "logoutAll",
    method: "POST",
    path: "/v1/auth/logout-all",
    summary: "End every session of the current user",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Sessions ended", schema: Schema.Struct({ revoked: Schema.Number }) } },
    examples: [{ name: "logout-everywhere", response: { status: 200, body: { revoked: 3 } } }],
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return { revoked: yield* endSessions(user.userId, "logout-all") }
      })
  }),
  operation({
    service: "pm",
    tag,
    operationId: "getCurrentUser",
    method: "GET",
    path: "/v1/auth/me",
    summary: "The current user",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "The user", schema: User } },
    examples: [{ name: "me", response: { status: 200, body: exampleUser } }],
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return yield* (yield* ActorSystem).ask(Account, normalizeEmail(user.email), "profile", {})
      })
  }),
  operation({
    service: "pm",
    tag,
    operationId: "changePassword",
    method: "POST",
    path: "/v1/auth/password",
    summary: "Change the current user's password",
    description: "Requires the current password. Every other session of the user is ended.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ currentPassword: Schema.String.check(Schema.isMaxLength(200)), newPassword: Password }),
    responses: { 200: { description: "Changed", schema: Schema.Struct({ changedAt: Schema.String, sessionsEnded: Schema.Number }) } },
    examples: [
      {
        name: "change-password",
        request: { body: { currentPassword: "correct horse battery", newPassword: "a much longer passphrase" } },
        response: { status: 200, body: { changedAt: "2026-11-21T12:00:00.000Z", sessionsEnded: 2 } }
      }
    ],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const actors = yield* ActorSystem
        const { changedAt } = yield* actors.ask(Account, normalizeEmail(user.email), "changePassword", body)
        const sessionsEnded = yield* endSessions(user.userId, "password changed", user.sessionId)
        return { changedAt, sessionsEnded }
      })
  }),
  operation({
    service: "pm",
    tag,
    operationId: "listSessions",
    method: "GET",
    path: "/v1/auth/sessions",
    summary: "The current user's active sessions",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Sessions", schema: Schema.Struct({ sessions: Schema.Array(SessionInfo) }) } },
    examples: [
      {
        name: "sessions",
        response: {
          status: 200,
          body: {
            sessions: [
              {
                id: "9b2f0c4e-1d2a-4f3b-8c5d-6e7f8a9b0c1d",
                createdAt: "2026-11-21T12:00:00.000Z",
                lastUsedAt: "2026-11-21T12:10:00.000Z",
                expiresAt: "2026-12-21T12:00:00.000Z",
                userAgent: null,
                current: true
              }
            ]
          }
        }
      }
    ],
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const actors = yield* ActorSystem
        const ids = yield* sessionIdsOf(user.userId).pipe(Effect.orDie)
        const sessions = yield* Effect.forEach(ids, (id) =>
          Effect.map(actors.ask(Session, id, "info", { current: id === user.sessionId }), (info) => ({ id, ...info }))
        )
        return { sessions }
      })
  })
]
