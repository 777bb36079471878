/**
 * Who watches a task (and is notified of its changes).
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { userRefs } from "../../../actors/pm/Members.ts"
import { watchersOf } from "../../../actors/pm/Properties.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Items, UserRef } from "../../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { watchersExamples } from "./Watchers.examples.ts"

const { operation } = tagGroup(service, tag, watchersExamples)

export const taskWatchersOperations = [
  operation({
    operationId: "listTaskWatchers",
    method: "GET",
    path: "/v1/tasks/{taskId}/watchers",
    summary: "Who follows a task (creator and assignees follow automatically)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Watchers", schema: Items(UserRef) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const watchers = yield* orDieSql(watchersOf("task", params.taskId))
        const users = yield* orDieSql(userRefs(watchers.map((w) => w.userId)))
        return { items: watchers.map((w) => users.get(w.userId) ?? { id: w.userId, email: "", name: "" }) }
      })
  }),
  operation({
    operationId: "addTaskWatcher",
    method: "POST",
    path: "/v1/tasks/{taskId}/watchers",
    summary: "Follow a task (yourself unless userId names another member)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ userId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "Watching", schema: Schema.Struct({ userId: Id }) }, 409: { description: "Already watching" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmTask, params.taskId, "addWatcher", caller.userId, { userId: body.userId ?? caller.userId })
      })
  }),
  operation({
    operationId: "removeTaskWatcher",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/watchers/{userId}",
    summary: "Stop someone (or yourself) following a task",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, userId: Id }),
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "removeWatcher", { userId: params.userId })
  })
]
