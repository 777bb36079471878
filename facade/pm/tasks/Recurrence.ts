/**
 * A task's recurrence: when it is finished, its next occurrence is created.
 */
import { Effect, Schema } from "effect"
import { Recurrence } from "../../../actors/pm/TaskWrites.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { isoDate, Task } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { recurrenceExamples } from "./Recurrence.examples.ts"

const { operation } = tagGroup(service, tag, recurrenceExamples)

export const taskRecurrenceOperations = [
  operation({
    operationId: "getTaskRecurrence",
    method: "GET",
    path: "/v1/tasks/{taskId}/recurrence",
    summary: "How a task recurs (null when it does not)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Recurrence", schema: Schema.Struct({ recurrence: Schema.NullOr(Recurrence) }) } },
    handler: ({ params }, context) =>
      Effect.flatMap(onTask(context, params.taskId), ({ task: t }) =>
        // The task record keeps its recurrence opaque; what setTaskRecurrence stored decodes as one.
        Effect.map(Schema.decodeUnknownEffect(Schema.NullOr(Recurrence))(t.recurrence).pipe(Effect.orDie), (recurrence) => ({ recurrence }))
      )
  }),
  operation({
    operationId: "setTaskRecurrence",
    method: "PUT",
    path: "/v1/tasks/{taskId}/recurrence",
    summary: "Make a task recur: finishing it creates the next occurrence with dates moved on (needs a start or due date)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Recurrence,
    responses: { 200: { description: "The task", schema: Task }, 409: { description: "The task has no date to repeat from" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.until && !isoDate(body.until))
          return yield* reject("invalid", "Invalid body.until", [{ path: "body.until", message: "not a real date" }])
        const recurrence: Recurrence = {
          frequency: body.frequency,
          interval: body.interval,
          ...(body.until ? { until: isoDate(body.until)! } : {})
        }
        return yield* send(PmTask, params.taskId, "setRecurrence", caller.userId, { recurrence })
      })
  }),
  operation({
    operationId: "deleteTaskRecurrence",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/recurrence",
    summary: "Stop a task recurring",
    auth: "both",
    scopes: write,
    params: TaskParams,
    responses: { 204: { description: "Stopped" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "setRecurrence", { recurrence: null })
  })
]
