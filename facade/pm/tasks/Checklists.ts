/**
 * A task's checklists and their items.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { checklistsOf } from "../../../actors/pm/TaskChecklists.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { checklistsExamples } from "./Checklists.examples.ts"

const ChecklistParams = Schema.Struct({ taskId: Id, checklistId: Id })
const ItemParams = Schema.Struct({ taskId: Id, checklistId: Id, itemId: Id })

const Checklist = Schema.Struct({
  id: Id,
  taskId: Id,
  name: Schema.String,
  position: Schema.Number,
  items: Schema.Array(
    Schema.Struct({ id: Id, name: Schema.String, resolved: Schema.Boolean, assigneeId: Schema.NullOr(Id), position: Schema.Number })
  ),
  resolvedCount: Schema.Number
}).annotate({ identifier: "Checklist" })

const checklistOf = (taskId: string, checklistId: string) =>
  Effect.flatMap(checklistsOf(taskId), (all) => {
    const found = all.find((c) => c.id === checklistId)
    return found ? Effect.succeed(found) : Effect.fail(reject("not_found", "No such checklist"))
  })

const { operation } = tagGroup(service, tag, checklistsExamples)

export const taskChecklistsOperations = [
  operation({
    operationId: "listTaskChecklists",
    method: "GET",
    path: "/v1/tasks/{taskId}/checklists",
    summary: "A task's checklists with their items",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Checklists", schema: Items(Checklist) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        Effect.map(orDieSql(checklistsOf(params.taskId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "createTaskChecklist",
    method: "POST",
    path: "/v1/tasks/{taskId}/checklists",
    summary: "Add a checklist (optionally with items) to a task",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ name: Name(200), items: Schema.optionalKey(Schema.Array(Name(500)).check(Schema.isMaxLength(200))) }),
    responses: { 201: { description: "Created", schema: Checklist } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const { id } = yield* send(PmTask, params.taskId, "createChecklist", caller.userId, body)
        return yield* orDieSql(checklistOf(params.taskId, id))
      })
  }),
  operation({
    operationId: "getTaskChecklist",
    method: "GET",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "One checklist of a task",
    auth: "both",
    scopes: read,
    params: ChecklistParams,
    responses: { 200: { description: "The checklist", schema: Checklist } },
    handler: ({ params }, context) =>
      Effect.andThen(onTask(context, params.taskId), orDieSql(checklistOf(params.taskId, params.checklistId)))
  }),
  operation({
    operationId: "updateTaskChecklist",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "Rename or reposition a checklist",
    auth: "both",
    scopes: write,
    params: ChecklistParams,
    body: Schema.Struct({ name: Schema.optionalKey(Name(200)), position: Schema.optionalKey(Schema.Finite) }),
    responses: { 200: { description: "Updated", schema: Checklist } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "updateChecklist", caller.userId, { checklistId: params.checklistId, ...body })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    operationId: "deleteTaskChecklist",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}",
    summary: "Delete a checklist with its items",
    auth: "both",
    scopes: write,
    params: ChecklistParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "deleteChecklist", { checklistId: params.checklistId })
  }),
  operation({
    operationId: "addChecklistItem",
    method: "POST",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}/items",
    summary: "Add an item to a checklist (optionally assigned)",
    auth: "both",
    scopes: write,
    params: ChecklistParams,
    body: Schema.Struct({ name: Name(500), assigneeId: Schema.optionalKey(Schema.NullOr(Id)) }),
    responses: { 201: { description: "The checklist", schema: Checklist } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "addChecklistItem", caller.userId, { checklistId: params.checklistId, ...body })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    operationId: "updateChecklistItem",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}",
    summary: "Rename, resolve, assign or reposition a checklist item",
    auth: "both",
    scopes: write,
    params: ItemParams,
    body: Schema.Struct({
      name: Schema.optionalKey(Name(500)),
      resolved: Schema.optionalKey(Schema.Boolean),
      assigneeId: Schema.optionalKey(Schema.NullOr(Id)),
      position: Schema.optionalKey(Schema.Finite)
    }),
    responses: { 200: { description: "The checklist", schema: Checklist } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "updateChecklistItem", caller.userId, {
          checklistId: params.checklistId,
          itemId: params.itemId,
          ...body
        })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    operationId: "deleteChecklistItem",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}",
    summary: "Delete a checklist item",
    auth: "both",
    scopes: write,
    params: ItemParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "deleteChecklistItem", { checklistId: params.checklistId, itemId: params.itemId })
  }),
  operation({
    operationId: "reorderChecklistItems",
    method: "PUT",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/order",
    summary: "Set the order of a checklist's items",
    auth: "both",
    scopes: write,
    params: ChecklistParams,
    body: Schema.Struct({ itemIds: Schema.Array(Id).check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The checklist", schema: Checklist } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "reorderChecklistItems", caller.userId, {
          checklistId: params.checklistId,
          itemIds: body.itemIds
        })
        return yield* orDieSql(checklistOf(params.taskId, params.checklistId))
      })
  }),
  operation({
    operationId: "convertChecklistItemToSubtask",
    method: "POST",
    path: "/v1/tasks/{taskId}/checklists/{checklistId}/items/{itemId}/convert",
    summary: "Turn a checklist item into a subtask (name, assignee; resolved items become finished subtasks)",
    auth: "both",
    scopes: write,
    params: ItemParams,
    responses: { 201: { description: "The new subtask", schema: Task } },
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "convertChecklistItem", { checklistId: params.checklistId, itemId: params.itemId })
  })
]
