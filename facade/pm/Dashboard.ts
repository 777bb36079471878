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
import { principalOf } from "../Access.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { onViewScope } from "./ResourceViews.ts"
import { exampleSprint, hiddenAs, onSprint, planningIds } from "./Sprints.ts"
import { at0, BooleanString, exampleIds as ids, inWorkspace, onFolder, onList, onSpace, onTask, orDieSql } from "./WorkAccess.ts"
import { exampleTask, exampleUser } from "./WorkExamples.ts"

const tag = "Dashboard"
const service = "pm"
const read = ["tasks:read"]
const write = ["tasks:write"]
const ws = { workspaceId: ids.workspace }
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
        Effect.mapError((e) => (e._tag === "Rejection" ? reject("not_found", "No such sprint", [{ path, message: "not found" }]) : e))
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
        Effect.mapError((e) =>
          e._tag === "Rejection" ? reject("not_found", "No such sprint", [{ path: "query.sprintId", message: "not found" }]) : e
        )
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

// ---------------------------------------------------------------------------
// Examples

const exampleWidget = {
  id: planningIds.widget,
  type: "task_count",
  title: "By status",
  config: { groupBy: "status" },
  position: 1,
  width: 6,
  height: 4,
  createdAt: at0,
  updatedAt: at0
}
const exampleDashboard = {
  id: planningIds.dashboard,
  workspaceId: ids.workspace,
  name: "Engineering health",
  description: "",
  scopeType: "space",
  scopeId: ids.space,
  spaceId: ids.space,
  isPrivate: false,
  widgets: [exampleWidget],
  createdBy: ids.user,
  createdAt: at0,
  updatedAt: at0
}
const exampleCounts = {
  groupBy: "status",
  total: 12,
  items: [
    { key: "to do", label: "to do", count: 5, unfinished: 5, estimateMinutes: 600 },
    { key: "in progress", label: "in progress", count: 4, unfinished: 4, estimateMinutes: 900 },
    { key: "done", label: "done", count: 3, unfinished: 0, estimateMinutes: 240 }
  ]
}
const exampleSummary = {
  id: ids.task,
  shortId: "T-42",
  name: "Ship the login page",
  status: "in progress",
  statusType: "active",
  finished: false,
  listId: ids.list
}

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

export const dashboardOperations = [
  // -- dashboards and widgets ---------------------------------------------------
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "space health",
        request: {
          params: ws,
          body: {
            name: "Engineering health",
            scopeType: "space",
            scopeId: ids.space,
            widgets: [{ type: "task_count", title: "By status", config: { groupBy: "status" } }]
          }
        },
        response: { status: 201, body: exampleDashboard }
      }
    ],
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
    service,
    tag,
    operationId: "listDashboards",
    method: "GET",
    path: "/v1/workspaces/{workspaceId}/dashboards",
    summary: "Dashboards the caller can open in a workspace (shared ones and their own), optionally of one scope",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ scopeType: Schema.optionalKey(ViewScopeType), scopeId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Dashboards", schema: Items(Dashboard) } },
    examples: [{ name: "list", request: { params: ws }, response: { status: 200, body: { items: [exampleDashboard] } } }],
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
    service,
    tag,
    operationId: "getDashboard",
    method: "GET",
    path: "/v1/dashboards/{dashboardId}",
    summary: "A dashboard with its widgets' configuration",
    auth: "both",
    scopes: read,
    params: DashboardParams,
    responses: { 200: { description: "The dashboard", schema: Dashboard } },
    examples: [
      { name: "get", request: { params: { dashboardId: planningIds.dashboard } }, response: { status: 200, body: exampleDashboard } }
    ],
    handler: ({ params }, context) => Effect.map(onDashboard(context, params.dashboardId), ({ dashboard }) => dashboard)
  }),
  operation({
    service,
    tag,
    operationId: "updateDashboard",
    method: "PATCH",
    path: "/v1/dashboards/{dashboardId}",
    summary: "Rename a dashboard, change its description, or make it private or shared (its creator only)",
    auth: "both",
    scopes: write,
    params: DashboardParams,
    body: DashboardPatch,
    responses: { 200: { description: "Updated", schema: Dashboard } },
    examples: [
      {
        name: "rename",
        request: { params: { dashboardId: planningIds.dashboard }, body: { name: "Eng health" } },
        response: { status: 200, body: { ...exampleDashboard, name: "Eng health" } }
      }
    ],
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
    service,
    tag,
    operationId: "deleteDashboard",
    method: "DELETE",
    path: "/v1/dashboards/{dashboardId}",
    summary: "Delete a dashboard (its creator, or a workspace admin for a shared one)",
    auth: "both",
    scopes: write,
    params: DashboardParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Neither its creator nor an admin" } },
    examples: [{ name: "delete", request: { params: { dashboardId: planningIds.dashboard } }, response: { status: 204 } }],
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
    service,
    tag,
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
    examples: [
      {
        name: "burndown",
        request: {
          params: { dashboardId: planningIds.dashboard },
          body: { type: "burndown", config: { sprintId: planningIds.sprint }, width: 12 }
        },
        response: {
          status: 201,
          body: {
            ...exampleDashboard,
            widgets: [
              exampleWidget,
              {
                ...exampleWidget,
                id: "d3e4f5a6-b7c8-4d9e-9f0a-2b3c4d5e6f7b",
                type: "burndown",
                title: "Sprint burndown",
                config: { sprintId: planningIds.sprint },
                position: 2,
                width: 12
              }
            ]
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId, "member")
        yield* sprintSeen(body.config?.sprintId, dashboard.workspaceId, caller.viewer, "body.config.sprintId")
        return yield* send(PmDashboards, dashboard.workspaceId, "addWidget", caller.userId, { dashboardId: params.dashboardId, ...body })
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateDashboardWidget",
    method: "PATCH",
    path: "/v1/dashboards/{dashboardId}/widgets/{widgetId}",
    summary: "Change a widget's title, configuration, position or size",
    auth: "both",
    scopes: write,
    params: WidgetParams,
    body: WidgetPatch,
    responses: { 200: { description: "Updated; the dashboard", schema: Dashboard } },
    examples: [
      {
        name: "by priority",
        request: {
          params: { dashboardId: planningIds.dashboard, widgetId: planningIds.widget },
          body: { title: "By priority", config: { groupBy: "priority" } }
        },
        response: {
          status: 200,
          body: { ...exampleDashboard, widgets: [{ ...exampleWidget, title: "By priority", config: { groupBy: "priority" } }] }
        }
      }
    ],
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
    service,
    tag,
    operationId: "deleteDashboardWidget",
    method: "DELETE",
    path: "/v1/dashboards/{dashboardId}/widgets/{widgetId}",
    summary: "Remove a widget from a dashboard",
    auth: "both",
    scopes: write,
    params: WidgetParams,
    responses: { 204: { description: "Removed" } },
    examples: [
      {
        name: "remove",
        request: { params: { dashboardId: planningIds.dashboard, widgetId: planningIds.widget } },
        response: { status: 204 }
      }
    ],
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
    service,
    tag,
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
    examples: [
      {
        name: "data",
        request: { params: { dashboardId: planningIds.dashboard } },
        response: {
          status: 200,
          body: {
            dashboardId: planningIds.dashboard,
            name: "Engineering health",
            generatedAt: at0,
            widgets: [{ widgetId: planningIds.widget, type: "task_count", title: "By status", data: exampleCounts, error: null }]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, dashboard } = yield* onDashboard(context, params.dashboardId)
        const widgets = yield* orDieSql(dashboardData(dashboard, caller.viewer))
        return { dashboardId: dashboard.id, name: dashboard.name, generatedAt: new Date().toISOString(), widgets }
      })
  }),
  // -- aggregates ---------------------------------------------------------------
  operation({
    service,
    tag,
    operationId: "getTaskCounts",
    method: "GET",
    path: analytics("task-counts"),
    summary: "Task counts by status, status type, assignee, priority, tag, list, space or creator",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ groupBy: CountDimension, ...ScopeQueryFields }),
    responses: { 200: { description: "Counts", schema: TaskCountsBy } },
    examples: [
      {
        name: "by status",
        request: { params: ws, query: { groupBy: "status", spaceId: ids.space } },
        response: { status: 200, body: exampleCounts }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(countsBy(scope, query.groupBy)))
  }),
  operation({
    service,
    tag,
    operationId: "getTaskDistribution",
    method: "GET",
    path: analytics("distribution"),
    summary: "How tasks spread over due dates, time estimates or age, in buckets",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ field: DistributionField, ...ScopeQueryFields }),
    responses: { 200: { description: "Buckets", schema: Distribution } },
    examples: [
      {
        name: "due dates",
        request: { params: ws, query: { field: "due_date" } },
        response: {
          status: 200,
          body: {
            field: "due_date",
            total: 9,
            buckets: [
              { key: "overdue", label: "Overdue", count: 2 },
              { key: "today", label: "Today", count: 1 },
              { key: "tomorrow", label: "Tomorrow", count: 0 },
              { key: "this_week", label: "Next 7 days", count: 3 },
              { key: "later", label: "Later", count: 1 },
              { key: "none", label: "No due date", count: 2 }
            ],
            summary: { withDueDate: 7, overdue: 2 }
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(distribution(scope, query.field)))
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "workload",
        request: { params: ws, query: { capacityMinutes: "2400" } },
        response: {
          status: 200,
          body: {
            items: [
              {
                user: exampleUser,
                openTasks: 4,
                overdueTasks: 1,
                dueThisWeek: 2,
                estimateMinutes: 1200,
                byPriority: { urgent: 1, high: 1, normal: 2, low: 0, none: 0 },
                utilization: 50
              }
            ]
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(workload(scope, query.capacityMinutes)))
  }),
  operation({
    service,
    tag,
    operationId: "getThroughput",
    method: "GET",
    path: analytics("throughput"),
    summary: "Tasks created and finished per day (from the status history)",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, ...RangeQueryFields }),
    responses: { 200: { description: "Per day", schema: Throughput } },
    examples: [
      {
        name: "two days",
        request: { params: ws, query: { from: "2026-11-20", to: "2026-11-21" } },
        response: {
          status: 200,
          body: {
            from: "2026-11-20",
            to: "2026-11-21",
            days: [
              { date: "2026-11-20", created: 4, closed: 2 },
              { date: "2026-11-21", created: 1, closed: 3 }
            ],
            totals: { created: 5, closed: 5, net: 0 }
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeOf(context, params.workspaceId, query)
        return yield* orDieSql(throughput(scope, yield* rangeOf(query)))
      })
  }),
  operation({
    service,
    tag,
    operationId: "getCycleTime",
    method: "GET",
    path: analytics("cycle-time"),
    summary: "How long finishing takes: cycle (first active → finished) and lead (created → finished) times of tasks finished in a range",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, ...RangeQueryFields, limit: LimitQuery(200, 20) }),
    responses: { 200: { description: "Statistics and the slowest tasks", schema: CycleTime } },
    examples: [
      {
        name: "cycle time",
        request: { params: ws, query: { days: "30" } },
        response: {
          status: 200,
          body: {
            from: "2026-10-23",
            to: "2026-11-21",
            count: 1,
            cycleHours: { average: 30, median: 30, p85: 30, min: 30, max: 30 },
            leadHours: { average: 52, median: 52, p85: 52, min: 52, max: 52 },
            items: [
              {
                taskId: ids.task,
                shortId: "T-42",
                name: "Ship the login page",
                createdAt: "2026-11-19T08:00:00.000Z",
                startedAt: "2026-11-20T06:00:00.000Z",
                closedAt: at0,
                cycleHours: 30,
                leadHours: 52
              }
            ]
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const scope = yield* scopeOf(context, params.workspaceId, query)
        return yield* orDieSql(cycleTime(scope, yield* rangeOf(query), query.limit ?? 20))
      })
  }),
  operation({
    service,
    tag,
    operationId: "getOverdueTasks",
    method: "GET",
    path: analytics("overdue"),
    summary: "Unfinished tasks past their due date, most overdue first, and how many each assignee has",
    auth: "both",
    scopes: read,
    params: WorkspaceParams,
    query: Schema.Struct({ ...ScopeQueryFields, limit: LimitQuery(200, 50) }),
    responses: { 200: { description: "Overdue tasks", schema: Overdue } },
    examples: [
      {
        name: "overdue",
        request: { params: ws },
        response: {
          status: 200,
          body: { total: 1, byAssignee: [{ user: exampleUser, count: 1 }], items: [{ daysOverdue: 2, task: exampleTask }] }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) => orDieSql(overdue(scope, query.limit ?? 50)))
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "blocks",
        request: { params: ws, query: { types: "blocks" } },
        response: {
          status: 200,
          body: {
            nodes: [
              { ...exampleSummary, inScope: true, degree: 1 },
              {
                ...exampleSummary,
                id: ids.task2,
                shortId: "T-43",
                name: "Design review",
                status: "to do",
                statusType: "open",
                inScope: true,
                degree: 1
              }
            ],
            edges: [{ id: ids.relationship, type: "blocks", source: ids.task, target: ids.task2 }],
            stats: {
              nodes: 2,
              edges: 1,
              byType: { blocks: 1, relates_to: 0, duplicates: 0 },
              blockedTasks: 1,
              longestBlockingChain: [ids.task, ids.task2]
            }
          }
        }
      }
    ],
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
    service,
    tag,
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
    examples: [
      {
        name: "votes",
        request: { params: ws },
        response: {
          status: 200,
          body: {
            totalVotes: 3,
            voters: 2,
            items: [
              {
                taskId: ids.task,
                shortId: "T-42",
                name: "Ship the login page",
                status: "to do",
                finished: false,
                listId: ids.list,
                votes: 2,
                votedByMe: true,
                share: 66.67,
                voters: [exampleUser]
              }
            ],
            reactions: [{ emoji: "👍", count: 4 }]
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.flatMap(scopeOf(context, params.workspaceId, query), (scope) =>
        orDieSql(votingResults(scope, query.limit ?? 20, query.includeFinished === "true"))
      )
  }),
  operation({
    service,
    tag,
    operationId: "setTaskVote",
    method: "PUT",
    path: "/v1/tasks/{taskId}/vote",
    summary: "Cast (vote: true) or withdraw (false) the caller's vote on a task; one vote per member and task",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id }),
    body: Schema.Struct({ vote: Schema.Boolean }),
    responses: { 200: { description: "The task's votes", schema: TaskVote } },
    examples: [
      {
        name: "vote",
        request: { params: { taskId: ids.task }, body: { vote: true } },
        response: { status: 200, body: { taskId: ids.task, votes: 3, votedByMe: true } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        return yield* send(PmTaskVotes, params.taskId, "setVote", caller.userId, { vote: body.vote })
      })
  }),
  // -- sprint charts --------------------------------------------------------------
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "burndown",
        request: { params: { sprintId: planningIds.sprint } },
        response: {
          status: 200,
          body: {
            sprintId: planningIds.sprint,
            name: "Web 12",
            status: "active",
            unit: "tasks",
            startDate: exampleSprint.startDate,
            endDate: exampleSprint.endDate,
            committed: 8,
            days: [
              { date: "2026-11-16", scope: 8, completed: 0, remaining: 8, ideal: 8 },
              { date: "2026-11-17", scope: 9, completed: 2, remaining: 7, ideal: 7.43 },
              { date: "2026-11-18", scope: null, completed: null, remaining: null, ideal: 6.86 }
            ],
            current: { scope: 9, completed: 2, remaining: 7 }
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.andThen(onSprint(context, params.sprintId), orDieSql(burndown(params.sprintId, query.unit ?? "tasks")))
  }),
  operation({
    service,
    tag,
    operationId: "getSprintVelocity",
    method: "GET",
    path: "/v1/spaces/{spaceId}/velocity",
    summary: "Velocity: committed and completed work of a space's last completed sprints (optionally one sprint group), with averages",
    auth: "both",
    scopes: read,
    params: Schema.Struct({ spaceId: Id }),
    query: Schema.Struct({ sprintGroupId: Schema.optionalKey(Id), limit: LimitQuery(50, 6) }),
    responses: { 200: { description: "Velocity", schema: Velocity } },
    examples: [
      {
        name: "velocity",
        request: { params: { spaceId: ids.space } },
        response: {
          status: 200,
          body: {
            sprints: [
              {
                sprintId: planningIds.sprint,
                name: "Web 12",
                sprintGroupId: planningIds.sprintGroup,
                startDate: exampleSprint.startDate,
                endDate: exampleSprint.endDate,
                completedAt: "2026-11-30T09:00:00.000Z",
                committedTasks: 8,
                completedTasks: 6,
                committedMinutes: 2400,
                completedMinutes: 1800,
                completionRate: 75
              }
            ],
            average: { completedTasks: 6, completedMinutes: 1800, completionRate: 75 }
          }
        }
      }
    ],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onSpace(context, params.spaceId)
        return yield* orDieSql(velocity(params.spaceId, query.sprintGroupId, query.limit ?? 6))
      })
  })
]
