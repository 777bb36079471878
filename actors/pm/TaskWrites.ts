/**
 * Creating tasks and changing their fields: the rules every path shares
 * (createTask, subtasks, bulk, templates, Lite). Space features gate what a
 * task may carry; list and space defaults fill what a new task leaves out;
 * statuses come from the list's effective workflow; custom field values are
 * validated against their definitions; assignment and status changes
 * notify; finishing a recurring task schedules its next occurrence.
 */
import { Cause, Effect, Exit, Option, Schema } from "effect"
import { Id, Name } from "../Fields.ts"
import { query, type Sql, SqlError } from "../../persistence/Sql.ts"
import { InvalidFieldValue } from "./PlanningErrors.ts"
import { NotWorkspaceMembers, TaskNotFound } from "./PmErrors.ts"
import { TaskQuotaReached } from "../platform/QuotaChecks.ts"
import {
  CustomFieldRequired,
  FeatureTurnedOff,
  OneAssigneePerTask,
  ParentInOtherList,
  RequiredFieldsMissing,
  StartAfterDue,
  UnknownCustomField,
  UnknownStatus
} from "./WorkErrors.ts"
import type { Change, Notify } from "./ChangeLog.ts"
import { change, notifyUsers } from "./Changes.ts"
import { availableFields, validateValue } from "./CustomFields.ts"
import { membersOf, notMembers, requireMembers } from "./Members.ts"
import { taskRoom } from "../platform/QuotaChecks.ts"
import { effectiveStatuses, findStatus, initialStatus } from "./Statuses.ts"
import {
  featuresOfSpace,
  getTask,
  getTaskForWrite,
  getTasks,
  present,
  type TaskRow,
  updatedColumns,
  updateOwnColumns
} from "./TaskReads.ts"
import {
  type CustomField,
  DateTime,
  defaultFeatures,
  type Features,
  isFinished,
  Priority,
  type Status,
  type Task,
  type TaskDefaults
} from "./WorkRecords.ts"

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

/** What writing a task's fields may be refused with. */
export const TaskWriteRefused = Schema.Union([
  FeatureTurnedOff,
  OneAssigneePerTask,
  StartAfterDue,
  UnknownStatus,
  UnknownCustomField,
  CustomFieldRequired,
  RequiredFieldsMissing,
  ParentInOtherList,
  InvalidFieldValue,
  NotWorkspaceMembers,
  TaskNotFound,
  TaskQuotaReached
])
export type TaskWriteError = typeof TaskWriteRefused.Type

type Step<A> = Effect.Effect<A, TaskWriteError | SqlError, Sql>

export const taskWhere = (task: { workspaceId: string; spaceId: string; listId: string; id: string }) => ({
  workspaceId: task.workspaceId,
  spaceId: task.spaceId,
  listId: task.listId,
  taskId: task.id
})

/** A change of one task, addressed where the task lives. */
export const taskChange = (task: Task, type: string, data: Record<string, unknown>, by: string, notify: ReadonlyArray<Notify> = []) =>
  change(taskWhere(task), type, task.id, data, by, notify)

const disabled = (feature: string, field: string) => Effect.fail(new FeatureTurnedOff({ feature, field }))

/** Refuses values of features the space turned off. */
export const checkFeatures = (
  features: Features,
  input: Partial<NewTask & TaskPatch>,
  prefix = "body"
): Effect.Effect<void, FeatureTurnedOff | OneAssigneePerTask> => {
  if (!features.priorities && input.priority != null) return disabled("Priorities", `${prefix}.priority`)
  if (!features.dueDates && input.dueDate != null) return disabled("Due dates", `${prefix}.dueDate`)
  if (!features.startDates && input.startDate != null) return disabled("Start dates", `${prefix}.startDate`)
  if (!features.timeEstimates && input.timeEstimateMinutes != null) return disabled("Time estimates", `${prefix}.timeEstimateMinutes`)
  if (!features.tags && input.tagNames?.length) return disabled("Tags", `${prefix}.tags`)
  if (!features.customFields && input.customFields && Object.keys(input.customFields).length > 0)
    return disabled("Custom fields", `${prefix}.customFields`)
  if (!features.multipleAssignees && (input.assigneeIds?.length ?? 0) > 1) {
    return Effect.fail(new OneAssigneePerTask({ field: `${prefix}.assigneeIds` }))
  }
  return Effect.void
}

const checkDates = (startDate: string | null | undefined, dueDate: string | null | undefined, prefix = "body"): Step<void> =>
  startDate && dueDate && Date.parse(startDate) > Date.parse(dueDate)
    ? Effect.fail(new StartAfterDue({ field: `${prefix}.startDate` }))
    : Effect.void

const unknownStatus = (statuses: ReadonlyArray<Status>, name: string, path: string) =>
  Effect.fail(new UnknownStatus({ name, statuses: statuses.map((s) => s.name), field: path }))

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
  Effect.flatMap(availableFields(home), (fields) => Effect.map(checkValuesOf(fields, values, prefix), (checked) => ({ fields, checked })))

/** Validates custom field values against `fields` (those available where the task is); null values mean "clear". */
const checkValuesOf = (fields: ReadonlyArray<CustomField>, values: Readonly<Record<string, unknown>>, prefix: string) =>
  Effect.gen(function* () {
    const checked: Array<{ fieldId: string; value: unknown | null }> = []
    for (const [key, value] of Object.entries(values)) {
      const field = fields.find((f) => f.id === key) ?? fields.find((f) => f.name.toLowerCase() === key.trim().toLowerCase())
      if (field === undefined) return yield* new UnknownCustomField({ key, field: `${prefix}.${key}` })
      if (value === null) {
        if (field.required) return yield* new CustomFieldRequired({ name: field.name, field: `${prefix}.${key}` })
        checked.push({ fieldId: field.id, value: null })
      } else {
        checked.push({ fieldId: field.id, value: yield* validateValue(field, value, `${prefix}.${key}`) })
      }
    }
    return checked
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

/** One task of a batch to insert: its input, its creator, and where its input sits in the request (the errors' paths). */
export interface TaskToInsert {
  readonly input: NewTask
  readonly by: string
  /** Default "body". */
  readonly prefix?: string
}

export interface Inserted {
  readonly task: Task
  readonly changes: Array<Change>
}

/** What every task of a batch is checked against and filled from, read once for the batch. */
interface Place {
  readonly home: Home
  readonly room: { readonly limit: number; readonly left: number } | undefined
  readonly features: Features
  readonly defaults: TaskDefaults
  readonly statuses: ReadonlyArray<Status>
  readonly fields: ReadonlyArray<CustomField>
  readonly followers: ReadonlyArray<string>
  /** Members of the workspace, read when some task of the batch is assigned. */
  readonly members: ReadonlyMap<string, unknown>
  /** Home list of each not-deleted parent the batch names. */
  readonly parents: ReadonlyMap<string, string>
}

/** A task of the batch that passed every check: its row, its people, its values. */
interface Planned {
  readonly id: string
  readonly by: string
  readonly input: NewTask
  readonly status: Status
  readonly priority: Priority | null
  readonly assigneeIds: ReadonlyArray<string>
  readonly timeEstimate: number | null
  readonly dueDate: string | null
  readonly values: ReadonlyArray<{ readonly fieldId: string; readonly value: unknown }>
}

/** The defaults' assignees of a task that names none. */
const assigneesOf = (input: NewTask, defaults: TaskDefaults) => [...new Set(input.assigneeIds ?? defaults.assigneeIds ?? [])]

const sameHome = (a: Home, b: Home) =>
  a.workspaceId === b.workspaceId && a.spaceId === b.spaceId && a.folderId === b.folderId && a.listId === b.listId

/**
 * What the batch shares. `located` reads where the list is now, alongside: when that is not `home` (a
 * hint from memory, behind the rows), the place is read again for where it is.
 */
const placeOf = <E>(home: Home, tasks: ReadonlyArray<TaskToInsert>, located: Effect.Effect<Home, E | SqlError, Sql> | undefined) =>
  Effect.gen(function* () {
    const [actual, place] = yield* Effect.all([located ?? Effect.succeed(home), readPlace(home, tasks)], { concurrency: "unbounded" })
    return sameHome(actual, home) ? place : yield* readPlace(actual, tasks)
  })

/** Reads what the batch shares; the statements go out together (one round trip on PostgreSQL). */
const readPlace = (home: Home, tasks: ReadonlyArray<TaskToInsert>): Step<Place> =>
  Effect.gen(function* () {
    const parentIds = [...new Set(tasks.flatMap((t) => (t.input.parentTaskId ? [t.input.parentTaskId] : [])))]
    const [room, features, defaults, statuses, fields, followers, parents] = yield* Effect.all(
      [
        taskRoom(home.workspaceId),
        featuresOfSpace(home.spaceId),
        defaultsFor(home),
        effectiveStatuses({ ...home }),
        availableFields(home),
        watchersOfScopes([
          ["list", home.listId],
          ["folder", home.folderId],
          ["space", home.spaceId]
        ]),
        parentIds.length === 0
          ? Effect.succeed([])
          : query<{ id: string; listId: string }>(
              `SELECT id, list_id AS "listId" FROM pm_tasks WHERE id = ANY($1::text[]) AND deleted_at IS NULL`,
              [parentIds]
            )
      ],
      { concurrency: "unbounded" }
    )
    const assigned = tasks.some((t) => assigneesOf(t.input, defaults).length > 0)
    return {
      home,
      room,
      features,
      defaults,
      statuses: statuses.items,
      fields,
      followers,
      members: assigned ? yield* membersOf(home.workspaceId) : new Map(),
      parents: new Map(parents.map((p) => [p.id, p.listId] as const))
    }
  })

/** Checks one task of the batch (`accepted`: how many before it passed) and fills in its defaults. */
const plan = (place: Place, task: TaskToInsert, accepted: number): Step<Planned> =>
  Effect.gen(function* () {
    const { input, by } = task
    const prefix = task.prefix ?? "body"
    const { features, defaults, statuses, home } = place
    if (place.room !== undefined && accepted + 1 > place.room.left) {
      return yield* new TaskQuotaReached({ limit: place.room.limit, field: prefix })
    }
    yield* checkFeatures(features, input, prefix)
    const status = input.status === undefined ? initialStatus(statuses) : findStatus(statuses, input.status)
    if (status === undefined) return yield* unknownStatus(statuses, input.status ?? "", `${prefix}.status`)
    const priority = input.priority !== undefined ? input.priority : features.priorities ? (defaults.priority ?? null) : null
    const assigneeIds = assigneesOf(input, defaults)
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
    const outside = notMembers(place.members, assigneeIds, `${prefix}.assigneeIds`)
    if (outside !== undefined) return yield* outside
    if (!features.multipleAssignees && assigneeIds.length > 1) yield* checkFeatures(features, { assigneeIds }, prefix)
    const checked = yield* checkValuesOf(place.fields, input.customFields ?? {}, `${prefix}.customFields`)
    const missing = place.fields.filter((f) => f.required && !checked.some((c) => c.fieldId === f.id && c.value !== null))
    if (missing.length > 0) {
      return yield* new RequiredFieldsMissing({
        fields: missing.map((f) => ({ name: f.name, path: `${prefix}.customFields.${f.id}` }))
      })
    }
    if (input.parentTaskId && place.parents.get(input.parentTaskId) !== home.listId) {
      return yield* new ParentInOtherList({ field: `${prefix}.parentTaskId` })
    }
    return {
      id: crypto.randomUUID(),
      by,
      input,
      status,
      priority,
      assigneeIds,
      timeEstimate,
      dueDate,
      values: checked.filter((c) => c.value !== null)
    }
  })

/**
 * The batch's rows in one statement of fixed arity (its rows as JSON recordsets): short ids and positions
 * taken in order, the tasks, their assignees, watchers (creator and assignees), tags, custom values and
 * first status. Returns the tasks' rows.
 */
const insertRows = `WITH v AS (
    SELECT * FROM jsonb_to_recordset($5::jsonb) AS v(ord int, id text, parent_task_id text, name text, description text, status text,
      priority text, start_date timestamptz, due_date timestamptz, time_estimate_minutes int, finished boolean, recurrence jsonb, created_by text)
  ), short AS (
    INSERT INTO pm_short_id_counters (workspace_id, prefix, next_value) VALUES ($1, 'T', $4::int + 1)
    ON CONFLICT (workspace_id, prefix) DO UPDATE SET next_value = pm_short_id_counters.next_value + $4::int
    RETURNING next_value - $4::int AS first
  ), place AS (
    SELECT COALESCE(MAX(position), 0) AS last FROM pm_tasks WHERE list_id = $3
  ), inserted AS (
    INSERT INTO pm_tasks AS t (id, workspace_id, space_id, list_id, parent_task_id, short_id, name, description, status, priority, start_date,
                               due_date, time_estimate_minutes, position, created_by, closed_at, recurrence)
    SELECT v.id, $1, $2, $3, v.parent_task_id, 'T-' || (short.first + v.ord - 1), v.name, v.description, v.status, v.priority, v.start_date,
           v.due_date, v.time_estimate_minutes, place.last + v.ord, v.created_by, CASE WHEN v.finished THEN now() END, v.recurrence
      FROM v, short, place
    RETURNING ${updatedColumns}
  ), assigned AS (
    INSERT INTO pm_task_assignees (task_id, user_id) SELECT a.task_id, a.user_id FROM jsonb_to_recordset($6::jsonb) AS a(task_id text, user_id text)
  ), watching AS (
    INSERT INTO pm_watchers (scope_type, scope_id, user_id)
    SELECT 'task', w.task_id, w.user_id FROM jsonb_to_recordset($7::jsonb) AS w(task_id text, user_id text) ON CONFLICT DO NOTHING
  ), tagged AS (
    INSERT INTO pm_task_tags (task_id, tag_id) SELECT g.task_id, g.tag_id FROM jsonb_to_recordset($8::jsonb) AS g(task_id text, tag_id text)
    ON CONFLICT DO NOTHING
  ), valued AS (
    INSERT INTO pm_task_custom_values (task_id, field_id, value, updated_by)
    SELECT c.task_id, c.field_id, c.value, c.updated_by FROM jsonb_to_recordset($9::jsonb) AS c(task_id text, field_id text, value jsonb, updated_by text)
  ), history AS (
    INSERT INTO pm_task_status_history (id, task_id, status, status_type, entered_by)
    SELECT h.id, h.task_id, h.status, h.status_type, h.entered_by
      FROM jsonb_to_recordset($10::jsonb) AS h(id text, task_id text, status text, status_type text, entered_by text)
  )
  SELECT * FROM inserted`

/** Writes the planned tasks (tags by name first: found or created in the space); their rows by id. */
const writeTasks = (home: Home, planned: ReadonlyArray<Planned>) =>
  Effect.gen(function* () {
    const tagged: Array<{ task_id: string; tag_id: string }> = []
    const tagIds = new Map<string, string>()
    for (const task of planned) {
      for (const name of new Set((task.input.tagNames ?? []).map((n) => n.trim().toLowerCase()))) {
        let tagId = tagIds.get(name)
        if (tagId === undefined) {
          tagId = yield* tagByName(
            home.workspaceId,
            home.spaceId,
            (task.input.tagNames ?? []).find((n) => n.trim().toLowerCase() === name)!,
            task.by
          )
          tagIds.set(name, tagId)
        }
        tagged.push({ task_id: task.id, tag_id: tagId })
      }
    }
    const rows = yield* query<TaskRow>(insertRows, [
      home.workspaceId,
      home.spaceId,
      home.listId,
      planned.length,
      planned.map((task, i) => ({
        ord: i + 1,
        id: task.id,
        parent_task_id: task.input.parentTaskId ?? null,
        name: task.input.name.trim(),
        description: task.input.description ?? "",
        status: task.status.name,
        priority: task.priority,
        start_date: task.input.startDate ?? null,
        due_date: task.dueDate,
        time_estimate_minutes: task.timeEstimate,
        finished: isFinished(task.status.type),
        recurrence: task.input.recurrence ?? null,
        created_by: task.by
      })),
      planned.flatMap((task) => task.assigneeIds.map((userId) => ({ task_id: task.id, user_id: userId }))),
      // The creator and the assignees follow the task.
      planned.flatMap((task) => [...new Set([task.by, ...task.assigneeIds])].map((userId) => ({ task_id: task.id, user_id: userId }))),
      tagged,
      planned.flatMap((task) => task.values.map((v) => ({ task_id: task.id, field_id: v.fieldId, value: v.value, updated_by: task.by }))),
      planned.map((task) => ({
        id: crypto.randomUUID(),
        task_id: task.id,
        status: task.status.name,
        status_type: task.status.type,
        entered_by: task.by
      }))
    ])
    return new Map(rows.map((row) => [row.id, row] as const))
  })

/**
 * Inserts tasks in a list (the list actor's command body, one task or a group's), each checked on its
 * own: the outcome of each, in order, a refusal answering that task alone. Every check runs before the
 * first write, so a refused task leaves nothing behind; what the tasks share is read once, and their rows
 * go in with one statement. A task with nothing but its own columns is shown from what was written; the
 * others are read back together. The list is `hint`, or where `located` finds it (read alongside).
 */
export const insertTasks = <E = never>(
  hint: Home,
  tasks: ReadonlyArray<TaskToInsert>,
  located?: Effect.Effect<Home, E | SqlError, Sql>
): Effect.Effect<Array<Exit.Exit<Inserted, TaskWriteError>>, E | TaskWriteError | SqlError, Sql> =>
  Effect.gen(function* () {
    const place = yield* placeOf(hint, tasks, located)
    const home = place.home
    const checked: Array<{ readonly refused: TaskWriteError } | { readonly planned: Planned }> = []
    const planned: Array<Planned> = []
    for (const task of tasks) {
      const exit = yield* Effect.exit(plan(place, task, planned.length))
      if (Exit.isSuccess(exit)) {
        planned.push(exit.value)
        checked.push({ planned: exit.value })
        continue
      }
      const refusal = Cause.findErrorOption(exit.cause)
      // A refusal answers its task; anything else (the database) fails the batch.
      if (Option.isNone(refusal) || refusal.value instanceof SqlError) return yield* Effect.failCause(exit.cause)
      checked.push({ refused: refusal.value })
    }
    const rows = planned.length === 0 ? new Map<string, TaskRow>() : yield* writeTasks(home, planned)
    const shownAlone = (task: Planned) =>
      task.assigneeIds.length === 0 && task.values.length === 0 && (task.input.tagNames ?? []).length === 0
    const others = planned.filter((task) => !shownAlone(task)).map((task) => task.id)
    const readBack = new Map((others.length === 0 ? [] : yield* getTasks(others)).map((task) => [task.id, task] as const))
    return checked.map((entry): Exit.Exit<Inserted, TaskWriteError> => {
      if ("refused" in entry) return Exit.fail(entry.refused)
      const task = shownAlone(entry.planned)
        ? present(rows.get(entry.planned.id)!, {
            statusName: entry.planned.status.name,
            statusType: entry.planned.status.type,
            statusColor: entry.planned.status.color,
            assignees: [],
            watcherIds: [entry.planned.by],
            tags: [],
            customFields: [],
            subtaskCount: 0
          })
        : readBack.get(entry.planned.id)!
      return Exit.succeed({ task, changes: [createdChange(place, entry.planned, task)] })
    })
  })

/** `task.created`, notifying its assignees and those following its list, folder or space. */
const createdChange = (place: Place, planned: Planned, task: Task): Change => {
  const { by, assigneeIds } = planned
  const notify: Array<Notify> = [
    ...notifyUsers(assigneeIds, "assigned", `You were assigned ${task.shortId}: ${task.name}`, by),
    ...notifyUsers(
      place.followers.filter((u) => !assigneeIds.includes(u)),
      "watching",
      `New task ${task.shortId}: ${task.name}`,
      by
    )
  ]
  return change(
    taskWhere(task),
    "task.created",
    task.id,
    {
      name: task.name,
      shortId: task.shortId,
      status: planned.status.name,
      listId: place.home.listId,
      parentTaskId: task.parentTaskId,
      priority: planned.priority,
      assigneeIds,
      dueDate: planned.dueDate
    },
    by,
    notify
  )
}

/** Inserts one task in `home`; fails with its refusal. */
export const insertTask = (home: Home, input: NewTask, by: string, prefix = "body"): Step<Inserted> =>
  Effect.flatMap(insertTasks(home, [{ input, by, prefix }]), ([outcome]) => outcome!)

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

/** Whether `value` is task `id` as shown (a task actor's state, or a command's result). */
export const isTaskNamed = (id: string, value: unknown): value is Task =>
  typeof value === "object" && value !== null && "id" in value && value.id === id && "status" in value && "assignees" in value

const ownFields = new Set(["name", "description", "priority", "startDate", "dueDate", "timeEstimateMinutes"])
/** Fields gated by a space feature when given a value. */
const gatedFields = ["priority", "startDate", "dueDate", "timeEstimateMinutes"] as const

/**
 * The task to patch and its space's features. A patch of the task's own
 * columns starts from `known` (the actor's state; the update verifies its
 * version), reading the features only when it gives a gated field a value;
 * anything else reads the task as it is.
 */
const startOf = (taskId: string, patch: TaskPatch, known: Task | undefined) => {
  if (known === undefined || !Object.entries(patch).every(([key, value]) => value === undefined || ownFields.has(key)))
    return Effect.map(getTaskForWrite(taskId), (found) => ({ ...found, known: false }))
  // No gated value given: checkFeatures passes whatever the space turned off.
  if (gatedFields.every((key) => patch[key] == null)) return Effect.succeed({ task: known, features: defaultFeatures, known: true })
  return Effect.map(featuresOfSpace(known.spaceId), (features) => ({ task: known, features, known: true }))
}

/**
 * Applies a patch to a task (the task actor's command body): one version
 * bump, one `task.updated` with the changed fields, plus `status.changed`
 * and notifications when the status or the assignees changed. `known` is
 * the task as the actor holds it, if it does.
 */
export const patchTask = (
  taskId: string,
  patch: TaskPatch,
  by: string,
  prefix = "body",
  known?: Task
): Step<{ task: Task; changes: Array<Change> }> =>
  Effect.gen(function* () {
    const { task: before, features, known: fromState } = yield* startOf(taskId, patch, known)
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
    if (ownColumnsOnly) {
      const updated = yield* updateOwnColumns(before, sets.join(", "), params, fromState ? before.version : undefined)
      // The actor's state was behind the row (nothing was written): patch the task as it is.
      if (updated === undefined) return yield* fromState ? patchTask(taskId, patch, by, prefix) : new TaskNotFound()
      task = updated
    } else {
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

/** The fields a patch of a group may change for `patchTasks` to apply it with the others in one update (dates are left to the database to normalize). */
const batchedFields = [
  ["name", "name"],
  ["description", "description"],
  ["priority", "priority"],
  ["time_estimate_minutes", "timeEstimateMinutes"]
] as const

/** Whether `patchTasks` may apply this patch together with others: it changes nothing but the task's plain own columns. */
export const isPlainPatch = (patch: TaskPatch): boolean =>
  Object.entries(patch).every(([key, value]) => value === undefined || batchedFields.some(([, field]) => field === key))

/** One patch of a group: its change, and who makes it. */
export interface PatchToApply {
  readonly patch: TaskPatch
  readonly by: string
}

/**
 * Applies plain patches (`isPlainPatch`) queued on one task, each as if alone and in order: the outcome of
 * each (its own task and `task.updated`, or its refusal). From `known` (the actor's state) they are checked
 * in the process and written with ONE update at `known`'s version, bumped once per patch; without it, or
 * when the row has moved on, they are applied one by one. Every refusal comes before any write.
 */
export const patchTasks = (
  taskId: string,
  patches: ReadonlyArray<PatchToApply>,
  known: Task | undefined
): Step<Array<Exit.Exit<{ task: Task; changes: Array<Change> }, TaskWriteError>>> =>
  Effect.gen(function* () {
    const oneByOne = Effect.forEach(patches, ({ patch, by }) => refusalOrFail(patchTask(taskId, patch, by)))
    if (known === undefined) return yield* oneByOne
    const gated = patches.some(({ patch }) => patch.priority != null || patch.timeEstimateMinutes != null)
    const features = gated ? yield* featuresOfSpace(known.spaceId) : defaultFeatures
    // Each accepted patch's task as it leaves it, before the row's own answer (updated_at) is known.
    const applied: Array<{ readonly task: Task; readonly by: string; readonly change: Record<string, unknown> } | TaskWriteError> = []
    let current = known
    let accepted = 0
    for (const { patch, by } of patches) {
      const checked = yield* Effect.exit(Effect.andThen(checkFeatures(features, patch), checkDates(current.startDate, current.dueDate)))
      if (Exit.isFailure(checked)) {
        const refusal = Cause.findErrorOption(checked.cause)
        if (Option.isNone(refusal) || refusal.value instanceof SqlError) return yield* Effect.failCause(checked.cause)
        applied.push(refusal.value)
        continue
      }
      const data: Record<string, unknown> = {}
      const previous: Record<string, unknown> = {}
      for (const [, field] of batchedFields) {
        const value = field === "name" ? patch.name?.trim() : patch[field]
        if (value === undefined || JSON.stringify(value) === JSON.stringify(current[field])) continue
        data[field] = value
        previous[field] = current[field]
      }
      // `version` counts accepted writes: a patch whose values equal the current ones still counts once; an empty one does not.
      if (Object.values(patch).every((v) => v === undefined)) {
        applied.push({ task: current, by, change: {} })
        continue
      }
      accepted++
      current = {
        ...current,
        ...(patch.name === undefined ? {} : { name: patch.name.trim() }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.priority === undefined ? {} : { priority: patch.priority }),
        ...(patch.timeEstimateMinutes === undefined ? {} : { timeEstimateMinutes: patch.timeEstimateMinutes }),
        version: current.version + 1
      }
      applied.push({ task: current, by, change: { ...data, previous, version: current.version } })
    }
    if (accepted === 0)
      return applied.map((entry) => ("task" in entry ? Exit.succeed({ task: entry.task, changes: [] }) : Exit.fail(entry)))
    const params: Array<unknown> = [taskId]
    const sets = batchedFields.flatMap(([column, field]) => {
      if (JSON.stringify(current[field]) === JSON.stringify(known[field])) return []
      params.push(current[field])
      return [`${column} = $${params.length}`]
    })
    params.push(accepted)
    sets.push(`version = version + $${params.length}::int`, "updated_at = now()")
    const final = yield* updateOwnColumns(known, sets.join(", "), params, known.version)
    // The row moved on since the actor read it (nothing was written): each patch reads it.
    if (final === undefined) return yield* oneByOne
    return applied.map((entry) => {
      if (!("task" in entry)) return Exit.fail(entry)
      if (Object.keys(entry.change).length === 0) return Exit.succeed({ task: entry.task, changes: [] })
      // As the row answered (its update time, and what another actor may have changed of its presentation), at this patch's values.
      const task: Task = { ...final, ...plainColumns(entry.task), version: entry.task.version }
      return Exit.succeed({ task, changes: [change(taskWhere(task), "task.updated", taskId, entry.change, entry.by)] })
    })
  })

/** A task's plain own columns. */
const plainColumns = (task: Task) => ({
  name: task.name,
  description: task.description,
  priority: task.priority,
  timeEstimateMinutes: task.timeEstimateMinutes
})

/** `effect`'s refusal as its outcome; a database failure fails. */
const refusalOrFail = <A>(effect: Step<A>): Step<Exit.Exit<A, TaskWriteError>> =>
  Effect.flatMap(Effect.exit(effect), (exit): Step<Exit.Exit<A, TaskWriteError>> => {
    if (Exit.isSuccess(exit)) return Effect.succeed(Exit.succeed(exit.value))
    const refusal = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
    return refusal === undefined || refusal instanceof SqlError ? Effect.failCause(exit.cause) : Effect.succeed(Exit.fail(refusal))
  })

/** Bumps the task's version for a change to one of its parts (checklists, tags, attachments …). */
export const touchTask = (taskId: string) =>
  Effect.map(
    query<{ version: number }>(`UPDATE pm_tasks SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version`, [taskId]),
    (rows) => rows[0]?.version ?? 0
  )
