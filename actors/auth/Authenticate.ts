/**
 * Turns request credentials into a Principal. The hub reads a JWT from
 * `Authorization: Bearer …` or an API key from `X-API-Key: …`; pm, wiki and
 * feedback read either from `Authorization: Bearer …` (an API key is told
 * apart by its live-key prefix). Sessions and keys are checked against their
 * actors on every request, so logout and revocation take effect at once.
 */
import { Deferred, Effect } from "effect"
import { ApiKey, hashKey, isApiKey } from "../identity/ApiKey.ts"
import { apiKeyIdByHash } from "../identity/IdentityQueries.ts"
import { Session } from "../identity/Session.ts"
import { UserStanding } from "../identity/UserStanding.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { Principal } from "../identity/Principal.ts"
import { AccessTokens } from "./AccessTokens.ts"

export interface Credentials {
  readonly authorization: string
  readonly apiKey: string
}

/** Key hash → key id. The mapping never changes for a hash, so it is safe to keep. */
const keyIds = new Map<string, string>()
const KEY_ID_CACHE_LIMIT = 10_000

const resolveApiKey = Effect.fnUntraced(function* (key: string) {
  const hash = hashKey(key)
  let keyId = keyIds.get(hash)
  if (keyId === undefined) {
    keyId = yield* apiKeyIdByHash(hash).pipe(Effect.orDie)
    if (keyId === undefined) return yield* reject("unauthorized", "Invalid API key")
    if (keyIds.size >= KEY_ID_CACHE_LIMIT) keyIds.clear()
    keyIds.set(hash, keyId)
  }
  const actors = yield* ActorSystem
  const view = yield* ApiKey.client(actors)(keyId)
    .resolve({ hash })
    .pipe(Effect.catchTag(["ApiKeyNotFound", "InvalidApiKey"], () => Effect.fail(reject("unauthorized", "Invalid or revoked API key"))))
  // A key acts as its creator: a deactivated creator's keys stop with their sessions.
  if (!(yield* UserStanding.client(actors)(view.createdBy).active({})))
    return yield* reject("unauthorized", "The API key's owner is deactivated")
  return {
    kind: "apiKey",
    keyId: view.id,
    userId: view.createdBy,
    workspaceId: view.workspaceId,
    scopes: view.scopes
  } satisfies Principal
})

/**
 * Session checks under way: callers asking about a session while a check of
 * it is in flight share its answer (a reconnect storm of one user's sockets
 * asks once, not once per socket, and never fills the session's mailbox).
 * Nothing is kept after the answer: logout still takes effect at once.
 */
const sessionChecks = new Map<string, Deferred.Deferred<boolean, unknown>>()

const sessionLive = Effect.fnUntraced(function* (sessionId: string) {
  const pending = sessionChecks.get(sessionId)
  if (pending !== undefined) return yield* Deferred.await(pending)
  const answer = yield* Deferred.make<boolean, unknown>()
  sessionChecks.set(sessionId, answer)
  return yield* Session.client(yield* ActorSystem)(sessionId)
    .check({})
    .pipe(
      Effect.onExit((exit) => {
        sessionChecks.delete(sessionId)
        return Deferred.done(answer, exit)
      })
    )
})

const resolveJwt = Effect.fnUntraced(function* (token: string) {
  const claims = yield* (yield* AccessTokens).verify(token)
  const live = yield* sessionLive(claims.sessionId)
  if (!live) return yield* reject("unauthorized", "Session ended; log in again")
  return { kind: "user", ...claims } satisfies Principal
})

/** Whichever credential it is: the principal, `undefined` without credentials, or why not. */
export type Authentication = Effect.Effect<
  Principal | undefined,
  unknown,
  AccessTokens | ActorSystem | Effect.Services<ReturnType<typeof resolveApiKey>>
>

/** `undefined` when the request carries no credentials at all. */
export const authenticate = (credentials: Credentials): Authentication => {
  if (credentials.apiKey !== "") return Effect.map(resolveApiKey(credentials.apiKey), (p): Principal | undefined => p)
  if (credentials.authorization === "") return Effect.succeed<Principal | undefined>(undefined)
  const match = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization)
  if (match === null) return Effect.fail(reject("unauthorized", "Authorization must be 'Bearer <token>'"))
  const token = match[1]!
  return isApiKey(token)
    ? Effect.map(resolveApiKey(token), (p): Principal | undefined => p)
    : Effect.map(resolveJwt(token), (p): Principal | undefined => p)
}
