/**
 * Subtasks: a task's children, its parent and its tree.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { findTasks, subtaskTree } from "../../../actors/pm/TaskReads.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, read, write, TaskParams, NewTaskFields, newTaskInput } from "./shared.ts"
import { subtasksExamples } from "./Subtasks.examples.ts"

const TreeNode: Schema.Top = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  name: Schema.String,
  status: Schema.String,
  children: Schema.Array(Schema.Unknown)
}).annotate({ identifier: "TaskTreeNode" })

const { operation } = tagGroup(service, tag, subtasksExamples)

export const taskSubtasksOperations = [
  operation({
    operationId: "listSubtasks",
    method: "GET",
    path: "/v1/tasks/{taskId}/subtasks",
    summary: "A task's direct subtasks, in order",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Subtasks", schema: Items(Task) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const page = yield* orDieSql(
          findTasks(
            { workspaceId: caller.at.workspaceId, viewer: caller.viewer, parentTaskId: params.taskId, archived: "include" },
            { offset: 0, limit: 200, order: "position" }
          )
        )
        return { items: page.items }
      })
  }),
  operation({
    operationId: "createSubtask",
    method: "POST",
    path: "/v1/tasks/{taskId}/subtasks",
    summary: "Create a subtask (in its parent's list)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct(NewTaskFields),
    responses: { 201: { description: "Created", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        const input = yield* newTaskInput(caller.at.workspaceId, body)
        return yield* send(PmList, caller.at.listId!, "createTask", caller.userId, { ...input, parentTaskId: params.taskId })
      })
  }),
  operation({
    operationId: "setTaskParent",
    method: "PUT",
    path: "/v1/tasks/{taskId}/parent",
    summary: "Make a task a subtask of another (it joins the parent's list), or a top-level task again (null)",
    description: "A task cannot become a subtask of itself or of one of its own subtasks (409).",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ parentTaskId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Updated", schema: Task }, 409: { description: "Would make a cycle" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.parentTaskId) {
          const parent = yield* onTask(context, body.parentTaskId, "member").pipe(
            Effect.mapError((e) =>
              e._tag === "Rejection" && e.code === "not_found"
                ? reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }])
                : e
            )
          )
          if (parent.at.workspaceId !== caller.at.workspaceId)
            return yield* reject("not_found", "No such parent task", [{ path: "body.parentTaskId", message: "not found" }])
        }
        return yield* send(PmTask, params.taskId, "setParent", caller.userId, body)
      })
  }),
  operation({
    operationId: "getTaskTree",
    method: "GET",
    path: "/v1/tasks/{taskId}/tree",
    summary: "A task with all its subtasks, nested",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "The tree", schema: TreeNode } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const rows = yield* orDieSql(subtaskTree(params.taskId))
        type Node = { id: string; shortId: string; name: string; status: string; children: Array<Node> }
        const nodes = new Map<string, Node>(
          rows.map((r) => [r.id, { id: r.id, shortId: r.shortId, name: r.name, status: r.status, children: [] }])
        )
        for (const row of rows) if (row.id !== params.taskId && row.parentId) nodes.get(row.parentId)?.children.push(nodes.get(row.id)!)
        return nodes.get(params.taskId)!
      })
  })
]
