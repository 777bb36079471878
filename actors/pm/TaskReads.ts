/**
 * Tasks as the API shows them: the row plus its status (with type and color
 * from the list's effective workflow), assignees, watchers, tags, custom
 * field values and subtask count. Every read here is one SQL statement: the
 * related collections are correlated sub-selects (json_agg) over the page of
 * rows, so a request costs one round trip. Filtering and both paginations
 * (offset, and keyset on (created_at, id) for cursors) live here.
 */
import { Effect, Exit, Request, RequestResolver, Schema } from "effect"
import { userRefJson } from "../identity/IdentityQueries.ts"
import { connectionOf, isoTimestampSql, query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { presentValue } from "./CustomFields.ts"
import { TaskNotFound } from "./PmErrors.ts"
import { effectiveStatusJoin } from "./Statuses.ts"
import { visibleSpace, type ArchivedFilter, type Viewer } from "./StructureReads.ts"
import {
  type CustomField,
  defaultFeatures,
  type Features,
  type Priority,
  type Status,
  type Tag,
  type Task,
  type UserRef
} from "./WorkRecords.ts"

export const taskColumns = `t.id, t.workspace_id AS "workspaceId", t.space_id AS "spaceId", l.folder_id AS "folderId", t.list_id AS "listId",
  t.parent_task_id AS "parentTaskId", t.short_id AS "shortId", t.name, t.description, t.status, t.priority,
  t.start_date AS "startDate", t.due_date AS "dueDate", t.time_estimate_minutes AS "timeEstimateMinutes", t.position, t.recurrence,
  t.created_by AS "createdBy", t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.closed_at AS "closedAt",
  t.archived_at AS "archivedAt", t.deleted_at AS "deletedAt", t.version`

// The columns of `taskColumns` as RETURNING of an UPDATE or INSERT of pm_tasks sees them (no join: its list's folder by sub-select).
export const updatedColumns = taskColumns.replace(
  `l.folder_id AS "folderId"`,
  `(SELECT l.folder_id FROM pm_lists l WHERE l.id = t.list_id) AS "folderId"`
)

/** `tasks` (a table or a sub-select) as `t`, with its home list `l` and space `s`. */
const tasksFrom = (tasks: string) => `FROM ${tasks} t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id`

export const taskFrom = tasksFrom("pm_tasks")

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

/** `FROM` a set of task rows (`pm_tasks`, or a page of it as a subquery) aliased t, with everything `presentedColumns` reads. */
const presentedFrom = (tasks: string) =>
  `FROM ${tasks} t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id ${effectiveStatusJoin("l", "t.status")}`

const assigneesColumn = `COALESCE((SELECT json_agg(${userRefJson("a.user_id")} ORDER BY a.assigned_at, a.user_id)
              FROM pm_task_assignees a WHERE a.task_id = t.id), '[]') AS assignees`

const customFieldsColumn = `COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'type', f.type, 'config', f.config, 'value', v.value)
                            ORDER BY f.position, f.created_at)
              FROM pm_task_custom_values v JOIN pm_custom_fields f ON f.id = v.field_id WHERE v.task_id = t.id), '[]') AS "customFields"`

/** The related collections of task `t`, one column each (correlated sub-selects over indexed keys). */
const presentedColumns = `st.name AS "statusName", st.type AS "statusType", st.color AS "statusColor",
  ${assigneesColumn},
  COALESCE((SELECT json_agg(w.user_id ORDER BY w.added_at, w.user_id)
              FROM pm_watchers w WHERE w.scope_type = 'task' AND w.scope_id = t.id), '[]') AS "watcherIds",
  COALESCE((SELECT json_agg(json_build_object('id', g.id, 'spaceId', g.space_id, 'name', g.name, 'color', g.color, 'createdAt', ${isoTimestampSql("g.created_at")})
                            ORDER BY lower(g.name))
              FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = t.id), '[]') AS tags,
  ${customFieldsColumn},
  (SELECT count(*)::int FROM pm_tasks c WHERE c.parent_task_id = t.id AND c.deleted_at IS NULL) AS "subtaskCount"`

/** What a task shows besides its row. */
export interface Presented {
  readonly statusName: string | null
  readonly statusType: Status["type"] | null
  readonly statusColor: string | null
  readonly assignees: ReadonlyArray<UserRef>
  readonly watcherIds: ReadonlyArray<string>
  readonly tags: ReadonlyArray<Tag>
  readonly customFields: ReadonlyArray<Pick<CustomField, "id" | "name" | "type" | "config"> & { readonly value: unknown }>
  readonly subtaskCount: number
}

/**
 * A task row and what it shows → the task. Built field by field, not by spreading the row: rows come with
 * the statement's other columns (a page's keyset, place names), and copying a wide row through object
 * spread and rest (V8's slow path for them) cost a search of 20 tasks a fifth of its CPU.
 */
export const present = (row: TaskRow, presented: Presented): Task => ({
  id: row.id,
  workspaceId: row.workspaceId,
  spaceId: row.spaceId,
  folderId: row.folderId,
  listId: row.listId,
  parentTaskId: row.parentTaskId,
  shortId: row.shortId,
  name: row.name,
  description: row.description,
  status:
    presented.statusName === null
      ? unknownStatus(row.status)
      : { name: presented.statusName, type: presented.statusType!, color: presented.statusColor! },
  priority: row.priority,
  startDate: row.startDate,
  dueDate: row.dueDate,
  timeEstimateMinutes: row.timeEstimateMinutes,
  position: row.position,
  assignees: presented.assignees,
  watcherIds: presented.watcherIds,
  tags: presented.tags,
  customFields: presented.customFields.map((field) => ({
    fieldId: field.id,
    name: field.name,
    type: field.type,
    value: presentValue(field, field.value)
  })),
  subtaskCount: presented.subtaskCount,
  recurrence: row.recurrence ?? null,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  closedAt: row.closedAt,
  archived: row.archivedAt !== null,
  archivedAt: row.archivedAt,
  deletedAt: row.deletedAt,
  version: row.version
})

/**
 * Updates the task's own columns (`sets`, parameters after the task id) and
 * returns it as shown, its presentation (status, people, tags, fields,
 * subtasks) kept from `before`: for writes that changed none of it, one
 * statement instead of an update and a read. With `version`, the row is
 * updated only at that version and not deleted (`before` came from memory):
 * `undefined` when it has moved on, nothing written. Should the row show
 * another status or list than `before` (renamed or moved by another actor
 * meanwhile), the task is read again instead.
 */
export const updateOwnColumns = (
  before: Task,
  sets: string,
  params: ReadonlyArray<unknown>,
  version?: number
): Effect.Effect<Task | undefined, SqlError | TaskNotFound, Sql> =>
  Effect.flatMap(
    query<TaskRow>(
      version === undefined
        ? `UPDATE pm_tasks t SET ${sets} WHERE t.id = $1 RETURNING ${updatedColumns}`
        : `UPDATE pm_tasks t SET ${sets} WHERE t.id = $1 AND t.version = $${params.length + 1} AND t.deleted_at IS NULL RETURNING ${updatedColumns}`,
      version === undefined ? params : [...params, version]
    ),
    ([row]): Effect.Effect<Task | undefined, SqlError | TaskNotFound, Sql> => {
      if (row === undefined) return Effect.succeed(undefined)
      if (row.status !== before.status.name || row.listId !== before.listId || row.spaceId !== before.spaceId) return getTask(before.id)
      return Effect.succeed({
        ...before,
        ...row,
        status: before.status,
        recurrence: row.recurrence ?? null,
        archived: row.archivedAt !== null
      })
    }
  )

/** A row of `SELECT ${taskColumns}, ${presentedColumns}` (and any other columns) → the task. */
const presentRow = (row: TaskRow & Presented): Task => present(row, row)

/** Rows → tasks: everything related to them is read in one statement. */
export const hydrate = Effect.fnUntraced(function* (rows: ReadonlyArray<TaskRow>) {
  if (rows.length === 0) return []
  const found = yield* query<Presented & { id: string }>(
    `SELECT t.id, ${presentedColumns} ${presentedFrom("pm_tasks")} WHERE t.id = ANY($1::text[])`,
    [rows.map((r) => r.id)]
  )
  const byId = new Map(found.map((p) => [p.id, p] as const))
  const none: Presented = {
    statusName: null,
    statusType: null,
    statusColor: null,
    assignees: [],
    watcherIds: [],
    tags: [],
    customFields: [],
    subtaskCount: 0
  }
  return rows.map((row) => present(row, byId.get(row.id) ?? none))
})

/** One task (not deleted unless asked), or 404: one statement. */
export const getTask = Effect.fnUntraced(function* (taskId: string, options: { readonly deleted?: boolean } = {}) {
  const rows = yield* query<TaskRow & Presented>(
    `SELECT ${taskColumns}, ${presentedColumns} ${presentedFrom("pm_tasks")}
        WHERE t.id = $1 AND ${options.deleted ? "t.deleted_at IS NOT NULL" : "t.deleted_at IS NULL"}`,
    [taskId]
  )
  if (rows.length === 0) return yield* new TaskNotFound()
  return presentRow(rows[0]!)
})

/** A task and the features of its space, in one statement (what a write checks first). */
export const getTaskForWrite = Effect.fnUntraced(function* (taskId: string) {
  const rows = yield* query<TaskRow & Presented & { spaceFeatures: Partial<Features> | null }>(
    `SELECT ${taskColumns}, ${presentedColumns}, s.features AS "spaceFeatures" ${presentedFrom("pm_tasks")}
        WHERE t.id = $1 AND t.deleted_at IS NULL`,
    [taskId]
  )
  if (rows.length === 0) return yield* new TaskNotFound()
  const { spaceFeatures, ...row } = rows[0]!
  return { task: presentRow(row), features: { ...defaultFeatures, ...(spaceFeatures ?? {}) } }
})

export const getTasks = (taskIds: ReadonlyArray<string>): Effect.Effect<Array<Task>, SqlError, Sql> =>
  Effect.map(
    query<TaskRow & Presented>(
      `SELECT ${taskColumns}, ${presentedColumns} ${presentedFrom("pm_tasks")} WHERE t.id = ANY($1::text[]) AND t.deleted_at IS NULL`,
      [taskIds]
    ),
    (rows) => rows.map(presentRow)
  )

/** One task (not deleted) by id, or null: what a task actor is built from. */
interface TaskById extends Request.Request<Task | null, SqlError, Sql> {
  readonly _tag: "TaskById"
  readonly taskId: string
}
const TaskById = Request.tagged<TaskById>("TaskById")

/**
 * The tasks asked for in one turn of the event loop, read in one statement: a burst of cold reads (a board
 * opening, a crawler, a restart) costs the database one round trip per turn, not one per task. Grouped by
 * where each asker's statements run (`connectionOf`): a read never joins another fiber's transaction.
 */
const tasksById = RequestResolver.makeGrouped<TaskById, object>({
  key: (entry) => connectionOf(entry.context),
  resolver: (entries) =>
    Effect.map(Effect.provideContext(getTasks([...new Set(entries.map((entry) => entry.request.taskId))]), entries[0].context), (tasks) => {
      const found = new Map(tasks.map((task) => [task.id, task] as const))
      for (const entry of entries) entry.completeUnsafe(Exit.succeed(found.get(entry.request.taskId) ?? null))
    })
})

/** A task by id, or null when there is none (or it is deleted); reads asked for together are batched. */
export const findTaskById = (taskId: string): Effect.Effect<Task | null, SqlError, Sql> => Effect.request(TaskById({ taskId }), tasksById)

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

/**
 * The WHERE clause of a filter; pushes its parameters onto `params`. Text is
 * matched by `LIKE`, which the trigram indexes serve, unless the rows are
 * `walked` in index order (a search's window): then by `strpos`, whose
 * selectivity PostgreSQL cannot guess either way, so the prepared statement
 * keeps one generic plan instead of planning every execution (`LIKE $n` with
 * a common word looks cheaper planned for its value, and planning was most
 * of that statement's cost).
 */
export const filterSql = (filter: TaskFilter, params: Array<unknown>, text: "indexed" | "walked" = "indexed"): string => {
  const add = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  const conditions = [`t.workspace_id = ${add(filter.workspaceId)}`, "t.deleted_at IS NULL", "l.deleted_at IS NULL", "s.deleted_at IS NULL"]
  params.push(filter.viewer.userId, filter.viewer.admin)
  conditions.push(visibleSpace("s", params.length - 1, params.length))
  const archived = filter.archived ?? "exclude"
  if (archived === "exclude") conditions.push("t.archived_at IS NULL")
  if (archived === "only") conditions.push("t.archived_at IS NOT NULL")
  if (filter.spaceIds?.length) conditions.push(`t.space_id = ANY(${add(filter.spaceIds)}::text[])`)
  if (filter.folderIds?.length) conditions.push(`l.folder_id = ANY(${add(filter.folderIds)}::text[])`)
  if (filter.listIds?.length) {
    const lists = add(filter.listIds)
    conditions.push(
      `(t.list_id = ANY(${lists}::text[]) OR EXISTS (SELECT 1 FROM pm_task_list_links k WHERE k.task_id = t.id AND k.list_id = ANY(${lists}::text[])))`
    )
  }
  if (filter.parentTaskId !== undefined) conditions.push(`t.parent_task_id = ${add(filter.parentTaskId)}`)
  if (filter.topLevelOnly) conditions.push("t.parent_task_id IS NULL")
  if (filter.statuses?.length) conditions.push(`lower(t.status) = ANY(${add(filter.statuses.map((s) => s.trim().toLowerCase()))}::text[])`)
  if (filter.priorities?.length) conditions.push(`t.priority = ANY(${add(filter.priorities)}::text[])`)
  if (filter.assigneeIds?.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id AND a.user_id = ANY(${add(filter.assigneeIds)}::text[]))`
    )
  }
  if (filter.tagNames?.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = t.id AND lower(g.name) = ANY(${add(filter.tagNames.map((n) => n.trim().toLowerCase()))}::text[]))`
    )
  }
  if (filter.q && text === "walked") {
    const word = add(filter.q.trim().toLowerCase())
    conditions.push(`(strpos(lower(t.name), ${word}) > 0 OR strpos(lower(t.description), ${word}) > 0 OR lower(t.short_id) = ${word})`)
  } else if (filter.q) {
    const pattern = add(
      `%${filter.q
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    )
    conditions.push(
      `(lower(t.name) LIKE ${pattern} OR lower(t.description) LIKE ${pattern} OR lower(t.short_id) = ${add(filter.q.trim().toLowerCase())})`
    )
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

/**
 * A page by offset, ordered as asked (ties broken by creation, then id), and
 * the total: one statement. The page is cut first and only its rows are
 * presented; an offset past the end needs a second statement for the total.
 */
export const findTasks = Effect.fnUntraced(function* (
  filter: TaskFilter,
  page: { readonly offset: number; readonly limit: number; readonly order?: TaskOrder; readonly direction?: "asc" | "desc" }
) {
  const params: Array<unknown> = []
  const where = filterSql(filter, params)
  const direction = page.direction === "desc" ? "DESC" : "ASC"
  const orderBy = `${orderColumns[page.order ?? "position"]} ${direction} NULLS LAST, t.created_at ${direction}, t.id ${direction}`
  const rows = yield* query<TaskRow & Presented & { total: number }>(
    `SELECT ${taskColumns}, t.total, ${presentedColumns}
         ${presentedFrom(`(SELECT t.*, count(*) OVER () AS total ${taskFrom} WHERE ${where} ORDER BY ${orderBy} LIMIT ${page.limit} OFFSET ${page.offset})`)}
        ORDER BY ${orderBy}`,
    params
  )
  const total =
    rows[0]?.total ??
    (page.offset === 0
      ? 0
      : (yield* query<{ total: number }>(`SELECT count(*)::int AS total ${taskFrom} WHERE ${where}`, params))[0]!.total)
  return { items: rows.map(presentRow), total, offset: page.offset, limit: page.limit }
})

/** Keyset position of a task in (created_at, id) order; `at` keeps the database's full precision. */
export interface Keyset {
  readonly at: string
  readonly id: string
}

/**
 * Tasks a text search first walks in (created_at, id) order. PostgreSQL
 * cannot estimate how many rows `LIKE '%word%'` keeps, so for a common word
 * it reads every match and sorts them; walking a window of the ordered index
 * finds the page after a few hundred rows. A page the window does not fill
 * is asked again without it, where the trigram indexes serve a rare word.
 */
const searchWindow = (limit: number) => Math.max(1_000, 50 * (limit + 1))

/**
 * What a search shows of a task: its row's own fields, its status, and its
 * assignees, tags and field values as far as a flat (Lite) form names them.
 * A `Task` is one.
 */
export interface FoundTask
  extends Pick<
    Task,
    | "id"
    | "shortId"
    | "name"
    | "description"
    | "priority"
    | "startDate"
    | "dueDate"
    | "timeEstimateMinutes"
    | "listId"
    | "parentTaskId"
    | "createdAt"
    | "updatedAt"
    | "closedAt"
    | "version"
  > {
  readonly status: Pick<Status, "name" | "type">
  readonly assignees: ReadonlyArray<UserRef>
  readonly tags: ReadonlyArray<Pick<Tag, "name">>
  readonly customFields: ReadonlyArray<{ readonly name: string; readonly value: unknown }>
}

/**
 * A page after `after` in (created_at, id) order: the ids of its tasks and
 * where each lives. Rows inserted while a client pages never shift the pages
 * it has not read yet, so a walk has no duplicates and skips nothing that
 * existed when it started. The tasks themselves are their actors' to show
 * (held in memory by those read lately); presenting them here cost three
 * quarters of the statement.
 */
export const findTaskKeysAfter = Effect.fnUntraced(function* (
  filter: TaskFilter,
  after: Keyset | undefined,
  limit: number,
  direction: "asc" | "desc"
) {
  const dir = direction === "asc" ? "ASC" : "DESC"
  const read = (windowed: boolean) => {
    const params: Array<unknown> = []
    const where = filterSql(filter, params, windowed ? "walked" : "indexed")
    let pastCursor = (_alias: string) => ""
    if (after) {
      params.push(after.at, after.id)
      const at = params.length - 1
      pastCursor = (alias) => ` AND (${alias}created_at, ${alias}id) ${direction === "asc" ? ">" : "<"} ($${at}::timestamptz, $${at + 1})`
    }
    // filterSql binds the workspace first, as $1.
    const from = windowed
      ? tasksFrom(`(SELECT * FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL${pastCursor("")}
                       ORDER BY created_at ${dir}, id ${dir} LIMIT ${searchWindow(limit)})`)
      : taskFrom
    return query<{ id: string; listId: string; keysetAt: string } & Place>(
      `SELECT t.id, t.list_id AS "listId", t.created_at::text AS "keysetAt", s.name AS "spaceName",
              (SELECT f.name FROM pm_folders f WHERE f.id = l.folder_id) AS "folderName", l.name AS "listName"
         ${from} WHERE ${where}${pastCursor("t.")} ORDER BY t.created_at ${dir}, t.id ${dir} LIMIT ${limit + 1}`,
      params
    )
  }
  // A window that holds the whole page is exact: any earlier match would be in it too.
  const windowed = filter.q ? yield* read(true) : []
  const rows = windowed.length > limit ? windowed : yield* read(false)
  const page = rows.slice(0, limit)
  const last = page[page.length - 1]
  const next: Keyset | undefined = rows.length > limit && last ? { at: last.keysetAt, id: last.id } : undefined
  const places = new Map(
    page.map((row) => [row.listId, { spaceName: row.spaceName, folderName: row.folderName, listName: row.listName }] as const)
  )
  return {
    ids: page.map((row) => row.id),
    next,
    /** Names of the space, folder and list of each task's home list, by list id (read in the same statement). */
    places
  }
})

/** Where a list is, by name. */
export interface Place {
  readonly spaceName: string
  readonly folderName: string | null
  readonly listName: string
}

/** Features of the space a task lives in (disabled ones are refused on its tasks). */
export const featuresOfSpace = (spaceId: string) =>
  Effect.map(query<{ features: Record<string, boolean> }>(`SELECT features FROM pm_spaces WHERE id = $1`, [spaceId]), (rows) => ({
    ...defaultFeatures,
    ...(rows[0]?.features ?? {})
  }))

const findStatusHistory = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ status: Schema.String, type: Schema.String, enteredAt: Schema.String }),
  execute: (taskId) => [
    `SELECT status, status_type AS type, entered_at AS "enteredAt" FROM pm_task_status_history WHERE task_id = $1 ORDER BY entered_at, id`,
    [taskId]
  ]
})

/** The statuses a task entered, oldest first. */
export const statusHistory = (taskId: string) => findStatusHistory(taskId)

/** The workspace's deleted tasks (in lists and spaces not deleted) the viewer may see, last deleted first. */
export const deletedTasks = (workspaceId: string, viewer: Viewer, page: { readonly offset: number; readonly limit: number }) =>
  Effect.flatMap(
    query<TaskRow>(
      `SELECT ${taskColumns} ${taskFrom} WHERE t.workspace_id = $1 AND t.deleted_at IS NOT NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL
        AND ${visibleSpace("s", 3, 2)}
      ORDER BY t.deleted_at DESC, t.id LIMIT $4 OFFSET $5`,
      [workspaceId, viewer.admin, viewer.userId, page.limit, page.offset]
    ),
    hydrate
  )

const findShortId = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ shortId: Schema.String }),
  execute: (taskId) => [`SELECT short_id AS "shortId" FROM pm_tasks WHERE id = $1`, [taskId]]
})

/** A task's short id (deleted tasks too), or "" when there is no such task. */
export const shortIdOfTask = (taskId: string) => Effect.map(findShortId(taskId), (row) => row?.shortId ?? "")

const findLinkedLists = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ listId: Schema.String }),
  execute: (taskId) => [
    `SELECT k.list_id AS "listId" FROM pm_task_list_links k JOIN pm_lists l ON l.id = k.list_id WHERE k.task_id = $1 AND l.deleted_at IS NULL ORDER BY k.added_at`,
    [taskId]
  ]
})

/** The (not deleted) lists a task is also in besides its home list, first added first. */
export const linkedListIds = (taskId: string) => Effect.map(findLinkedLists(taskId), (rows) => rows.map((row) => row.listId))

const findSubtree = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({
    id: Schema.String,
    shortId: Schema.String,
    name: Schema.String,
    status: Schema.String,
    parentId: Schema.NullOr(Schema.String)
  }),
  execute: (taskId) => [
    `WITH RECURSIVE tree AS (SELECT id FROM pm_tasks WHERE id = $1 UNION ALL SELECT t.id FROM pm_tasks t JOIN tree ON t.parent_task_id = tree.id WHERE t.deleted_at IS NULL)
     SELECT t.id, t.short_id AS "shortId", t.name, t.status, t.parent_task_id AS "parentId" FROM pm_tasks t WHERE t.id IN (SELECT id FROM tree) ORDER BY t.position, t.created_at`,
    [taskId]
  ]
})

/** A task and its (not deleted) subtasks at every depth, each with its parent, in order. */
export const subtaskTree = (taskId: string) => findSubtree(taskId)

const findCustomValues = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ fieldId: Schema.String, value: Schema.Unknown }),
  execute: (taskId) => [`SELECT field_id AS "fieldId", value FROM pm_task_custom_values WHERE task_id = $1`, [taskId]]
})

/** The custom field values stored for a task (as stored, by field id). */
export const customValuesOf = (taskId: string) => findCustomValues(taskId)
