/**
 * Sends the outbox's due deliveries: leases a batch (`FOR UPDATE SKIP LOCKED`,
 * so several nodes on one database never send the same attempt twice at
 * once), signs each with Standard Webhooks headers, records every attempt,
 * and schedules retries with backoff and jitter (a receiver's Retry-After
 * wins). 2xx delivers; 410 Gone fails the delivery and disables the
 * endpoint; an address the SSRF guard refuses fails it. A lease that runs
 * out (a node killed mid-send) makes the delivery due again.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { checkOutboundUrl } from "./OutboundAddress.ts"
import { defaultRetryPolicy, nextRetryDelayMs, type RetryPolicy, retryAfterMs } from "./RetrySchedule.ts"
import { webhookHeaders } from "./StandardWebhooks.ts"

export interface Endpoint {
  readonly url: string
  readonly secret: string
  readonly enabled: boolean
}

/** How the worker finds a source's endpoints, and tells it one is gone (410). */
export interface EndpointSource<R = never> {
  readonly resolve: (endpointId: string) => Effect.Effect<Endpoint | undefined, unknown, R>
  readonly disable: (endpointId: string, ownerId: string, reason: string) => Effect.Effect<void, unknown, R>
}

export interface WorkerOptions {
  readonly pollMillis: number
  readonly batchSize: number
  readonly timeoutMillis: number
  readonly leaseSeconds: number
  readonly policy: RetryPolicy
}

export const defaultWorkerOptions: WorkerOptions = {
  pollMillis: 1000,
  batchSize: 20,
  timeoutMillis: 10_000,
  leaseSeconds: 30,
  policy: defaultRetryPolicy
}

interface DueRow {
  readonly id: string
  readonly message_id: string
  readonly source: string
  readonly endpoint_id: string
  readonly owner_id: string
  readonly payload: unknown
  readonly attempts: number
}

interface Outcome {
  readonly statusCode: number | null
  readonly error: string | null
  readonly retryAfter: string | null
  readonly durationMs: number
}

const claimDue = (options: WorkerOptions) =>
  query<DueRow>(
    `UPDATE outgoing_webhook_deliveries SET lease_until = now() + make_interval(secs => $2)
      WHERE id IN (SELECT id FROM outgoing_webhook_deliveries
                    WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
                    ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, message_id, source, endpoint_id, owner_id, payload, attempts`,
    [options.batchSize, options.leaseSeconds]
  )

const post = (endpoint: Endpoint, row: DueRow, timeoutMillis: number): Promise<Outcome> => {
  const body = JSON.stringify(row.payload)
  const started = Date.now()
  return fetch(endpoint.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Atrium-Webhooks/1.0",
      ...webhookHeaders(endpoint.secret, row.message_id, Math.floor(started / 1000), body)
    },
    body,
    // A redirect could lead anywhere (past the SSRF guard): it counts as a failed attempt.
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMillis)
  }).then(
    async (response) => {
      await response.body?.cancel().catch(() => undefined)
      return { statusCode: response.status, error: null, retryAfter: response.headers.get("retry-after"), durationMs: Date.now() - started }
    },
    (error: unknown) => ({
      statusCode: null,
      error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error),
      retryAfter: null,
      durationMs: Date.now() - started
    })
  )
}

const finish = (id: string, status: "delivered" | "failed", outcome: Pick<Outcome, "statusCode" | "error">, attempts: number) =>
  query(
    `UPDATE outgoing_webhook_deliveries SET status = $2, attempts = $3, last_status_code = $4, last_error = $5,
            completed_at = now(), lease_until = NULL WHERE id = $1`,
    [id, status, attempts, outcome.statusCode, outcome.error]
  )

const recordAttempt = (id: string, attempt: number, outcome: Outcome) =>
  query(
    "INSERT INTO outgoing_webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    [id, attempt, outcome.statusCode, outcome.error, outcome.durationMs]
  )

const deliverOne = <R>(row: DueRow, source: EndpointSource<R> | undefined, options: WorkerOptions) =>
  Effect.gen(function* () {
    const endpoint = source === undefined ? undefined : yield* source.resolve(row.endpoint_id)
    if (endpoint === undefined)
      return yield* finish(row.id, "failed", { statusCode: null, error: "the endpoint no longer exists" }, row.attempts)
    if (!endpoint.enabled) return yield* finish(row.id, "failed", { statusCode: null, error: "the endpoint is disabled" }, row.attempts)
    const attempt = row.attempts + 1
    const refusal = yield* Effect.promise(() => checkOutboundUrl(endpoint.url))
    const outcome: Outcome =
      refusal === undefined
        ? yield* Effect.promise(() => post(endpoint, row, options.timeoutMillis))
        : { statusCode: null, error: `refused: the URL ${refusal.reason}`, retryAfter: null, durationMs: 0 }
    yield* recordAttempt(row.id, attempt, outcome)
    if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300)
      return yield* finish(row.id, "delivered", outcome, attempt)
    if (outcome.statusCode === 410) {
      // The delivery's outcome is recorded before the endpoint shows as disabled.
      yield* finish(row.id, "failed", outcome, attempt)
      return yield* source!.disable(row.endpoint_id, row.owner_id, "The receiver answered 410 Gone")
    }
    // A refused address stays refused; only a name that did not resolve (DNS trouble) is worth another try.
    const delay =
      refusal === undefined || refusal.reason.endsWith("does not resolve") ? nextRetryDelayMs(attempt, options.policy) : undefined
    if (delay === undefined) return yield* finish(row.id, "failed", outcome, attempt)
    const wait = Math.max(delay, retryAfterMs(outcome.retryAfter) ?? 0)
    yield* query(
      `UPDATE outgoing_webhook_deliveries SET attempts = $2, last_status_code = $3, last_error = $4,
              next_attempt_at = now() + make_interval(secs => $5), lease_until = NULL WHERE id = $1`,
      [row.id, attempt, outcome.statusCode, outcome.error, Math.min(wait, options.policy.capMs) / 1000]
    )
  })

/** One pass: sends every due delivery (a batch at a time); returns how many were attempted. */
export const deliverDue = <R>(sources: Readonly<Record<string, EndpointSource<R>>>, options: WorkerOptions = defaultWorkerOptions) =>
  Effect.gen(function* () {
    let total = 0
    while (true) {
      const due = yield* claimDue(options)
      if (due.length === 0) return total
      total += due.length
      yield* Effect.forEach(
        due,
        (row) =>
          deliverOne(row, sources[row.source], options).pipe(
            Effect.catchCause((cause) => Effect.logWarning(`webhooks: delivery ${row.id} could not be processed`, cause))
          ),
        { concurrency: 8, discard: true }
      )
    }
  })

/** Runs `deliverDue` every `pollMillis` until interrupted; a failing pass is logged and the next one runs. */
export const runDeliveryWorker = <R>(sources: Readonly<Record<string, EndpointSource<R>>>, options: WorkerOptions = defaultWorkerOptions) =>
  Effect.forever(
    Effect.andThen(
      deliverDue(sources, options).pipe(Effect.catchCause((cause) => Effect.logWarning("webhooks: delivery pass failed", cause))),
      Effect.sleep(options.pollMillis)
    )
  )
