/**
 * pm tag "Tasks" (94): task CRUD, moves and order, subtasks, assignees,
 * watchers, priorities, dates and estimates, custom field values (validated
 * against their definitions), tags, checklists, comments with threaded
 * replies, attachments (bytes in the BlobStore), time tracking, recurrence,
 * templates, the trash, and bulk operations. Every write of one task goes
 * through that task's actor (creation through its list's actor), so
 * concurrent edits of one task are serialized and none is lost.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../actors/Fields.ts"
import { availableFields, presentValue } from "../../actors/pm/CustomFields.ts"
import { membersByEmail, requireMembers, userRefs } from "../../actors/pm/Members.ts"
import { locateTask } from "../../actors/pm/Locate.ts"
import { watchersOf } from "../../actors/pm/Properties.ts"
import { getList } from "../../actors/pm/StructureReads.ts"
import { templateOf, timeEntryColumns } from "../../actors/pm/TaskCommands.ts"
import { Attachment, Comment, assignedComments, getAttachment, getComment, listAttachments, listComments } from "../../actors/pm/TaskDiscussion.ts"
import { findTasks, getTask, getTasks, hydrate, taskColumns, taskFrom, type TaskRow } from "../../actors/pm/TaskReads.ts"
import { getTemplate, templatesOf, TaskTemplateView } from "../../actors/pm/TaskTemplates.ts"
import type { Recurrence } from "../../actors/pm/TaskWrites.ts"
import { send, type WorkActor } from "../../actors/pm/WorkActor.ts"
import { PmList, PmTask, PmWorkspace } from "../../actors/pm/WorkActors.ts"
import { Color, CustomFieldValue, DateTime, isoDate, Items, List, Page, Priority, ShortId, Tag, Task, UserRef } from "../../actors/pm/WorkRecords.ts"
import { BlobStore } from "../../persistence/BlobStore.ts"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation, raw, type RequestContext } from "../Operation.ts"
import { filterOf, pageFrom, TaskQuery } from "./TaskFilters.ts"
import { at0, BooleanString, type CallerAt, exampleIds as ids, inWorkspace, Limit, Offset, onDeletedTask, onList, onTask, orDieSql, pageOf, realDates } from "./WorkAccess.ts"
import { exampleAttachment, exampleComment, exampleList, exampleTag, exampleTask, exampleTimeEntry, exampleUser } from "./WorkExamples.ts"

type TaskCommands = typeof PmTask extends WorkActor<infer T, any, any> ? T : never

/** Most task writes: a member where the task lives asks the task's actor to run one command. */
const taskCommand = <K extends keyof TaskCommands & string>(context: RequestContext, taskId: string, command: K, input: Parameters<typeof send<TaskCommands, K>>[4]) =>
  Effect.flatMap(onTask(context, taskId, "member"), (caller) => send(PmTask, taskId, command, caller.userId, input))

const tag = "Tasks"
const service = "pm"
const read = ["tasks:read"]
const write = ["tasks:write"]

const TaskParams = Schema.Struct({ taskId: Id })
const ListParams = Schema.Struct({ listId: Id })
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const ChecklistParams = Schema.Struct({ taskId: Id, checklistId: Id })
const ItemParams = Schema.Struct({ taskId: Id, checklistId: Id, itemId: Id })
const CommentParams = Schema.Struct({ taskId: Id, commentId: Id })
const AttachmentParams = Schema.Struct({ taskId: Id, attachmentId: Id })
const EntryParams = Schema.Struct({ taskId: Id, entryId: Id })
const tk = { taskId: ids.task }
const li = { listId: ids.list }
const ws = { workspaceId: ids.workspace }

const Description = Schema.String.check(Schema.isMaxLength(50_000))
const Minutes = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))
const EmailAddress = Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" }))
const Emails = Schema.Array(EmailAddress).check(Schema.isMaxLength(50))
const TagNames = Schema.Array(Name(64)).check(Schema.isMaxLength(50))
const FieldValues = Schema.Record(Schema.String, Schema.Unknown).annotate({ description: "Custom field values by field id (or name); null clears one" })

const NewTaskFields = {
  name: Name(500),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  assigneeEmails: Schema.optionalKey(Emails),
  tags: Schema.optionalKey(TagNames),
  customFields: Schema.optionalKey(FieldValues)
}
const NewTaskBody = Schema.Struct({ ...NewTaskFields, parentTaskId: Schema.optionalKey(Id) })
type NewTaskBody = typeof NewTaskBody.Type

const TaskPatchBody = Schema.Struct({
  name: Schema.optionalKey(Name(500)),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  assigneeEmails: Schema.optionalKey(Emails),
  addAssigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  removeAssigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  tags: Schema.optionalKey(TagNames),
  customFields: Schema.optionalKey(FieldValues)
})
type TaskPatchBody = typeof TaskPatchBody.Type

const date = (value: string | null | undefined) => (value === undefined || value === null ? value : isoDate(value) ?? null)

/** E-mail addresses → member ids (404 naming those that are not members). */
const assigneesOf = (workspaceId: string, body: { assigneeIds?: ReadonlyArray<string>; assigneeEmails?: ReadonlyArray<string> }, prefix = "body") =>
  Effect.gen(function* () {
    if (body.assigneeEmails === undefined) return body.assigneeIds
    const users = yield* orDieSql(membersByEmail(workspaceId, body.assigneeEmails, `${prefix}.assigneeEmails`))
    return [...new Set([...(body.assigneeIds ?? []), ...users.map((u) => u.id)])]
  })

/** The create input a list actor takes, from a request body. */
export const newTaskInput = (workspaceId: string, body: NewTaskBody, prefix = "body") =>
  Effect.gen(function* () {
    yield* realDates(body, prefix)
    const assigneeIds = yield* assigneesOf(workspaceId, body, prefix)
    const { assigneeEmails: _e, tags, startDate, dueDate, ...rest } = body
    return {
      ...rest,
      ...(startDate !== undefined ? { startDate: date(startDate) } : {}),
      ...(dueDate !== undefined ? { dueDate: date(dueDate) } : {}),
      ...(assigneeIds !== undefined ? { assigneeIds } : {}),
      ...(tags !== undefined ? { tagNames: tags } : {})
    }
  })

/** The patch a task actor takes, from a request body. */
export const taskPatchInput = (workspaceId: string, body: TaskPatchBody, prefix = "body") =>
  Effect.gen(function* () {
    yield* realDates(body, prefix)
    const assigneeIds = yield* assigneesOf(workspaceId, body, prefix)
    const { assigneeEmails: _e, tags, startDate, dueDate, ...rest } = body
    return {
      ...rest,
      ...(startDate !== undefined ? { startDate: date(startDate) } : {}),
      ...(dueDate !== undefined ? { dueDate: date(dueDate) } : {}),
      ...(assigneeIds !== undefined ? { assigneeIds } : {}),
      ...(tags !== undefined ? { tagNames: tags } : {})
    }
  })

const viewerOf = (caller: CallerAt) => caller.viewer

/** Tasks named in a bulk request: all must be visible in the workspace (else 404 naming the entry). */
const bulkTargets = (context: RequestContext, workspaceId: string, taskIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    for (const [index, taskId] of taskIds.entries()) {
      const located = yield* orDieSql(locateTask(taskId)).pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject("not_found", `No such task ${taskId}`, [{ path: `body.taskIds.${index}`, message: "not found" }]) : e)))
      if (located.workspaceId !== workspaceId) return yield* reject("not_found", `No such task ${taskId}`, [{ path: `body.taskIds.${index}`, message: "not found" }])
      yield* onTask(context, taskId, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject(e.code, e.message, [{ path: `body.taskIds.${index}`, message: e.message }]) : e)))
    }
    return caller
  })

const BulkResult = Schema.Struct({
  items: Schema.Array(Schema.Struct({ taskId: Id, ok: Schema.Boolean, task: Schema.optionalKey(Task), error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String })) }))
}).annotate({ identifier: "BulkTaskResult" })

/** Runs one command per task on each task's own actor; every task succeeds or fails on its own. */
const perTask = <A>(taskIds: ReadonlyArray<string>, run: (taskId: string) => Effect.Effect<A, any, any>) =>
  Effect.map(
    Effect.forEach(taskIds, (taskId) =>
      Effect.match(run(taskId), {
        onSuccess: (task) => ({ taskId, ok: true, ...(task && typeof task === "object" && "id" in (task as object) ? { task } : {}) }),
        onFailure: (error: any) => ({ taskId, ok: false, error: { code: error?.code ?? error?._tag ?? "error", message: error?.message ?? String(error) } })
      }), { concurrency: 8 }),
    (items) => ({ items })
  )

const Checklist = Schema.Struct({
  id: Id, taskId: Id, name: Schema.String, position: Schema.Number,
  items: Schema.Array(Schema.Struct({ id: Id, name: Schema.String, resolved: Schema.Boolean, assigneeId: Schema.NullOr(Id), position: Schema.Number })),
  resolvedCount: Schema.Number
}).annotate({ identifier: "Checklist" })
const exampleChecklist = { id: ids.checklist, taskId: ids.task, name: "Release", position: 1, items: [{ id: ids.item, name: "Write changelog", resolved: false, assigneeId: null, position: 1 }], resolvedCount: 0 }

const checklistsOf = (taskId: string) =>
  Effect.gen(function* () {
    const lists = yield* query<{ id: string; taskId: string; name: string; position: number }>(`SELECT id, task_id AS "taskId", name, position FROM pm_checklists WHERE task_id = $1 ORDER BY position, created_at`, [taskId])
    const items = yield* query<{ id: string; checklistId: string; name: string; resolved: boolean; assigneeId: string | null; position: number }>(
      `SELECT id, checklist_id AS "checklistId", name, resolved, assignee_id AS "assigneeId", position FROM pm_checklist_items WHERE task_id = $1 ORDER BY position, created_at`,
      [taskId]
    )
    return lists.map((c) => {
      const own = items.filter((i) => i.checklistId === c.id).map(({ checklistId: _c, ...i }) => i)
      return { ...c, items: own, resolvedCount: own.filter((i) => i.resolved).length }
    })
  })

const checklistOf = (taskId: string, checklistId: string) =>
  Effect.flatMap(checklistsOf(taskId), (all) => {
    const found = all.find((c) => c.id === checklistId)
    return found ? Effect.succeed(found) : Effect.fail(reject("not_found", "No such checklist"))
  })

const TimeEntry = Schema.Struct({
  id: Id, taskId: Id, userId: Id, startedAt: Schema.String, endedAt: Schema.NullOr(Schema.String), durationMinutes: Schema.NullOr(Schema.Number),
  note: Schema.String, billable: Schema.Boolean, createdAt: Schema.String
}).annotate({ identifier: "TimeEntry" })

const RecurrenceSchema = Schema.Struct({
  frequency: Schema.Literals(["daily", "weekly", "monthly", "yearly"]),
  interval: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 365 })),
  until: Schema.optionalKey(Schema.NullOr(DateTime))
}).annotate({ identifier: "Recurrence", description: "When the task is finished, its next occurrence is created with its dates moved on by the interval." })

const Emoji = Schema.String.check(Schema.isPattern(/^[a-z0-9_+-]{1,32}$/, { expected: "an emoji short name such as thumbsup" }))

const TreeNode: Schema.Top = Schema.Struct({ id: Id, shortId: Schema.String, name: Schema.String, status: Schema.String, children: Schema.Array(Schema.Unknown) }).annotate({ identifier: "TaskTreeNode" })

const markdownOf = (task: Task, checklists: ReadonlyArray<{ name: string; items: ReadonlyArray<{ name: string; resolved: boolean }> }>, comments: ReadonlyArray<Comment>) => {
  const lines = [`# ${task.shortId}: ${task.name}`, ""]
  lines.push(`- Status: ${task.status.name}`)
  if (task.priority) lines.push(`- Priority: ${task.priority}`)
  if (task.assignees.length) lines.push(`- Assignees: ${task.assignees.map((a) => `${a.name} <${a.email}>`).join(", ")}`)
  if (task.startDate) lines.push(`- Start: ${task.startDate}`)
  if (task.dueDate) lines.push(`- Due: ${task.dueDate}`)
  if (task.timeEstimateMinutes != null) lines.push(`- Estimate: ${task.timeEstimateMinutes} min`)
  if (task.tags.length) lines.push(`- Tags: ${task.tags.map((t) => t.name).join(", ")}`)
  for (const field of task.customFields) {
    const value = Array.isArray(field.value) ? field.value.map((v: any) => v?.name ?? v).join(", ") : (field.value as any)?.name ?? field.value
    lines.push(`- ${field.name}: ${value}`)
  }
  if (task.description) lines.push("", task.description)
  for (const checklist of checklists) {
    lines.push("", `## ${checklist.name}`, ...checklist.items.map((i) => `- [${i.resolved ? "x" : " "}] ${i.name}`))
  }
  if (comments.length) {
    lines.push("", "## Comments")
    for (const c of comments) lines.push("", `**${c.author.name || c.author.email}** (${c.createdAt}):`, c.text)
  }
  return lines.join("\n") + "\n"
}

export const tasksOperations = [
  // -- core -------------------------------------------------------------------
  operation({
    service, tag, operationId: "createTask", method: "POST", path: "/v1/lists/{listId}/tasks",
    summary: "Create a task in a list",
    description: "Status defaults to the list's first open status; missing priority, estimate, assignees and due date come from the list's and space's task defaults. Assignees by id or e-mail; tags by name (created in the space when missing); custom field values by field id, validated against their definitions.",
    auth: "both", scopes: write, params: ListParams, body: NewTaskBody,
    responses: { 201: { description: "Created", schema: Task }, 404: { description: "An assignee e-mail is not a member" } },
    examples: [{
      name: "create",
      request: { params: li, body: { name: "Ship the login page", priority: "high", dueDate: "2026-12-01T17:00:00.000Z", assigneeEmails: ["bob@example.com"] } },
      response: { status: 201, body: exampleTask }
    }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const input = yield* newTaskInput(caller.at.workspaceId, body)
        return yield* send(PmList, params.listId, "createTask", caller.userId, input)
      })
  }),
  operation({
    service, tag, operationId: "listTasks", method: "GET", path: "/v1/lists/{listId}/tasks",
    summary: "Tasks of a list (and those added to it from other lists), filtered, ordered and paged", auth: "both", scopes: read, params: ListParams, query: TaskQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    examples: [{ name: "open", request: { params: li, query: { includeClosed: "false", order: "due" } }, response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        return yield* orDieSql(findTasks(filterOf(q, { workspaceId: caller.at.workspaceId, viewer: viewerOf(caller), listIds: [params.listId] }), pageFrom(q)))
      })
  }),
  operation({
    service, tag, operationId: "getTask", method: "GET", path: "/v1/tasks/{taskId}",
    summary: "Get a task with its status, assignees, watchers, tags and custom field values", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "The task", schema: Task } },
    examples: [{ name: "get", request: { params: tk }, response: { status: 200, body: exampleTask } }],
    handler: ({ params }, context) => Effect.map(onTask(context, params.taskId), (caller) => caller.task)
  }),
  operation({
    service, tag, operationId: "updateTask", method: "PATCH", path: "/v1/tasks/{taskId}",
    summary: "Change a task's fields",
    description: "Fields left out are unchanged; null clears priority, dates and estimate. `assigneeIds`/`assigneeEmails` replace the assignees, `addAssigneeIds`/`removeAssigneeIds` adjust them; `tags` replaces the tags; `customFields` sets values (null clears). Each change bumps `version` once.",
    auth: "both", scopes: write, params: TaskParams, body: TaskPatchBody,
    responses: { 200: { description: "Updated", schema: Task } },
    examples: [{ name: "progress", request: { params: tk, body: { status: "in progress", priority: "high" } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const patch = yield* taskPatchInput(caller.at.workspaceId, body)
        return yield* send(PmTask, params.taskId, "update", caller.userId, patch)
      })
  }),
  operation({
    service, tag, operationId: "deleteTask", method: "DELETE", path: "/v1/tasks/{taskId}",
    summary: "Move a task (with its subtasks) to the trash", description: "It can be restored with restoreDeletedTask.",
    auth: "both", scopes: write, params: TaskParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: tk }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "delete", {})
  }),
  operation({
    service, tag, operationId: "archiveTask", method: "POST", path: "/v1/tasks/{taskId}/archive",
    summary: "Archive a task (hidden from listings, still readable)", auth: "both", scopes: write, params: TaskParams,
    responses: { 200: { description: "Archived", schema: Task }, 409: { description: "Already archived" } },
    examples: [{ name: "archive", request: { params: tk }, response: { status: 200, body: { ...exampleTask, archived: true, archivedAt: at0 } } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "setArchived", { archived: true })
  }),
  operation({
    service, tag, operationId: "restoreTask", method: "POST", path: "/v1/tasks/{taskId}/unarchive",
    summary: "Bring an archived task back", auth: "both", scopes: write, params: TaskParams,
    responses: { 200: { description: "Restored", schema: Task }, 409: { description: "Not archived" } },
    examples: [{ name: "unarchive", request: { params: tk }, response: { status: 200, body: exampleTask } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "setArchived", { archived: false })
  }),
  operation({
    service, tag, operationId: "getTaskByShortId", method: "GET", path: "/v1/workspaces/{workspaceId}/tasks/by-short-id/{shortId}",
    summary: "Find a task by its short id (T-42)", auth: "both", scopes: read, params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "The task", schema: Task } },
    examples: [{ name: "by-short-id", request: { params: { ...ws, shortId: "T-42" } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(query<{ id: string }>(`SELECT id FROM pm_tasks WHERE workspace_id = $1 AND short_id = $2 AND deleted_at IS NULL`, [params.workspaceId, params.shortId.toUpperCase()]))
        if (rows.length === 0) return yield* reject("not_found", `No task ${params.shortId}`)
        yield* onTask(context, rows[0]!.id)
        return yield* orDieSql(getTask(rows[0]!.id))
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceTasks", method: "GET", path: "/v1/workspaces/{workspaceId}/tasks",
    summary: "Tasks across the workspace (every space the caller can see), filtered, ordered and paged", auth: "both", scopes: read, params: WorkspaceParams, query: TaskQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    examples: [{ name: "overdue", request: { params: ws, query: { overdue: "true", order: "due" } }, response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(findTasks(filterOf(q, { workspaceId: params.workspaceId, viewer: caller.viewer }), pageFrom(q)))
      })
  }),
  operation({
    service, tag, operationId: "listMyTasks", method: "GET", path: "/v1/workspaces/{workspaceId}/my-tasks",
    summary: "The caller's assigned, unfinished tasks, soonest due first", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ includeClosed: Schema.optionalKey(BooleanString), offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    examples: [{ name: "mine", request: { params: ws }, response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(findTasks(
          { workspaceId: params.workspaceId, viewer: caller.viewer, assigneeIds: [caller.userId], includeClosed: q.includeClosed === "true" },
          { ...pageOf(q), order: "due", direction: "asc" }
        ))
      })
  }),
  operation({
    service, tag, operationId: "duplicateTask", method: "POST", path: "/v1/tasks/{taskId}/duplicate",
    summary: "Copy a task (fields, checklists and subtasks; not comments or attachments) into its list or another",
    auth: "both", scopes: write, params: TaskParams, body: Schema.Struct({ listId: Schema.optionalKey(Id), name: Schema.optionalKey(Name(500)) }),
    responses: { 201: { description: "The copy", schema: Task } },
    examples: [{ name: "duplicate", request: { params: tk, body: { name: "Ship the signup page" } }, response: { status: 201, body: { ...exampleTask, name: "Ship the signup page" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const listId = body.listId ?? caller.at.listId!
        if (body.listId) {
          const target = yield* onList(context, body.listId, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }]) : e)))
          if (target.at.workspaceId !== caller.at.workspaceId) return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        }
        const template = yield* orDieSql(templateOf(params.taskId))
        return yield* send(PmList, listId, "instantiateTask", caller.userId, { template: { ...template, parentTaskId: null }, name: body.name ?? `${template.name} (copy)` })
      })
  }),
  operation({
    service, tag, operationId: "moveTask", method: "POST", path: "/v1/tasks/{taskId}/move",
    summary: "Move a task (with its subtasks) to another list of the workspace",
    description: "The status is kept when the new list has it, else mapped by `statusMapping` or to the first status of the same type; values of fields the new list lacks are dropped; tags are matched by name in the new space.",
    auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ listId: Id, statusMapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64))) }),
    responses: { 200: { description: "Moved", schema: Task } },
    examples: [{ name: "move", request: { params: tk, body: { listId: ids.list } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const target = yield* onList(context, body.listId, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }]) : e)))
        if (target.at.workspaceId !== caller.at.workspaceId) return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        return yield* send(PmTask, params.taskId, "move", caller.userId, body)
      })
  }),
  operation({
    service, tag, operationId: "setTaskPosition", method: "PUT", path: "/v1/tasks/{taskId}/position",
    summary: "Place a task right after another of its list (null: first)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ afterTaskId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Placed", schema: Task } },
    examples: [{ name: "after", request: { params: tk, body: { afterTaskId: ids.task2 } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "setPosition", body)
  }),
  operation({
    service, tag, operationId: "mergeTasks", method: "POST", path: "/v1/tasks/{taskId}/merge",
    summary: "Merge other tasks into this one (their comments, attachments, checklists, subtasks, assignees, watchers, tags and time), then trash them",
    auth: "both", scopes: write, params: TaskParams, body: Schema.Struct({ sourceTaskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(20)) }),
    responses: { 200: { description: "The merged task", schema: Task } },
    examples: [{ name: "merge", request: { params: tk, body: { sourceTaskIds: [ids.task2] } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        for (const [index, id] of body.sourceTaskIds.entries()) {
          yield* onTask(context, id, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject(e.code, `No such task ${id}`, [{ path: `body.sourceTaskIds.${index}`, message: e.message }]) : e)))
        }
        return yield* send(PmTask, params.taskId, "merge", caller.userId, body)
      })
  }),
  // -- field setters ------------------------------------------------------------
  operation({
    service, tag, operationId: "setTaskStatus", method: "PUT", path: "/v1/tasks/{taskId}/status",
    summary: "Set a task's status (by name, one of its list's statuses)", description: "Assignees and watchers are notified; finishing a recurring task creates its next occurrence.",
    auth: "both", scopes: write, params: TaskParams, body: Schema.Struct({ status: Name(64) }),
    responses: { 200: { description: "Updated", schema: Task } },
    examples: [{ name: "done", request: { params: tk, body: { status: "done" } }, response: { status: 200, body: { ...exampleTask, status: { name: "done", type: "done", color: "#30a46c" }, closedAt: at0 } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "update", { status: body.status })
  }),
  operation({
    service, tag, operationId: "setTaskPriority", method: "PUT", path: "/v1/tasks/{taskId}/priority",
    summary: "Set or clear a task's priority (urgent, high, normal, low)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ priority: Schema.NullOr(Priority) }),
    responses: { 200: { description: "Updated", schema: Task } },
    examples: [{ name: "urgent", request: { params: tk, body: { priority: "urgent" } }, response: { status: 200, body: { ...exampleTask, priority: "urgent" } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "update", { priority: body.priority })
  }),
  operation({
    service, tag, operationId: "setTaskDates", method: "PUT", path: "/v1/tasks/{taskId}/dates",
    summary: "Set or clear a task's start and due dates", description: "A date left out is unchanged; null clears it; the start may not be after the due date.",
    auth: "both", scopes: write, params: TaskParams, body: Schema.Struct({ startDate: Schema.optionalKey(Schema.NullOr(DateTime)), dueDate: Schema.optionalKey(Schema.NullOr(DateTime)) }),
    responses: { 200: { description: "Updated", schema: Task } },
    examples: [{ name: "due", request: { params: tk, body: { dueDate: "2026-12-01T17:00:00.000Z" } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* realDates(body)
        return yield* send(PmTask, params.taskId, "update", caller.userId, {
          ...(body.startDate !== undefined ? { startDate: date(body.startDate) } : {}),
          ...(body.dueDate !== undefined ? { dueDate: date(body.dueDate) } : {})
        })
      })
  }),
  operation({
    service, tag, operationId: "setTaskTimeEstimate", method: "PUT", path: "/v1/tasks/{taskId}/time-estimate",
    summary: "Set or clear a task's time estimate (minutes)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ minutes: Schema.NullOr(Minutes) }),
    responses: { 200: { description: "Updated", schema: Task } },
    examples: [{ name: "estimate", request: { params: tk, body: { minutes: 240 } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "update", { timeEstimateMinutes: body.minutes })
  }),
  operation({
    service, tag, operationId: "getTaskTimeInStatus", method: "GET", path: "/v1/tasks/{taskId}/time-in-status",
    summary: "How long a task has spent in each status", auth: "both", scopes: read, params: TaskParams,
    responses: {
      200: {
        description: "Time per status",
        schema: Schema.Struct({
          current: Schema.Struct({ status: Schema.String, since: Schema.String }),
          items: Schema.Array(Schema.Struct({ status: Schema.String, type: Schema.String, totalMinutes: Schema.Number, times: Schema.Number }))
        })
      }
    },
    examples: [{ name: "time", request: { params: tk }, response: { status: 200, body: { current: { status: "in progress", since: at0 }, items: [{ status: "to do", type: "open", totalMinutes: 120, times: 1 }, { status: "in progress", type: "active", totalMinutes: 30, times: 1 }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const rows = yield* orDieSql(query<{ status: string; type: string; enteredAt: string }>(
          `SELECT status, status_type AS type, entered_at AS "enteredAt" FROM pm_task_status_history WHERE task_id = $1 ORDER BY entered_at, id`, [params.taskId]
        ))
        const totals = new Map<string, { status: string; type: string; totalMinutes: number; times: number }>()
        rows.forEach((row, index) => {
          const until = index + 1 < rows.length ? Date.parse(rows[index + 1]!.enteredAt) : Date.now()
          const entry = totals.get(row.status.toLowerCase()) ?? { status: row.status, type: row.type, totalMinutes: 0, times: 0 }
          entry.totalMinutes += Math.max(0, Math.round((until - Date.parse(row.enteredAt)) / 60_000))
          entry.times += 1
          totals.set(row.status.toLowerCase(), entry)
        })
        const last = rows.at(-1)
        const task = last ? undefined : yield* orDieSql(getTask(params.taskId))
        return { current: last ? { status: last.status, since: last.enteredAt } : { status: task!.status.name, since: task!.createdAt }, items: [...totals.values()] }
      })
  }),
  // -- subtasks -----------------------------------------------------------------
  operation({
    service, tag, operationId: "listSubtasks", method: "GET", path: "/v1/tasks/{taskId}/subtasks",
    summary: "A task's direct subtasks, in order", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Subtasks", schema: Items(Task) } },
    examples: [{ name: "subtasks", request: { params: tk }, response: { status: 200, body: { items: [{ ...exampleTask, id: ids.task2, parentTaskId: ids.task }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const page = yield* orDieSql(findTasks({ workspaceId: caller.at.workspaceId, viewer: caller.viewer, parentTaskId: params.taskId, archived: "include" }, { offset: 0, limit: 200, order: "position" }))
        return { items: page.items }
      })
  }),
  operation({
    service, tag, operationId: "createSubtask", method: "POST", path: "/v1/tasks/{taskId}/subtasks",
    summary: "Create a subtask (in its parent's list)", auth: "both", scopes: write, params: TaskParams, body: Schema.Struct(NewTaskFields),
    responses: { 201: { description: "Created", schema: Task } },
    examples: [{ name: "subtask", request: { params: tk, body: { name: "Write the tests" } }, response: { status: 201, body: { ...exampleTask, id: ids.task2, name: "Write the tests", parentTaskId: ids.task } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const input = yield* newTaskInput(caller.at.workspaceId, body)
        return yield* send(PmList, caller.at.listId!, "createTask", caller.userId, { ...input, parentTaskId: params.taskId })
      })
  }),
  operation({
    service, tag, operationId: "setTaskParent", method: "PUT", path: "/v1/tasks/{taskId}/parent",
    summary: "Make a task a subtask of another (it joins the parent's list), or a top-level task again (null)",
    description: "A task cannot become a subtask of itself or of one of its own subtasks (409).",
    auth: "both", scopes: write, params: TaskParams, body: Schema.Struct({ parentTaskId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Updated", schema: Task }, 409: { description: "Would make a cycle" } },
    examples: [{ name: "nest", request: { params: tk, body: { parentTaskId: ids.task2 } }, response: { status: 200, body: { ...exampleTask, parentTaskId: ids.task2 } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.parentTaskId) {
          const parent = yield* onTask(context, body.parentTaskId, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }]) : e)))
          if (parent.at.workspaceId !== caller.at.workspaceId) return yield* reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }])
        }
        return yield* send(PmTask, params.taskId, "setParent", caller.userId, body)
      })
  }),
  operation({
    service, tag, operationId: "getTaskTree", method: "GET", path: "/v1/tasks/{taskId}/tree",
    summary: "A task with all its subtasks, nested", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "The tree", schema: TreeNode } },
    examples: [{ name: "tree", request: { params: tk }, response: { status: 200, body: { id: ids.task, shortId: "T-42", name: "Ship the login page", status: "in progress", children: [{ id: ids.task2, shortId: "T-43", name: "Write the tests", status: "to do", children: [] }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const rows = yield* orDieSql(query<{ id: string; shortId: string; name: string; status: string; parentId: string | null }>(
          `WITH RECURSIVE tree AS (SELECT id FROM pm_tasks WHERE id = $1 UNION ALL SELECT t.id FROM pm_tasks t JOIN tree ON t.parent_task_id = tree.id WHERE t.deleted_at IS NULL)
           SELECT t.id, t.short_id AS "shortId", t.name, t.status, t.parent_task_id AS "parentId" FROM pm_tasks t WHERE t.id IN (SELECT id FROM tree) ORDER BY t.position, t.created_at`,
          [params.taskId]
        ))
        type Node = { id: string; shortId: string; name: string; status: string; children: Array<Node> }
        const nodes = new Map<string, Node>(rows.map((r) => [r.id, { id: r.id, shortId: r.shortId, name: r.name, status: r.status, children: [] }]))
        for (const row of rows) if (row.id !== params.taskId && row.parentId) nodes.get(row.parentId)?.children.push(nodes.get(row.id)!)
        return nodes.get(params.taskId)!
      })
  }),
  // -- assignees ----------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskAssignees", method: "GET", path: "/v1/tasks/{taskId}/assignees",
    summary: "Who a task is assigned to", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Assignees", schema: Items(UserRef) } },
    examples: [{ name: "assignees", request: { params: tk }, response: { status: 200, body: { items: [exampleUser] } } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(getTask(params.taskId)), (t) => ({ items: t.assignees })))
  }),
  operation({
    service, tag, operationId: "addTaskAssignee", method: "POST", path: "/v1/tasks/{taskId}/assignees",
    summary: "Assign a member (by user id or e-mail); they are notified", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ userId: Schema.optionalKey(Id), email: Schema.optionalKey(EmailAddress) }),
    responses: { 201: { description: "The task", schema: Task }, 409: { description: "Already assigned" } },
    examples: [{ name: "assign", request: { params: tk, body: { email: "bob@example.com" } }, response: { status: 201, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if ((body.userId === undefined) === (body.email === undefined)) return yield* reject("invalid", "Give exactly one of userId and email", [{ path: "body.userId", message: "give userId or email" }])
        const userId = body.userId ?? (yield* orDieSql(membersByEmail(caller.at.workspaceId, [body.email!], "body.email")))[0]!.id
        if (body.userId) yield* orDieSql(requireMembers(caller.at.workspaceId, [userId], "body.userId"))
        const task = yield* orDieSql(getTask(params.taskId))
        if (task.assignees.some((a) => a.id === userId)) return yield* reject("conflict", "Already assigned")
        return yield* send(PmTask, params.taskId, "update", caller.userId, { addAssigneeIds: [userId] })
      })
  }),
  operation({
    service, tag, operationId: "removeTaskAssignee", method: "DELETE", path: "/v1/tasks/{taskId}/assignees/{userId}",
    summary: "Unassign someone", auth: "both", scopes: write, params: Schema.Struct({ taskId: Id, userId: Id }),
    responses: { 204: { description: "Unassigned" } },
    examples: [{ name: "unassign", request: { params: { ...tk, userId: ids.user2 } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const task = yield* orDieSql(getTask(params.taskId))
        if (!task.assignees.some((a) => a.id === params.userId)) return yield* reject("not_found", "Not assigned to this task")
        yield* send(PmTask, params.taskId, "update", caller.userId, { removeAssigneeIds: [params.userId] })
      })
  }),
  operation({
    service, tag, operationId: "replaceTaskAssignees", method: "PUT", path: "/v1/tasks/{taskId}/assignees",
    summary: "Set exactly who a task is assigned to (new assignees are notified)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ userIds: Schema.Array(Id).check(Schema.isMaxLength(50)) }),
    responses: { 200: { description: "The task", schema: Task } },
    examples: [{ name: "replace", request: { params: tk, body: { userIds: [ids.user2] } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* orDieSql(requireMembers(caller.at.workspaceId, body.userIds, "body.userIds"))
        return yield* send(PmTask, params.taskId, "update", caller.userId, { assigneeIds: body.userIds })
      })
  }),
  // -- watchers -----------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskWatchers", method: "GET", path: "/v1/tasks/{taskId}/watchers",
    summary: "Who follows a task (creator and assignees follow automatically)", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Watchers", schema: Items(UserRef) } },
    examples: [{ name: "watchers", request: { params: tk }, response: { status: 200, body: { items: [exampleUser] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const watchers = yield* orDieSql(watchersOf("task", params.taskId))
        const users = yield* orDieSql(userRefs(watchers.map((w) => w.userId)))
        return { items: watchers.map((w) => users.get(w.userId) ?? { id: w.userId, email: "", name: "" }) }
      })
  }),
  operation({
    service, tag, operationId: "addTaskWatcher", method: "POST", path: "/v1/tasks/{taskId}/watchers",
    summary: "Follow a task (yourself unless userId names another member)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ userId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "Watching", schema: Schema.Struct({ userId: Id }) }, 409: { description: "Already watching" } },
    examples: [{ name: "watch", request: { params: tk, body: {} }, response: { status: 201, body: { userId: ids.user } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmTask, params.taskId, "addWatcher", caller.userId, { userId: body.userId ?? caller.userId })
      })
  }),
  operation({
    service, tag, operationId: "removeTaskWatcher", method: "DELETE", path: "/v1/tasks/{taskId}/watchers/{userId}",
    summary: "Stop someone (or yourself) following a task", auth: "both", scopes: write, params: Schema.Struct({ taskId: Id, userId: Id }),
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "unwatch", request: { params: { ...tk, userId: ids.user } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "removeWatcher", { userId: params.userId })
  }),
  // -- custom field values ------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskCustomFields", method: "GET", path: "/v1/tasks/{taskId}/custom-fields",
    summary: "Every custom field that applies to a task, with its value (null when unset)", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Fields and values", schema: Items(Schema.Struct({ ...CustomFieldValue.fields, required: Schema.Boolean, config: Schema.Unknown })) } },
    examples: [{ name: "values", request: { params: tk }, response: { status: 200, body: { items: [{ fieldId: ids.field, name: "Story points", type: "number", value: 5, required: false, config: {} }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const fields = yield* orDieSql(availableFields({ spaceId: caller.at.spaceId, folderId: caller.at.folderId, listId: caller.at.listId }))
        const values = yield* orDieSql(query<{ fieldId: string; value: unknown }>(`SELECT field_id AS "fieldId", value FROM pm_task_custom_values WHERE task_id = $1`, [params.taskId]))
        return {
          items: fields.map((f) => {
            const stored = values.find((v) => v.fieldId === f.id)
            return { fieldId: f.id, name: f.name, type: f.type, required: f.required, config: f.config, value: stored ? presentValue(f, stored.value) : null }
          })
        }
      })
  }),
  operation({
    service, tag, operationId: "setTaskCustomFieldValue", method: "PUT", path: "/v1/tasks/{taskId}/custom-fields/{fieldId}",
    summary: "Set one custom field value of a task (validated against the field's type and options)", auth: "both", scopes: write,
    params: Schema.Struct({ taskId: Id, fieldId: Id }), body: Schema.Struct({ value: Schema.Unknown }),
    responses: { 200: { description: "The task", schema: Task } },
    examples: [{ name: "points", request: { params: { ...tk, fieldId: ids.field }, body: { value: 5 } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.value === null || body.value === undefined) return yield* reject("invalid", "Use DELETE to clear a value", [{ path: "body.value", message: "missing" }])
        return yield* send(PmTask, params.taskId, "setCustomFields", caller.userId, { values: { [params.fieldId]: body.value } }).pipe(
          Effect.mapError((e) => (e._tag === "Rejection" && e.details?.[0]?.path.startsWith("body.values.") ? reject(e.code, e.message, e.details.map((d) => ({ ...d, path: d.path.replace(/^body\.values\.[^.]+/, "body.value") }))) : e))
        )
      })
  }),
  operation({
    service, tag, operationId: "clearTaskCustomFieldValue", method: "DELETE", path: "/v1/tasks/{taskId}/custom-fields/{fieldId}",
    summary: "Clear one custom field value of a task (not allowed for required fields)", auth: "both", scopes: write,
    params: Schema.Struct({ taskId: Id, fieldId: Id }),
    responses: { 204: { description: "Cleared" } },
    examples: [{ name: "clear", request: { params: { ...tk, fieldId: ids.field } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "setCustomFields", { values: { [params.fieldId]: null } })
  }),
  operation({
    service, tag, operationId: "setTaskCustomFieldValues", method: "PATCH", path: "/v1/tasks/{taskId}/custom-fields",
    summary: "Set several custom field values at once (by field id or name; null clears)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ values: FieldValues }),
    responses: { 200: { description: "The task", schema: Task } },
    examples: [{ name: "values", request: { params: tk, body: { values: { [ids.field]: 5 } } }, response: { status: 200, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "setCustomFields", body)
  }),
  // -- tags ---------------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskTags", method: "GET", path: "/v1/tasks/{taskId}/tags",
    summary: "A task's tags", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Tags", schema: Items(Tag) } },
    examples: [{ name: "tags", request: { params: tk }, response: { status: 200, body: { items: [exampleTag] } } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(getTask(params.taskId)), (t) => ({ items: t.tags })))
  }),
  operation({
    service, tag, operationId: "addTaskTag", method: "POST", path: "/v1/tasks/{taskId}/tags",
    summary: "Tag a task (by name; the space's tag is created when missing)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ name: Name(64), color: Schema.optionalKey(Color) }),
    responses: { 201: { description: "The task", schema: Task }, 409: { description: "Already tagged" } },
    examples: [{ name: "tag", request: { params: tk, body: { name: "frontend" } }, response: { status: 201, body: exampleTask } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "addTag", body)
  }),
  operation({
    service, tag, operationId: "removeTaskTag", method: "DELETE", path: "/v1/tasks/{taskId}/tags/{tagId}",
    summary: "Remove a tag from a task", auth: "both", scopes: write, params: Schema.Struct({ taskId: Id, tagId: Id }),
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "untag", request: { params: { ...tk, tagId: ids.tag } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "removeTag", { tagId: params.tagId })
  }),
  // -- checklists ---------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskChecklists", method: "GET", path: "/v1/tasks/{taskId}/checklists",
    summary: "A task's checklists with their items", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Checklists", schema: Items(Checklist) } },
    examples: [{ name: "checklists", request: { params: tk }, response: { status: 200, body: { items: [exampleChecklist] } } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(checklistsOf(params.taskId)), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "createTaskChecklist", method: "POST", path: "/v1/tasks/{taskId}/checklists",
    summary: "Add a checklist (optionally with items) to a task", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ name: Name(200), items: Schema.optionalKey(Schema.Array(Name(500)).check(Schema.isMaxLength(200))) }),
    responses: { 201: { description: "Created", schema: Checklist } },
    examples: [{ name: "create", request: { params: tk, body: { name: "Release", items: ["Write changelog"] } }, response: { status: 201, body: exampleChecklist } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const { id } = (yield* send(PmTask, params.taskId, "createChecklist", caller.userId, body)) as { id: string }
        return yield* orDieSql(checklistOf(params.taskId, id))
      })
  }),
  operation({
    service, tag, operationId: "getTaskChecklist", method: "GET", path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "One checklist of a task", auth: "both", scopes: read, params: ChecklistParams,
    responses: { 200: { description: "The checklist", schema: Checklist } },
    examples: [{ name: "get", request: { params: { ...tk, checklistId: ids.checklist } }, response: { status: 200, body: exampleChecklist } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), orDieSql(checklistOf(params.taskId, params.checklistId)))
  }),
  operation({
    service, tag, operationId: "updateTaskChecklist", method: "PATCH", path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "Rename or reposition a checklist", auth: "both", scopes: write, params: ChecklistParams,
    body: Schema.Struct({ name: Schema.optionalKey(Name(200)), position: Schema.optionalKey(Schema.Finite) }),
    responses: { 200: { description: "Updated", schema: Checklist } },
    examples: [{ name: "rename", request: { params: { ...tk, checklistId: ids.checklist }, body: { name: "Launch" } }, response: { status: 200, body: { ...exampleChecklist, name: "Launch" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "updateChecklist", caller.userId, { checklistId: params.checklistId, ...body })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    service, tag, operationId: "deleteTaskChecklist", method: "DELETE", path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "Delete a checklist with its items", auth: "both", scopes: write, params: ChecklistParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, checklistId: ids.checklist } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "deleteChecklist", { checklistId: params.checklistId })
  }),
  operation({
    service, tag, operationId: "addChecklistItem", method: "POST", path: "/v1/tasks/{taskId}/checklists/{checklistId}/items",
    summary: "Add an item to a checklist (optionally assigned)", auth: "both", scopes: write, params: ChecklistParams,
    body: Schema.Struct({ name: Name(500), assigneeId: Schema.optionalKey(Schema.NullOr(Id)) }),
    responses: { 201: { description: "The checklist", schema: Checklist } },
    examples: [{ name: "add", request: { params: { ...tk, checklistId: ids.checklist }, body: { name: "Write changelog" } }, response: { status: 201, body: exampleChecklist } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "addChecklistItem", caller.userId, { checklistId: params.checklistId, ...body })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    service, tag, operationId: "updateChecklistItem", method: "PATCH", path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}",
    summary: "Rename, resolve, assign or reposition a checklist item", auth: "both", scopes: write, params: ItemParams,
    body: Schema.Struct({ name: Schema.optionalKey(Name(500)), resolved: Schema.optionalKey(Schema.Boolean), assigneeId: Schema.optionalKey(Schema.NullOr(Id)), position: Schema.optionalKey(Schema.Finite) }),
    responses: { 200: { description: "The checklist", schema: Checklist } },
    examples: [{ name: "resolve", request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item }, body: { resolved: true } }, response: { status: 200, body: { ...exampleChecklist, resolvedCount: 1 } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "updateChecklistItem", caller.userId, { checklistId: params.checklistId, itemId: params.itemId, ...body })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    service, tag, operationId: "deleteChecklistItem", method: "DELETE", path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}",
    summary: "Delete a checklist item", auth: "both", scopes: write, params: ItemParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "deleteChecklistItem", { checklistId: params.checklistId, itemId: params.itemId })
  }),
  operation({
    service, tag, operationId: "reorderChecklistItems", method: "PUT", path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/order",
    summary: "Set the order of a checklist's items", auth: "both", scopes: write, params: ChecklistParams,
    body: Schema.Struct({ itemIds: Schema.Array(Id).check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The checklist", schema: Checklist } },
    examples: [{ name: "reorder", request: { params: { ...tk, checklistId: ids.checklist }, body: { itemIds: [ids.item] } }, response: { status: 200, body: exampleChecklist } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "reorderChecklistItems", caller.userId, { checklistId: params.checklistId, itemIds: body.itemIds })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    service, tag, operationId: "convertChecklistItemToSubtask", method: "POST", path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}/convert",
    summary: "Turn a checklist item into a subtask (name, assignee; resolved items become finished subtasks)", auth: "both", scopes: write, params: ItemParams,
    responses: { 201: { description: "The new subtask", schema: Task } },
    examples: [{ name: "convert", request: { params: { ...tk, checklistId: ids.checklist, itemId: ids.item } }, response: { status: 201, body: { ...exampleTask, id: ids.task2, name: "Write changelog", parentTaskId: ids.task } } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "convertChecklistItem", { checklistId: params.checklistId, itemId: params.itemId })
  }),
  // -- comments -----------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskComments", method: "GET", path: "/v1/tasks/{taskId}/comments",
    summary: "A task's top-level comments, oldest first (replies via listCommentReplies)", auth: "both", scopes: read, params: TaskParams,
    query: Schema.Struct({ resolved: Schema.optionalKey(BooleanString), offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "A page of comments", schema: Page(Comment) } },
    examples: [{ name: "comments", request: { params: tk }, response: { status: 200, body: { items: [exampleComment], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.andThen(onTask(context, params.taskId), orDieSql(listComments(params.taskId, { ...pageOf(q), ...(q.resolved ? { resolved: q.resolved === "true" } : {}) })))
  }),
  operation({
    service, tag, operationId: "createTaskComment", method: "POST", path: "/v1/tasks/{taskId}/comments",
    summary: "Comment on a task", description: "`@alice@example.com` in the text mentions a member (they are notified); assignees and watchers hear of the comment; `assigneeId` assigns the comment.",
    auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ text: Name(20_000), assigneeId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "Created", schema: Comment } },
    examples: [{ name: "comment", request: { params: tk, body: { text: "@bob@example.com can you review?" } }, response: { status: 201, body: exampleComment } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "createComment", body)
  }),
  operation({
    service, tag, operationId: "getTaskComment", method: "GET", path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "One comment", auth: "both", scopes: read, params: CommentParams,
    responses: { 200: { description: "The comment", schema: Comment } },
    examples: [{ name: "get", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), orDieSql(getComment(params.taskId, params.commentId)))
  }),
  operation({
    service, tag, operationId: "updateTaskComment", method: "PATCH", path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Edit your comment (newly mentioned members are notified)", auth: "both", scopes: write, params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 200: { description: "Updated", schema: Comment }, 403: { description: "Not the author" } },
    examples: [{ name: "edit", request: { params: { ...tk, commentId: ids.comment }, body: { text: "Done, thanks @bob@example.com" } }, response: { status: 200, body: exampleComment } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "updateComment", { commentId: params.commentId, text: body.text })
  }),
  operation({
    service, tag, operationId: "deleteTaskComment", method: "DELETE", path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Delete a comment and its replies (author or admin)", auth: "both", scopes: write, params: CommentParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "deleteComment", caller.userId, { commentId: params.commentId, admin: caller.admin })
      })
  }),
  operation({
    service, tag, operationId: "listCommentReplies", method: "GET", path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Replies in a comment's thread, oldest first", auth: "both", scopes: read, params: CommentParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "A page of replies", schema: Page(Comment) } },
    examples: [{ name: "replies", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: { items: [{ ...exampleComment, parentCommentId: ids.comment }], total: 1, offset: 0, limit: 50 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        yield* orDieSql(getComment(params.taskId, params.commentId))
        return yield* orDieSql(listComments(params.taskId, { parentCommentId: params.commentId, ...pageOf(q) }))
      })
  }),
  operation({
    service, tag, operationId: "createCommentReply", method: "POST", path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Reply in a comment's thread (the comment's author is notified, mentions too)", auth: "both", scopes: write, params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 201: { description: "Created", schema: Comment } },
    examples: [{ name: "reply", request: { params: { ...tk, commentId: ids.comment }, body: { text: "On it" } }, response: { status: 201, body: { ...exampleComment, parentCommentId: ids.comment, text: "On it" } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "createComment", { text: body.text, parentCommentId: params.commentId })
  }),
  operation({
    service, tag, operationId: "resolveTaskComment", method: "POST", path: "/v1/tasks/{taskId}/comments/{commentId}/resolve",
    summary: "Mark a comment resolved", auth: "both", scopes: write, params: CommentParams,
    responses: { 200: { description: "Resolved", schema: Comment }, 409: { description: "Already resolved" } },
    examples: [{ name: "resolve", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: { ...exampleComment, resolved: true, resolvedAt: at0, resolvedBy: ids.user } } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: true })
  }),
  operation({
    service, tag, operationId: "reopenTaskComment", method: "POST", path: "/v1/tasks/{taskId}/comments/{commentId}/reopen",
    summary: "Reopen a resolved comment", auth: "both", scopes: write, params: CommentParams,
    responses: { 200: { description: "Reopened", schema: Comment }, 409: { description: "Not resolved" } },
    examples: [{ name: "reopen", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: false })
  }),
  operation({
    service, tag, operationId: "assignTaskComment", method: "PUT", path: "/v1/tasks/{taskId}/comments/{commentId}/assignee",
    summary: "Assign a comment to a member as a to-do (null unassigns); they are notified", auth: "both", scopes: write, params: CommentParams,
    body: Schema.Struct({ assigneeId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The comment", schema: Comment } },
    examples: [{ name: "assign", request: { params: { ...tk, commentId: ids.comment }, body: { assigneeId: ids.user2 } }, response: { status: 200, body: { ...exampleComment, assignee: exampleUser } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "assignComment", { commentId: params.commentId, assigneeId: body.assigneeId })
  }),
  operation({
    service, tag, operationId: "addCommentReaction", method: "POST", path: "/v1/tasks/{taskId}/comments/{commentId}/reactions",
    summary: "React to a comment with an emoji", auth: "both", scopes: write, params: CommentParams, body: Schema.Struct({ emoji: Emoji }),
    responses: { 201: { description: "The comment", schema: Comment }, 409: { description: "Already reacted so" } },
    examples: [{ name: "react", request: { params: { ...tk, commentId: ids.comment }, body: { emoji: "thumbsup" } }, response: { status: 201, body: { ...exampleComment, reactions: [{ emoji: "thumbsup", count: 1, userIds: [ids.user] }] } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "addReaction", { commentId: params.commentId, emoji: body.emoji })
  }),
  operation({
    service, tag, operationId: "removeCommentReaction", method: "DELETE", path: "/v1/tasks/{taskId}/comments/{commentId}/reactions/{emoji}",
    summary: "Take back your reaction", auth: "both", scopes: write, params: Schema.Struct({ taskId: Id, commentId: Id, emoji: Emoji }),
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "unreact", request: { params: { ...tk, commentId: ids.comment, emoji: "thumbsup" } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "removeReaction", { commentId: params.commentId, emoji: params.emoji })
  }),
  // -- attachments --------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskAttachments", method: "GET", path: "/v1/tasks/{taskId}/attachments",
    summary: "A task's attachments", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Attachments", schema: Items(Attachment) } },
    examples: [{ name: "attachments", request: { params: tk }, response: { status: 200, body: { items: [exampleAttachment] } } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(listAttachments(params.taskId)), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "uploadTaskAttachment", method: "POST", path: "/v1/tasks/{taskId}/attachments",
    summary: "Attach a file to a task (the raw bytes are the request body; its Content-Type is kept)", auth: "both", scopes: write, params: TaskParams,
    query: Schema.Struct({ filename: Schema.optionalKey(Name(255).check(Schema.isPattern(/^[^/\\]+$/, { expected: "a file name without slashes" }))) }),
    upload: { contentTypes: ["image/*", "application/*", "text/*", "audio/*", "video/*", "font/*"], maxBytes: 25 * 1024 * 1024 },
    responses: { 201: { description: "Attached", schema: Attachment }, 413: { description: "Larger than 25 MiB" }, 415: { description: "Unsupported content type" } },
    examples: [{ name: "upload", request: { params: tk, query: { filename: "screenshot.png" } }, response: { status: 201, body: exampleAttachment } }],
    handler: ({ params, query: q, upload }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (upload === undefined) return yield* reject("invalid", "The file is the request body", [{ path: "body", message: "missing" }])
        const attachmentId = crypto.randomUUID()
        const blobKey = `pm/attachments/${attachmentId}`
        const blobs = yield* BlobStore
        yield* blobs.put(blobKey, upload.bytes, upload.contentType).pipe(Effect.orDie)
        return yield* send(PmTask, params.taskId, "addAttachment", caller.userId, {
          attachmentId, blobKey, filename: q.filename ?? upload.filename ?? "attachment", contentType: upload.contentType, size: upload.bytes.length
        }).pipe(Effect.tapError(() => blobs.delete(blobKey).pipe(Effect.ignore)))
      })
  }),
  operation({
    service, tag, operationId: "getTaskAttachment", method: "GET", path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "An attachment's metadata", auth: "both", scopes: read, params: AttachmentParams,
    responses: { 200: { description: "The attachment", schema: Attachment } },
    examples: [{ name: "get", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 200, body: exampleAttachment } }],
    handler: ({ params }, context) =>
      Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(getAttachment(params.taskId, params.attachmentId)), ({ blobKey: _k, ...a }) => a))
  }),
  operation({
    service, tag, operationId: "downloadTaskAttachment", method: "GET", path: "/v1/tasks/{taskId}/attachments/{attachmentId}/content",
    summary: "Download an attachment's bytes", auth: "both", scopes: read, params: AttachmentParams,
    responses: { 200: { description: "The file", contentType: "application/octet-stream" } },
    examples: [{ name: "download", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 200 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const attachment = yield* orDieSql(getAttachment(params.taskId, params.attachmentId))
        const blob = yield* (yield* BlobStore).get(attachment.blobKey).pipe(Effect.orDie)
        if (blob === undefined) return yield* reject("not_found", "The attachment's file is gone")
        return raw(attachment.contentType, blob.bytes, { "content-disposition": `attachment; filename="${attachment.filename.replace(/["\\\r\n]/g, "_")}"` })
      })
  }),
  operation({
    service, tag, operationId: "renameTaskAttachment", method: "PATCH", path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "Rename an attachment", auth: "both", scopes: write, params: AttachmentParams,
    body: Schema.Struct({ filename: Name(255).check(Schema.isPattern(/^[^/\\]+$/, { expected: "a file name without slashes" })) }),
    responses: { 200: { description: "Renamed", schema: Attachment } },
    examples: [{ name: "rename", request: { params: { ...tk, attachmentId: ids.attachment }, body: { filename: "login.png" } }, response: { status: 200, body: { ...exampleAttachment, filename: "login.png" } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "renameAttachment", { attachmentId: params.attachmentId, filename: body.filename })
  }),
  operation({
    service, tag, operationId: "deleteTaskAttachment", method: "DELETE", path: "/v1/tasks/{taskId}/attachments/{attachmentId}",
    summary: "Delete an attachment and its file (uploader or admin)", auth: "both", scopes: write, params: AttachmentParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, attachmentId: ids.attachment } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const { blobKey } = yield* send(PmTask, params.taskId, "deleteAttachment", caller.userId, { attachmentId: params.attachmentId, admin: caller.admin })
        yield* (yield* BlobStore).delete(blobKey).pipe(Effect.ignore)
      })
  }),
  // -- time tracking ------------------------------------------------------------
  operation({
    service, tag, operationId: "listTaskTimeEntries", method: "GET", path: "/v1/tasks/{taskId}/time-entries",
    summary: "Time tracked on a task, oldest first", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Entries", schema: Items(TimeEntry) } },
    examples: [{ name: "entries", request: { params: tk }, response: { status: 200, body: { items: [exampleTimeEntry] } } }],
    handler: ({ params }, context) =>
      Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(query(`SELECT ${timeEntryColumns} FROM pm_time_entries WHERE task_id = $1 ORDER BY started_at, id`, [params.taskId])), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "createTaskTimeEntry", method: "POST", path: "/v1/tasks/{taskId}/time-entries",
    summary: "Log time on a task (give endedAt or durationMinutes)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({
      startedAt: DateTime,
      endedAt: Schema.optionalKey(DateTime),
      durationMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
      note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))),
      billable: Schema.optionalKey(Schema.Boolean),
      userId: Schema.optionalKey(Id)
    }),
    responses: { 201: { description: "Logged", schema: TimeEntry } },
    examples: [{ name: "log", request: { params: tk, body: { startedAt: "2026-11-21T09:00:00.000Z", durationMinutes: 90, note: "Pairing" } }, response: { status: 201, body: exampleTimeEntry } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const userId = body.userId ?? caller.userId
        if (userId !== caller.userId && !caller.admin) return yield* reject("forbidden", "Only an admin logs time for someone else")
        yield* orDieSql(requireMembers(caller.at.workspaceId, [userId], "body.userId"))
        const startedAt = isoDate(body.startedAt)
        const endedAt = body.endedAt === undefined ? undefined : isoDate(body.endedAt)
        if (!startedAt) return yield* reject("invalid", "Invalid body.startedAt", [{ path: "body.startedAt", message: "not a real date" }])
        if (body.endedAt !== undefined && !endedAt) return yield* reject("invalid", "Invalid body.endedAt", [{ path: "body.endedAt", message: "not a real date" }])
        const { userId: _u, ...rest } = body
        return yield* send(PmTask, params.taskId, "addTimeEntry", caller.userId, { ...rest, startedAt, ...(endedAt ? { endedAt } : {}), userId })
      })
  }),
  operation({
    service, tag, operationId: "updateTaskTimeEntry", method: "PATCH", path: "/v1/tasks/{taskId}/time-entries/{entryId}",
    summary: "Correct a time entry (its owner or an admin)", auth: "both", scopes: write, params: EntryParams,
    body: Schema.Struct({ startedAt: Schema.optionalKey(DateTime), endedAt: Schema.optionalKey(DateTime), note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))), billable: Schema.optionalKey(Schema.Boolean) }),
    responses: { 200: { description: "Updated", schema: TimeEntry } },
    examples: [{ name: "note", request: { params: { ...tk, entryId: ids.entry }, body: { note: "Review" } }, response: { status: 200, body: { ...exampleTimeEntry, note: "Review" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* realDates({ startDate: body.startedAt, dueDate: body.endedAt })
        return yield* send(PmTask, params.taskId, "updateTimeEntry", caller.userId, {
          entryId: params.entryId, admin: caller.admin, ...body,
          ...(body.startedAt ? { startedAt: isoDate(body.startedAt) } : {}), ...(body.endedAt ? { endedAt: isoDate(body.endedAt) } : {})
        })
      })
  }),
  operation({
    service, tag, operationId: "deleteTaskTimeEntry", method: "DELETE", path: "/v1/tasks/{taskId}/time-entries/{entryId}",
    summary: "Delete a time entry (its owner or an admin)", auth: "both", scopes: write, params: EntryParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, entryId: ids.entry } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "deleteTimeEntry", caller.userId, { entryId: params.entryId, admin: caller.admin })
      })
  }),
  operation({
    service, tag, operationId: "startTaskTimer", method: "POST", path: "/v1/tasks/{taskId}/timer/start",
    summary: "Start your timer on a task (a timer running elsewhere is stopped)", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))) }),
    responses: { 201: { description: "Running", schema: TimeEntry } },
    examples: [{ name: "start", request: { params: tk, body: {} }, response: { status: 201, body: { ...exampleTimeEntry, endedAt: null, durationMinutes: null } } }],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "startTimer", body)
  }),
  operation({
    service, tag, operationId: "stopTaskTimer", method: "POST", path: "/v1/tasks/{taskId}/timer/stop",
    summary: "Stop your timer on a task", auth: "both", scopes: write, params: TaskParams,
    responses: { 200: { description: "Stopped", schema: TimeEntry }, 409: { description: "No timer running here" } },
    examples: [{ name: "stop", request: { params: tk }, response: { status: 200, body: exampleTimeEntry } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "stopTimer", {})
  }),
  operation({
    service, tag, operationId: "getTaskTimeSummary", method: "GET", path: "/v1/tasks/{taskId}/time-summary",
    summary: "Tracked time against the estimate, per person", auth: "both", scopes: read, params: TaskParams,
    responses: {
      200: {
        description: "Summary",
        schema: Schema.Struct({ estimateMinutes: Schema.NullOr(Schema.Number), trackedMinutes: Schema.Number, remainingMinutes: Schema.NullOr(Schema.Number), running: Schema.Boolean, byUser: Schema.Array(Schema.Struct({ userId: Id, minutes: Schema.Number })) })
      }
    },
    examples: [{ name: "summary", request: { params: tk }, response: { status: 200, body: { estimateMinutes: 240, trackedMinutes: 90, remainingMinutes: 150, running: false, byUser: [{ userId: ids.user, minutes: 90 }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const task = yield* orDieSql(getTask(params.taskId))
        const rows = yield* orDieSql(query<{ userId: string; minutes: number; running: boolean }>(
          `SELECT user_id AS "userId", round(sum(extract(epoch FROM COALESCE(ended_at, now()) - started_at)) / 60)::int AS minutes, bool_or(ended_at IS NULL) AS running
             FROM pm_time_entries WHERE task_id = $1 GROUP BY user_id ORDER BY user_id`,
          [params.taskId]
        ))
        const tracked = rows.reduce((sum, r) => sum + r.minutes, 0)
        return {
          estimateMinutes: task.timeEstimateMinutes,
          trackedMinutes: tracked,
          remainingMinutes: task.timeEstimateMinutes === null ? null : Math.max(0, task.timeEstimateMinutes - tracked),
          running: rows.some((r) => r.running),
          byUser: rows.map(({ userId, minutes }) => ({ userId, minutes }))
        }
      })
  }),
  operation({
    service, tag, operationId: "getRunningTimer", method: "GET", path: "/v1/workspaces/{workspaceId}/timer",
    summary: "The caller's running timer in the workspace, if any", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "The running entry, or null", schema: Schema.Struct({ entry: Schema.NullOr(TimeEntry) }) } },
    examples: [{ name: "running", request: { params: ws }, response: { status: 200, body: { entry: { ...exampleTimeEntry, endedAt: null, durationMinutes: null } } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const rows = yield* orDieSql(query(`SELECT ${timeEntryColumns} FROM pm_time_entries WHERE workspace_id = $1 AND user_id = $2 AND ended_at IS NULL`, [params.workspaceId, caller.userId]))
        return { entry: rows[0] ?? null }
      })
  }),
  operation({
    service, tag, operationId: "listWorkspaceTimeEntries", method: "GET", path: "/v1/workspaces/{workspaceId}/time-entries",
    summary: "A timesheet: time entries of the workspace in a period, optionally of one member", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ from: Schema.optionalKey(DateTime), to: Schema.optionalKey(DateTime), userId: Schema.optionalKey(Id), offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Entries and their total", schema: Schema.Struct({ items: Schema.Array(TimeEntry), totalMinutes: Schema.Number }) } },
    examples: [{ name: "week", request: { params: ws, query: { from: "2026-11-16", to: "2026-11-23" } }, response: { status: 200, body: { items: [exampleTimeEntry], totalMinutes: 90 } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const page = pageOf(q)
        const rows = yield* orDieSql(query<{ durationMinutes: number | null }>(
          `SELECT ${timeEntryColumns.replace(/\b(id|task_id|user_id|started_at|ended_at|note|billable|created_at)\b/g, "e.$1")} FROM pm_time_entries e
             JOIN pm_tasks t ON t.id = e.task_id JOIN pm_spaces s ON s.id = t.space_id
            WHERE e.workspace_id = $1 AND t.deleted_at IS NULL
              AND (NOT s.is_private OR $2::boolean OR EXISTS (SELECT 1 FROM pm_space_members m WHERE m.space_id = s.id AND m.user_id = $3))
              AND ($4::timestamptz IS NULL OR e.started_at >= $4) AND ($5::timestamptz IS NULL OR e.started_at < $5) AND ($6::text IS NULL OR e.user_id = $6)
            ORDER BY e.started_at, e.id LIMIT ${page.limit} OFFSET ${page.offset}`,
          [params.workspaceId, caller.admin, caller.userId, q.from ? isoDate(q.from) ?? null : null, q.to ? isoDate(q.to) ?? null : null, q.userId ?? null]
        ))
        return { items: rows, totalMinutes: rows.reduce((sum, r) => sum + (r.durationMinutes ?? 0), 0) }
      })
  }),
  // -- recurrence ---------------------------------------------------------------
  operation({
    service, tag, operationId: "getTaskRecurrence", method: "GET", path: "/v1/tasks/{taskId}/recurrence",
    summary: "How a task recurs (null when it does not)", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Recurrence", schema: Schema.Struct({ recurrence: Schema.NullOr(RecurrenceSchema) }) } },
    examples: [{ name: "weekly", request: { params: tk }, response: { status: 200, body: { recurrence: { frequency: "weekly", interval: 1 } } } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), Effect.map(orDieSql(getTask(params.taskId)), (t) => ({ recurrence: t.recurrence })))
  }),
  operation({
    service, tag, operationId: "setTaskRecurrence", method: "PUT", path: "/v1/tasks/{taskId}/recurrence",
    summary: "Make a task recur: finishing it creates the next occurrence with dates moved on (needs a start or due date)", auth: "both", scopes: write, params: TaskParams,
    body: RecurrenceSchema,
    responses: { 200: { description: "The task", schema: Task }, 409: { description: "The task has no date to repeat from" } },
    examples: [{ name: "weekly", request: { params: tk, body: { frequency: "weekly", interval: 1 } }, response: { status: 200, body: { ...exampleTask, recurrence: { frequency: "weekly", interval: 1 } } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.until && !isoDate(body.until)) return yield* reject("invalid", "Invalid body.until", [{ path: "body.until", message: "not a real date" }])
        const recurrence: Recurrence = { frequency: body.frequency, interval: body.interval, ...(body.until ? { until: isoDate(body.until)! } : {}) }
        return yield* send(PmTask, params.taskId, "setRecurrence", caller.userId, { recurrence })
      })
  }),
  operation({
    service, tag, operationId: "deleteTaskRecurrence", method: "DELETE", path: "/v1/tasks/{taskId}/recurrence",
    summary: "Stop a task recurring", auth: "both", scopes: write, params: TaskParams,
    responses: { 204: { description: "Stopped" } },
    examples: [{ name: "stop", request: { params: tk }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "setRecurrence", { recurrence: null })
  }),
  operation({
    service, tag, operationId: "listTaskLists", method: "GET", path: "/v1/tasks/{taskId}/lists",
    summary: "The lists a task appears in: its home list first, then the lists it was added to", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Lists", schema: Items(Schema.Struct({ ...List.fields, home: Schema.Boolean })) } },
    examples: [{ name: "lists", request: { params: tk }, response: { status: 200, body: { items: [{ ...exampleList, home: true }] } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const home = yield* orDieSql(getList(caller.at.listId!))
        const links = yield* orDieSql(query<{ listId: string }>(
          `SELECT k.list_id AS "listId" FROM pm_task_list_links k JOIN pm_lists l ON l.id = k.list_id WHERE k.task_id = $1 AND l.deleted_at IS NULL ORDER BY k.added_at`, [params.taskId]
        ))
        const others = yield* orDieSql(Effect.forEach(links, (l) => getList(l.listId)))
        return { items: [{ ...home, home: true }, ...others.map((l) => ({ ...l, home: false }))] }
      })
  }),
  // -- bulk ---------------------------------------------------------------------
  operation({
    service, tag, operationId: "bulkCreateTasks", method: "POST", path: "/v1/lists/{listId}/tasks/bulk",
    summary: "Create up to 100 tasks in a list at once (all or nothing)", auth: "both", scopes: write, params: ListParams,
    body: Schema.Struct({ tasks: Schema.Array(NewTaskBody).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 201: { description: "Created", schema: Items(Task) } },
    examples: [{ name: "bulk", request: { params: li, body: { tasks: [{ name: "One" }, { name: "Two", priority: "low" }] } }, response: { status: 201, body: { items: [exampleTask] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const tasks = yield* Effect.forEach(body.tasks, (task, index) => newTaskInput(caller.at.workspaceId, task, `body.tasks.${index}`))
        return yield* send(PmList, params.listId, "bulkCreateTasks", caller.userId, { tasks })
      })
  }),
  operation({
    service, tag, operationId: "bulkUpdateTasks", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/bulk-update",
    summary: "Apply one change to many tasks; each task is updated (or refused) on its own", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)), patch: TaskPatchBody }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    examples: [{ name: "close", request: { params: ws, body: { taskIds: [ids.task, ids.task2], patch: { status: "done" } } }, response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        const patch = yield* taskPatchInput(params.workspaceId, body.patch, "body.patch")
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "update", caller.userId, patch))
      })
  }),
  operation({
    service, tag, operationId: "bulkMoveTasks", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/bulk-move",
    summary: "Move many tasks to one list", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)), listId: Id, statusMapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64))) }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    examples: [{ name: "move", request: { params: ws, body: { taskIds: [ids.task], listId: ids.list } }, response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        const target = yield* onList(context, body.listId, "member").pipe(Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }]) : e)))
        if (target.at.workspaceId !== params.workspaceId) return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "move", caller.userId, { listId: body.listId, ...(body.statusMapping ? { statusMapping: body.statusMapping } : {}) }))
      })
  }),
  operation({
    service, tag, operationId: "bulkDeleteTasks", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/bulk-delete",
    summary: "Move many tasks to the trash", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    examples: [{ name: "delete", request: { params: ws, body: { taskIds: [ids.task] } }, response: { status: 200, body: { items: [{ taskId: ids.task, ok: true }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "delete", caller.userId, {}))
      })
  }),
  operation({
    service, tag, operationId: "bulkArchiveTasks", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/bulk-archive",
    summary: "Archive (or unarchive) many tasks", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)), archived: Schema.optionalKey(Schema.Boolean) }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    examples: [{ name: "archive", request: { params: ws, body: { taskIds: [ids.task] } }, response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: { ...exampleTask, archived: true, archivedAt: at0 } }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "setArchived", caller.userId, { archived: body.archived ?? true }))
      })
  }),
  operation({
    service, tag, operationId: "bulkSetTaskCustomField", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/bulk-custom-field",
    summary: "Set (or clear, with null) one custom field on many tasks", auth: "both", scopes: write, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)), fieldId: Id, value: Schema.Unknown }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    examples: [{ name: "points", request: { params: ws, body: { taskIds: [ids.task], fieldId: ids.field, value: 3 } }, response: { status: 200, body: { items: [{ taskId: ids.task, ok: true, task: exampleTask }] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "setCustomFields", caller.userId, { values: { [body.fieldId]: body.value ?? null } }))
      })
  }),
  // -- templates ----------------------------------------------------------------
  operation({
    service, tag, operationId: "saveTaskAsTemplate", method: "POST", path: "/v1/tasks/{taskId}/save-as-template",
    summary: "Save a task (fields, checklists, subtasks) as a workspace task template", auth: "both", scopes: write, params: TaskParams,
    body: Schema.Struct({ name: Name(200) }),
    responses: { 201: { description: "Saved", schema: TaskTemplateView } },
    examples: [{ name: "save", request: { params: tk, body: { name: "Release checklist" } }, response: { status: 201, body: { id: ids.template, workspaceId: ids.workspace, name: "Release checklist", template: { name: "Ship the login page" }, createdBy: ids.user, createdAt: at0 } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmWorkspace, caller.at.workspaceId, "saveTaskTemplate", caller.userId, { taskId: params.taskId, name: body.name })
      })
  }),
  operation({
    service, tag, operationId: "listTaskTemplates", method: "GET", path: "/v1/workspaces/{workspaceId}/task-templates",
    summary: "The workspace's task templates", auth: "both", scopes: read, params: WorkspaceParams,
    responses: { 200: { description: "Templates", schema: Items(TaskTemplateView) } },
    examples: [{ name: "templates", request: { params: ws }, response: { status: 200, body: { items: [{ id: ids.template, workspaceId: ids.workspace, name: "Release checklist", template: { name: "Ship" }, createdBy: ids.user, createdAt: at0 }] } } }],
    handler: ({ params }, context) => Effect.andThen(inWorkspace(context, params.workspaceId), Effect.map(orDieSql(templatesOf(params.workspaceId)), (items) => ({ items })))
  }),
  operation({
    service, tag, operationId: "createTaskFromTemplate", method: "POST", path: "/v1/lists/{listId}/tasks/from-template",
    summary: "Create a task in a list from a workspace task template", auth: "both", scopes: write, params: ListParams,
    body: Schema.Struct({ templateId: Id, name: Schema.optionalKey(Name(500)) }),
    responses: { 201: { description: "Created", schema: Task } },
    examples: [{ name: "from-template", request: { params: li, body: { templateId: ids.template, name: "Release 2.0" } }, response: { status: 201, body: { ...exampleTask, name: "Release 2.0" } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const template = yield* orDieSql(getTemplate(caller.at.workspaceId, body.templateId)).pipe(Effect.mapError((e) => (e._tag === "Rejection" ? reject("not_found", e.message, [{ path: "body.templateId", message: "not found" }]) : e)))
        return yield* send(PmList, params.listId, "instantiateTask", caller.userId, { template: template.template, ...(body.name ? { name: body.name } : {}) })
      })
  }),
  operation({
    service, tag, operationId: "deleteTaskTemplate", method: "DELETE", path: "/v1/workspaces/{workspaceId}/task-templates/{templateId}",
    summary: "Delete a task template", auth: "both", scopes: write, params: Schema.Struct({ workspaceId: Id, templateId: Id }),
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...ws, templateId: ids.template } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        yield* send(PmWorkspace, params.workspaceId, "deleteTaskTemplate", caller.userId, { templateId: params.templateId })
      })
  }),
  // -- trash and batch reads ----------------------------------------------------
  operation({
    service, tag, operationId: "listDeletedTasks", method: "GET", path: "/v1/workspaces/{workspaceId}/tasks/trash",
    summary: "Tasks in the trash (deleted, in lists that still exist), latest first", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Deleted tasks", schema: Items(Task) } },
    examples: [{ name: "trash", request: { params: ws }, response: { status: 200, body: { items: [{ ...exampleTask, deletedAt: at0 }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const page = pageOf(q)
        const rows = yield* orDieSql(query<TaskRow>(
          `SELECT ${taskColumns} ${taskFrom} WHERE t.workspace_id = $1 AND t.deleted_at IS NOT NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL
              AND (NOT s.is_private OR $2::boolean OR EXISTS (SELECT 1 FROM pm_space_members m WHERE m.space_id = s.id AND m.user_id = $3))
            ORDER BY t.deleted_at DESC, t.id LIMIT ${page.limit} OFFSET ${page.offset}`,
          [params.workspaceId, caller.admin, caller.userId]
        ))
        return { items: yield* orDieSql(hydrate(rows)) }
      })
  }),
  operation({
    service, tag, operationId: "restoreDeletedTask", method: "POST", path: "/v1/tasks/{taskId}/undelete",
    summary: "Take a task (and the subtasks deleted with it) out of the trash", auth: "both", scopes: write, params: TaskParams,
    responses: { 200: { description: "Restored", schema: Task } },
    examples: [{ name: "undelete", request: { params: tk }, response: { status: 200, body: exampleTask } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onDeletedTask(context, params.taskId, "member")
        return yield* send(PmTask, params.taskId, "undelete", caller.userId, {})
      })
  }),
  operation({
    service, tag, operationId: "getTasksByIds", method: "POST", path: "/v1/workspaces/{workspaceId}/tasks/batch-get",
    summary: "Read up to 100 tasks by id in one call (those the caller cannot see are left out)", auth: "both", scopes: read, params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "Tasks, in the order asked; missing ones listed", schema: Schema.Struct({ items: Schema.Array(Task), missing: Schema.Array(Id) }) } },
    examples: [{ name: "batch", request: { params: ws, body: { taskIds: [ids.task, ids.task2] } }, response: { status: 200, body: { items: [exampleTask], missing: [ids.task2] } } }],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const tasks = yield* orDieSql(getTasks(body.taskIds))
        const visible = new Map<string, Task>()
        for (const task of tasks) {
          if (task.workspaceId !== params.workspaceId) continue
          const allowed = yield* Effect.result(onTask(context, task.id))
          if (allowed._tag === "Success") visible.set(task.id, task)
        }
        return { items: body.taskIds.filter((id) => visible.has(id)).map((id) => visible.get(id)!), missing: body.taskIds.filter((id) => !visible.has(id)) }
      })
  }),
  operation({
    service, tag, operationId: "exportTaskMarkdown", method: "GET", path: "/v1/tasks/{taskId}/export.md",
    summary: "A task as Markdown: fields, description, checklists and comments (handy for AI agents)", auth: "both", scopes: read, params: TaskParams,
    responses: { 200: { description: "Markdown", contentType: "text/markdown" } },
    examples: [{ name: "markdown", request: { params: tk }, response: { status: 200, body: "# T-42: Ship the login page\n\n- Status: in progress\n" } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const task = yield* orDieSql(getTask(params.taskId))
        const checklists = yield* orDieSql(checklistsOf(params.taskId))
        const comments = yield* orDieSql(listComments(params.taskId, { offset: 0, limit: 200 }))
        return raw("text/markdown; charset=utf-8", markdownOf(task, checklists, comments.items))
      })
  }),
  operation({
    service, tag, operationId: "listAssignedComments", method: "GET", path: "/v1/workspaces/{workspaceId}/comments/assigned-to-me",
    summary: "Comments assigned to the caller as to-dos, unresolved first", auth: "both", scopes: read, params: WorkspaceParams,
    query: Schema.Struct({ includeResolved: Schema.optionalKey(BooleanString) }),
    responses: { 200: { description: "Comments", schema: Items(Comment) } },
    examples: [{ name: "assigned", request: { params: ws }, response: { status: 200, body: { items: [{ ...exampleComment, assignee: exampleUser }] } } }],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const comments = yield* orDieSql(assignedComments(params.workspaceId, caller.userId, q.includeResolved === "true"))
        const visible: Array<Comment> = []
        for (const comment of comments) if ((yield* Effect.result(onTask(context, comment.taskId)))._tag === "Success") visible.push(comment)
        return { items: visible }
      })
  }),
  operation({
    service, tag, operationId: "getTaskProgress", method: "GET", path: "/v1/tasks/{taskId}/progress",
    summary: "How far along a task is: finished subtasks, resolved checklist items, tracked time against the estimate", auth: "both", scopes: read, params: TaskParams,
    responses: {
      200: {
        description: "Progress",
        schema: Schema.Struct({
          subtasks: Schema.Struct({ total: Schema.Number, finished: Schema.Number }),
          checklistItems: Schema.Struct({ total: Schema.Number, resolved: Schema.Number }),
          trackedMinutes: Schema.Number,
          estimateMinutes: Schema.NullOr(Schema.Number),
          percent: Schema.Number
        })
      }
    },
    examples: [{ name: "progress", request: { params: tk }, response: { status: 200, body: { subtasks: { total: 2, finished: 1 }, checklistItems: { total: 2, resolved: 1 }, trackedMinutes: 90, estimateMinutes: 240, percent: 50 } } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const task = yield* orDieSql(getTask(params.taskId))
        const [sub] = yield* orDieSql(query<{ total: number; finished: number }>(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE closed_at IS NOT NULL)::int AS finished FROM pm_tasks WHERE parent_task_id = $1 AND deleted_at IS NULL`, [params.taskId]
        ))
        const [items] = yield* orDieSql(query<{ total: number; resolved: number }>(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE resolved)::int AS resolved FROM pm_checklist_items WHERE task_id = $1`, [params.taskId]
        ))
        const [time] = yield* orDieSql(query<{ minutes: number }>(
          `SELECT COALESCE(round(sum(extract(epoch FROM COALESCE(ended_at, now()) - started_at)) / 60), 0)::int AS minutes FROM pm_time_entries WHERE task_id = $1`, [params.taskId]
        ))
        const parts = sub!.total + items!.total
        const percent = task.closedAt !== null ? 100 : parts === 0 ? 0 : Math.round(((sub!.finished + items!.resolved) / parts) * 100)
        return { subtasks: sub!, checklistItems: items!, trackedMinutes: time!.minutes, estimateMinutes: task.timeEstimateMinutes, percent }
      })
  })
]
