/**
 * A list view's filters and sort, kept in the URL (`?assignee=…&status=…&tag=…&due=…&q=…&sort=…&dir=…`):
 * a filtered view is a link to share or bookmark, and the browser's history steps through filter changes.
 */
import type { Task } from "./queries.ts"

export type DueFilter = "" | "overdue" | "week" | "none"
export type SortKey = "position" | "name" | "status" | "priority" | "due" | "assignee"

export interface Filters {
  readonly assignee: string
  readonly status: string
  readonly tag: string
  readonly due: DueFilter
  readonly q: string
  readonly sort: SortKey
  readonly dir: "asc" | "desc"
}

const SORT_KEYS: ReadonlyArray<SortKey> = ["position", "name", "status", "priority", "due", "assignee"]
const DUE_FILTERS: ReadonlyArray<DueFilter> = ["", "overdue", "week", "none"]

export const filtersOf = (params: URLSearchParams): Filters => ({
  assignee: params.get("assignee") ?? "",
  status: params.get("status") ?? "",
  tag: params.get("tag") ?? "",
  due: DUE_FILTERS.find((d) => d === params.get("due")) ?? "",
  q: params.get("q") ?? "",
  sort: SORT_KEYS.find((k) => k === params.get("sort")) ?? "position",
  dir: params.get("dir") === "desc" ? "desc" : "asc"
})

export const hasFilters = (filters: Filters) =>
  filters.assignee !== "" || filters.status !== "" || filters.tag !== "" || filters.due !== "" || filters.q !== ""

const WEEK_MS = 7 * 24 * 60 * 60 * 1000

const matches = (task: Task, filters: Filters, now: number) => {
  if (
    filters.assignee === "none"
      ? task.assignees.length > 0
      : filters.assignee !== "" && !task.assignees.some((a) => a.id === filters.assignee)
  )
    return false
  if (filters.status !== "" && task.status.name.toLowerCase() !== filters.status.toLowerCase()) return false
  if (filters.tag !== "" && !task.tags.some((t) => t.name === filters.tag)) return false
  const due = task.dueDate === null ? undefined : new Date(task.dueDate).getTime()
  if (filters.due === "none" && due !== undefined) return false
  if (filters.due === "overdue" && (due === undefined || due >= now || task.closedAt !== null)) return false
  if (filters.due === "week" && (due === undefined || due > now + WEEK_MS || task.closedAt !== null)) return false
  if (filters.q !== "" && !`${task.shortId} ${task.name}`.toLowerCase().includes(filters.q.toLowerCase())) return false
  return true
}

const PRIORITY_RANK: Record<string, number> = { urgent: 0, high: 1, normal: 2, low: 3 }

const compareBy =
  (key: SortKey, statusOrder: ReadonlyArray<string>) =>
  (a: Task, b: Task): number => {
    switch (key) {
      case "name":
        return a.name.localeCompare(b.name)
      case "status":
        return statusOrder.indexOf(a.status.name.toLowerCase()) - statusOrder.indexOf(b.status.name.toLowerCase())
      case "priority":
        return (PRIORITY_RANK[a.priority ?? ""] ?? 4) - (PRIORITY_RANK[b.priority ?? ""] ?? 4)
      case "due":
        return (
          (a.dueDate === null ? Number.POSITIVE_INFINITY : Date.parse(a.dueDate)) -
          (b.dueDate === null ? Number.POSITIVE_INFINITY : Date.parse(b.dueDate))
        )
      case "assignee":
        return (a.assignees[0]?.name ?? "\uffff").localeCompare(b.assignees[0]?.name ?? "\uffff")
      case "position":
        return Number(a.position) - Number(b.position)
    }
  }

/** The tasks the filters keep, in the chosen order (ties keep the list's own order). */
export const applyFilters = (tasks: ReadonlyArray<Task>, filters: Filters, statusNames: ReadonlyArray<string>): Array<Task> => {
  const now = Date.now()
  const order = statusNames.map((name) => name.toLowerCase())
  const byPosition = compareBy("position", order)
  const byKey = compareBy(filters.sort, order)
  const sign = filters.dir === "desc" ? -1 : 1
  return tasks.filter((task) => matches(task, filters, now)).sort((a, b) => sign * byKey(a, b) || byPosition(a, b))
}
