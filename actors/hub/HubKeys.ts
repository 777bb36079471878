/**
 * The hub's two secrets: the key signing short-lived media URLs, and the
 * AES-256-GCM key encrypting integration tokens at rest. Each comes from the
 * environment (HUB_MEDIA_SIGNING_KEY, HUB_ENCRYPTION_KEY) or is generated once
 * and kept in the database, so every node of a cluster and every restart
 * shares it (like the JWT key).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { Sql } from "../../persistence/Sql.ts"

export interface HubKeysShape {
  readonly sign: (text: string) => string
  readonly verify: (text: string, signature: string) => boolean
  readonly encrypt: (plain: string) => string
  readonly decrypt: (sealed: string) => string
}

export class HubKeys extends Context.Service<HubKeys, HubKeysShape>()("atrium/hub/HubKeys") {}

const keyFrom = (raw: string, name: string): Buffer => {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64")
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex digits or base64`)
  return key
}

const stored = (name: string) =>
  Effect.gen(function* () {
    const sql = yield* Sql
    yield* sql.query("INSERT INTO system_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
      name,
      randomBytes(32).toString("base64")
    ])
    const rows = yield* sql.query<{ value: string }>("SELECT value FROM system_secrets WHERE name = $1", [name])
    return rows[0]!.value
  })

export const make = (signingKey: Buffer, encryptionKey: Buffer): HubKeysShape => {
  const mac = (text: string) => createHmac("sha256", signingKey).update(text).digest()
  return {
    sign: (text) => mac(text).toString("base64url"),
    verify: (text, signature) => {
      const given = Buffer.from(signature, "base64url")
      const expected = mac(text)
      return given.length === expected.length && timingSafeEqual(given, expected)
    },
    // iv.tag.ciphertext, base64url each: a tampered token fails to decrypt instead of decrypting to garbage.
    encrypt: (plain) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv)
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
      return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".")
    },
    decrypt: (text) => {
      const [iv, tag, sealed] = text.split(".").map((part) => Buffer.from(part, "base64url"))
      const decipher = createDecipheriv("aes-256-gcm", encryptionKey, iv!)
      decipher.setAuthTag(tag!)
      return Buffer.concat([decipher.update(sealed!), decipher.final()]).toString("utf8")
    }
  }
}

export const layer = Layer.effect(
  HubKeys,
  Effect.gen(function* () {
    const signing = process.env.HUB_MEDIA_SIGNING_KEY || (yield* stored("hub-media-signing-key"))
    const encryption = process.env.HUB_ENCRYPTION_KEY || (yield* stored("hub-encryption-key"))
    return make(keyFrom(signing, "HUB_MEDIA_SIGNING_KEY"), keyFrom(encryption, "HUB_ENCRYPTION_KEY"))
  }).pipe(Effect.orDie)
)
