/**
 * Tasks themselves: create, list, read, change, delete, archive, duplicate,
 * move, order and merge, and the setters of single fields (status, priority,
 * dates, estimate) with the time spent in each status.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { templateOf } from "../../../actors/pm/TaskCommands.ts"
import { findTasks, getTask, statusHistory } from "../../../actors/pm/TaskReads.ts"
import { Minutes } from "../../../actors/pm/TaskWrites.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmTask } from "../../../actors/pm/WorkActors.ts"
import { DateTime, Page, Priority, ShortId, Task } from "../../../actors/pm/WorkRecords.ts"
import { idByShortId } from "../../../actors/pm/WorkspaceReads.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { filterOf, pageFrom, TaskQuery } from "../TaskFilters.ts"
import { BooleanString, type CallerAt, inWorkspace, Limit, Offset, onList, onTask, orDieSql, pageOf, realDates } from "../WorkAccess.ts"

import {
  taskCommand,
  tag,
  service,
  read,
  write,
  TaskParams,
  ListParams,
  WorkspaceParams,
  NewTaskBody,
  TaskPatchBody,
  date,
  newTaskInput,
  taskPatchInput
} from "./shared.ts"
import { coreExamples } from "./Core.examples.ts"

const viewerOf = (caller: CallerAt) => caller.viewer

const { operation } = tagGroup(service, tag, coreExamples)

export const taskCoreOperations = [
  operation({
    operationId: "createTask",
    method: "POST",
    path: "/v1/lists/{listId}/tasks",
    summary: "Create a task in a list",
    description:
      "Status defaults to the list's first open status; missing priority, estimate, assignees and due date come from the list's and space's task defaults. Assignees by id or e-mail; tags by name (created in the space when missing); custom field values by field id, validated against their definitions.",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: NewTaskBody,
    responses: { 201: { description: "Created", schema: Task }, 404: { description: "An assignee e-mail is not a member" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const input = yield* newTaskInput(caller.at.workspaceId, body)
        return yield* send(PmList, params.listId, "createTask", caller.userId, input)
      })
  }),
  operation({
    operationId: "listTasks",
    method: "GET",
    path: "/v1/lists/{listId}/tasks",
    summary: "Tasks of a list (and those added to it from other lists), filtered, ordered and paged",
    auth: "both",
    scopes: read,
    params: ListParams,
    query: TaskQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId)
        return yield* orDieSql(
          findTasks(filterOf(q, { workspaceId: caller.at.workspaceId, viewer: viewerOf(caller), listIds: [params.listId] }), pageFrom(q))
        )
      })
  }),
  operation({
    operationId: "getTask",
    method: "GET",
    path: "/v1/tasks/{taskId}",
    summary: "Get a task with its status, assignees, watchers, tags and custom field values",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "The task", schema: Task } },
    handler: ({ params }, context) => Effect.map(onTask(context, params.taskId), (caller) => caller.task)
  }),
  operation({
    operationId: "updateTask",
    method: "PATCH",
    path: "/v1/tasks/{taskId}",
    summary: "Change a task's fields",
    description:
      "Fields left out are unchanged; null clears priority, dates and estimate. `assigneeIds`/`assigneeEmails` replace the assignees, `addAssigneeIds`/`removeAssigneeIds` adjust them; `tags` replaces the tags; `customFields` sets values (null clears). Each change bumps `version` once.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: TaskPatchBody,
    responses: { 200: { description: "Updated", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const patch = yield* taskPatchInput(caller.at.workspaceId, body)
        return yield* send(PmTask, params.taskId, "update", caller.userId, patch)
      })
  }),
  operation({
    operationId: "deleteTask",
    method: "DELETE",
    path: "/v1/tasks/{taskId}",
    summary: "Move a task (with its subtasks) to the trash",
    description: "It can be restored with restoreDeletedTask.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "delete", {})
  }),
  operation({
    operationId: "archiveTask",
    method: "POST",
    path: "/v1/tasks/{taskId}/archive",
    summary: "Archive a task (hidden from listings, still readable)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 200: { description: "Archived", schema: Task }, 409: { description: "Already archived" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "setArchived", { archived: true })
  }),
  operation({
    operationId: "restoreTask",
    method: "POST",
    path: "/v1/tasks/{taskId}/unarchive",
    summary: "Bring an archived task back",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 200: { description: "Restored", schema: Task }, 409: { description: "Not archived" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "setArchived", { archived: false })
  }),
  operation({
    operationId: "getTaskByShortId",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tasks/by-short-id/{shortId}",
    summary: "Find a task by its short id (T-42)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ workspaceId: Id, shortId: ShortId }),
    responses: { 200: { description: "The task", schema: Task } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* inWorkspace(context, params.workspaceId)
        const id = yield* orDieSql(idByShortId("task", params.workspaceId, params.shortId.toUpperCase()))
        if (id === undefined) return yield* reject("not_found", `No task ${params.shortId}`)
        yield* onTask(context, id)
        return yield* orDieSql(getTask(id))
      })
  }),
  operation({
    operationId: "listWorkspaceTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tasks",
    summary: "Tasks across the workspace (every space the caller can see), filtered, ordered and paged",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: TaskQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(findTasks(filterOf(q, { workspaceId: params.workspaceId, viewer: caller.viewer }), pageFrom(q)))
      })
  }),
  operation({
    operationId: "listMyTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/my-tasks",
    summary: "The caller's assigned, unfinished tasks, soonest due first",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      includeClosed: Schema.optionalKey(BooleanString),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        return yield* orDieSql(
          findTasks(
            {
              workspaceId: params.workspaceId,
              viewer: caller.viewer,
              assigneeIds: [caller.userId],
              includeClosed: q.includeClosed === "true"
            },
            { ...pageOf(q), order: "due", direction: "asc" }
          )
        )
      })
  }),
  operation({
    operationId: "duplicateTask",
    method: "POST",
    path: "/v1/tasks/{taskId}/duplicate",
    summary: "Copy a task (fields, checklists and subtasks; not comments or attachments) into its list or another",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ listId: Schema.optionalKey(Id), name: Schema.optionalKey(Name(500)) }),
    responses: { 201: { description: "The copy", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const listId = body.listId ?? caller.at.listId!
        if (body.listId) {
          const target = yield* onList(context, body.listId, "member").pipe(
            Effect.mapError((e) =>
              e._tag === "Rejection" && e.code === "not_found"
                ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
                : e
            )
          )
          if (target.at.workspaceId !== caller.at.workspaceId)
            return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        }
        const template = yield* orDieSql(templateOf(params.taskId))
        return yield* send(PmList, listId, "instantiateTask", caller.userId, {
          template: { ...template, parentTaskId: null },
          name: body.name ?? `${template.name} (copy)`
        })
      })
  }),
  operation({
    operationId: "moveTask",
    method: "POST",
    path: "/v1/tasks/{taskId}/move",
    summary: "Move a task (with its subtasks) to another list of the workspace",
    description:
      "The status is kept when the new list has it, else mapped by `statusMapping` or to the first status of the same type; values of fields the new list lacks are dropped; tags are matched by name in the new space.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ listId: Id, statusMapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64))) }),
    responses: { 200: { description: "Moved", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const target = yield* onList(context, body.listId, "member").pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
              : e
          )
        )
        if (target.at.workspaceId !== caller.at.workspaceId)
          return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        return yield* send(PmTask, params.taskId, "move", caller.userId, body)
      })
  }),
  operation({
    operationId: "setTaskPosition",
    method: "PUT",
    path: "/v1/tasks/{taskId}/position",
    summary: "Place a task right after another of its list (null: first)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ afterTaskId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Placed", schema: Task } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "setPosition", body)
  }),
  operation({
    operationId: "mergeTasks",
    method: "POST",
    path: "/v1/tasks/{taskId}/merge",
    summary:
      "Merge other tasks into this one (their comments, attachments, checklists, subtasks, assignees, watchers, tags and time), then trash them",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ sourceTaskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(20)) }),
    responses: { 200: { description: "The merged task", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        for (const [index, id] of body.sourceTaskIds.entries()) {
          yield* onTask(context, id, "member").pipe(
            Effect.mapError((e) =>
              e._tag === "Rejection"
                ? reject(e.code, `No such task ${id}`, [{ path: `body.sourceTaskIds.${index}`, message: e.message }])
                : e
            )
          )
        }
        return yield* send(PmTask, params.taskId, "merge", caller.userId, body)
      })
  }),
  operation({
    operationId: "setTaskStatus",
    method: "PUT",
    path: "/v1/tasks/{taskId}/status",
    summary: "Set a task's status (by name, one of its list's statuses)",
    description: "Assignees and watchers are notified; finishing a recurring task creates its next occurrence.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ status: Name(64) }),
    responses: { 200: { description: "Updated", schema: Task } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "update", { status: body.status })
  }),
  operation({
    operationId: "setTaskPriority",
    method: "PUT",
    path: "/v1/tasks/{taskId}/priority",
    summary: "Set or clear a task's priority (urgent, high, normal, low)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ priority: Schema.NullOr(Priority) }),
    responses: { 200: { description: "Updated", schema: Task } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "update", { priority: body.priority })
  }),
  operation({
    operationId: "setTaskDates",
    method: "PUT",
    path: "/v1/tasks/{taskId}/dates",
    summary: "Set or clear a task's start and due dates",
    description: "A date left out is unchanged; null clears it; the start may not be after the due date.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ startDate: Schema.optionalKey(Schema.NullOr(DateTime)), dueDate: Schema.optionalKey(Schema.NullOr(DateTime)) }),
    responses: { 200: { description: "Updated", schema: Task } },
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
    operationId: "setTaskTimeEstimate",
    method: "PUT",
    path: "/v1/tasks/{taskId}/time-estimate",
    summary: "Set or clear a task's time estimate (minutes)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ minutes: Schema.NullOr(Minutes) }),
    responses: { 200: { description: "Updated", schema: Task } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "update", { timeEstimateMinutes: body.minutes })
  }),
  operation({
    operationId: "getTaskTimeInStatus",
    method: "GET",
    path: "/v1/tasks/{taskId}/time-in-status",
    summary: "How long a task has spent in each status",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: {
      200: {
        description: "Time per status",
        schema: Schema.Struct({
          current: Schema.Struct({ status: Schema.String, since: Schema.String }),
          items: Schema.Array(
            Schema.Struct({ status: Schema.String, type: Schema.String, totalMinutes: Schema.Number, times: Schema.Number })
          )
        })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { task: current } = yield* onTask(context, params.taskId)
        const rows = yield* orDieSql(statusHistory(params.taskId))
        const totals = new Map<string, { status: string; type: string; totalMinutes: number; times: number }>()
        rows.forEach((row, index) => {
          const until = index + 1 < rows.length ? Date.parse(rows[index + 1]!.enteredAt) : Date.now()
          const entry = totals.get(row.status.toLowerCase()) ?? { status: row.status, type: row.type, totalMinutes: 0, times: 0 }
          entry.totalMinutes += Math.max(0, Math.round((until - Date.parse(row.enteredAt)) / 60_000))
          entry.times += 1
          totals.set(row.status.toLowerCase(), entry)
        })
        const last = rows.at(-1)
        const task = last ? undefined : current
        return {
          current: last ? { status: last.status, since: last.enteredAt } : { status: task!.status.name, since: task!.createdAt },
          items: [...totals.values()]
        }
      })
  })
]
