/**
 * Bulk changes: one command per task on each task's own actor; every task
 * succeeds or fails on its own.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { locateTask } from "../../../actors/pm/Locate.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { refusalOf } from "../../HttpError.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { inWorkspace, onList, onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, write, ListParams, WorkspaceParams, NewTaskBody, TaskPatchBody, newTaskInput, taskPatchInput } from "./shared.ts"
import { bulkExamples } from "./Bulk.examples.ts"

/** Tasks named in a bulk request: all must be visible in the workspace (else 404 naming the entry). */
const bulkTargets = (context: RequestContext, workspaceId: string, taskIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId, "member")
    for (const [index, taskId] of taskIds.entries()) {
      const located = yield* orDieSql(locateTask(taskId)).pipe(
        Effect.mapError((e) =>
          e._tag === "PlaceNotFound"
            ? reject("not_found", `No such task ${taskId}`, [{ path: `body.taskIds.${index}`, message: "not found" }])
            : e
        )
      )
      if (located.workspaceId !== workspaceId)
        return yield* reject("not_found", `No such task ${taskId}`, [{ path: `body.taskIds.${index}`, message: "not found" }])
      yield* onTask(context, taskId, "member").pipe(
        Effect.mapError((e) =>
          e._tag === "Rejection" ? reject(e.code, e.message, [{ path: `body.taskIds.${index}`, message: e.message }]) : e
        )
      )
    }
    return caller
  })

const BulkResult = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      taskId: Id,
      ok: Schema.Boolean,
      task: Schema.optionalKey(Task),
      error: Schema.optionalKey(Schema.Struct({ code: Schema.String, message: Schema.String }))
    })
  )
}).annotate({ identifier: "BulkTaskResult" })

/** Runs one command per task on each task's own actor; every task succeeds or fails on its own. */
const perTask = <A>(taskIds: ReadonlyArray<string>, run: (taskId: string) => Effect.Effect<A, any, any>) =>
  Effect.map(
    Effect.forEach(
      taskIds,
      (taskId) =>
        Effect.match(run(taskId), {
          onSuccess: (task) => ({ taskId, ok: true, ...(task && typeof task === "object" && "id" in (task as object) ? { task } : {}) }),
          onFailure: (error: any) => {
            // Declared domain errors answer with their envelope code, as `Rejection`s do.
            const refusal = refusalOf(error)
            return {
              taskId,
              ok: false,
              error: {
                code: refusal?.code ?? error?.code ?? error?._tag ?? "error",
                message: refusal?.message ?? error?.message ?? String(error)
              }
            }
          }
        }),
      { concurrency: 8 }
    ),
    (items) => ({ items })
  )

const { operation } = tagGroup(service, tag, bulkExamples)

export const taskBulkOperations = [
  operation({
    operationId: "bulkCreateTasks",
    method: "POST",
    path: "/v1/lists/{listId}/tasks/bulk",
    summary: "Create up to 100 tasks in a list at once (all or nothing)",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: Schema.Struct({ tasks: Schema.Array(NewTaskBody).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 201: { description: "Created", schema: Items(Task) } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const tasks = yield* Effect.forEach(body.tasks, (task, index) => newTaskInput(caller.at.workspaceId, task, `body.tasks.${index}`))
        return yield* send(PmList, params.listId, "bulkCreateTasks", caller.userId, { tasks })
      })
  }),
  operation({
    operationId: "bulkUpdateTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/bulk-update",
    summary: "Apply one change to many tasks; each task is updated (or refused) on its own",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)), patch: TaskPatchBody }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        const patch = yield* taskPatchInput(params.workspaceId, body.patch, "body.patch")
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "update", caller.userId, patch))
      })
  }),
  operation({
    operationId: "bulkMoveTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/bulk-move",
    summary: "Move many tasks to one list",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      listId: Id,
      statusMapping: Schema.optionalKey(Schema.Record(Schema.String, Name(64)))
    }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        const target = yield* onList(context, body.listId, "member").pipe(
          Effect.mapError((e) =>
            e._tag === "Rejection" && e.code === "not_found"
              ? reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
              : e
          )
        )
        if (target.at.workspaceId !== params.workspaceId)
          return yield* reject("not_found", "No such list", [{ path: "body.listId", message: "not found" }])
        return yield* perTask(body.taskIds, (taskId) =>
          send(PmTask, taskId, "move", caller.userId, {
            listId: body.listId,
            ...(body.statusMapping ? { statusMapping: body.statusMapping } : {})
          })
        )
      })
  }),
  operation({
    operationId: "bulkDeleteTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/bulk-delete",
    summary: "Move many tasks to the trash",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({ taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)) }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) => send(PmTask, taskId, "delete", caller.userId, {}))
      })
  }),
  operation({
    operationId: "bulkArchiveTasks",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/bulk-archive",
    summary: "Archive (or unarchive) many tasks",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      archived: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) =>
          send(PmTask, taskId, "setArchived", caller.userId, { archived: body.archived ?? true })
        )
      })
  }),
  operation({
    operationId: "bulkSetTaskCustomField",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/tasks/bulk-custom-field",
    summary: "Set (or clear, with null) one custom field on many tasks",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      taskIds: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(100)),
      fieldId: Id,
      value: Schema.Unknown
    }),
    responses: { 200: { description: "Per-task outcome", schema: BulkResult } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* bulkTargets(context, params.workspaceId, body.taskIds)
        return yield* perTask(body.taskIds, (taskId) =>
          send(PmTask, taskId, "setCustomFields", caller.userId, { values: { [body.fieldId]: body.value ?? null } })
        )
      })
  })
]
