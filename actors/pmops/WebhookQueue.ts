/**
 * pm's workspace webhooks as a queue of the DeliveryEngine: the rows of
 * `pm_webhook_outbox` (filled by WebhookOutbox.ts). Two things set it apart
 * from the hub's queue: order, since an (endpoint, entity)'s rows are leased
 * as a run from its oldest pending row and sent in change order (its
 * `orderKey`), so one entity's deliveries arrive in change order; and
 * dead letters, since a row whose retries ran out stays as `dead` for
 * operators to inspect and replay (DeadLetters.ts). A 410 disables the
 * endpoint through its workspace's actor and leaves the row pending, sent
 * should the endpoint be enabled again. The row's id is its `webhook-id`.
 */
import { Effect } from "effect"
import { millisUntil, query, type Sql } from "../../persistence/Sql.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { type DeliveryQueue, type Due, defaultEngineOptions, type EngineOptions } from "../webhooks/DeliveryEngine.ts"
import { send } from "../pm/WorkActor.ts"
import { pmWebhooksQueued } from "./WebhookOutbox.ts"
import { PmWebhooks } from "./Webhooks.ts"

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** From PM_WEBHOOK_* variables (see README). */
export const pmDeliveryOptionsFromEnv = (): EngineOptions => ({
  ...defaultEngineOptions,
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
  readonly entityId: string
  readonly eventSeq: string
  readonly workspaceId: string
  readonly owner: string
  readonly payload: unknown
  readonly attempts: number
  readonly url: string
  readonly secret: string
}

type Leased = Due & { readonly row: Claimed }

/** How many of one (endpoint, entity)'s pending rows one lease takes, to be sent in order. */
const RUN = 20

/**
 * Leases up to `groups` (endpoint, entity) runs: a run is taken only when its
 * head (the oldest pending row) is due and free, and is cut at the first row
 * another node holds, so two nodes never send one entity's rows at once.
 */
const claim = (groups: number, leaseSeconds: number) =>
  query<Claimed>(
    `WITH heads AS (
       SELECT DISTINCT ON (endpoint_id, entity_id) id AS head_id, endpoint_id, entity_id, next_attempt_at, lease_until, event_seq
         FROM pm_webhook_outbox WHERE status = 'pending'
        ORDER BY endpoint_id, entity_id, event_seq, id
     ), ready AS (
       SELECT h.head_id, h.endpoint_id, h.entity_id FROM heads h
         JOIN pm_webhook_endpoints ep ON ep.id = h.endpoint_id AND ep.status = 'active'
        WHERE h.next_attempt_at <= now() AND (h.lease_until IS NULL OR h.lease_until < now())
        ORDER BY h.next_attempt_at, h.event_seq
        LIMIT $1
     ), due AS (
       SELECT r.head_id, run.id, run.event_seq FROM ready r
        CROSS JOIN LATERAL (SELECT p.id, p.event_seq FROM pm_webhook_outbox p
                             WHERE p.endpoint_id = r.endpoint_id AND p.entity_id = r.entity_id AND p.status = 'pending'
                             ORDER BY p.event_seq, p.id LIMIT $3) run
     ), locked AS (
       SELECT o.id FROM pm_webhook_outbox o
        WHERE o.id IN (SELECT id FROM due) AND o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until < now())
        FOR UPDATE SKIP LOCKED
     ), kept AS (
       SELECT id FROM (SELECT d.id, bool_and(l.id IS NOT NULL) OVER (PARTITION BY d.head_id ORDER BY d.event_seq, d.id) AS unbroken
                         FROM due d LEFT JOIN locked l ON l.id = d.id) runs
        WHERE unbroken
     )
     UPDATE pm_webhook_outbox o SET lease_until = now() + make_interval(secs => $2)
       FROM kept, pm_webhook_endpoints ep
      WHERE o.id = kept.id AND ep.id = o.endpoint_id
     RETURNING o.id, o.endpoint_id AS "endpointId", o.entity_id AS "entityId", o.event_seq::text AS "eventSeq", o.workspace_id AS "workspaceId",
               ep.created_by AS owner, o.payload, o.attempts, ep.url, ep.secret`,
    [groups, leaseSeconds, RUN]
  )

/** Runs in change order (the UPDATE returns rows in no particular order). */
const byChange = (a: Claimed, b: Claimed) => {
  const seq = BigInt(a.eventSeq) - BigInt(b.eventSeq)
  return seq !== 0n ? (seq < 0n ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

const lastError = (statusCode: number | null, error: string | null) => error ?? (statusCode === null ? null : `HTTP ${statusCode}`)

/**
 * Milliseconds until the earliest run head (see `claim`) may be leased: the
 * rows behind a head wait for it, so their own times do not count.
 */
const nextDueInMs = millisUntil(
  "min(GREATEST(h.next_attempt_at, COALESCE(h.lease_until, h.next_attempt_at)))",
  `FROM (SELECT DISTINCT ON (endpoint_id, entity_id) endpoint_id, next_attempt_at, lease_until
          FROM pm_webhook_outbox WHERE status = 'pending' ORDER BY endpoint_id, entity_id, event_seq, id) h
    JOIN pm_webhook_endpoints ep ON ep.id = h.endpoint_id AND ep.status = 'active'`
)

export const pmWebhookQueue: DeliveryQueue<unknown, Sql | ActorSystem> = {
  name: "pm",
  topic: pmWebhooksQueued,
  nextDueInMs,
  claim: (batch, leaseSeconds) =>
    Effect.map(claim(batch, leaseSeconds), (rows) =>
      [...rows].sort(byChange).map(
        (row): Leased => ({
          id: row.id,
          messageId: row.id,
          payload: row.payload,
          attempts: row.attempts,
          endpoint: { url: row.url, secret: row.secret, enabled: true },
          orderKey: `${row.endpointId}/${row.entityId}`,
          row
        })
      )
    ),
  release: (dues) => query(`UPDATE pm_webhook_outbox SET lease_until = NULL WHERE id = ANY($1::text[])`, [dues.map((d) => d.id)]),
  settle: (due, settlement) => {
    const { row } = due as Leased
    const { attempt, statusCode } = settlement
    const error = lastError(statusCode, settlement.error)
    switch (settlement.kind) {
      case "delivered":
        return query(
          `UPDATE pm_webhook_outbox SET status = 'delivered', attempts = $2, last_status = $3, last_error = NULL, delivered_at = now(), lease_until = NULL WHERE id = $1`,
          [row.id, attempt, statusCode]
        )
      case "gone":
        return Effect.andThen(
          query(
            `UPDATE pm_webhook_outbox SET attempts = $2, last_status = 410, last_error = 'endpoint gone', lease_until = NULL WHERE id = $1`,
            [row.id, attempt]
          ),
          send(PmWebhooks, row.workspaceId, "disable", row.owner, { endpointId: row.endpointId, reason: "The receiver answered 410 Gone" })
        )
      case "retry":
        return query(
          `UPDATE pm_webhook_outbox SET attempts = $2, last_status = $3, last_error = $4, lease_until = NULL,
                  next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
          [row.id, attempt, statusCode, error, settlement.retryInMs! / 1000]
        )
      case "exhausted":
        return query(
          `UPDATE pm_webhook_outbox SET status = 'dead', attempts = $2, last_status = $3, last_error = $4, dead_at = now(), lease_until = NULL WHERE id = $1`,
          [row.id, attempt, statusCode, error]
        )
      case "dropped":
        // Claimed rows have active endpoints; should one stop meanwhile, the row waits as a 410 leaves it.
        return query(`UPDATE pm_webhook_outbox SET lease_until = NULL WHERE id = $1`, [row.id])
    }
  }
}
