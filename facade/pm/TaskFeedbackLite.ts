/**
 * pm tag "Task Feedback (Lite)": a task's feature requests by short ids —
 * the task as T-42, the request as FR-12 (with the board's slug or name when
 * the short id is on several boards).
 */
import { Effect, Schema } from "effect"
import { TaskRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { taskByRef } from "../feedback/LinkedWorkLite.ts"
import { NameRef } from "../feedback/LiteRefs.ts"
import { RequestRef, requestByRef } from "../feedback/LiteRequestViews.ts"
import { LinkedFeedback, LinkedFeedbackList, linkedFeedbackOf, linkTask, unlinkTask } from "../feedback/WorkLinkViews.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { LiteTask, WorkspaceRef } from "./LiteShared.ts"
import { taskFeedbackLiteExamples } from "./TaskFeedbackLite.examples.ts"

const BoardRef = Schema.optionalKey(
  NameRef.annotate({ description: "Board slug or name; needed only when the short id is on several boards" })
)
const answer = { 200: { description: "The task's linked requests and bug reports", schema: LinkedFeedbackList } }

/** A Lite task as `getTask` answers it: with the feature requests and bug reports it delivers. */
export const LiteTaskDetail = Schema.Struct({
  ...LiteTask.fields,
  feedback: Schema.Array(LinkedFeedback).annotate({
    description:
      "Feature requests (with vote counts) and bug reports the task delivers, on boards the caller may see (empty for a key without feedback:read)"
  })
}).annotate({ identifier: "LiteTaskDetail" })

export const FeatureRequestRefs = Schema.Array(Schema.Struct({ request: RequestRef, board: BoardRef })).check(Schema.isMaxLength(20))

/** Whether the caller may use `scope` (a user session may use every scope; an API key those it was given). */
export const mayUse = (context: RequestContext, scope: string) =>
  Effect.map(principalOf(context), (principal) => principal.kind === "user" || principal.scopes.includes(scope))

/**
 * Links and unlinks the task's feature requests named by short id (as
 * `updateTask` takes them), each refusal naming its entry.
 */
export const relinkFeatureRequests = (
  context: RequestContext,
  workspaceId: string,
  taskId: string,
  link: ReadonlyArray<{ readonly request: string; readonly board?: string }> | undefined,
  unlink: ReadonlyArray<{ readonly request: string; readonly board?: string }> | undefined
) =>
  Effect.gen(function* () {
    for (const [field, refs] of [
      ["linkFeatureRequests", link],
      ["unlinkFeatureRequests", unlink]
    ] as const) {
      if (refs === undefined || refs.length === 0) continue
      if (!(yield* mayUse(context, "feedback:write")))
        return yield* reject("forbidden", "Linking feature requests needs the feedback:write scope", [
          { path: `body.${field}`, message: "requires feedback:write" }
        ])
      for (const [index, ref] of refs.entries()) {
        const at = `body.${field}.${index}`
        const { caller, record } = yield* requestByRef(context, { workspaceId, ...ref }, ref.request, `${at}.request`, `${at}.board`)
        if (!caller.team)
          return yield* reject("forbidden", "Only the board's team links work", [
            { path: `${at}.request`, message: "not on the board's team" }
          ])
        if (field === "linkFeatureRequests")
          yield* linkTask(context, caller, { kind: "request", id: record.id, field: `${at}.request` }, taskId, "path.taskRef")
        else yield* unlinkTask(caller, { kind: "request", id: record.id }, taskId)
      }
    }
  })

const { operation } = tagGroup("pm", "Task Feedback (Lite)", taskFeedbackLiteExamples)

export const taskFeedbackLiteOperations = [
  operation({
    operationId: "listTaskFeedbackLite",
    method: "GET",
    path: "/v1/lite/tasks/{taskRef}/feedback",
    summary: "The feature requests (with vote counts) and bug reports a task (T-42) delivers",
    auth: "both",
    scopes: ["tasks:read", "feedback:read"],
    params: Schema.Struct({ taskRef: TaskRef }),
    query: Schema.Struct({ workspaceId: WorkspaceRef }),
    responses: answer,
    handler: ({ params, query }, context) =>
      Effect.flatMap(taskByRef(context, query.workspaceId, params.taskRef, "path.taskRef"), (taskId) => linkedFeedbackOf(context, taskId))
  }),
  operation({
    operationId: "linkTaskFeatureRequestLite",
    method: "POST",
    path: "/v1/lite/tasks/{taskRef}/feature-requests",
    summary: "Link a task (T-42) to the feature request (FR-12) it delivers (the board's team)",
    auth: "both",
    scopes: ["tasks:read", "feedback:write"],
    params: Schema.Struct({ taskRef: TaskRef }),
    body: Schema.Struct({ workspaceId: WorkspaceRef, request: RequestRef, board: BoardRef }),
    responses: { ...answer, 404: { description: "No such task or request" }, 409: { description: "The short id is on several boards" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const taskId = yield* taskByRef(context, body.workspaceId, params.taskRef, "path.taskRef")
        const { caller, record } = yield* requestByRef(context, body, body.request, "body.request", "body.board")
        if (!caller.team) return yield* reject("forbidden", "Only the board's team links work")
        yield* linkTask(context, caller, { kind: "request", id: record.id, field: "body.request" }, taskId, "path.taskRef")
        return yield* linkedFeedbackOf(context, taskId)
      })
  }),
  operation({
    operationId: "unlinkTaskFeatureRequestLite",
    method: "DELETE",
    path: "/v1/lite/tasks/{taskRef}/feature-requests/{requestRef}",
    summary: "Remove the link between a task (T-42) and a feature request (FR-12) (the board's team)",
    auth: "both",
    scopes: ["tasks:read", "feedback:write"],
    params: Schema.Struct({ taskRef: TaskRef, requestRef: RequestRef }),
    query: Schema.Struct({ workspaceId: WorkspaceRef, board: BoardRef }),
    responses: { ...answer, 404: { description: "Not linked" } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const taskId = yield* taskByRef(context, query.workspaceId, params.taskRef, "path.taskRef")
        const { caller, record } = yield* requestByRef(context, query, params.requestRef, "path.requestRef", "query.board")
        if (!caller.team) return yield* reject("forbidden", "Only the board's team links work")
        yield* unlinkTask(caller, { kind: "request", id: record.id }, taskId)
        return yield* linkedFeedbackOf(context, taskId)
      })
  })
]
