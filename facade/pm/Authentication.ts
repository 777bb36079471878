/** pm tag "Authentication": registration, login, rotating refresh tokens, sessions, password. */
import { Effect, Schema } from "effect"
import { Account, Password, User } from "../../actors/identity/Account.ts"
import { sessionIdsOf } from "../../actors/identity/IdentityQueries.ts"
import { Session, SessionInfo } from "../../actors/identity/Session.ts"
import { Email, Name, normalizeEmail } from "../../actors/Fields.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { userOf } from "../Access.ts"
import { endSessions, TokenPair } from "../../actors/auth/SessionTokens.ts"
import { tagGroup } from "../Operation.ts"
import { loginContract, logoutContract, refreshContract } from "../shared/SessionOperations.ts"
import { authenticationExamples } from "./Authentication.examples.ts"
const { operation } = tagGroup("pm", "Authentication", authenticationExamples)

export const authenticationOperations = [
  operation({
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
    handler: ({ body }) =>
      Effect.gen(function* () {
        const user = yield* Account.client(yield* ActorSystem)(normalizeEmail(body.email)).register({
          name: body.name,
          password: body.password
        })
        return { user }
      })
  }),
  operation({ operationId: "login", summary: "Log in with e-mail and password", ...loginContract }),
  operation({
    operationId: "refreshToken",
    summary: "Exchange a refresh token for a new token pair",
    description: "Refresh tokens rotate: each is valid once. Reusing an old one answers 401 and revokes the whole session.",
    responses: {
      200: { description: "New token pair", schema: TokenPair },
      401: { description: "Invalid, expired or reused refresh token" }
    },
    ...refreshContract
  }),
  operation({
    operationId: "logout",
    summary: "End the current session",
    description: "Revokes the session the access token belongs to: its refresh token and access tokens stop working at once.",
    ...logoutContract
  }),
  operation({
    operationId: "logoutAll",
    method: "POST",
    path: "/v1/auth/logout-all",
    summary: "End every session of the current user",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Sessions ended", schema: Schema.Struct({ revoked: Schema.Number }) } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return { revoked: yield* endSessions(user.userId, "logout-all") }
      })
  }),
  operation({
    operationId: "getCurrentUser",
    method: "GET",
    path: "/v1/auth/me",
    summary: "The current user",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "The user", schema: User } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        return yield* Account.client(yield* ActorSystem)(normalizeEmail(user.email)).profile({})
      })
  }),
  operation({
    operationId: "changePassword",
    method: "POST",
    path: "/v1/auth/password",
    summary: "Change the current user's password",
    description: "Requires the current password. Every other session of the user is ended.",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({ currentPassword: Schema.String.check(Schema.isMaxLength(200)), newPassword: Password }),
    responses: { 200: { description: "Changed", schema: Schema.Struct({ changedAt: Schema.String, sessionsEnded: Schema.Number }) } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const actors = yield* ActorSystem
        const { changedAt } = yield* Account.client(actors)(normalizeEmail(user.email)).changePassword(body)
        const sessionsEnded = yield* endSessions(user.userId, "password changed", user.sessionId)
        return { changedAt, sessionsEnded }
      })
  }),
  operation({
    operationId: "listSessions",
    method: "GET",
    path: "/v1/auth/sessions",
    summary: "The current user's active sessions",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "Sessions", schema: Schema.Struct({ sessions: Schema.Array(SessionInfo) }) } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const actors = yield* ActorSystem
        const ids = yield* sessionIdsOf(user.userId).pipe(Effect.orDie)
        const sessions = yield* Effect.forEach(ids, (id) =>
          Effect.map(Session.client(actors)(id).info({ current: id === user.sessionId }), (info) => ({ id, ...info }))
        )
        return { sessions }
      })
  })
]
