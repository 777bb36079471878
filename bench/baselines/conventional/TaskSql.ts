/**
 * The conventional stack's SQL: each request is one statement (reads) or one
 * short transaction (writes) on Atrium's own tables (persistence/migrations),
 * written the way a developer without actors would: sub-selects and
 * `json_build_object` build the reply in the database, which returns it as
 * JSON text that is sent as is.
 *
 * The replies have the shapes Atrium's operations document: `Task` (getTask,
 * updateTask, createTask) and `LiteTaskPage` (searchTasksLite). Access is
 * checked in the same statement: the caller must be a member of the task's
 * workspace (the workspace's member list, as Atrium stores it), and see the
 * space (not private, or an admin, or a member of the space).
 */
import type { Db, Queries } from "./Db.ts"

/** ISO 8601 UTC with milliseconds, as Atrium writes timestamps ("2026-01-01T00:00:00.000Z"). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The caller's role in the workspace `workspaceExpr` (no row: not a member). `$u` is the caller's user id. */
const roleOf = (workspaceExpr: string, u: string) =>
  `(SELECT m->>'role' FROM actor_state w, jsonb_array_elements(w.state->'members') m
     WHERE w.kind = 'workspace' AND w.id = ${workspaceExpr} AND m->>'userId' = ${u} LIMIT 1)`

/** Space `s` is visible to the caller of role `role`. */
const visible = (role: string, u: string) =>
  `(NOT s.is_private OR ${role} IN ('owner', 'admin') OR EXISTS (SELECT 1 FROM pm_space_members sm WHERE sm.space_id = s.id AND sm.user_id = ${u}))`

/** The status of task `t` in its list's workflow (list, else folder, else space), with type and color. */
const statusOf = `(SELECT st.name, st.type, st.color FROM pm_statuses st
   WHERE ((st.scope_type = 'list' AND st.scope_id = t.list_id) OR (st.scope_type = 'folder' AND st.scope_id = l.folder_id)
          OR (st.scope_type = 'space' AND st.scope_id = t.space_id))
     AND lower(st.name) = lower(t.status)
   ORDER BY CASE st.scope_type WHEN 'list' THEN 0 WHEN 'folder' THEN 1 ELSE 2 END LIMIT 1)`

/** A custom field value as the API shows it: dropdown → its option, labels → their options. */
const presentedValue = `CASE f.type
  WHEN 'dropdown' THEN (SELECT o FROM jsonb_array_elements(f.config->'options') o WHERE o->>'id' = v.value#>>'{}' LIMIT 1)
  WHEN 'labels' THEN (SELECT COALESCE(jsonb_agg(o), '[]'::jsonb) FROM jsonb_array_elements(f.config->'options') o WHERE v.value ? (o->>'id'))
  ELSE v.value END`

/** The Lite display of a value: options by name. */
const displayedValue = `CASE f.type
  WHEN 'dropdown' THEN (SELECT o->'name' FROM jsonb_array_elements(f.config->'options') o WHERE o->>'id' = v.value#>>'{}' LIMIT 1)
  WHEN 'labels' THEN (SELECT COALESCE(jsonb_agg(o->'name'), '[]'::jsonb) FROM jsonb_array_elements(f.config->'options') o WHERE v.value ? (o->>'id'))
  ELSE v.value END`

/** Task `t` (list `l`, status `st`) as the `Task` schema. */
const taskJson = `json_build_object(
  'id', t.id, 'workspaceId', t.workspace_id, 'spaceId', t.space_id, 'folderId', l.folder_id, 'listId', t.list_id,
  'parentTaskId', t.parent_task_id, 'shortId', t.short_id, 'name', t.name, 'description', t.description,
  'status', json_build_object('name', COALESCE(st.name, t.status), 'type', COALESCE(st.type, 'open'), 'color', COALESCE(st.color, '#87909e')),
  'priority', t.priority, 'startDate', ${iso("t.start_date")}, 'dueDate', ${iso("t.due_date")},
  'timeEstimateMinutes', t.time_estimate_minutes, 'position', t.position,
  'assignees', COALESCE((SELECT json_agg(json_build_object('id', a.user_id, 'email', COALESCE(u.state->>'email', ''), 'name', COALESCE(u.state->>'name', ''))
                                  ORDER BY a.assigned_at, a.user_id)
                           FROM pm_task_assignees a LEFT JOIN actor_state u ON u.kind = 'account' AND u.state->>'userId' = a.user_id
                          WHERE a.task_id = t.id), '[]'),
  'watcherIds', COALESCE((SELECT json_agg(wt.user_id ORDER BY wt.added_at) FROM pm_watchers wt WHERE wt.scope_type = 'task' AND wt.scope_id = t.id), '[]'),
  'tags', COALESCE((SELECT json_agg(json_build_object('id', g.id, 'spaceId', g.space_id, 'name', g.name, 'color', g.color, 'createdAt', ${iso("g.created_at")})
                             ORDER BY lower(g.name))
                      FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = t.id), '[]'),
  'customFields', COALESCE((SELECT json_agg(json_build_object('fieldId', f.id, 'name', f.name, 'type', f.type, 'value', ${presentedValue})
                                     ORDER BY f.position, f.created_at)
                              FROM pm_task_custom_values v JOIN pm_custom_fields f ON f.id = v.field_id WHERE v.task_id = t.id), '[]'),
  'subtaskCount', (SELECT count(*) FROM pm_tasks c WHERE c.parent_task_id = t.id AND c.deleted_at IS NULL),
  'recurrence', t.recurrence, 'createdBy', t.created_by, 'createdAt', ${iso("t.created_at")}, 'updatedAt', ${iso("t.updated_at")},
  'closedAt', ${iso("t.closed_at")}, 'archived', t.archived_at IS NOT NULL, 'archivedAt', ${iso("t.archived_at")},
  'deletedAt', ${iso("t.deleted_at")}, 'version', t.version)`

/** Task `t` as the `LiteTask` schema (names instead of ids). */
const liteJson = `json_build_object(
  'id', t.id, 'shortId', t.short_id, 'name', t.name, 'description', t.description,
  'status', COALESCE(st.name, t.status), 'statusType', COALESCE(st.type, 'open'), 'priority', t.priority,
  'startDate', ${iso("t.start_date")}, 'dueDate', ${iso("t.due_date")}, 'timeEstimateMinutes', t.time_estimate_minutes,
  'space', s.name, 'folder', fo.name, 'list', l.name, 'listId', t.list_id, 'parentTaskId', t.parent_task_id,
  'assignees', COALESCE((SELECT json_agg(COALESCE(u.state->>'email', '') ORDER BY a.assigned_at, a.user_id)
                           FROM pm_task_assignees a LEFT JOIN actor_state u ON u.kind = 'account' AND u.state->>'userId' = a.user_id
                          WHERE a.task_id = t.id), '[]'),
  'tags', COALESCE((SELECT json_agg(g.name ORDER BY lower(g.name)) FROM pm_task_tags tt JOIN pm_tags g ON g.id = tt.tag_id WHERE tt.task_id = t.id), '[]'),
  'customFields', COALESCE((SELECT json_object_agg(f.name, ${displayedValue} ORDER BY f.position, f.created_at)
                              FROM pm_task_custom_values v JOIN pm_custom_fields f ON f.id = v.field_id WHERE v.task_id = t.id), '{}'),
  'createdAt', ${iso("t.created_at")}, 'updatedAt', ${iso("t.updated_at")}, 'closedAt', ${iso("t.closed_at")}, 'version', t.version)`

// ------------------------------------------------------------------ reads ---

const GET_TASK = `SELECT ${taskJson}::text AS body
  FROM pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
  CROSS JOIN LATERAL (SELECT ${roleOf("t.workspace_id", "$2")} AS role) me
  LEFT JOIN LATERAL ${statusOf} st ON true
 WHERE t.id = $1 AND t.deleted_at IS NULL AND me.role IS NOT NULL AND ${visible("me.role", "$2")}`

/** The task as JSON text, or undefined when it doesn't exist or the caller may not see it. */
export const getTask = async (db: Queries, taskId: string, userId: string): Promise<string | undefined> =>
  (await db.query<{ body: string }>(GET_TASK, [taskId, userId]))[0]?.body

export interface SearchPage {
  /** LiteTask JSON texts, in (created_at, id) order. */
  readonly items: ReadonlyArray<string>
  /** Keyset of the last item when more follow. */
  readonly next: { readonly at: string; readonly id: string } | undefined
  /** The caller is a member of the workspace. */
  readonly member: boolean
}

/**
 * searchTasksLite's text search as Atrium defines it: tasks of the workspace
 * the caller sees, not deleted or archived, whose name or description
 * contains `q` (case-insensitive) or whose short id is `q`; keyset pages on
 * (created_at, id).
 */
const SEARCH = (after: boolean) => `WITH me AS (SELECT ${roleOf("$1", "$2")} AS role)
SELECT ${liteJson}::text AS item, t.created_at::text AS at, t.id
  FROM me, pm_tasks t JOIN pm_lists l ON l.id = t.list_id JOIN pm_spaces s ON s.id = t.space_id
  LEFT JOIN pm_folders fo ON fo.id = l.folder_id
  LEFT JOIN LATERAL ${statusOf} st ON true
 WHERE me.role IS NOT NULL AND t.workspace_id = $1 AND t.deleted_at IS NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL
   AND ${visible("me.role", "$2")} AND t.archived_at IS NULL
   AND (lower(t.name) LIKE $3 OR lower(t.description) LIKE $3 OR lower(t.short_id) = $4)
   ${after ? "AND (t.created_at, t.id) > ($6::timestamptz, $7)" : ""}
 ORDER BY t.created_at, t.id LIMIT $5`

const IS_MEMBER = `SELECT ${roleOf("$1", "$2")} AS role`

export const searchTasks = async (
  db: Queries,
  input: {
    readonly workspaceId: string
    readonly userId: string
    readonly q: string
    readonly limit: number
    readonly after?: { at: string; id: string }
  }
): Promise<SearchPage> => {
  const text = input.q.trim().toLowerCase()
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  const params: Array<unknown> = [input.workspaceId, input.userId, pattern, text, input.limit + 1]
  if (input.after) params.push(input.after.at, input.after.id)
  const rows = await db.query<{ item: string; at: string; id: string }>(SEARCH(input.after !== undefined), params)
  const page = rows.slice(0, input.limit)
  const last = page.at(-1)
  // An empty page may mean "not a member": only then is it asked.
  const member = rows.length > 0 || (await db.query<{ role: string | null }>(IS_MEMBER, [input.workspaceId, input.userId]))[0]?.role != null
  return { items: page.map((r) => r.item), next: rows.length > input.limit && last ? { at: last.at, id: last.id } : undefined, member }
}

// ----------------------------------------------------------------- writes ---

/**
 * The change log, as actors/pm/ChangeLogLive.ts writes it: the workspace's
 * counter row is bumped (its lock serializes the workspace's writers, so
 * commit order is seq order) and the event gets the new seq.
 */
const APPEND_EVENT = `WITH c AS (
  INSERT INTO pm_event_counters (workspace_id, last_seq) VALUES ($1, 1)
  ON CONFLICT (workspace_id) DO UPDATE SET last_seq = pm_event_counters.last_seq + 1
  RETURNING last_seq)
INSERT INTO pm_events (workspace_id, seq, type, scope, entity_id, space_id, list_id, task_id, private_space, data, actor_id, at)
SELECT $1, c.last_seq, $2, 'task', $3, $4, $5, $3, $6, $7::text::jsonb, $8, now() FROM c`

interface Located {
  readonly workspace_id: string
  readonly space_id: string
  readonly list_id: string
  readonly is_private: boolean
}

const appendEvent = (tx: Queries, type: string, taskId: string, at: Located, data: unknown, userId: string) =>
  tx.query(APPEND_EVENT, [at.workspace_id, type, taskId, at.space_id, at.list_id, at.is_private, JSON.stringify(data), userId])

export interface TaskPatch {
  readonly name?: string
  readonly description?: string
}

/** Members and above write; viewers only read. */
const writer = `me.role IN ('owner', 'admin', 'member')`

// (The target table can't be referenced laterally in FROM: the role is a sub-select, twice.)
const UPDATE_TASK = `UPDATE pm_tasks t
   SET name = COALESCE($3, t.name), description = COALESCE($4, t.description), version = t.version + 1, updated_at = now()
  FROM pm_spaces s
 WHERE t.id = $1 AND t.deleted_at IS NULL AND s.id = t.space_id
   AND ${roleOf("t.workspace_id", "$2")} IN ('owner', 'admin', 'member') AND ${visible(roleOf("t.workspace_id", "$2"), "$2")}
RETURNING t.workspace_id, t.space_id, t.list_id, s.is_private, t.version`

/** One UPDATE and its change-log entry in one transaction; then the task as JSON text (undefined: not found or not allowed). */
export const updateTask = async (db: Db, taskId: string, patch: TaskPatch, userId: string): Promise<string | undefined> => {
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx.query<Located & { version: number }>(UPDATE_TASK, [
      taskId,
      userId,
      patch.name ?? null,
      patch.description ?? null
    ])
    if (row === undefined) return false
    await appendEvent(tx, "task.updated", taskId, row, { ...patch, version: row.version }, userId)
    return true
  })
  return updated ? getTask(db, taskId, userId) : undefined
}

/**
 * A task in list `$1` named `$3`, by `$4`: the workspace's next short id, the
 * workflow's first open status, the end of the list, the creator watching,
 * the status history's first entry. One statement.
 */
const INSERT_TASK = `WITH home AS (
  SELECT l.id, l.workspace_id, l.space_id, l.folder_id, s.is_private
    FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id
    CROSS JOIN LATERAL (SELECT ${roleOf("l.workspace_id", "$4")} AS role) me
   WHERE l.id = $1 AND l.deleted_at IS NULL AND s.deleted_at IS NULL AND ${writer} AND ${visible("me.role", "$4")}),
short AS (
  INSERT INTO pm_short_id_counters (workspace_id, prefix, next_value) SELECT workspace_id, 'T', 2 FROM home
  ON CONFLICT (workspace_id, prefix) DO UPDATE SET next_value = pm_short_id_counters.next_value + 1
  RETURNING next_value - 1 AS value),
initial AS (
  SELECT st.name, st.type FROM pm_statuses st, home
   WHERE (st.scope_type = 'list' AND st.scope_id = home.id) OR (st.scope_type = 'folder' AND st.scope_id = home.folder_id)
      OR (st.scope_type = 'space' AND st.scope_id = home.space_id)
   ORDER BY CASE st.scope_type WHEN 'list' THEN 0 WHEN 'folder' THEN 1 ELSE 2 END, st.type <> 'open', st.position LIMIT 1),
task AS (
  INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, short_id, name, status, position, created_by, closed_at)
  SELECT $2, home.workspace_id, home.space_id, home.id, 'T-' || short.value, $3, initial.name,
         (SELECT COALESCE(max(position), 0) + 1 FROM pm_tasks WHERE list_id = home.id), $4,
         CASE WHEN initial.type IN ('done', 'closed') THEN now() END
    FROM home, short, initial
  RETURNING id, short_id, status),
watching AS (INSERT INTO pm_watchers (scope_type, scope_id, user_id) SELECT 'task', id, $4 FROM task),
history AS (INSERT INTO pm_task_status_history (id, task_id, status, status_type, entered_by) SELECT $5, task.id, initial.name, initial.type, $4 FROM task, initial)
SELECT home.workspace_id, home.space_id, home.id AS list_id, home.is_private, task.short_id, task.status FROM home, task`

/** The INSERT and its change-log entry in one transaction; then the task as JSON text (undefined: no such list or not allowed). */
export const createTask = async (db: Db, listId: string, name: string, userId: string): Promise<string | undefined> => {
  const taskId = crypto.randomUUID()
  const created = await db.transaction(async (tx) => {
    const [row] = await tx.query<Located & { short_id: string; status: string }>(INSERT_TASK, [
      listId,
      taskId,
      name,
      userId,
      crypto.randomUUID()
    ])
    if (row === undefined) return false
    await appendEvent(tx, "task.created", taskId, row, { name, shortId: row.short_id, status: row.status, listId }, userId)
    return true
  })
  return created ? getTask(db, taskId, userId) : undefined
}
