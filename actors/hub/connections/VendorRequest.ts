/**
 * One authorized JSON request to a connection's vendor, with the rules every
 * adapter shares: the token is refreshed before it expires and once more on
 * a 401; a 429 is waited out (its Retry-After, when short) and a 5xx retried
 * for safe requests (reads, and writes the vendor deduplicates by an
 * idempotency key); a vendor that does not answer in time is a 504 and one
 * that fails a 502, both naming the vendor. Tokens never reach a message.
 */
import { Effect } from "effect"
import { reject } from "../../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../../webhooks/OutboundAddress.ts"
import type { Connection } from "./Connections.ts"
import { credentialsOf, refreshConnection } from "./OAuth.ts"

const vendorLabels: Partial<Record<string, string>> = {
  tracker: "issue tracker",
  taskapp: "task tool",
  tablebase: "spreadsheet-database tool",
  docspace: "documentation tool",
  pm: "project-management tool",
  chatapp: "team-chat app",
  calendar: "calendar suite",
  workchat: "team-meeting app"
}

export const vendorLabel = (connection: Connection) => `the ${vendorLabels[connection.vendor] ?? connection.vendor} "${connection.name}"`

const numberFromEnv = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value >= 0 ? value : fallback
}

export interface VendorCall {
  readonly method: "GET" | "POST" | "PUT" | "PATCH"
  readonly path: string
  readonly body?: unknown
  /** Sent as `Idempotency-Key`: makes a write safe to retry. */
  readonly idempotencyKey?: string
  /** An absolute address on the connection's host instead of `path` (a vendor's next-page or delta link). */
  readonly url?: string
  readonly headers?: Readonly<Record<string, string>>
  /** What a 410 Gone answers instead of failing (a sync token or delta link the vendor expired: the caller starts over). */
  readonly goneAs?: Record<string, unknown>
}

type Outcome =
  | { readonly kind: "ok"; readonly json: Record<string, any> }
  | { readonly kind: "unauthorized" }
  | { readonly kind: "retry"; readonly afterMs: number; readonly failure: ReturnType<typeof reject> }

const attempt = (connection: Connection, token: string, call: VendorCall) =>
  Effect.gen(function* () {
    const vendor = vendorLabel(connection)
    const timeoutMs = numberFromEnv("HUB_VENDOR_TIMEOUT_MS", 15_000)
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(call.url ?? connection.baseUrl + call.path, {
          method: call.method,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
          headers: {
            accept: "application/json",
            authorization: `Bearer ${token}`,
            ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
            ...(call.idempotencyKey ? { "idempotency-key": call.idempotencyKey } : {}),
            ...call.headers
          },
          ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {})
        }),
      catch: (error) =>
        (error as Error)?.name === "TimeoutError"
          ? reject("gateway_timeout", `${vendor} did not answer within ${timeoutMs} ms`)
          : reject("bad_gateway", `${vendor} did not answer`)
    })
    if (response.status === 401) {
      yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
      return { kind: "unauthorized" } satisfies Outcome as Outcome
    }
    if (response.status === 429 || response.status >= 500) {
      yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
      const after = Number(response.headers.get("retry-after"))
      const afterSeconds = Number.isFinite(after) && after >= 0 ? after : null
      const failure =
        response.status === 429
          ? reject("rate_limited", `${vendor} is rate limiting${afterSeconds !== null ? `; retry after ${afterSeconds} s` : ""}`)
          : reject("bad_gateway", `${vendor} failed (${response.status}); retry later`)
      return { kind: "retry", afterMs: afterSeconds !== null ? afterSeconds * 1000 : 200, failure } satisfies Outcome as Outcome
    }
    if (response.status === 410 && call.goneAs !== undefined) {
      yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
      return { kind: "ok", json: call.goneAs } satisfies Outcome as Outcome
    }
    if (response.status === 403) return yield* reject("bad_gateway", `${vendor} refused the connection's access (403)`)
    if (response.status === 404) return yield* reject("bad_gateway", `${vendor} does not know ${call.method} ${call.path.split("?")[0]}`)
    if (!response.ok) return yield* reject("bad_gateway", `${vendor} refused the request (${response.status})`)
    const text = yield* Effect.promise(() => response.text())
    if (text === "") return { kind: "ok", json: {} } satisfies Outcome as Outcome
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => reject("bad_gateway", `${vendor} answered something that is not JSON`)
    })
    if (typeof json !== "object" || json === null) return yield* reject("bad_gateway", `${vendor} answered something that is not JSON`)
    // A bare array is wrapped so every adapter reads one shape.
    return { kind: "ok", json: Array.isArray(json) ? { items: json } : (json as Record<string, any>) } satisfies Outcome as Outcome
  })

/** Sends `call` to the connection's vendor and answers its JSON reply (an array reply as `{items}`). */
export const vendorRequest = (connection: Connection, call: VendorCall) =>
  Effect.gen(function* () {
    const vendor = vendorLabel(connection)
    // Checked at each call: a host's addresses can change after the connection was made.
    // A link the vendor handed over must stay on the connection's host: the token goes nowhere else.
    if (call.url !== undefined && (!URL.canParse(call.url) || new URL(call.url).origin !== new URL(connection.baseUrl).origin))
      return yield* reject("bad_gateway", `${vendor} handed over a link to another host; it was not followed`)
    const refusal = yield* Effect.promise(() => checkOutboundUrl(call.url ?? connection.baseUrl))
    if (refusal) return yield* reject("bad_gateway", `${vendor} was not called: its address ${refusal.reason}`)
    let credentials = yield* credentialsOf(connection.id)
    if (credentials.accessToken === "") return yield* reject("conflict", `The connection "${connection.name}" has no token; reconnect it`)
    let refreshed = false
    if (credentials.expiring && credentials.refreshable) {
      yield* refreshConnection(connection)
      credentials = yield* credentialsOf(connection.id)
      refreshed = true
    }
    const safe = call.method === "GET" || call.idempotencyKey !== undefined
    const maxRetries = safe ? numberFromEnv("HUB_VENDOR_RETRIES", 2) : 0
    const maxWaitMs = numberFromEnv("HUB_VENDOR_MAX_RETRY_AFTER_SECONDS", 5) * 1000
    let retries = 0
    for (;;) {
      const outcome = yield* attempt(connection, credentials.accessToken, call)
      if (outcome.kind === "ok") return outcome.json
      if (outcome.kind === "unauthorized") {
        if (refreshed || !credentials.refreshable)
          return yield* reject("bad_gateway", `${vendor} refused the connection's credentials (401); reconnect it`)
        yield* refreshConnection(connection)
        credentials = yield* credentialsOf(connection.id)
        refreshed = true
        continue
      }
      // A 429 is retried even for writes: the vendor refused before doing anything.
      const rateLimited = outcome.failure.code === "rate_limited"
      if ((!safe && !rateLimited) || retries >= Math.max(maxRetries, rateLimited ? 1 : 0) || outcome.afterMs > maxWaitMs)
        return yield* outcome.failure
      retries += 1
      yield* Effect.sleep(Math.min(outcome.afterMs * retries, maxWaitMs))
    }
  })
