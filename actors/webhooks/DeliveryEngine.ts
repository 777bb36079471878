/**
 * The one engine that sends outgoing webhooks, whatever queue they wait in
 * (the hub's `outgoing_webhook_deliveries`, pm's `pm_webhook_outbox`). A
 * queue leases a batch of due deliveries (`FOR UPDATE SKIP LOCKED`, so nodes
 * sharing a database never send one attempt twice at once; a lease that runs
 * out, a node killed mid-send, makes it due again with the same webhook-id)
 * and records what the engine decided. The engine checks each address
 * against the SSRF guard at every send (a name may resolve elsewhere now),
 * signs with Standard Webhooks headers, and settles: 2xx delivered; 410 Gone
 * gone (the queue disables the endpoint); otherwise a retry after backoff
 * with jitter (a receiver's Retry-After wins when longer), or exhausted when
 * the retries ran out or the address is refused for good. What exhausted
 * means (failed, or a dead letter) is the queue's. A queue that keeps order
 * gives its deliveries an `orderKey`: those sharing one are sent one after
 * another in the order leased, and after one that was not delivered the rest
 * are released unsent (they come due again behind it).
 */
import { Effect } from "effect"
import { moreLeft, nothingLeft, runWorker } from "../../runtime/Wakeup.ts"
import { checkOutboundUrl } from "./OutboundAddress.ts"
import { defaultRetryPolicy, nextRetryDelayMs, type RetryPolicy, retryAfterMs } from "./RetrySchedule.ts"
import { webhookHeaders } from "./StandardWebhooks.ts"

export interface Endpoint {
  readonly url: string
  readonly secret: string
  readonly enabled: boolean
}

/** A leased delivery: its endpoint (undefined: it no longer exists), `webhook-id` and body. */
export interface Due {
  readonly id: string
  readonly messageId: string
  readonly payload: unknown
  readonly attempts: number
  readonly endpoint: Endpoint | undefined
  /** Deliveries with the same key go in order (see above); none: independent. */
  readonly orderKey?: string
}

/**
 * What became of a delivery: `attempt` is its number (attempts before + 1),
 * or the attempts so far when it was `dropped` unsent (endpoint gone or
 * disabled). `retryInMs` is set for `retry` only.
 */
export interface Settlement {
  readonly kind: "delivered" | "retry" | "exhausted" | "gone" | "dropped"
  readonly attempt: number
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  readonly retryInMs?: number
}

/** Where deliveries wait: it leases the due ones and records each settlement. */
export interface DeliveryQueue<E, R> {
  readonly name: string
  /** The wake-up topic (runtime/Wakeup.ts) its enqueueing writes signal once committed. */
  readonly topic: string
  /** Milliseconds until its earliest pending delivery falls due (a retry, a lapsing lease); undefined: none pending. */
  readonly nextDueInMs: Effect.Effect<number | undefined, E, R>
  readonly claim: (batch: number, leaseSeconds: number) => Effect.Effect<ReadonlyArray<Due>, E, R>
  readonly settle: (due: Due, settlement: Settlement) => Effect.Effect<void, E, R>
  /** Gives leased deliveries back unsent (their order group stopped before them). */
  readonly release: (dues: ReadonlyArray<Due>) => Effect.Effect<void, E, R>
}

export interface EngineOptions {
  readonly policy: RetryPolicy
  readonly timeoutMs: number
  /**
   * Passes start at least this far apart: an idle engine is woken by the
   * enqueueing write, a retry's due time or the safety poll, and under a
   * stream of writes one pass takes a whole interval's deliveries.
   */
  readonly pollMs: number
  readonly batch: number
  readonly concurrency: number
  readonly leaseSeconds: number
}

export const defaultEngineOptions: EngineOptions = {
  policy: defaultRetryPolicy,
  timeoutMs: 10_000,
  pollMs: 1000,
  batch: 20,
  concurrency: 8,
  leaseSeconds: 30
}

interface Answer {
  readonly statusCode: number | null
  readonly error: string | null
  readonly retryAfter: string | null
  readonly durationMs: number
}

const post = (endpoint: Endpoint, due: Due, timeoutMs: number): Promise<Answer> => {
  const body = JSON.stringify(due.payload)
  const started = Date.now()
  return fetch(endpoint.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Atrium-Webhooks/1.0",
      ...webhookHeaders(endpoint.secret, due.messageId, Math.floor(started / 1000), body)
    },
    body,
    // A redirect could lead anywhere (past the SSRF guard): it counts as a failed attempt.
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs)
  }).then(
    async (response) => {
      await response.body?.cancel().catch(() => undefined)
      return { statusCode: response.status, error: null, retryAfter: response.headers.get("retry-after"), durationMs: Date.now() - started }
    },
    (error: unknown) => ({
      statusCode: null,
      error: (error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)).slice(0, 500),
      retryAfter: null,
      durationMs: Date.now() - started
    })
  )
}

/** Sends one leased delivery and decides what became of it. */
export const attempt = (due: Due, options: EngineOptions): Effect.Effect<Settlement> =>
  Effect.gen(function* () {
    const { endpoint } = due
    if (endpoint === undefined || !endpoint.enabled)
      return {
        kind: "dropped",
        attempt: due.attempts,
        statusCode: null,
        error: endpoint === undefined ? "the endpoint no longer exists" : "the endpoint is disabled",
        durationMs: 0
      } as const
    const number = due.attempts + 1
    const refusal = yield* Effect.promise(() => checkOutboundUrl(endpoint.url))
    const answer: Answer =
      refusal === undefined
        ? yield* Effect.promise(() => post(endpoint, due, options.timeoutMs))
        : { statusCode: null, error: `refused: the URL ${refusal.reason}`, retryAfter: null, durationMs: 0 }
    const settled = { attempt: number, statusCode: answer.statusCode, error: answer.error, durationMs: answer.durationMs }
    if (answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300) return { ...settled, kind: "delivered" } as const
    if (answer.statusCode === 410) return { ...settled, kind: "gone" } as const
    // A refused address stays refused; only a name that did not resolve (DNS trouble) is worth another try.
    const backoff =
      refusal === undefined || refusal.reason.endsWith("does not resolve") ? nextRetryDelayMs(number, options.policy) : undefined
    if (backoff === undefined) return { ...settled, kind: "exhausted" } as const
    const retryInMs = Math.min(options.policy.capMs, Math.max(backoff, retryAfterMs(answer.retryAfter) ?? 0))
    return { ...settled, kind: "retry", retryInMs } as const
  })

/** Deliveries in groups: one per order key (in the order given), each unkeyed one alone. */
const inOrder = (due: ReadonlyArray<Due>): Array<Array<Due>> => {
  const groups = new Map<string, Array<Due>>()
  for (const row of due) {
    const key = row.orderKey ?? `\u0000${row.id}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [row])
    else group.push(row)
  }
  return [...groups.values()]
}

/** Sends a group one delivery after another, until one is not delivered; releases the rest. */
const sendGroup = <E, R>(queue: DeliveryQueue<E, R>, group: ReadonlyArray<Due>, options: EngineOptions) =>
  Effect.gen(function* () {
    for (const [i, row] of group.entries()) {
      const settlement = yield* attempt(row, options)
      yield* queue.settle(row, settlement)
      if (settlement.kind !== "delivered") {
        if (i + 1 < group.length) yield* queue.release(group.slice(i + 1))
        return
      }
    }
  }).pipe(
    // A row's bookkeeping failing leaves it and those behind it leased (sent again when the lease lapses), never the batch stuck.
    Effect.catchCause((cause) => Effect.logWarning(`webhooks (${queue.name}): a delivery could not be recorded`, cause))
  )

/** One pass: leases a batch, sends it (groups at once, each in order), records each outcome; how many were leased. */
export const deliverDue = <E, R>(queue: DeliveryQueue<E, R>, options: EngineOptions) =>
  Effect.gen(function* () {
    const due = yield* queue.claim(options.batch, options.leaseSeconds)
    yield* Effect.forEach(inOrder(due), (group) => sendGroup(queue, group, options), {
      concurrency: options.concurrency,
      discard: true
    })
    return due.length
  })

/**
 * Runs forever: passes back to back while there is work, else sleeps until
 * the queue's topic is signalled, its next delivery falls due or the safety
 * poll; a failing pass is logged.
 */
export const runDeliveryEngine = <E, R>(queue: DeliveryQueue<E, R>, options: EngineOptions) =>
  runWorker(
    queue.topic,
    Effect.gen(function* () {
      const leased = yield* deliverDue(queue, options)
      if (leased > 0) return moreLeft
      const dueInMs = yield* queue.nextDueInMs
      return dueInMs === undefined ? nothingLeft : { dueAt: Date.now() + dueInMs }
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning(`webhooks (${queue.name}): delivery pass failed`, cause), { dueAt: Date.now() + options.pollMs })
      )
    ),
    { paceMillis: options.pollMs }
  )
