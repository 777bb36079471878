/**
 * pm tag "Dashboard" (20): dashboards and their widgets (CRUD, and all
 * widgets' data computed live), the aggregates they are made of — task
 * counts by status, assignee, priority, tag, list…, distributions (due
 * dates, estimates, age), workload, throughput (created vs finished per
 * day), cycle time, overdue work, the relationship graph, voting results —
 * sprint burndown and velocity, and task votes. Every aggregate is computed
 * from the live rows on each read, over what the caller may see.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { dashboardData, visibleSprint, WidgetData } from "../../actors/pm/DashboardData.ts"
import {
  Dashboard,
  DashboardInput,
  DashboardPatch,
  getDashboard,
  listDashboards,
  PlacedWidget,
  WidgetPatch
} from "../../actors/pm/Dashboards.ts"
import { PmDashboards, PmTaskVotes } from "../../actors/pm/PlanningActors.ts"
import { Burndown, BurndownUnit, burndown, Velocity, velocity } from "../../actors/pm/SprintCharts.ts"
import {
  type AggregateScope,
  CountDimension,
  countsBy,
  CycleTime,
  cycleTime,
  type DayRange,
  Distribution,
  distribution,
  DistributionField,
  type GraphRelationType,
  lastDays,
  Overdue,
  overdue,
  RelationshipGraph,
  relationshipGraph,
  TaskCountsBy,
  Throughput,
  throughput,
  VotingResults,
  votingResults,
  Workload,
  workload
} from "../../actors/pm/TaskAggregates.ts"
import { TaskVote } from "../../actors/pm/TaskVotes.ts"
import { ViewScopeType } from "../../actors/pm/ViewRecords.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { Items } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { SprintNotFound } from "../../actors/pm/PlanningErrors.ts"
import { principalOf } from "../Access.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { onViewScope } from "./ResourceViews.ts"
import { hiddenAs, onSprint } from "./Sprints.ts"
import { BooleanString, inWorkspace, onFolder, onList, onSpace, onTask, orDieSql } from "./WorkAccess.ts"

import { dashboardExamples } from "./Dashboard.examples.ts"
const read = ["tasks:read"]
const write = ["tasks:write"]
const DAY = 86_400_000

// ---------------------------------------------------------------------------
// Access

/** A dashboard the caller may see, with `minimum` in its workspace; 404 otherwise. */
export const onDashboard = (context: RequestContext, dashboardId: string, minimum: "viewer" | "member" = "viewer") =>
  Effect.gen(function* () {
    const principal = yield* principalOf(context)
    const dashboard = yield* orDieSql(getDashboard(dashboardId, principal.userId))
    const hidden = hiddenAs("dashboard")
    yield* hidden(onViewScope(context, dashboard.workspaceId, dashboard.scopeType, dashboard.scopeId, "viewer", "dashboardId"))
    const caller = yield* hidden(inWorkspace(context, dashboard.workspaceId, minimum))
    return { caller, dashboard }
  })

/** A sprint a widget names must be one the caller sees (404 naming the field otherwise). */
const sprintSeen = (sprintId: string | undefined, workspaceId: string, viewer: { userId: string; admin: boolean }, path: string) =>
  sprintId === undefined
    ? Effect.void
    : orDieSql(visibleSprint(sprintId, workspaceId, viewer)).pipe(
        Effect.asVoid,
        Effect.mapError(() => new SprintNotFound({ field: path }))
      )

// ---------------------------------------------------------------------------
// The scope of an aggregate: query parameters

const ScopeQueryFields = {
  spaceId: Schema.optionalKey(Id),
  folderId: Schema.optionalKey(Id),
  listId: Schema.optionalKey(Id),
  sprintId: Schema.optionalKey(Id.annotate({ description: "Only the tasks planned into this sprint" }))
}

const Day = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { expected: "a day YYYY-MM-DD" }))
const RangeQueryFields = {
  from: Schema.optionalKey(Day.annotate({ description: "First day (UTC); with `to`" })),
  to: Schema.optionalKey(Day.annotate({ description: "Last day (UTC), included" })),
  days: Schema.optionalKey(
    Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 366 })).annotate({
      description: "The last n days up to today (default 14)"
    })
  )
}
const LimitQuery = (max: number, fallback: number) =>
  Schema.optionalKey(
    Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: max })).annotate({
      description: `At most this many items (default ${fallback})`
    })
  )

/** The workspace, or the one space, folder or list named, optionally narrowed to a sprint; 404 naming what the caller may not see. */
const scopeOf = (
  context: RequestContext,
  workspaceId: string,
  q: { spaceId?: string; folderId?: string; listId?: string; sprintId?: string }
) =>
  Effect.gen(function* () {
    const caller = yield* inWorkspace(context, workspaceId)
    const named = (["spaceId", "folderId", "listId"] as const).filter((key) => q[key] !== undefined)
    if (named.length > 1)
      return yield* reject("invalid", `Invalid query.${named[1]}: name one of spaceId, folderId, listId`, [
        { path: `query.${named[1]}`, message: "one scope at a time" }
      ])
    let scopeType: ViewScopeType = "workspace"
    let scopeId = workspaceId
    if (named.length === 1) {
      const key = named[0]!
      const id = q[key]!
      const where = key === "spaceId" ? onSpace(context, id) : key === "folderId" ? onFolder(context, id) : onList(context, id)
      const at = yield* where.pipe(
        Effect.mapError((e) =>
          e._tag === "Rejection" && e.code === "not_found"
            ? reject("not_found", "Not found", [{ path: `query.${key}`, message: "not found" }])
            : e
        )
      )
      if (at.at.workspaceId !== workspaceId)
        return yield* reject("not_found", "Not found", [{ path: `query.${key}`, message: "not found" }])
      scopeType = key === "spaceId" ? "space" : key === "folderId" ? "folder" : "list"
      scopeId = id
    }
    if (q.sprintId !== undefined) {
      yield* orDieSql(visibleSprint(q.sprintId, workspaceId, caller.viewer)).pipe(
        Effect.mapError(() => new SprintNotFound({ field: "query.sprintId" }))
      )
    }
    return {
      workspaceId,
      viewer: caller.viewer,
      scopeType,
      scopeId,
      ...(q.sprintId !== undefined ? { sprintId: q.sprintId } : {})
    } satisfies AggregateScope
  })

const rangeOf = (q: { from?: string; to?: string; days?: number }) =>
  Effect.gen(function* () {
    if (q.from === undefined && q.to === undefined) return lastDays(q.days ?? 14)
    if (q.days !== undefined)
      return yield* reject("invalid", "Invalid query.days: give either days or from and to", [
        { path: "query.days", message: "not with from/to" }
      ])
    if (q.from === undefined || q.to === undefined) {
      const missing = q.from === undefined ? "from" : "to"
      return yield* reject("invalid", `Invalid query.${missing}: from and to go together`, [
        { path: `query.${missing}`, message: "required" }
      ])
    }
    for (const key of ["from", "to"] as const) {
      const value = q[key]!
      const parsed = Date.parse(`${value}T00:00:00Z`)
      if (Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value)
        return yield* reject("invalid", `Invalid query.${key}: not a real day`, [{ path: `query.${key}`, message: "not a real day" }])
    }
    const span = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / DAY
    if (span < 0) return yield* reject("invalid", "Invalid query.to: before from", [{ path: "query.to", message: "before from" }])
    if (span > 365) return yield* reject("invalid", "Invalid query.to: at most 366 days", [{ path: "query.to", message: "range too long" }])
    return { from: q.from, to: q.to } satisfies DayRange
  })

const DashboardParams = Schema.Struct({ dashboardId: Id })
const WidgetParams = Schema.Struct({ dashboardId: Id, widgetId: Id })
const WorkspaceParams = Schema.Struct({ workspaceId: Id })
const DashboardDataResult = Schema.Struct({
  dashboardId: Id,
  name: Schema.String,
  generatedAt: Schema.String,
  widgets: Schema.Array(WidgetData)
}).annotate({ identifier: "DashboardData" })

const analytics = (path: string) => `/v1/workspaces/{workspaceId}/analytics/${path}`

const { operation } = tagGroup("pm", "Dashboard", dashboardExamples)

export const dashboardOperations = [
  // -- dashboards and widgets ---------------------------------------------------
  operation({
    operationId: "createDashboard",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/dashboards",
    summary: "Create a dashboard over the workspace, a space, a folder or a list, optionally with its widgets",
    auth: "both",
    scopes: write,
    params: WorkspaceParams,
    body: Schema.Struct({
      ...DashboardInput.fields,
      scopeType: Schema.optionalKey(ViewScopeType.annotate({ description: "Default workspace" })),
      scopeId: Schema.optionalKey(Id)
    }),
    responses: {
      201: { description: "Created", schema: Dashboard },
      400: { description: "A widget configuration that does not fit its type" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const scopeType = body.scopeType ?? "workspace"
        if (scopeType !== "workspace" && body.scopeId === undefined)
          return yield* reject("invalid", "Invalid body.scopeId: required for a space, folder or list dashboard", [
            { path: "body.scopeId", message: "required" }
          ])
        const scopeId = body.scopeId ?? params.workspaceId
        const caller = yield* onViewScope(context, params.workspaceId, scopeType, scopeId, "member", "body.scopeId")
        for (const [index, widget] of (body.widgets ?? []).entries())
          yield* sprintSeen(widget.config?.sprintId, params.workspaceId, caller.viewer, `body.widgets.${index}.config.sprintId`)
        return yield* send(PmDashboards, params.workspaceId, "createDashboard", caller.userId, { ...body, scopeType, scopeId })
      })
  }),
  operation({
    operationId: "listDashboards",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/dashboards",
    summary: "Dashboards the caller can open in a workspace (shared ones and their own), optionally of one scope",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ scopeType: Schema.optionalKey(ViewScopeType), scopeId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Dashboards", schema: Items(Dashboard) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, params.workspaceId)
        if (query.scopeType === undefined && query.scopeId !== undefined)
          return yield* reject("invalid", "Invalid query.scopeType: required with scopeId", [
            { path: "query.scopeType", message: "required" }
          ])
        const scope =
          query.scopeType === undefined ? undefined : { scopeType: query.scopeType, scopeId: query.scopeId ?? params.workspaceId }
        return { items: yield* orDieSql(listDashboards(params.workspaceId, caller.viewer, scope)) }
      })
  }),
  operation({
    operationId: "getDashboard",
    method: "GET",
    path: "/v1/dashboards/{dashboardId}",
    summary: "A dashboard with its widgets' configuration",
    auth: "both",
    scopes: read,
    params: DashboardParams,
    responses: { 200: { description: "The dashboard", schema: Dashboard } },
    handler: ({ params }, context) => Effect.map(onDashboard(context, params.dashboardId), ({ dashboard }) => dashboard)
  }),
  operation({
    operationId: "updateDashboard",
    method: "PATCH",
    path: "/v1/dashboards/{dashboardId}",
    summary: "Rename a dashboard, change its description, or make it private or shared (its creator only)",
    auth: "both",
    scopes: write,
    params: DashboardParams,
    body: DashboardPatch,
    responses: { 200: { description: "Updated", schema: Dashboard } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        return yield* send(PmDashboards, dashboard.workspaceId, "updateDashboard", caller.userId, {
          dashboardId: params.dashboardId,
          ...body
        })
      })
  }),
  operation({
    operationId: "deleteDashboard",
    method: "DELETE",
    path: "/v1/dashboards/{dashboardId}",
    summary: "Delete a dashboard (its creator, or a workspace admin for a shared one)",
    auth: "both",
    scopes: write,
    params: DashboardParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Neither its creator nor an admin" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        yield* send(PmDashboards, dashboard.workspaceId, "deleteDashboard", caller.userId, {
          dashboardId: params.dashboardId,
          admin: caller.admin
        })
      })
  }),
  operation({
    operationId: "addDashboardWidget",
    method: "POST",
    path: "/v1/dashboards/{dashboardId}/widgets",
    summary: "Add a widget to a dashboard",
    description:
      "Each type takes its own configuration: task_count {groupBy}, distribution {field}, workload {capacityMinutes}, throughput {days}, cycle_time {days, limit}, overdue {limit}, burndown {sprintId, unit} (sprintId required), velocity {sprintGroupId, limit}, relationship_graph {types}, votes {limit}; most also take sprintId and criteria to narrow the tasks.",
    auth: "both",
    scopes: write,
    params: DashboardParams,
    body: PlacedWidget,
    responses: {
      201: { description: "Added; the dashboard", schema: Dashboard },
      400: { description: "A configuration that does not fit the type" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        yield* sprintSeen(body.config?.sprintId, dashboard.workspaceId, caller.viewer, "body.config.sprintId")
        return yield* send(PmDashboards, dashboard.workspaceId, "addWidget", caller.userId, { dashboardId: params.dashboardId, ...body })
      })
  }),
  operation({
    operationId: "updateDashboardWidget",
    method: "PATCH",
    path: "/v1/dashboards/{dashboardId}/widgets/{widgetId}",
    summary: "Change a widget's title, configuration, position or size",
    auth: "both",
    scopes: write,
    params: WidgetParams,
    body: WidgetPatch,
    responses: { 200: { description: "Updated; the dashboard", schema: Dashboard } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        yield* sprintSeen(body.config?.sprintId, dashboard.workspaceId, caller.viewer, "body.config.sprintId")
        return yield* send(PmDashboards, dashboard.workspaceId, "updateWidget", caller.userId, {
          dashboardId: params.dashboardId,
          widgetId: params.widgetId,
          ...body
        })
      })
  }),
  operation({
    operationId: "deleteDashboardWidget",
    method: "DELETE",
    path: "/v1/dashboards/{dashboardId}/widgets/{widgetId}",
    summary: "Remove a widget from a dashboard",
    auth: "both",
    scopes: write,
    params: WidgetParams,
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        yield* send(PmDashboards, dashboard.workspaceId, "deleteWidget", caller.userId, {
          dashboardId: params.dashboardId,
          widgetId: params.widgetId
        })
      })
  }),
  operation({
    operationId: "getDashboardData",
    method: "GET",
    path: "/v1/dashboards/{dashboardId}/data",
    summary: "Every widget's data, computed now from the live tasks",
    description:
      "A widget whose sprint or sprint group is gone (or hidden from the caller) answers `error` instead of `data`; the others still compute.",
    auth: "both",
    scopes: read,
    params: DashboardParams,
    responses: { 200: { description: "The widgets' data", schema: DashboardDataResult } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId)
        const widgets = yield* orDieSql(dashboardData(dashboard, caller.viewer))
        return { dashboardId: dashboard.id, name: dashboard.name, generatedAt: new Date().toISOString(), widgets }
      })
  }),
  // -- aggregates ---------------------------------------------------------------
  operation({
    operationId: "getTaskCounts",
    method: "GET",
    path: analytics("task-counts"),
    summary: "Task counts by status, status type, assignee, priority, tag, list, space or creator",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ groupBy: CountDimension, ...ScopeQueryFields }),
    responses: { 200: { description: "Counts", schema: TaskCountsBy } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(countsBy(scope, query.groupBy)))
  }),
  operation({
    operationId: "getTaskDistribution",
    method: "GET",
    path: analytics("distribution"),
    summary: "How tasks spread over due dates, time estimates or age, in buckets",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ field: DistributionField, ...ScopeQueryFields }),
    responses: { 200: { description: "Buckets", schema: Distribution } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(distribution(scope, query.field)))
  }),
  operation({
    operationId: "getWorkload",
    method: "GET",
    path: analytics("workload"),
    summary: "Unfinished work per assignee: tasks, overdue, due this week, estimate, priorities, utilization",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      ...ScopeQueryFields,
      capacityMinutes: Schema.optionalKey(
        Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100_000 })).annotate({
          description: "Each person's capacity, for utilization"
        })
      )
    }),
    responses: { 200: { description: "Workload", schema: Workload } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(workload(scope, query.capacityMinutes)))
  }),
  operation({
    operationId: "getThroughput",
    method: "GET",
    path: analytics("throughput"),
    summary: "Tasks created and finished per day (from the status history)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, ...RangeQueryFields }),
    responses: { 200: { description: "Per day", schema: Throughput } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeOf(context, params.workspaceId, query)
        return yield* orDieSql(throughput(scope, yield* rangeOf(query)))
      })
  }),
  operation({
    operationId: "getCycleTime",
    method: "GET",
    path: analytics("cycle-time"),
    summary: "How long finishing takes: cycle (first active → finished) and lead (created → finished) times of tasks finished in a range",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, ...RangeQueryFields, limit: LimitQuery(200, 20) }),
    responses: { 200: { description: "Statistics and the slowest tasks", schema: CycleTime } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeOf(context, params.workspaceId, query)
        return yield* orDieSql(cycleTime(scope, yield* rangeOf(query), query.limit ?? 20))
      })
  }),
  operation({
    operationId: "getOverdueTasks",
    method: "GET",
    path: analytics("overdue"),
    summary: "Unfinished tasks past their due date, most overdue first, and how many each assignee has",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, limit: LimitQuery(200, 50) }),
    responses: { 200: { description: "Overdue tasks", schema: Overdue } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(overdue(scope, query.limit ?? 50)))
  }),
  operation({
    operationId: "getRelationshipGraph",
    method: "GET",
    path: analytics("relationship-graph"),
    summary: "The scope's task relationships as a graph: nodes, edges, blocked tasks and the longest blocking chain",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      ...ScopeQueryFields,
      types: Schema.optionalKey(
        Schema.String.check(
          Schema.isPattern(/^(blocks|relates_to|duplicates)(,(blocks|relates_to|duplicates))*$/, {
            expected: "comma-separated: blocks, relates_to, duplicates"
          })
        )
      )
    }),
    responses: { 200: { description: "The graph", schema: RelationshipGraph } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeOf(context, params.workspaceId, query)
        const types = query.types
          ? ([...new Set(query.types.split(","))] as Array<typeof GraphRelationType.Type>)
          : (["blocks", "relates_to", "duplicates"] as const)
        return yield* orDieSql(relationshipGraph(scope, types))
      })
  }),
  operation({
    operationId: "getVotingResults",
    method: "GET",
    path: analytics("votes"),
    summary: "Voting results: tasks ranked by votes (with voters and share), and the comment reactions by emoji",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({
      ...ScopeQueryFields,
      limit: LimitQuery(100, 20),
      includeFinished: Schema.optionalKey(BooleanString.annotate({ description: "Rank finished tasks too (default false)" }))
    }),
    responses: { 200: { description: "Results", schema: VotingResults } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) =>
        orDieSql(votingResults(scope, query.limit ?? 20, query.includeFinished === "true"))
      )
  }),
  operation({
    operationId: "setTaskVote",
    method: "PUT",
    path: "/v1/tasks/{taskId}/vote",
    summary: "Cast (vote: true) or withdraw (false) the caller's vote on a task; one vote per member and task",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id }),
    body: Schema.Struct({ vote: Schema.Boolean }),
    responses: { 200: { description: "The task's votes", schema: TaskVote } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmTaskVotes, params.taskId, "setVote", caller.userId, { vote: body.vote })
      })
  }),
  // -- sprint charts --------------------------------------------------------------
  operation({
    operationId: "getSprintBurndown",
    method: "GET",
    path: "/v1/sprints/{sprintId}/burndown",
    summary: "A sprint's burndown per day: scope, completed and remaining work against the ideal line",
    description:
      "Replayed from when tasks entered and left the sprint and from their status history: a task reopened later counts as remaining again from that day. `unit=minutes` sums time estimates.",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ sprintId: Id }),
    query: Schema.Struct({ unit: Schema.optionalKey(BurndownUnit) }),
    responses: { 200: { description: "The burndown", schema: Burndown } },
    handler: ({ params, query }, context) =>
      Effect.andThen(onSprint(context, params.sprintId), orDieSql(burndown(params.sprintId, query.unit ?? "tasks")))
  }),
  operation({
    operationId: "getSprintVelocity",
    method: "GET",
    path: "/v1/spaces/{spaceId}/velocity",
    summary: "Velocity: committed and completed work of a space's last completed sprints (optionally one sprint group), with averages",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ spaceId: Id }),
    query: Schema.Struct({ sprintGroupId: Schema.optionalKey(Id), limit: LimitQuery(50, 6) }),
    responses: { 200: { description: "Velocity", schema: Velocity } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return yield* orDieSql(velocity(params.spaceId, query.sprintGroupId, query.limit ?? 6))
      })
  })
]
