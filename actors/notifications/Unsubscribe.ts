/**
 * One-click unsubscribe links (RFC 8058): a token naming the user and the
 * kind (or `all`), signed with a key every node shares (kept in the
 * database), so the link works without a session and cannot be forged for
 * someone else.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"
import { storedSecret } from "../identity/SystemSecrets.ts"
import { type NotificationKind, notificationKinds } from "./Kinds.ts"

export type UnsubscribeScope = NotificationKind | "all"

let cachedKey: string | undefined
const key = Effect.suspend(() =>
  cachedKey !== undefined
    ? Effect.succeed(cachedKey)
    : Effect.map(storedSecret("notification-unsubscribe", randomBytes(32).toString("base64url")), (secret) => (cachedKey = secret))
)

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("base64url")

export const unsubscribeToken = (userId: string, scope: UnsubscribeScope) =>
  Effect.map(key, (secret) => {
    const payload = Buffer.from(`${userId}:${scope}`).toString("base64url")
    return `${payload}.${sign(secret, payload)}`
  })

const scopes: ReadonlySet<string> = new Set([...notificationKinds, "all"])

/** The user and kind a token names; undefined for anything not signed by us. */
export const readUnsubscribeToken = (token: string) =>
  Effect.map(key, (secret) => {
    const [payload, signature, ...rest] = token.split(".")
    if (payload === undefined || signature === undefined || rest.length > 0) return undefined
    const expected = Buffer.from(sign(secret, payload))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
    const [userId, scope, ...more] = Buffer.from(payload, "base64url").toString("utf8").split(":")
    if (userId === undefined || scope === undefined || more.length > 0 || !scopes.has(scope)) return undefined
    return { userId, scope: scope as UnsubscribeScope }
  })
