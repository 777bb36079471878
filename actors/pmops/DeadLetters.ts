/**
 * The webhook dead-letter queue: outbox rows whose retries ran out (status
 * 'dead'). Operators list, inspect, replay (one or in bulk: back to pending
 * with a fresh retry budget, same webhook-id) and purge them.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { DeadLetterNotFound } from "./OpsErrors.ts"
import { deliveryColumns, requeue, WebhookDelivery } from "./Webhooks.ts"

export const DeadLetter = Schema.Struct({
  ...WebhookDelivery.fields,
  endpointUrl: Schema.String,
  endpointStatus: Schema.String
}).annotate({ identifier: "DeadLetter" })
export type DeadLetter = typeof DeadLetter.Type

export const DeadLetterDetail = Schema.Struct({
  ...DeadLetter.fields,
  payload: Schema.Unknown.annotate({ description: "The body that was sent (Standard Webhooks envelope)" })
}).annotate({ identifier: "DeadLetterDetail" })

export const DeadLetterFilter = Schema.Struct({
  workspaceId: Schema.optionalKey(Id),
  endpointId: Schema.optionalKey(Id),
  eventType: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  before: Schema.optionalKey(
    Timestamp.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/, { expected: "an ISO timestamp in UTC" })).annotate({
      description: "Only letters that died before this instant"
    })
  )
})
export type DeadLetterFilter = typeof DeadLetterFilter.Type

const where = (filter: DeadLetterFilter, params: Array<unknown>) => {
  const clauses = ["o.status = 'dead'"]
  if (filter.workspaceId) clauses.push(`o.workspace_id = $${params.push(filter.workspaceId)}`)
  if (filter.endpointId) clauses.push(`o.endpoint_id = $${params.push(filter.endpointId)}`)
  if (filter.eventType) clauses.push(`o.event_type = $${params.push(filter.eventType)}`)
  if (filter.before) clauses.push(`o.dead_at < $${params.push(filter.before)}::timestamptz`)
  return clauses.join(" AND ")
}

const letterColumns = `${deliveryColumns()}, ep.url AS "endpointUrl", ep.status AS "endpointStatus"`

export const listDeadLetters = (filter: DeadLetterFilter, page: { offset: number; limit: number }) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const clause = where(filter, params)
    const total = yield* query<{ n: number }>(`SELECT count(*)::int AS n FROM pm_webhook_outbox o WHERE ${clause}`, params)
    const items = yield* query<DeadLetter>(
      `SELECT ${letterColumns} FROM pm_webhook_outbox o JOIN pm_webhook_endpoints ep ON ep.id = o.endpoint_id
        WHERE ${clause} ORDER BY o.dead_at DESC, o.id LIMIT $${params.push(page.limit)} OFFSET $${params.push(page.offset)}`,
      params
    )
    return { items, total: total[0]?.n ?? 0 }
  })

export const deadLetter = (id: string) =>
  Effect.flatMap(
    query<typeof DeadLetterDetail.Type>(
      `SELECT ${letterColumns}, o.payload FROM pm_webhook_outbox o JOIN pm_webhook_endpoints ep ON ep.id = o.endpoint_id
        WHERE o.id = $1 AND o.status = 'dead'`,
      [id]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new DeadLetterNotFound()))
  )

export const replayDeadLetter = (id: string) => Effect.andThen(deadLetter(id), requeue([id]))

/** Replays the given letters, or every one the filter matches (at most `limit`). */
export const replayDeadLetters = (selection: { ids?: ReadonlyArray<string>; filter: DeadLetterFilter; limit: number }) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let clause = where(selection.filter, params)
    if (selection.ids) clause += ` AND o.id = ANY($${params.push(selection.ids)}::text[])`
    const ids = yield* query<{ id: string }>(
      `SELECT o.id FROM pm_webhook_outbox o WHERE ${clause} ORDER BY o.dead_at LIMIT $${params.push(selection.limit)}`,
      params
    )
    const replayed = yield* requeue(ids.map((r) => r.id))
    return replayed.map((r) => r.id)
  })

export const purgeDeadLetters = (filter: DeadLetterFilter) => {
  const params: Array<unknown> = []
  const clause = where(filter, params)
  return Effect.map(query<{ id: string }>(`DELETE FROM pm_webhook_outbox o WHERE ${clause} RETURNING o.id`, params), (rows) => rows.length)
}

export const deleteDeadLetter = (id: string) =>
  Effect.flatMap(query<{ id: string }>(`DELETE FROM pm_webhook_outbox WHERE id = $1 AND status = 'dead' RETURNING id`, [id]), (rows) =>
    rows.length === 0 ? Effect.fail(new DeadLetterNotFound()) : Effect.void
  )

export const DlqStats = Schema.Struct({
  dead: Schema.Number,
  pending: Schema.Number,
  deliveredLastDay: Schema.Number,
  disabledEndpoints: Schema.Number,
  oldestDeadAt: Schema.NullOr(Timestamp),
  byWorkspace: Schema.Array(Schema.Struct({ workspaceId: Id, dead: Schema.Number })),
  byEventType: Schema.Array(Schema.Struct({ eventType: Schema.String, dead: Schema.Number }))
}).annotate({ identifier: "DlqStats" })

export const dlqStats = Effect.gen(function* () {
  const totals = yield* query<{ dead: number; pending: number; delivered: number; oldest: string | null }>(
    `SELECT count(*) FILTER (WHERE status = 'dead')::int AS dead, count(*) FILTER (WHERE status = 'pending')::int AS pending,
            count(*) FILTER (WHERE status = 'delivered' AND delivered_at > now() - interval '1 day')::int AS delivered,
            ${isoTimestampSql("min(dead_at)")} AS oldest
       FROM pm_webhook_outbox`
  )
  const disabled = yield* query<{ n: number }>(`SELECT count(*)::int AS n FROM pm_webhook_endpoints WHERE status = 'disabled'`)
  const byWorkspace = yield* query<{ workspaceId: string; dead: number }>(
    `SELECT workspace_id AS "workspaceId", count(*)::int AS dead FROM pm_webhook_outbox WHERE status = 'dead'
      GROUP BY workspace_id ORDER BY dead DESC, workspace_id LIMIT 20`
  )
  const byEventType = yield* query<{ eventType: string; dead: number }>(
    `SELECT event_type AS "eventType", count(*)::int AS dead FROM pm_webhook_outbox WHERE status = 'dead'
      GROUP BY event_type ORDER BY dead DESC, event_type LIMIT 20`
  )
  const row = totals[0]!
  return {
    dead: row.dead,
    pending: row.pending,
    deliveredLastDay: row.delivered,
    disabledEndpoints: disabled[0]?.n ?? 0,
    oldestDeadAt: row.oldest,
    byWorkspace,
    byEventType
  }
})
