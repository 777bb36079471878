/**
 * Tasks as the API shows them: the row plus its status (with type and color
 * from the list's effective workflow), assignees, watchers, tags, custom
 * field values and subtask count, loaded in batches for listings. Filtering
 * and both paginations (offset, and keyset on (created_at, id) for cursors)
 * live here.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import { presentValue } from "./CustomFields.ts"
import { userRefs } from "./Members.ts"
import { statusesOfLists } from "./Statuses.ts"
import { visibleSpace, type ArchivedFilter, type Viewer } from "./StructureReads.ts"
import { type CustomField, defaultFeatures, type Priority, type Status, type Tag, type Task } from "./WorkRecords.ts"

export const taskColumns = `t.id, t.workspace_id AS "workspaceId", t.space_id AS "spaceId", l.folder_id AS "folderId", t.list_id AS "listId",
  t.parent_task_id AS "parentTaskId", t.short_id AS "shortId", t.name, t.description, t.status, t.priority,
  t.start_date AS "startDate", t.due_date AS "dueDate", t.time_estimate_minutes AS "timeEstimateMinutes", t.position, t.recurrence,
  t.created_by AS "createdBy", t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.closed_at AS "closedAt",
  t.archived_at AS "archivedAt", t.deleted_at AS "deletedAt", t.version`

export const taskFrom = `FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id`

export interface TaskRow {
  readonly id: string
  readonly workspaceId: string
  readonly spaceId: string
  readonly folderId: string | null
  readonly listId: string
  readonly parentTaskId: string | null
  readonly shortId: string
  readonly name: string
  readonly description: string
  readonly status: string
  readonly priority: Priority | null
  readonly startDate: string | null
  readonly dueDate: string | null
  readonly timeEstimateMinutes: number | null
  readonly position: number
  readonly recurrence: unknown
  readonly createdBy: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly closedAt: string | null
  readonly archivedAt: string | null
  readonly deletedAt: string | null
  readonly version: number
}

const unknownStatus = (name: string) => ({ name, type: "open" as const, color: "#87909e" })

/** Rows → tasks, with every related collection loaded in one query each. */
export const hydrate = (rows: ReadonlyArray<TaskRow>): Effect.Effect<Array<Task>, SqlError, Sql> =>
  Effect.gen(function* () {
    if (rows.length === 0) return []
    const ids = rows.map((r) => r.id)
    const statuses = yield* statusesOfLists(rows.map((r) => r.listId))
    const assignees = yield* query<{ taskId: string; userId: string }>(
      `SELECT task_id AS "taskId", user_id AS "userId" FROM pm_task_assignees WHERE task_id = ANY($1::text[]) ORDER BY assigned_at, user_id`,
      [ids]
    )
    const watchers = yield* query<{ taskId: string; userId: string }>(
      `SELECT scope_id AS "taskId", user_id AS "userId" FROM pm_watchers WHERE scope_type = 'task' AND scope_id = ANY($1::text[]) ORDER BY added_at`,
      [ids]
    )
    const tags = yield* query<Tag & { taskId: string }>(
      `SELECT tt.task_id AS "taskId", g.id, g.space_id AS "spaceId", g.name, g.color, g.created_at AS "createdAt"
         FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = ANY($1::text[]) ORDER BY lower(g.name)`,
      [ids]
    )
    const values = yield* query<{ taskId: string; value: unknown; field: CustomField }>(
      `SELECT v.task_id AS "taskId", v.value, jsonb_build_object('id', f.id, 'name', f.name, 'type', f.type, 'config', f.config) AS field
         FROM pm_task_custom_values v JOIN pm_custom_fields f ON f.id = v.field_id
        WHERE v.task_id = ANY($1::text[]) ORDER BY f.position, f.created_at`,
      [ids]
    )
    const subtasks = yield* query<{ parentId: string; count: number }>(
      `SELECT parent_task_id AS "parentId", count(*)::int AS count FROM pm_tasks
        WHERE parent_task_id = ANY($1::text[]) AND deleted_at IS NULL GROUP BY parent_task_id`,
      [ids]
    )
    const users = yield* userRefs(assignees.map((a) => a.userId))
    const group = <T extends { taskId: string }>(items: ReadonlyArray<T>) => {
      const map = new Map<string, Array<T>>()
      for (const item of items) map.set(item.taskId, [...(map.get(item.taskId) ?? []), item])
      return map
    }
    const assigneesBy = group(assignees)
    const watchersBy = group(watchers)
    const tagsBy = group(tags)
    const valuesBy = group(values)
    const subtaskCounts = new Map(subtasks.map((s) => [s.parentId, s.count] as const))
    return rows.map((row): Task => {
      const status: Status | undefined = statuses.get(row.listId)?.find((s) => s.name.toLowerCase() === row.status.toLowerCase())
      return {
        ...row,
        status: status ? { name: status.name, type: status.type, color: status.color } : unknownStatus(row.status),
        assignees: (assigneesBy.get(row.id) ?? []).map((a) => users.get(a.userId) ?? { id: a.userId, email: "", name: "" }),
        watcherIds: (watchersBy.get(row.id) ?? []).map((w) => w.userId),
        tags: (tagsBy.get(row.id) ?? []).map(({ taskId: _t, ...tag }) => tag),
        customFields: (valuesBy.get(row.id) ?? []).map((v) => ({
          fieldId: v.field.id,
          name: v.field.name,
          type: v.field.type,
          value: presentValue(v.field, v.value)
        })),
        subtaskCount: subtaskCounts.get(row.id) ?? 0,
        recurrence: row.recurrence ?? null,
        archived: row.archivedAt !== null
      }
    })
  })

/** One task (not deleted unless asked), or 404. */
export const getTask = (taskId: string, options: { readonly deleted?: boolean } = {}): Effect.Effect<Task, Rejection | SqlError, Sql> =>
  Effect.gen(function* () {
    const rows = yield* query<TaskRow>(
      `SELECT ${taskColumns} ${taskFrom} WHERE t.id = $1 AND ${options.deleted ? "t.deleted_at IS NOT NULL" : "t.deleted_at IS NULL"}`,
      [taskId]
    )
    if (rows.length === 0) return yield* reject("not_found", "No such task")
    return (yield* hydrate(rows))[0]!
  })

export const getTasks = (taskIds: ReadonlyArray<string>) =>
  Effect.flatMap(query<TaskRow>(`SELECT ${taskColumns} ${taskFrom} WHERE t.id = ANY($1::text[]) AND t.deleted_at IS NULL`, [taskIds]), hydrate)

export interface TaskFilter {
  readonly workspaceId: string
  readonly viewer: Viewer
  readonly spaceIds?: ReadonlyArray<string>
  readonly folderIds?: ReadonlyArray<string>
  /** Tasks whose home list is one of these, or that were added to one of them. */
  readonly listIds?: ReadonlyArray<string>
  readonly parentTaskId?: string
  /** Leave subtasks out (top-level tasks only). */
  readonly topLevelOnly?: boolean
  readonly statuses?: ReadonlyArray<string>
  readonly priorities?: ReadonlyArray<Priority>
  readonly assigneeIds?: ReadonlyArray<string>
  readonly tagNames?: ReadonlyArray<string>
  readonly q?: string
  readonly dueAfter?: string
  readonly dueBefore?: string
  readonly createdAfter?: string
  readonly createdBefore?: string
  readonly updatedAfter?: string
  readonly includeClosed?: boolean
  readonly overdue?: boolean
  readonly archived?: ArchivedFilter
}

export type TaskOrder = "created" | "updated" | "due" | "priority" | "position" | "name"

const orderColumns: Record<TaskOrder, string> = {
  created: "t.created_at",
  updated: "t.updated_at",
  due: "t.due_date",
  priority: "CASE t.priority WHEN 'urgent' THEN 1 WHEN 'high' THEN 2 WHEN 'normal' THEN 3 WHEN 'low' THEN 4 ELSE 5 END",
  position: "t.position",
  name: "lower(t.name)"
}

/** The WHERE clause of a filter; pushes its parameters onto `params`. */
export const filterSql = (filter: TaskFilter, params: Array<unknown>): string => {
  const add = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  const conditions = [
    `t.workspace_id = ${add(filter.workspaceId)}`,
    "t.deleted_at IS NULL",
    "l.deleted_at IS NULL",
    "s.deleted_at IS NULL"
  ]
  params.push(filter.viewer.userId, filter.viewer.admin)
  conditions.push(visibleSpace("s", params.length - 1, params.length))
  const archived = filter.archived ?? "exclude"
  if (archived === "exclude") conditions.push("t.archived_at IS NULL")
  if (archived === "only") conditions.push("t.archived_at IS NOT NULL")
  if (filter.spaceIds?.length) conditions.push(`t.space_id = ANY(${add(filter.spaceIds)}::text[])`)
  if (filter.folderIds?.length) conditions.push(`l.folder_id = ANY(${add(filter.folderIds)}::text[])`)
  if (filter.listIds?.length) {
    const lists = add(filter.listIds)
    conditions.push(`(t.list_id = ANY(${lists}::text[]) OR EXISTS (SELECT 1 FROM pm_task_list_links k WHERE k.task_id = t.id AND k.list_id = ANY(${lists}::text[])))`)
  }
  if (filter.parentTaskId !== undefined) conditions.push(`t.parent_task_id = ${add(filter.parentTaskId)}`)
  if (filter.topLevelOnly) conditions.push("t.parent_task_id IS NULL")
  if (filter.statuses?.length) conditions.push(`lower(t.status) = ANY(${add(filter.statuses.map((s) => s.trim().toLowerCase()))}::text[])`)
  if (filter.priorities?.length) conditions.push(`t.priority = ANY(${add(filter.priorities)}::text[])`)
  if (filter.assigneeIds?.length) {
    conditions.push(`EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id AND a.user_id = ANY(${add(filter.assigneeIds)}::text[]))`)
  }
  if (filter.tagNames?.length) {
    conditions.push(`EXISTS (SELECT 1 FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = t.id AND lower(g.name) = ANY(${add(filter.tagNames.map((n) => n.trim().toLowerCase()))}::text[]))`)
  }
  if (filter.q) {
    const pattern = add(`%${filter.q.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    conditions.push(`(lower(t.name) LIKE ${pattern} OR lower(t.description) LIKE ${pattern} OR lower(t.short_id) = ${add(filter.q.trim().toLowerCase())})`)
  }
  if (filter.dueAfter) conditions.push(`t.due_date >= ${add(filter.dueAfter)}::timestamptz`)
  if (filter.dueBefore) conditions.push(`t.due_date <= ${add(filter.dueBefore)}::timestamptz`)
  if (filter.createdAfter) conditions.push(`t.created_at >= ${add(filter.createdAfter)}::timestamptz`)
  if (filter.createdBefore) conditions.push(`t.created_at <= ${add(filter.createdBefore)}::timestamptz`)
  if (filter.updatedAfter) conditions.push(`t.updated_at >= ${add(filter.updatedAfter)}::timestamptz`)
  if (filter.includeClosed === false) conditions.push("t.closed_at IS NULL")
  if (filter.overdue) conditions.push("t.due_date < now() AND t.closed_at IS NULL")
  return conditions.join(" AND ")
}

/** A page by offset, ordered as asked (ties broken by creation, then id). */
export const findTasks = (filter: TaskFilter, page: { readonly offset: number; readonly limit: number; readonly order?: TaskOrder; readonly direction?: "asc" | "desc" }) =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    const where = filterSql(filter, params)
    const [{ total }] = yield* query<{ total: number }>(`SELECT count(*)::int AS total ${taskFrom} WHERE ${where}`, params) as Effect.Effect<Array<{ total: number }>, SqlError, Sql>
    const direction = page.direction === "desc" ? "DESC" : "ASC"
    const order = orderColumns[page.order ?? "position"]
    const rows = yield* query<TaskRow>(
      `SELECT ${taskColumns} ${taskFrom} WHERE ${where}
        ORDER BY ${order} ${direction} NULLS LAST, t.created_at ${direction}, t.id ${direction}
        LIMIT ${page.limit} OFFSET ${page.offset}`,
      params
    )
    return { items: yield* hydrate(rows), total, offset: page.offset, limit: page.limit }
  })

/** Keyset position of a task in (created_at, id) order; `at` keeps the database's full precision. */
export interface Keyset {
  readonly at: string
  readonly id: string
}

/**
 * A page after `after` in (created_at, id) order. Rows inserted while a
 * client pages never shift the pages it has not read yet, so a walk has no
 * duplicates and skips nothing that existed when it started.
 */
export const findTasksAfter = (filter: TaskFilter, after: Keyset | undefined, limit: number, direction: "asc" | "desc") =>
  Effect.gen(function* () {
    const params: Array<unknown> = []
    let where = filterSql(filter, params)
    if (after) {
      params.push(after.at, after.id)
      where += ` AND (t.created_at, t.id) ${direction === "asc" ? ">" : "<"} ($${params.length - 1}::timestamptz, $${params.length})`
    }
    const dir = direction === "asc" ? "ASC" : "DESC"
    const rows = yield* query<TaskRow & { keysetAt: string }>(
      `SELECT ${taskColumns}, t.created_at::text AS "keysetAt" ${taskFrom} WHERE ${where}
        ORDER BY t.created_at ${dir}, t.id ${dir} LIMIT ${limit + 1}`,
      params
    )
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    const next: Keyset | undefined = rows.length > limit && last ? { at: last.keysetAt, id: last.id } : undefined
    const items = yield* hydrate(page.map(({ keysetAt: _k, ...row }) => row))
    return { items, next }
  })

/** Features of the space a task lives in (disabled ones are refused on its tasks). */
export const featuresOfSpace = (spaceId: string) =>
  Effect.map(query<{ features: Record<string, boolean> }>(`SELECT features FROM pm_spaces WHERE id = $1`, [spaceId]), (rows) => ({
    ...defaultFeatures,
    ...(rows[0]?.features ?? {})
  }))
