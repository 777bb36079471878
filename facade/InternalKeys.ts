/**
 * Service-to-service credentials: internal keys, sent as `X-Internal-Key`.
 * They come from ATRIUM_INTERNAL_KEYS (comma-separated `name:secret` or bare
 * secrets, at least 32 characters each) and are compared in constant time.
 * End users (JWT) and API keys never pass: internal operations are declared
 * without user authentication and answer 403 to any caller without a valid key.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"
import { reject } from "../runtime/Rejection.ts"
import type { RequestContext } from "./Operation.ts"

export const INTERNAL_KEY_HEADER = "x-internal-key"
const MIN_SECRET_LENGTH = 32

export interface InternalCaller {
  /** The key's name (for the audit), `internal` when the key has none. */
  readonly name: string
}

const digest = (text: string) => createHash("sha256").update(text).digest()

const configuredKeys = (env: NodeJS.ProcessEnv) =>
  (env.ATRIUM_INTERNAL_KEYS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      const colon = entry.indexOf(":")
      const [name, secret] =
        colon > 0 && entry.length - colon - 1 >= MIN_SECRET_LENGTH ? [entry.slice(0, colon), entry.slice(colon + 1)] : ["internal", entry]
      return { name, digest: digest(secret), usable: secret.length >= MIN_SECRET_LENGTH }
    })
    .filter((key) => key.usable)

export const requireInternalKey = (
  context: RequestContext,
  env: NodeJS.ProcessEnv = process.env
): Effect.Effect<InternalCaller, ReturnType<typeof reject>> => {
  const presented = context.headers?.[INTERNAL_KEY_HEADER] ?? ""
  if (presented === "")
    return Effect.fail(
      reject("forbidden", "Internal operation: requires a service's X-Internal-Key; user sessions and API keys are refused")
    )
  const presentedDigest = digest(presented)
  const match = configuredKeys(env).find((key) => timingSafeEqual(key.digest, presentedDigest))
  return match === undefined ? Effect.fail(reject("forbidden", "Invalid internal key")) : Effect.succeed({ name: match.name })
}
