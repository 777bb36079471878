/**
 * One HTTP call to a user-given endpoint, measured and explained rather than
 * thrown: the connection tests report what happened (status, latency, the
 * error, a short excerpt of the answer). The URL passes the outbound guard
 * first (no private or internal addresses unless ATRIUM_ALLOW_PRIVATE_URLS=1).
 */
import { Effect } from "effect"
import { checkOutboundUrl } from "../webhooks/OutboundAddress.ts"

export interface ProbeRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

export interface ProbeOutcome {
  readonly ok: boolean
  readonly status: number | null
  readonly latencyMs: number
  readonly error: string | null
  /** The answer parsed as JSON when it was JSON (for vendor-specific checks). */
  readonly json: unknown
  readonly excerpt: string
}

const EXCERPT_CHARS = 300
export const probeTimeoutMs = () => Number(process.env.TEST_PROBE_TIMEOUT_MS) || 10_000

/** Calls the endpoint; never fails (a refused URL, a timeout, a reset connection are outcomes). */
export const probe = (request: ProbeRequest): Effect.Effect<ProbeOutcome> =>
  Effect.promise(async (): Promise<ProbeOutcome> => {
    const refusal = await checkOutboundUrl(request.url)
    if (refusal !== undefined)
      return { ok: false, status: null, latencyMs: 0, error: `URL ${refusal.reason}`, json: undefined, excerpt: "" }
    const timeout = probeTimeoutMs()
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers: { "user-agent": "Atrium-ConnectionTest/1", ...request.headers },
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: "manual",
        signal: AbortSignal.timeout(timeout)
      })
      const text = await response.text()
      const latencyMs = elapsed()
      let json: unknown
      try {
        json = text === "" ? undefined : JSON.parse(text)
      } catch {
        json = undefined
      }
      return {
        ok: response.status >= 200 && response.status < 300,
        status: response.status,
        latencyMs,
        error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status} ${response.statusText}`.trim(),
        json,
        excerpt: text.slice(0, EXCERPT_CHARS)
      }
    } catch (cause) {
      const name = (cause as { name?: string })?.name
      const error =
        name === "TimeoutError" || name === "AbortError"
          ? `timed out after ${timeout} ms`
          : `connection failed: ${((cause as { cause?: { code?: string; message?: string } })?.cause?.code ?? (cause as Error)?.message) || "unknown"}`
      return { ok: false, status: null, latencyMs: elapsed(), error, json: undefined, excerpt: "" }
    }
  })
