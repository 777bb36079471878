/**
 * A local OpenID Connect provider for the SSO tests: discovery document,
 * JWKS and token endpoint (client_secret_basic, PKCE S256), signing ID
 * tokens with jose. The test plays the browser: it "authorizes" a code for
 * the login's challenge and nonce, with claims it may bend (another issuer,
 * another audience, an expired token, another nonce).
 */
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose"

export interface Grant {
  readonly email: string
  readonly name?: string
  readonly issuer?: string
  readonly audience?: string
  readonly expiresInSeconds?: number
  readonly nonce?: string
  readonly emailVerified?: boolean
}

export interface FakeOidc {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** Issues a code for the login whose authorization URL is given. */
  readonly authorize: (authorizationUrl: string, grant: Grant) => { code: string; state: string }
  readonly tokenRequests: Array<Record<string, string>>
  readonly close: () => Promise<void>
}

export const startFakeOidc = async (): Promise<FakeOidc> => {
  const { publicKey, privateKey } = await generateKeyPair("RS256")
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }
  const clientId = "atrium-test-client"
  const clientSecret = "fake-provider-secret"
  const codes = new Map<string, { challenge: string; nonce: string; redirectUri: string; grant: Grant }>()
  const tokenRequests: Array<Record<string, string>> = []
  let issuer = ""
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer)
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"]
      })
    }
    if (url.pathname === "/jwks") return json(200, { keys: [jwk] })
    if (url.pathname === "/token" && req.method === "POST") {
      let body = ""
      req.on("data", (chunk) => {
        body += chunk
      })
      req.on("end", async () => {
        const form = Object.fromEntries(new URLSearchParams(body))
        tokenRequests.push(form)
        const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString()
        if (basic !== `${clientId}:${clientSecret}`) return json(401, { error: "invalid_client" })
        const entry = codes.get(form.code ?? "")
        codes.delete(form.code ?? "")
        if (entry === undefined || form.grant_type !== "authorization_code") return json(400, { error: "invalid_grant" })
        const challenge = createHash("sha256")
          .update(form.code_verifier ?? "")
          .digest("base64url")
        if (challenge !== entry.challenge) return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" })
        if (form.redirect_uri !== entry.redirectUri)
          return json(400, { error: "invalid_grant", error_description: "redirect_uri mismatch" })
        const { grant } = entry
        const nowSeconds = Math.floor(Date.now() / 1000)
        const idToken = await new SignJWT({
          email: grant.email,
          email_verified: grant.emailVerified ?? true,
          name: grant.name ?? "SSO User",
          nonce: grant.nonce ?? entry.nonce
        })
          .setProtectedHeader({ alg: "RS256", kid: "test-key" })
          .setIssuer(grant.issuer ?? issuer)
          .setAudience(grant.audience ?? clientId)
          .setSubject(`sub-${grant.email}`)
          .setIssuedAt(nowSeconds - 60)
          .setExpirationTime(nowSeconds + (grant.expiresInSeconds ?? 300))
          .sign(privateKey)
        json(200, { access_token: "provider-access-token", token_type: "Bearer", expires_in: 300, id_token: idToken })
      })
      return
    }
    json(404, { error: "not_found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let counter = 0
  return {
    issuer,
    clientId,
    clientSecret,
    tokenRequests,
    authorize: (authorizationUrl, grant) => {
      const url = new URL(authorizationUrl)
      const code = `code-${++counter}`
      codes.set(code, {
        challenge: url.searchParams.get("code_challenge")!,
        nonce: url.searchParams.get("nonce")!,
        redirectUri: url.searchParams.get("redirect_uri")!,
        grant
      })
      return { code, state: url.searchParams.get("state")! }
    },
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
