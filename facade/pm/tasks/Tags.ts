/**
 * A task's tags (created in the space when missing).
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { Color, Items, Tag, Task } from "../../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { tagsExamples } from "./Tags.examples.ts"

const { operation } = tagGroup(service, tag, tagsExamples)

export const taskTagsOperations = [
  operation({
    operationId: "listTaskTags",
    method: "GET",
    path: "/v1/tasks/{taskId}/tags",
    summary: "A task's tags",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Tags", schema: Items(Tag) } },
    handler: ({ params }, context) => Effect.map(onTask(context, params.taskId), ({ task: t }) => ({ items: t.tags }))
  }),
  operation({
    operationId: "addTaskTag",
    method: "POST",
    path: "/v1/tasks/{taskId}/tags",
    summary: "Tag a task (by name; the space's tag is created when missing)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ name: Name(64), color: Schema.optionalKey(Color) }),
    responses: { 201: { description: "The task", schema: Task }, 409: { description: "Already tagged" } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "addTag", body)
  }),
  operation({
    operationId: "removeTaskTag",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/tags/{tagId}",
    summary: "Remove a tag from a task",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, tagId: Id }),
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "removeTag", { tagId: params.tagId })
  })
]
