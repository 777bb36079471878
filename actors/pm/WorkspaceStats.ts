/**
 * Statistics of a workspace as one viewer may see it (private spaces only
 * as a member or admin): tasks by status type per space, the workload of
 * each member, throughput per day, and usage (seats, storage, counts).
 * Days and weeks are the workspace's: its time zone and week start.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { effectiveStatusJoin } from "./Statuses.ts"
import { type Viewer, visibleSpace } from "./StructureReads.ts"
import type { StatusType } from "./WorkRecords.ts"

export interface Counts {
  total: number
  open: number
  active: number
  done: number
  closed: number
  overdue: number
}

const emptyCounts = (): Counts => ({ total: 0, open: 0, active: 0, done: 0, closed: 0, overdue: 0 })

// ---------------------------------------------------------------------------
// Days and weeks in a time zone

const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

const partsIn = (at: Date, timeZone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      weekday: "long"
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value])
  )
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: String(parts.weekday).toLowerCase()
  }
}

/** Minutes the zone is ahead of UTC at `at`. */
const offsetAt = (at: Date, timeZone: string) => {
  const p = partsIn(at, timeZone)
  return (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000) / 60_000
}

/** The instant local midnight of (year, month, day) happens in the zone. */
export const localMidnight = (year: number, month: number, day: number, timeZone: string): Date => {
  const guess = Date.UTC(year, month - 1, day)
  const first = guess - offsetAt(new Date(guess), timeZone) * 60_000
  const second = guess - offsetAt(new Date(first), timeZone) * 60_000
  return new Date(second)
}

/** The local calendar date (YYYY-MM-DD) of an instant in the zone. */
export const localDate = (at: Date, timeZone: string) => {
  const p = partsIn(at, timeZone)
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`
}

/** Start and end of the current week (in the zone, starting on `weekStart`). */
export const currentWeek = (now: Date, timeZone: string, weekStart: string) => {
  const p = partsIn(now, timeZone)
  const back = (weekdays.indexOf(p.weekday) - weekdays.indexOf(weekStart) + 7) % 7
  const startDay = new Date(Date.UTC(p.year, p.month - 1, p.day - back))
  const endDay = new Date(Date.UTC(p.year, p.month - 1, p.day - back + 7))
  return {
    start: localMidnight(startDay.getUTCFullYear(), startDay.getUTCMonth() + 1, startDay.getUTCDate(), timeZone),
    end: localMidnight(endDay.getUTCFullYear(), endDay.getUTCMonth() + 1, endDay.getUTCDate(), timeZone)
  }
}

// ---------------------------------------------------------------------------

const visibleTasks = `FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
  WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visibleSpace("s", 2, 3)}`

/** Task counts by status type per space (statuses no longer defined count as open): one statement. */
export const countsBySpace = (workspaceId: string, viewer: Viewer) =>
  Effect.gen(function* () {
    // Grouped by list and status name first, so each group looks its status up once.
    const rows = yield* query<{ spaceId: string; type: StatusType; count: number; overdue: number }>(
      `WITH g AS (
         SELECT t.space_id, t.list_id, lower(t.status) AS status, count(*)::int AS count,
                count(*) FILTER (WHERE t.due_date < now() AND t.closed_at IS NULL)::int AS overdue
           ${visibleTasks} GROUP BY t.space_id, t.list_id, lower(t.status))
       SELECT g.space_id AS "spaceId", COALESCE(st.type, 'open') AS type, sum(g.count)::int AS count, sum(g.overdue)::int AS overdue
         FROM g JOIN pm_lists l ON l.id = g.list_id ${effectiveStatusJoin("l", "g.status")}
        GROUP BY g.space_id, COALESCE(st.type, 'open')`,
      [workspaceId, viewer.userId, viewer.admin]
    )
    const bySpace = new Map<string, Counts>()
    for (const row of rows) {
      const counts = bySpace.get(row.spaceId) ?? emptyCounts()
      counts.total += row.count
      counts[row.type] += row.count
      counts.overdue += row.overdue
      bySpace.set(row.spaceId, counts)
    }
    return bySpace
  })

export const sum = (counts: Iterable<Counts>) => {
  const total = emptyCounts()
  for (const c of counts) for (const key of Object.keys(total) as Array<keyof Counts>) total[key] += c[key]
  return total
}

/** Unfinished tasks: unassigned, due in the window, finished in the window. */
export const taskWindow = (workspaceId: string, viewer: Viewer, from: Date, to: Date) =>
  Effect.map(
    query<{ unassigned: number; dueInWindow: number; completedInWindow: number; createdInWindow: number }>(
      `SELECT count(*) FILTER (WHERE t.closed_at IS NULL AND NOT EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id))::int AS unassigned,
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date >= $4 AND t.due_date < $5)::int AS "dueInWindow",
              count(*) FILTER (WHERE t.closed_at >= $4 AND t.closed_at < $5)::int AS "completedInWindow",
              count(*) FILTER (WHERE t.created_at >= $4 AND t.created_at < $5)::int AS "createdInWindow"
         ${visibleTasks}`,
      [workspaceId, viewer.userId, viewer.admin, from.toISOString(), to.toISOString()]
    ),
    (rows) => rows[0]!
  )

/** Per assignee: unfinished tasks, overdue ones, due before `dueBy`, estimated minutes. */
export const workload = (workspaceId: string, viewer: Viewer, dueBy: Date) =>
  Effect.map(
    query<{ userId: string; openTasks: number; overdueTasks: number; dueSoon: number; estimateMinutes: number }>(
      `SELECT a.user_id AS "userId", count(*)::int AS "openTasks",
              count(*) FILTER (WHERE t.due_date < now())::int AS "overdueTasks",
              count(*) FILTER (WHERE t.due_date >= now() AND t.due_date < $4)::int AS "dueSoon",
              COALESCE(sum(t.time_estimate_minutes), 0)::int AS "estimateMinutes"
         FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
        WHERE t.workspace_id = $1 AND t.deleted_at IS NULL AND t.archived_at IS NULL AND t.closed_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL
          AND ${visibleSpace("s", 2, 3)}
        GROUP BY a.user_id`,
      [workspaceId, viewer.userId, viewer.admin, dueBy.toISOString()]
    ),
    (rows) => new Map(rows.map((r) => [r.userId, r] as const))
  )

/** Tasks created and finished per local day over the last `days` days (today included). */
export const throughput = (workspaceId: string, viewer: Viewer, days: number, timeZone: string) =>
  Effect.gen(function* () {
    const today = partsIn(new Date(), timeZone)
    const firstDay = new Date(Date.UTC(today.year, today.month - 1, today.day - (days - 1)))
    const from = localMidnight(firstDay.getUTCFullYear(), firstDay.getUTCMonth() + 1, firstDay.getUTCDate(), timeZone)
    const rows = yield* query<{ createdAt: string; closedAt: string | null }>(
      `SELECT t.created_at AS "createdAt", t.closed_at AS "closedAt" ${visibleTasks} AND (t.created_at >= $4 OR t.closed_at >= $4)`,
      [workspaceId, viewer.userId, viewer.admin, from.toISOString()]
    )
    const series = Array.from({ length: days }, (_, i) => {
      const day = new Date(Date.UTC(today.year, today.month - 1, today.day - (days - 1) + i))
      return { date: day.toISOString().slice(0, 10), created: 0, completed: 0 }
    })
    const index = new Map(series.map((d, i) => [d.date, i] as const))
    for (const row of rows) {
      if (Date.parse(row.createdAt) >= from.getTime()) {
        const i = index.get(localDate(new Date(row.createdAt), timeZone))
        if (i !== undefined) series[i]!.created++
      }
      if (row.closedAt !== null && Date.parse(row.closedAt) >= from.getTime()) {
        const i = index.get(localDate(new Date(row.closedAt), timeZone))
        if (i !== undefined) series[i]!.completed++
      }
    }
    return { from: from.toISOString(), days: series }
  })

/** Bytes and counts a workspace uses. */
export const usageOf = (workspaceId: string) =>
  Effect.map(
    query<{
      attachmentCount: number
      attachmentBytes: number
      spaces: number
      folders: number
      lists: number
      tasks: number
      comments: number
      activeShareLinks: number
    }>(
      `SELECT (SELECT count(*)::int FROM pm_attachments a JOIN pm_tasks t ON t.id = a.task_id WHERE a.workspace_id = $1 AND t.deleted_at IS NULL) AS "attachmentCount",
              (SELECT COALESCE(sum(a.size), 0)::bigint FROM pm_attachments a JOIN pm_tasks t ON t.id = a.task_id WHERE a.workspace_id = $1 AND t.deleted_at IS NULL) AS "attachmentBytes",
              (SELECT count(*)::int FROM pm_spaces WHERE workspace_id = $1 AND deleted_at IS NULL) AS spaces,
              (SELECT count(*)::int FROM pm_folders WHERE workspace_id = $1 AND deleted_at IS NULL) AS folders,
              (SELECT count(*)::int FROM pm_lists WHERE workspace_id = $1 AND deleted_at IS NULL) AS lists,
              (SELECT count(*)::int FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL) AS tasks,
              (SELECT count(*)::int FROM pm_comments WHERE workspace_id = $1 AND deleted_at IS NULL) AS comments,
              (SELECT count(*)::int FROM pm_share_links WHERE workspace_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) AS "activeShareLinks"`,
      [workspaceId]
    ),
    (rows) => ({ ...rows[0]!, attachmentBytes: Number(rows[0]!.attachmentBytes) })
  )
