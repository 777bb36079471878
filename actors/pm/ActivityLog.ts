/**
 * Activity log queries and statistics, read from the pm event log (what the
 * ChangeLog appended with every change). A viewer sees what the live streams
 * would show them: nothing from private spaces they are not in.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { EVENT_COLUMNS, type EventRow, type LoggedEvent, privacyClause, toEvent } from "./EventLog.ts"

export interface ActivityFilter {
  readonly workspaceId: string
  /** Private spaces the viewer may see, or "all". */
  readonly privateSpaces: ReadonlyArray<string> | "all"
  readonly spaceId?: string
  readonly listId?: string
  readonly taskId?: string
  readonly actorId?: string
  /** `task.updated` (exact) or `task` (every `task.*` type). */
  readonly types?: ReadonlyArray<string>
  /** ISO timestamps, inclusive from, exclusive to. */
  readonly from?: string
  readonly to?: string
}

const whereOf = (filter: ActivityFilter, params: Array<unknown>, alias = "") => {
  const p = (value: unknown) => `$${params.push(value)}`
  // Feedback boards' and wiki spaces' events share the log for the live stream; pm's activity is pm's own.
  const clauses = [
    `${alias}workspace_id = ${p(filter.workspaceId)}`,
    `${alias}scope NOT IN ('board', 'wikiSpace')`,
    privacyClause(params, filter.privateSpaces, alias)
  ]
  if (filter.spaceId !== undefined) clauses.push(`${alias}space_id = ${p(filter.spaceId)}`)
  if (filter.listId !== undefined) clauses.push(`${alias}list_id = ${p(filter.listId)}`)
  if (filter.taskId !== undefined) clauses.push(`${alias}task_id = ${p(filter.taskId)}`)
  if (filter.actorId !== undefined) clauses.push(`${alias}actor_id = ${p(filter.actorId)}`)
  if (filter.types !== undefined && filter.types.length > 0) {
    const exact = filter.types.filter((t) => t.includes("."))
    const families = filter.types.filter((t) => !t.includes("."))
    clauses.push(`(${alias}type = ANY(${p(exact)}::text[]) OR split_part(${alias}type, '.', 1) = ANY(${p(families)}::text[]))`)
  }
  if (filter.from !== undefined) clauses.push(`${alias}at >= ${p(filter.from)}::timestamptz`)
  if (filter.to !== undefined) clauses.push(`${alias}at < ${p(filter.to)}::timestamptz`)
  return clauses.join(" AND ")
}

/** Newest first; `beforeSeq` pages backwards. */
export const listActivity = (filter: ActivityFilter, limit: number, beforeSeq?: number) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let where = whereOf(filter, params)
    if (beforeSeq !== undefined) where += ` AND seq < $${params.push(beforeSeq)}`
    const rows = yield* query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM pm_events WHERE ${where} ORDER BY seq DESC LIMIT $${params.push(limit + 1)}`,
      params
    )
    const events = rows.slice(0, limit).map(toEvent)
    return { events, nextBefore: rows.length > limit ? events[events.length - 1]!.seq : null }
  })

export const activityEvent = (filter: ActivityFilter, seq: number) =>
  Effect.map(
    (() => {
      const params: Array<unknown> = []
      const where = whereOf(filter, params)
      return query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM pm_events WHERE ${where} AND seq = $${params.push(seq)}`, params)
    })(),
    (rows): LoggedEvent | undefined => (rows[0] ? toEvent(rows[0]) : undefined)
  )

export const activitySummary = (filter: ActivityFilter) =>
  Effect.gen(function* () {
    const totalParams: Array<unknown> = []
    const totals = yield* query<{
      total: number
      actors: number
      first_at: string | null
      last_at: string | null
      first_seq: number | null
      last_seq: number | null
    }>(
      `SELECT count(*) AS total, count(DISTINCT actor_id) AS actors, min(at) AS first_at, max(at) AS last_at, min(seq) AS first_seq, max(seq) AS last_seq
         FROM pm_events WHERE ${whereOf(filter, totalParams)}`,
      totalParams
    )
    const scopeParams: Array<unknown> = []
    const scopes = yield* query<{ scope: string; n: number }>(
      `SELECT scope, count(*) AS n FROM pm_events WHERE ${whereOf(filter, scopeParams)} GROUP BY scope`,
      scopeParams
    )
    const t = totals[0]!
    const byScope = { workspace: 0, space: 0, list: 0, task: 0 } as Record<string, number>
    for (const s of scopes) byScope[s.scope] = Number(s.n)
    return {
      total: Number(t.total),
      actors: Number(t.actors),
      firstAt: t.first_at,
      lastAt: t.last_at,
      firstSeq: t.first_seq === null ? null : Number(t.first_seq),
      lastSeq: t.last_seq === null ? null : Number(t.last_seq),
      byScope: byScope as { workspace: number; space: number; list: number; task: number }
    }
  })

/** Events per calendar day in `timeZone`, zero-filled over [from, to). */
export const activityPerDay = (filter: ActivityFilter & { readonly from: string; readonly to: string }, timeZone: string) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = whereOf(filter, params)
    const rows = yield* query<{ day: string; n: number }>(
      `SELECT to_char(at AT TIME ZONE $${params.push(timeZone)}, 'YYYY-MM-DD') AS day, count(*) AS n
         FROM pm_events WHERE ${where} GROUP BY day ORDER BY day`,
      params
    )
    const counts = new Map(rows.map((r) => [r.day, Number(r.n)] as const))
    const dayIn = (iso: string) =>
      new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(iso))
    const first = dayIn(filter.from)
    const last = dayIn(new Date(Date.parse(filter.to) - 1).toISOString())
    const items: Array<{ date: string; count: number }> = []
    for (let day = new Date(`${first}T00:00:00Z`); day.toISOString().slice(0, 10) <= last; day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10)
      items.push({ date, count: counts.get(date) ?? 0 })
    }
    return items
  })

export const activityPerType = (filter: ActivityFilter) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<{ type: string; n: number; last_at: string }>(
      `SELECT type, count(*) AS n, max(at) AS last_at FROM pm_events WHERE ${whereOf(filter, params)} GROUP BY type ORDER BY n DESC, type`,
      params
    )
    return rows.map((r) => ({ type: r.type, count: Number(r.n), lastAt: r.last_at }))
  })

export const activityPerActor = (filter: ActivityFilter) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<{ actor_id: string; n: number; last_at: string }>(
      `SELECT actor_id, count(*) AS n, max(at) AS last_at FROM pm_events WHERE ${whereOf(filter, params)} GROUP BY actor_id ORDER BY n DESC, actor_id`,
      params
    )
    return rows.map((r) => ({ userId: r.actor_id, count: Number(r.n), lastAt: r.last_at }))
  })

export const activityPerSpace = (filter: ActivityFilter) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<{ space_id: string; name: string | null; n: number; last_at: string }>(
      `SELECT e.space_id, s.name, count(*) AS n, max(e.at) AS last_at
         FROM pm_events e LEFT JOIN pm_spaces s ON s.id = e.space_id
        WHERE ${whereOf(filter, params, "e.")} AND e.space_id IS NOT NULL
        GROUP BY e.space_id, s.name ORDER BY n DESC, e.space_id`,
      params
    )
    return rows.map((r) => ({ spaceId: r.space_id, name: r.name, count: Number(r.n), lastAt: r.last_at }))
  })

export const mostActiveTasks = (filter: ActivityFilter, limit: number) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<{ task_id: string; name: string | null; short_id: string | null; n: number; last_at: string }>(
      `SELECT e.task_id, t.name, t.short_id, count(*) AS n, max(e.at) AS last_at
         FROM pm_events e LEFT JOIN pm_tasks t ON t.id = e.task_id
        WHERE ${whereOf(filter, params, "e.")} AND e.task_id IS NOT NULL
        GROUP BY e.task_id, t.name, t.short_id ORDER BY n DESC, last_at DESC LIMIT $${params.push(limit)}`,
      params
    )
    return rows.map((r) => ({ taskId: r.task_id, name: r.name, shortId: r.short_id, count: Number(r.n), lastAt: r.last_at }))
  })

/** Oldest first, for exports. */
export const exportActivity = (filter: ActivityFilter, limit: number) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const rows = yield* query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM pm_events WHERE ${whereOf(filter, params)} ORDER BY seq LIMIT $${params.push(limit)}`,
      params
    )
    return rows.map(toEvent)
  })
