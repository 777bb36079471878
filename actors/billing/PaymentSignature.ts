/**
 * The payment provider's webhook signature: `Payment-Signature: t=<unix
 * seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the shared secret>`
 * (several v1 entries allowed during a secret rotation). Events older or
 * newer than the tolerance are refused, so a captured request cannot be
 * replayed later.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export const SIGNATURE_HEADER = "payment-signature"
export const TOLERANCE_SECONDS = 300

export const signPayment = (secret: string, timestamp: number, body: string | Uint8Array): string =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string }

export const verifyPayment = (
  secret: string,
  header: string,
  body: Uint8Array,
  nowSeconds = Math.floor(Date.now() / 1000)
): SignatureCheck => {
  const parts = header.split(",").map((part) => part.trim().split("="))
  const timestamp = Number(parts.find(([key]) => key === "t")?.[1])
  const signatures = parts.filter(([key]) => key === "v1").map(([, value]) => value ?? "")
  if (!Number.isInteger(timestamp) || signatures.length === 0) return { ok: false, reason: "Malformed Payment-Signature header (t=…,v1=…)" }
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS)
    return { ok: false, reason: `Signature timestamp outside the ${TOLERANCE_SECONDS}-second tolerance` }
  const expected = Buffer.from(signPayment(secret, timestamp, body), "hex")
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, "hex")
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  return matches ? { ok: true } : { ok: false, reason: "Signature does not match" }
}
