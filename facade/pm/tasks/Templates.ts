/**
 * Task templates: save a task as one, list, create from and delete them.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { getTemplate, templatesOf, TaskTemplateView } from "../../../actors/pm/TaskTemplates.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmList, PmWorkspace } from "../../../actors/pm/WorkActors.ts"
import { Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { TaskTemplateNotFound } from "../../../actors/pm/WorkErrors.ts"
import { tagGroup } from "../../Operation.ts"
import { inWorkspace, onList, onTask, orDieSql } from "../WorkAccess.ts"

import { tag, service, read, write, TaskParams, ListParams, WorkspaceParams } from "./shared.ts"
import { templatesExamples } from "./Templates.examples.ts"

const { operation } = tagGroup(service, tag, templatesExamples)

export const taskTemplatesOperations = [
  operation({
    operationId: "saveTaskAsTemplate",
    method: "POST",
    path: "/v1/tasks/{taskId}/save-as-template",
    summary: "Save a task (fields, checklists, subtasks) as a workspace task template",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ name: Name(200) }),
    responses: { 201: { description: "Saved", schema: TaskTemplateView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmWorkspace, caller.at.workspaceId, "saveTaskTemplate", caller.userId, {
          taskId: params.taskId,
          name: body.name
        })
      })
  }),
  operation({
    operationId: "listTaskTemplates",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/task-templates",
    summary: "The workspace's task templates",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    responses: { 200: { description: "Templates", schema: Items(TaskTemplateView) } },
    handler: ({ params }, context) =>
      Effect.andThen(
        inWorkspace(context, params.workspaceId),
        Effect.map(orDieSql(templatesOf(params.workspaceId)), (items) => ({ items }))
      )
  }),
  operation({
    operationId: "createTaskFromTemplate",
    method: "POST",
    path: "/v1/lists/{listId}/tasks/from-template",
    summary: "Create a task in a list from a workspace task template",
    auth: "both",
    scopes: write,
    params: ListParams,
    body: Schema.Struct({ templateId: Id, name: Schema.optionalKey(Name(500)) }),
    responses: { 201: { description: "Created", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onList(context, params.listId, "member")
        const template = yield* orDieSql(getTemplate(caller.at.workspaceId, body.templateId)).pipe(
          Effect.catchTag("TaskTemplateNotFound", () => Effect.fail(new TaskTemplateNotFound({ field: "body.templateId" })))
        )
        return yield* send(PmList, params.listId, "instantiateTask", caller.userId, {
          template: template.template,
          ...(body.name ? { name: body.name } : {})
        })
      })
  }),
  operation({
    operationId: "deleteTaskTemplate",
    method: "DELETE",
    path: "/v1/workspaces/{workspaceId}/task-templates/{templateId}",
    summary: "Delete a task template",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ workspaceId: Id, templateId: Id }),
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId, "member")
        yield* send(PmWorkspace, params.workspaceId, "deleteTaskTemplate", caller.userId, { templateId: params.templateId })
      })
  })
]
