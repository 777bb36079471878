/**
 * When to try an outgoing delivery again: exponential backoff with full
 * jitter, capped, so receivers that come back are not hit by every sender at
 * once. Attempts are counted from 1 (the first try).
 */
export interface RetryPolicy {
  readonly maxAttempts: number
  readonly baseMs: number
  readonly capMs: number
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 8, baseMs: 1_000, capMs: 3_600_000 }

/** Delay before attempt `attempt + 1`, or undefined when `attempt` was the last allowed. */
export const nextRetryDelayMs = (
  attempt: number,
  policy: RetryPolicy = defaultRetryPolicy,
  random: () => number = Math.random
): number | undefined => {
  if (attempt >= policy.maxAttempts) return undefined
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1))
  return Math.max(1, Math.floor(ceiling / 2 + random() * (ceiling / 2)))
}

/** A receiver's `Retry-After` (seconds or HTTP date), in ms, when it gave one. */
export const retryAfterMs = (header: string | null | undefined, now = Date.now()): number | undefined => {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
