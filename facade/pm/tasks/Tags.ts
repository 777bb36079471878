/**
 * A task's tags (created in the space when missing).
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { Color, Items, Tag, Task } from "../../../actors/pm/WorkRecords.ts"
import { operation } from "../../Operation.ts"
import { exampleIds as ids, onTask } from "../WorkAccess.ts"
import { exampleTag, exampleTask } from "../WorkExamples.ts"
import { taskCommand, tag, service, read, write, TaskParams, tk } from "./shared.ts"

export const taskTagsOperations = [
  operation({
    service,
    tag,
    operationId: "listTaskTags",
    method: "GET",
    path: "/v1/tasks/{taskId}/tags",
    summary: "A task's tags",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: { 200: { description: "Tags", schema: Items(Tag) } },
    examples: [{ name: "tags", request: { params: tk }, response: { status: 200, body: { items: [exampleTag] } } }],
    handler: ({ params }, context) => Effect.map(onTask(context, params.taskId), ({ task: t }) => ({ items: t.tags }))
  }),
  operation({
    service,
    tag,
    operationId: "addTaskTag",
    method: "POST",
    path: "/v1/tasks/{taskId}/tags",
    summary: "Tag a task (by name; the space's tag is created when missing)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ name: Name(64), color: Schema.optionalKey(Color) }),
    responses: { 201: { description: "The task", schema: Task }, 409: { description: "Already tagged" } },
    examples: [{ name: "tag", request: { params: tk, body: { name: "frontend" } }, response: { status: 201, body: exampleTask } }],
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "addTag", body)
  }),
  operation({
    service,
    tag,
    operationId: "removeTaskTag",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/tags/{tagId}",
    summary: "Remove a tag from a task",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, tagId: Id }),
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "untag", request: { params: { ...tk, tagId: ids.tag } }, response: { status: 204 } }],
    handler: ({ params }, context) => taskCommand(context, params.taskId, "removeTag", { tagId: params.tagId })
  })
]
