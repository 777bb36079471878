/**
 * Single-use tokens mailed to a user to prove they read that mailbox:
 * password reset (1 hour) and e-mail verification (2 days). Only the hash is
 * stored (the same hashing as pm's invitation tokens); consuming marks the
 * row used in the same statement that checks it, so a token works once even
 * under concurrent use.
 */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { hashSecret } from "../pm/Invitations.ts"

export const EmailTokenPurpose = Schema.Literals(["password_reset", "email_verification"])
export type EmailTokenPurpose = typeof EmailTokenPurpose.Type

const prefixes: Record<EmailTokenPurpose, string> = { password_reset: "hrst_", email_verification: "hvrf_" }
const lifetimes: Record<EmailTokenPurpose, number> = { password_reset: 3_600_000, email_verification: 2 * 86_400_000 }
/** Tokens a user may be sent per purpose and hour (a mailbox is not a target to flood). */
export const HOURLY_TOKEN_LIMIT = 5

export const EmailToken = (purpose: EmailTokenPurpose) =>
  Schema.String.check(
    Schema.isPattern(new RegExp(`^${prefixes[purpose]}[A-Za-z0-9_-]{43}$`), { expected: `a token from the e-mail (${prefixes[purpose]}…)` })
  )

/** Stands in for the user when nobody uses the address: it owns no tokens. */
const NOBODY = "00000000-0000-0000-0000-000000000000"

/**
 * A new token for the user, or undefined when they were sent too many this
 * hour. Without a user (nobody uses the address) the same work is done (the
 * limit looked up, a token made and hashed) and nothing is stored, so the
 * caller's reply takes as long either way.
 */
export const issueEmailToken = (purpose: EmailTokenPurpose, user: { readonly id: string; readonly email: string } | undefined) =>
  Effect.gen(function* () {
    const recent = yield* query<{ count: number }>(
      "SELECT count(*)::int AS count FROM hub_email_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > now() - interval '1 hour'",
      [user?.id ?? NOBODY, purpose]
    )
    const token = `${prefixes[purpose]}${randomBytes(32).toString("base64url")}`
    const tokenHash = hashSecret(token)
    if (user === undefined || (recent[0]?.count ?? 0) >= HOURLY_TOKEN_LIMIT) return undefined
    const expiresAt = new Date(Date.now() + lifetimes[purpose]).toISOString()
    yield* query("INSERT INTO hub_email_tokens (token_hash, purpose, email, user_id, expires_at) VALUES ($1, $2, $3, $4, $5)", [
      tokenHash,
      purpose,
      user.email,
      user.id,
      expiresAt
    ])
    return { token, expiresAt }
  })

/** Uses the token up: who it was mailed to, or 400 naming `body.token` when it is unknown, used or expired. */
export const consumeEmailToken = (purpose: EmailTokenPurpose, token: string) =>
  Effect.gen(function* () {
    const rows = yield* query<{ userId: string; email: string }>(
      `UPDATE hub_email_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id AS "userId", email`,
      [hashSecret(token), purpose]
    ).pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined)
      return yield* reject("invalid", "The link is invalid, already used or expired; ask for a new one", [
        { path: "body.token", message: "unknown, used or expired" }
      ])
    return row
  })

/** Makes the user's other unused tokens of this purpose worthless (after a successful reset). */
export const discardEmailTokens = (purpose: EmailTokenPurpose, userId: string) =>
  query("UPDATE hub_email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL", [userId, purpose])
