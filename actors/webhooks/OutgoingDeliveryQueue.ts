/**
 * The hub's queue of outgoing webhooks (`outgoing_webhook_deliveries`, filled
 * by WebhookOutbox.ts) for the DeliveryEngine: a row names its source (e.g.
 * "hub-user"), whose resolver gives the endpoint's URL and secret when it is
 * sent. Every attempt is logged; exhausted retries fail the delivery; a 410
 * fails it and disables the endpoint through its source.
 */
import { Effect } from "effect"
import { millisUntil, query, type Sql } from "../../persistence/Sql.ts"
import type { DeliveryQueue, Due, Endpoint, Settlement } from "./DeliveryEngine.ts"
import { outgoingDeliveriesQueued } from "./WebhookOutbox.ts"

/** How the queue finds a source's endpoints, and tells it one is gone (410). */
export interface EndpointSource<R = never> {
  readonly resolve: (endpointId: string) => Effect.Effect<Endpoint | undefined, unknown, R>
  readonly disable: (endpointId: string, ownerId: string, reason: string) => Effect.Effect<void, unknown, R>
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

type Leased = Due & { readonly row: DueRow }

const finish = (id: string, status: "delivered" | "failed", settlement: Settlement) =>
  query(
    `UPDATE outgoing_webhook_deliveries SET status = $2, attempts = $3, last_status_code = $4, last_error = $5,
            completed_at = now(), lease_until = NULL WHERE id = $1`,
    [id, status, settlement.attempt, settlement.statusCode, settlement.error]
  )

const recordAttempt = (id: string, settlement: Settlement) =>
  query(
    "INSERT INTO outgoing_webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    [id, settlement.attempt, settlement.statusCode, settlement.error, settlement.durationMs]
  )

export const outgoingDeliveryQueue = <R>(sources: Readonly<Record<string, EndpointSource<R>>>): DeliveryQueue<unknown, Sql | R> => ({
  name: "outgoing",
  topic: outgoingDeliveriesQueued,
  nextDueInMs: millisUntil(
    "min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at)))",
    "FROM outgoing_webhook_deliveries WHERE status = 'pending'"
  ),
  claim: (batch, leaseSeconds) =>
    Effect.flatMap(
      query<DueRow>(
        `UPDATE outgoing_webhook_deliveries SET lease_until = now() + make_interval(secs => $2)
          WHERE id IN (SELECT id FROM outgoing_webhook_deliveries
                        WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
                        ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING id, message_id, source, endpoint_id, owner_id, payload, attempts`,
        [batch, leaseSeconds]
      ),
      (rows) =>
        Effect.forEach(
          rows,
          (row): Effect.Effect<Leased, unknown, R> => {
            const source = sources[row.source]
            const leased = (endpoint: Endpoint | undefined): Leased => ({
              id: row.id,
              messageId: row.message_id,
              payload: row.payload,
              attempts: row.attempts,
              endpoint,
              row
            })
            return source === undefined ? Effect.succeed(leased(undefined)) : Effect.map(source.resolve(row.endpoint_id), leased)
          },
          { concurrency: 8 }
        )
    ),
  release: (dues) => query(`UPDATE outgoing_webhook_deliveries SET lease_until = NULL WHERE id = ANY($1::text[])`, [dues.map((d) => d.id)]),
  settle: (due, settlement) =>
    Effect.gen(function* () {
      const { row } = due as Leased
      if (settlement.kind !== "dropped") yield* recordAttempt(row.id, settlement)
      switch (settlement.kind) {
        case "delivered":
          return yield* finish(row.id, "delivered", settlement)
        case "gone":
          // The delivery's outcome is recorded before the endpoint shows as disabled.
          yield* finish(row.id, "failed", settlement)
          return yield* sources[row.source]!.disable(row.endpoint_id, row.owner_id, "The receiver answered 410 Gone")
        case "retry":
          return yield* query(
            `UPDATE outgoing_webhook_deliveries SET attempts = $2, last_status_code = $3, last_error = $4,
                    next_attempt_at = now() + make_interval(secs => $5), lease_until = NULL WHERE id = $1`,
            [row.id, settlement.attempt, settlement.statusCode, settlement.error, settlement.retryInMs! / 1000]
          )
        default:
          return yield* finish(row.id, "failed", settlement)
      }
    })
})
