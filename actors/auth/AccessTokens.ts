/**
 * Access tokens are HS256 JWTs (jose). The signing key comes from JWT_SECRET,
 * or is generated once and kept in the database, so every node of a cluster
 * (and every restart) signs and verifies with the same key.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { SignJWT, errors, jwtVerify } from "jose"
import { storedSecret } from "../identity/SystemSecrets.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"

export const ACCESS_TOKEN_SECONDS = 15 * 60
const ISSUER = "atrium"

export interface AccessClaims {
  readonly userId: string
  readonly email: string
  readonly name: string
  readonly sessionId: string
}

export interface AccessTokensShape {
  readonly issue: (claims: AccessClaims) => Effect.Effect<{ readonly token: string; readonly expiresIn: number }>
  readonly verify: (token: string) => Effect.Effect<AccessClaims, Rejection>
}

export class AccessTokens extends Context.Service<AccessTokens, AccessTokensShape>()("atrium/facade/AccessTokens") {}

const signingSecret = Effect.gen(function* () {
  const fromEnv = process.env.JWT_SECRET
  if (fromEnv) return new TextEncoder().encode(fromEnv)
  return new TextEncoder().encode(yield* storedSecret("jwt-signing-key", randomBytes(48).toString("base64url")))
})

/** Verified tokens, so a client reusing its token costs one map lookup, not an HMAC; expiry is still checked. */
const VERIFIED_CACHE_LIMIT = 10_000

export const make = (secret: Uint8Array): AccessTokensShape => {
  const verified = new Map<string, { readonly claims: AccessClaims; readonly expiresAtMillis: number }>()
  // Verifications under way: a crowd reconnecting with one token (a reconnect storm) shares one HMAC.
  const verifying = new Map<string, ReturnType<typeof jwtVerify>>()
  const verification = (token: string) => {
    let pending = verifying.get(token)
    if (pending === undefined) {
      pending = jwtVerify(token, secret, { issuer: ISSUER, algorithms: ["HS256"] })
      verifying.set(token, pending)
      const settled = () => verifying.delete(token)
      pending.then(settled, settled)
    }
    return pending
  }
  const verifySigned = (token: string): Effect.Effect<AccessClaims, Rejection> =>
    Effect.tryPromise({
      try: () => verification(token),
      catch: (error) => reject("unauthorized", error instanceof errors.JWTExpired ? "Access token expired" : "Invalid access token")
    }).pipe(
      Effect.flatMap(({ payload }) => {
        if (typeof payload.sub !== "string" || typeof payload.email !== "string" || typeof payload.sid !== "string") {
          return Effect.fail(reject("unauthorized", "Invalid access token"))
        }
        const claims: AccessClaims = {
          userId: payload.sub,
          email: payload.email,
          name: typeof payload.name === "string" ? payload.name : "",
          sessionId: payload.sid
        }
        if (verified.size >= VERIFIED_CACHE_LIMIT) verified.clear()
        verified.set(token, { claims, expiresAtMillis: (payload.exp ?? 0) * 1000 })
        return Effect.succeed(claims)
      })
    )
  return {
    issue: (claims) =>
      Effect.promise(() =>
        new SignJWT({ email: claims.email, name: claims.name, sid: claims.sessionId })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setSubject(claims.userId)
          .setIssuer(ISSUER)
          .setIssuedAt()
          .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
          .sign(secret)
      ).pipe(Effect.map((token) => ({ token, expiresIn: ACCESS_TOKEN_SECONDS }))),
    verify: (token) => {
      const hit = verified.get(token)
      if (hit === undefined) return verifySigned(token)
      if (hit.expiresAtMillis <= Date.now()) {
        verified.delete(token)
        return Effect.fail(reject("unauthorized", "Access token expired"))
      }
      return Effect.succeed(hit.claims)
    }
  }
}

export const layer = Layer.effect(AccessTokens, Effect.map(signingSecret, make))
