/**
 * Standard Webhooks 1.0 signing (https://www.standardwebhooks.com): the
 * receiver verifies `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>">` with the secret it was shown once
 * (`whsec_<base64 key>`). Shared by every outgoing webhook of the platform.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const PREFIX = "whsec_"

/** A new endpoint secret, in the form receivers' libraries expect. */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(24).toString("base64")}`

const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64")

/** The `v1,<base64>` signature of one delivery. */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`

/** The three headers of one delivery (the body is sent as it was signed). */
export const webhookHeaders = (secret: string, id: string, timestampSeconds: number, body: string) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestampSeconds),
  "webhook-signature": signWebhook(secret, id, timestampSeconds, body)
})

/**
 * Receiver side (used by inbound checks and tests): true when one of the
 * space-separated signatures matches and the timestamp is within tolerance.
 */
export const verifyWebhook = (
  secret: string,
  headers: { readonly id: string; readonly timestamp: string; readonly signature: string },
  body: string,
  options: { readonly nowSeconds?: number; readonly toleranceSeconds?: number } = {}
): boolean => {
  const timestamp = Number(headers.timestamp)
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000)
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body))
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
