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
import { type RequestContext, tagGroup } from "../Operation.ts"
import { Limit, Offset, onSpace, orDieSql, pageOf } from "./WorkAccess.ts"

import { sprintsExamples } from "./Sprints.examples.ts"
export { planningIds, exampleSprint } from "./Sprints.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]

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

const SpaceParams = Schema.Struct({ spaceId: Id })
const SprintParams = Schema.Struct({ sprintId: Id })
const PageQuery = Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) })

const { operation } = tagGroup("pm", "Sprints", sprintsExamples)

export const sprintsOperations = [
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId, "member")
        return yield* send(PmSprints, params.spaceId, "createSprint", caller.userId, body)
      })
  }),
  operation({
    operationId: "listSprints",
    method: "GET",
    path: "/v1/spaces/{spaceId}/sprints",
    summary: "A space's sprints by start date, with their progress",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(SprintStatus), sprintGroupId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Sprints", schema: Items(Sprint) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return { items: yield* orDieSql(listSprints(params.spaceId, query)) }
      })
  }),
  operation({
    operationId: "getSprint",
    method: "GET",
    path: "/v1/sprints/{sprintId}",
    summary: "A sprint with its progress (and its report once completed)",
    auth: "both",
    scopes: read,
    params: SprintParams,
    responses: { 200: { description: "The sprint", schema: Sprint } },
    handler: ({ params }, context) => Effect.andThen(onSprint(context, params.sprintId), orDieSql(getSprint(params.sprintId)))
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "updateSprint", caller.userId, { sprintId: params.sprintId, ...body })
      })
  }),
  operation({
    operationId: "deleteSprint",
    method: "DELETE",
    path: "/v1/sprints/{sprintId}",
    summary: "Delete a planned or completed sprint (its tasks go back to the backlog); an active sprint is completed instead",
    auth: "both",
    scopes: write,
    params: SprintParams,
    responses: { 204: { description: "Deleted" }, 409: { description: "The sprint is active" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        yield* send(PmSprints, sprint.spaceId, "deleteSprint", caller.userId, { sprintId: params.sprintId })
      })
  }),
  operation({
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
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSprint(context, params.sprintId)
        return yield* orDieSql(sprintTasks(params.sprintId, pageOf(query)))
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "addSprintTasks", caller.userId, { sprintId: params.sprintId, taskIds: body.taskIds })
      })
  }),
  operation({
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
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        yield* send(PmSprints, sprint.spaceId, "removeSprintTask", caller.userId, { sprintId: params.sprintId, taskId: params.taskId })
      })
  }),
  operation({
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
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "startSprint", caller.userId, { sprintId: params.sprintId })
      })
  }),
  operation({
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
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, sprint } = yield* onSprint(context, params.sprintId, "member")
        return yield* send(PmSprints, sprint.spaceId, "completeSprint", caller.userId, { sprintId: params.sprintId, ...body })
      })
  }),
  operation({
    operationId: "listSprintBacklog",
    method: "GET",
    path: "/v1/spaces/{spaceId}/backlog",
    summary: "The space's backlog: unfinished tasks planned into no open sprint, most urgent first",
    auth: "both",
    scopes: read,
    params: SpaceParams,
    query: PageQuery,
    responses: { 200: { description: "A page of tasks", schema: Page(Task) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* onSpace(context, params.spaceId)
        return yield* orDieSql(backlog(params.spaceId, caller.viewer, pageOf(query)))
      })
  })
]
