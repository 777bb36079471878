/**
 * Checklists of a task and their items (the task actor's commands): items
 * may be assigned, resolved, reordered, or turned into subtasks.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { NotWorkspaceMembers, TaskNotFound } from "./PmErrors.ts"
import { notifyUsers } from "./Changes.ts"
import { requireMembers } from "./Members.ts"
import { effectiveStatuses } from "./Statuses.ts"
import { featuresOfSpace, getTask } from "./TaskReads.ts"
import { type Home, insertTask, taskChange, TaskWriteRefused, touchTask } from "./TaskWrites.ts"
import { command } from "./WorkActor.ts"
import { ChecklistItemNotFound, ChecklistNotFound, ChecklistsTurnedOff, NotAPermutation } from "./WorkErrors.ts"
import { Task } from "./WorkRecords.ts"

/** Adds an empty checklist at `position`; returns its id. */
export const insertChecklist = (taskId: string, name: string, position: number, by: string) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    yield* query(`INSERT INTO pm_checklists (id, task_id, name, position, created_by) VALUES ($1, $2, $3, $4, $5)`, [
      id,
      taskId,
      name.trim(),
      position,
      by
    ])
    return id
  })

const ChecklistRef = { checklistId: Id }
const ItemRef = { checklistId: Id, itemId: Id }
const Created = Schema.Struct({ id: Id })
const ItemPatch = Schema.Struct({
  ...ItemRef,
  name: Schema.optionalKey(Name(500)),
  resolved: Schema.optionalKey(Schema.Boolean),
  assigneeId: Schema.optionalKey(Schema.NullOr(Id)),
  position: Schema.optionalKey(Schema.Finite)
})

export const checklistCommands = {
  createChecklist: command(
    Schema.Struct({ name: Name(200), items: Schema.optionalKey(Schema.Array(Name(500))) }),
    Created,
    Schema.Union([TaskNotFound, ChecklistsTurnedOff]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const features = yield* featuresOfSpace(task.spaceId)
        if (!features.checklists) return yield* new ChecklistsTurnedOff()
        const position = yield* Effect.map(
          query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_checklists WHERE task_id = $1`, [taskId]),
          (r) => Number(r[0]!.p)
        )
        const id = yield* insertChecklist(taskId, input.name, position, by)
        for (const [index, name] of (input.items ?? []).entries()) {
          yield* query(
            `INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, position, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
            [crypto.randomUUID(), id, taskId, name.trim(), index + 1, by]
          )
        }
        const version = yield* touchTask(taskId)
        return {
          result: { id },
          changes: [taskChange(task, "checklist.created", { checklistId: id, name: input.name.trim(), version }, by)]
        }
      })
  ),

  updateChecklist: command(
    Schema.Struct({ ...ChecklistRef, name: Schema.optionalKey(Name(200)), position: Schema.optionalKey(Schema.Finite) }),
    Created,
    Schema.Union([TaskNotFound, ChecklistNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const rows = yield* query(
          `UPDATE pm_checklists SET name = COALESCE($3, name), position = COALESCE($4, position) WHERE id = $1 AND task_id = $2 RETURNING id`,
          [input.checklistId, taskId, input.name?.trim() ?? null, input.position ?? null]
        )
        if (rows.length === 0) return yield* new ChecklistNotFound()
        const version = yield* touchTask(taskId)
        return {
          result: { id: input.checklistId },
          changes: [
            taskChange(
              task,
              "checklist.updated",
              { checklistId: input.checklistId, name: input.name, position: input.position, version },
              by
            )
          ]
        }
      })
  ),

  deleteChecklist: command(Schema.Struct(ChecklistRef), Schema.Void, Schema.Union([TaskNotFound, ChecklistNotFound]), (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* query(`DELETE FROM pm_checklist_items WHERE checklist_id = $1 AND task_id = $2`, [input.checklistId, taskId])
      const rows = yield* query(`DELETE FROM pm_checklists WHERE id = $1 AND task_id = $2 RETURNING id`, [input.checklistId, taskId])
      if (rows.length === 0) return yield* new ChecklistNotFound()
      const version = yield* touchTask(taskId)
      return { result: undefined, changes: [taskChange(task, "checklist.deleted", { checklistId: input.checklistId, version }, by)] }
    })
  ),

  addChecklistItem: command(
    Schema.Struct({ ...ChecklistRef, name: Name(500), assigneeId: Schema.optionalKey(Schema.NullOr(Id)) }),
    Created,
    Schema.Union([TaskNotFound, ChecklistNotFound, NotWorkspaceMembers]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const checklist = yield* query(`SELECT id FROM pm_checklists WHERE id = $1 AND task_id = $2`, [input.checklistId, taskId])
        if (checklist.length === 0) return yield* new ChecklistNotFound()
        if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
        const position = yield* Effect.map(
          query<{ p: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS p FROM pm_checklist_items WHERE checklist_id = $1`, [
            input.checklistId
          ]),
          (r) => Number(r[0]!.p)
        )
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_checklist_items (id, checklist_id, task_id, name, assignee_id, position, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [id, input.checklistId, taskId, input.name.trim(), input.assigneeId ?? null, position, by]
        )
        const version = yield* touchTask(taskId)
        const notify = input.assigneeId
          ? notifyUsers([input.assigneeId], "assigned", `You were assigned a checklist item on ${task.shortId}: ${input.name.trim()}`, by)
          : []
        return {
          result: { id },
          changes: [
            taskChange(
              task,
              "checklist.item_added",
              { checklistId: input.checklistId, itemId: id, name: input.name.trim(), version },
              by,
              notify
            )
          ]
        }
      })
  ),

  updateChecklistItem: command(
    ItemPatch,
    Created,
    Schema.Union([TaskNotFound, ChecklistItemNotFound, NotWorkspaceMembers]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* query<{ assigneeId: string | null }>(
          `SELECT assignee_id AS "assigneeId" FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3`,
          [input.itemId, input.checklistId, taskId]
        )
        if (current.length === 0) return yield* new ChecklistItemNotFound()
        if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
        yield* query(
          `UPDATE pm_checklist_items SET name = COALESCE($2, name), resolved = COALESCE($3, resolved), position = COALESCE($4, position),
                assignee_id = CASE WHEN $5::boolean THEN $6 ELSE assignee_id END, updated_at = now() WHERE id = $1`,
          [
            input.itemId,
            input.name?.trim() ?? null,
            input.resolved ?? null,
            input.position ?? null,
            input.assigneeId !== undefined,
            input.assigneeId ?? null
          ]
        )
        const version = yield* touchTask(taskId)
        const notify =
          input.assigneeId && input.assigneeId !== current[0]!.assigneeId
            ? notifyUsers([input.assigneeId], "assigned", `You were assigned a checklist item on ${task.shortId}`, by)
            : []
        const { checklistId: _c, ...fields } = input
        return {
          result: { id: input.itemId },
          changes: [taskChange(task, "checklist.item_updated", { checklistId: input.checklistId, ...fields, version }, by, notify)]
        }
      })
  ),

  deleteChecklistItem: command(
    Schema.Struct(ItemRef),
    Schema.Void,
    Schema.Union([TaskNotFound, ChecklistItemNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const rows = yield* query(`DELETE FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3 RETURNING id`, [
          input.itemId,
          input.checklistId,
          taskId
        ])
        if (rows.length === 0) return yield* new ChecklistItemNotFound()
        const version = yield* touchTask(taskId)
        return {
          result: undefined,
          changes: [taskChange(task, "checklist.item_deleted", { checklistId: input.checklistId, itemId: input.itemId, version }, by)]
        }
      })
  ),

  reorderChecklistItems: command(
    Schema.Struct({ ...ChecklistRef, itemIds: Schema.Array(Id) }),
    Schema.Struct({ itemIds: Schema.Array(Id) }),
    Schema.Union([TaskNotFound, ChecklistNotFound, NotAPermutation]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const items = yield* query<{ id: string }>(`SELECT id FROM pm_checklist_items WHERE checklist_id = $1 AND task_id = $2`, [
          input.checklistId,
          taskId
        ])
        if (
          items.length === 0 &&
          (yield* query(`SELECT 1 FROM pm_checklists WHERE id = $1 AND task_id = $2`, [input.checklistId, taskId])).length === 0
        ) {
          return yield* new ChecklistNotFound()
        }
        const known = new Set(items.map((i) => i.id))
        if (
          input.itemIds.length !== known.size ||
          new Set(input.itemIds).size !== input.itemIds.length ||
          input.itemIds.some((id) => !known.has(id))
        ) {
          return yield* new NotAPermutation({ field: "body.itemIds", every: "item of the checklist", of: "the items" })
        }
        for (const [index, id] of input.itemIds.entries())
          yield* query(`UPDATE pm_checklist_items SET position = $2 WHERE id = $1`, [id, index + 1])
        const version = yield* touchTask(taskId)
        return {
          result: { itemIds: input.itemIds },
          changes: [taskChange(task, "checklist.items_reordered", { checklistId: input.checklistId, order: input.itemIds, version }, by)]
        }
      })
  ),

  /** Turns a checklist item into a subtask (the item goes away). */
  convertChecklistItem: command(
    Schema.Struct(ItemRef),
    Task,
    Schema.Union([TaskWriteRefused, ChecklistItemNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const rows = yield* query<{ name: string; assigneeId: string | null; resolved: boolean }>(
          `DELETE FROM pm_checklist_items WHERE id = $1 AND checklist_id = $2 AND task_id = $3 RETURNING name, assignee_id AS "assigneeId", resolved`,
          [input.itemId, input.checklistId, taskId]
        )
        if (rows.length === 0) return yield* new ChecklistItemNotFound()
        const home: Home = { workspaceId: task.workspaceId, spaceId: task.spaceId, folderId: task.folderId, listId: task.listId }
        const statuses = (yield* effectiveStatuses(home)).items
        const done = rows[0]!.resolved ? (statuses.find((s) => s.type === "done") ?? statuses.find((s) => s.type === "closed")) : undefined
        const created = yield* insertTask(
          home,
          {
            name: rows[0]!.name,
            parentTaskId: taskId,
            assigneeIds: rows[0]!.assigneeId ? [rows[0]!.assigneeId] : [],
            ...(done ? { status: done.name } : {})
          },
          by
        )
        const version = yield* touchTask(taskId)
        return {
          result: created.task,
          changes: [
            ...created.changes,
            taskChange(
              task,
              "checklist.item_converted",
              { checklistId: input.checklistId, itemId: input.itemId, subtaskId: created.task.id, version },
              by
            )
          ]
        }
      })
  )
}

const findChecklists = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ id: Schema.String, taskId: Schema.String, name: Schema.String, position: Schema.Number }),
  execute: (taskId) => [
    `SELECT id, task_id AS "taskId", name, position FROM pm_checklists WHERE task_id = $1 ORDER BY position, created_at`,
    [taskId]
  ]
})

const findChecklistItems = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({
    id: Schema.String,
    checklistId: Schema.String,
    name: Schema.String,
    resolved: Schema.Boolean,
    assigneeId: Schema.NullOr(Schema.String),
    position: Schema.Number
  }),
  execute: (taskId) => [
    `SELECT id, checklist_id AS "checklistId", name, resolved, assignee_id AS "assigneeId", position FROM pm_checklist_items WHERE task_id = $1 ORDER BY position, created_at`,
    [taskId]
  ]
})

/** A task's checklists in order, each with its items in order and how many are resolved. */
export const checklistsOf = (taskId: string) =>
  Effect.gen(function* () {
    const lists = yield* findChecklists(taskId)
    const items = yield* findChecklistItems(taskId)
    return lists.map((c) => {
      const own = items.filter((i) => i.checklistId === c.id).map(({ checklistId: _c, ...i }) => i)
      return { ...c, items: own, resolvedCount: own.filter((i) => i.resolved).length }
    })
  })
