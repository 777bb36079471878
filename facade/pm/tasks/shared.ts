/**
 * What the resources of the pm tag "Tasks" share: the tag, scopes, route
 * parameters, request shapes of a task, and the helpers that reach a task's actor.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { membersByEmail } from "../../../actors/pm/Members.ts"
import { Description, FieldValues, Minutes, TagNames } from "../../../actors/pm/TaskWrites.ts"
import { send, type WorkActor } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { DateTime, isoDate, Priority } from "../../../actors/pm/WorkRecords.ts"
import type { RequestContext } from "../../Operation.ts"
import { exampleIds as ids, onTask, orDieSql, realDates } from "../WorkAccess.ts"

export type TaskCommands = typeof PmTask extends WorkActor<infer T, any, any> ? T : never

/** Most task writes: a member where the task lives asks the task's actor to run one command. */
export const taskCommand = <K extends keyof TaskCommands & string>(
  context: RequestContext,
  taskId: string,
  command: K,
  input: Parameters<typeof send<TaskCommands, K>>[4]
) => Effect.flatMap(onTask(context, taskId, "member"), (caller) => send(PmTask, taskId, command, caller.userId, input))

export const tag = "Tasks"
export const service = "pm"
export const read = ["tasks:read"]
export const write = ["tasks:write"]

export const TaskParams = Schema.Struct({ taskId: Id })
export const ListParams = Schema.Struct({ listId: Id })
export const WorkspaceParams = Schema.Struct({ workspaceId: Id })
export const tk = { taskId: ids.task }
export const li = { listId: ids.list }
export const ws = { workspaceId: ids.workspace }

export const EmailAddress = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" })
)
export const Emails = Schema.Array(EmailAddress).check(Schema.isMaxLength(50))

export const NewTaskFields = {
  name: Name(500),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  assigneeEmails: Schema.optionalKey(Emails),
  tags: Schema.optionalKey(TagNames),
  customFields: Schema.optionalKey(FieldValues)
}
export const NewTaskBody = Schema.Struct({ ...NewTaskFields, parentTaskId: Schema.optionalKey(Id) })
export type NewTaskBody = typeof NewTaskBody.Type

export const TaskPatchBody = Schema.Struct({
  name: Schema.optionalKey(Name(500)),
  description: Schema.optionalKey(Description),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Minutes)),
  assigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  assigneeEmails: Schema.optionalKey(Emails),
  addAssigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  removeAssigneeIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  tags: Schema.optionalKey(TagNames),
  customFields: Schema.optionalKey(FieldValues)
})
export type TaskPatchBody = typeof TaskPatchBody.Type

export const date = (value: string | null | undefined) => (value === undefined || value === null ? value : (isoDate(value) ?? null))

/** E-mail addresses → member ids (404 naming those that are not members). */
export const assigneesOf = Effect.fnUntraced(function* (
  workspaceId: string,
  body: { assigneeIds?: ReadonlyArray<string>; assigneeEmails?: ReadonlyArray<string> },
  prefix = "body"
) {
  if (body.assigneeEmails === undefined) return body.assigneeIds
  const users = yield* orDieSql(membersByEmail(workspaceId, body.assigneeEmails, `${prefix}.assigneeEmails`))
  return [...new Set([...(body.assigneeIds ?? []), ...users.map((u) => u.id)])]
})

/** The create input a list actor takes, from a request body. */
export const newTaskInput = Effect.fnUntraced(function* (workspaceId: string, body: NewTaskBody, prefix = "body") {
  yield* realDates(body, prefix)
  const assigneeIds = yield* assigneesOf(workspaceId, body, prefix)
  const { assigneeEmails: _e, tags, startDate, dueDate, ...rest } = body
  return {
    ...rest,
    ...(startDate !== undefined ? { startDate: date(startDate) } : {}),
    ...(dueDate !== undefined ? { dueDate: date(dueDate) } : {}),
    ...(assigneeIds !== undefined ? { assigneeIds } : {}),
    ...(tags !== undefined ? { tagNames: tags } : {})
  }
})

/** The patch a task actor takes, from a request body. */
export const taskPatchInput = Effect.fnUntraced(function* (workspaceId: string, body: TaskPatchBody, prefix = "body") {
  yield* realDates(body, prefix)
  const assigneeIds = yield* assigneesOf(workspaceId, body, prefix)
  const { assigneeEmails: _e, tags, startDate, dueDate, ...rest } = body
  return {
    ...rest,
    ...(startDate !== undefined ? { startDate: date(startDate) } : {}),
    ...(dueDate !== undefined ? { dueDate: date(dueDate) } : {}),
    ...(assigneeIds !== undefined ? { assigneeIds } : {}),
    ...(tags !== undefined ? { tagNames: tags } : {})
  }
})
