/**
 * pm tag "Tasks (Lite)" (6): tasks created, read, changed and moved by
 * names — space, folder and list names, status names, assignee e-mails, tag
 * names, custom fields by name — and referenced by short id (T-42) or id.
 * Writes go through the same list and task actors as the Tasks tag.
 */
import { Effect, Schema } from "effect"
import { Name } from "../../actors/Fields.ts"
import { membersByEmail } from "../../actors/pm/Members.ts"
import { resolveField, resolveStatus } from "../../actors/pm/NameResolution.ts"
import { getTask } from "../../actors/pm/TaskReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmList, PmTask } from "../../actors/pm/WorkActors.ts"
import { DateTime, isoDate, Priority, TaskRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalOf } from "../HttpError.ts"
import { tagGroup } from "../Operation.ts"
import { chainOfCaller, listByNames, LiteTask, NameRef, toLiteOne, WorkspaceRef } from "./LiteShared.ts"
import { onTaskRef, orDieSql } from "./WorkAccess.ts"
import { FeatureRequestRefs, LiteTaskDetail, mayUse, relinkFeatureRequests } from "./TaskFeedbackLite.ts"
import { linkedFeedbackOf } from "../feedback/WorkLinkViews.ts"
import { tasksLiteExamples } from "./TasksLite.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

const EmailList = Schema.Array(
  Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" }))
).check(Schema.isMaxLength(50))
const FieldsByName = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "Custom field values by field name; options by name; null clears"
})
const RefParams = Schema.Struct({ taskRef: TaskRef })

type Chain = ReturnType<typeof chainOfCaller>

const realDate = (value: string | null | undefined, path: string) =>
  value === undefined || value === null
    ? Effect.succeed(value)
    : isoDate(value)
      ? Effect.succeed(isoDate(value)!)
      : Effect.fail(reject("invalid", `Invalid ${path}: not a real date`, [{ path, message: "not a real date" }]))

/** Custom field values keyed by field name → keyed by field id (404 / 409 for unknown or ambiguous names). */
const fieldsByName = (chain: Chain, values: Readonly<Record<string, unknown>> | undefined, prefix: string) =>
  Effect.gen(function* () {
    if (values === undefined) return undefined
    const out: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(values)) {
      const field = yield* orDieSql(resolveField(chain, name, `${prefix}.${name}`))
      out[field.id] = value
    }
    return out
  })

const emailsToIds = (workspaceId: string, emails: ReadonlyArray<string> | undefined, path: string) =>
  emails === undefined
    ? Effect.succeed(undefined)
    : Effect.map(orDieSql(membersByEmail(workspaceId, emails, path)), (users) => users.map((u) => u.id))

const statusName = (chain: Chain, status: string | undefined, path: string) =>
  status === undefined ? Effect.succeed(undefined) : Effect.map(orDieSql(resolveStatus(chain, status, path)), (s) => s.name)

const NewTaskLite = {
  name: Name(500),
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(50_000))),
  status: Schema.optionalKey(Name(64)),
  priority: Schema.optionalKey(Schema.NullOr(Priority)),
  startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
  timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))),
  assigneeEmails: Schema.optionalKey(EmailList),
  tags: Schema.optionalKey(Schema.Array(Name(64)).check(Schema.isMaxLength(50))),
  customFields: Schema.optionalKey(FieldsByName)
}

const createInput = (chain: Chain, workspaceId: string, body: { [K in keyof typeof NewTaskLite]?: any }) =>
  Effect.gen(function* () {
    const assigneeIds = yield* emailsToIds(workspaceId, body.assigneeEmails, "body.assigneeEmails")
    const status = yield* statusName(chain, body.status, "body.status")
    const customFields = yield* fieldsByName(chain, body.customFields, "body.customFields")
    const startDate = yield* realDate(body.startDate, "body.startDate")
    const dueDate = yield* realDate(body.dueDate, "body.dueDate")
    return {
      name: body.name as string,
      ...(body.description !== undefined ? { description: body.description as string } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(body.priority !== undefined ? { priority: body.priority } : {}),
      ...(startDate !== undefined ? { startDate } : {}),
      ...(dueDate !== undefined ? { dueDate } : {}),
      ...(body.timeEstimateMinutes !== undefined ? { timeEstimateMinutes: body.timeEstimateMinutes } : {}),
      ...(assigneeIds !== undefined ? { assigneeIds } : {}),
      ...(body.tags !== undefined ? { tagNames: body.tags } : {}),
      ...(customFields !== undefined ? { customFields } : {})
    }
  })

const { operation } = tagGroup("pm", "Tasks (Lite)", tasksLiteExamples)

export const tasksLiteOperations = [
  operation({
    operationId: "createTaskLite",
    mcp: { tool: "createTask" },
    method: "POST",
    path: "/v1/lite/tasks",
    summary: "Create a task in a list named by space and list name (folder optional), with assignees by e-mail",
    description:
      "Names are case-insensitive; short ids (S-1, L-3) and ids work too. An unknown name answers 404 naming it; an ambiguous one 409 listing the candidates. Without `space`, the list is looked up in the whole workspace.",
    auth: "both",
    scopes: write,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: Schema.optionalKey(NameRef),
      folder: Schema.optionalKey(NameRef),
      list: NameRef,
      ...NewTaskLite
    }),
    responses: {
      201: { description: "Created", schema: LiteTask },
      404: { description: "A name or e-mail not found" },
      409: { description: "An ambiguous name" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* listByNames(context, body.workspaceId, body, "member")
        const input = yield* createInput(chainOfCaller(caller.at), body.workspaceId, body)
        const task = yield* send(PmList, caller.at.listId!, "createTask", caller.userId, input)
        return yield* orDieSql(toLiteOne(task))
      })
  }),
  operation({
    operationId: "getTaskLite",
    mcp: { tool: "getTask" },
    method: "GET",
    path: "/v1/lite/tasks/{taskRef}",
    summary: "A task by short id (T-42) or id, with names instead of ids",
    auth: "both",
    scopes: read,
    params: RefParams,
    query: Schema.Struct({ workspaceId: WorkspaceRef }),
    responses: { 200: { description: "The task", schema: LiteTaskDetail } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, q.workspaceId, params.taskRef)
        const task = yield* orDieSql(Effect.flatMap(getTask(caller.at.taskId!), toLiteOne))
        // The requests a task delivers are feedback's: shown to keys that may read feedback.
        const feedback = (yield* mayUse(context, "feedback:read")) ? (yield* linkedFeedbackOf(context, task.id)).items : []
        return { ...task, feedback }
      })
  }),
  operation({
    operationId: "updateTaskLite",
    mcp: { tool: "updateTask" },
    method: "PATCH",
    path: "/v1/lite/tasks/{taskRef}",
    summary: "Change a task by names: status name, assignee e-mails, tag names, custom fields by name",
    description:
      "`assigneeEmails` replaces the assignees; `addAssigneeEmails`/`removeAssigneeEmails` adjust them. Fields left out are unchanged; null clears.",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      name: Schema.optionalKey(Name(500)),
      description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(50_000))),
      status: Schema.optionalKey(Name(64)),
      priority: Schema.optionalKey(Schema.NullOr(Priority)),
      startDate: Schema.optionalKey(Schema.NullOr(DateTime)),
      dueDate: Schema.optionalKey(Schema.NullOr(DateTime)),
      timeEstimateMinutes: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))),
      assigneeEmails: Schema.optionalKey(EmailList),
      addAssigneeEmails: Schema.optionalKey(EmailList),
      removeAssigneeEmails: Schema.optionalKey(EmailList),
      tags: Schema.optionalKey(Schema.Array(Name(64)).check(Schema.isMaxLength(50))),
      customFields: Schema.optionalKey(FieldsByName),
      linkFeatureRequests: Schema.optionalKey(
        FeatureRequestRefs.annotate({ description: "Feature requests this task delivers, linked (the board's team; scope feedback:write)" })
      ),
      unlinkFeatureRequests: Schema.optionalKey(FeatureRequestRefs.annotate({ description: "Feature requests to unlink from this task" }))
    }),
    responses: { 200: { description: "Updated", schema: LiteTask } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, body.workspaceId, params.taskRef, "member")
        const chain = chainOfCaller(caller.at)
        const assigneeIds = yield* emailsToIds(body.workspaceId, body.assigneeEmails, "body.assigneeEmails")
        const addAssigneeIds = yield* emailsToIds(body.workspaceId, body.addAssigneeEmails, "body.addAssigneeEmails")
        const removeAssigneeIds = yield* emailsToIds(body.workspaceId, body.removeAssigneeEmails, "body.removeAssigneeEmails")
        const status = yield* statusName(chain, body.status, "body.status")
        const customFields = yield* fieldsByName(chain, body.customFields, "body.customFields")
        const startDate = yield* realDate(body.startDate, "body.startDate")
        const dueDate = yield* realDate(body.dueDate, "body.dueDate")
        const task = yield* send(PmTask, caller.at.taskId!, "update", caller.userId, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(status !== undefined ? { status } : {}),
          ...(body.priority !== undefined ? { priority: body.priority } : {}),
          ...(startDate !== undefined ? { startDate } : {}),
          ...(dueDate !== undefined ? { dueDate } : {}),
          ...(body.timeEstimateMinutes !== undefined ? { timeEstimateMinutes: body.timeEstimateMinutes } : {}),
          ...(assigneeIds !== undefined ? { assigneeIds } : {}),
          ...(addAssigneeIds !== undefined ? { addAssigneeIds } : {}),
          ...(removeAssigneeIds !== undefined ? { removeAssigneeIds } : {}),
          ...(body.tags !== undefined ? { tagNames: body.tags } : {}),
          ...(customFields !== undefined ? { customFields } : {})
        })
        yield* relinkFeatureRequests(context, body.workspaceId, task.id, body.linkFeatureRequests, body.unlinkFeatureRequests)
        return yield* orDieSql(toLiteOne(task))
      })
  }),
  operation({
    operationId: "moveTaskLite",
    mcp: { tool: "moveTask" },
    method: "POST",
    path: "/v1/lite/tasks/{taskRef}/move",
    summary: "Move a task to a list named by space and list name (folder optional)",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      space: Schema.optionalKey(NameRef),
      folder: Schema.optionalKey(NameRef),
      list: NameRef
    }),
    responses: { 200: { description: "Moved", schema: LiteTask } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, body.workspaceId, params.taskRef, "member")
        const target = yield* listByNames(context, body.workspaceId, body, "member")
        const task = yield* send(PmTask, caller.at.taskId!, "move", caller.userId, { listId: target.at.listId! })
        return yield* orDieSql(toLiteOne(task))
      })
  }),
  operation({
    operationId: "setTaskCustomFieldLite",
    method: "PUT",
    path: "/v1/lite/tasks/{taskRef}/custom-fields",
    summary: "Set one custom field of a task by the field's name (options by name; null clears)",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ workspaceId: WorkspaceRef, field: NameRef, value: Schema.Unknown }),
    responses: { 200: { description: "The task", schema: LiteTask } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, body.workspaceId, params.taskRef, "member")
        const field = yield* orDieSql(resolveField(chainOfCaller(caller.at), body.field, "body.field"))
        const task = yield* send(PmTask, caller.at.taskId!, "setCustomFields", caller.userId, {
          values: { [field.id]: body.value ?? null }
        }).pipe(
          Effect.mapError((e) => {
            const refusal = refusalOf(e)
            return refusal?.details?.[0]?.path.startsWith("body.values.")
              ? reject(
                  refusal.code,
                  refusal.message,
                  refusal.details.map((d) => ({ ...d, path: "body.value" }))
                )
              : e
          })
        )
        return yield* orDieSql(toLiteOne(task))
      })
  }),
  operation({
    operationId: "createSubtaskLite",
    mcp: { tool: "createSubtask" },
    method: "POST",
    path: "/v1/lite/tasks/{taskRef}/subtasks",
    summary: "Create a subtask of a task named by short id, with assignees by e-mail",
    auth: "both",
    scopes: write,
    params: RefParams,
    body: Schema.Struct({ workspaceId: WorkspaceRef, ...NewTaskLite }),
    responses: { 201: { description: "Created", schema: LiteTask } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, body.workspaceId, params.taskRef, "member")
        const input = yield* createInput(chainOfCaller(caller.at), body.workspaceId, body)
        const task = yield* send(PmList, caller.at.listId!, "createTask", caller.userId, { ...input, parentTaskId: caller.at.taskId! })
        return yield* orDieSql(toLiteOne(task))
      })
  })
]
