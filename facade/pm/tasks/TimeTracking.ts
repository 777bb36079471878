/**
 * Time tracking: entries, the running timer and summaries.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { requireMembers } from "../../../actors/pm/Members.ts"
import { TimeEntry } from "../../../actors/pm/TimeEntries.ts"
import * as TimeReads from "../../../actors/pm/TimeReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { DateTime, isoDate, Items } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, Limit, Offset, onTask, orDieSql, pageOf, realDates } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams, WorkspaceParams } from "./shared.ts"
import { timeTrackingExamples } from "./TimeTracking.examples.ts"

const EntryParams = Schema.Struct({ taskId: Id, entryId: Id })

const { operation } = tagGroup(service, tag, timeTrackingExamples)

export const taskTimeTrackingOperations = [
  operation({
    operationId: "listTaskTimeEntries",
    method: "GET",
    path: "/v1/tasks/{taskId}/time-entries",
    summary: "Time tracked on a task, oldest first",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Entries", schema: Items(TimeEntry) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        Effect.map(orDieSql(TimeReads.taskEntries(params.taskId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "createTaskTimeEntry",
    method: "POST",
    path: "/v1/tasks/{taskId}/time-entries",
    summary: "Log time on a task (give endedAt or durationMinutes)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({
      startedAt: DateTime,
      endedAt: Schema.optionalKey(DateTime),
      durationMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
      note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))),
      billable: Schema.optionalKey(Schema.Boolean),
      userId: Schema.optionalKey(Id)
    }),
    responses: { 201: { description: "Logged", schema: TimeEntry } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const userId = body.userId ?? caller.userId
        if (userId !== caller.userId && !caller.admin) return yield* reject("forbidden", "Only an admin logs time for someone else")
        yield* orDieSql(requireMembers(caller.at.workspaceId, [userId], "body.userId"))
        const startedAt = isoDate(body.startedAt)
        const endedAt = body.endedAt === undefined ? undefined : isoDate(body.endedAt)
        if (!startedAt) return yield* reject("invalid", "Invalid body.startedAt", [{ path: "body.startedAt", message: "not a real date" }])
        if (body.endedAt !== undefined && !endedAt)
          return yield* reject("invalid", "Invalid body.endedAt", [{ path: "body.endedAt", message: "not a real date" }])
        const { userId: _u, ...rest } = body
        return yield* send(PmTask, params.taskId, "addTimeEntry", caller.userId, {
          ...rest,
          startedAt,
          ...(endedAt ? { endedAt } : {}),
          userId
        })
      })
  }),
  operation({
    operationId: "updateTaskTimeEntry",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/time-entries/{entryId}",
    summary: "Correct a time entry (its owner or an admin)",
    auth: "both",
    scopes: write,
    params: EntryParams,
    body: Schema.Struct({
      startedAt: Schema.optionalKey(DateTime),
      endedAt: Schema.optionalKey(DateTime),
      note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))),
      billable: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "Updated", schema: TimeEntry } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* realDates({ startDate: body.startedAt, dueDate: body.endedAt })
        return yield* send(PmTask, params.taskId, "updateTimeEntry", caller.userId, {
          entryId: params.entryId,
          admin: caller.admin,
          ...body,
          ...(body.startedAt ? { startedAt: isoDate(body.startedAt) } : {}),
          ...(body.endedAt ? { endedAt: isoDate(body.endedAt) } : {})
        })
      })
  }),
  operation({
    operationId: "deleteTaskTimeEntry",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/time-entries/{entryId}",
    summary: "Delete a time entry (its owner or an admin)",
    auth: "both",
    scopes: write,
    params: EntryParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "deleteTimeEntry", caller.userId, { entryId: params.entryId, admin: caller.admin })
      })
  }),
  operation({
    operationId: "startTaskTimer",
    method: "POST",
    path: "/v1/tasks/{taskId}/timer/start",
    summary: "Start your timer on a task (a timer running elsewhere is stopped)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))) }),
    responses: { 201: { description: "Running", schema: TimeEntry } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "startTimer", body)
  }),
  operation({
    operationId: "stopTaskTimer",
    method: "POST",
    path: "/v1/tasks/{taskId}/timer/stop",
    summary: "Stop your timer on a task",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 200: { description: "Stopped", schema: TimeEntry }, 409: { description: "No timer running here" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "stopTimer", {})
  }),
  operation({
    operationId: "getTaskTimeSummary",
    method: "GET",
    path: "/v1/tasks/{taskId}/time-summary",
    summary: "Tracked time against the estimate, per person",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: {
      200: {
        description: "Summary",
        schema: Schema.Struct({
          estimateMinutes: Schema.NullOr(Schema.Number),
          trackedMinutes: Schema.Number,
          remainingMinutes: Schema.NullOr(Schema.Number),
          running: Schema.Boolean,
          byUser: Schema.Array(Schema.Struct({ userId: Id, minutes: Schema.Number }))
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { task } = yield* onTask(context, params.taskId)
        const rows = yield* orDieSql(TimeReads.taskTotals(params.taskId))
        const tracked = rows.reduce((sum, r) => sum + r.minutes, 0)
        return {
          estimateMinutes: task.timeEstimateMinutes,
          trackedMinutes: tracked,
          remainingMinutes: task.timeEstimateMinutes === null ? null : Math.max(0, task.timeEstimateMinutes - tracked),
          running: rows.some((r) => r.running),
          byUser: rows.map(({ userId, minutes }) => ({ userId, minutes }))
        }
      })
  }),
  operation({
    operationId: "getRunningTimer",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/timer",
    summary: "The caller's running timer in the workspace, if any",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "The running entry, or null", schema: Schema.Struct({ entry: Schema.NullOr(TimeEntry) }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const running = yield* orDieSql(TimeReads.runningEntry(params.workspaceId, caller.userId))
        return { entry: running ?? null }
      })
  }),
  operation({
    operationId: "listWorkspaceTimeEntries",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/time-entries",
    summary: "A timesheet: time entries of the workspace in a period, optionally of one member",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      from: Schema.optionalKey(DateTime),
      to: Schema.optionalKey(DateTime),
      userId: Schema.optionalKey(Id),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: {
      200: {
        description: "Entries and their total",
        schema: Schema.Struct({ items: Schema.Array(TimeEntry), totalMinutes: Schema.Number })
      }
    },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const page = pageOf(q)
        const rows = yield* orDieSql(
          TimeReads.timesheet(
            params.workspaceId,
            caller.viewer,
            { from: q.from ? (isoDate(q.from) ?? null) : null, to: q.to ? (isoDate(q.to) ?? null) : null, of: q.userId ?? null },
            page
          )
        )
        return { items: rows, totalMinutes: rows.reduce((sum, r) => sum + (r.durationMinutes ?? 0), 0) }
      })
  })
]
