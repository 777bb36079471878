/**
 * Deleted tasks: the trash and restoring from it.
 */
import { Effect, Schema } from "effect"
import { deletedTasks } from "../../../actors/pm/TaskReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, Limit, Offset, onDeletedTask, orDieSql, pageOf } from "../WorkAccess.ts"

import { tag, service, read, write, TaskParams, WorkspaceParams } from "./shared.ts"
import { trashExamples } from "./Trash.examples.ts"

const { operation } = tagGroup(service, tag, trashExamples)

export const taskTrashOperations = [
  operation({
    operationId: "listDeletedTasks",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/tasks/trash",
    summary: "Tasks in the trash (deleted, in lists that still exist), latest first",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Deleted tasks", schema: Items(Task) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        const page = pageOf(q)
        return { items: yield* orDieSql(deletedTasks(params.workspaceId, caller.viewer, page)) }
      })
  }),
  operation({
    operationId: "restoreDeletedTask",
    method: "POST",
    path: "/v1/tasks/{taskId}/undelete",
    summary: "Take a task (and the subtasks deleted with it) out of the trash",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 200: { description: "Restored", schema: Task } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onDeletedTask(context, params.taskId, "member")
        return yield* send(PmTask, params.taskId, "undelete", caller.userId, {})
      })
  })
]
