/**
 * Signing in through a workspace's OpenID Connect provider.
 * - "Sso Discovery Resource" (1): which workspace an e-mail address signs in to.
 * - "OAuth Callbacks" (2): start (state, nonce, PKCE; the state is bound to
 *   this browser by an HttpOnly cookie) and the provider's callback (state
 *   taken once, code exchanged, ID token validated, the user provisioned
 *   and admitted just in time with the default role, a session opened).
 * - "Internal Sso Resource" (1): a domain's SSO settings for other services.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account } from "../../../actors/identity/Account.ts"
import { memberRoles, usersByEmails } from "../../../actors/identity/IdentityQueries.ts"
import { Session } from "../../../actors/identity/Session.ts"
import { AssignableRole, Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Id, Timestamp } from "../../../actors/Fields.ts"
import { authorizationUrl, discover, exchangeCode, pkce, randomToken, sha256, verifyIdToken } from "../../../actors/sso/Oidc.ts"
import { Domain, WorkspaceSso } from "../../../actors/sso/SsoConfig.ts"
import { domainOfEmail, saveLoginState, takeLoginState, workspaceOfDomain } from "../../../actors/sso/SsoQueries.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { type Rejection, reject } from "../../../runtime/Rejection.ts"
import { raw, tagGroup } from "../../Operation.ts"
import { mintRefreshToken, refreshExpiry, TokenPair, tokenPair } from "../../../actors/auth/SessionTokens.ts"
import { provisionUser } from "./InternalServices.ts"
import { asService, INTERNAL_NOTE } from "./Shared.ts"
import { ssoDiscoveryResourceExamples, oAuthCallbacksExamples, internalSsoResourceExamples } from "./SsoLogin.examples.ts"
const COOKIE = "atrium_sso"
const LOGIN_MINUTES = 10

const cookieOf = (header: string | undefined, name: string) =>
  (header ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([key]) => key === name)?.[1] ?? ""

const StartReply = Schema.Struct({ authorizationUrl: Schema.String, state: Schema.String, expiresAt: Timestamp }).annotate({
  identifier: "SsoStart"
})

/** Refuses, recording the refusal among the workspace's sign-ins. */
const refused = (workspaceId: string, email: string, error: Rejection) =>
  Effect.gen(function* () {
    yield* (yield* ActorSystem)
      .ask(WorkspaceSso, workspaceId, "recordLogin", {
        at: new Date().toISOString(),
        email,
        userId: null,
        outcome: "refused",
        detail: error.message
      })
      .pipe(Effect.ignore)
    return yield* Effect.fail(error)
  })

/** The signed-in user: found by e-mail or created just in time, admitted to the workspace when new to it. */
const admitted = (
  workspaceId: string,
  claims: { email: string; name: string },
  settings: { jitProvisioning: boolean; defaultRole: typeof AssignableRole.Type }
) =>
  Effect.gen(function* () {
    const actors = yield* ActorSystem
    const existing = (yield* Effect.orDie(usersByEmails([claims.email]))).get(claims.email)
    if (existing === undefined && !settings.jitProvisioning)
      return yield* reject("forbidden", "No account for this e-mail, and this workspace does not create accounts on sign-in")
    const user = existing ?? (yield* provisionUser(claims.email, claims.name)).user
    const status = yield* Account.client(actors)(claims.email).status({})
    if (status.deactivatedAt !== null) return yield* reject("forbidden", "This account is deactivated; contact the platform operator")
    const isMember = (yield* Effect.orDie(memberRoles(workspaceId))).has(user.id)
    if (!isMember) {
      if (!settings.jitProvisioning) return yield* reject("forbidden", "Not a member of this workspace; ask an admin to add you")
      yield* Workspace.client(actors)(workspaceId).admit({ userId: user.id, role: settings.defaultRole, via: "sso" })
    }
    return { user, joined: !isMember }
  })

const ssoDiscoveryResourceTag = tagGroup("pm", "Sso Discovery Resource", ssoDiscoveryResourceExamples)
const oAuthCallbacksTag = tagGroup("pm", "OAuth Callbacks", oAuthCallbacksExamples)
const internalSsoResourceTag = tagGroup("pm", "Internal Sso Resource", internalSsoResourceExamples)

export const ssoLoginOperations = [
  ssoDiscoveryResourceTag.operation({
    operationId: "discoverSso",
    method: "GET",
    path: "/v1/sso/discover",
    summary: "Which workspace an e-mail address signs in to, and whether password login is still allowed",
    auth: "public",
    scopes: [],
    query: Schema.Struct({ email: Email }),
    responses: {
      200: {
        description: "The answer (sso false when no workspace claims the domain)",
        schema: Schema.Struct({
          domain: Schema.String,
          sso: Schema.Boolean,
          workspaceId: Schema.NullOr(Id),
          workspaceName: Schema.NullOr(Schema.String),
          enforced: Schema.Boolean,
          startUrl: Schema.NullOr(Schema.String)
        })
      }
    },
    handler: ({ query }) =>
      Effect.gen(function* () {
        const domain = domainOfEmail(query.email)
        const none = { domain, sso: false, workspaceId: null, workspaceName: null, enforced: false, startUrl: null }
        const workspaceId = yield* Effect.orDie(workspaceOfDomain(domain))
        if (workspaceId === undefined) return none
        const actors = yield* ActorSystem
        const settings = yield* actors.ask(WorkspaceSso, workspaceId, "settings", {}).pipe(Effect.option)
        const ws = yield* Workspace.client(actors)(workspaceId).inspect({}).pipe(Effect.option)
        if (settings._tag === "None" || !settings.value.enabled || ws._tag === "None" || !ws.value.exists) return none
        return {
          domain,
          sso: true,
          workspaceId,
          workspaceName: ws.value.name,
          enforced: settings.value.enforced,
          startUrl: `/pm/v1/sso/${workspaceId}/start`
        }
      })
  }),
  oAuthCallbacksTag.operation({
    operationId: "startSsoLogin",
    headers: ["x-forwarded-proto"],
    method: "GET",
    path: "/v1/sso/{workspaceId}/start",
    summary: "Start signing in through the workspace's identity provider: where to send the browser",
    description: `Sets an HttpOnly cookie binding the login to this browser; the provider sends the browser back to /pm/v1/sso/callback within ${LOGIN_MINUTES} minutes. The state is single-use; PKCE (S256) and a nonce protect the code and the ID token.`,
    auth: "public",
    scopes: [],
    params: Schema.Struct({ workspaceId: Id }),
    query: Schema.Struct({ loginHint: Schema.optionalKey(Email) }),
    responses: {
      200: { description: "The provider's authorization URL", schema: StartReply, contentType: "application/json" },
      404: { description: "No SSO here" }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const settings = yield* (yield* ActorSystem).ask(WorkspaceSso, params.workspaceId, "settings", {})
        if (!settings.enabled) return yield* reject("not_found", "Single sign-on is disabled for this workspace")
        const document = yield* discover(settings.issuer)
        const state = randomToken(24)
        const nonce = randomToken(24)
        const binding = randomToken(32)
        const { verifier, challenge } = pkce()
        const redirectUri = `${context.origin}/pm/v1/sso/callback`
        const expiresAt = new Date(Date.now() + LOGIN_MINUTES * 60_000).toISOString()
        yield* Effect.orDie(
          saveLoginState({
            state,
            workspaceId: params.workspaceId,
            nonce,
            codeVerifier: verifier,
            bindingHash: sha256(binding),
            redirectUri,
            expiresAt
          })
        )
        const url = authorizationUrl(document, {
          clientId: settings.clientId,
          redirectUri,
          scopes: settings.scopes,
          state,
          nonce,
          challenge,
          ...(query.loginHint ? { loginHint: query.loginHint } : {})
        })
        const secure = context.headers?.["x-forwarded-proto"] === "https" ? "; Secure" : ""
        return raw("application/json", JSON.stringify({ authorizationUrl: url, state, expiresAt }), {
          "set-cookie": `${COOKIE}=${binding}; Path=/pm/v1/sso; HttpOnly; SameSite=Lax; Max-Age=${LOGIN_MINUTES * 60}${secure}`,
          "cache-control": "no-store"
        })
      })
  }),
  oAuthCallbacksTag.operation({
    operationId: "completeSsoLogin",
    headers: ["cookie", "user-agent"],
    method: "GET",
    path: "/v1/sso/callback",
    summary: "The identity provider's redirect: validate the login and open a session",
    description:
      "Refused (401) when the state is unknown, used or expired, when the browser is not the one that started the login, or when the ID token is from another issuer, for another audience, expired, or carries another nonce. A new user or non-member is admitted with the workspace's default role when just-in-time provisioning is on.",
    auth: "public",
    scopes: [],
    query: Schema.Struct({
      state: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      code: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000))),
      error: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
      error_description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000))),
      iss: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))),
      session_state: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
    }),
    responses: {
      200: {
        description: "Signed in",
        schema: Schema.Struct({ ...TokenPair.fields, workspaceId: Id, joined: Schema.Boolean }).annotate({ identifier: "SsoSession" }),
        contentType: "application/json"
      },
      401: { description: "Refused, with the reason" }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const login = yield* Effect.orDie(takeLoginState(query.state))
        if (login === undefined || Date.parse(login.expiresAt) < Date.now())
          return yield* reject("unauthorized", "Unknown, already used or expired login state: start the sign-in again")
        const binding = cookieOf(context.headers?.cookie, COOKIE)
        if (binding === "" || sha256(binding) !== login.bindingHash)
          return yield* reject("unauthorized", "This sign-in was started in another browser session: start it again here")
        const workspaceId = login.workspaceId
        const actors = yield* ActorSystem
        if (query.error !== undefined)
          return yield* refused(
            workspaceId,
            "",
            reject(
              "unauthorized",
              `The identity provider refused: ${query.error}${query.error_description ? ` (${query.error_description})` : ""}`
            )
          )
        if (query.code === undefined)
          return yield* reject("invalid", "The callback has no code", [{ path: "query.code", message: "missing" }])
        const code = query.code
        const settings = yield* actors.ask(WorkspaceSso, workspaceId, "settings", {})
        if (!settings.enabled) return yield* reject("unauthorized", "Single sign-on is disabled for this workspace")
        const claims = yield* Effect.gen(function* () {
          const document = yield* discover(settings.issuer)
          const idToken = yield* exchangeCode(document, {
            code,
            verifier: login.codeVerifier,
            redirectUri: login.redirectUri,
            clientId: settings.clientId,
            clientSecret: settings.clientSecret
          })
          return yield* verifyIdToken(document, idToken, { issuer: settings.issuer, clientId: settings.clientId, nonce: login.nonce })
        }).pipe(Effect.catchTag("Rejection", (error) => refused(workspaceId, "", error)))
        if (settings.domains.length > 0 && !settings.domains.includes(domainOfEmail(claims.email)))
          return yield* refused(
            workspaceId,
            claims.email,
            reject("forbidden", `${domainOfEmail(claims.email)} addresses do not sign in to this workspace`)
          )
        const { user, joined } = yield* admitted(workspaceId, claims, settings).pipe(
          Effect.catchTag("Rejection", (error) => refused(workspaceId, claims.email, error))
        )
        const sessionId = randomUUID()
        const refresh = mintRefreshToken(sessionId)
        yield* Session.client(actors)(sessionId).open({
          userId: user.id,
          email: claims.email,
          tokenHash: refresh.hash,
          expiresAt: refreshExpiry(),
          userAgent: context.headers?.["user-agent"]?.slice(0, 300) ?? null
        })
        yield* actors.ask(WorkspaceSso, workspaceId, "recordLogin", {
          at: new Date().toISOString(),
          email: claims.email,
          userId: user.id,
          outcome: joined ? "joined" : "signed_in",
          detail: null
        })
        const pair = yield* tokenPair(user, sessionId, refresh.token)
        return raw("application/json", JSON.stringify({ ...pair, workspaceId, joined }), {
          "set-cookie": `${COOKIE}=; Path=/pm/v1/sso; HttpOnly; SameSite=Lax; Max-Age=0`,
          "cache-control": "no-store"
        })
      })
  }),
  internalSsoResourceTag.operation({
    operationId: "resolveInternalSsoDomain",
    method: "GET",
    path: "/v1/internal/sso/domains/{domain}",
    summary: "The SSO settings that apply to an e-mail domain (no secret)",
    description: INTERNAL_NOTE,
    auth: "public",
    scopes: [],
    params: Schema.Struct({ domain: Domain }),
    responses: {
      200: {
        description: "The domain's workspace and provider",
        schema: Schema.Struct({
          domain: Schema.String,
          workspaceId: Id,
          enabled: Schema.Boolean,
          enforced: Schema.Boolean,
          issuer: Schema.String,
          clientId: Schema.String,
          defaultRole: AssignableRole,
          jitProvisioning: Schema.Boolean
        })
      },
      404: { description: "No workspace claims the domain" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* asService(context)
        const workspaceId = yield* Effect.orDie(workspaceOfDomain(params.domain))
        if (workspaceId === undefined) return yield* reject("not_found", "No workspace claims this domain")
        const settings = yield* (yield* ActorSystem).ask(WorkspaceSso, workspaceId, "settings", {})
        return {
          domain: params.domain,
          workspaceId,
          enabled: settings.enabled,
          enforced: settings.enforced,
          issuer: settings.issuer,
          clientId: settings.clientId,
          defaultRole: settings.defaultRole,
          jitProvisioning: settings.jitProvisioning
        }
      })
  })
]
