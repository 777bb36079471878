/**
 * Applying a view: the tasks of its scope that meet its criteria, sorted by
 * its sort keys (position breaks ties) and grouped by its grouping. A task
 * with several assignees, tags or labels shows in each of their groups, as
 * boards do. At most `LOADED` matching tasks (by position) are sorted and
 * grouped; the answer says when there were more.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { userRefs } from "./Members.ts"
import { statusesOfLists } from "./Statuses.ts"
import type { Viewer } from "./StructureReads.ts"
import { filterOfCriteria } from "./TaskCriteria.ts"
import { filterSql, hydrate, taskColumns, taskFrom, type TaskRow } from "./TaskReads.ts"
import type { View, ViewSort } from "./ViewRecords.ts"
import { priorityRank, type Task } from "./WorkRecords.ts"

export const LOADED = 1000

export interface TaskGroup {
  readonly key: string
  readonly label: string
  readonly count: number
  readonly collapsed: boolean
  readonly tasks: ReadonlyArray<Task>
}

export interface AppliedView {
  readonly total: number
  readonly truncated: boolean
  readonly tasks: ReadonlyArray<Task>
  readonly groups: ReadonlyArray<TaskGroup> | null
}

const statusRank: Record<string, number> = { open: 0, active: 1, done: 2, closed: 3 }
const DAY = 86_400_000

/** Due-date buckets (UTC days): overdue, today, tomorrow, this week (next 7 days), later, none. */
export const dueBucket = (task: Pick<Task, "dueDate" | "closedAt">, now = Date.now()): string => {
  if (task.dueDate === null) return "none"
  const due = Date.parse(task.dueDate)
  const today = Math.floor(now / DAY) * DAY
  if (due < now && task.closedAt === null) return "overdue"
  if (due < today + DAY) return "today"
  if (due < today + 2 * DAY) return "tomorrow"
  if (due < today + 7 * DAY) return "this_week"
  return "later"
}
export const dueBuckets = ["overdue", "today", "tomorrow", "this_week", "later", "none"] as const
const dueLabels: Record<string, string> = {
  overdue: "Overdue",
  today: "Today",
  tomorrow: "Tomorrow",
  this_week: "Next 7 days",
  later: "Later",
  none: "No due date"
}

const fieldValue = (task: Task, fieldId: string) => task.customFields.find((f) => f.fieldId === fieldId)?.value

/** A comparable value (null sorts last either way). */
const sortValue = (task: Task, field: string, votes: ReadonlyMap<string, number>): number | string | null => {
  if (field.startsWith("cf:")) {
    const value = fieldValue(task, field.slice(3))
    if (value === undefined || value === null) return null
    if (typeof value === "number") return value
    if (typeof value === "boolean") return value ? 1 : 0
    if (typeof value === "object" && "name" in (value as object)) return String((value as { name: string }).name).toLowerCase()
    if (typeof value === "string")
      return /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : value.toLowerCase()
    return JSON.stringify(value)
  }
  const time = (value: string | null) => (value === null ? null : Date.parse(value))
  switch (field) {
    case "name":
      return task.name.toLowerCase()
    case "shortId":
      return Number(task.shortId.split("-")[1] ?? 0)
    case "status":
      return statusRank[task.status.type] ?? 0
    case "priority":
      return task.priority === null ? null : priorityRank[task.priority]
    case "dueDate":
      return time(task.dueDate)
    case "startDate":
      return time(task.startDate)
    case "createdAt":
      return time(task.createdAt)
    case "updatedAt":
      return time(task.updatedAt)
    case "closedAt":
      return time(task.closedAt)
    case "timeEstimate":
      return task.timeEstimateMinutes
    case "subtasks":
      return task.subtaskCount
    case "votes":
      return votes.get(task.id) ?? 0
    default:
      return null
  }
}

export const sortTasks = (tasks: ReadonlyArray<Task>, sortBy: ReadonlyArray<ViewSort>, votes: ReadonlyMap<string, number> = new Map()) =>
  [...tasks].sort((a, b) => {
    for (const sort of sortBy) {
      const x = sortValue(a, sort.field, votes)
      const y = sortValue(b, sort.field, votes)
      if (x === y) continue
      if (x === null) return 1
      if (y === null) return -1
      const order = x < y ? -1 : 1
      return sort.direction === "desc" ? -order : order
    }
    return a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)
  })

interface Keyed {
  readonly key: string
  readonly label: string
  readonly rank: number | string
}

/** The groups a task belongs to under `field`. */
const groupsOf = (
  task: Task,
  field: string,
  listNames: ReadonlyMap<string, string>,
  userEmail: ReadonlyMap<string, string>
): ReadonlyArray<Keyed> => {
  if (field.startsWith("cf:")) {
    const value = fieldValue(task, field.slice(3))
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
      return [{ key: "none", label: "(empty)", rank: "\uffff" }]
    const one = (v: unknown): Keyed =>
      typeof v === "object" && v !== null && "id" in v
        ? {
            key: String((v as { id: unknown }).id),
            label: String((v as { name?: unknown }).name),
            rank: String((v as { name?: unknown }).name).toLowerCase()
          }
        : typeof v === "string" && userEmail.has(v)
          ? { key: v, label: userEmail.get(v)!, rank: userEmail.get(v)! }
          : { key: String(v), label: String(v), rank: typeof v === "number" ? v : String(v) }
    return Array.isArray(value) ? value.map(one) : [one(value)]
  }
  switch (field) {
    case "status":
      return [{ key: task.status.name.toLowerCase(), label: task.status.name, rank: (statusRank[task.status.type] ?? 0) * 1000 }]
    case "priority":
      return [
        task.priority === null
          ? { key: "none", label: "No priority", rank: 9 }
          : { key: task.priority, label: task.priority, rank: priorityRank[task.priority] }
      ]
    case "assignees":
      return task.assignees.length === 0
        ? [{ key: "unassigned", label: "Unassigned", rank: "\uffff" }]
        : task.assignees.map((a) => ({ key: a.id, label: a.email || a.name || a.id, rank: (a.email || a.id).toLowerCase() }))
    case "tags":
      return task.tags.length === 0
        ? [{ key: "none", label: "No tag", rank: "\uffff" }]
        : task.tags.map((t) => ({ key: t.name.toLowerCase(), label: t.name, rank: t.name.toLowerCase() }))
    case "list":
      return [
        { key: task.listId, label: listNames.get(task.listId) ?? task.listId, rank: (listNames.get(task.listId) ?? "").toLowerCase() }
      ]
    case "dueDate": {
      const bucket = dueBucket(task)
      return [{ key: bucket, label: dueLabels[bucket]!, rank: dueBuckets.indexOf(bucket as (typeof dueBuckets)[number]) }]
    }
    case "createdBy":
      return [
        {
          key: task.createdBy,
          label: userEmail.get(task.createdBy) ?? task.createdBy,
          rank: (userEmail.get(task.createdBy) ?? task.createdBy).toLowerCase()
        }
      ]
    default:
      return [{ key: "all", label: "All", rank: 0 }]
  }
}

/** Vote counts of tasks. */
export const voteCounts = (taskIds: ReadonlyArray<string>) =>
  taskIds.length === 0
    ? Effect.succeed(new Map<string, number>())
    : Effect.map(
        query<{ taskId: string; votes: number }>(
          `SELECT task_id AS "taskId", count(*)::int AS votes FROM pm_task_votes WHERE task_id = ANY($1::text[]) GROUP BY task_id`,
          [taskIds]
        ),
        (rows) => new Map(rows.map((r) => [r.taskId, r.votes] as const))
      )

export const applyView = (view: View, viewer: Viewer, limit: number) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = filterSql(
      filterOfCriteria(view.filters, { workspaceId: view.workspaceId, viewer, scopeType: view.scopeType, scopeId: view.scopeId }),
      params
    )
    const [{ total }] = (yield* query<{ total: number }>(`SELECT count(*)::int AS total ${taskFrom} WHERE ${where}`, params)) as Array<{
      total: number
    }>
    const rows = yield* query<TaskRow>(
      `SELECT ${taskColumns} ${taskFrom} WHERE ${where} ORDER BY t.position, t.created_at, t.id LIMIT ${LOADED}`,
      params
    )
    const loaded = yield* hydrate(rows)
    const needsVotes = view.sortBy.some((s) => s.field === "votes")
    const votes = needsVotes ? yield* voteCounts(loaded.map((t) => t.id)) : new Map<string, number>()
    const sorted = sortTasks(loaded, view.sortBy, votes).slice(0, limit)
    const truncated = total > sorted.length
    if (view.groupBy === null) return { total, truncated, tasks: sorted, groups: null } satisfies AppliedView
    const grouping = view.groupBy
    const listIds = [...new Set(sorted.map((t) => t.listId))]
    const listNames = new Map(
      (listIds.length === 0
        ? []
        : yield* query<{ id: string; name: string }>(`SELECT id, name FROM pm_lists WHERE id = ANY($1::text[])`, [listIds])
      ).map((r) => [r.id, r.name] as const)
    )
    const userIds = [
      ...new Set(
        sorted.flatMap((t) => [
          t.createdBy,
          ...t.customFields.flatMap((f) => (f.type === "users" && Array.isArray(f.value) ? (f.value as Array<string>) : []))
        ])
      )
    ]
    const userEmail = new Map([...(yield* userRefs(userIds)).values()].map((u) => [u.id, u.email] as const))
    const groups = new Map<string, Keyed & { tasks: Array<Task> }>()
    for (const task of sorted) {
      for (const keyed of groupsOf(task, grouping.field, listNames, userEmail)) {
        const group = groups.get(keyed.key) ?? { ...keyed, tasks: [] }
        group.tasks.push(task)
        groups.set(keyed.key, group)
      }
    }
    if (grouping.showEmpty) {
      if (grouping.field === "priority") {
        for (const p of ["urgent", "high", "normal", "low"] as const)
          if (!groups.has(p)) groups.set(p, { key: p, label: p, rank: priorityRank[p], tasks: [] })
      }
      if (grouping.field === "dueDate") {
        for (const [i, b] of dueBuckets.entries()) if (!groups.has(b)) groups.set(b, { key: b, label: dueLabels[b]!, rank: i, tasks: [] })
      }
      if (grouping.field === "status" && view.scopeType === "list") {
        const statuses = (yield* statusesOfLists([view.scopeId])).get(view.scopeId) ?? []
        for (const s of statuses)
          if (!groups.has(s.name.toLowerCase()))
            groups.set(s.name.toLowerCase(), {
              key: s.name.toLowerCase(),
              label: s.name,
              rank: (statusRank[s.type] ?? 0) * 1000,
              tasks: []
            })
      }
    }
    // Statuses of a list keep their workflow order; elsewhere status groups go by type, then name.
    const workflow =
      view.scopeType === "list" && grouping.field === "status"
        ? ((yield* statusesOfLists([view.scopeId])).get(view.scopeId) ?? []).map((s) => s.name.toLowerCase())
        : []
    const rankOf = (g: Keyed) => (workflow.includes(g.key) ? workflow.indexOf(g.key) : g.rank)
    const ordered = [...groups.values()].sort((a, b) => {
      const x = rankOf(a)
      const y = rankOf(b)
      const order =
        x === y
          ? a.label.localeCompare(b.label)
          : typeof x === "number" && typeof y === "number"
            ? x - y
            : String(x).localeCompare(String(y))
      return grouping.direction === "desc" ? -order : order
    })
    const collapsed = new Set(grouping.collapsed.map((c) => c.toLowerCase()))
    return {
      total,
      truncated,
      tasks: sorted,
      groups: ordered.map((g) => ({
        key: g.key,
        label: g.label,
        count: g.tasks.length,
        collapsed: collapsed.has(g.key.toLowerCase()) || collapsed.has(g.label.toLowerCase()),
        tasks: g.tasks
      }))
    } satisfies AppliedView
  })
