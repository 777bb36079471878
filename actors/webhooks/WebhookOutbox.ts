/**
 * The outbox of outgoing webhooks (`outgoing_webhook_deliveries`), shared by
 * every service that sends them. A delivery is enqueued in the caller's own
 * transaction (so it exists exactly when the change that caused it
 * committed); the DeliveryEngine sends it. Payloads are the Standard Webhooks
 * envelope `{type, timestamp, data}`; `data` stays thin (ids to fetch with).
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { isoTimestampSql, query, wakeAfterCommit } from "../../persistence/Sql.ts"
import { Timestamp } from "../Fields.ts"

export interface NewDelivery {
  /** The kind of endpoint, e.g. "hub-user": the worker asks that source's resolver for the URL and secret. */
  readonly source: string
  readonly endpointId: string
  /** Who may read the delivery's log. */
  readonly ownerId: string
  readonly eventType: string
  readonly data: Record<string, unknown>
}

export const newMessageId = (): string => `msg_${randomBytes(16).toString("hex")}`

/** The wake-up topic (runtime/Wakeup.ts) of the engine sending this outbox. */
export const outgoingDeliveriesQueued = "webhooks.outgoing.queued"

/** Enqueues deliveries (the engine woken once they commit); joins the caller's `Sql.transaction` when run inside one. */
export const enqueueDeliveries = (deliveries: ReadonlyArray<NewDelivery>) =>
  Effect.gen(function* () {
    if (deliveries.length === 0) return [] as ReadonlyArray<string>
    const timestamp = new Date().toISOString()
    const ids = deliveries.map(() => randomUUID())
    yield* query(
      `INSERT INTO outgoing_webhook_deliveries (id, message_id, source, endpoint_id, owner_id, event_type, payload)
       SELECT d.id, d.message_id, d.source, d.endpoint_id, d.owner_id, d.event_type, d.payload::jsonb
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           AS d(id, message_id, source, endpoint_id, owner_id, event_type, payload)`,
      [
        ids,
        deliveries.map(newMessageId),
        deliveries.map((d) => d.source),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.ownerId),
        deliveries.map((d) => d.eventType),
        // Serialized once here, in the exact form that is signed and sent.
        deliveries.map((d) => JSON.stringify({ type: d.eventType, timestamp, data: d.data }))
      ]
    )
    yield* wakeAfterCommit(outgoingDeliveriesQueued)
    return ids as ReadonlyArray<string>
  })

export const DeliveryStatus = Schema.Literals(["pending", "delivered", "failed"])

export const DeliveryRecord = Schema.Struct({
  id: Schema.String,
  messageId: Schema.String,
  eventType: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.Number,
  lastStatusCode: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(Timestamp),
  replayOf: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  completedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WebhookDelivery", description: "One delivery of an event to an endpoint, and how it went" })
export type DeliveryRecord = typeof DeliveryRecord.Type

const RECORD_COLUMNS = `id, message_id AS "messageId", event_type AS "eventType", status, attempts,
  last_status_code AS "lastStatusCode", last_error AS "lastError",
  CASE WHEN status = 'pending' THEN ${isoTimestampSql("next_attempt_at")} END AS "nextAttemptAt",
  replay_of AS "replayOf", created_at AS "createdAt", completed_at AS "completedAt"`

/** The newest deliveries of an endpoint, newest first. */
export const deliveriesOf = (source: string, endpointIds: ReadonlyArray<string>, limit: number) =>
  query<DeliveryRecord & { endpointId: string }>(
    `SELECT * FROM (
       SELECT ${RECORD_COLUMNS}, endpoint_id AS "endpointId",
              row_number() OVER (PARTITION BY endpoint_id ORDER BY created_at DESC, id) AS n
         FROM outgoing_webhook_deliveries WHERE source = $1 AND endpoint_id = ANY($2::text[])) AS d
      WHERE n <= $3 ORDER BY "createdAt" DESC, id`,
    [source, endpointIds, limit]
  ).pipe(Effect.map((rows) => rows.map(({ n: _n, ...row }: any) => row as DeliveryRecord & { endpointId: string })))

/**
 * A new delivery of an earlier one's exact payload and message id (receivers
 * deduplicate by `webhook-id`), to the same endpoint. Undefined when there is
 * no such delivery of that endpoint.
 */
export const replayDelivery = (source: string, endpointId: string, deliveryId: string) =>
  Effect.tap(
    query<{ id: string }>(
      `INSERT INTO outgoing_webhook_deliveries (id, message_id, source, endpoint_id, owner_id, event_type, payload, replay_of)
       SELECT $4, message_id, source, endpoint_id, owner_id, event_type, payload, id
         FROM outgoing_webhook_deliveries WHERE source = $1 AND endpoint_id = $2 AND id = $3
       RETURNING id`,
      [source, endpointId, deliveryId, randomUUID()]
    ),
    () => wakeAfterCommit(outgoingDeliveriesQueued)
  ).pipe(Effect.map((rows) => rows[0]?.id))

export const deliveryById = (deliveryId: string) =>
  Effect.map(
    query<DeliveryRecord>(`SELECT ${RECORD_COLUMNS} FROM outgoing_webhook_deliveries WHERE id = $1`, [deliveryId]),
    (rows) => rows[0]
  )
