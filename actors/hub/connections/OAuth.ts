/**
 * OAuth 2.0 authorization code with PKCE (S256) for vendor connections.
 * Each vendor kind is configured from the environment
 * (HUB_OAUTH_<VENDOR>_AUTHORIZE_URL, _TOKEN_URL, _CLIENT_ID, _CLIENT_SECRET,
 * _API_URL, optional _SCOPES and _REVOKE_URL). A `state` is single-use,
 * expires after 10 minutes and is bound to the user's session: only the
 * session that started a flow can finish it. Tokens land in the connection
 * store encrypted (HubKeys); they are refreshed before expiry and revoked at
 * the vendor (RFC 7009) when the connection is disconnected.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../../webhooks/OutboundAddress.ts"
import { HubKeys } from "../HubKeys.ts"
import { type Connection, type VendorKind, create, get } from "./Connections.ts"

const STATE_TTL_MS = 10 * 60_000
/** A token this close to its expiry is refreshed before use. */
export const REFRESH_MARGIN_MS = 60_000

export interface OAuthProvider {
  readonly vendor: VendorKind
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly apiUrl: string
  readonly scopes: string
  readonly revokeUrl: string | null
}

const envKey = (vendor: VendorKind, name: string) => `HUB_OAUTH_${vendor.toUpperCase()}_${name}`

/** The vendor's OAuth configuration, read at each use (so a deployment can add one without a restart of this module). */
export const providerOf = (vendor: VendorKind): Effect.Effect<OAuthProvider, ReturnType<typeof reject>> => {
  const value = (name: string) => process.env[envKey(vendor, name)]?.trim() ?? ""
  const provider = {
    vendor,
    authorizeUrl: value("AUTHORIZE_URL"),
    tokenUrl: value("TOKEN_URL"),
    clientId: value("CLIENT_ID"),
    clientSecret: value("CLIENT_SECRET"),
    apiUrl: value("API_URL"),
    scopes: value("SCOPES"),
    revokeUrl: value("REVOKE_URL") || null
  }
  const missing = (["authorizeUrl", "tokenUrl", "clientId", "apiUrl"] as const).filter((key) => provider[key] === "")
  return missing.length === 0
    ? Effect.succeed(provider)
    : Effect.fail(
        reject(
          "conflict",
          `OAuth for ${vendor} is not configured on this server (${missing.map((key) => envKey(vendor, key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase())).join(", ")})`
        )
      )
}

const base64url = (bytes: Buffer) => bytes.toString("base64url")

export interface OAuthStart {
  readonly workspaceId: string
  readonly userId: string
  readonly sessionId: string
  readonly vendor: VendorKind
  readonly name: string
  readonly redirectUri: string
  /** Extra scopes asked for (a chat app's bot scopes), added to the configured ones. */
  readonly extraScopes?: ReadonlyArray<string>
}

/** Records a pending authorization and answers the vendor's consent URL for the browser. */
export const startAuthorization = (start: OAuthStart) =>
  Effect.gen(function* () {
    const provider = yield* providerOf(start.vendor)
    const state = base64url(randomBytes(32))
    const verifier = base64url(randomBytes(48))
    const challenge = base64url(createHash("sha256").update(verifier).digest())
    const expiresAt = new Date(Date.now() + STATE_TTL_MS).toISOString()
    yield* Effect.orDie(
      query(
        `INSERT INTO hub_oauth_states (state, workspace_id, user_id, session_id, vendor, name, base_url, code_verifier, redirect_uri, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          state,
          start.workspaceId,
          start.userId,
          start.sessionId,
          start.vendor,
          start.name,
          provider.apiUrl,
          verifier,
          start.redirectUri,
          expiresAt
        ]
      )
    )
    const url = new URL(provider.authorizeUrl)
    const scope = [...provider.scopes.split(/[\s,]+/), ...(start.extraScopes ?? [])].filter((s) => s !== "")
    url.searchParams.set("response_type", "code")
    url.searchParams.set("client_id", provider.clientId)
    url.searchParams.set("redirect_uri", start.redirectUri)
    url.searchParams.set("state", state)
    url.searchParams.set("code_challenge", challenge)
    url.searchParams.set("code_challenge_method", "S256")
    if (scope.length > 0) url.searchParams.set("scope", [...new Set(scope)].join(" "))
    return { authorizeUrl: url.toString(), state, expiresAt }
  })

interface TokenReply {
  readonly accessToken: string
  readonly refreshToken: string | null
  readonly expiresAt: string | null
  readonly scope: string | null
}

/** POSTs a form to the vendor's token endpoint (client credentials in the body, as RFC 6749 §2.3.1 allows). */
const tokenRequest = (provider: OAuthProvider, form: Record<string, string>) =>
  Effect.gen(function* () {
    const vendor = `the ${provider.vendor} authorization server`
    const refusal = yield* Effect.promise(() => checkOutboundUrl(provider.tokenUrl))
    if (refusal) return yield* reject("bad_gateway", `${vendor} was not called: its address ${refusal.reason}`)
    const body = new URLSearchParams({
      ...form,
      client_id: provider.clientId,
      ...(provider.clientSecret ? { client_secret: provider.clientSecret } : {})
    })
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(provider.tokenUrl, {
          method: "POST",
          signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
          headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
          body
        }),
      catch: (error) =>
        (error as Error)?.name === "TimeoutError"
          ? reject("gateway_timeout", `${vendor} did not answer in time`)
          : reject("bad_gateway", `${vendor} did not answer`)
    })
    const json = (yield* Effect.promise(() => response.json().catch(() => null))) as Record<string, unknown> | null
    if (response.status === 400 || response.status === 401) {
      const code = typeof json?.error === "string" ? json.error : `status ${response.status}`
      return yield* reject("invalid", `${vendor} refused the grant (${code})`)
    }
    if (!response.ok) return yield* reject("bad_gateway", `${vendor} failed (${response.status})`)
    if (typeof json?.access_token !== "string" || json.access_token === "")
      return yield* reject("bad_gateway", `${vendor} answered without an access token`)
    const expiresIn = Number(json.expires_in)
    return {
      accessToken: json.access_token,
      refreshToken: typeof json.refresh_token === "string" && json.refresh_token !== "" ? json.refresh_token : null,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      scope: typeof json.scope === "string" ? json.scope : null
    } satisfies TokenReply
  })

const storeTokens = (connectionId: string, tokens: TokenReply, keepRefresh: boolean) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    yield* Effect.orDie(
      query(
        `UPDATE hub_connections SET token_ciphertext = $2, token_expires_at = $3, oauth_scope = COALESCE($4, oauth_scope),
           refresh_ciphertext = CASE WHEN $5::text IS NULL AND $6 THEN refresh_ciphertext ELSE COALESCE($5, '') END
         WHERE id = $1`,
        [
          connectionId,
          keys.encrypt(tokens.accessToken),
          tokens.expiresAt,
          tokens.scope,
          tokens.refreshToken === null ? null : keys.encrypt(tokens.refreshToken),
          keepRefresh
        ]
      )
    )
  })

interface PendingState {
  readonly workspaceId: string
  readonly userId: string
  readonly sessionId: string
  readonly vendor: VendorKind
  readonly name: string
  readonly baseUrl: string
  readonly verifier: string
  readonly redirectUri: string
  readonly expired: boolean
  readonly used: boolean
}

/**
 * Finishes a flow: the state must be pending, unexpired and this session's;
 * it is spent before the code is exchanged, so a replayed callback fails.
 */
export const completeAuthorization = <E, R>(
  caller: { readonly userId: string; readonly sessionId: string },
  state: string,
  code: string,
  /** Checked before anything is spent or exchanged: may the caller still connect this vendor to the workspace? */
  authorize: (workspaceId: string, vendor: VendorKind) => Effect.Effect<unknown, E, R>
) =>
  Effect.gen(function* () {
    const [pending] = yield* Effect.orDie(
      query<PendingState>(
        `SELECT workspace_id AS "workspaceId", user_id AS "userId", session_id AS "sessionId", vendor, name, base_url AS "baseUrl",
           code_verifier AS "verifier", redirect_uri AS "redirectUri", expires_at < now() AS "expired", used_at IS NOT NULL AS "used"
         FROM hub_oauth_states WHERE state = $1`,
        [state]
      )
    )
    const refused = (message: string) => reject("invalid", message, [{ path: "body.state", message }])
    if (!pending) return yield* refused("unknown state")
    if (pending.userId !== caller.userId || pending.sessionId !== caller.sessionId)
      return yield* reject("forbidden", "This authorization was started by another session", [
        { path: "body.state", message: "bound to another session" }
      ])
    if (pending.used) return yield* refused("state already used")
    if (pending.expired) return yield* refused("state expired")
    yield* authorize(pending.workspaceId, pending.vendor)
    const [spent] = yield* Effect.orDie(
      query(`UPDATE hub_oauth_states SET used_at = now() WHERE state = $1 AND used_at IS NULL RETURNING state`, [state])
    )
    if (!spent) return yield* refused("state already used")
    const provider = yield* providerOf(pending.vendor)
    const tokens = yield* tokenRequest(provider, {
      grant_type: "authorization_code",
      code,
      redirect_uri: pending.redirectUri,
      code_verifier: pending.verifier
    })
    const connection = yield* Effect.orDie(
      create({
        workspaceId: pending.workspaceId,
        vendor: pending.vendor,
        name: pending.name,
        baseUrl: pending.baseUrl,
        token: tokens.accessToken,
        settings: {},
        createdBy: pending.userId
      })
    )
    yield* storeTokens(connection.id, tokens, false)
    return connection
  })

export interface Credentials {
  readonly accessToken: string
  readonly refreshable: boolean
  /** True when the access token expires within the refresh margin. */
  readonly expiring: boolean
}

/** The connection's decrypted access token and whether it can (and should) be refreshed; never logged. */
export const credentialsOf = (connectionId: string) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* Effect.orDie(
      query<{ access: string; refresh: string; expiresAt: string | null }>(
        `SELECT token_ciphertext AS "access", refresh_ciphertext AS "refresh", token_expires_at AS "expiresAt" FROM hub_connections WHERE id = $1`,
        [connectionId]
      )
    )
    if (!row || row.access === "") return { accessToken: "", refreshable: false, expiring: false } satisfies Credentials
    return {
      accessToken: keys.decrypt(row.access),
      refreshable: row.refresh !== "",
      expiring: row.expiresAt !== null && new Date(row.expiresAt).getTime() - Date.now() < REFRESH_MARGIN_MS
    } satisfies Credentials
  })

/** Trades the refresh token for a new access token (a rotated refresh token replaces the old one). */
export const refreshConnection = (connection: Connection) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* Effect.orDie(
      query<{ refresh: string }>(`SELECT refresh_ciphertext AS "refresh" FROM hub_connections WHERE id = $1 AND revoked_at IS NULL`, [
        connection.id
      ])
    )
    if (!row || row.refresh === "")
      return yield* reject("conflict", `The connection "${connection.name}" has no refresh token; reconnect it`)
    const provider = yield* providerOf(connection.vendor)
    const tokens = yield* tokenRequest(provider, { grant_type: "refresh_token", refresh_token: keys.decrypt(row.refresh) }).pipe(
      Effect.mapError((error) =>
        error.code === "invalid"
          ? reject("bad_gateway", `${error.message}; the connection "${connection.name}" must be reconnected`)
          : error
      )
    )
    yield* storeTokens(connection.id, tokens, true)
    return { expiresAt: tokens.expiresAt }
  })

/**
 * Revokes the connection's tokens at the vendor when it has a revocation
 * endpoint (best effort: an unreachable vendor does not keep a token alive
 * here), then erases them and closes the connection.
 */
export const revokeConnection = (workspaceId: string, connectionId: string) =>
  Effect.gen(function* () {
    const connection = yield* get(workspaceId, connectionId)
    const keys = yield* HubKeys
    const provider = yield* Effect.option(providerOf(connection.vendor))
    const [row] = yield* Effect.orDie(
      query<{ access: string; refresh: string }>(
        `SELECT token_ciphertext AS "access", refresh_ciphertext AS "refresh" FROM hub_connections WHERE id = $1`,
        [connection.id]
      )
    )
    let revokedAtVendor = false
    if (provider._tag === "Some" && provider.value.revokeUrl && row) {
      const revokeUrl = provider.value.revokeUrl
      const tokens = [
        [row.refresh, "refresh_token"],
        [row.access, "access_token"]
      ].filter(([sealed]) => sealed !== "")
      for (const [sealed, hint] of tokens) {
        const refusal = yield* Effect.promise(() => checkOutboundUrl(revokeUrl))
        if (refusal) break
        const response = yield* Effect.promise(() =>
          fetch(revokeUrl, {
            method: "POST",
            signal: AbortSignal.timeout(10_000),
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              token: keys.decrypt(sealed!),
              token_type_hint: hint!,
              client_id: provider.value.clientId,
              ...(provider.value.clientSecret ? { client_secret: provider.value.clientSecret } : {})
            })
          }).catch(() => null)
        )
        revokedAtVendor = response?.ok === true || revokedAtVendor
      }
    }
    yield* Effect.orDie(
      query(
        `UPDATE hub_connections SET revoked_at = now(), token_ciphertext = '', refresh_ciphertext = '', token_expires_at = NULL
         WHERE id = $1 AND revoked_at IS NULL`,
        [connection.id]
      )
    )
    return { connectionId: connection.id, revokedAtVendor }
  })
