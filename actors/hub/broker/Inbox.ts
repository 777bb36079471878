/**
 * The broker's events, stored before they are acknowledged: the event id is
 * the key, so a replayed event is a no-op. Applying an event runs the
 * workflows its type triggers in the tenant's workspace (through the event's
 * integration's connection when it names one). Every application starts with
 * a claim (`FOR UPDATE SKIP LOCKED`, then a lease in `claimed_until`), so two
 * nodes never apply the same event at once, and a node that dies mid-way
 * leaves it to the next claim after the lease. The webhook applies its event
 * right after storing it; the background processor (`inboxLoop`, started
 * with the hub) applies whatever is left: events a node stored and never
 * applied (a restart), and failed attempts, retried with backoff. Each
 * workflow's last run is kept on the event, so a retry runs only the
 * workflows that failed; their vendor pushes are keyed by the event, so a
 * step that succeeded before is never pushed twice.
 */
import { Cause, Effect, Schema } from "effect"
import { millisUntil, query, wakeAfterCommit } from "../../../persistence/Sql.ts"
import { nothingLeft, runWorker } from "../../../runtime/Wakeup.ts"
import { Timestamp } from "../../Fields.ts"
import { nextRetryDelayMs, type RetryPolicy } from "../../webhooks/RetrySchedule.ts"
import { integrationOfEvent } from "./BrokerIntegrations.ts"
import { workflowsForEvent } from "./WorkflowActor.ts"
import { runWorkflow } from "./Workflows.ts"

export const InboxStatus = Schema.Literals(["pending", "processed", "failed"]).annotate({
  description: "pending: not applied yet, or waiting for a retry; processed: every triggered workflow ran; failed: out of attempts"
})

export const WorkflowOutcome = Schema.Struct({
  workflowId: Schema.String,
  runId: Schema.String,
  status: Schema.Literals(["succeeded", "failed"])
}).annotate({ identifier: "ConnectorEventWorkflowOutcome" })
type WorkflowOutcome = typeof WorkflowOutcome.Type

export const InboxEvent = Schema.Struct({
  eventId: Schema.String,
  type: Schema.String,
  payload: Schema.Unknown,
  receivedAt: Timestamp,
  status: InboxStatus,
  processedAt: Schema.NullOr(Timestamp),
  runs: Schema.Number.annotate({ description: "Workflow runs the event started (over all attempts)" }),
  attempts: Schema.Number.annotate({ description: "Times it was applied (a retry counts again)" }),
  lastError: Schema.NullOr(Schema.String).annotate({ description: "Why the last attempt failed" }),
  nextAttemptAt: Schema.NullOr(Timestamp).annotate({ description: "When a pending event is applied (again); null once done" }),
  workflows: Schema.Array(WorkflowOutcome).annotate({ description: "Each triggered workflow's last run" })
}).annotate({ identifier: "ConnectorInboxEvent" })
export type InboxEvent = typeof InboxEvent.Type

const columns = `event_id AS "eventId", type, payload, received_at AS "receivedAt", status, processed_at AS "processedAt", runs, attempts,
  last_error AS "lastError", CASE WHEN status = 'pending' THEN next_attempt_at END AS "nextAttemptAt", outcome AS workflows`

export interface IncomingEvent {
  readonly eventId: string
  readonly workspaceId: string
  readonly tenantRef: string
  readonly type: string
  readonly payload: { readonly integrationId?: string | undefined; readonly data: unknown }
}

/** How long the background processor leaves a new event to the webhook that stored it (it applies it at once). */
const RECEIVER_GRACE_SECONDS = 30

/** The wake-up topic (runtime/Wakeup.ts) of the background processor. */
export const inboxStored = "hub.broker.inbox"

/** Stores the event (the processor woken to learn its due time once it commits); false when its id was seen before. */
export const store = (event: IncomingEvent) =>
  Effect.map(
    Effect.orDie(
      query(
        `INSERT INTO hub_broker_inbox (event_id, workspace_id, tenant_ref, type, payload, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => ${RECEIVER_GRACE_SECONDS}))
         ON CONFLICT (tenant_ref, event_id) DO NOTHING RETURNING event_id`,
        [event.eventId, event.workspaceId, event.tenantRef, event.type, event.payload]
      )
    ).pipe(Effect.tap(() => wakeAfterCommit(inboxStored))),
    (rows) => rows.length > 0
  )

/** A claim's lease: longer than a run of every step's vendor calls (each has its own timeout). */
const LEASE_SECONDS = 300
/** Attempts per event, then it is failed; waits grow from a few seconds to an hour. */
export const inboxRetryPolicy: RetryPolicy = { maxAttempts: 8, baseMs: 5_000, capMs: 3_600_000 }

interface ClaimedEvent {
  readonly tenantRef: string
  readonly eventId: string
  readonly workspaceId: string
  readonly type: string
  readonly payload: IncomingEvent["payload"]
  readonly attempts: number
  readonly workflows: ReadonlyArray<WorkflowOutcome>
}

/** Claims pending events (`which` picks them) for this node; each claim counts an attempt. */
const claim = (which: string, params: ReadonlyArray<unknown>, limit: number) =>
  Effect.orDie(
    query<ClaimedEvent>(
      `UPDATE hub_broker_inbox SET claimed_until = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = attempts + 1
        WHERE (tenant_ref, event_id) IN (
          SELECT tenant_ref, event_id FROM hub_broker_inbox
           WHERE status = 'pending' AND (claimed_until IS NULL OR claimed_until < now()) AND ${which}
           ORDER BY received_at, event_id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING tenant_ref AS "tenantRef", event_id AS "eventId", workspace_id AS "workspaceId", type, payload, attempts,
          outcome AS workflows`,
      params
    )
  )

/** Runs the workflows the event triggers that have not succeeded for it yet; answers each one's run. */
const runTriggered = (event: ClaimedEvent) =>
  Effect.gen(function* () {
    const integrationId = event.payload.integrationId
    const integration = integrationId ? yield* integrationOfEvent(event.tenantRef, integrationId) : null
    // An event of an unknown or disabled integration is kept, and runs nothing.
    if (integrationId && integration?.enabled !== true) return []
    const done = new Set(event.workflows.filter((run) => run.status === "succeeded").map((run) => run.workflowId))
    const workflows = (yield* workflowsForEvent(event.workspaceId, event.type)).filter((workflow) => !done.has(workflow.id))
    return yield* Effect.forEach(workflows, (workflow) =>
      Effect.map(
        runWorkflow(
          workflow,
          { id: event.eventId, type: event.type, data: event.payload.data, connectionId: integration?.connectionId ?? null },
          "event"
        ),
        (run): WorkflowOutcome => ({ workflowId: workflow.id, runId: run.id, status: run.status === "succeeded" ? "succeeded" : "failed" })
      )
    )
  })

const causeMessage = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause) as { readonly message?: unknown }
  return (typeof error?.message === "string" ? error.message : String(error)).slice(0, 500)
}

/**
 * Applies one claimed event and records the outcome on it: processed when
 * every triggered workflow succeeded, else its error and a retry after a
 * backoff, or failed when out of attempts. Answers how many runs it started.
 * A claim that outlived its lease (another node claimed the event since,
 * counting another attempt) records nothing.
 */
const apply = (event: ClaimedEvent) =>
  Effect.gen(function* () {
    const result = yield* Effect.exit(runTriggered(event))
    const runs = result._tag === "Success" ? result.value : []
    const workflows = [...event.workflows.filter((run) => !runs.some((now) => now.workflowId === run.workflowId)), ...runs]
    const failedRuns = runs.filter((run) => run.status === "failed")
    const error =
      result._tag === "Failure"
        ? `processing failed: ${causeMessage(result.cause)}`
        : failedRuns.length > 0
          ? `${failedRuns.length} workflow run(s) failed (see their runs)`
          : null
    const delay = error === null ? undefined : nextRetryDelayMs(event.attempts, inboxRetryPolicy)
    const status = error === null ? "processed" : delay === undefined ? "failed" : "pending"
    yield* Effect.orDie(
      query(
        `UPDATE hub_broker_inbox SET status = $3, processed_at = CASE WHEN $3 = 'processed' THEN now() END, runs = runs + $4,
           last_error = $5, outcome = $6::text::jsonb, claimed_until = NULL,
           next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $7) ELSE next_attempt_at END
         WHERE tenant_ref = $1 AND event_id = $2 AND attempts = $8`,
        [event.tenantRef, event.eventId, status, runs.length, error, JSON.stringify(workflows), (delay ?? 0) / 1000, event.attempts]
      )
    )
    return runs.length
  })

/** Applies the event the webhook just stored, unless another node holds it; answers the runs it started. */
export const processEvent = (tenantRef: string, eventId: string) =>
  Effect.flatMap(claim("tenant_ref = $1 AND event_id = $2", [tenantRef, eventId], 1), ([event]) =>
    event ? apply(event) : Effect.succeed(0)
  )

/** Applies the tenant's pending events now, retries waiting for their backoff included (at most 100); answers how many. */
export const drain = (tenantRef: string) =>
  Effect.gen(function* () {
    const events = yield* claim("tenant_ref = $1", [tenantRef], 100)
    yield* Effect.forEach(events, apply, { discard: true })
    return events.length
  })

/** One pass of the background processor: applies every due event, a batch at a time; answers how many. */
export const processDue = (batchSize = 20) =>
  Effect.gen(function* () {
    let total = 0
    while (true) {
      const events = yield* claim("next_attempt_at <= now()", [], batchSize)
      yield* Effect.forEach(events, apply, { discard: true })
      total += events.length
      if (events.length < batchSize) return total
    }
  })

/**
 * After a restart of the only node, claims held by the previous process are
 * released at once (with several nodes, their leases run out instead).
 */
export const recoverInbox = (singleNode: boolean) =>
  singleNode ? Effect.asVoid(Effect.orDie(query(`UPDATE hub_broker_inbox SET claimed_until = NULL WHERE status = 'pending'`))) : Effect.void

/** Milliseconds until the earliest pending event falls due or its claim lapses (from the database's clock). */
const nextDueInMs = Effect.orDie(
  millisUntil("min(GREATEST(next_attempt_at, COALESCE(claimed_until, next_attempt_at)))", "FROM hub_broker_inbox WHERE status = 'pending'")
)

/**
 * The background processor: applies due events, then sleeps until the next
 * one falls due (or a stored event or the safety poll wakes it); passes
 * start at least BROKER_INBOX_POLL_MS (default 1000) apart. Runs until the scope closes.
 */
export const inboxLoop = Effect.suspend(() => {
  const value = Number(process.env.BROKER_INBOX_POLL_MS)
  const paceMillis = Number.isFinite(value) && value >= 10 ? value : 1000
  const pass = Effect.gen(function* () {
    yield* processDue()
    const dueInMs = yield* nextDueInMs
    return dueInMs === undefined ? nothingLeft : { dueAt: Date.now() + dueInMs }
  }).pipe(
    Effect.catchCause((cause) => Effect.as(Effect.logWarning("hub: broker inbox pass failed", cause), { dueAt: Date.now() + paceMillis }))
  )
  return runWorker(inboxStored, pass, { paceMillis })
})

export const pendingOf = (tenantRef: string) =>
  Effect.map(
    Effect.orDie(
      query<{ count: number }>(`SELECT count(*)::int AS count FROM hub_broker_inbox WHERE tenant_ref = $1 AND status = 'pending'`, [
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
