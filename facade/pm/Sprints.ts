/**
 * pm tag "Sprints" (11): sprints of a space — create, read, change, delete;
 * planning (the backlog, adding and removing tasks); start and complete
 * (unfinished tasks roll over to the next sprint or go back to the backlog).
 * Writes go through the space's planning actor.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { PmSprints } from "../../actors/pm/PlanningActors.ts"
import {
  SprintCompletion,
  SprintCompletionInput,
  SprintInput,
  SprintPatch,
  SprintPlanning,
  SprintTaskIds
} from "../../actors/pm/SprintCommands.ts"
import {
  backlog,
  getSprint,
  listSprints,
  Sprint,
  sprintRow,
  SprintStatus,
  SprintTask,
  sprintTasks,
  groupRow
} from "../../actors/pm/SprintRecords.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { Items, Page, Task } from "../../actors/pm/WorkRecords.ts"
import { reject, Rejection } from "../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { at0, exampleIds as ids, Limit, Offset, onSpace, orDieSql, pageOf } from "./WorkAccess.ts"
import { exampleTask } from "./WorkExamples.ts"

const tag = "Sprints"
const service = "pm"
const read = ["tasks:read"]
const write = ["tasks:write"]

/** Example ids of the planning tags (sprints, views, filters, dashboards). */
export const planningIds = {
  sprint: "8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1b",
  sprint2: "8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1c",
  sprintGroup: "9f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
  team: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  view: "a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d",
  filter: "b1c2d3e4-f5a6-4b7c-9d8e-0f1a2b3c4d5e",
  dashboard: "c2d3e4f5-a6b7-4c8d-8e9f-1a2b3c4d5e6f",
  widget: "d3e4f5a6-b7c8-4d9e-9f0a-2b3c4d5e6f7a"
} as const

/** Not finding the space answers as not finding the thing in it. */
export const hiddenAs =
  (what: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.mapError(effect, (e): E | Rejection =>
      e instanceof Rejection && e.code === "not_found" ? reject("not_found", `No such ${what}`) : e
    )

/** A sprint as the caller may touch it: 404 when they may not see its space, 403 below `minimum`. */
export const onSprint = (context: RequestContext, sprintId: string, minimum: "viewer" | "member" = "viewer") =>
  Effect.gen(function* () {
    const sprint = yield* orDieSql(sprintRow(sprintId))
    const caller = yield* hiddenAs("sprint")(onSpace(context, sprint.spaceId, minimum))
    return { caller, sprint }
  })

/** A sprint group as the caller may touch it (as `onSprint`). */
export const onSprintGroup = (context: RequestContext, groupId: string, minimum: "viewer" | "member" = "viewer") =>
  Effect.gen(function* () {
    const group = yield* orDieSql(groupRow(groupId))
    const caller = yield* hiddenAs("sprint group")(onSpace(context, group.spaceId, minimum))
    return { caller, group }
  })

export const exampleSprint = {
  id: planningIds.sprint,
  workspaceId: ids.workspace,
  spaceId: ids.space,
  sprintGroupId: planningIds.sprintGroup,
  name: "Web 12",
  goal: "Ship the login page",
  status: "active",
  startDate: "2026-11-16T00:00:00.000Z",
  endDate: "2026-11-30T00:00:00.000Z",
  startedAt: "2026-11-16T09:00:00.000Z",
  completedAt: null,
  progress: { tasks: 8, finished: 3, unfinished: 5, estimateMinutes: 2400, finishedMinutes: 720, percent: 37.5 },
  summary: null,
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}

const exampleSummary = {
  committedTasks: 8,
  committedMinutes: 2400,
  completedTasks: 6,
  completedMinutes: 1800,
  addedDuringSprint: 1,
  removedDuringSprint: 0,
  rolledOver: 3,
  returnedToBacklog: 0,
  nextSprintId: planningIds.sprint2
}

const SpaceParams = Schema.Struct({ spaceId: Id })
const SprintParams = Schema.Struct({ sprintId: Id })
const PageQuery = Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) })

export const sprintsOperations = [
  operation({
    service,
    tag,
    operationId: "createSprint",
    method: "POST",
    path: "/v1/spaces/{spaceId}/sprints",
    summary: "Plan a sprint in a space",
    description:
      'Dates default from the series: it starts when the series\' last sprint ends (or today) and lasts the group\'s default length (14 days without a group). The name defaults to "<group> <n>" or "Sprint <n>".',
    auth: "both",
    scopes: write,
    params: SpaceParams,
    body: SprintInput,
    responses: { 201: { description: "Created", schema: Sprint }, 404: { description: "No such space or sprint group" } },
    examples: [
      {
        name: "in a group",
        request: { params: { spaceId: ids.space }, body: { sprintGroupId: planningIds.sprintGroup, goal: "Ship the login page" } },
        response: {
          status: 201,
          body: {
            ...exampleSprint,
            status: "planned",
            startedAt: null,
            progress: { tasks: 0, finished: 0, unfinished: 0, estimateMinutes: 0, finishedMinutes: 0, percent: 0 }
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSprints, params.spaceId, "createSprint", caller.userId, body)
      })
  }),
  operation({
    service,
    tag,
    operationId: "listSprints",
    method: "GET",
    path: "/v1/spaces/{spaceId}/sprints",
    summary: "A space's sprints by start date, with their progress",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(SprintStatus), sprintGroupId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Sprints", schema: Items(Sprint) } },
    examples: [
      {
        name: "active",
        request: { params: { spaceId: ids.space }, query: { status: "active" } },
        response: { status: 200, body: { items: [exampleSprint] } }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return { items: yield* orDieSql(listSprints(params.spaceId, query)) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "getSprint",
    method: "GET",
    path: "/v1/sprints/{sprintId}",
    summary: "A sprint with its progress (and its report once completed)",
    auth: "both",
    scopes: read,
    params: SprintParams,
    responses: { 200: { description: "The sprint", schema: Sprint } },
    examples: [{ name: "get", request: { params: { sprintId: planningIds.sprint } }, response: { status: 200, body: exampleSprint } }],
    handler: ({ params }, context) => Effect.andThen(onSprint(context, params.sprintId), orDieSql(getSprint(params.sprintId)))
  }),
  operation({
    service,
    tag,
    operationId: "updateSprint",
    method: "PATCH",
    path: "/v1/sprints/{sprintId}",
    summary: "Rename a sprint, change its goal, dates or series",
    description:
      "An active sprint keeps its start date; a completed one keeps its dates and series. Moving an active sprint into a series that already runs one is refused (409).",
    auth: "both",
    scopes: write,
    params: SprintParams,
    body: SprintPatch,
    responses: { 200: { description: "Updated", schema: Sprint }, 409: { description: "Not possible in the sprint's state" } },
    examples: [
      {
        name: "extend",
        request: { params: { sprintId: planningIds.sprint }, body: { endDate: "2026-12-02T00:00:00.000Z" } },
        response: { status: 200, body: { ...exampleSprint, endDate: "2026-12-02T00:00:00.000Z" } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "updateSprint", caller.userId, { sprintId: params.sprintId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "deleteSprint",
    method: "DELETE",
    path: "/v1/sprints/{sprintId}",
    summary: "Delete a planned or completed sprint (its tasks go back to the backlog); an active sprint is completed instead",
    auth: "both",
    scopes: write,
    params: SprintParams,
    responses: { 204: { description: "Deleted" }, 409: { description: "The sprint is active" } },
    examples: [{ name: "delete", request: { params: { sprintId: planningIds.sprint2 } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        yield* send(PmSprints, sprint.spaceId, "deleteSprint", caller.userId, { sprintId: params.sprintId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listSprintTasks",
    method: "GET",
    path: "/v1/sprints/{sprintId}/tasks",
    summary: "The tasks planned into a sprint, unfinished first",
    description: "Each with when it was added, the sprint it rolled over from, and (once the sprint completed) its outcome.",
    auth: "both",
    scopes: read,
    params: SprintParams,
    query: PageQuery,
    responses: { 200: { description: "A page of sprint tasks", schema: Page(SprintTask) } },
    examples: [
      {
        name: "tasks",
        request: { params: { sprintId: planningIds.sprint } },
        response: {
          status: 200,
          body: { items: [{ addedAt: at0, carriedFromSprintId: null, outcome: null, task: exampleTask }], total: 1, offset: 0, limit: 50 }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSprint(context, params.sprintId)
        return yield* orDieSql(sprintTasks(params.sprintId, pageOf(query)))
      })
  }),
  operation({
    service,
    tag,
    operationId: "addSprintTasks",
    method: "POST",
    path: "/v1/sprints/{sprintId}/tasks",
    summary: "Plan tasks of the space into a sprint (a task in another open sprint moves here)",
    auth: "both",
    scopes: write,
    params: SprintParams,
    body: SprintTaskIds,
    responses: {
      200: { description: "Planned", schema: SprintPlanning },
      404: { description: "A task is not in the sprint's space" },
      409: { description: "The sprint is completed" }
    },
    examples: [
      {
        name: "plan",
        request: { params: { sprintId: planningIds.sprint }, body: { taskIds: [ids.task, ids.task2] } },
        response: { status: 200, body: { added: [ids.task, ids.task2], moved: [], alreadyPlanned: [], sprint: exampleSprint } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "addSprintTasks", caller.userId, { sprintId: params.sprintId, taskIds: body.taskIds })
      })
  }),
  operation({
    service,
    tag,
    operationId: "removeSprintTask",
    method: "DELETE",
    path: "/v1/sprints/{sprintId}/tasks/{taskId}",
    summary: "Take a task out of a sprint (back to the backlog)",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ sprintId: Id, taskId: Id }),
    responses: {
      204: { description: "Removed" },
      404: { description: "The task is not in the sprint" },
      409: { description: "The sprint is completed" }
    },
    examples: [{ name: "remove", request: { params: { sprintId: planningIds.sprint, taskId: ids.task } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        yield* send(PmSprints, sprint.spaceId, "removeSprintTask", caller.userId, { sprintId: params.sprintId, taskId: params.taskId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "startSprint",
    method: "POST",
    path: "/v1/sprints/{sprintId}/start",
    summary: "Start a planned sprint: its scope now is what it commits to",
    description: "One sprint runs at a time per series (409 otherwise). Starting early moves the start date to now.",
    auth: "both",
    scopes: write,
    params: SprintParams,
    responses: {
      200: { description: "Started", schema: Sprint },
      409: { description: "Not planned, another sprint of the series runs, or the end date has passed" }
    },
    examples: [{ name: "start", request: { params: { sprintId: planningIds.sprint } }, response: { status: 200, body: exampleSprint } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "startSprint", caller.userId, { sprintId: params.sprintId })
      })
  }),
  operation({
    service,
    tag,
    operationId: "completeSprint",
    method: "POST",
    path: "/v1/sprints/{sprintId}/complete",
    summary: "Complete the active sprint: record its report and roll its unfinished tasks over",
    description:
      "Unfinished tasks go to `nextSprintId`, else the series' next planned sprint, else a new sprint of the group's length (when the group auto-creates), else back to the backlog; `unfinished: \"backlog\"` sends them back to the backlog.",
    auth: "both",
    scopes: write,
    params: SprintParams,
    body: SprintCompletionInput,
    responses: { 200: { description: "Completed", schema: SprintCompletion }, 409: { description: "The sprint is not active" } },
    examples: [
      {
        name: "complete",
        request: { params: { sprintId: planningIds.sprint }, body: {} },
        response: {
          status: 200,
          body: {
            sprint: { ...exampleSprint, status: "completed", completedAt: "2026-11-30T09:00:00.000Z", summary: exampleSummary },
            nextSprint: { ...exampleSprint, id: planningIds.sprint2, name: "Web 13", status: "planned", startedAt: null }
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "completeSprint", caller.userId, { sprintId: params.sprintId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listSprintBacklog",
    method: "GET",
    path: "/v1/spaces/{spaceId}/backlog",
    summary: "The space's backlog: unfinished tasks planned into no open sprint, most urgent first",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: PageQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    examples: [
      {
        name: "backlog",
        request: { params: { spaceId: ids.space } },
        response: { status: 200, body: { items: [exampleTask], total: 1, offset: 0, limit: 50 } }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId)
        return yield* orDieSql(backlog(params.spaceId, caller.viewer, pageOf(query)))
      })
  })
]
