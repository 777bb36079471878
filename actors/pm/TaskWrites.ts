/**
 * Creating tasks and changing their fields: the rules every path shares
 * (createTask, subtasks, bulk, templates, Lite). Space features gate what a
 * task may carry; list and space defaults fill what a new task leaves out;
 * statuses come from the list's effective workflow; custom field values are
 * validated against their definitions; assignment and status changes
 * notify; finishing a recurring task schedules its next occurrence.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { NotWorkspaceMembers } from "./PmErrors.ts"
import type { Change, Notify } from "./ChangeLog.ts"
import { change, notifyUsers } from "./Changes.ts"
import { availableFields, validateValue } from "./CustomFields.ts"
import { requireMembers } from "./Members.ts"
import { requireTaskRoom } from "../platform/QuotaChecks.ts"
import { nextShortId } from "./ShortIds.ts"
import { effectiveStatuses, findStatus, initialStatus } from "./Statuses.ts"
import { featuresOfSpace, getTask, getTaskForWrite, updateOwnColumns } from "./TaskReads.ts"
import { DateTime, type Features, isFinished, Priority, type Status, type Task, type TaskDefaults } from "./WorkRecords.ts"

export interface Home {
  readonly workspaceId: string
  readonly spaceId: string
  readonly folderId: string | null
  readonly listId: string
}

/** A task's description (Markdown). */
export const Description = Schema.String.check(Schema.isMaxLength(50_000))
export const Minutes = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))
export const TagNames = Schema.Array(Name(64)).check(Schema.isMaxLength(50))
export const FieldValues = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "Custom field values by field id (or name); null clears one"
})
// Unbounded: the facade bounds ids and e-mails separately, and merges them.
const AssigneeIds = Schema.Array(Id)

export const Recurrence = Schema.Struct({
  frequency: Schema.Literals(["daily", "weekly", "monthly", "yearly"]),
  interval: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 365 })),
  until: Schema.optionalKey(Schema.NullOr(DateTime))
}).annotate({
  identifier: "Recurrence",
  description: "When the task is finished, its next occurrence is created with its dates moved on by the interval."
})
export type Recurrence = typeof Recurrence.Type

/** What creating a task takes (ids, not e-mails or names: the facade resolves those; dates already ISO). */
export const NewTask = Schema.Struct({
  name: Name(500),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(AssigneeIds),
  tagNames: Schema.optionalKey(TagNames),
  customFields: Schema.optionalKey(FieldValues),
  parentTaskId: Schema.optionalKey(Schema.NullOr(Id)),
  recurrence: Schema.optionalKey(Schema.NullOr(Recurrence))
})
export type NewTask = typeof NewTask.Type

/** A change of a task's fields; what is left out stays. */
export const TaskPatch = Schema.Struct({
  name: Schema.optionalKey(Name(500)),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(AssigneeIds.annotate({ description: "Replaces the assignees" })),
  addAssigneeIds: Schema.optionalKey(AssigneeIds),
  removeAssigneeIds: Schema.optionalKey(AssigneeIds),
  tagNames: Schema.optionalKey(TagNames.annotate({ description: "Replaces the tags (by name; missing tags are created in the space)" })),
  customFields: Schema.optionalKey(FieldValues)
})
export type TaskPatch = typeof TaskPatch.Type

type Step<A> = Effect.Effect<A, Rejection | NotWorkspaceMembers | SqlError, Sql>

export const taskWhere = (task: { workspaceId: string; spaceId: string; listId: string; id: string }) => ({
  workspaceId: task.workspaceId,
  spaceId: task.spaceId,
  listId: task.listId,
  taskId: task.id
})

/** A change of one task, addressed where the task lives. */
export const taskChange = (task: Task, type: string, data: Record<string, unknown>, by: string, notify: ReadonlyArray<Notify> = []) =>
  change(taskWhere(task), type, task.id, data, by, notify)

const disabled = (feature: string, path: string) =>
  Effect.fail(reject("invalid", `${feature} are turned off in this space`, [{ path, message: `${feature} disabled in this space` }]))

/** Refuses values of features the space turned off. */
export const checkFeatures = (features: Features, input: Partial<NewTask & TaskPatch>, prefix = "body"): Step<void> => {
  if (!features.priorities && input.priority != null) return disabled("Priorities", `${prefix}.priority`)
  if (!features.dueDates && input.dueDate != null) return disabled("Due dates", `${prefix}.dueDate`)
  if (!features.startDates && input.startDate != null) return disabled("Start dates", `${prefix}.startDate`)
  if (!features.timeEstimates && input.timeEstimateMinutes != null) return disabled("Time estimates", `${prefix}.timeEstimateMinutes`)
  if (!features.tags && input.tagNames?.length) return disabled("Tags", `${prefix}.tags`)
  if (!features.customFields && input.customFields && Object.keys(input.customFields).length > 0)
    return disabled("Custom fields", `${prefix}.customFields`)
  if (!features.multipleAssignees && (input.assigneeIds?.length ?? 0) > 1) {
    return Effect.fail(
      reject("invalid", "This space allows one assignee per task", [{ path: `${prefix}.assigneeIds`, message: "at most one assignee" }])
    )
  }
  return Effect.void
}

const checkDates = (startDate: string | null | undefined, dueDate: string | null | undefined, prefix = "body"): Step<void> =>
  startDate && dueDate && Date.parse(startDate) > Date.parse(dueDate)
    ? Effect.fail(reject("invalid", "startDate must not be after dueDate", [{ path: `${prefix}.startDate`, message: "after dueDate" }]))
    : Effect.void

const unknownStatus = (statuses: ReadonlyArray<Status>, name: string, path: string) =>
  Effect.fail(
    reject("invalid", `Unknown status "${name}"; this list's statuses are: ${statuses.map((s) => s.name).join(", ")}`, [
      { path, message: "unknown status" }
    ])
  )

/** Defaults of the list over those of its space, key by key. */
export const defaultsFor = (home: Home) =>
  Effect.map(
    query<{ space: TaskDefaults; list: TaskDefaults }>(
      `SELECT s.task_defaults AS space, l.task_defaults AS list FROM pm_lists l JOIN pm_spaces s ON s.id = l.space_id WHERE l.id = $1`,
      [home.listId]
    ),
    (rows): TaskDefaults => ({ ...(rows[0]?.space ?? {}), ...(rows[0]?.list ?? {}) })
  )

/** The space's tag of that name, created (gray) if missing. */
export const tagByName = (workspaceId: string, spaceId: string, name: string, by: string, color = "#8d8d8d") =>
  Effect.gen(function* () {
    const existing = yield* query<{ id: string }>(`SELECT id FROM pm_tags WHERE space_id = $1 AND lower(name) = lower($2)`, [
      spaceId,
      name.trim()
    ])
    if (existing[0]) return existing[0].id
    const id = crypto.randomUUID()
    yield* query(`INSERT INTO pm_tags (id, workspace_id, space_id, name, color, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
      id,
      workspaceId,
      spaceId,
      name.trim(),
      color,
      by
    ])
    return id
  })

/** Validates custom field values against the fields available at `home`; null values mean "clear". */
export const checkFieldValues = (home: Home, values: Readonly<Record<string, unknown>>, prefix: string) =>
  Effect.gen(function* () {
    const fields = yield* availableFields(home)
    const checked: Array<{ fieldId: string; value: unknown | null }> = []
    for (const [key, value] of Object.entries(values)) {
      const field = fields.find((f) => f.id === key) ?? fields.find((f) => f.name.toLowerCase() === key.trim().toLowerCase())
      if (field === undefined)
        return yield* reject("invalid", `No custom field "${key}" applies to this list`, [
          { path: `${prefix}.${key}`, message: "unknown custom field" }
        ])
      if (value === null) {
        if (field.required)
          return yield* reject("invalid", `The custom field "${field.name}" is required`, [
            { path: `${prefix}.${key}`, message: "required" }
          ])
        checked.push({ fieldId: field.id, value: null })
      } else {
        checked.push({ fieldId: field.id, value: yield* validateValue(field, value, `${prefix}.${key}`) })
      }
    }
    return { fields, checked }
  })

export const writeFieldValues = (taskId: string, checked: ReadonlyArray<{ fieldId: string; value: unknown | null }>, by: string) =>
  Effect.forEach(
    checked,
    ({ fieldId, value }) =>
      value === null
        ? query(`DELETE FROM pm_task_custom_values WHERE task_id = $1 AND field_id = $2`, [taskId, fieldId])
        : query(
            `INSERT INTO pm_task_custom_values (task_id, field_id, value, updated_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (task_id, field_id) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`,
            [taskId, fieldId, value, by]
          ),
    { discard: true }
  )

export const recordStatus = (taskId: string, status: Pick<Status, "name" | "type">, by: string) =>
  query(`INSERT INTO pm_task_status_history (id, task_id, status, status_type, entered_by) VALUES ($1, $2, $3, $4, $5)`, [
    crypto.randomUUID(),
    taskId,
    status.name,
    status.type,
    by
  ])

const watchersOfScopes = (scopes: ReadonlyArray<[string, string | null]>) =>
  Effect.map(
    query<{ userId: string }>(
      `SELECT DISTINCT user_id AS "userId" FROM pm_watchers WHERE (scope_type, scope_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [scopes.filter(([, id]) => id).map(([t]) => t), scopes.filter(([, id]) => id).map(([, id]) => id)]
    ),
    (rows) => rows.map((r) => r.userId)
  )

const nextTaskPosition = (listId: string) =>
  Effect.map(
    query<{ position: number }>(`SELECT COALESCE(MAX(position), 0) + 1 AS position FROM pm_tasks WHERE list_id = $1`, [listId]),
    (rows) => Number(rows[0]!.position)
  )

/** Inserts a task in `home` (the list actor's command body); returns it and its changes. */
export const insertTask = (home: Home, input: NewTask, by: string, prefix = "body"): Step<{ task: Task; changes: Array<Change> }> =>
  Effect.gen(function* () {
    yield* requireTaskRoom(home.workspaceId, prefix)
    const features = yield* featuresOfSpace(home.spaceId)
    yield* checkFeatures(features, input, prefix)
    const defaults = yield* defaultsFor(home)
    const statuses = (yield* effectiveStatuses({ ...home })).items
    const status = input.status === undefined ? initialStatus(statuses) : findStatus(statuses, input.status)
    if (status === undefined) return yield* unknownStatus(statuses, input.status ?? "", `${prefix}.status`)
    const priority = input.priority !== undefined ? input.priority : features.priorities ? (defaults.priority ?? null) : null
    const assigneeIds = [...new Set(input.assigneeIds ?? defaults.assigneeIds ?? [])]
    const timeEstimate =
      input.timeEstimateMinutes !== undefined
        ? input.timeEstimateMinutes
        : features.timeEstimates
          ? (defaults.timeEstimateMinutes ?? null)
          : null
    const dueDate =
      input.dueDate !== undefined
        ? input.dueDate
        : features.dueDates && defaults.dueInDays != null
          ? new Date(Date.now() + defaults.dueInDays * 86_400_000).toISOString()
          : null
    yield* checkDates(input.startDate, dueDate, prefix)
    yield* requireMembers(home.workspaceId, assigneeIds, `${prefix}.assigneeIds`)
    if (!features.multipleAssignees && assigneeIds.length > 1) yield* checkFeatures(features, { assigneeIds }, prefix)
    const { fields, checked } = yield* checkFieldValues(home, input.customFields ?? {}, `${prefix}.customFields`)
    const missing = fields.filter((f) => f.required && !checked.some((c) => c.fieldId === f.id && c.value !== null))
    if (missing.length > 0) {
      return yield* reject(
        "invalid",
        `Required custom fields missing: ${missing.map((f) => f.name).join(", ")}`,
        missing.map((f) => ({ path: `${prefix}.customFields.${f.id}`, message: `required (${f.name})` }))
      )
    }
    if (input.parentTaskId) {
      const parent = yield* query<{ listId: string }>(`SELECT list_id AS "listId" FROM pm_tasks WHERE id = $1 AND deleted_at IS NULL`, [
        input.parentTaskId
      ])
      if (parent[0]?.listId !== home.listId)
        return yield* reject("invalid", "A subtask lives in its parent's list", [
          { path: `${prefix}.parentTaskId`, message: "parent not in this list" }
        ])
    }
    const id = crypto.randomUUID()
    const shortId = yield* nextShortId(home.workspaceId, "T")
    const position = yield* nextTaskPosition(home.listId)
    yield* query(
      `INSERT INTO pm_tasks (id, workspace_id, space_id, list_id, parent_task_id, short_id, name, description, status, priority, start_date, due_date,
                             time_estimate_minutes, position, created_by, closed_at, recurrence)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, ${isFinished(status.type) ? "now()" : "NULL"}, $16)`,
      [
        id,
        home.workspaceId,
        home.spaceId,
        home.listId,
        input.parentTaskId ?? null,
        shortId,
        input.name.trim(),
        input.description ?? "",
        status.name,
        priority,
        input.startDate ?? null,
        dueDate,
        timeEstimate,
        position,
        by,
        input.recurrence ?? null
      ]
    )
    for (const userId of assigneeIds) yield* query(`INSERT INTO pm_task_assignees (task_id, user_id) VALUES ($1, $2)`, [id, userId])
    // The creator and the assignees follow the task.
    for (const userId of new Set([by, ...assigneeIds])) {
      yield* query(`INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ('task', $1, $2) ON CONFLICT DO NOTHING`, [id, userId])
    }
    for (const name of new Set((input.tagNames ?? []).map((n) => n.trim().toLowerCase()))) {
      const tagId = yield* tagByName(
        home.workspaceId,
        home.spaceId,
        (input.tagNames ?? []).find((n) => n.trim().toLowerCase() === name)!,
        by
      )
      yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, tagId])
    }
    yield* writeFieldValues(
      id,
      checked.filter((c) => c.value !== null),
      by
    )
    yield* recordStatus(id, status, by)
    const task = yield* getTask(id)
    const followers = yield* watchersOfScopes([
      ["list", home.listId],
      ["folder", home.folderId],
      ["space", home.spaceId]
    ])
    const notify: Array<Notify> = [
      ...notifyUsers(assigneeIds, "assigned", `You were assigned ${task.shortId}: ${task.name}`, by),
      ...notifyUsers(
        followers.filter((u) => !assigneeIds.includes(u)),
        "watching",
        `New task ${task.shortId}: ${task.name}`,
        by
      )
    ]
    const changes = [
      change(
        taskWhere(task),
        "task.created",
        id,
        {
          name: task.name,
          shortId,
          status: status.name,
          listId: home.listId,
          parentTaskId: task.parentTaskId,
          priority,
          assigneeIds,
          dueDate
        },
        by,
        notify
      )
    ]
    return { task, changes }
  })

const sameMembers = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((x) => b.includes(x))

const addInterval = (iso: string, recurrence: Recurrence) => {
  const date = new Date(iso)
  const n = recurrence.interval
  if (recurrence.frequency === "daily") date.setUTCDate(date.getUTCDate() + n)
  if (recurrence.frequency === "weekly") date.setUTCDate(date.getUTCDate() + 7 * n)
  if (recurrence.frequency === "monthly") date.setUTCMonth(date.getUTCMonth() + n)
  if (recurrence.frequency === "yearly") date.setUTCFullYear(date.getUTCFullYear() + n)
  return date.toISOString()
}

/** When a recurring task finishes, its next occurrence is created (the recurrence moves to it). */
const scheduleNext = (task: Task, by: string): Step<Array<Change>> =>
  Effect.gen(function* () {
    const recurrence = task.recurrence as Recurrence | null
    if (!recurrence) return []
    const anchor = task.dueDate ?? task.startDate ?? new Date().toISOString()
    const nextDue = task.dueDate ? addInterval(task.dueDate, recurrence) : null
    const nextStart = task.startDate ? addInterval(task.startDate, recurrence) : null
    yield* query(`UPDATE pm_tasks SET recurrence = NULL WHERE id = $1`, [task.id])
    if (recurrence.until && Date.parse(addInterval(anchor, recurrence)) > Date.parse(recurrence.until)) return []
    const home = { workspaceId: task.workspaceId, spaceId: task.spaceId, folderId: task.folderId, listId: task.listId }
    const next = yield* insertTask(
      home,
      {
        name: task.name,
        description: task.description,
        priority: task.priority,
        startDate: nextStart,
        dueDate: nextDue,
        timeEstimateMinutes: task.timeEstimateMinutes,
        assigneeIds: task.assignees.map((a) => a.id),
        tagNames: task.tags.map((t) => t.name),
        customFields: {},
        parentTaskId: task.parentTaskId,
        recurrence
      },
      by
    )
    yield* query(
      `INSERT INTO pm_task_custom_values (task_id, field_id, value, updated_by) SELECT $2, field_id, value, $3 FROM pm_task_custom_values WHERE task_id = $1`,
      [task.id, next.task.id, by]
    )
    return [...next.changes, change(taskWhere(task), "task.recurred", task.id, { nextTaskId: next.task.id }, by)]
  })

/**
 * Applies a patch to a task (the task actor's command body): one version
 * bump, one `task.updated` with the changed fields, plus `status.changed`
 * and notifications when the status or the assignees changed.
 */
export const patchTask = (taskId: string, patch: TaskPatch, by: string, prefix = "body"): Step<{ task: Task; changes: Array<Change> }> =>
  Effect.gen(function* () {
    const { task: before, features } = yield* getTaskForWrite(taskId)
    const home: Home = { workspaceId: before.workspaceId, spaceId: before.spaceId, folderId: before.folderId, listId: before.listId }
    yield* checkFeatures(features, patch, prefix)
    const sets: Array<string> = []
    const params: Array<unknown> = [taskId]
    const data: Record<string, unknown> = {}
    const previous: Record<string, unknown> = {}
    const set = (column: string, key: string, value: unknown, old: unknown) => {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(old)) return
      params.push(value)
      sets.push(`${column} = $${params.length}`)
      data[key] = value
      previous[key] = old
    }
    set("name", "name", patch.name?.trim(), before.name)
    set("description", "description", patch.description, before.description)
    set("priority", "priority", patch.priority, before.priority)
    set("start_date", "startDate", patch.startDate, before.startDate)
    set("due_date", "dueDate", patch.dueDate, before.dueDate)
    set("time_estimate_minutes", "timeEstimateMinutes", patch.timeEstimateMinutes, before.timeEstimateMinutes)
    yield* checkDates(
      patch.startDate !== undefined ? patch.startDate : before.startDate,
      patch.dueDate !== undefined ? patch.dueDate : before.dueDate,
      prefix
    )
    let newStatus: Status | undefined
    if (patch.status !== undefined) {
      const statuses = (yield* effectiveStatuses(home)).items
      newStatus = findStatus(statuses, patch.status)
      if (newStatus === undefined) return yield* unknownStatus(statuses, patch.status, `${prefix}.status`)
      if (newStatus.name !== before.status.name) {
        set("status", "status", newStatus.name, before.status.name)
        sets.push(isFinished(newStatus.type) ? "closed_at = COALESCE(closed_at, now())" : "closed_at = NULL")
      } else newStatus = undefined
    }
    // Assignees
    const current = before.assignees.map((a) => a.id)
    let assignees = patch.assigneeIds ? [...new Set(patch.assigneeIds)] : [...current]
    if (patch.addAssigneeIds) assignees = [...new Set([...assignees, ...patch.addAssigneeIds])]
    if (patch.removeAssigneeIds) assignees = assignees.filter((id) => !patch.removeAssigneeIds!.includes(id))
    const assigneesChanged = !sameMembers(assignees, current)
    if (assigneesChanged) {
      yield* requireMembers(
        before.workspaceId,
        assignees.filter((id) => !current.includes(id)),
        `${prefix}.assigneeIds`
      )
      if (!features.multipleAssignees && assignees.length > 1) yield* checkFeatures(features, { assigneeIds: assignees }, prefix)
      yield* query(`DELETE FROM pm_task_assignees WHERE task_id = $1 AND NOT (user_id = ANY($2::text[]))`, [taskId, assignees])
      for (const userId of assignees.filter((id) => !current.includes(id))) {
        yield* query(`INSERT INTO pm_task_assignees (task_id, user_id) VALUES ($1, $2)`, [taskId, userId])
        yield* query(`INSERT INTO pm_watchers (scope_type, scope_id, user_id) VALUES ('task', $1, $2) ON CONFLICT DO NOTHING`, [
          taskId,
          userId
        ])
      }
      data.assigneeIds = assignees
      previous.assigneeIds = current
    }
    // Tags
    if (patch.tagNames !== undefined) {
      const wanted = [...new Set(patch.tagNames.map((n) => n.trim().toLowerCase()))]
      const had = before.tags.map((t) => t.name.toLowerCase())
      if (!sameMembers(wanted, had)) {
        const tagIds: Array<string> = []
        for (const name of wanted)
          tagIds.push(
            yield* tagByName(before.workspaceId, before.spaceId, patch.tagNames.find((n) => n.trim().toLowerCase() === name)!, by)
          )
        yield* query(`DELETE FROM pm_task_tags WHERE task_id = $1 AND NOT (tag_id = ANY($2::text[]))`, [taskId, tagIds])
        for (const tagId of tagIds)
          yield* query(`INSERT INTO pm_task_tags (task_id, tag_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [taskId, tagId])
        data.tags = wanted
        previous.tags = had
      }
    }
    // Custom fields
    if (patch.customFields && Object.keys(patch.customFields).length > 0) {
      const { checked } = yield* checkFieldValues(home, patch.customFields, `${prefix}.customFields`)
      yield* writeFieldValues(taskId, checked, by)
      data.customFields = Object.fromEntries(checked.map((c) => [c.fieldId, c.value]))
    }
    // `version` counts accepted writes: a patch whose values equal the current ones still counts once.
    const given = Object.values(patch).some((v) => v !== undefined)
    if (!given) return { task: before, changes: [] }
    sets.push("version = version + 1", "updated_at = now()")
    // Only the task's own columns changed: the update returns it, its presentation is the one it had.
    const ownColumnsOnly = newStatus === undefined && !assigneesChanged && data.tags === undefined && data.customFields === undefined
    let task: Task
    if (ownColumnsOnly) task = yield* updateOwnColumns(before, sets.join(", "), params)
    else {
      yield* query(`UPDATE pm_tasks SET ${sets.join(", ")} WHERE id = $1`, params)
      if (newStatus) yield* recordStatus(taskId, newStatus, by)
      task = yield* getTask(taskId)
    }
    const label = `${task.shortId}: ${task.name}`
    const added = assignees.filter((id) => !current.includes(id))
    const changes: Array<Change> = [
      change(
        taskWhere(task),
        "task.updated",
        taskId,
        { ...data, previous, version: task.version },
        by,
        notifyUsers(added, "assigned", `You were assigned ${label}`, by)
      )
    ]
    if (newStatus) {
      const watchers = yield* query<{ userId: string }>(
        `SELECT user_id AS "userId" FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1`,
        [taskId]
      )
      changes.push(
        change(
          taskWhere(task),
          "status.changed",
          taskId,
          { from: before.status.name, to: newStatus.name, type: newStatus.type },
          by,
          notifyUsers([...assignees, ...watchers.map((w) => w.userId)], "status_changed", `${label} is now ${newStatus.name}`, by)
        )
      )
      if (isFinished(newStatus.type) && !isFinished(before.status.type)) changes.push(...(yield* scheduleNext(task, by)))
    }
    return { task: newStatus && task.recurrence ? yield* getTask(taskId) : task, changes }
  })

/** Bumps the task's version for a change to one of its parts (checklists, tags, attachments …). */
export const touchTask = (taskId: string) =>
  Effect.map(
    query<{ version: number }>(`UPDATE pm_tasks SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version`, [taskId]),
    (rows) => rows[0]?.version ?? 0
  )
