/**
 * The webhook outbox hook of the pm change log: one outbox row per
 * (active endpoint, event) whose filters match, inserted by the same
 * statement that inserts the events — so an acknowledged change always has
 * its deliveries queued, and a rolled-back one never does. The payload is
 * the Standard Webhooks envelope `{type, timestamp, data}` with the event.
 */

/** The wake-up topic (runtime/Wakeup.ts) of the engine sending `pm_webhook_outbox`: the change log signals it on every append. */
export const pmWebhooksQueued = "pm.webhooks.queued"

/** SQL selecting outbox rows from `source` (columns of `pm_events`), for a data-modifying CTE. */
const outboxInsert = (
  source: string
) => `INSERT INTO pm_webhook_outbox (id, endpoint_id, workspace_id, event_seq, event_type, entity_id, payload)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ep.id, e.workspace_id, e.seq, e.type, e.entity_id,
         jsonb_build_object('type', e.type, 'timestamp', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'data', jsonb_build_object('seq', e.seq, 'workspaceId', e.workspace_id, 'scope', e.scope, 'entityId', e.entity_id,
             'path', jsonb_strip_nulls(jsonb_build_object('spaceId', e.space_id, 'listId', e.list_id, 'taskId', e.task_id)),
             'data', e.data, 'actorId', e.actor_id))
    FROM ${source} e
    JOIN pm_webhook_endpoints ep ON ep.workspace_id = e.workspace_id AND ep.status = 'active'
     AND (cardinality(ep.event_types) = 0 OR e.type = ANY(ep.event_types))
     AND (ep.space_id IS NULL OR ep.space_id = e.space_id)`

/** A CTE body enqueuing the deliveries of the rows of CTE `inserted` (which returns pm_events' columns). */
export const enqueueInsertedSql = outboxInsert("inserted")

/** A statement enqueuing the deliveries of workspace `$1`'s events `$2..$3` (bulk appends). */
export const enqueueRangeSql = `${outboxInsert("pm_events")} WHERE e.workspace_id = $1 AND e.seq BETWEEN $2 AND $3`
