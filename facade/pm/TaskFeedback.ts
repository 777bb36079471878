/**
 * pm tag "Task Feedback": the feature requests and bug reports a task
 * delivers, seen and linked from the task's side (the same links as the
 * feedback tag "Linked Work"; the board's team links). A task's readers see
 * the posts of the boards they may see, with their vote counts.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { bugFor } from "../feedback/BugReports.ts"
import { requestAccess } from "../feedback/FeedbackAccess.ts"
import { LinkedFeedbackList, linkedFeedbackOf, linkTask, unlinkTask } from "../feedback/WorkLinkViews.ts"
import { tagGroup } from "../Operation.ts"
import { taskFeedbackExamples } from "./TaskFeedback.examples.ts"
import { onTask } from "./WorkAccess.ts"

const TaskParams = Schema.Struct({ taskId: Id })
const RequestParams = Schema.Struct({ taskId: Id, featureRequestId: Id })
const BugParams = Schema.Struct({ taskId: Id, bugReportId: Id })
const read = ["tasks:read", "feedback:read"]
const write = ["tasks:read", "feedback:write"]
const answer = { 200: { description: "The task's linked requests and bug reports", schema: LinkedFeedbackList } }

const { operation } = tagGroup("pm", "Task Feedback", taskFeedbackExamples)

export const taskFeedbackOperations = [
  operation({
    operationId: "listTaskFeedback",
    method: "GET",
    path: "/v1/tasks/{taskId}/feedback",
    summary: "The feature requests (with their vote counts) and bug reports this task delivers, on boards the caller may see",
    auth: "both",
    scopes: read,
    params: TaskParams,
    responses: answer,
    handler: ({ params }, context) => Effect.flatMap(onTask(context, params.taskId), () => linkedFeedbackOf(context, params.taskId))
  }),
  operation({
    operationId: "linkTaskFeatureRequest",
    method: "PUT",
    path: "/v1/tasks/{taskId}/feature-requests/{featureRequestId}",
    summary: "Link this task to a feature request it delivers (the board's team); the request takes the progress the work made",
    auth: "both",
    scopes: write,
    params: RequestParams,
    responses: { ...answer, 404: { description: "No such task or request" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const { caller } = yield* requestAccess(context, params.featureRequestId, "team")
        yield* linkTask(
          context,
          caller,
          { kind: "request", id: params.featureRequestId, field: "path.featureRequestId" },
          params.taskId,
          "path.taskId"
        )
        return yield* linkedFeedbackOf(context, params.taskId)
      })
  }),
  operation({
    operationId: "unlinkTaskFeatureRequest",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/feature-requests/{featureRequestId}",
    summary: "Remove this task's link to a feature request (the board's team)",
    auth: "both",
    scopes: write,
    params: RequestParams,
    responses: { ...answer, 404: { description: "Not linked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const { caller } = yield* requestAccess(context, params.featureRequestId, "team")
        yield* unlinkTask(caller, { kind: "request", id: params.featureRequestId }, params.taskId)
        return yield* linkedFeedbackOf(context, params.taskId)
      })
  }),
  operation({
    operationId: "linkTaskBugReport",
    method: "PUT",
    path: "/v1/tasks/{taskId}/bug-reports/{bugReportId}",
    summary: "Link this task to a bug report it fixes (the board's team)",
    auth: "both",
    scopes: write,
    params: BugParams,
    responses: { ...answer, 404: { description: "No such task or bug report" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const { caller } = yield* bugFor(context, params.bugReportId, "team")
        yield* linkTask(context, caller, { kind: "bug", id: params.bugReportId, field: "path.bugReportId" }, params.taskId, "path.taskId")
        return yield* linkedFeedbackOf(context, params.taskId)
      })
  }),
  operation({
    operationId: "unlinkTaskBugReport",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/bug-reports/{bugReportId}",
    summary: "Remove this task's link to a bug report (the board's team)",
    auth: "both",
    scopes: write,
    params: BugParams,
    responses: { ...answer, 404: { description: "Not linked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        const { caller } = yield* bugFor(context, params.bugReportId, "team")
        yield* unlinkTask(caller, { kind: "bug", id: params.bugReportId }, params.taskId)
        return yield* linkedFeedbackOf(context, params.taskId)
      })
  })
]
