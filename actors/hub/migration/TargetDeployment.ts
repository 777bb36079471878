/**
 * The deployment a workspace migrates to, reached through its public hub
 * operations with a credential the owner holds there (a JWT or an API key):
 * every import goes through the target's own writers. A call's outcome is
 * data (status and message), never a failure of the job.
 */
import { Effect } from "effect"
import { isApiKey } from "../../identity/ApiKey.ts"

export interface Target {
  readonly origin: string
  readonly credential: string
  readonly workspaceId: string
}

export interface TargetReply {
  readonly status: number | null
  readonly ok: boolean
  readonly body: unknown
  /** The target's error message, or why it could not be reached. */
  readonly message: string
}

const timeoutMs = () => Number(process.env.TEST_PROBE_TIMEOUT_MS) || 30_000

/** One call to the target: a JSON body, or raw bytes with their content type (a media upload). */
export const callTarget = (
  target: Target,
  method: string,
  path: string,
  body: { readonly json: unknown } | { readonly bytes: Uint8Array; readonly contentType: string }
) =>
  Effect.promise(async (): Promise<TargetReply> => {
    const headers: Record<string, string> = { "content-type": "json" in body ? "application/json" : body.contentType }
    if (isApiKey(target.credential)) headers["x-api-key"] = target.credential
    else headers.authorization = `Bearer ${target.credential}`
    try {
      const response = await fetch(target.origin + path, {
        method,
        headers,
        body: "json" in body ? JSON.stringify(body.json) : Buffer.from(body.bytes),
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs())
      })
      const text = await response.text()
      let parsed: unknown = null
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = null
      }
      const message = response.ok ? "" : ((parsed as { error?: { message?: string } } | null)?.error?.message ?? text.slice(0, 200))
      return { status: response.status, ok: response.ok, body: parsed, message }
    } catch (cause) {
      return { status: null, ok: false, body: null, message: `target unreachable: ${(cause as Error).message}` }
    }
  })
