/**
 * Dashboard aggregates, computed from the live rows on every read (never
 * stored): task counts by a dimension, distributions, workload, throughput
 * and cycle time (from the status history), overdue work, the relationship
 * graph and voting results. Each runs over a scope — the workspace or one
 * space, folder or list, optionally one sprint and task criteria — and sees
 * only what the viewer may see (private spaces of others never count).
 * Days are UTC days.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { userRefJson } from "../identity/IdentityQueries.ts"
import { userRefs } from "./Members.ts"
import { effectiveStatusJoin, statusesOfLists } from "./Statuses.ts"
import type { Viewer } from "./StructureReads.ts"
import { filterOfCriteria, type TaskCriteria } from "./TaskCriteria.ts"
import { filterSql, hydrate, taskColumns, taskFrom, type TaskRow } from "./TaskReads.ts"
import type { ViewScopeType } from "./ViewRecords.ts"
import { type StatusType, Task, UserRef } from "./WorkRecords.ts"

export interface AggregateScope {
  readonly workspaceId: string
  readonly viewer: Viewer
  readonly scopeType: ViewScopeType
  readonly scopeId: string
  readonly sprintId?: string
  readonly criteria?: TaskCriteria
}

const DAY = 86_400_000
const round = (n: number) => Math.round(n * 100) / 100

/** The WHERE clause of a scope over `taskFrom` (t, l, s); history-based aggregates include archived tasks. */
const scopeWhere = (scope: AggregateScope, params: Array<unknown>, archived: "exclude" | "include" = "exclude") => {
  let where = filterSql({ ...filterOfCriteria(scope.criteria ?? {}, scope), archived }, params)
  if (scope.sprintId !== undefined) {
    params.push(scope.sprintId)
    where += ` AND EXISTS (SELECT 1 FROM pm_sprint_tasks st WHERE st.task_id = t.id AND st.sprint_id = $${params.length} AND st.removed_at IS NULL)`
  }
  return where
}

// ---------------------------------------------------------------------------
// Counts by a dimension

export const CountDimension = Schema.Literals(["status", "status_type", "assignee", "priority", "tag", "list", "space", "creator"])
export type CountDimension = typeof CountDimension.Type

export const TaskCountsBy = Schema.Struct({
  groupBy: CountDimension,
  total: Schema.Number,
  items: Schema.Array(
    Schema.Struct({
      key: Schema.String,
      label: Schema.String,
      count: Schema.Number,
      unfinished: Schema.Number,
      estimateMinutes: Schema.Number
    })
  )
}).annotate({
  identifier: "TaskCountsBy",
  description: "A task with several assignees or tags counts once in each of their groups (and once in total)"
})
export type TaskCountsBy = typeof TaskCountsBy.Type

const typeOrder: Record<string, number> = { open: 0, active: 1, done: 2, closed: 3 }
const priorityOrder: Record<string, number> = { urgent: 0, high: 1, normal: 2, low: 3, none: 4 }

/** Counts by a dimension: one statement (groups, their statuses or users, and the total). */
export const countsBy = (scope: AggregateScope, groupBy: CountDimension) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = scopeWhere(scope, params)
    type Raw = {
      key: string | null
      label: string | null
      count: number
      unfinished: number
      minutes: number
      total: number
      statusName?: string | null
      statusType?: StatusType | null
      user?: UserRef | null
    }
    const measures = `count(*)::int AS count, count(*) FILTER (WHERE t.closed_at IS NULL)::int AS unfinished, COALESCE(sum(t.time_estimate_minutes), 0)::int AS minutes`
    // A task with several assignees or tags is in several groups: the total counts it once.
    const total = `(SELECT count(*)::int ${taskFrom} WHERE ${where}) AS total`
    const grouped = (select: string, join: string, group: string) =>
      query<Raw>(`SELECT ${select}, ${measures}, ${total} ${taskFrom} ${join} WHERE ${where} GROUP BY ${group}`, params)
    let items: Array<{ key: string; label: string; count: number; unfinished: number; estimateMinutes: number; rank: number | string }>
    const plain = (rows: ReadonlyArray<Raw>, rank: (r: Raw) => number | string, fallback: string) =>
      rows.map((r) => ({
        key: r.key ?? "none",
        label: r.label ?? fallback,
        count: r.count,
        unfinished: r.unfinished,
        estimateMinutes: r.minutes,
        rank: rank(r)
      }))
    let rows: ReadonlyArray<Raw>
    switch (groupBy) {
      case "status":
      case "status_type": {
        // Grouped by list and name first, so each group looks its status up once.
        rows = yield* query<Raw>(
          `WITH g AS (SELECT t.list_id, lower(t.status) AS key, min(t.status) AS label, ${measures} ${taskFrom} WHERE ${where} GROUP BY t.list_id, lower(t.status))
           SELECT g.key, g.label, g.count, g.unfinished, g.minutes, (SELECT COALESCE(sum(a.count), 0)::int FROM g a) AS total,
                  st.name AS "statusName", st.type AS "statusType"
             FROM g JOIN pm_lists l ON l.id = g.list_id ${effectiveStatusJoin("l", "g.key")}`,
          params
        )
        const merged = new Map<
          string,
          { key: string; label: string; count: number; unfinished: number; estimateMinutes: number; rank: number | string }
        >()
        for (const row of rows) {
          const type = row.statusType ?? "open"
          const key = groupBy === "status" ? row.key! : type
          const entry = merged.get(key) ?? {
            key,
            label: groupBy === "status" ? (row.statusName ?? row.label!) : type,
            count: 0,
            unfinished: 0,
            estimateMinutes: 0,
            rank: typeOrder[type]!
          }
          entry.count += row.count
          entry.unfinished += row.unfinished
          entry.estimateMinutes += row.minutes
          merged.set(key, entry)
        }
        items = [...merged.values()]
        break
      }
      case "priority":
        rows = yield* grouped(`t.priority AS key, t.priority AS label`, "", "t.priority")
        items = plain(rows, (r) => priorityOrder[r.key ?? "none"]!, "No priority")
        break
      case "list":
        rows = yield* grouped(`t.list_id AS key, min(l.name) AS label`, "", "t.list_id")
        items = plain(rows, (r) => (r.label ?? "").toLowerCase(), "")
        break
      case "space":
        rows = yield* grouped(`t.space_id AS key, min(s.name) AS label`, "", "t.space_id")
        items = plain(rows, (r) => (r.label ?? "").toLowerCase(), "")
        break
      case "tag":
        rows = yield* grouped(
          `lower(g.name) AS key, min(g.name) AS label`,
          "LEFT JOIN pm_task_tags tt ON tt.task_id = t.id LEFT JOIN pm_tags g ON g.id = tt.tag_id",
          "lower(g.name)"
        )
        items = plain(rows, (r) => (r.key === null ? "\uffff" : r.key), "No tag")
        break
      case "assignee":
      case "creator": {
        const column = groupBy === "assignee" ? "a.user_id" : "t.created_by"
        rows = yield* grouped(
          `${column} AS key, NULL AS label, CASE WHEN ${column} IS NULL THEN NULL ELSE ${userRefJson(column)} END AS "user"`,
          groupBy === "assignee" ? "LEFT JOIN pm_task_assignees a ON a.task_id = t.id" : "",
          column
        )
        items = rows.map((r) => {
          const label = r.key === null ? "Unassigned" : r.user?.email || r.user?.name || r.key
          return {
            key: r.key ?? "unassigned",
            label,
            count: r.count,
            unfinished: r.unfinished,
            estimateMinutes: r.minutes,
            rank: r.key === null ? "\uffff" : label.toLowerCase()
          }
        })
        break
      }
    }
    items.sort(
      (a, b) =>
        (typeof a.rank === "number" && typeof b.rank === "number" ? a.rank - b.rank : String(a.rank).localeCompare(String(b.rank))) ||
        b.count - a.count
    )
    return { groupBy, total: rows[0]?.total ?? 0, items: items.map(({ rank: _r, ...item }) => item) } satisfies TaskCountsBy
  })

// ---------------------------------------------------------------------------
// Distributions

export const DistributionField = Schema.Literals(["due_date", "time_estimate", "age"]).annotate({
  description:
    "due_date: unfinished tasks by when they are due; time_estimate: tasks by estimate; age: unfinished tasks by how long ago they were created"
})
export type DistributionField = typeof DistributionField.Type

export const Distribution = Schema.Struct({
  field: DistributionField,
  total: Schema.Number,
  buckets: Schema.Array(Schema.Struct({ key: Schema.String, label: Schema.String, count: Schema.Number })),
  summary: Schema.Record(Schema.String, Schema.Number)
}).annotate({ identifier: "TaskDistribution" })
export type Distribution = typeof Distribution.Type

const bucketSets: Record<DistributionField, ReadonlyArray<{ key: string; label: string; sql: string }>> = {
  due_date: [
    { key: "overdue", label: "Overdue", sql: "t.due_date < now()" },
    { key: "today", label: "Today", sql: "t.due_date < date_trunc('day', now()) + interval '1 day'" },
    { key: "tomorrow", label: "Tomorrow", sql: "t.due_date < date_trunc('day', now()) + interval '2 days'" },
    { key: "this_week", label: "Next 7 days", sql: "t.due_date < date_trunc('day', now()) + interval '7 days'" },
    { key: "later", label: "Later", sql: "t.due_date IS NOT NULL" },
    { key: "none", label: "No due date", sql: "TRUE" }
  ],
  time_estimate: [
    { key: "none", label: "No estimate", sql: "t.time_estimate_minutes IS NULL" },
    { key: "up_to_30m", label: "Up to 30 minutes", sql: "t.time_estimate_minutes <= 30" },
    { key: "up_to_1h", label: "Up to 1 hour", sql: "t.time_estimate_minutes <= 60" },
    { key: "up_to_2h", label: "Up to 2 hours", sql: "t.time_estimate_minutes <= 120" },
    { key: "up_to_4h", label: "Up to 4 hours", sql: "t.time_estimate_minutes <= 240" },
    { key: "up_to_1d", label: "Up to 8 hours", sql: "t.time_estimate_minutes <= 480" },
    { key: "up_to_3d", label: "Up to 24 hours", sql: "t.time_estimate_minutes <= 1440" },
    { key: "more", label: "More than 24 hours", sql: "TRUE" }
  ],
  age: [
    { key: "under_1d", label: "Less than a day", sql: "t.created_at > now() - interval '1 day'" },
    { key: "under_1w", label: "Less than a week", sql: "t.created_at > now() - interval '7 days'" },
    { key: "under_1m", label: "Less than 30 days", sql: "t.created_at > now() - interval '30 days'" },
    { key: "under_3m", label: "Less than 90 days", sql: "t.created_at > now() - interval '90 days'" },
    { key: "older", label: "90 days or more", sql: "TRUE" }
  ]
}

export const distribution = (scope: AggregateScope, field: DistributionField) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let where = scopeWhere(scope, params)
    if (field !== "time_estimate") where += " AND t.closed_at IS NULL"
    const buckets = bucketSets[field]
    const bucketOf = `CASE ${buckets.map((b, i) => `WHEN ${b.sql} THEN ${i}`).join(" ")} END`
    const rows = yield* query<{ bucket: number; count: number; minutes: number; estimated: number }>(
      `SELECT ${bucketOf} AS bucket, count(*)::int AS count, COALESCE(sum(t.time_estimate_minutes), 0)::int AS minutes,
              count(t.time_estimate_minutes)::int AS estimated
         ${taskFrom} WHERE ${where} GROUP BY 1`,
      params
    )
    const count = (i: number) => rows.find((r) => Number(r.bucket) === i)?.count ?? 0
    const total = rows.reduce((sum, r) => sum + r.count, 0)
    const minutes = rows.reduce((sum, r) => sum + r.minutes, 0)
    const estimated = rows.reduce((sum, r) => sum + r.estimated, 0)
    const summary: Record<string, number> =
      field === "time_estimate"
        ? { totalMinutes: minutes, estimatedTasks: estimated, averageMinutes: estimated === 0 ? 0 : round(minutes / estimated) }
        : field === "due_date"
          ? { withDueDate: total - count(buckets.length - 1), overdue: count(0) }
          : { unfinished: total }
    return {
      field,
      total,
      buckets: buckets.map((b, i) => ({ key: b.key, label: b.label, count: count(i) })),
      summary
    } satisfies Distribution
  })

// ---------------------------------------------------------------------------
// Workload

export const Workload = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      user: Schema.NullOr(UserRef).annotate({ description: "null: the unassigned work" }),
      openTasks: Schema.Number,
      overdueTasks: Schema.Number,
      dueThisWeek: Schema.Number,
      estimateMinutes: Schema.Number,
      byPriority: Schema.Struct({
        urgent: Schema.Number,
        high: Schema.Number,
        normal: Schema.Number,
        low: Schema.Number,
        none: Schema.Number
      }),
      utilization: Schema.NullOr(Schema.Number).annotate({ description: "estimateMinutes in percent of the capacity asked for" })
    })
  )
}).annotate({
  identifier: "Workload",
  description: "Unfinished work per assignee, heaviest first; a task with several assignees counts for each"
})
export type Workload = typeof Workload.Type

export const workload = (scope: AggregateScope, capacityMinutes: number | undefined) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = scopeWhere(scope, params)
    const rows = yield* query<{
      userId: string | null
      open: number
      overdue: number
      week: number
      minutes: number
      urgent: number
      high: number
      normal: number
      low: number
      none: number
    }>(
      `SELECT a.user_id AS "userId", count(*)::int AS open,
              count(*) FILTER (WHERE t.due_date < now())::int AS overdue,
              count(*) FILTER (WHERE t.due_date >= now() AND t.due_date < now() + interval '7 days')::int AS week,
              COALESCE(sum(t.time_estimate_minutes), 0)::int AS minutes,
              count(*) FILTER (WHERE t.priority = 'urgent')::int AS urgent, count(*) FILTER (WHERE t.priority = 'high')::int AS high,
              count(*) FILTER (WHERE t.priority = 'normal')::int AS normal, count(*) FILTER (WHERE t.priority = 'low')::int AS low,
              count(*) FILTER (WHERE t.priority IS NULL)::int AS none
         ${taskFrom} LEFT JOIN pm_task_assignees a ON a.task_id = t.id
        WHERE ${where} AND t.closed_at IS NULL GROUP BY a.user_id`,
      params
    )
    const users = yield* userRefs(rows.map((r) => r.userId).filter((id): id is string => id !== null))
    const items = rows.map((r) => ({
      user: r.userId === null ? null : (users.get(r.userId) ?? { id: r.userId, email: "", name: "" }),
      openTasks: r.open,
      overdueTasks: r.overdue,
      dueThisWeek: r.week,
      estimateMinutes: r.minutes,
      byPriority: { urgent: r.urgent, high: r.high, normal: r.normal, low: r.low, none: r.none },
      utilization: capacityMinutes === undefined || r.userId === null ? null : round((r.minutes / capacityMinutes) * 100)
    }))
    items.sort(
      (a, b) => (a.user === null ? 1 : 0) - (b.user === null ? 1 : 0) || b.estimateMinutes - a.estimateMinutes || b.openTasks - a.openTasks
    )
    return { items } satisfies Workload
  })

// ---------------------------------------------------------------------------
// Throughput and cycle time (from the status history)

export const Throughput = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  days: Schema.Array(Schema.Struct({ date: Schema.String, created: Schema.Number, closed: Schema.Number })),
  totals: Schema.Struct({
    created: Schema.Number,
    closed: Schema.Number,
    net: Schema.Number.annotate({ description: "created − closed: how the open work grew" })
  })
}).annotate({
  identifier: "Throughput",
  description: "Tasks created and tasks finished per UTC day (a task finished, reopened and finished again counts each time)"
})
export type Throughput = typeof Throughput.Type

export interface DayRange {
  /** First day, YYYY-MM-DD. */
  readonly from: string
  /** Last day (included), YYYY-MM-DD. */
  readonly to: string
}

/** The last `days` UTC days up to today. */
export const lastDays = (days: number, now = Date.now()): DayRange => {
  const today = Math.floor(now / DAY) * DAY
  return { from: new Date(today - (days - 1) * DAY).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) }
}

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY).toISOString().slice(0, 10)

export const throughput = (scope: AggregateScope, range: DayRange) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = scopeWhere(scope, params, "include")
    params.push(`${range.from}T00:00:00Z`, `${dayAfter(range.to)}T00:00:00Z`)
    const from = `$${params.length - 1}::timestamptz`
    const to = `$${params.length}::timestamptz`
    const created = yield* query<{ day: string; n: number }>(
      `SELECT to_char(t.created_at, 'YYYY-MM-DD') AS day, count(*)::int AS n ${taskFrom}
        WHERE ${where} AND t.created_at >= ${from} AND t.created_at < ${to} GROUP BY 1`,
      params
    )
    const closed = yield* query<{ day: string; n: number }>(
      `SELECT to_char(h.entered_at, 'YYYY-MM-DD') AS day, count(*)::int AS n
         FROM (SELECT task_id, entered_at, status_type, lag(status_type) OVER (PARTITION BY task_id ORDER BY entered_at, id) AS previous
                 FROM pm_task_status_history WHERE task_id IN (SELECT t.id ${taskFrom} WHERE ${where})) h
        WHERE h.status_type IN ('done', 'closed') AND (h.previous IS NULL OR h.previous NOT IN ('done', 'closed'))
          AND h.entered_at >= ${from} AND h.entered_at < ${to}
        GROUP BY 1`,
      params
    )
    const days: Array<{ date: string; created: number; closed: number }> = []
    for (let day = range.from; day <= range.to; day = dayAfter(day)) {
      days.push({ date: day, created: created.find((r) => r.day === day)?.n ?? 0, closed: closed.find((r) => r.day === day)?.n ?? 0 })
    }
    const totals = { created: days.reduce((s, d) => s + d.created, 0), closed: days.reduce((s, d) => s + d.closed, 0) }
    return { from: range.from, to: range.to, days, totals: { ...totals, net: totals.created - totals.closed } } satisfies Throughput
  })

const Stats = Schema.Struct({ average: Schema.Number, median: Schema.Number, p85: Schema.Number, min: Schema.Number, max: Schema.Number })

export const CycleTime = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  count: Schema.Number,
  cycleHours: Stats.annotate({ description: "From first entering an active status (else creation) to finishing" }),
  leadHours: Stats.annotate({ description: "From creation to finishing" }),
  items: Schema.Array(
    Schema.Struct({
      taskId: Id,
      shortId: Schema.String,
      name: Schema.String,
      createdAt: Timestamp,
      startedAt: Schema.NullOr(Timestamp),
      closedAt: Timestamp,
      cycleHours: Schema.Number,
      leadHours: Schema.Number
    })
  )
}).annotate({ identifier: "CycleTime", description: "Tasks finished in the range (still finished now), slowest first" })
export type CycleTime = typeof CycleTime.Type

const statsOf = (values: ReadonlyArray<number>) => {
  if (values.length === 0) return { average: 0, median: 0, p85: 0, min: 0, max: 0 }
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  const mid = sorted.length / 2
  return {
    average: round(sorted.reduce((s, v) => s + v, 0) / sorted.length),
    median: round(sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2),
    p85: round(at(0.85)),
    min: round(sorted[0]!),
    max: round(sorted[sorted.length - 1]!)
  }
}

export const cycleTime = (scope: AggregateScope, range: DayRange, limit: number) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = scopeWhere(scope, params, "include")
    params.push(`${range.from}T00:00:00Z`, `${dayAfter(range.to)}T00:00:00Z`)
    const rows = yield* query<{
      taskId: string
      shortId: string
      name: string
      createdAt: string
      startedAt: string | null
      closedAt: string
    }>(
      `SELECT t.id AS "taskId", t.short_id AS "shortId", t.name, t.created_at AS "createdAt", t.closed_at AS "closedAt",
              (SELECT min(h.entered_at) FROM pm_task_status_history h WHERE h.task_id = t.id AND h.status_type = 'active') AS "startedAt"
         ${taskFrom} WHERE ${where} AND t.closed_at >= $${params.length - 1}::timestamptz AND t.closed_at < $${params.length}::timestamptz`,
      params
    )
    const hours = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 3_600_000)
    const items = rows.map((r) => {
      const started = r.startedAt !== null && Date.parse(r.startedAt) <= Date.parse(r.closedAt) ? r.startedAt : null
      return {
        ...r,
        startedAt: started,
        cycleHours: round(hours(started ?? r.createdAt, r.closedAt)),
        leadHours: round(hours(r.createdAt, r.closedAt))
      }
    })
    items.sort((a, b) => b.cycleHours - a.cycleHours || a.taskId.localeCompare(b.taskId))
    return {
      from: range.from,
      to: range.to,
      count: items.length,
      cycleHours: statsOf(items.map((i) => i.cycleHours)),
      leadHours: statsOf(items.map((i) => i.leadHours)),
      items: items.slice(0, limit)
    } satisfies CycleTime
  })

// ---------------------------------------------------------------------------
// Overdue

export const Overdue = Schema.Struct({
  total: Schema.Number,
  byAssignee: Schema.Array(Schema.Struct({ user: Schema.NullOr(UserRef), count: Schema.Number })),
  items: Schema.Array(Schema.Struct({ daysOverdue: Schema.Number, task: Task }))
}).annotate({ identifier: "OverdueTasks", description: "Unfinished tasks past their due date, most overdue first" })
export type Overdue = typeof Overdue.Type

export const overdue = (scope: AggregateScope, limit: number, now = Date.now()) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = `${scopeWhere(scope, params)} AND t.due_date < now() AND t.closed_at IS NULL`
    const [{ total }] = (yield* query<{ total: number }>(`SELECT count(*)::int AS total ${taskFrom} WHERE ${where}`, params)) as Array<{
      total: number
    }>
    const rows = yield* query<TaskRow>(`SELECT ${taskColumns} ${taskFrom} WHERE ${where} ORDER BY t.due_date, t.id LIMIT ${limit}`, params)
    const perUser = yield* query<{ userId: string | null; n: number }>(
      `SELECT a.user_id AS "userId", count(*)::int AS n ${taskFrom} LEFT JOIN pm_task_assignees a ON a.task_id = t.id WHERE ${where} GROUP BY a.user_id ORDER BY 2 DESC`,
      params
    )
    const users = yield* userRefs(perUser.map((r) => r.userId).filter((id): id is string => id !== null))
    const tasks = yield* hydrate(rows)
    return {
      total,
      byAssignee: perUser.map((r) => ({
        user: r.userId === null ? null : (users.get(r.userId) ?? { id: r.userId, email: "", name: "" }),
        count: r.n
      })),
      items: tasks.map((task) => ({ daysOverdue: Math.max(0, Math.floor((now - Date.parse(task.dueDate!)) / DAY)), task }))
    } satisfies Overdue
  })

// ---------------------------------------------------------------------------
// Relationship graph

export const GraphRelationType = Schema.Literals(["blocks", "relates_to", "duplicates"])
export type GraphRelationType = typeof GraphRelationType.Type

export const RelationshipGraph = Schema.Struct({
  nodes: Schema.Array(
    Schema.Struct({
      id: Id,
      shortId: Schema.String,
      name: Schema.String,
      status: Schema.String,
      statusType: Schema.String,
      finished: Schema.Boolean,
      listId: Id,
      inScope: Schema.Boolean.annotate({ description: "False for a related task outside the scope" }),
      degree: Schema.Number
    })
  ),
  edges: Schema.Array(Schema.Struct({ id: Id, type: GraphRelationType, source: Id, target: Id })),
  stats: Schema.Struct({
    nodes: Schema.Number,
    edges: Schema.Number,
    byType: Schema.Struct({ blocks: Schema.Number, relates_to: Schema.Number, duplicates: Schema.Number }),
    blockedTasks: Schema.Number.annotate({ description: "Unfinished tasks with an unfinished blocker" }),
    longestBlockingChain: Schema.Array(Id).annotate({ description: "The longest chain of unfinished tasks each blocking the next" })
  })
}).annotate({ identifier: "RelationshipGraph" })
export type RelationshipGraph = typeof RelationshipGraph.Type

export const relationshipGraph = (scope: AggregateScope, types: ReadonlyArray<GraphRelationType>, maxEdges = 2000) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = scopeWhere(scope, params)
    params.push(types)
    const edges = yield* query<{ id: string; type: GraphRelationType; source: string; target: string }>(
      `SELECT r.id, r.type, r.source_task_id AS source, r.target_task_id AS target FROM pm_relationships r
        WHERE r.type = ANY($${params.length}::text[])
          AND (r.source_task_id IN (SELECT t.id ${taskFrom} WHERE ${where}) OR r.target_task_id IN (SELECT t.id ${taskFrom} WHERE ${where}))
        ORDER BY r.created_at, r.id LIMIT ${maxEdges}`,
      params
    )
    const endpointIds = [...new Set(edges.flatMap((e) => [e.source, e.target]))]
    // Endpoints outside the scope show too, if the viewer may see them.
    const visibleParams: Array<unknown> = []
    const visibleWhere = filterSql({ workspaceId: scope.workspaceId, viewer: scope.viewer, archived: "include" }, visibleParams)
    visibleParams.push(endpointIds)
    const nodes =
      endpointIds.length === 0
        ? []
        : yield* query<{ id: string; shortId: string; name: string; status: string; listId: string; finished: boolean }>(
            `SELECT t.id, t.short_id AS "shortId", t.name, t.status, t.list_id AS "listId", t.closed_at IS NOT NULL AS finished
         ${taskFrom} WHERE ${visibleWhere} AND t.id = ANY($${visibleParams.length}::text[])`,
            visibleParams
          )
    const inScopeParams: Array<unknown> = []
    const inScopeWhere = scopeWhere(scope, inScopeParams)
    inScopeParams.push(endpointIds)
    const inScope = new Set(
      endpointIds.length === 0
        ? []
        : (yield* query<{ id: string }>(
            `SELECT t.id ${taskFrom} WHERE ${inScopeWhere} AND t.id = ANY($${inScopeParams.length}::text[])`,
            inScopeParams
          )).map((r) => r.id)
    )
    const visible = new Map(nodes.map((n) => [n.id, n] as const))
    const kept = edges.filter((e) => visible.has(e.source) && visible.has(e.target))
    const statuses = yield* statusesOfLists(nodes.map((n) => n.listId))
    const degree = new Map<string, number>()
    for (const e of kept) for (const id of [e.source, e.target]) degree.set(id, (degree.get(id) ?? 0) + 1)
    // Longest chain of unfinished blocking (blocks are acyclic: the workspace actor refuses cycles).
    const next = new Map<string, Array<string>>()
    for (const e of kept) {
      if (e.type !== "blocks" || visible.get(e.source)!.finished || visible.get(e.target)!.finished) continue
      next.set(e.source, [...(next.get(e.source) ?? []), e.target])
    }
    const memo = new Map<string, Array<string>>()
    const chainFrom = (id: string, seen: Set<string>): Array<string> => {
      const known = memo.get(id)
      if (known) return known
      let best: Array<string> = []
      for (const target of next.get(id) ?? []) {
        if (seen.has(target)) continue
        seen.add(target)
        const candidate = chainFrom(target, seen)
        seen.delete(target)
        if (candidate.length > best.length) best = candidate
      }
      const chain = [id, ...best]
      memo.set(id, chain)
      return chain
    }
    let longest: Array<string> = []
    for (const id of next.keys()) {
      const chain = chainFrom(id, new Set([id]))
      if (chain.length > longest.length) longest = chain
    }
    const blocked = new Set(
      kept.filter((e) => e.type === "blocks" && !visible.get(e.source)!.finished && !visible.get(e.target)!.finished).map((e) => e.target)
    )
    const count = (type: GraphRelationType) => kept.filter((e) => e.type === type).length
    return {
      nodes: nodes
        .map((n) => ({
          ...n,
          statusType:
            statuses.get(n.listId)?.find((s) => s.name.toLowerCase() === n.status.toLowerCase())?.type ?? (n.finished ? "done" : "open"),
          inScope: inScope.has(n.id),
          degree: degree.get(n.id) ?? 0
        }))
        .sort((a, b) => b.degree - a.degree || a.shortId.localeCompare(b.shortId)),
      edges: kept,
      stats: {
        nodes: nodes.length,
        edges: kept.length,
        byType: { blocks: count("blocks"), relates_to: count("relates_to"), duplicates: count("duplicates") },
        blockedTasks: blocked.size,
        longestBlockingChain: longest.length > 1 ? longest : []
      }
    } satisfies RelationshipGraph
  })

// ---------------------------------------------------------------------------
// Voting results

export const VotingResults = Schema.Struct({
  totalVotes: Schema.Number,
  voters: Schema.Number.annotate({ description: "Distinct members who voted" }),
  items: Schema.Array(
    Schema.Struct({
      taskId: Id,
      shortId: Schema.String,
      name: Schema.String,
      status: Schema.String,
      finished: Schema.Boolean,
      listId: Id,
      votes: Schema.Number,
      votedByMe: Schema.Boolean,
      share: Schema.Number.annotate({ description: "Of all votes in the scope, in percent" }),
      voters: Schema.Array(UserRef)
    })
  ),
  reactions: Schema.Array(Schema.Struct({ emoji: Schema.String, count: Schema.Number })).annotate({
    description: "Reactions on the scope's task comments, by emoji"
  })
}).annotate({ identifier: "VotingResults", description: "Tasks ranked by votes, and the comment reactions of the scope" })
export type VotingResults = typeof VotingResults.Type

export const votingResults = (scope: AggregateScope, limit: number, includeFinished: boolean) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let where = scopeWhere(scope, params)
    if (!includeFinished) where += " AND t.closed_at IS NULL"
    // Reactions count on every task of the scope, finished or not.
    const reactionWhere = scopeWhere(scope, params)
    params.push(scope.viewer.userId)
    const me = `$${params.length}`
    type Item = {
      taskId: string
      shortId: string
      name: string
      status: string
      finished: boolean
      listId: string
      votes: number
      votedByMe: boolean
      voters: Array<UserRef>
    }
    const [result] = yield* query<{
      votes: number
      voters: number
      items: Array<Item>
      reactions: Array<{ emoji: string; count: number }>
    }>(
      `SELECT totals.votes, totals.voters,
              COALESCE((SELECT json_agg(json_build_object('taskId', x.id, 'shortId', x.short_id, 'name', x.name, 'status', x.status, 'finished', x.finished,
                                                          'listId', x.list_id, 'votes', x.votes, 'votedByMe', x.mine, 'voters', x.voters) ORDER BY x.rank)
                          FROM (SELECT t.id, t.short_id, t.name, t.status, t.closed_at IS NOT NULL AS finished, t.list_id,
                                       count(*)::int AS votes, bool_or(v.user_id = ${me}) AS mine,
                                       json_agg(${userRefJson("v.user_id")} ORDER BY v.created_at, v.user_id) AS voters,
                                       row_number() OVER (ORDER BY count(*) DESC, min(v.created_at), t.id) AS rank
                                  ${taskFrom} JOIN pm_task_votes v ON v.task_id = t.id
                                 WHERE ${where} GROUP BY t.id ORDER BY rank LIMIT ${limit}) x), '[]') AS items,
              COALESCE((SELECT json_agg(json_build_object('emoji', r.emoji, 'count', r.count) ORDER BY r.count DESC, r.emoji)
                          FROM (SELECT r.emoji, count(*)::int AS count FROM pm_comment_reactions r JOIN pm_comments c ON c.id = r.comment_id AND c.deleted_at IS NULL
                                 WHERE c.task_id IN (SELECT t.id ${taskFrom} WHERE ${reactionWhere}) GROUP BY r.emoji) r), '[]') AS reactions
         FROM (SELECT count(*)::int AS votes, count(DISTINCT v.user_id)::int AS voters
                 FROM pm_task_votes v WHERE v.task_id IN (SELECT t.id ${taskFrom} WHERE ${where})) totals`,
      params
    )
    const totalVotes = result!.votes
    return {
      totalVotes,
      voters: result!.voters,
      items: result!.items.map((item) => ({ ...item, share: totalVotes === 0 ? 0 : round((item.votes / totalVotes) * 100) })),
      reactions: result!.reactions
    } satisfies VotingResults
  })
