/**
 * Commands on tasks: those of the list actor (creating tasks in the list,
 * adding tasks to it from elsewhere) and those of the task actor (every
 * change of one task and its parts). Each returns its result and changes;
 * the actor runs it inside `ChangeLog.transact`.
 */
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { NotWorkspaceMembers, PlaceNotFound, TaskNotFound } from "./PmErrors.ts"
import type { Change } from "./ChangeLog.ts"
import { change } from "./Changes.ts"
import { locateList, locateTask } from "./Locate.ts"
import { membersOf, requireMembers } from "./Members.ts"
import { closestStatus, effectiveStatuses, findStatus } from "./Statuses.ts"
import { getList } from "./StructureReads.ts"
import { checklistCommands, insertChecklist } from "./TaskChecklists.ts"
import { featuresOfSpace, getTask } from "./TaskReads.ts"
import {
  checkFeatures,
  checkFieldValues,
  FieldValues,
  type Home,
  insertTask,
  insertTasks,
  isPlainPatch,
  isTaskNamed,
  NewTask,
  patchTask,
  patchTasks,
  Recurrence,
  recordStatus,
  tagByName,
  taskChange,
  TaskPatch,
  touchTask,
  TaskWriteRefused,
  writeFieldValues
} from "./TaskWrites.ts"
import { timeEntryCommands } from "./TimeEntries.ts"
import {
  AfterTaskElsewhere,
  AlreadyInList,
  AlreadyWatching,
  ArchivedAlready,
  FeatureTurnedOff,
  HomeListLink,
  MergeIntoItself,
  MergeIntoSubtask,
  MergeSourceNotFound,
  NotLinkedToList,
  NotWatching,
  OneAssigneePerTask,
  ParentCycle,
  RecurrenceNeedsDate,
  TaskFollowsItself,
  TaskHasTag,
  TaskLacksTag,
  TaskNotRecurring
} from "./WorkErrors.ts"
import { batchCommand, batched, command } from "./WorkActor.ts"
import { Color, isFinished, Items, Priority, Task } from "./WorkRecords.ts"

const homeOf = (listId: string) =>
  Effect.map(
    getList(listId),
    (list): Home => ({ workspaceId: list.workspaceId, spaceId: list.spaceId, folderId: list.folderId, listId: list.id })
  )

/** A template of a task: what a copy or a template keeps (no ids of the original). */
export interface TaskTemplate {
  readonly name: string
  readonly description?: string
  readonly status?: string
  readonly priority?: Priority | null
  readonly startDate?: string | null
  readonly dueDate?: string | null
  readonly timeEstimateMinutes?: number | null
  readonly assigneeIds?: ReadonlyArray<string>
  readonly tagNames?: ReadonlyArray<string>
  readonly customFields?: Readonly<Record<string, unknown>>
  readonly parentTaskId?: string | null
  readonly checklists?: ReadonlyArray<{
    readonly name: string
    readonly items: ReadonlyArray<{ readonly name: string; readonly resolved?: boolean }>
  }>
  readonly subtasks?: ReadonlyArray<TaskTemplate>
}

// Templates are stored, so their fields are read as they were saved, without the request checks of NewTask.
export const TaskTemplate: Schema.Codec<TaskTemplate> = Schema.Struct({
  name: Schema.String,
  description: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.String),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(Schema.String)),
  dueDate: Schema.optionalKey(Schema.NullOr(Schema.String)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Schema.Finite)),
  assigneeIds: Schema.optionalKey(Schema.Array(Schema.String)),
  tagNames: Schema.optionalKey(Schema.Array(Schema.String)),
  customFields: Schema.optionalKey(FieldValues),
  parentTaskId: Schema.optionalKey(Schema.NullOr(Schema.String)),
  checklists: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        name: Schema.String,
        items: Schema.Array(Schema.Struct({ name: Schema.String, resolved: Schema.optionalKey(Schema.Boolean) }))
      })
    )
  ),
  subtasks: Schema.optionalKey(Schema.Array(Schema.suspend((): Schema.Codec<TaskTemplate> => TaskTemplate)))
}).annotate({ identifier: "TaskTemplateContent", description: "A task's fields, checklists and subtasks, without the ids of the original" })

/** What a task looks like as a template (custom values by field id; they apply where those fields do). */
export const templateOf = (taskId: string, depth = 0): Effect.Effect<TaskTemplate, TaskNotFound | SqlError, Sql> =>
  Effect.gen(function* () {
    const task = yield* getTask(taskId)
    const checklists = yield* query<{ id: string; name: string }>(
      `SELECT id, name FROM pm_checklists WHERE task_id = $1 ORDER BY position, created_at`,
      [taskId]
    )
    const items = yield* query<{ checklistId: string; name: string; resolved: boolean }>(
      `SELECT checklist_id AS "checklistId", name, resolved FROM pm_checklist_items WHERE task_id = $1 ORDER BY position, created_at`,
      [taskId]
    )
    const values = yield* query<{ fieldId: string; value: unknown }>(
      `SELECT field_id AS "fieldId", value FROM pm_task_custom_values WHERE task_id = $1`,
      [taskId]
    )
    const children =
      depth < 5
        ? yield* query<{ id: string }>(
            `SELECT id FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL ORDER BY position, created_at`,
            [taskId]
          )
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
      checklists: checklists.map((c) => ({
        name: c.name,
        items: items.filter((i) => i.checklistId === c.id).map((i) => ({ name: i.name, resolved: i.resolved }))
      })),
      subtasks: yield* Effect.forEach(children, (child) => templateOf(child.id, depth + 1))
    }
  })

/** Creates a task (and its checklists and subtasks) from a template in `home`; values of fields that do not apply there are left out. */
export const instantiate = (
  home: Home,
  template: TaskTemplate,
  overrides: Partial<NewTask>,
  by: string
): Effect.Effect<{ task: Task; changes: Array<Change> }, typeof TaskWriteRefused.Type | PlaceNotFound | SqlError, Sql> =>
  Effect.gen(function* () {
    const { checklists, subtasks, ...fields } = template
    const applicable = yield* Effect.map(
      query<{ id: string }>(
        `SELECT id FROM pm_custom_fields WHERE (scope_type = 'space' AND scope_id = $1) OR (scope_type = 'folder' AND scope_id = $2) OR (scope_type = 'list' AND scope_id = $3)`,
        [home.spaceId, home.folderId ?? "", home.listId]
      ),
      (rows) => new Set(rows.map((r) => r.id))
    )
    const customFields = Object.fromEntries(Object.entries(fields.customFields ?? {}).filter(([id]) => applicable.has(id)))
    const members = yield* membersOf(home.workspaceId)
    const features = yield* featuresOfSpace(home.spaceId)
    const created = yield* insertTask(
      home,
      {
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
      },
      by
    )
    const changes = [...created.changes]
    for (const [index, checklist] of (checklists ?? []).entries()) {
      const checklistId = yield* insertChecklist(created.task.id, checklist.name, index + 1, by)
      for (const [itemIndex, item] of checklist.items.entries()) {
        yield* query(
          `INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, resolved, position, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [crypto.randomUUID(), checklistId, created.task.id, item.name, item.resolved ?? false, itemIndex + 1, by]
        )
      }
    }
    for (const subtask of subtasks ?? []) {
      changes.push(...(yield* instantiate(home, subtask, { parentTaskId: created.task.id }, by)).changes)
    }
    return { task: yield* getTask(created.task.id), changes }
  })

// ---------------------------------------------------------------------------
// List actor: tasks entering the list.

const TaskLink = Schema.Struct({ taskId: Id })

const ListTaskRefused = Schema.Union([TaskWriteRefused, PlaceNotFound])
const AddLinkRefused = Schema.Union([PlaceNotFound, HomeListLink, AlreadyInList])

/** Where the list actor's state says the list is (a hint: `insertTasks` checks it against the rows). */
const homeIn = (state: unknown, listId: string): Home | undefined =>
  typeof state === "object" &&
  state !== null &&
  "workspaceId" in state &&
  typeof state.workspaceId === "string" &&
  "spaceId" in state &&
  typeof state.spaceId === "string" &&
  "folderId" in state &&
  (state.folderId === null || typeof state.folderId === "string")
    ? { workspaceId: state.workspaceId, spaceId: state.spaceId, folderId: state.folderId, listId }
    : undefined

export const listTaskCommands = {
  /** Creates queued together are checked each on its own and inserted together (see `insertTasks`). */
  createTask: batchCommand(NewTask, Task, ListTaskRefused, (messages, listId, state) =>
    Effect.gen(function* () {
      const hint = homeIn(state, listId)
      const tasks = messages.map(({ input, by }) => ({ input, by }))
      const inserted = yield* Effect.exit(
        hint === undefined ? Effect.flatMap(homeOf(listId), (home) => insertTasks(home, tasks)) : insertTasks(hint, tasks, homeOf(listId))
      )
      if (Exit.isSuccess(inserted)) {
        return inserted.value.map((outcome) => Exit.map(outcome, ({ task, changes }) => ({ result: task, changes })))
      }
      // The list is gone: every create is refused with it.
      const gone = Option.getOrUndefined(Cause.findErrorOption(inserted.cause))
      if (gone instanceof PlaceNotFound) return messages.map(() => Exit.fail(gone))
      return yield* Effect.failCause(inserted.cause)
    })
  ),

  bulkCreateTasks: command(Schema.Struct({ tasks: Schema.Array(NewTask) }), Items(Task), ListTaskRefused, (input, by, listId) =>
    Effect.gen(function* () {
      const home = yield* homeOf(listId)
      const items: Array<Task> = []
      const changes: Array<Change> = []
      const outcomes = yield* insertTasks(
        home,
        input.tasks.map((task, index) => ({ input: task, by, prefix: `body.tasks.${index}` }))
      )
      // The first refusal refuses them all.
      for (const outcome of outcomes) {
        const created = yield* outcome
        items.push(created.task)
        changes.push(...created.changes)
      }
      return { result: { items }, changes }
    })
  ),

  /** Creates a task from a saved template or from a copy of another task. */
  instantiateTask: command(
    Schema.Struct({ template: TaskTemplate, name: Schema.optionalKey(Schema.String) }),
    Task,
    ListTaskRefused,
    (input, by, listId) =>
      Effect.gen(function* () {
        const home = yield* homeOf(listId)
        const { task, changes } = yield* instantiate(home, input.template, input.name ? { name: input.name } : {}, by)
        return { result: task, changes }
      })
  ),

  /** The task also appears in this list (its home list stays). */
  addTaskLink: command(TaskLink, Schema.Struct({ taskId: Id, listId: Id }), AddLinkRefused, (input, by, listId) =>
    Effect.gen(function* () {
      const list = yield* locateList(listId)
      const task = yield* locateTask(input.taskId)
      if (task.workspaceId !== list.workspaceId) return yield* new PlaceNotFound({ what: "task" })
      if (task.listId === listId) return yield* new HomeListLink()
      const added = yield* query(
        `INSERT INTO pm_task_list_links (task_id, list_id, added_by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING task_id`,
        [input.taskId, listId, by]
      )
      if (added.length === 0) return yield* new AlreadyInList()
      return {
        result: { taskId: input.taskId, listId },
        changes: [
          change(
            { workspaceId: list.workspaceId, spaceId: list.spaceId, listId },
            "list.task_added",
            input.taskId,
            { taskId: input.taskId },
            by
          )
        ]
      }
    })
  ),

  removeTaskLink: command(TaskLink, Schema.Void, Schema.Union([PlaceNotFound, NotLinkedToList]), (input, by, listId) =>
    Effect.gen(function* () {
      const list = yield* locateList(listId)
      const removed = yield* query(`DELETE FROM pm_task_list_links WHERE task_id = $1 AND list_id = $2 RETURNING task_id`, [
        input.taskId,
        listId
      ])
      if (removed.length === 0) return yield* new NotLinkedToList()
      return {
        result: undefined,
        changes: [
          change(
            { workspaceId: list.workspaceId, spaceId: list.spaceId, listId },
            "list.task_removed",
            input.taskId,
            { taskId: input.taskId },
            by
          )
        ]
      }
    })
  )
}

// ---------------------------------------------------------------------------
// Task actor.

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
      const status =
        (explicit ? findStatus(target, explicit) : undefined) ??
        findStatus(target, task.status.name) ??
        closestStatus(target, task.status.type)!
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

const isDescendant = (ancestorId: string, candidateId: string) => Effect.map(subtreeIds(ancestorId), (ids) => ids.includes(candidateId))

const NoInput = Schema.Struct({})
const Watcher = Schema.Struct({ userId: Id })

export const taskCommands = {
  /** Plain patches queued together are applied with one update (see `patchTasks`). */
  update: batched(
    command(TaskPatch, Task, TaskWriteRefused, (patch, by, taskId, state) =>
      Effect.map(patchTask(taskId, patch, by, "body", isTaskNamed(taskId, state) ? state : undefined), ({ task, changes }) => ({
        result: task,
        changes
      }))
    ),
    (messages, taskId, state) =>
      Effect.map(
        patchTasks(
          taskId,
          messages.map(({ input, by }) => ({ patch: input, by })),
          isTaskNamed(taskId, state) ? state : undefined
        ),
        (outcomes) => outcomes.map((outcome) => Exit.map(outcome, ({ task, changes }) => ({ result: task, changes })))
      ),
    isPlainPatch
  ),

  setArchived: command(
    Schema.Struct({ archived: Schema.Boolean }),
    Task,
    Schema.Union([TaskNotFound, ArchivedAlready]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        if (task.archived === input.archived) return yield* new ArchivedAlready({ what: "task", archived: input.archived })
        yield* query(
          `UPDATE pm_tasks SET archived_at = ${input.archived ? "now()" : "NULL"}, version = version + 1, updated_at = now() WHERE id = $1`,
          [taskId]
        )
        return { result: yield* getTask(taskId), changes: [taskChange(task, input.archived ? "task.archived" : "task.restored", {}, by)] }
      })
  ),

  /** To the trash, with its subtasks; `undelete` brings them back. */
  delete: command(NoInput, Schema.Void, TaskNotFound, (_, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const ids = yield* subtreeIds(taskId)
      yield* query(
        `UPDATE pm_tasks SET deleted_at = now(), deleted_by = $2, version = version + 1 WHERE id = ANY($1::text[]) AND deleted_at IS NULL`,
        [ids, by]
      )
      return {
        result: undefined,
        changes: [taskChange(task, "task.deleted", { name: task.name, shortId: task.shortId, subtasks: ids.length - 1 }, by)]
      }
    })
  ),

  undelete: command(NoInput, Task, TaskNotFound, (_, by, taskId) =>
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
      return { result: task, changes: [taskChange(task, "task.undeleted", {}, by)] }
    })
  ),

  move: command(
    Schema.Struct({ listId: Id, statusMapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64))) }),
    Task,
    Schema.Union([TaskNotFound, PlaceNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const target = yield* locateList(input.listId)
        if (target.workspaceId !== task.workspaceId) return yield* new PlaceNotFound({ what: "list" })
        if (task.listId === input.listId) return { result: task, changes: [] }
        const ids = yield* subtreeIds(taskId)
        const home: Home = { workspaceId: target.workspaceId, spaceId: target.spaceId, folderId: target.folderId, listId: input.listId }
        const position = yield* Effect.map(
          query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_tasks WHERE list_id = $1`, [input.listId]),
          (r) => Number(r[0]!.p)
        )
        yield* relocate(ids, home, by, input.statusMapping)
        if (task.parentTaskId) yield* query(`UPDATE pm_tasks SET parent_task_id = NULL WHERE id = $1`, [taskId])
        yield* query(`UPDATE pm_tasks SET position = $2 WHERE id = $1`, [taskId, position])
        const moved = yield* getTask(taskId)
        const data = {
          fromListId: task.listId,
          toListId: input.listId,
          fromSpaceId: task.spaceId,
          toSpaceId: target.spaceId,
          status: moved.status.name,
          subtasks: ids.length - 1
        }
        return {
          result: moved,
          changes: [taskChange(task, "task.moved", data, by), taskChange(moved, "task.moved", data, by)]
        }
      })
  ),

  /** Places the task right after `afterTaskId` in its list (null: first). */
  setPosition: command(
    Schema.Struct({ afterTaskId: Schema.NullOr(Id) }),
    Task,
    Schema.Union([TaskNotFound, TaskFollowsItself, AfterTaskElsewhere]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        let position: number
        if (input.afterTaskId === null) {
          const first = yield* query<{ p: number | null }>(
            `SELECT MIN(position) AS p FROM pm_tasks WHERE list_id = $1 AND id <> $2 AND deleted_at IS NULL`,
            [task.listId, taskId]
          )
          position = (first[0]?.p ?? 1) - 1
        } else {
          if (input.afterTaskId === taskId) return yield* new TaskFollowsItself()
          const after = yield* query<{ position: number }>(
            `SELECT position FROM pm_tasks WHERE id = $1 AND list_id = $2 AND deleted_at IS NULL`,
            [input.afterTaskId, task.listId]
          )
          if (after.length === 0) return yield* new AfterTaskElsewhere()
          const next = yield* query<{ p: number | null }>(
            `SELECT MIN(position) AS p FROM pm_tasks WHERE list_id = $1 AND position > $2 AND id <> $3 AND deleted_at IS NULL`,
            [task.listId, after[0]!.position, taskId]
          )
          position = next[0]?.p == null ? after[0]!.position + 1 : (after[0]!.position + next[0].p) / 2
        }
        yield* query(`UPDATE pm_tasks SET position = $2, version = version + 1, updated_at = now() WHERE id = $1`, [taskId, position])
        return {
          result: yield* getTask(taskId),
          changes: [taskChange(task, "task.reordered", { afterTaskId: input.afterTaskId, position }, by)]
        }
      })
  ),

  /** Makes the task a subtask of `parentTaskId` (moving it to the parent's list), or a top-level task (null). */
  setParent: command(
    Schema.Struct({ parentTaskId: Schema.NullOr(Id) }),
    Task,
    Schema.Union([TaskNotFound, PlaceNotFound, ParentCycle]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        if (input.parentTaskId === task.parentTaskId) return { result: task, changes: [] }
        if (input.parentTaskId !== null) {
          if (input.parentTaskId === taskId) return yield* new ParentCycle({ self: true })
          const noParent = new PlaceNotFound({ what: "parent task", field: "body.parentTaskId" })
          const parent = yield* Effect.catchTag(locateTask(input.parentTaskId), "PlaceNotFound", () => Effect.fail(noParent))
          if (parent.workspaceId !== task.workspaceId) return yield* noParent
          if (yield* isDescendant(taskId, input.parentTaskId)) return yield* new ParentCycle({ self: false })
          if (parent.listId !== task.listId) {
            const ids = yield* subtreeIds(taskId)
            yield* relocate(
              ids,
              { workspaceId: parent.workspaceId, spaceId: parent.spaceId, folderId: parent.folderId, listId: parent.listId! },
              by
            )
          }
        }
        yield* query(`UPDATE pm_tasks SET parent_task_id = $2, version = version + 1, updated_at = now() WHERE id = $1`, [
          taskId,
          input.parentTaskId
        ])
        const result = yield* getTask(taskId)
        return {
          result,
          changes: [
            taskChange(
              result,
              "task.updated",
              { parentTaskId: input.parentTaskId, previous: { parentTaskId: task.parentTaskId }, version: result.version },
              by
            )
          ]
        }
      })
  ),

  /** Folds other tasks into this one: their comments, attachments, checklists, subtasks, assignees, watchers, tags and time; then trashes them. */
  merge: command(
    Schema.Struct({ sourceTaskIds: Schema.Array(Id) }),
    Task,
    Schema.Union([TaskNotFound, MergeIntoItself, MergeSourceNotFound, MergeIntoSubtask]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const target = yield* getTask(taskId)
        const changes: Array<Change> = []
        for (const [index, sourceId] of input.sourceTaskIds.entries()) {
          const path = `body.sourceTaskIds.${index}`
          if (sourceId === taskId) return yield* new MergeIntoItself({ field: path })
          const noSource = new MergeSourceNotFound({ taskId: sourceId, field: path })
          const source = yield* Effect.catchTag(getTask(sourceId), "TaskNotFound", () => Effect.fail(noSource))
          if (source.workspaceId !== target.workspaceId) return yield* noSource
          if (yield* isDescendant(sourceId, taskId)) return yield* new MergeIntoSubtask()
          for (const table of ["pm_comments", "pm_attachments", "pm_checklists", "pm_checklist_items", "pm_time_entries"]) {
            yield* query(`UPDATE ${table} SET task_id = $2 WHERE task_id = $1`, [sourceId, taskId])
          }
          const children = (yield* query<{ id: string }>(`SELECT id FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL`, [
            sourceId
          ])).map((r) => r.id)
          if (children.length > 0) {
            const descendants = (yield* Effect.forEach(children, subtreeIds)).flat()
            if (source.listId !== target.listId)
              yield* relocate(
                descendants,
                { workspaceId: target.workspaceId, spaceId: target.spaceId, folderId: target.folderId, listId: target.listId },
                by
              )
            yield* query(`UPDATE pm_tasks SET parent_task_id = $2 WHERE id = ANY($1::text[])`, [children, taskId])
          }
          yield* query(
            `INSERT INTO pm_task_assignees (task_id, user_id) SELECT $2, user_id FROM pm_task_assignees WHERE task_id = $1 ON CONFLICT DO NOTHING`,
            [sourceId, taskId]
          )
          yield* query(
            `INSERT INTO pm_watchers (scope_type, scope_id, user_id) SELECT 'task', $2, user_id FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1 ON CONFLICT DO NOTHING`,
            [sourceId, taskId]
          )
          for (const tag of source.tags) {
            const tagId = yield* tagByName(target.workspaceId, target.spaceId, tag.name, by, tag.color)
            yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [taskId, tagId])
          }
          yield* query(`DELETE FROM pm_relationships WHERE source_task_id = $1 OR target_task_id = $1`, [sourceId])
          yield* query(`UPDATE pm_tasks SET deleted_at = now(), deleted_by = $2, version = version + 1 WHERE id = $1`, [sourceId, by])
          changes.push(taskChange(source, "task.deleted", { mergedInto: taskId, name: source.name, shortId: source.shortId }, by))
        }
        yield* touchTask(taskId)
        const result = yield* getTask(taskId)
        return {
          result,
          changes: [...changes, taskChange(result, "task.merged", { sourceTaskIds: input.sourceTaskIds, version: result.version }, by)]
        }
      })
  ),

  addWatcher: command(Watcher, Watcher, Schema.Union([TaskNotFound, NotWorkspaceMembers, AlreadyWatching]), (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* requireMembers(task.workspaceId, [input.userId], "body.userId")
      const added = yield* query(
        `INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ('task', $1, $2) ON CONFLICT DO NOTHING RETURNING user_id`,
        [taskId, input.userId]
      )
      if (added.length === 0) return yield* new AlreadyWatching({ what: "task" })
      const version = yield* touchTask(taskId)
      return { result: { userId: input.userId }, changes: [taskChange(task, "task.watcher_added", { userId: input.userId, version }, by)] }
    })
  ),

  removeWatcher: command(Watcher, Schema.Void, Schema.Union([TaskNotFound, NotWatching]), (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const removed = yield* query(
        `DELETE FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1 AND user_id = $2 RETURNING user_id`,
        [taskId, input.userId]
      )
      if (removed.length === 0) return yield* new NotWatching({ what: "task" })
      const version = yield* touchTask(taskId)
      return { result: undefined, changes: [taskChange(task, "task.watcher_removed", { userId: input.userId, version }, by)] }
    })
  ),

  setCustomFields: command(Schema.Struct({ values: FieldValues }), Task, TaskWriteRefused, (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      const features = yield* featuresOfSpace(task.spaceId)
      yield* checkFeatures(features, { customFields: input.values })
      const home: Home = { workspaceId: task.workspaceId, spaceId: task.spaceId, folderId: task.folderId, listId: task.listId }
      const { checked } = yield* checkFieldValues(home, input.values, "body.values")
      yield* writeFieldValues(taskId, checked, by)
      const version = yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return {
        result,
        changes: [
          taskChange(result, "task.updated", { customFields: Object.fromEntries(checked.map((c) => [c.fieldId, c.value])), version }, by)
        ]
      }
    })
  ),

  addTag: command(
    Schema.Struct({ name: Name(64), color: Schema.optionalKey(Color) }),
    Task,
    Schema.Union([TaskNotFound, FeatureTurnedOff, OneAssigneePerTask, TaskHasTag]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        yield* checkFeatures(yield* featuresOfSpace(task.spaceId), { tagNames: [input.name] })
        const tagId = yield* tagByName(task.workspaceId, task.spaceId, input.name, by, input.color)
        const added = yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING tag_id`, [
          taskId,
          tagId
        ])
        if (added.length === 0) return yield* new TaskHasTag()
        const version = yield* touchTask(taskId)
        const result = yield* getTask(taskId)
        return { result, changes: [taskChange(result, "task.updated", { tagAdded: input.name.trim(), version }, by)] }
      })
  ),

  removeTag: command(Schema.Struct({ tagId: Id }), Task, Schema.Union([TaskNotFound, TaskLacksTag]), (input, by, taskId) =>
    Effect.gen(function* () {
      yield* getTask(taskId)
      const removed = yield* query(`DELETE FROM pm_task_tags WHERE task_id = $1 AND tag_id = $2 RETURNING tag_id`, [taskId, input.tagId])
      if (removed.length === 0) return yield* new TaskLacksTag()
      const version = yield* touchTask(taskId)
      const result = yield* getTask(taskId)
      return { result, changes: [taskChange(result, "task.updated", { tagRemoved: input.tagId, version }, by)] }
    })
  ),

  setRecurrence: command(
    Schema.Struct({ recurrence: Schema.NullOr(Recurrence) }),
    Task,
    Schema.Union([TaskNotFound, TaskNotRecurring, RecurrenceNeedsDate]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        if (input.recurrence === null && task.recurrence === null) return yield* new TaskNotRecurring()
        if (input.recurrence && !task.dueDate && !task.startDate) {
          return yield* new RecurrenceNeedsDate()
        }
        yield* query(`UPDATE pm_tasks SET recurrence = $2, version = version + 1, updated_at = now() WHERE id = $1`, [
          taskId,
          input.recurrence
        ])
        const result = yield* getTask(taskId)
        return { result, changes: [taskChange(result, "task.updated", { recurrence: input.recurrence, version: result.version }, by)] }
      })
  ),

  ...checklistCommands,
  ...timeEntryCommands
}
