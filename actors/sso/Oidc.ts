/**
 * The OpenID Connect client: the issuer's discovery document, PKCE, the
 * authorization-code exchange (client_secret_basic) and ID-token validation
 * with `jose` against the issuer's JWKS: signature, issuer, audience,
 * expiry and nonce. Every URL is checked by the outbound-address guard
 * before it is called.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose"
import { reject } from "../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../webhooks/OutboundAddress.ts"

export interface DiscoveryDocument {
  readonly issuer: string
  readonly authorization_endpoint: string
  readonly token_endpoint: string
  readonly jwks_uri: string
  readonly userinfo_endpoint?: string
}

const TIMEOUT_MS = 10_000
const DISCOVERY_TTL_MS = 5 * 60_000

const guarded = (url: string, what: string) =>
  Effect.flatMap(
    Effect.promise(() => checkOutboundUrl(url)),
    (refusal) => (refusal === undefined ? Effect.void : Effect.fail(reject("invalid", `${what} ${url} is not allowed: ${refusal.reason}`)))
  )

const fetchJson = (url: string, what: string, init?: RequestInit) =>
  Effect.gen(function* () {
    yield* guarded(url, what)
    const response = yield* Effect.tryPromise({
      try: () => fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) }),
      catch: (error) => reject("invalid", `${what} could not be reached: ${(error as Error).message}`)
    })
    const text = yield* Effect.promise(() => response.text())
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return yield* reject("invalid", `${what} did not answer JSON (status ${response.status})`)
    }
    return { status: response.status, body: body as Record<string, unknown> }
  })

const discoveryCache = new Map<string, { readonly at: number; readonly document: DiscoveryDocument }>()

/** The issuer's discovery document; its `issuer` must be exactly the configured one. */
export const discover = (issuer: string) =>
  Effect.gen(function* () {
    const cached = discoveryCache.get(issuer)
    if (cached !== undefined && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.document
    const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`
    const { status, body } = yield* fetchJson(url, "The discovery document")
    if (status !== 200) return yield* reject("invalid", `The discovery document answered ${status}`)
    const text = (field: "issuer" | "authorization_endpoint" | "token_endpoint" | "jwks_uri") => {
      const value = body[field]
      return typeof value === "string" ? Effect.succeed(value) : Effect.fail(reject("invalid", `The discovery document has no ${field}`))
    }
    const document: DiscoveryDocument = {
      issuer: yield* text("issuer"),
      authorization_endpoint: yield* text("authorization_endpoint"),
      token_endpoint: yield* text("token_endpoint"),
      jwks_uri: yield* text("jwks_uri"),
      ...(typeof body.userinfo_endpoint === "string" ? { userinfo_endpoint: body.userinfo_endpoint } : {})
    }
    if (document.issuer !== issuer)
      return yield* reject("invalid", `The discovery document names the issuer ${document.issuer}, not ${issuer}`)
    discoveryCache.set(issuer, { at: Date.now(), document })
    return document
  })

export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url")
export const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url")

/** PKCE S256: the verifier kept server-side, the challenge sent to the provider. */
export const pkce = () => {
  const verifier = randomToken(32)
  return { verifier, challenge: sha256(verifier) }
}

export const authorizationUrl = (
  document: DiscoveryDocument,
  request: {
    clientId: string
    redirectUri: string
    scopes: ReadonlyArray<string>
    state: string
    nonce: string
    challenge: string
    loginHint?: string
  }
) => {
  const url = new URL(document.authorization_endpoint)
  url.searchParams.set("response_type", "code")
  url.searchParams.set("client_id", request.clientId)
  url.searchParams.set("redirect_uri", request.redirectUri)
  url.searchParams.set("scope", ["openid", ...request.scopes.filter((s) => s !== "openid")].join(" "))
  url.searchParams.set("state", request.state)
  url.searchParams.set("nonce", request.nonce)
  url.searchParams.set("code_challenge", request.challenge)
  url.searchParams.set("code_challenge_method", "S256")
  if (request.loginHint) url.searchParams.set("login_hint", request.loginHint)
  return url.toString()
}

/** Exchanges the authorization code (with the PKCE verifier) for the provider's tokens; returns the ID token. */
export const exchangeCode = (
  document: DiscoveryDocument,
  request: { code: string; verifier: string; redirectUri: string; clientId: string; clientSecret: string }
) =>
  Effect.gen(function* () {
    const basic = Buffer.from(`${encodeURIComponent(request.clientId)}:${encodeURIComponent(request.clientSecret)}`).toString("base64")
    const { status, body } = yield* fetchJson(document.token_endpoint, "The token endpoint", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}`, accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: request.code,
        redirect_uri: request.redirectUri,
        code_verifier: request.verifier
      }).toString()
    })
    if (status !== 200) {
      const detail =
        typeof body.error === "string"
          ? `${body.error}${typeof body.error_description === "string" ? `: ${body.error_description}` : ""}`
          : `status ${status}`
      return yield* reject("unauthorized", `The identity provider refused the code (${detail})`)
    }
    if (typeof body.id_token !== "string") return yield* reject("unauthorized", "The identity provider sent no ID token")
    return body.id_token
  })

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>()
const jwksOf = (uri: string) => {
  let jwks = jwksCache.get(uri)
  if (jwks === undefined) {
    jwks = createRemoteJWKSet(new URL(uri), { timeoutDuration: TIMEOUT_MS })
    jwksCache.set(uri, jwks)
  }
  return jwks
}

/** Why jose refused the token, in words a user (and an admin reading the log) understands. */
const refusal = (error: unknown): string => {
  if (error instanceof errors.JWTExpired) return "the ID token has expired"
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "iss") return "the ID token was issued by another issuer"
    if (error.claim === "aud") return "the ID token is meant for another client (wrong audience)"
    if (error.claim === "nbf" || error.claim === "iat") return "the ID token is not valid yet"
    return `the ID token's ${error.claim} claim is invalid`
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return "the ID token's signature does not verify against the issuer's keys"
  return `the ID token is invalid (${(error as Error).message})`
}

export interface IdentityClaims {
  readonly subject: string
  readonly email: string
  readonly name: string
}

export const verifyIdToken = (
  document: DiscoveryDocument,
  idToken: string,
  expected: { issuer: string; clientId: string; nonce: string }
) =>
  Effect.gen(function* () {
    yield* guarded(document.jwks_uri, "The JWKS")
    const { payload } = yield* Effect.tryPromise({
      try: () =>
        jwtVerify(idToken, jwksOf(document.jwks_uri), {
          issuer: expected.issuer,
          audience: expected.clientId,
          algorithms: ["RS256", "RS384", "RS512", "ES256", "ES384", "PS256"],
          requiredClaims: ["exp", "iat", "sub"]
        }),
      catch: (error) => reject("unauthorized", `Single sign-on refused: ${refusal(error)}`)
    })
    return yield* claimsOf(payload, expected.nonce)
  })

const claimsOf = (payload: JWTPayload, nonce: string) =>
  Effect.gen(function* () {
    if (payload.nonce !== nonce)
      return yield* reject("unauthorized", "Single sign-on refused: the ID token's nonce does not match this login")
    if (typeof payload.email !== "string" || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(payload.email))
      return yield* reject("unauthorized", "Single sign-on refused: the ID token carries no e-mail address")
    if (payload.email_verified === false)
      return yield* reject("unauthorized", "Single sign-on refused: the provider has not verified this e-mail address")
    const name =
      typeof payload.name === "string" && payload.name.trim() !== ""
        ? payload.name.trim()
        : payload.email.slice(0, payload.email.indexOf("@"))
    return { subject: payload.sub!, email: payload.email.trim().toLowerCase(), name: name.slice(0, 200) } satisfies IdentityClaims
  })
