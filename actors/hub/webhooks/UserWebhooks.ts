/**
 * Personal webhooks of hub users (`hub_user_webhooks`): endpoints a user
 * registers to hear when a meeting they took part in finishes processing.
 * The rows' queries; the `hubUserWebhooks` actor is their one writer.
 * Deliveries go through the shared outbox (source "hub-user") and the
 * DeliveryEngine, which reaches the endpoints through `userWebhookEndpoints`.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query, type Sql } from "../../../persistence/Sql.ts"
import type { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { Id, Timestamp } from "../../Fields.ts"
import type { EndpointSource } from "../../webhooks/OutgoingDeliveryQueue.ts"
import { newWebhookSecret } from "../../webhooks/StandardWebhooks.ts"

export const USER_WEBHOOK_SOURCE = "hub-user"
export const MEETING_PROCESSED = "meeting.processed"
/** Sent on request to check an endpoint; never subscribed to. */
export const WEBHOOK_TEST = "webhook.test"
export const MAX_WEBHOOKS_PER_USER = 10

export const UserWebhook = Schema.Struct({
  id: Id,
  url: Schema.String,
  description: Schema.String,
  eventTypes: Schema.Array(Schema.String),
  enabled: Schema.Boolean,
  disabledReason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "UserWebhook" })
export type UserWebhook = typeof UserWebhook.Type

const COLUMNS = `id, url, description, event_types AS "eventTypes", enabled, disabled_reason AS "disabledReason",
  created_at AS "createdAt", updated_at AS "updatedAt"`

export const webhooksOf = (userId: string) =>
  query<UserWebhook>(`SELECT ${COLUMNS} FROM hub_user_webhooks WHERE user_id = $1 ORDER BY created_at, id`, [userId])

/** The user's webhook, or undefined (someone else's is undefined too). */
export const webhookOf = (userId: string, webhookId: string) =>
  Effect.map(
    query<UserWebhook>(`SELECT ${COLUMNS} FROM hub_user_webhooks WHERE user_id = $1 AND id = $2`, [userId, webhookId]),
    (rows) => rows[0]
  )

/** Registers an endpoint; returns it with its secret (shown this once). */
export const addWebhook = (userId: string, url: string, description: string) =>
  Effect.gen(function* () {
    const secret = newWebhookSecret()
    const rows = yield* query<UserWebhook>(
      `INSERT INTO hub_user_webhooks (id, user_id, url, description, secret, event_types)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [randomUUID(), userId, url, description, secret, [MEETING_PROCESSED]]
    )
    return { ...rows[0]!, secret }
  })

export const changeWebhook = (
  userId: string,
  webhookId: string,
  patch: { readonly url?: string; readonly description?: string; readonly enabled?: boolean }
) =>
  Effect.map(
    query<UserWebhook>(
      `UPDATE hub_user_webhooks SET url = coalesce($3, url), description = coalesce($4, description),
              enabled = coalesce($5, enabled),
              disabled_reason = CASE WHEN coalesce($5, enabled) THEN NULL WHEN $5 = false THEN 'Disabled by its owner' ELSE disabled_reason END,
              updated_at = now()
        WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [userId, webhookId, patch.url ?? null, patch.description ?? null, patch.enabled ?? null]
    ),
    (rows) => rows[0]
  )

/** Removes the endpoint and its delivery log (pending deliveries are not sent). */
export const removeWebhook = (userId: string, webhookId: string) =>
  Effect.gen(function* () {
    const rows = yield* query<{ id: string }>("DELETE FROM hub_user_webhooks WHERE user_id = $1 AND id = $2 RETURNING id", [
      userId,
      webhookId
    ])
    if (rows.length > 0)
      yield* query("DELETE FROM outgoing_webhook_deliveries WHERE source = $1 AND endpoint_id = $2", [USER_WEBHOOK_SOURCE, webhookId])
    return rows.length > 0
  })

/** The enabled webhooks of these users that hear `eventType`. */
export const subscribers = (userIds: ReadonlyArray<string>, eventType: string) =>
  query<{ id: string; user_id: string }>(
    "SELECT id, user_id FROM hub_user_webhooks WHERE user_id = ANY($1::text[]) AND enabled AND $2 = ANY(event_types) ORDER BY id",
    [userIds, eventType]
  )

export const disableWebhook = (userId: string, webhookId: string, reason: string) =>
  Effect.map(
    query<UserWebhook>(
      `UPDATE hub_user_webhooks SET enabled = false, disabled_reason = $3, updated_at = now() WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [userId, webhookId, reason]
    ),
    (rows) => rows[0]
  )

/** How the delivery engine reaches personal webhooks (disabling goes through the owner's actor). */
export const userWebhookEndpoints = (
  disable: (ownerId: string, webhookId: string, reason: string) => Effect.Effect<void, unknown, ActorSystem>
): EndpointSource<Sql | ActorSystem> => ({
  resolve: (endpointId) =>
    Effect.map(
      query<{ url: string; secret: string; enabled: boolean }>("SELECT url, secret, enabled FROM hub_user_webhooks WHERE id = $1", [
        endpointId
      ]),
      (rows) => rows[0]
    ),
  disable: (endpointId, ownerId, reason) => disable(ownerId, endpointId, reason)
})
