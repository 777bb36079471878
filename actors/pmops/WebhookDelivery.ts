/**
 * The webhook delivery worker: drains `pm_webhook_outbox`, signing each POST
 * with Standard Webhooks headers. A row is leased before it is sent (so nodes
 * sharing the database never send one twice at once, and a node killed
 * mid-send leaves a lease that expires and the row is sent again with the
 * same webhook-id: at-least-once, deduplicated by the receiver). Per
 * (endpoint, entity) only the oldest pending row is eligible, so deliveries
 * of one entity arrive in change order. Failures retry with backoff and
 * jitter (or the receiver's Retry-After); exhausted rows become dead letters;
 * 410 Gone disables the endpoint.
 */
import { Effect, Schedule } from "effect"
import { query } from "../../persistence/Sql.ts"
import { checkOutboundUrl } from "../webhooks/OutboundAddress.ts"
import { nextRetryDelayMs, type RetryPolicy, retryAfterMs } from "../webhooks/RetrySchedule.ts"
import { webhookHeaders } from "../webhooks/StandardWebhooks.ts"
import { send } from "../pm/WorkActor.ts"
import { PmWebhooks } from "./Webhooks.ts"

export interface DeliveryOptions {
  readonly policy: RetryPolicy
  readonly timeoutMs: number
  readonly pollMs: number
  readonly batch: number
  readonly concurrency: number
  readonly leaseSeconds: number
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** From PM_WEBHOOK_* variables (see README). */
export const deliveryOptionsFromEnv = (): DeliveryOptions => ({
  policy: {
    maxAttempts: envNumber("PM_WEBHOOK_MAX_ATTEMPTS", 8),
    baseMs: envNumber("PM_WEBHOOK_RETRY_BASE_MS", 1_000),
    capMs: envNumber("PM_WEBHOOK_RETRY_CAP_MS", 3_600_000)
  },
  timeoutMs: envNumber("PM_WEBHOOK_TIMEOUT_MS", 10_000),
  pollMs: envNumber("PM_WEBHOOK_POLL_MS", 250),
  batch: 200,
  concurrency: 32,
  leaseSeconds: envNumber("PM_WEBHOOK_LEASE_SECONDS", 60)
})

interface Claimed {
  readonly id: string
  readonly endpointId: string
  readonly workspaceId: string
  readonly owner: string
  readonly payload: unknown
  readonly attempts: number
  readonly url: string
  readonly secret: string
}

const claim = (options: DeliveryOptions) =>
  query<Claimed>(
    `WITH due AS (
       SELECT o.id FROM pm_webhook_outbox o
         JOIN pm_webhook_endpoints ep ON ep.id = o.endpoint_id AND ep.status = 'active'
        WHERE o.status = 'pending' AND o.next_attempt_at <= now() AND (o.lease_until IS NULL OR o.lease_until < now())
          AND NOT EXISTS (SELECT 1 FROM pm_webhook_outbox p
                           WHERE p.endpoint_id = o.endpoint_id AND p.entity_id = o.entity_id AND p.status = 'pending'
                             AND (p.event_seq < o.event_seq OR (p.event_seq = o.event_seq AND p.id < o.id)))
        ORDER BY o.next_attempt_at, o.event_seq
        LIMIT $1
        FOR UPDATE OF o SKIP LOCKED
     )
     UPDATE pm_webhook_outbox o SET lease_until = now() + make_interval(secs => $2)
       FROM due, pm_webhook_endpoints ep
      WHERE o.id = due.id AND ep.id = o.endpoint_id
     RETURNING o.id, o.endpoint_id AS "endpointId", o.workspace_id AS "workspaceId", ep.created_by AS owner, o.payload, o.attempts, ep.url, ep.secret`,
    [options.batch, options.leaseSeconds]
  )

type Outcome =
  | { readonly kind: "delivered"; readonly status: number }
  | { readonly kind: "gone"; readonly status: number }
  | { readonly kind: "failed"; readonly status: number | null; readonly error: string; readonly retryAfterMs?: number }

const post = (row: Claimed, options: DeliveryOptions): Promise<Outcome> =>
  (async (): Promise<Outcome> => {
    // Checked at every send, not only when saved: a name may resolve elsewhere now (DNS rebinding).
    const refusal = await checkOutboundUrl(row.url)
    if (refusal) return { kind: "failed", status: null, error: `url ${refusal.reason}` }
    const body = JSON.stringify(row.payload)
    const headers = {
      ...webhookHeaders(row.secret, row.id, Math.floor(Date.now() / 1000), body),
      "content-type": "application/json",
      "user-agent": "Atrium-Webhooks/1.0"
    }
    try {
      const response = await fetch(row.url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(options.timeoutMs)
      })
      await response.body?.cancel().catch(() => undefined)
      if (response.status >= 200 && response.status < 300) return { kind: "delivered", status: response.status }
      if (response.status === 410) return { kind: "gone", status: 410 }
      const after = retryAfterMs(response.headers.get("retry-after"))
      return {
        kind: "failed",
        status: response.status,
        error: `HTTP ${response.status}`,
        ...(after !== undefined ? { retryAfterMs: after } : {})
      }
    } catch (error) {
      return {
        kind: "failed",
        status: null,
        error: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : "request failed"
      }
    }
  })()

const record = (row: Claimed, outcome: Outcome, options: DeliveryOptions) => {
  const attempts = row.attempts + 1
  switch (outcome.kind) {
    case "delivered":
      return query(
        `UPDATE pm_webhook_outbox SET status = 'delivered', attempts = $2, last_status = $3, last_error = NULL, delivered_at = now(), lease_until = NULL WHERE id = $1`,
        [row.id, attempts, outcome.status]
      )
    case "gone":
      // The receiver says the endpoint is gone for good: its actor stops it (the row waits, should it be re-enabled).
      return Effect.andThen(
        query(
          `UPDATE pm_webhook_outbox SET attempts = $2, last_status = 410, last_error = 'endpoint gone', lease_until = NULL WHERE id = $1`,
          [row.id, attempts]
        ),
        send(PmWebhooks, row.workspaceId, "disable", row.owner, { endpointId: row.endpointId, reason: "The receiver answered 410 Gone" })
      )
    case "failed": {
      const backoff = nextRetryDelayMs(attempts, options.policy)
      if (backoff === undefined) {
        return query(
          `UPDATE pm_webhook_outbox SET status = 'dead', attempts = $2, last_status = $3, last_error = $4, dead_at = now(), lease_until = NULL WHERE id = $1`,
          [row.id, attempts, outcome.status, outcome.error]
        )
      }
      const delay = Math.min(options.policy.capMs, outcome.retryAfterMs ?? backoff)
      return query(
        `UPDATE pm_webhook_outbox SET attempts = $2, last_status = $3, last_error = $4, lease_until = NULL,
                next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
        [row.id, attempts, outcome.status, outcome.error, delay / 1000]
      )
    }
  }
}

/** One pass: claims what is due and sends it; the number sent. */
export const deliverDue = (options: DeliveryOptions) =>
  Effect.gen(function* () {
    const rows = yield* claim(options)
    yield* Effect.forEach(
      rows,
      (row) =>
        Effect.flatMap(
          Effect.promise(() => post(row, options)),
          (outcome) => record(row, outcome, options)
        ).pipe(
          // One row's bookkeeping failing leaves it leased (sent again when the lease lapses), never the batch stuck.
          Effect.catchCause((cause) => Effect.logWarning(`webhooks: recording delivery ${row.id} failed`, cause))
        ),
      { concurrency: options.concurrency, discard: true }
    )
    return rows.length
  })

/** Runs forever: passes back to back while there is work, else one per poll interval. */
export const deliveryWorker = (options: DeliveryOptions = deliveryOptionsFromEnv()) =>
  Effect.gen(function* () {
    const sent = yield* deliverDue(options).pipe(
      Effect.catchCause((cause) => Effect.as(Effect.logWarning("webhooks: delivery pass failed", cause), 0))
    )
    if (sent === 0) yield* Effect.sleep(options.pollMs)
  }).pipe(Effect.repeat(Schedule.forever))
