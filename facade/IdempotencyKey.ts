/**
 * The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header)
 * on API writes: a client that sends a write again with the same key (after a
 * timeout, a 503 "interrupted", a dropped connection) gets the first reply
 * instead of a second application. Declared here once: the pipeline reads it
 * for every write operation (not GET, not public) and the OpenAPI documents
 * derive the parameter from `appliesTo`.
 *
 * The key is scoped by the caller (user or API key), the method and the path,
 * so two callers' keys never collide, and handed to the operation's actor
 * writes as `AskOptions.idempotencyKey` (its n-th ask gets `<scope>/<n>`):
 * the actors record it with their writes and answer a repeated key from the
 * record (`runtime/RequestLog.ts`), for as long as `actor_requests` keeps it.
 */
import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import type { Principal } from "../actors/identity/Principal.ts"
import { ActorSystem, type ActorSystemShape } from "../runtime/ActorSystem.ts"
import { reject } from "../runtime/Rejection.ts"
import { retentionMillis } from "../runtime/RequestLog.ts"
import type { AnyOperation } from "./Operation.ts"

export const headerName = "Idempotency-Key"

/** Operations that take the header: writes with a caller to scope the key by. */
export const appliesTo = (operation: Pick<AnyOperation, "method" | "auth">): boolean =>
  operation.method !== "GET" && operation.auth !== "public"

const retentionMinutes = retentionMillis / 60_000

/** The OpenAPI parameter (`components.parameters.IdempotencyKey`). */
export const parameter = {
  name: headerName,
  in: "header",
  required: false,
  description:
    `A key of your choosing (1–255 visible ASCII characters, e.g. a UUID; a quoted string as the IETF draft writes it is accepted too) ` +
    `that makes this write safe to send again: a request repeating a key you sent within the last ${retentionMinutes} minutes, ` +
    `to the same method and path, is answered with the first request's reply (same status and body) instead of being applied again. ` +
    `Keys are per caller (user or API key). A first request that was refused before anything was written (4xx, 503 other than ` +
    `"interrupted") leaves no trace, so sending it again runs it.`,
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" }
} as const

const visibleAscii = /^[\x21-\x7E]{1,255}$/

/** The header's value if present and valid; a 400 naming it if present and invalid. */
export const parse = (headers: Readonly<Record<string, string>> | undefined) => {
  const value = headers?.["idempotency-key"]
  if (value === undefined) return Effect.succeed(undefined)
  // The draft's form is a Structured Field string ("…"); a bare token is what most clients send.
  const key = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
  return visibleAscii.test(key)
    ? Effect.succeed(key)
    : Effect.fail(
        reject("invalid", `Invalid header ${headerName}: 1 to 255 visible ASCII characters`, [
          { path: `header.${headerName}`, message: "expected 1 to 255 visible ASCII characters" }
        ])
      )
}

const callerOf = (principal: Principal): string => (principal.kind === "apiKey" ? `apiKey:${principal.keyId}` : `user:${principal.userId}`)

/**
 * The ActorSystem the operation's handler asks through: each of its asks that
 * carries no key of its own gets `<scope>/<n>`, n counting its asks in order
 * (a handler asks the same actors in the same order when sent again).
 */
const keyed = (system: ActorSystemShape, scope: string): ActorSystemShape => {
  let asks = 0
  return {
    ...system,
    ask: (kind, id, tag, payload, options) =>
      kind.readOnly?.includes(tag) === true || options?.idempotencyKey !== undefined
        ? system.ask(kind, id, tag, payload, options)
        : system.ask(kind, id, tag, payload, { ...options, idempotencyKey: `${scope}/${asks++}` })
  }
}

/** Runs `handler` with its actor writes keyed by `key`, scoped by the caller, method and path. */
export const withKey = <A, E, R>(
  handler: Effect.Effect<A, E, R>,
  key: string,
  principal: Principal,
  method: string,
  path: string
): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.serviceOption(ActorSystem), (system) => {
    if (Option.isNone(system)) return handler
    const scope = `http:${createHash("sha256")
      .update(JSON.stringify([callerOf(principal), method, path, key]))
      .digest("base64url")}`
    return Effect.provideService(handler, ActorSystem, keyed(system.value, scope))
  })
