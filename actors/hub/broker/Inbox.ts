/**
 * The broker's events, stored before they are acknowledged: the event id is
 * the key, so a replayed event is a no-op. Processing (running the workflows
 * its type triggers) follows the store; the tenant's events still pending
 * (a node that died after storing) are processed with the next one, oldest
 * first, each claimed by one node for a while (a lease, so a node that dies
 * mid-way leaves the event to the next one).
 */
import { Effect, Schema } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { Timestamp } from "../../Fields.ts"
import { integrationOfEvent } from "./BrokerIntegrations.ts"
import { workflowsForEvent } from "./WorkflowActor.ts"
import { runWorkflow } from "./Workflows.ts"

export const InboxEvent = Schema.Struct({
  eventId: Schema.String,
  type: Schema.String,
  payload: Schema.Unknown,
  receivedAt: Timestamp,
  processedAt: Schema.NullOr(Timestamp),
  runs: Schema.Number.annotate({ description: "Workflow runs the event started" })
}).annotate({ identifier: "ConnectorInboxEvent" })
export type InboxEvent = typeof InboxEvent.Type

const columns = `event_id AS "eventId", type, payload, received_at AS "receivedAt", processed_at AS "processedAt", runs`

export interface IncomingEvent {
  readonly eventId: string
  readonly workspaceId: string
  readonly tenantRef: string
  readonly type: string
  readonly payload: { readonly integrationId?: string | undefined; readonly data: unknown }
}

/** Stores the event; false when its id was seen before. */
export const store = (event: IncomingEvent) =>
  Effect.map(
    Effect.orDie(
      query(
        `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (tenant_ref, event_id) DO NOTHING RETURNING event_id`,
        [event.eventId, event.workspaceId, event.tenantRef, event.type, event.payload]
      )
    ),
    (rows) => rows.length > 0
  )

/** A lease on an event being processed: a node that dies mid-way leaves it to the next one after this. */
const CLAIM_SECONDS = 60

/**
 * Claims the tenant's oldest pending event (one node at a time), runs the
 * workflows it triggers and marks it processed. The vendor calls happen
 * outside any transaction; a step pushed before a crash is not pushed twice
 * (its key is the event's).
 */
const processOne = (tenantRef: string) =>
  Effect.gen(function* () {
    const [row] = yield* Effect.orDie(
      query<{ eventId: string; workspaceId: string; type: string; payload: IncomingEvent["payload"] }>(
        `UPDATE hub_broker_inbox SET claimed_until = now() + make_interval(secs => $2)
         WHERE (tenant_ref, event_id) = (
           SELECT tenant_ref, event_id FROM hub_broker_inbox
           WHERE tenant_ref = $1 AND processed_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
           ORDER BY received_at, event_id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING event_id AS "eventId", workspace_id AS "workspaceId", type, payload`,
        [tenantRef, CLAIM_SECONDS]
      )
    )
    if (!row) return false
    const integration = row.payload.integrationId ? yield* integrationOfEvent(tenantRef, row.payload.integrationId) : null
    // An event of an unknown or disabled integration is kept, and runs nothing.
    const runnable = !row.payload.integrationId || integration?.enabled === true
    const workflows = runnable ? yield* workflowsForEvent(row.workspaceId, row.type) : []
    for (const workflow of workflows) {
      yield* runWorkflow(
        workflow,
        { id: row.eventId, type: row.type, data: row.payload.data, connectionId: integration?.connectionId ?? null },
        "event"
      )
    }
    yield* Effect.orDie(
      query(`UPDATE hub_broker_inbox SET processed_at = now(), claimed_until = NULL, runs = $3 WHERE tenant_ref = $1 AND event_id = $2`, [
        tenantRef,
        row.eventId,
        workflows.length
      ])
    )
    return true
  })

/** Processes the tenant's pending events, oldest first (at most 100 per call); answers how many. */
export const drain = (tenantRef: string) =>
  Effect.gen(function* () {
    let processed = 0
    while (processed < 100 && (yield* processOne(tenantRef))) processed += 1
    return processed
  })

export const pendingOf = (tenantRef: string) =>
  Effect.map(
    Effect.orDie(
      query<{ count: number }>(`SELECT count(*)::int AS count FROM hub_broker_inbox WHERE tenant_ref = $1 AND processed_at IS NULL`, [
        tenantRef
      ])
    ),
    ([row]) => Number(row?.count ?? 0)
  )

export const eventOf = (tenantRef: string, eventId: string) =>
  Effect.map(
    Effect.orDie(
      query<InboxEvent>(`SELECT ${columns} FROM hub_broker_inbox WHERE tenant_ref = $1 AND event_id = $2`, [tenantRef, eventId])
    ),
    ([row]) => row ?? null
  )

export const eventsOf = (tenantRef: string, limit: number) =>
  Effect.orDie(
    query<InboxEvent>(`SELECT ${columns} FROM hub_broker_inbox WHERE tenant_ref = $1 ORDER BY received_at DESC, event_id LIMIT $2`, [
      tenantRef,
      limit
    ])
  )
