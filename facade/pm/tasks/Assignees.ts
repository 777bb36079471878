/**
 * Who a task is assigned to.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { membersByEmail, requireMembers } from "../../../actors/pm/Members.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, Task, UserRef } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, read, write, TaskParams, EmailAddress } from "./shared.ts"
import { assigneesExamples } from "./Assignees.examples.ts"

const { operation } = tagGroup(service, tag, assigneesExamples)

export const taskAssigneesOperations = [
  operation({
    operationId: "listTaskAssignees",
    method: "GET",
    path: "/v1/tasks/{taskId}/assignees",
    summary: "Who a task is assigned to",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Assignees", schema: Items(UserRef) } },
    handler: ({ params }, context) => Effect.map(onTask(context, params.taskId), ({ task: t }) => ({ items: t.assignees }))
  }),
  operation({
    operationId: "addTaskAssignee",
    method: "POST",
    path: "/v1/tasks/{taskId}/assignees",
    summary: "Assign a member (by user id or e-mail); they are notified",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ userId: Schema.optionalKey(Id), email: Schema.optionalKey(EmailAddress) }),
    responses: { 201: { description: "The task", schema: Task }, 409: { description: "Already assigned" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if ((body.userId === undefined) === (body.email === undefined))
          return yield* reject("invalid", "Give exactly one of userId and email", [
            { path: "body.userId", message: "give userId or email" }
          ])
        const userId = body.userId ?? (yield* orDieSql(membersByEmail(caller.at.workspaceId, [body.email!], "body.email")))[0]!.id
        if (body.userId) yield* orDieSql(requireMembers(caller.at.workspaceId, [userId], "body.userId"))
        if (caller.task.assignees.some((a) => a.id === userId)) return yield* reject("conflict", "Already assigned")
        return yield* send(PmTask, params.taskId, "update", caller.userId, { addAssigneeIds: [userId] })
      })
  }),
  operation({
    operationId: "removeTaskAssignee",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/assignees/{userId}",
    summary: "Unassign someone",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, userId: Id }),
    responses: { 204: { description: "Unassigned" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (!caller.task.assignees.some((a) => a.id === params.userId)) return yield* reject("not_found", "Not assigned to this task")
        yield* send(PmTask, params.taskId, "update", caller.userId, { removeAssigneeIds: [params.userId] })
      })
  }),
  operation({
    operationId: "replaceTaskAssignees",
    method: "PUT",
    path: "/v1/tasks/{taskId}/assignees",
    summary: "Set exactly who a task is assigned to (new assignees are notified)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ userIds: Schema.Array(Id).check(Schema.isMaxLength(50)) }),
    responses: { 200: { description: "The task", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* orDieSql(requireMembers(caller.at.workspaceId, body.userIds, "body.userIds"))
        return yield* send(PmTask, params.taskId, "update", caller.userId, { assigneeIds: body.userIds })
      })
  })
]
