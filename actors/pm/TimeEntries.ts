/** Time tracked on a task: entries logged by hand and the per-user running timer (the task actor's commands). */
import { Effect, Schema } from "effect"
import { Id } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { TaskNotFound } from "./PmErrors.ts"
import type { Change } from "./ChangeLog.ts"
import { featuresOfSpace, getTask } from "./TaskReads.ts"
import { taskChange } from "./TaskWrites.ts"
import { command } from "./WorkActor.ts"
import {
  EndBeforeStart,
  NoTimerRunning,
  TimeEntryEndMissing,
  TimeEntryNotFound,
  TimeEntryOwnerOnly,
  TimeTrackingTurnedOff
} from "./WorkErrors.ts"
import { DateTime } from "./WorkRecords.ts"

export const TimeEntry = Schema.Struct({
  id: Id,
  taskId: Id,
  userId: Id,
  startedAt: Schema.String,
  endedAt: Schema.NullOr(Schema.String),
  durationMinutes: Schema.NullOr(Schema.Number),
  note: Schema.String,
  billable: Schema.Boolean,
  createdAt: Schema.String
}).annotate({ identifier: "TimeEntry" })
export type TimeEntry = typeof TimeEntry.Type

export const timeEntryColumns = `id, task_id AS "taskId", user_id AS "userId", started_at AS "startedAt", ended_at AS "endedAt",
  CASE WHEN ended_at IS NULL THEN NULL ELSE round(extract(epoch FROM ended_at - started_at) / 60)::int END AS "durationMinutes",
  note, billable, created_at AS "createdAt"`

const Note = Schema.String.check(Schema.isMaxLength(2000))

/** Time logged by hand, for `userId`: the end is given, or the duration. */
const NewTimeEntry = Schema.Struct({
  userId: Id,
  startedAt: DateTime,
  endedAt: Schema.optionalKey(DateTime),
  durationMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
  note: Schema.optionalKey(Note),
  billable: Schema.optionalKey(Schema.Boolean)
})

/** A correction of an entry; `admin` lets the caller correct another's. */
const TimeEntryPatch = Schema.Struct({
  entryId: Id,
  startedAt: Schema.optionalKey(DateTime),
  endedAt: Schema.optionalKey(DateTime),
  note: Schema.optionalKey(Note),
  billable: Schema.optionalKey(Schema.Boolean),
  admin: Schema.Boolean
})

export const timeEntryCommands = {
  addTimeEntry: command(
    NewTimeEntry,
    TimeEntry,
    Schema.Union([TaskNotFound, TimeTrackingTurnedOff, TimeEntryEndMissing, EndBeforeStart]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        if (!(yield* featuresOfSpace(task.spaceId)).timeTracking) return yield* new TimeTrackingTurnedOff()
        const endedAt =
          input.endedAt ??
          (input.durationMinutes !== undefined
            ? new Date(Date.parse(input.startedAt) + input.durationMinutes * 60_000).toISOString()
            : undefined)
        if (endedAt === undefined) return yield* new TimeEntryEndMissing()
        if (Date.parse(endedAt) < Date.parse(input.startedAt)) return yield* new EndBeforeStart()
        const id = crypto.randomUUID()
        const [entry] = yield* query<TimeEntry>(
          `INSERT INTO pm_time_entries (id, workspace_id, task_id, user_id, started_at, ended_at, note, billable) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${timeEntryColumns}`,
          [id, task.workspaceId, taskId, input.userId, input.startedAt, endedAt, input.note ?? "", input.billable ?? false]
        )
        return {
          result: entry,
          changes: [taskChange(task, "time_entry.created", { entryId: id, userId: input.userId, startedAt: input.startedAt, endedAt }, by)]
        }
      })
  ),

  updateTimeEntry: command(
    TimeEntryPatch,
    TimeEntry,
    Schema.Union([TaskNotFound, TimeEntryNotFound, TimeEntryOwnerOnly, EndBeforeStart]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* query<{ userId: string; startedAt: string; endedAt: string | null }>(
          `SELECT user_id AS "userId", started_at AS "startedAt", ended_at AS "endedAt" FROM pm_time_entries WHERE id = $1 AND task_id = $2`,
          [input.entryId, taskId]
        )
        if (current.length === 0) return yield* new TimeEntryNotFound()
        if (current[0]!.userId !== by && !input.admin) return yield* new TimeEntryOwnerOnly({ action: "changes" })
        const startedAt = input.startedAt ?? current[0]!.startedAt
        const endedAt = input.endedAt ?? current[0]!.endedAt
        if (endedAt && Date.parse(endedAt) < Date.parse(startedAt)) return yield* new EndBeforeStart()
        const [entry] = yield* query<TimeEntry>(
          `UPDATE pm_time_entries SET started_at = $2, ended_at = $3, note = COALESCE($4, note), billable = COALESCE($5, billable) WHERE id = $1 RETURNING ${timeEntryColumns}`,
          [input.entryId, startedAt, endedAt, input.note ?? null, input.billable ?? null]
        )
        const { admin: _a, ...fields } = input
        return { result: entry, changes: [taskChange(task, "time_entry.updated", fields, by)] }
      })
  ),

  deleteTimeEntry: command(
    Schema.Struct({ entryId: Id, admin: Schema.Boolean }),
    Schema.Void,
    Schema.Union([TaskNotFound, TimeEntryNotFound, TimeEntryOwnerOnly]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* query<{ userId: string }>(`SELECT user_id AS "userId" FROM pm_time_entries WHERE id = $1 AND task_id = $2`, [
          input.entryId,
          taskId
        ])
        if (current.length === 0) return yield* new TimeEntryNotFound()
        if (current[0]!.userId !== by && !input.admin) return yield* new TimeEntryOwnerOnly({ action: "deletes" })
        yield* query(`DELETE FROM pm_time_entries WHERE id = $1`, [input.entryId])
        return { result: undefined, changes: [taskChange(task, "time_entry.deleted", { entryId: input.entryId }, by)] }
      })
  ),

  /** Starts the caller's timer on this task; a timer running elsewhere is stopped first. */
  startTimer: command(
    Schema.Struct({ note: Schema.optionalKey(Note) }),
    TimeEntry,
    Schema.Union([TaskNotFound, TimeTrackingTurnedOff]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        if (!(yield* featuresOfSpace(task.spaceId)).timeTracking) return yield* new TimeTrackingTurnedOff()
        const changes: Array<Change> = []
        const running = yield* query<{ id: string; taskId: string }>(
          `UPDATE pm_time_entries SET ended_at = now() WHERE user_id = $1 AND ended_at IS NULL RETURNING id, task_id AS "taskId"`,
          [by]
        )
        for (const stopped of running) {
          const other = yield* getTask(stopped.taskId).pipe(Effect.option)
          if (other._tag === "Some") changes.push(taskChange(other.value, "timer.stopped", { entryId: stopped.id, userId: by }, by))
        }
        const id = crypto.randomUUID()
        const [entry] = yield* query<TimeEntry>(
          `INSERT INTO pm_time_entries (id, workspace_id, task_id, user_id, started_at, note) VALUES ($1, $2, $3, $4, now(), $5) RETURNING ${timeEntryColumns}`,
          [id, task.workspaceId, taskId, by, input.note ?? ""]
        )
        changes.push(taskChange(task, "timer.started", { entryId: id, userId: by }, by))
        return { result: entry, changes }
      })
  ),

  stopTimer: command(Schema.Struct({}), TimeEntry, Schema.Union([TaskNotFound, NoTimerRunning]), (_, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const [entry] = yield* query<TimeEntry>(
        `UPDATE pm_time_entries SET ended_at = now() WHERE user_id = $1 AND task_id = $2 AND ended_at IS NULL RETURNING ${timeEntryColumns}`,
        [by, taskId]
      )
      if (entry === undefined) return yield* new NoTimerRunning()
      return { result: entry, changes: [taskChange(task, "timer.stopped", { entryId: entry.id, userId: by }, by)] }
    })
  )
}
