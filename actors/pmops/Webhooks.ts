/**
 * Workspace webhooks on pm events: the endpoints (URL, event-type and space
 * filters, signing secret, status) and their deliveries. The `PmWebhooks`
 * actor (one per workspace) is the single writer of its endpoints; the
 * outbox rows are written by the change log (WebhookOutbox.ts) and drained by
 * the delivery engine on pm's queue (WebhookQueue.ts).
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query, wakeAfterCommit } from "../../persistence/Sql.ts"
import { newWebhookSecret } from "../webhooks/StandardWebhooks.ts"
import { change } from "../pm/Changes.ts"
import { command, workActor } from "../pm/WorkActor.ts"
import { DeliveryNotFound, DeliveryPending, WebhookNotActive, WebhookNotFound } from "./OpsErrors.ts"
import { pmWebhooksQueued } from "./WebhookOutbox.ts"

export const EventType = Schema.String.check(
  Schema.isMaxLength(64),
  Schema.isPattern(/^[a-z][a-z_]*\.[a-z][a-z_]*$/, { expected: "an event type such as task.created" })
)
export const WebhookUrl = Schema.String.check(Schema.isMaxLength(2000), Schema.isPattern(/^https?:\/\//i, { expected: "an http(s) URL" }))
export const EndpointStatus = Schema.Literals(["active", "paused", "disabled"])

export const WebhookEndpoint = Schema.Struct({
  id: Id,
  workspaceId: Id,
  url: Schema.String,
  description: Schema.String,
  eventTypes: Schema.Array(Schema.String).annotate({ description: "Event types delivered; empty: every event" }),
  spaceId: Schema.NullOr(Id),
  status: EndpointStatus,
  disabledReason: Schema.NullOr(Schema.String),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "WebhookEndpoint" })
export type WebhookEndpoint = typeof WebhookEndpoint.Type

export const WebhookEndpointWithSecret = Schema.Struct({
  ...WebhookEndpoint.fields,
  secret: Schema.String.annotate({ description: "whsec_… signing secret; shown only when created or rotated" })
}).annotate({ identifier: "WebhookEndpointWithSecret" })

export const DeliveryStatus = Schema.Literals(["pending", "delivered", "dead"])

export const WebhookDelivery = Schema.Struct({
  id: Schema.String.annotate({ description: "The webhook-id header: the same on every attempt" }),
  endpointId: Id,
  workspaceId: Id,
  eventSeq: Schema.Number,
  eventType: Schema.String,
  entityId: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.Number,
  nextAttemptAt: Schema.NullOr(Timestamp),
  lastStatus: Schema.NullOr(Schema.Number),
  lastError: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  deliveredAt: Schema.NullOr(Timestamp),
  deadAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

const endpointColumns = `id, workspace_id AS "workspaceId", url, description, event_types AS "eventTypes", space_id AS "spaceId", status,
  disabled_reason AS "disabledReason", created_by AS "createdBy", ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt"`

export const deliveryColumns = (alias = "o") =>
  `${alias}.id, ${alias}.endpoint_id AS "endpointId", ${alias}.workspace_id AS "workspaceId", ${alias}.event_seq::int AS "eventSeq",
  ${alias}.event_type AS "eventType", ${alias}.entity_id AS "entityId", ${alias}.status, ${alias}.attempts,
  CASE WHEN ${alias}.status = 'pending' THEN ${isoTimestampSql(`${alias}.next_attempt_at`)} END AS "nextAttemptAt",
  ${alias}.last_status AS "lastStatus", ${alias}.last_error AS "lastError", ${isoTimestampSql(`${alias}.created_at`)} AS "createdAt",
  ${isoTimestampSql(`${alias}.delivered_at`)} AS "deliveredAt", ${isoTimestampSql(`${alias}.dead_at`)} AS "deadAt"`

export const listEndpoints = (workspaceId: string) =>
  query<WebhookEndpoint>(`SELECT ${endpointColumns} FROM pm_webhook_endpoints WHERE workspace_id = $1 ORDER BY created_at, id`, [
    workspaceId
  ])

export const endpointOf = (workspaceId: string, endpointId: string) =>
  Effect.flatMap(
    query<WebhookEndpoint & { secret: string }>(
      `SELECT ${endpointColumns}, secret FROM pm_webhook_endpoints WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, endpointId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new WebhookNotFound()))
  )

const withoutSecret = ({ secret: _, ...endpoint }: WebhookEndpoint & { secret: string }): WebhookEndpoint => endpoint

export const deliveriesOf = (workspaceId: string, endpointId: string, options: { status?: string; offset: number; limit: number }) =>
  Effect.gen(function* () {
    yield* endpointOf(workspaceId, endpointId)
    const params: Array<unknown> = [endpointId, options.limit, options.offset]
    const filter = options.status ? ` AND o.status = $${params.push(options.status)}` : ""
    return yield* query<WebhookDelivery>(
      `SELECT ${deliveryColumns()} FROM pm_webhook_outbox o WHERE o.endpoint_id = $1${filter} ORDER BY o.created_at DESC, o.event_seq DESC LIMIT $2 OFFSET $3`,
      params
    )
  })

const deliveryOf = (endpointId: string, deliveryId: string) =>
  Effect.flatMap(
    query<WebhookDelivery>(`SELECT ${deliveryColumns()} FROM pm_webhook_outbox o WHERE o.endpoint_id = $1 AND o.id = $2`, [
      endpointId,
      deliveryId
    ]),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new DeliveryNotFound()))
  )

const EndpointFields = {
  url: WebhookUrl,
  description: Schema.String.check(Schema.isMaxLength(500)),
  eventTypes: Schema.Array(EventType).check(Schema.isMaxLength(50)),
  spaceId: Schema.NullOr(Id)
}

export const NewEndpoint = Schema.Struct({
  url: EndpointFields.url,
  description: Schema.optionalKey(EndpointFields.description),
  eventTypes: Schema.optionalKey(EndpointFields.eventTypes),
  spaceId: Schema.optionalKey(EndpointFields.spaceId)
})

export const EndpointPatch = Schema.Struct({
  url: Schema.optionalKey(EndpointFields.url),
  description: Schema.optionalKey(EndpointFields.description),
  eventTypes: Schema.optionalKey(EndpointFields.eventTypes),
  spaceId: Schema.optionalKey(EndpointFields.spaceId),
  status: Schema.optionalKey(Schema.Literals(["active", "paused"]).annotate({ description: "active also re-enables a disabled endpoint" }))
})

const EndpointRef = Schema.Struct({ endpointId: Id })
const at = (workspaceId: string) => ({ workspaceId })

export const webhookCommands = {
  create: command(NewEndpoint, WebhookEndpointWithSecret, WebhookNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const id = crypto.randomUUID()
      yield* query(
        `INSERT INTO pm_webhook_endpoints (id, workspace_id, url, description, event_types, space_id, secret, created_by)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8)`,
        [
          id,
          workspaceId,
          input.url,
          input.description ?? "",
          [...new Set(input.eventTypes ?? [])],
          input.spaceId ?? null,
          newWebhookSecret(),
          by
        ]
      )
      const endpoint = yield* endpointOf(workspaceId, id)
      return {
        result: endpoint,
        changes: [change(at(workspaceId), "webhook.created", id, { url: endpoint.url, eventTypes: endpoint.eventTypes }, by)]
      }
    })
  ),

  update: command(
    Schema.Struct({ ...EndpointRef.fields, patch: EndpointPatch }),
    WebhookEndpoint,
    WebhookNotFound,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        yield* endpointOf(workspaceId, input.endpointId)
        const { patch } = input
        const sets: Array<string> = []
        const params: Array<unknown> = [workspaceId, input.endpointId]
        if (patch.url !== undefined) sets.push(`url = $${params.push(patch.url)}`)
        if (patch.description !== undefined) sets.push(`description = $${params.push(patch.description)}`)
        if (patch.eventTypes !== undefined) sets.push(`event_types = $${params.push([...new Set(patch.eventTypes)])}::text[]`)
        if (patch.spaceId !== undefined) sets.push(`space_id = $${params.push(patch.spaceId)}`)
        if (patch.status !== undefined) sets.push(`status = $${params.push(patch.status)}`, "disabled_reason = NULL")
        if (sets.length > 0) {
          yield* query(`UPDATE pm_webhook_endpoints SET ${sets.join(", ")}, updated_at = now() WHERE workspace_id = $1 AND id = $2`, params)
        }
        const endpoint = withoutSecret(yield* endpointOf(workspaceId, input.endpointId))
        const fields = Object.keys(patch)
        return { result: endpoint, changes: fields.length ? [change(at(workspaceId), "webhook.updated", endpoint.id, { fields }, by)] : [] }
      })
  ),

  delete: command(EndpointRef, Schema.Void, WebhookNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      yield* endpointOf(workspaceId, input.endpointId)
      yield* query(`DELETE FROM pm_webhook_endpoints WHERE workspace_id = $1 AND id = $2`, [workspaceId, input.endpointId])
      return { result: undefined, changes: [change(at(workspaceId), "webhook.deleted", input.endpointId, {}, by)] }
    })
  ),

  rotateSecret: command(EndpointRef, WebhookEndpointWithSecret, WebhookNotFound, (input, by, workspaceId) =>
    Effect.gen(function* () {
      yield* endpointOf(workspaceId, input.endpointId)
      yield* query(`UPDATE pm_webhook_endpoints SET secret = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2`, [
        workspaceId,
        input.endpointId,
        newWebhookSecret()
      ])
      return {
        result: yield* endpointOf(workspaceId, input.endpointId),
        changes: [change(at(workspaceId), "webhook.secret_rotated", input.endpointId, {}, by)]
      }
    })
  ),

  /** Queues a `webhook.test` ping to this endpoint only (whatever its filters). */
  sendTest: command(
    EndpointRef,
    WebhookDelivery,
    Schema.Union([WebhookNotFound, WebhookNotActive, DeliveryNotFound]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const endpoint = yield* endpointOf(workspaceId, input.endpointId)
        if (endpoint.status !== "active") return yield* new WebhookNotActive({ status: endpoint.status })
        const id = `msg_${crypto.randomUUID().replaceAll("-", "")}`
        const payload = {
          type: "webhook.test",
          timestamp: new Date().toISOString(),
          data: { workspaceId, endpointId: endpoint.id, actorId: by, message: "Test event from Atrium" }
        }
        yield* query(
          `INSERT INTO pm_webhook_outbox (id, endpoint_id, workspace_id, event_seq, event_type, entity_id, payload) VALUES ($1, $2, $3, 0, 'webhook.test', $2, $4)`,
          [id, endpoint.id, workspaceId, payload]
        )
        yield* wakeAfterCommit(pmWebhooksQueued)
        return { result: yield* deliveryOf(endpoint.id, id), changes: [] }
      })
  ),

  /** Sends a delivery again with its original webhook-id (from its first attempt, with a fresh retry budget). */
  redeliver: command(
    Schema.Struct({ ...EndpointRef.fields, deliveryId: Name(100) }),
    WebhookDelivery,
    Schema.Union([WebhookNotFound, DeliveryNotFound, DeliveryPending]),
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        yield* endpointOf(workspaceId, input.endpointId)
        const delivery = yield* deliveryOf(input.endpointId, input.deliveryId)
        if (delivery.status === "pending") return yield* new DeliveryPending()
        yield* requeue([delivery.id])
        return {
          result: yield* deliveryOf(input.endpointId, input.deliveryId),
          changes: [change(at(workspaceId), "webhook.redelivered", input.endpointId, { deliveryId: delivery.id }, by)]
        }
      })
  )
}

/** The endpoint answered 410 Gone (or is otherwise dead): stop sending to it until someone re-enables it. */
export const disableCommand = {
  disable: command(
    Schema.Struct({ ...EndpointRef.fields, reason: Schema.String }),
    Schema.Void,
    WebhookNotFound,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const disabled = yield* query(
          `UPDATE pm_webhook_endpoints SET status = 'disabled', disabled_reason = $3, updated_at = now()
          WHERE workspace_id = $1 AND id = $2 AND status <> 'disabled' RETURNING id`,
          [workspaceId, input.endpointId, input.reason]
        )
        return {
          result: undefined,
          changes: disabled.length ? [change(at(workspaceId), "webhook.disabled", input.endpointId, { reason: input.reason }, by)] : []
        }
      })
  )
}

/** Puts deliveries back in the queue with a fresh retry budget (their webhook-id kept, so receivers dedupe). */
export const requeue = (ids: ReadonlyArray<string>) =>
  Effect.tap(
    query<{ id: string }>(
      `UPDATE pm_webhook_outbox SET status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = NULL, dead_at = NULL, delivered_at = NULL
        WHERE id = ANY($1::text[]) AND status <> 'pending' RETURNING id`,
      [ids]
    ),
    () => wakeAfterCommit(pmWebhooksQueued)
  )

// Commands that leave the endpoints as they were: the model in memory stays.
const keepsEndpoints = new Set(["sendTest", "redeliver"])

/** One per workspace: the single writer of its endpoints, holding them (without secrets) in memory for reads. */
export const PmWebhooks = workActor(
  "pmWebhooks",
  { ...webhookCommands, ...disableCommand },
  {
    state: Schema.Array(WebhookEndpoint),
    rebuild: (workspaceId) => listEndpoints(workspaceId),
    reads: {
      list: {
        payload: Schema.Struct({}),
        success: Schema.Array(WebhookEndpoint),
        error: Schema.Never,
        handle: (_, state) => Effect.succeed(state)
      }
    },
    afterCommand: (name, _result, state) => (keepsEndpoints.has(name) ? state : undefined)
  }
)
