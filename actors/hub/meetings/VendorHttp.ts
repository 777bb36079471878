/**
 * One request to a meeting vendor or the bot provider, with the answers
 * every adapter treats alike: the SSRF guard before each call, a timeout,
 * one retry of a safe (GET) request on 5xx or no answer, and a 502 naming
 * the vendor for a rate limit (with its Retry-After), a refusal of the
 * credentials, a failure or silence. Nothing here knows a vendor's shape.
 */
import { Effect } from "effect"
import { reject, type Rejection } from "../../../runtime/Rejection.ts"
import { checkOutboundUrl } from "../../webhooks/OutboundAddress.ts"

export interface VendorRequest {
  /** How replies name the vendor: `the video-meeting app "Zoomish"`. */
  readonly vendor: string
  readonly method: "GET" | "POST" | "DELETE"
  readonly url: string
  readonly authorization: string
  readonly body?: unknown
}

interface VendorReply {
  readonly status: number
  readonly retryAfter: string | null
  readonly text: string
}

const TIMEOUT_MS = 15_000

const attempt = (request: VendorRequest): Effect.Effect<VendorReply, Rejection> =>
  Effect.gen(function* () {
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(request.url, {
          method: request.method,
          redirect: "manual",
          signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
          headers: {
            accept: "application/json, text/vtt;q=0.9, */*;q=0.5",
            ...(request.authorization !== "" ? { authorization: request.authorization } : {}),
            ...(request.body !== undefined ? { "content-type": "application/json" } : {})
          },
          ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {})
        }),
      catch: () => reject("bad_gateway", `${request.vendor} did not answer`)
    })
    const text = yield* Effect.tryPromise({
      try: () => response.text(),
      catch: () => reject("bad_gateway", `${request.vendor} broke off its answer`)
    })
    return { status: response.status, retryAfter: response.headers.get("retry-after"), text }
  })

const refusalOf = (request: VendorRequest, reply: VendorReply): Rejection | undefined => {
  if (reply.status === 429)
    return reject("bad_gateway", `${request.vendor} is rate limiting${reply.retryAfter ? `; retry after ${reply.retryAfter} s` : ""}`)
  if (reply.status >= 500) return reject("bad_gateway", `${request.vendor} failed (${reply.status}); retry later`)
  if (reply.status === 401 || reply.status === 403)
    return reject("bad_gateway", `${request.vendor} refused the credentials (${reply.status}); reconnect it`)
  if (reply.status === 404) return reject("not_found", `${request.vendor} does not know this meeting or bot`)
  if (reply.status >= 300) return reject("bad_gateway", `${request.vendor} refused the request (${reply.status})`)
  return undefined
}

/** Sends the request (a GET, being safe, is retried once when the vendor fails or is silent) and returns the body of a 2xx. */
export const vendorRequest = (request: VendorRequest): Effect.Effect<string, Rejection> =>
  Effect.gen(function* () {
    // Checked at each call: a host's addresses can change after the connection was made.
    const refusal = yield* Effect.promise(() => checkOutboundUrl(request.url))
    if (refusal) return yield* reject("bad_gateway", `${request.vendor} was not called: its address ${refusal.reason}`)
    let reply = yield* Effect.result(attempt(request))
    const failedOnce = reply._tag === "Failure" || reply.success.status >= 500
    if (request.method === "GET" && failedOnce) reply = yield* Effect.result(attempt(request))
    if (reply._tag === "Failure") return yield* reply.failure
    const refused = refusalOf(request, reply.success)
    if (refused) return yield* refused
    return reply.success.text
  })

/** The body as a JSON object, or a 502 naming the vendor. */
export const vendorJson = (request: VendorRequest) =>
  Effect.flatMap(vendorRequest(request), (text) => {
    try {
      const json = text === "" ? {} : JSON.parse(text)
      if (typeof json === "object" && json !== null && !Array.isArray(json)) return Effect.succeed(json as Record<string, unknown>)
    } catch {
      // answered below
    }
    return Effect.fail(reject("bad_gateway", `${request.vendor} answered something that is not a JSON object`))
  })
