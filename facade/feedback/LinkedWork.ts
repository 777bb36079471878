/**
 * feedback tag "Linked Work": feature requests and bug reports linked to the
 * pm tasks that deliver them (the board's team links; anyone who may see the
 * post reads its tasks, as far as they may see them in pm), and how the board
 * lets that work move its requests (board admins); a milestone's changelog
 * entry drafted from the tasks that delivered its requests (the team).
 */
import { Effect, Schema } from "effect"
import { changelogDraft } from "../../actors/feedback/ChangelogDraft.ts"
import { ChangelogEntry } from "../../actors/feedback/DeskRecords.ts"
import { WORK_AUTOMATION } from "../../actors/feedback/WorkLinks.ts"
import { workProgressOf } from "../../actors/feedback/WorkLinkReads.ts"
import { Id } from "../../actors/Fields.ts"
import { tagGroup } from "../Operation.ts"
import { orDieSql } from "../pm/WorkAccess.ts"
import { board, BoardParams, desk } from "./BoardAsk.ts"
import { bugFor } from "./BugReports.ts"
import { boardAccess, requestAccess } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { linkedWorkExamples } from "./LinkedWork.examples.ts"
import { milestoneFor, requestsOf } from "./Milestones.ts"
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

/** The most completed requests one draft adds to its milestone. */
const COMPLETED_LIMIT = 200

/** Adds the board's completed requests that no milestone holds to the milestone, oldest first. */
const addCompletedRequests = (by: string, boardId: string, milestoneId: string) =>
  Effect.gen(function* () {
    const held = new Set((yield* desk(boardId).milestones({})).flatMap((m) => m.featureRequestIds))
    const { items } = yield* board(boardId).requests({
      viewerId: by,
      team: true,
      statusTypes: ["shipped"],
      includeMerged: false,
      sort: "new",
      offset: 0,
      limit: COMPLETED_LIMIT
    })
    for (const request of items.filter((r) => !held.has(r.id)).reverse())
      yield* desk(boardId).linkRequest({ by, input: { milestoneId, featureRequestId: request.id } })
  })

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
  }),
  operation({
    operationId: "draftMilestoneChangelog",
    method: "POST",
    path: "/v1/milestones/{milestoneId}/changelog-draft",
    summary: "Draft a milestone's changelog entry from the pm tasks linked to its requests (team)",
    description:
      "A new draft entry titled by the milestone, linked to it and to its feature requests, whose text lists each linked task the caller may see in pm (its title and short id, and the requests it closes), then the requests no task delivers. Edit it and publish it with updateChangelogEntry: publishing ships the requests and notifies their voters and subscribers, once per request.",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ milestoneId: Id }),
    body: Schema.Struct({
      addCompletedRequests: Schema.optionalKey(
        Schema.Boolean.annotate({
          description:
            "First add to the milestone every request of the board in a completed (shipped) status that no milestone holds yet: a release built from what was finished"
        })
      )
    }),
    responses: { 201: { description: "The draft entry", schema: ChangelogEntry } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* milestoneFor(context, params.milestoneId, "team")
        const boardId = caller.view.board.id
        if (body.addCompletedRequests === true) yield* addCompletedRequests(caller.userId, boardId, params.milestoneId)
        const { milestone } = yield* milestoneFor(context, params.milestoneId, "team")
        // In the milestone's order (as they were added to it).
        const order = new Map(milestone.featureRequestIds.map((id, i) => [id, i] as const))
        const requests = [...(yield* requestsOf(boardId, milestone.featureRequestIds, caller.userId, true))].sort(
          (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)
        )
        const drafted = yield* Effect.forEach(
          requests,
          (request) =>
            Effect.map(linkedTasksOf(context, request.id), ({ items }) => ({
              ...request,
              tasks: items.map((task) => ({ shortId: task.shortId, name: task.name }))
            })),
          { concurrency: 4 }
        )
        return yield* desk(boardId).createEntry({
          by: caller.userId,
          input: {
            workspaceId: caller.view.board.workspaceId,
            title: milestone.name,
            kind: "new",
            content: changelogDraft(milestone, drafted),
            state: "draft",
            milestoneId: milestone.id,
            featureRequestIds: requests.map((request) => request.id)
          }
        })
      })
  })
]
