/**
 * Changes seen on sent tasks in their target (status, assignee), found by
 * `syncSentTasks`: listed, acknowledged, or applied back to the call's action
 * item (a closed task completes the item; a new assignee assigns it).
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { Id, Timestamp } from "../Fields.ts"
import { IntegrationTarget } from "../identity/Workspace.ts"
import { HubCall } from "./CallActor.ts"

export const TaskChange = Schema.Struct({
  id: Id,
  sentTaskId: Id,
  recordingId: Schema.Number,
  actionItemId: Schema.String,
  target: IntegrationTarget,
  externalId: Schema.String,
  url: Schema.String,
  text: Schema.String,
  field: Schema.Literals(["status", "assignee"]),
  oldValue: Schema.NullOr(Schema.String),
  newValue: Schema.NullOr(Schema.String),
  detectedAt: Timestamp,
  acknowledgedAt: Schema.NullOr(Timestamp),
  appliedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "TaskChange" })
export type TaskChange = typeof TaskChange.Type

const select = `SELECT c.id, c.sent_id AS "sentTaskId", s.recording_id AS "recordingId", s.action_item_id AS "actionItemId", s.target,
  s.external_id AS "externalId", s.url, s.text, c.field, c.old_value AS "oldValue", c.new_value AS "newValue", c.detected_at AS "detectedAt",
  c.acknowledged_at AS "acknowledgedAt", c.applied_at AS "appliedAt"
  FROM hub_task_changes c JOIN hub_sent_action_items s ON s.id = c.sent_id`

const rows = (where: string, params: ReadonlyArray<unknown>) =>
  Effect.map(Effect.orDie(query<TaskChange>(`${select} WHERE ${where}`, params)), (found) =>
    found.map((row) => ({ ...row, recordingId: Number(row.recordingId) }))
  )

export const listChanges = (workspaceId: string, includeAcknowledged: boolean) =>
  rows(`c.workspace_id = $1 ${includeAcknowledged ? "" : "AND c.acknowledged_at IS NULL"} ORDER BY c.detected_at, c.id`, [workspaceId])

export const getChange = (workspaceId: string, changeId: string) =>
  Effect.flatMap(rows("c.workspace_id = $1 AND c.id = $2", [workspaceId, changeId]), ([row]) =>
    row ? Effect.succeed(row) : Effect.fail(reject("not_found", "No such task change"))
  )

export const acknowledge = (workspaceId: string, changeId: string) =>
  Effect.andThen(
    getChange(workspaceId, changeId),
    Effect.andThen(
      Effect.orDie(query(`UPDATE hub_task_changes SET acknowledged_at = COALESCE(acknowledged_at, now()) WHERE id = $1`, [changeId])),
      getChange(workspaceId, changeId)
    )
  )

export const acknowledgeAll = (workspaceId: string) =>
  Effect.map(
    Effect.orDie(
      query<{ id: string }>(
        `UPDATE hub_task_changes SET acknowledged_at = now() WHERE workspace_id = $1 AND acknowledged_at IS NULL RETURNING id`,
        [workspaceId]
      )
    ),
    (updated) => ({ acknowledged: updated.length })
  )

const DONE = /^(?:done|closed|completed?|resolved|finished)$/i

/** Applies the change to the call's action item (status → completed/open, assignee → its e-mail), then acknowledges it. */
export const apply = (workspaceId: string, changeId: string, by: string) =>
  Effect.gen(function* () {
    const change = yield* getChange(workspaceId, changeId)
    const patch =
      change.field === "status"
        ? { status: DONE.test(change.newValue ?? "") ? ("completed" as const) : ("open" as const) }
        : { assigneeEmail: change.newValue !== null && /^[^\s@,]+@[^\s@,]+$/.test(change.newValue) ? change.newValue.toLowerCase() : null }
    yield* (yield* ActorSystem).ask(HubCall, String(change.recordingId), "setAction", { by, actionItemId: change.actionItemId, ...patch })
    yield* Effect.orDie(
      query(`UPDATE hub_task_changes SET applied_at = now(), acknowledged_at = COALESCE(acknowledged_at, now()) WHERE id = $1`, [changeId])
    )
    return yield* getChange(workspaceId, changeId)
  })
