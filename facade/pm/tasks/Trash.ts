/**
 * Deleted tasks: the trash and restoring from it.
 */
import { Effect, Schema } from "effect"
import { hydrate, taskColumns, taskFrom, type TaskRow } from "../../../actors/pm/TaskReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { query } from "../../../persistence/Sql.ts"
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
        const rows = yield* orDieSql(
          query<TaskRow>(
            `SELECT ${taskColumns} ${taskFrom} WHERE t.workspace_id = $1 AND t.deleted_at IS NOT NULL AND l.deleted_at IS NULL AND s.deleted_at IS NULL
              AND (NOT s.is_private OR $2::boolean OR EXISTS (SELECT 1 FROM pm_space_members m WHERE m.space_id = s.id AND m.user_id = $3))
            ORDER BY t.deleted_at DESC, t.id LIMIT ${page.limit} OFFSET ${page.offset}`,
            [params.workspaceId, caller.admin, caller.userId]
          )
        )
        return { items: yield* orDieSql(hydrate(rows)) }
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
