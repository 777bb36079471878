/**
 * Commands on tasks: those of the list actor (creating tasks in the list,
 * adding tasks to it from elsewhere) and those of the task actor (every
 * change of one task and its parts). Each returns its result and changes;
 * the actor runs it inside `ChangeLog.transact`.
 */
import { Effect } from "effect"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { Change, Notify } from "./ChangeLog.ts"
import { change, notifyUsers } from "./Changes.ts"
import { locateList, locateTask } from "./Locate.ts"
import { requireMembers } from "./Members.ts"
import { closestStatus, effectiveStatuses, findStatus } from "./Statuses.ts"
import { getList } from "./StructureReads.ts"
import { getTask } from "./TaskReads.ts"
import {
  checkFeatures,
  checkFieldValues,
  type Home,
  insertTask,
  type NewTask,
  patchTask,
  type Recurrence,
  recordStatus,
  tagByName,
  type TaskPatch,
  taskWhere,
  touchTask,
  writeFieldValues
} from "./TaskWrites.ts"
import { featuresOfSpace } from "./TaskReads.ts"
import { isFinished, type Task } from "./WorkRecords.ts"

type Result<A> = Effect.Effect<{ readonly result: A; readonly changes: ReadonlyArray<Change> }, Rejection | SqlError, Sql>

const homeOf = (listId: string) =>
  Effect.map(getList(listId), (list): Home => ({ workspaceId: list.workspaceId, spaceId: list.spaceId, folderId: list.folderId, listId: list.id }))

/** A template of a task: what a copy or a template keeps (no ids of the original). */
export interface TaskTemplate extends NewTask {
  readonly checklists?: ReadonlyArray<{ readonly name: string; readonly items: ReadonlyArray<{ readonly name: string; readonly resolved?: boolean }> }>
  readonly subtasks?: ReadonlyArray<TaskTemplate>
}

/** What a task looks like as a template (custom values by field id; they apply where those fields do). */
export const templateOf = (taskId: string, depth = 0): Effect.Effect<TaskTemplate, Rejection | SqlError, Sql> =>
  Effect.gen(function* () {
    const task = yield* getTask(taskId)
    const checklists = yield* query<{ id: string; name: string }>(`SELECT id, name FROM pm_checklists WHERE task_id = $1 ORDER BY position, created_at`, [taskId])
    const items = yield* query<{ checklistId: string; name: string; resolved: boolean }>(
      `SELECT checklist_id AS "checklistId", name, resolved FROM pm_checklist_items WHERE task_id = $1 ORDER BY position, created_at`,
      [taskId]
    )
    const values = yield* query<{ fieldId: string; value: unknown }>(`SELECT field_id AS "fieldId", value FROM pm_task_custom_values WHERE task_id = $1`, [taskId])
    const children = depth < 5
      ? yield* query<{ id: string }>(`SELECT id FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL ORDER BY position, created_at`, [taskId])
      : []
    return {
      name: task.name,
      description: task.description,
      priority: task.priority,
      startDate: task.startDate,
      dueDate: task.dueDate,
      timeEstimateMinutes: task.timeEstimateMinutes,
      assigneeIds: task.assignees.map((a) => a.id),
      tagNames: task.tags.map((t) => t.name),
      customFields: Object.fromEntries(values.map((v) => [v.fieldId, v.value])),
      checklists: checklists.map((c) => ({ name: c.name, items: items.filter((i) => i.checklistId === c.id).map((i) => ({ name: i.name, resolved: i.resolved })) })),
      subtasks: yield* Effect.forEach(children, (child) => templateOf(child.id, depth + 1))
    }
  })

const insertChecklist = (taskId: string, name: string, position: number, by: string) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    yield* query(`INSERT INTO pm_checklists (id, task_id, name, position, created_by) VALUES ($1, $2, $3, $4, $5)`, [id, taskId, name.trim(), position, by])
    return id
  })

/** Creates a task (and its checklists and subtasks) from a template in `home`; values of fields that do not apply there are left out. */
export const instantiate = (home: Home, template: TaskTemplate, overrides: Partial<NewTask>, by: string): Effect.Effect<{ task: Task; changes: Array<Change> }, Rejection | SqlError, Sql> =>
  Effect.gen(function* () {
    const { checklists, subtasks, ...fields } = template
    const applicable = yield* Effect.map(query<{ id: string }>(
      `SELECT id FROM pm_custom_fields WHERE (scope_type = 'space' AND scope_id = $1) OR (scope_type = 'folder' AND scope_id = $2) OR (scope_type = 'list' AND scope_id = $3)`,
      [home.spaceId, home.folderId ?? "", home.listId]
    ), (rows) => new Set(rows.map((r) => r.id)))
    const customFields = Object.fromEntries(Object.entries(fields.customFields ?? {}).filter(([id]) => applicable.has(id)))
    const members = yield* Effect.map(query<{ members: Array<{ userId: string }> | null }>(
      `SELECT state->'members' AS members FROM actor_state WHERE kind = 'workspace' AND id = $1`, [home.workspaceId]
    ), (rows) => new Set((rows[0]?.members ?? []).map((m) => m.userId)))
    const features = yield* featuresOfSpace(home.spaceId)
    const created = yield* insertTask(home, {
      ...fields,
      ...(features.priorities ? {} : { priority: null }),
      ...(features.dueDates ? {} : { dueDate: null }),
      ...(features.startDates ? {} : { startDate: null }),
      ...(features.timeEstimates ? {} : { timeEstimateMinutes: null }),
      ...(features.tags ? {} : { tagNames: [] }),
      assigneeIds: (fields.assigneeIds ?? []).filter((id) => members.has(id)).slice(0, features.multipleAssignees ? undefined : 1),
      customFields: features.customFields ? customFields : {},
      status: undefined,
      ...overrides
    }, by)
    const changes = [...created.changes]
    for (const [index, checklist] of (checklists ?? []).entries()) {
      const checklistId = yield* insertChecklist(created.task.id, checklist.name, index + 1, by)
      for (const [itemIndex, item] of checklist.items.entries()) {
        yield* query(`INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, resolved, position, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          crypto.randomUUID(), checklistId, created.task.id, item.name, item.resolved ?? false, itemIndex + 1, by
        ])
      }
    }
    for (const subtask of subtasks ?? []) {
      changes.push(...(yield* instantiate(home, subtask, { parentTaskId: created.task.id }, by)).changes)
    }
    return { task: yield* getTask(created.task.id), changes }
  })

// ---------------------------------------------------------------------------
// List actor: tasks entering the list.

export const listTaskCommands = {
  createTask: (input: NewTask, by: string, listId: string): Result<unknown> =>
    Effect.gen(function* () {
      const home = yield* homeOf(listId)
      const { task, changes } = yield* insertTask(home, input, by)
      return { result: task, changes }
    }),

  bulkCreateTasks: (input: { readonly tasks: ReadonlyArray<NewTask> }, by: string, listId: string): Result<unknown> =>
    Effect.gen(function* () {
      const home = yield* homeOf(listId)
      const items: Array<Task> = []
      const changes: Array<Change> = []
      for (const [index, task] of input.tasks.entries()) {
        const created = yield* insertTask(home, task, by, `body.tasks.${index}`)
        items.push(created.task)
        changes.push(...created.changes)
      }
      return { result: { items }, changes }
    }),

  /** Creates a task from a saved template or from a copy of another task. */
  instantiateTask: (input: { readonly template: TaskTemplate; readonly name?: string }, by: string, listId: string): Result<unknown> =>
    Effect.gen(function* () {
      const home = yield* homeOf(listId)
      const { task, changes } = yield* instantiate(home, input.template, input.name ? { name: input.name } : {}, by)
      return { result: task, changes }
    }),

  /** The task also appears in this list (its home list stays). */
  addTaskLink: (input: { readonly taskId: string }, by: string, listId: string): Result<unknown> =>
    Effect.gen(function* () {
      const list = yield* locateList(listId)
      const task = yield* locateTask(input.taskId)
      if (task.workspaceId !== list.workspaceId) return yield* reject("not_found", "No such task")
      if (task.listId === listId) return yield* reject("conflict", "This is the task's home list")
      const added = yield* query(`INSERT INTO pm_task_list_links (task_id, list_id, added_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING task_id`, [input.taskId, listId, by])
      if (added.length === 0) return yield* reject("conflict", "The task is already in this list")
      return { result: { taskId: input.taskId, listId }, changes: [change({ workspaceId: list.workspaceId, spaceId: list.spaceId, listId }, "list.task_added", input.taskId, { taskId: input.taskId }, by)] }
    }),

  removeTaskLink: (input: { readonly taskId: string }, by: string, listId: string): Result<unknown> =>
    Effect.gen(function* () {
      const list = yield* locateList(listId)
      const removed = yield* query(`DELETE FROM pm_task_list_links WHERE task_id = $1 AND list_id = $2 RETURNING task_id`, [input.taskId, listId])
      if (removed.length === 0) return yield* reject("not_found", "The task is not linked to this list")
      return { result: undefined, changes: [change({ workspaceId: list.workspaceId, spaceId: list.spaceId, listId }, "list.task_removed", input.taskId, { taskId: input.taskId }, by)] }
    })
}

// ---------------------------------------------------------------------------
// Task actor.

const updated = (task: Task, type: string, data: Record<string, unknown>, by: string, notify: ReadonlyArray<Notify> = []) =>
  change(taskWhere(task), type, task.id, data, by, notify)

/** The task and its descendants (subtasks move with their parent). */
const subtreeIds = (taskId: string) =>
  Effect.map(
    query<{ id: string }>(
      `WITH RECURSIVE tree AS (SELECT id FROM pm_tasks WHERE id = $1 UNION ALL SELECT t.id FROM pm_tasks t JOIN tree ON t.parent_task_id = tree.id WHERE t.deleted_at IS NULL)
       SELECT id FROM tree`,
      [taskId]
    ),
    (rows) => rows.map((r) => r.id)
  )

/** Moves tasks (a subtree) to `home`: statuses by name or type, custom values that still apply, tags mapped by name. */
export const relocate = (taskIds: ReadonlyArray<string>, home: Home, by: string, mapping: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const target = (yield* effectiveStatuses(home)).items
    const tasks = yield* Effect.forEach(taskIds, (id) => getTask(id))
    for (const task of tasks) {
      const explicit = Object.entries(mapping).find(([from]) => from.toLowerCase() === task.status.name.toLowerCase())?.[1]
      const status = (explicit ? findStatus(target, explicit) : undefined) ?? findStatus(target, task.status.name) ?? closestStatus(target, task.status.type)!
      yield* query(
        `UPDATE pm_tasks SET list_id = $2, space_id = $3, status = $4, version = version + 1, updated_at = now(),
                closed_at = ${isFinished(status.type) ? "COALESCE(closed_at, now())" : "NULL"} WHERE id = $1`,
        [task.id, home.listId, home.spaceId, status.name]
      )
      if (status.name !== task.status.name) yield* recordStatus(task.id, status, by)
      yield* query(`DELETE FROM pm_task_list_links WHERE task_id = $1 AND list_id = $2`, [task.id, home.listId])
      yield* query(
        `DELETE FROM pm_task_custom_values v USING pm_custom_fields f WHERE v.field_id = f.id AND v.task_id = $1
            AND NOT ((f.scope_type = 'space' AND f.scope_id = $2) OR (f.scope_type = 'folder' AND f.scope_id = $3) OR (f.scope_type = 'list' AND f.scope_id = $4))`,
        [task.id, home.spaceId, home.folderId ?? "", home.listId]
      )
      if (task.spaceId !== home.spaceId) {
        yield* query(`DELETE FROM pm_task_tags WHERE task_id = $1`, [task.id])
        for (const tag of task.tags) {
          const tagId = yield* tagByName(home.workspaceId, home.spaceId, tag.name, by, tag.color)
          yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [task.id, tagId])
        }
      }
    }
    return tasks
  })

const isDescendant = (ancestorId: string, candidateId: string) =>
  Effect.map(subtreeIds(ancestorId), (ids) => ids.includes(candidateId))

export interface TimeEntryInput {
  readonly startedAt: string
  readonly endedAt?: string
  readonly durationMinutes?: number
  readonly note?: string
  readonly billable?: boolean
}

export const timeEntryColumns = `id, task_id AS "taskId", user_id AS "userId", started_at AS "startedAt", ended_at AS "endedAt",
  CASE WHEN ended_at IS NULL THEN NULL ELSE round(extract(epoch FROM ended_at - started_at) / 60)::int END AS "durationMinutes",
  note, billable, created_at AS "createdAt"`

export const taskCommands = {
  update: (patch: TaskPatch, by: string, taskId: string): Result<unknown> =>
    Effect.map(patchTask(taskId, patch, by), ({ task, changes }) => ({ result: task, changes })),

  setArchived: (input: { readonly archived: boolean }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      if (task.archived === input.archived) return yield* reject("conflict", input.archived ? "The task is already archived" : "The task is not archived")
      yield* query(`UPDATE pm_tasks SET archived_at = ${input.archived ? "now()" : "NULL"}, version = version + 1, updated_at = now() WHERE id = $1`, [taskId])
      return { result: yield* getTask(taskId), changes: [updated(task, input.archived ? "task.archived" : "task.restored", {}, by)] }
    }),

  /** To the trash, with its subtasks; `undelete` brings them back. */
  delete: (_: {}, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const ids = yield* subtreeIds(taskId)
      yield* query(`UPDATE pm_tasks SET deleted_at = now(), deleted_by = $2, version = version + 1 WHERE id = ANY($1::text[]) AND deleted_at IS NULL`, [ids, by])
      return { result: undefined, changes: [updated(task, "task.deleted", { name: task.name, shortId: task.shortId, subtasks: ids.length - 1 }, by)] }
    }),

  undelete: (_: {}, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const trashed = yield* getTask(taskId, { deleted: true })
      // Subtasks deleted together with it come back with it.
      yield* query(
        `WITH RECURSIVE tree AS (SELECT id, deleted_at FROM pm_tasks WHERE id = $1
           UNION ALL SELECT t.id, t.deleted_at FROM pm_tasks t JOIN tree ON t.parent_task_id = tree.id WHERE t.deleted_at = (SELECT deleted_at FROM pm_tasks WHERE id = $1))
         UPDATE pm_tasks SET deleted_at = NULL, deleted_by = NULL, version = version + 1, updated_at = now() WHERE id IN (SELECT id FROM tree)`,
        [taskId]
      )
      if (trashed.parentTaskId) {
        const parent = yield* query(`SELECT 1 FROM pm_tasks WHERE id = $1 AND deleted_at IS NULL`, [trashed.parentTaskId])
        if (parent.length === 0) yield* query(`UPDATE pm_tasks SET parent_task_id = NULL WHERE id = $1`, [taskId])
      }
      const task = yield* getTask(taskId)
      return { result: task, changes: [updated(task, "task.undeleted", {}, by)] }
    }),

  move: (input: { readonly listId: string; readonly statusMapping?: Record<string, string> }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const target = yield* locateList(input.listId)
      if (target.workspaceId !== task.workspaceId) return yield* reject("not_found", "No such list")
      if (task.listId === input.listId) return { result: task, changes: [] }
      const ids = yield* subtreeIds(taskId)
      const home: Home = { workspaceId: target.workspaceId, spaceId: target.spaceId, folderId: target.folderId, listId: input.listId }
      const position = yield* Effect.map(query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_tasks WHERE list_id = $1`, [input.listId]), (r) => Number(r[0]!.p))
      yield* relocate(ids, home, by, input.statusMapping)
      if (task.parentTaskId) yield* query(`UPDATE pm_tasks SET parent_task_id = NULL WHERE id = $1`, [taskId])
      yield* query(`UPDATE pm_tasks SET position = $2 WHERE id = $1`, [taskId, position])
      const moved = yield* getTask(taskId)
      const data = { fromListId: task.listId, toListId: input.listId, fromSpaceId: task.spaceId, toSpaceId: target.spaceId, status: moved.status.name, subtasks: ids.length - 1 }
      return {
        result: moved,
        changes: [updated(task, "task.moved", data, by), updated(moved, "task.moved", data, by)]
      }
    }),

  /** Places the task right after `afterTaskId` in its list (null: first). */
  setPosition: (input: { readonly afterTaskId: string | null }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      let position: number
      if (input.afterTaskId === null) {
        const first = yield* query<{ p: number | null }>(`SELECT MIN(position) AS p FROM pm_tasks WHERE list_id = $1 AND id <> $2 AND deleted_at IS NULL`, [task.listId, taskId])
        position = (first[0]?.p ?? 1) - 1
      } else {
        if (input.afterTaskId === taskId) return yield* reject("invalid", "A task cannot follow itself", [{ path: "body.afterTaskId", message: "same task" }])
        const after = yield* query<{ position: number }>(`SELECT position FROM pm_tasks WHERE id = $1 AND list_id = $2 AND deleted_at IS NULL`, [input.afterTaskId, task.listId])
        if (after.length === 0) return yield* reject("invalid", "afterTaskId must be a task of the same list", [{ path: "body.afterTaskId", message: "not in this list" }])
        const next = yield* query<{ p: number | null }>(
          `SELECT MIN(position) AS p FROM pm_tasks WHERE list_id = $1 AND position > $2 AND id <> $3 AND deleted_at IS NULL`,
          [task.listId, after[0]!.position, taskId]
        )
        position = next[0]?.p == null ? after[0]!.position + 1 : (after[0]!.position + next[0].p) / 2
      }
      yield* query(`UPDATE pm_tasks SET position = $2, version = version + 1, updated_at = now() WHERE id = $1`, [taskId, position])
      return { result: yield* getTask(taskId), changes: [updated(task, "task.reordered", { afterTaskId: input.afterTaskId, position }, by)] }
    }),

  /** Makes the task a subtask of `parentTaskId` (moving it to the parent's list), or a top-level task (null). */
  setParent: (input: { readonly parentTaskId: string | null }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      if (input.parentTaskId === task.parentTaskId) return { result: task, changes: [] }
      if (input.parentTaskId !== null) {
        if (input.parentTaskId === taskId) return yield* reject("conflict", "A task cannot be its own parent")
        const parent = yield* locateTask(input.parentTaskId).pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }]) : e)))
        if (parent.workspaceId !== task.workspaceId) return yield* reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }])
        if (yield* isDescendant(taskId, input.parentTaskId)) return yield* reject("conflict", "A task cannot become a subtask of its own subtask")
        if (parent.listId !== task.listId) {
          const ids = yield* subtreeIds(taskId)
          yield* relocate(ids, { workspaceId: parent.workspaceId, spaceId: parent.spaceId, folderId: parent.folderId, listId: parent.listId! }, by)
        }
      }
      yield* query(`UPDATE pm_tasks SET parent_task_id = $2, version = version + 1, updated_at = now() WHERE id = $1`, [taskId, input.parentTaskId])
      const result = yield* getTask(taskId)
      return { result, changes: [updated(result, "task.updated", { parentTaskId: input.parentTaskId, previous: { parentTaskId: task.parentTaskId }, version: result.version }, by)] }
    }),

  /** Folds other tasks into this one: their comments, attachments, checklists, subtasks, assignees, watchers, tags and time; then trashes them. */
  merge: (input: { readonly sourceTaskIds: ReadonlyArray<string> }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const target = yield* getTask(taskId)
      const changes: Array<Change> = []
      for (const [index, sourceId] of input.sourceTaskIds.entries()) {
        const path = `body.sourceTaskIds.${index}`
        if (sourceId === taskId) return yield* reject("invalid", "A task cannot be merged into itself", [{ path, message: "the target itself" }])
        const source = yield* getTask(sourceId).pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject("not_found", `No such task ${sourceId}`, [{ path, message: "not found" }]) : e)))
        if (source.workspaceId !== target.workspaceId) return yield* reject("not_found", `No such task ${sourceId}`, [{ path, message: "not found" }])
        if (yield* isDescendant(sourceId, taskId)) return yield* reject("conflict", "A task cannot be merged into its own subtask")
        for (const table of ["pm_comments", "pm_attachments", "pm_checklists", "pm_checklist_items", "pm_time_entries"]) {
          yield* query(`UPDATE ${table} SET task_id = $2 WHERE task_id = $1`, [sourceId, taskId])
        }
        const children = (yield* query<{ id: string }>(`SELECT id FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL`, [sourceId])).map((r) => r.id)
        if (children.length > 0) {
          const descendants = (yield* Effect.forEach(children, subtreeIds)).flat()
          if (source.listId !== target.listId) yield* relocate(descendants, { workspaceId: target.workspaceId, spaceId: target.spaceId, folderId: target.folderId, listId: target.listId }, by)
          yield* query(`UPDATE pm_tasks SET parent_task_id = $2 WHERE id = ANY($1::text[])`, [children, taskId])
        }
        yield* query(`INSERT INTO pm_task_assignees (task_id, user_id) SELECT $2, user_id FROM pm_task_assignees WHERE task_id = $1 ON CONFLICT DO NOTHING`, [sourceId, taskId])
        yield* query(`INSERT INTO pm_watchers (scope_type, scope_id, user_id) SELECT 'task', $2, user_id FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1 ON CONFLICT DO NOTHING`, [sourceId, taskId])
        for (const tag of source.tags) {
          const tagId = yield* tagByName(target.workspaceId, target.spaceId, tag.name, by, tag.color)
          yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [taskId, tagId])
        }
        yield* query(`DELETE FROM pm_relationships WHERE source_task_id = $1 OR target_task_id = $1`, [sourceId])
        yield* query(`UPDATE pm_tasks SET deleted_at = now(), deleted_by = $2, version = version + 1 WHERE id = $1`, [sourceId, by])
        changes.push(updated(source, "task.deleted", { mergedInto: taskId, name: source.name, shortId: source.shortId }, by))
      }
      yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return { result, changes: [...changes, updated(result, "task.merged", { sourceTaskIds: input.sourceTaskIds, version: result.version }, by)] }
    }),

  addWatcher: (input: { readonly userId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* requireMembers(task.workspaceId, [input.userId], "body.userId")
      const added = yield* query(`INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ('task', $1, $2) ON CONFLICT DO NOTHING RETURNING user_id`, [taskId, input.userId])
      if (added.length === 0) return yield* reject("conflict", "Already watching this task")
      const version = yield* touchTask(taskId)
      return { result: { userId: input.userId }, changes: [updated(task, "task.watcher_added", { userId: input.userId, version }, by)] }
    }),

  removeWatcher: (input: { readonly userId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const removed = yield* query(`DELETE FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1 AND user_id = $2 RETURNING user_id`, [taskId, input.userId])
      if (removed.length === 0) return yield* reject("not_found", "Not watching this task")
      const version = yield* touchTask(taskId)
      return { result: undefined, changes: [updated(task, "task.watcher_removed", { userId: input.userId, version }, by)] }
    }),

  setCustomFields: (input: { readonly values: Readonly<Record<string, unknown>> }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const features = yield* featuresOfSpace(task.spaceId)
      yield* checkFeatures(features, { customFields: input.values })
      const home: Home = { workspaceId: task.workspaceId, spaceId: task.spaceId, folderId: task.folderId, listId: task.listId }
      const { checked } = yield* checkFieldValues(home, input.values, "body.values")
      yield* writeFieldValues(taskId, checked, by)
      const version = yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return { result, changes: [updated(result, "task.updated", { customFields: Object.fromEntries(checked.map((c) => [c.fieldId, c.value])), version }, by)] }
    }),

  addTag: (input: { readonly name: string; readonly color?: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* checkFeatures(yield* featuresOfSpace(task.spaceId), { tagNames: [input.name] })
      const tagId = yield* tagByName(task.workspaceId, task.spaceId, input.name, by, input.color)
      const added = yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING tag_id`, [taskId, tagId])
      if (added.length === 0) return yield* reject("conflict", "The task already has this tag")
      const version = yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return { result, changes: [updated(result, "task.updated", { tagAdded: input.name.trim(), version }, by)] }
    }),

  removeTag: (input: { readonly tagId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      yield* getTask(taskId)
      const removed = yield* query(`DELETE FROM pm_task_tags WHERE task_id = $1 AND tag_id = $2 RETURNING tag_id`, [taskId, input.tagId])
      if (removed.length === 0) return yield* reject("not_found", "The task does not have this tag")
      const version = yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return { result, changes: [updated(result, "task.updated", { tagRemoved: input.tagId, version }, by)] }
    }),

  setRecurrence: (input: { readonly recurrence: Recurrence | null }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      if (input.recurrence === null && task.recurrence === null) return yield* reject("not_found", "The task does not recur")
      if (input.recurrence && !task.dueDate && !task.startDate) {
        return yield* reject("conflict", "A recurring task needs a due date or a start date to repeat from")
      }
      yield* query(`UPDATE pm_tasks SET recurrence = $2, version = version + 1, updated_at = now() WHERE id = $1`, [taskId, input.recurrence])
      const result = yield* getTask(taskId)
      return { result, changes: [updated(result, "task.updated", { recurrence: input.recurrence, version: result.version }, by)] }
    }),

  // -- checklists ------------------------------------------------------------

  createChecklist: (input: { readonly name: string; readonly items?: ReadonlyArray<string> }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const features = yield* featuresOfSpace(task.spaceId)
      if (!features.checklists) return yield* reject("invalid", "Checklists are turned off in this space", [{ path: "body.name", message: "checklists disabled in this space" }])
      const position = yield* Effect.map(query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_checklists WHERE task_id = $1`, [taskId]), (r) => Number(r[0]!.p))
      const id = yield* insertChecklist(taskId, input.name, position, by)
      for (const [index, name] of (input.items ?? []).entries()) {
        yield* query(`INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, position, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [crypto.randomUUID(), id, taskId, name.trim(), index + 1, by])
      }
      const version = yield* touchTask(taskId)
      return { result: { id }, changes: [updated(task, "checklist.created", { checklistId: id, name: input.name.trim(), version }, by)] }
    }),

  updateChecklist: (input: { readonly checklistId: string; readonly name?: string; readonly position?: number }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const rows = yield* query(`UPDATE pm_checklists SET name = COALESCE($3, name), position = COALESCE($4, position) WHERE id = $1 AND task_id = $2 RETURNING id`, [input.checklistId, taskId, input.name?.trim() ?? null, input.position ?? null])
      if (rows.length === 0) return yield* reject("not_found", "No such checklist")
      const version = yield* touchTask(taskId)
      return { result: { id: input.checklistId }, changes: [updated(task, "checklist.updated", { checklistId: input.checklistId, name: input.name, position: input.position, version }, by)] }
    }),

  deleteChecklist: (input: { readonly checklistId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* query(`DELETE FROM pm_checklist_items WHERE checklist_id = $1 AND task_id = $2`, [input.checklistId, taskId])
      const rows = yield* query(`DELETE FROM pm_checklists WHERE id = $1 AND task_id = $2 RETURNING id`, [input.checklistId, taskId])
      if (rows.length === 0) return yield* reject("not_found", "No such checklist")
      const version = yield* touchTask(taskId)
      return { result: undefined, changes: [updated(task, "checklist.deleted", { checklistId: input.checklistId, version }, by)] }
    }),

  addChecklistItem: (input: { readonly checklistId: string; readonly name: string; readonly assigneeId?: string | null }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const checklist = yield* query(`SELECT id FROM pm_checklists WHERE id = $1 AND task_id = $2`, [input.checklistId, taskId])
      if (checklist.length === 0) return yield* reject("not_found", "No such checklist")
      if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
      const position = yield* Effect.map(query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_checklist_items WHERE checklist_id = $1`, [input.checklistId]), (r) => Number(r[0]!.p))
      const id = crypto.randomUUID()
      yield* query(`INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, assignee_id, position, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [id, input.checklistId, taskId, input.name.trim(), input.assigneeId ?? null, position, by])
      const version = yield* touchTask(taskId)
      const notify = input.assigneeId ? notifyUsers([input.assigneeId], "assigned", `You were assigned a checklist item on ${task.shortId}: ${input.name.trim()}`, by) : []
      return { result: { id }, changes: [updated(task, "checklist.item_added", { checklistId: input.checklistId, itemId: id, name: input.name.trim(), version }, by, notify)] }
    }),

  updateChecklistItem: (input: { readonly checklistId: string; readonly itemId: string; readonly name?: string; readonly resolved?: boolean; readonly assigneeId?: string | null; readonly position?: number }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const current = yield* query<{ assigneeId: string | null }>(`SELECT assignee_id AS "assigneeId" FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3`, [input.itemId, input.checklistId, taskId])
      if (current.length === 0) return yield* reject("not_found", "No such checklist item")
      if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
      yield* query(
        `UPDATE pm_checklist_items SET name = COALESCE($2, name), resolved = COALESCE($3, resolved), position = COALESCE($4, position),
                assignee_id = CASE WHEN $5::boolean THEN $6 ELSE assignee_id END, updated_at = now() WHERE id = $1`,
        [input.itemId, input.name?.trim() ?? null, input.resolved ?? null, input.position ?? null, input.assigneeId !== undefined, input.assigneeId ?? null]
      )
      const version = yield* touchTask(taskId)
      const notify = input.assigneeId && input.assigneeId !== current[0]!.assigneeId ? notifyUsers([input.assigneeId], "assigned", `You were assigned a checklist item on ${task.shortId}`, by) : []
      const { checklistId: _c, ...fields } = input
      return { result: { id: input.itemId }, changes: [updated(task, "checklist.item_updated", { checklistId: input.checklistId, ...fields, version }, by, notify)] }
    }),

  deleteChecklistItem: (input: { readonly checklistId: string; readonly itemId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const rows = yield* query(`DELETE FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3 RETURNING id`, [input.itemId, input.checklistId, taskId])
      if (rows.length === 0) return yield* reject("not_found", "No such checklist item")
      const version = yield* touchTask(taskId)
      return { result: undefined, changes: [updated(task, "checklist.item_deleted", { checklistId: input.checklistId, itemId: input.itemId, version }, by)] }
    }),

  reorderChecklistItems: (input: { readonly checklistId: string; readonly itemIds: ReadonlyArray<string> }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const items = yield* query<{ id: string }>(`SELECT id FROM pm_checklist_items WHERE checklist_id = $1 AND task_id = $2`, [input.checklistId, taskId])
      if (items.length === 0 && (yield* query(`SELECT 1 FROM pm_checklists WHERE id = $1 AND task_id = $2`, [input.checklistId, taskId])).length === 0) {
        return yield* reject("not_found", "No such checklist")
      }
      const known = new Set(items.map((i) => i.id))
      if (input.itemIds.length !== known.size || new Set(input.itemIds).size !== input.itemIds.length || input.itemIds.some((id) => !known.has(id))) {
        return yield* reject("invalid", "itemIds must list every item of the checklist exactly once", [{ path: "body.itemIds", message: "not a permutation of the items" }])
      }
      for (const [index, id] of input.itemIds.entries()) yield* query(`UPDATE pm_checklist_items SET position = $2 WHERE id = $1`, [id, index + 1])
      const version = yield* touchTask(taskId)
      return { result: { itemIds: input.itemIds }, changes: [updated(task, "checklist.items_reordered", { checklistId: input.checklistId, order: input.itemIds, version }, by)] }
    }),

  /** Turns a checklist item into a subtask (the item goes away). */
  convertChecklistItem: (input: { readonly checklistId: string; readonly itemId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const rows = yield* query<{ name: string; assigneeId: string | null; resolved: boolean }>(
        `DELETE FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3 RETURNING name, assignee_id AS "assigneeId", resolved`,
        [input.itemId, input.checklistId, taskId]
      )
      if (rows.length === 0) return yield* reject("not_found", "No such checklist item")
      const home: Home = { workspaceId: task.workspaceId, spaceId: task.spaceId, folderId: task.folderId, listId: task.listId }
      const statuses = (yield* effectiveStatuses(home)).items
      const done = rows[0]!.resolved ? statuses.find((s) => s.type === "done") ?? statuses.find((s) => s.type === "closed") : undefined
      const created = yield* insertTask(home, {
        name: rows[0]!.name,
        parentTaskId: taskId,
        assigneeIds: rows[0]!.assigneeId ? [rows[0]!.assigneeId] : [],
        ...(done ? { status: done.name } : {})
      }, by)
      const version = yield* touchTask(taskId)
      return { result: created.task, changes: [...created.changes, updated(task, "checklist.item_converted", { checklistId: input.checklistId, itemId: input.itemId, subtaskId: created.task.id, version }, by)] }
    }),

  // -- time tracking ---------------------------------------------------------

  addTimeEntry: (input: TimeEntryInput & { readonly userId: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      if (!(yield* featuresOfSpace(task.spaceId)).timeTracking) return yield* reject("invalid", "Time tracking is turned off in this space", [{ path: "body", message: "time tracking disabled" }])
      const endedAt = input.endedAt ?? (input.durationMinutes !== undefined ? new Date(Date.parse(input.startedAt) + input.durationMinutes * 60_000).toISOString() : undefined)
      if (endedAt === undefined) return yield* reject("invalid", "Give endedAt or durationMinutes", [{ path: "body.durationMinutes", message: "missing" }])
      if (Date.parse(endedAt) < Date.parse(input.startedAt)) return yield* reject("invalid", "endedAt must not be before startedAt", [{ path: "body.endedAt", message: "before startedAt" }])
      const id = crypto.randomUUID()
      const [entry] = yield* query(
        `INSERT INTO pm_time_entries (id, workspace_id, task_id, user_id, started_at, ended_at, note, billable) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${timeEntryColumns}`,
        [id, task.workspaceId, taskId, input.userId, input.startedAt, endedAt, input.note ?? "", input.billable ?? false]
      )
      return { result: entry, changes: [updated(task, "time_entry.created", { entryId: id, userId: input.userId, startedAt: input.startedAt, endedAt }, by)] }
    }),

  updateTimeEntry: (input: { readonly entryId: string; readonly startedAt?: string; readonly endedAt?: string; readonly note?: string; readonly billable?: boolean; readonly admin: boolean }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const current = yield* query<{ userId: string; startedAt: string; endedAt: string | null }>(
        `SELECT user_id AS "userId", started_at AS "startedAt", ended_at AS "endedAt" FROM pm_time_entries WHERE id = $1 AND task_id = $2`, [input.entryId, taskId]
      )
      if (current.length === 0) return yield* reject("not_found", "No such time entry")
      if (current[0]!.userId !== by && !input.admin) return yield* reject("forbidden", "Only its owner or an admin changes a time entry")
      const startedAt = input.startedAt ?? current[0]!.startedAt
      const endedAt = input.endedAt ?? current[0]!.endedAt
      if (endedAt && Date.parse(endedAt) < Date.parse(startedAt)) return yield* reject("invalid", "endedAt must not be before startedAt", [{ path: "body.endedAt", message: "before startedAt" }])
      const [entry] = yield* query(
        `UPDATE pm_time_entries SET started_at = $2, ended_at = $3, note = COALESCE($4, note), billable = COALESCE($5, billable) WHERE id = $1 RETURNING ${timeEntryColumns}`,
        [input.entryId, startedAt, endedAt, input.note ?? null, input.billable ?? null]
      )
      const { admin: _a, ...fields } = input
      return { result: entry, changes: [updated(task, "time_entry.updated", fields, by)] }
    }),

  deleteTimeEntry: (input: { readonly entryId: string; readonly admin: boolean }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const current = yield* query<{ userId: string }>(`SELECT user_id AS "userId" FROM pm_time_entries WHERE id = $1 AND task_id = $2`, [input.entryId, taskId])
      if (current.length === 0) return yield* reject("not_found", "No such time entry")
      if (current[0]!.userId !== by && !input.admin) return yield* reject("forbidden", "Only its owner or an admin deletes a time entry")
      yield* query(`DELETE FROM pm_time_entries WHERE id = $1`, [input.entryId])
      return { result: undefined, changes: [updated(task, "time_entry.deleted", { entryId: input.entryId }, by)] }
    }),

  /** Starts the caller's timer on this task; a timer running elsewhere is stopped first. */
  startTimer: (input: { readonly note?: string }, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      if (!(yield* featuresOfSpace(task.spaceId)).timeTracking) return yield* reject("invalid", "Time tracking is turned off in this space", [{ path: "body", message: "time tracking disabled" }])
      const changes: Array<Change> = []
      const running = yield* query<{ id: string; taskId: string }>(`UPDATE pm_time_entries SET ended_at = now() WHERE user_id = $1 AND ended_at IS NULL RETURNING id, task_id AS "taskId"`, [by])
      for (const stopped of running) {
        const other = yield* getTask(stopped.taskId).pipe(Effect.option)
        if (other._tag === "Some") changes.push(updated(other.value, "timer.stopped", { entryId: stopped.id, userId: by }, by))
      }
      const id = crypto.randomUUID()
      const [entry] = yield* query(
        `INSERT INTO pm_time_entries (id, workspace_id, task_id, user_id, started_at, note) VALUES ($1, $2, $3, $4, now(), $5) RETURNING ${timeEntryColumns}`,
        [id, task.workspaceId, taskId, by, input.note ?? ""]
      )
      changes.push(updated(task, "timer.started", { entryId: id, userId: by }, by))
      return { result: entry, changes }
    }),

  stopTimer: (_: {}, by: string, taskId: string): Result<unknown> =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const [entry] = yield* query<{ id: string }>(`UPDATE pm_time_entries SET ended_at = now() WHERE user_id = $1 AND task_id = $2 AND ended_at IS NULL RETURNING ${timeEntryColumns}`, [by, taskId])
      if (entry === undefined) return yield* reject("conflict", "You have no timer running on this task")
      return { result: entry, changes: [updated(task, "timer.stopped", { entryId: entry.id, userId: by }, by)] }
    })
}
