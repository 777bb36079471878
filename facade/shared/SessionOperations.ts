/**
 * Login, refresh and logout of a browser session on the shared identity, as
 * pm's "Authentication" and the hub's "Auth Resource" both declare them: one
 * implementation (actors/auth/SessionTokens.ts) behind one contract each,
 * which every service spreads under the operation id, summary and wording
 * its catalog has.
 */
import { Effect, Schema } from "effect"
import { logIn, refresh, TokenPair } from "../../actors/auth/SessionTokens.ts"
import { Session } from "../../actors/identity/Session.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { userOf } from "../Access.ts"
import type { Contract } from "../Operation.ts"

type Shared = Omit<Contract, "operationId" | "summary">

export const loginContract = {
  method: "POST",
  path: "/v1/auth/login",
  description: "Opens a session: a 15-minute access token (JWT) and a 30-day refresh token that rotates on every use.",
  auth: "public",
  scopes: [],
  body: Schema.Struct({ email: Schema.String.check(Schema.isMaxLength(254)), password: Schema.String.check(Schema.isMaxLength(200)) }),
  responses: { 200: { description: "Logged in", schema: TokenPair }, 401: { description: "Wrong e-mail or password" } },
  // The session keeps where it was opened from, for the session lists.
  headers: ["user-agent"],
  handler: ({ body }, context) => logIn(body.email, body.password, context.headers?.["user-agent"]?.slice(0, 300) || null)
} as const satisfies Shared

/** Refresh but for its wording (description and 401), which differs by service. */
export const refreshContract = {
  method: "POST",
  path: "/v1/auth/refresh",
  auth: "public",
  scopes: [],
  body: Schema.Struct({ refreshToken: Schema.String.check(Schema.isMaxLength(200)) }),
  handler: ({ body }) => refresh(body.refreshToken)
} as const satisfies Omit<Shared, "responses">

/** Logout but for its description. */
export const logoutContract = {
  method: "POST",
  path: "/v1/auth/logout",
  auth: "jwt",
  scopes: [],
  responses: { 204: { description: "Logged out" } },
  handler: (_request, context) =>
    Effect.gen(function* () {
      const user = yield* userOf(context)
      yield* Session.client(yield* ActorSystem)(user.sessionId).revoke({ userId: user.userId, reason: "logout" })
    })
} as const satisfies Shared
