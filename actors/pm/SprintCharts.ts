/**
 * Sprint charts computed from the record, never stored: the burndown replays
 * the sprint's membership rows (when each task entered and left it) and the
 * tasks' status history (when each became finished, or unfinished again);
 * velocity reads the reports of completed sprints. Days are UTC days.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { SprintStatus, sprintRow, type SprintSummary } from "./SprintRecords.ts"
import { isFinished } from "./WorkRecords.ts"

export const BurndownUnit = Schema.Literals(["tasks", "minutes"]).annotate({
  description: "Count tasks (default) or sum their time estimates"
})
export type BurndownUnit = typeof BurndownUnit.Type

const Amount = Schema.NullOr(Schema.Number).annotate({ description: "null for days still ahead" })

export const Burndown = Schema.Struct({
  sprintId: Id,
  name: Schema.String,
  status: SprintStatus,
  unit: BurndownUnit,
  startDate: Timestamp,
  endDate: Timestamp,
  committed: Schema.Number.annotate({ description: "Scope when the sprint started (the ideal line's start)" }),
  days: Schema.Array(
    Schema.Struct({
      date: Schema.String.annotate({ description: "YYYY-MM-DD (UTC)" }),
      scope: Amount,
      completed: Amount,
      remaining: Amount,
      ideal: Schema.Number
    })
  ),
  current: Schema.Struct({ scope: Schema.Number, completed: Schema.Number, remaining: Schema.Number })
}).annotate({ identifier: "SprintBurndown" })
export type Burndown = typeof Burndown.Type

export const Velocity = Schema.Struct({
  sprints: Schema.Array(
    Schema.Struct({
      sprintId: Id,
      name: Schema.String,
      sprintGroupId: Schema.NullOr(Id),
      startDate: Timestamp,
      endDate: Timestamp,
      completedAt: Timestamp,
      committedTasks: Schema.Number,
      completedTasks: Schema.Number,
      committedMinutes: Schema.Number,
      completedMinutes: Schema.Number,
      completionRate: Schema.Number.annotate({ description: "Completed of committed tasks, in percent" })
    })
  ),
  average: Schema.Struct({ completedTasks: Schema.Number, completedMinutes: Schema.Number, completionRate: Schema.Number })
}).annotate({ identifier: "SprintVelocity" })
export type Velocity = typeof Velocity.Type

const DAY = 86_400_000
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY
const round = (n: number) => Math.round(n * 100) / 100

export const burndown = (sprintId: string, unit: BurndownUnit = "tasks", now: number = Date.now()) =>
  Effect.gen(function* () {
    const sprint = yield* sprintRow(sprintId)
    const rows = yield* query<{
      taskId: string
      addedAt: string
      removedAt: string | null
      minutes: number | null
      closedAt: string | null
    }>(
      `SELECT st.task_id AS "taskId", st.added_at AS "addedAt", st.removed_at AS "removedAt", t.time_estimate_minutes AS minutes, t.closed_at AS "closedAt"
         FROM pm_sprint_tasks st JOIN pm_tasks t ON t.id = st.task_id AND t.deleted_at IS NULL AND t.space_id = $2
        WHERE st.sprint_id = $1`,
      [sprintId, sprint.spaceId]
    )
    const history =
      rows.length === 0
        ? []
        : yield* query<{ taskId: string; type: string; at: string }>(
            `SELECT task_id AS "taskId", status_type AS type, entered_at AS at FROM pm_task_status_history
        WHERE task_id = ANY($1::text[]) ORDER BY entered_at, id`,
            [[...new Set(rows.map((r) => r.taskId))]]
          )
    const historyOf = new Map<string, Array<{ finished: boolean; at: number }>>()
    for (const h of history) {
      const list = historyOf.get(h.taskId) ?? []
      list.push({ finished: isFinished(h.type), at: Date.parse(h.at) })
      historyOf.set(h.taskId, list)
    }
    const finishedAt = (row: (typeof rows)[number], cut: number) => {
      let state: boolean | undefined
      for (const entry of historyOf.get(row.taskId) ?? []) {
        if (entry.at > cut) break
        state = entry.finished
      }
      return state ?? (row.closedAt !== null && Date.parse(row.closedAt) <= cut)
    }
    const weight = (row: (typeof rows)[number]) => (unit === "tasks" ? 1 : (row.minutes ?? 0))
    const horizon = Math.min(now, sprint.completedAt ? Date.parse(sprint.completedAt) : Infinity)
    const measure = (cut: number) => {
      let scope = 0
      let completed = 0
      for (const row of rows) {
        if (Date.parse(row.addedAt) > cut || (row.removedAt !== null && Date.parse(row.removedAt) <= cut)) continue
        scope += weight(row)
        if (finishedAt(row, cut)) completed += weight(row)
      }
      return { scope, completed, remaining: scope - completed }
    }
    const first = dayStart(Date.parse(sprint.startDate))
    const lastMs = Math.max(Date.parse(sprint.endDate) - 1, sprint.completedAt ? Date.parse(sprint.completedAt) : 0)
    const last = Math.max(first, dayStart(lastMs))
    const dayCount = Math.round((last - first) / DAY) + 1
    const startCut = sprint.startedAt ? Date.parse(sprint.startedAt) : Math.min(horizon, first + DAY)
    const committed =
      sprint.status === "planned"
        ? measure(horizon).scope
        : unit === "tasks"
          ? (sprint.committedTasks ?? measure(startCut).scope)
          : (sprint.committedMinutes ?? measure(startCut).scope)
    const days = Array.from({ length: dayCount }, (_, i) => {
      const start = first + i * DAY
      const ideal = round(dayCount === 1 ? 0 : committed * (1 - i / (dayCount - 1)))
      const date = new Date(start).toISOString().slice(0, 10)
      if (start > horizon || sprint.status === "planned") return { date, scope: null, completed: null, remaining: null, ideal }
      return { date, ...measure(Math.min(start + DAY, horizon)), ideal }
    })
    return {
      sprintId,
      name: sprint.name,
      status: sprint.status,
      unit,
      startDate: sprint.startDate,
      endDate: sprint.endDate,
      committed,
      days,
      current: measure(horizon)
    } satisfies Burndown
  })

/** Completed sprints of a space (or one of its groups), oldest of the last `limit` first, with averages. */
export const velocity = (spaceId: string, sprintGroupId: string | undefined, limit: number) =>
  Effect.gen(function* () {
    const rows = yield* query<{
      id: string
      name: string
      groupId: string | null
      startDate: string
      endDate: string
      completedAt: string
      summary: SprintSummary
    }>(
      `SELECT id, name, group_id AS "groupId", start_date AS "startDate", end_date AS "endDate", completed_at AS "completedAt", summary
         FROM pm_sprints WHERE space_id = $1 AND status = 'completed' AND ($2::text IS NULL OR group_id = $2)
        ORDER BY completed_at DESC, id DESC LIMIT ${limit}`,
      [spaceId, sprintGroupId ?? null]
    )
    const sprints = [...rows].reverse().map((r) => ({
      sprintId: r.id,
      name: r.name,
      sprintGroupId: r.groupId,
      startDate: r.startDate,
      endDate: r.endDate,
      completedAt: r.completedAt,
      committedTasks: r.summary.committedTasks,
      completedTasks: r.summary.completedTasks,
      committedMinutes: r.summary.committedMinutes,
      completedMinutes: r.summary.completedMinutes,
      completionRate: r.summary.committedTasks === 0 ? 0 : round((r.summary.completedTasks / r.summary.committedTasks) * 100)
    }))
    const mean = (pick: (s: (typeof sprints)[number]) => number) =>
      sprints.length === 0 ? 0 : round(sprints.reduce((sum, s) => sum + pick(s), 0) / sprints.length)
    return {
      sprints,
      average: {
        completedTasks: mean((s) => s.completedTasks),
        completedMinutes: mean((s) => s.completedMinutes),
        completionRate: mean((s) => s.completionRate)
      }
    } satisfies Velocity
  })
