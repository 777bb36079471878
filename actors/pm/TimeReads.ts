/**
 * Reads of tracked time (the rows `TimeEntries`' commands write): a task's
 * entries and per-user totals, a user's running timer, a workspace timesheet,
 * and how far along a task is (subtasks, checklist items, minutes).
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { TimeEntry, timeEntryColumns } from "./TimeEntries.ts"

const findTaskEntries = SqlSchema.findAll({
  Request: Schema.String,
  Result: TimeEntry,
  execute: (taskId) => [`SELECT ${timeEntryColumns} FROM pm_time_entries WHERE task_id = $1 ORDER BY started_at, id`, [taskId]]
})

/** A task's time entries, oldest first. */
export const taskEntries = (taskId: string) => findTaskEntries(taskId)

const findTaskTotals = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ userId: Schema.String, minutes: Schema.Number, running: Schema.Boolean }),
  execute: (taskId) => [
    `SELECT user_id AS "userId", round(sum(extract(epoch FROM COALESCE(ended_at, now()) - started_at)) / 60)::int AS minutes, bool_or(ended_at IS NULL) AS running
       FROM pm_time_entries WHERE task_id = $1 GROUP BY user_id ORDER BY user_id`,
    [taskId]
  ]
})

/** Minutes tracked on a task per user (a running entry counts up to now), and whether the user's timer runs. */
export const taskTotals = (taskId: string) => findTaskTotals(taskId)

const findRunning = SqlSchema.findOne({
  Request: Schema.Struct({ workspaceId: Schema.String, userId: Schema.String }),
  Result: TimeEntry,
  execute: (r) => [
    `SELECT ${timeEntryColumns} FROM pm_time_entries WHERE workspace_id = $1 AND user_id = $2 AND ended_at IS NULL`,
    [r.workspaceId, r.userId]
  ]
})

/** The user's running entry in the workspace, if any. */
export const runningEntry = (workspaceId: string, userId: string) => findRunning({ workspaceId, userId })

const findTimesheet = SqlSchema.findAll({
  Request: Schema.Struct({
    workspaceId: Schema.String,
    userId: Schema.String,
    admin: Schema.Boolean,
    from: Schema.NullOr(Schema.String),
    to: Schema.NullOr(Schema.String),
    of: Schema.NullOr(Schema.String),
    offset: Schema.Number,
    limit: Schema.Number
  }),
  Result: TimeEntry,
  execute: (r) => [
    `SELECT ${timeEntryColumns.replace(/\b(id|task_id|user_id|started_at|ended_at|note|billable|created_at)\b/g, "e.$1")} FROM pm_time_entries e
       JOIN pm_tasks t ON t.id = e.task_id JOIN pm_spaces s ON s.id = t.space_id
      WHERE e.workspace_id = $1 AND t.deleted_at IS NULL
        AND (NOT s.is_private OR $2::boolean OR EXISTS (SELECT 1 FROM pm_space_members m WHERE m.space_id = s.id AND m.user_id = $3))
        AND ($4::timestamptz IS NULL OR e.started_at >= $4) AND ($5::timestamptz IS NULL OR e.started_at < $5) AND ($6::text IS NULL OR e.user_id = $6)
      ORDER BY e.started_at, e.id LIMIT $7 OFFSET $8`,
    [r.workspaceId, r.admin, r.userId, r.from, r.to, r.of, r.limit, r.offset]
  ]
})

/**
 * Time entries of the workspace's (not deleted) tasks in the spaces the
 * viewer may see, started in [from, to), optionally of one user (`of`).
 */
export const timesheet = (
  workspaceId: string,
  viewer: { readonly userId: string; readonly admin: boolean },
  filter: { readonly from: string | null; readonly to: string | null; readonly of: string | null },
  page: { readonly offset: number; readonly limit: number }
) => findTimesheet({ workspaceId, userId: viewer.userId, admin: viewer.admin, ...filter, ...page })

const Counts = Schema.Struct({ total: Schema.Number, done: Schema.Number })
const countSubtasks = SqlSchema.findOne({
  Request: Schema.String,
  Result: Counts,
  execute: (taskId) => [
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE closed_at IS NOT NULL)::int AS done FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL`,
    [taskId]
  ]
})
const countChecklistItems = SqlSchema.findOne({
  Request: Schema.String,
  Result: Counts,
  execute: (taskId) => [
    "SELECT count(*)::int AS total, count(*) FILTER (WHERE resolved)::int AS done FROM pm_checklist_items WHERE task_id = $1",
    [taskId]
  ]
})
const sumMinutes = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ minutes: Schema.Number }),
  execute: (taskId) => [
    "SELECT COALESCE(round(sum(extract(epoch FROM COALESCE(ended_at, now()) - started_at)) / 60), 0)::int AS minutes FROM pm_time_entries WHERE task_id = $1",
    [taskId]
  ]
})

/** A task's (not deleted) subtasks and closed ones, checklist items and resolved ones, and minutes tracked. */
export const progressOf = (taskId: string) =>
  Effect.gen(function* () {
    const none = { total: 0, done: 0 }
    const subtasks = (yield* countSubtasks(taskId)) ?? none
    const items = (yield* countChecklistItems(taskId)) ?? none
    const time = yield* sumMinutes(taskId)
    return {
      subtasks: { total: subtasks.total, finished: subtasks.done },
      checklistItems: { total: items.total, resolved: items.done },
      trackedMinutes: time?.minutes ?? 0
    }
  })
