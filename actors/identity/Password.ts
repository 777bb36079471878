/** Password hashing with scrypt from node:crypto (runs on libuv's thread pool, off the event loop). */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

/**
 * scrypt's cost N for new hashes: `PASSWORD_SCRYPT_N`, a power of two from 1,024 (default 16,384, OWASP's
 * minimum for r = 8). Each hash records its own N, so hashes made under another setting still verify. Tests
 * lower it (vitest.config.ts): at the default each hash costs tens of milliseconds of CPU, and the suite
 * registers and signs in thousands of users.
 */
const costN = (): number => {
  const configured = Number(process.env.PASSWORD_SCRYPT_N)
  return Number.isInteger(configured) && configured >= 1024 && (configured & (configured - 1)) === 0 ? configured : 16384
}
const r = 8
const p = 1
const KEY_LENGTH = 32

const derive = (password: string, salt: Buffer, n: number, rr: number, pp: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key))
    )
  })

/** `scrypt$N$r$p$salt$hash`, base64url. */
export const hashPassword = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(16)
  const N = costN()
  return Effect.map(
    derive(password, salt, N, r, p),
    (key) => `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`
  )
}

export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, n, rr, pp, salt, hash] = stored.split("$")
  if (scheme !== "scrypt" || !salt || !hash) return Effect.succeed(false)
  const expected = Buffer.from(hash, "base64url")
  return Effect.map(
    derive(password, Buffer.from(salt, "base64url"), Number(n), Number(rr), Number(pp)),
    (key) => key.length === expected.length && timingSafeEqual(key, expected)
  )
}
