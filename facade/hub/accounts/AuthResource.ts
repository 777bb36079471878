/**
 * hub tag "Auth Resource" (8): the browser's session on the shared identity
 * (login, refresh, logout, the current session) and the two proofs by e-mail:
 * password reset and address verification, each a single-use mailed token.
 */
import { Effect, Schema } from "effect"
import { Account, Password, User } from "../../../actors/identity/Account.ts"
import { Session, SessionInfo } from "../../../actors/identity/Session.ts"
import { usersByEmails } from "../../../actors/identity/IdentityQueries.ts"
import { consumeEmailToken, discardEmailTokens, EmailToken, issueEmailToken } from "../../../actors/hub/EmailTokens.ts"
import { queueMail, sendMail } from "../../../actors/hub/Mail.ts"
import { Email, Timestamp, normalizeEmail } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf } from "../../Access.ts"
import { endSessions, TokenPair } from "../../../actors/auth/SessionTokens.ts"
import { tagGroup } from "../../Operation.ts"
import { loginContract, logoutContract, refreshContract } from "../../shared/SessionOperations.ts"
import { authResourceExamples, resetAccepted } from "./AuthResource.examples.ts"

const Accepted = Schema.Struct({
  accepted: Schema.Literal(true),
  message: Schema.String
}).annotate({ identifier: "AuthMailAccepted" })

const HubSession = Schema.Struct({
  user: User,
  emailVerifiedAt: Schema.NullOr(Timestamp),
  session: SessionInfo
}).annotate({ identifier: "HubAuthSession" })

const { operation } = tagGroup("hub", "Auth Resource", authResourceExamples)

export const authResourceOperations = [
  operation({ operationId: "hubLogin", summary: "Log in with e-mail and password (a browser session)", ...loginContract }),
  operation({
    operationId: "hubRefreshSession",
    summary: "Exchange a refresh token for a new token pair",
    description: "Each refresh token is valid once; presenting a used one answers 401 and ends the whole session.",
    responses: { 200: { description: "New token pair", schema: TokenPair }, 401: { description: "Invalid, expired or reused" } },
    ...refreshContract
  }),
  operation({
    operationId: "hubLogout",
    summary: "End the current session",
    description: "Its refresh token and every access token minted in it stop working at once.",
    ...logoutContract
  }),
  operation({
    operationId: "getHubAuthSession",
    method: "GET",
    path: "/v1/auth/session",
    summary: "The current user, whether their e-mail is verified, and this session",
    auth: "jwt",
    scopes: [],
    responses: { 200: { description: "The session", schema: HubSession } },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const principal = yield* userOf(context)
        const actors = yield* ActorSystem
        const email = normalizeEmail(principal.email)
        const user = yield* Account.client(actors)(email).profile({})
        const { emailVerifiedAt } = yield* Account.client(actors)(email).verification({})
        const info = yield* Session.client(actors)(principal.sessionId).info({ current: true })
        return { user, emailVerifiedAt, session: { id: principal.sessionId, ...info } }
      })
  }),
  operation({
    operationId: "requestHubPasswordReset",
    method: "POST",
    path: "/v1/auth/password-reset",
    summary: "Mail a password-reset link to an address",
    description:
      "Always answers 202 with the same text, whether or not an account uses the address (nothing to learn from it). The mail carries a single-use token valid for one hour; at most 5 per hour and account.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ email: Email }),
    responses: { 202: { description: "Accepted", schema: Accepted } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const email = normalizeEmail(body.email)
        const user = (yield* Effect.orDie(usersByEmails([email]))).get(email)
        // The same work whether or not an account uses the address (a token made and hashed, the limit looked up),
        // and the mail only queued (sent by the outbox's sender): the reply's timing tells nothing either.
        const issued = yield* Effect.orDie(issueEmailToken("password_reset", user && { id: user.id, email }))
        if (user === undefined || issued === undefined) return resetAccepted
        yield* Effect.orDie(
          queueMail({
            to: email,
            userId: user.id,
            kind: "password_reset",
            subject: "Reset your Atrium password",
            text: [
              `Hello ${user.name},`,
              "",
              "Someone (hopefully you) asked to reset the password of your Atrium account.",
              `Open ${context.origin}/reset-password?token=${issued.token} to choose a new one.`,
              `Or send this token to POST /hub/v1/auth/password-reset/confirm: ${issued.token}`,
              "",
              `The link works once, until ${issued.expiresAt}. If you did not ask for it, ignore this mail.`
            ].join("\n")
          })
        )
        return resetAccepted
      })
  }),
  operation({
    operationId: "confirmHubPasswordReset",
    method: "POST",
    path: "/v1/auth/password-reset/confirm",
    summary: "Set a new password with the token from the reset mail",
    description: "The token works once. Every session of the account ends (log in again with the new password).",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ token: EmailToken("password_reset"), newPassword: Password }),
    responses: {
      200: { description: "Changed", schema: Schema.Struct({ changedAt: Timestamp, sessionsEnded: Schema.Number }) },
      400: { description: "Unknown, used or expired token" }
    },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const owner = yield* consumeEmailToken("password_reset", body.token)
        const { changedAt } = yield* Account.client(yield* ActorSystem)(owner.email)
          .setPassword({ password: body.newPassword })
          .pipe(
            Effect.catchTag("UserNotFound", () =>
              Effect.fail(reject("invalid", "The account no longer exists", [{ path: "body.token", message: "account gone" }]))
            )
          )
        yield* Effect.orDie(discardEmailTokens("password_reset", owner.userId))
        return { changedAt, sessionsEnded: yield* endSessions(owner.userId, "password reset") }
      })
  }),
  operation({
    operationId: "requestHubEmailVerification",
    method: "POST",
    path: "/v1/auth/email-verification",
    summary: "Mail a link that verifies the current user's address",
    description: "Nothing is sent when the address is already verified; at most 5 mails per hour.",
    auth: "jwt",
    scopes: [],
    responses: {
      202: {
        description: "Sent, or not needed",
        schema: Schema.Struct({ sentTo: Email, alreadyVerified: Schema.Boolean }).annotate({ identifier: "VerificationRequested" })
      },
      429: { description: "Too many verification mails this hour" }
    },
    handler: (_request, context) =>
      Effect.gen(function* () {
        const principal = yield* userOf(context)
        const email = normalizeEmail(principal.email)
        const { emailVerifiedAt } = yield* Account.client(yield* ActorSystem)(email).verification({})
        if (emailVerifiedAt !== null) return { sentTo: email, alreadyVerified: true }
        const issued = yield* Effect.orDie(issueEmailToken("email_verification", { id: principal.userId, email }))
        if (issued === undefined) return yield* reject("rate_limited", "Too many verification mails this hour; use the last one")
        yield* Effect.orDie(
          sendMail({
            to: email,
            userId: principal.userId,
            kind: "email_verification",
            subject: "Confirm your e-mail address for Atrium",
            text: [
              `Hello ${principal.name},`,
              "",
              `Open ${context.origin}/verify-email?token=${issued.token} to confirm that this address is yours.`,
              `Or send this token to POST /hub/v1/auth/email-verification/confirm: ${issued.token}`,
              "",
              `It works once, until ${issued.expiresAt}.`
            ].join("\n")
          })
        )
        return { sentTo: email, alreadyVerified: false }
      })
  }),
  operation({
    operationId: "confirmHubEmailVerification",
    method: "POST",
    path: "/v1/auth/email-verification/confirm",
    summary: "Verify an address with the token from the verification mail",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ token: EmailToken("email_verification") }),
    responses: {
      200: {
        description: "Verified",
        schema: Schema.Struct({ email: Email, emailVerifiedAt: Timestamp }).annotate({ identifier: "EmailVerified" })
      },
      400: { description: "Unknown, used or expired token" }
    },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const owner = yield* consumeEmailToken("email_verification", body.token)
        const { emailVerifiedAt } = yield* Account.client(yield* ActorSystem)(owner.email)
          .verifyEmail({})
          .pipe(
            Effect.catchTag("UserNotFound", () =>
              Effect.fail(reject("invalid", "The account no longer exists", [{ path: "body.token", message: "account gone" }]))
            )
          )
        return { email: owner.email, emailVerifiedAt }
      })
  })
]
