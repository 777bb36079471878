/**
 * The VAPID key pair that signs Web Push requests: from PUSH_VAPID_PUBLIC_KEY
 * and PUSH_VAPID_PRIVATE_KEY when set, otherwise generated once and kept in
 * the database (like the JWT key), so every node and every restart signs
 * with the same key and browsers' subscriptions stay valid.
 */
import { Effect } from "effect"
import webpush from "web-push"
import { Sql } from "../../persistence/Sql.ts"

export interface VapidKeys {
  readonly publicKey: string
  readonly privateKey: string
  /** The contact the push services may reach (PUSH_VAPID_SUBJECT: a mailto: or https: URL). */
  readonly subject: string
}

const SECRET_NAME = "vapid-keys"
const loaded = new WeakMap<object, VapidKeys>()

const subject = () => process.env.PUSH_VAPID_SUBJECT || "mailto:operations@atrium.invalid"

export const vapidKeys = Effect.gen(function* () {
  const sql = yield* Sql
  const cached = loaded.get(sql)
  if (cached !== undefined) return cached
  const fromEnv = process.env.PUSH_VAPID_PUBLIC_KEY && process.env.PUSH_VAPID_PRIVATE_KEY
  let keys: VapidKeys
  if (fromEnv) keys = { publicKey: process.env.PUSH_VAPID_PUBLIC_KEY!, privateKey: process.env.PUSH_VAPID_PRIVATE_KEY!, subject: subject() }
  else {
    const generated = webpush.generateVAPIDKeys()
    yield* sql.query("INSERT INTO system_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
      SECRET_NAME,
      JSON.stringify(generated)
    ])
    const rows = yield* sql.query<{ value: string }>("SELECT value FROM system_secrets WHERE name = $1", [SECRET_NAME])
    const stored = JSON.parse(rows[0]!.value) as { publicKey: string; privateKey: string }
    keys = { publicKey: stored.publicKey, privateKey: stored.privateKey, subject: subject() }
  }
  loaded.set(sql, keys)
  return keys
})
