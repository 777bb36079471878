/**
 * A task's custom field values, validated against the field definitions of
 * where the task lives.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { availableFields, presentValue } from "../../../actors/pm/CustomFields.ts"
import { customValuesOf } from "../../../actors/pm/TaskReads.ts"
import { FieldValues } from "../../../actors/pm/TaskWrites.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { CustomFieldValue, Items, Task } from "../../../actors/pm/WorkRecords.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { refusalOf } from "../../HttpError.ts"
import { tagGroup } from "../../Operation.ts"
import { onTask, orDieSql } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { customFieldValuesExamples } from "./CustomFieldValues.examples.ts"

const { operation } = tagGroup(service, tag, customFieldValuesExamples)

export const taskCustomFieldValuesOperations = [
  operation({
    operationId: "listTaskCustomFields",
    method: "GET",
    path: "/v1/tasks/{taskId}/custom-fields",
    summary: "Every custom field that applies to a task, with its value (null when unset)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: {
      200: {
        description: "Fields and values",
        schema: Items(Schema.Struct({ ...CustomFieldValue.fields, required: Schema.Boolean, config: Schema.Unknown }))
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId)
        const fields = yield* orDieSql(
          availableFields({ spaceId: caller.at.spaceId, folderId: caller.at.folderId, listId: caller.at.listId })
        )
        const values = yield* orDieSql(customValuesOf(params.taskId))
        return {
          items: fields.map((f) => {
            const stored = values.find((v) => v.fieldId === f.id)
            return {
              fieldId: f.id,
              name: f.name,
              type: f.type,
              required: f.required,
              config: f.config,
              value: stored ? presentValue(f, stored.value) : null
            }
          })
        }
      })
  }),
  operation({
    operationId: "setTaskCustomFieldValue",
    method: "PUT",
    path: "/v1/tasks/{taskId}/custom-fields/{fieldId}",
    summary: "Set one custom field value of a task (validated against the field's type and options)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, fieldId: Id }),
    body: Schema.Struct({ value: Schema.Unknown }),
    responses: { 200: { description: "The task", schema: Task } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        if (body.value === null || body.value === undefined)
          return yield* reject("invalid", "Use DELETE to clear a value", [{ path: "body.value", message: "missing" }])
        return yield* send(PmTask, params.taskId, "setCustomFields", caller.userId, { values: { [params.fieldId]: body.value } }).pipe(
          Effect.mapError((e) => {
            // A refusal naming the value (a Rejection or a tagged error with details) names it as this operation's body.
            const refusal = refusalOf(e)
            return refusal?.details?.[0]?.path.startsWith("body.values.")
              ? reject(
                  refusal.code,
                  refusal.message,
                  refusal.details.map((d) => ({ ...d, path: d.path.replace(/^body\.values\.[^.]+/, "body.value") }))
                )
              : e
          })
        )
      })
  }),
  operation({
    operationId: "clearTaskCustomFieldValue",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/custom-fields/{fieldId}",
    summary: "Clear one custom field value of a task (not allowed for required fields)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, fieldId: Id }),
    responses: { 204: { description: "Cleared" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "setCustomFields", { values: { [params.fieldId]: null } })
  }),
  operation({
    operationId: "setTaskCustomFieldValues",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/custom-fields",
    summary: "Set several custom field values at once (by field id or name; null clears)",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ values: FieldValues }),
    responses: { 200: { description: "The task", schema: Task } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "setCustomFields", body)
  })
]
