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
import { LinkedFeedbackList, linkedFeedbackOf, linkTask, unlinkTask } from "../feedback/WorkLinkViews.ts"
import { tagGroup } from "../Operation.ts"
import { WorkspaceRef } from "./LiteShared.ts"
import { taskFeedbackLiteExamples } from "./TaskFeedbackLite.examples.ts"

const BoardRef = Schema.optionalKey(
  NameRef.annotate({ description: "Board slug or name; needed only when the short id is on several boards" })
)
const answer = { 200: { description: "The task's linked requests and bug reports", schema: LinkedFeedbackList } }

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
