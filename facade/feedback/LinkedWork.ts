/**
 * feedback tag "Linked Work": feature requests and bug reports linked to the
 * pm tasks that deliver them (the board's team links; anyone who may see the
 * post reads its tasks, as far as they may see them in pm), and how the board
 * lets that work move its requests (board admins).
 */
import { Effect, Schema } from "effect"
import { WORK_AUTOMATION } from "../../actors/feedback/WorkLinks.ts"
import { workProgressOf } from "../../actors/feedback/WorkLinkReads.ts"
import { Id } from "../../actors/Fields.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { board, BoardParams } from "./BoardAsk.ts"
import { bugFor } from "./BugReports.ts"
import { boardAccess, requestAccess } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { linkedWorkExamples } from "./LinkedWork.examples.ts"
import { LinkedTaskList, linkedTasksOf, linkTask, unlinkTask } from "./WorkLinkViews.ts"

const RequestTaskParams = Schema.Struct({ featureRequestId: Id, taskId: Id })
const BugTaskParams = Schema.Struct({ bugReportId: Id, taskId: Id })

export const WorkProgressDeclaration = Schema.Struct({
  startedStatusId: Schema.NullOr(Id).annotate({
    description: "The status a request takes when its first linked task starts (null: starting work moves nothing)"
  }),
  doneStatusId: Schema.NullOr(Id).annotate({
    description: "The status a request takes when all its linked tasks are done or closed (null: finishing moves nothing)"
  })
}).annotate({ identifier: "FeedbackWorkProgress" })

const WorkProgressView = Schema.Struct({
  ...WorkProgressDeclaration.fields,
  automationId: Id.annotate({ description: "The user id the automation's status changes are recorded under" })
}).annotate({ identifier: "FeedbackWorkProgressView" })

// The links show pm tasks: an API key needs pm's read scope as well.
const read = ["feedback:read", "tasks:read"]
const write = ["feedback:write", "tasks:read"]
const boardRead = ["feedback:read"]
const boardWrite = ["feedback:write"]
const request = (id: string) => ({ kind: "request" as const, id, field: "path.featureRequestId" })
const bug = (id: string) => ({ kind: "bug" as const, id, field: "path.bugReportId" })

const { operation } = tagGroup(service, "Linked Work", linkedWorkExamples)

export const linkedWorkOperations = [
  operation({
    operationId: "listFeatureRequestTasks",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/tasks",
    summary: "The pm tasks linked to a feature request, with their status (those the caller may see in pm)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ featureRequestId: Id }),
    responses: { 200: { description: "Linked tasks, oldest link first", schema: LinkedTaskList } },
    handler: ({ params }, context) =>
      Effect.flatMap(requestAccess(context, params.featureRequestId), () => linkedTasksOf(context, params.featureRequestId))
  }),
  operation({
    operationId: "linkFeatureRequestTask",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/tasks/{taskId}",
    summary: "Link a pm task that delivers a feature request (the board's team); the request takes the progress the work already made",
    description: "Linking a task already linked changes nothing. The task must be in the board's workspace and visible to the caller.",
    auth: "both",
    scopes: write,
    params: RequestTaskParams,
    responses: { 200: { description: "The request's linked tasks", schema: LinkedTaskList }, 404: { description: "No such task" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId, "team")
        yield* linkTask(context, caller, request(params.featureRequestId), params.taskId, "path.taskId")
        return yield* linkedTasksOf(context, params.featureRequestId)
      })
  }),
  operation({
    operationId: "unlinkFeatureRequestTask",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}/tasks/{taskId}",
    summary: "Remove a task's link to a feature request (the board's team); the request keeps its status",
    auth: "both",
    scopes: write,
    params: RequestTaskParams,
    responses: { 200: { description: "The request's linked tasks", schema: LinkedTaskList }, 404: { description: "Not linked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId, "team")
        yield* unlinkTask(caller, request(params.featureRequestId), params.taskId)
        return yield* linkedTasksOf(context, params.featureRequestId)
      })
  }),
  operation({
    operationId: "listBugReportTasks",
    method: "GET",
    path: "/v1/bug-reports/{bugReportId}/tasks",
    summary: "The pm tasks linked to a bug report, with their status (those the caller may see in pm)",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ bugReportId: Id }),
    responses: { 200: { description: "Linked tasks, oldest link first", schema: LinkedTaskList } },
    handler: ({ params }, context) =>
      Effect.flatMap(bugFor(context, params.bugReportId, "see"), () => linkedTasksOf(context, params.bugReportId))
  }),
  operation({
    operationId: "linkBugReportTask",
    method: "PUT",
    path: "/v1/bug-reports/{bugReportId}/tasks/{taskId}",
    summary: "Link a pm task that fixes a bug report (the board's team)",
    auth: "both",
    scopes: write,
    params: BugTaskParams,
    responses: { 200: { description: "The report's linked tasks", schema: LinkedTaskList }, 404: { description: "No such task" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* bugFor(context, params.bugReportId, "team")
        yield* linkTask(context, caller, bug(params.bugReportId), params.taskId, "path.taskId")
        return yield* linkedTasksOf(context, params.bugReportId)
      })
  }),
  operation({
    operationId: "unlinkBugReportTask",
    method: "DELETE",
    path: "/v1/bug-reports/{bugReportId}/tasks/{taskId}",
    summary: "Remove a task's link to a bug report (the board's team)",
    auth: "both",
    scopes: write,
    params: BugTaskParams,
    responses: { 200: { description: "The report's linked tasks", schema: LinkedTaskList }, 404: { description: "Not linked" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* bugFor(context, params.bugReportId, "team")
        yield* unlinkTask(caller, bug(params.bugReportId), params.taskId)
        return yield* linkedTasksOf(context, params.bugReportId)
      })
  }),
  operation({
    operationId: "getBoardWorkProgress",
    method: "GET",
    path: "/v1/boards/{boardId}/work-progress",
    summary: "How linked work moves the board's requests: the status for work started and for all work done",
    auth: "both",
    scopes: boardRead,
    params: BoardParams,
    responses: { 200: { description: "The declaration", schema: WorkProgressView } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* boardAccess(context, params.boardId, "team")
        return { ...(yield* orDieSql(workProgressOf(params.boardId))), automationId: WORK_AUTOMATION }
      })
  }),
  operation({
    operationId: "setBoardWorkProgress",
    method: "PUT",
    path: "/v1/boards/{boardId}/work-progress",
    summary: "Declare how linked work moves the board's requests (board admins)",
    description:
      "When the first linked task of a request starts (pm status type active, or already done), the request moves to `startedStatusId`; when all are done or closed, to `doneStatusId`. Moves go forward only (open → under review → planned → in progress → shipped, never out of declined), are recorded in the status history by the automation (`automationId`), and notify subscribers. A status a person sets after the request's latest link wins: work no longer moves that request until a task is linked again.",
    auth: "both",
    scopes: boardWrite,
    params: BoardParams,
    body: WorkProgressDeclaration,
    responses: { 200: { description: "Declared", schema: WorkProgressView }, 400: { description: "A status not on this board" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "admin")
        const declared = yield* board(params.boardId).setWorkProgress({ by: caller.userId, ...body })
        return { ...declared, automationId: WORK_AUTOMATION }
      })
  })
]
