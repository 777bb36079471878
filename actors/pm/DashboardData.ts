/**
 * What dashboards show, computed on every read: each widget's data from its
 * type and configuration over its dashboard's scope, and the workspace
 * overview. A widget whose sprint or group is gone (or hidden from the
 * viewer) answers its error instead of data; the others still compute.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { query } from "../../persistence/Sql.ts"
import { SprintGroupNotFound, SprintNotFound } from "./PlanningErrors.ts"
import type { Dashboard, Widget } from "./Dashboards.ts"
import { WidgetType } from "./Dashboards.ts"
import { burndown, velocity } from "./SprintCharts.ts"
import { activeSprintsOf, Sprint } from "./SprintRecords.ts"
import { visibleSpace, type Viewer } from "./StructureReads.ts"
import {
  type AggregateScope,
  countsBy,
  cycleTime,
  distribution,
  lastDays,
  overdue,
  relationshipGraph,
  throughput,
  votingResults,
  workload
} from "./TaskAggregates.ts"
import { filterSql, taskFrom } from "./TaskReads.ts"

export const WidgetData = Schema.Struct({
  widgetId: Id,
  type: WidgetType,
  title: Schema.String,
  data: Schema.NullOr(Schema.Unknown).annotate({ description: "The widget's aggregate (the shape of the matching analytics operation)" }),
  error: Schema.NullOr(Schema.String)
}).annotate({ identifier: "DashboardWidgetData" })
export type WidgetData = typeof WidgetData.Type

/** The sprint, if the viewer may see its space in this workspace (else 404). */
export const visibleSprint = (sprintId: string, workspaceId: string, viewer: Viewer) =>
  Effect.gen(function* () {
    const rows = yield* query<{ spaceId: string }>(
      `SELECT sp.space_id AS "spaceId" FROM pm_sprints sp JOIN pm_spaces s ON s.id = sp.space_id
        WHERE sp.id = $1 AND sp.workspace_id = $2 AND s.deleted_at IS NULL AND ${visibleSpace("s", 3, 4)}`,
      [sprintId, workspaceId, viewer.userId, viewer.admin]
    )
    if (rows[0] === undefined) return yield* new SprintNotFound()
    return rows[0]
  })

const visibleGroupSpace = (groupId: string, workspaceId: string, viewer: Viewer) =>
  Effect.gen(function* () {
    const rows = yield* query<{ spaceId: string }>(
      `SELECT g.space_id AS "spaceId" FROM pm_sprint_groups g JOIN pm_spaces s ON s.id = g.space_id
        WHERE g.id = $1 AND g.workspace_id = $2 AND s.deleted_at IS NULL AND ${visibleSpace("s", 3, 4)}`,
      [groupId, workspaceId, viewer.userId, viewer.admin]
    )
    if (rows[0] === undefined) return yield* new SprintGroupNotFound()
    return rows[0].spaceId
  })

const compute = (dashboard: Dashboard, widget: Widget, viewer: Viewer) =>
  Effect.gen(function* () {
    const config = widget.config
    if (config.sprintId !== undefined) yield* visibleSprint(config.sprintId, dashboard.workspaceId, viewer)
    const scope: AggregateScope = {
      workspaceId: dashboard.workspaceId,
      viewer,
      scopeType: dashboard.scopeType,
      scopeId: dashboard.scopeId,
      ...(config.sprintId !== undefined && widget.type !== "burndown" ? { sprintId: config.sprintId } : {}),
      ...(config.criteria !== undefined ? { criteria: config.criteria } : {})
    }
    switch (widget.type) {
      case "task_count":
        return yield* countsBy(scope, config.groupBy ?? "status")
      case "distribution":
        return yield* distribution(scope, config.field ?? "due_date")
      case "workload":
        return yield* workload(scope, config.capacityMinutes)
      case "throughput":
        return yield* throughput(scope, lastDays(config.days ?? 14))
      case "cycle_time":
        return yield* cycleTime(scope, lastDays(config.days ?? 14), config.limit ?? 20)
      case "overdue":
        return yield* overdue(scope, config.limit ?? 20)
      case "burndown":
        return yield* burndown(config.sprintId!, config.unit ?? "tasks")
      case "velocity": {
        const spaceId =
          config.sprintGroupId !== undefined
            ? yield* visibleGroupSpace(config.sprintGroupId, dashboard.workspaceId, viewer)
            : dashboard.spaceId!
        return yield* velocity(spaceId, config.sprintGroupId, config.limit ?? 6)
      }
      case "relationship_graph":
        return yield* relationshipGraph(scope, config.types ?? ["blocks", "relates_to", "duplicates"])
      case "votes":
        return yield* votingResults(scope, config.limit ?? 10, false)
    }
  })

/** Every widget's data, in the dashboard's order. */
export const dashboardData = (dashboard: Dashboard, viewer: Viewer) =>
  Effect.forEach(dashboard.widgets, (widget) =>
    compute(dashboard, widget, viewer).pipe(
      Effect.map((data): WidgetData => ({ widgetId: widget.id, type: widget.type, title: widget.title, data, error: null })),
      Effect.catchTag(["SprintNotFound", "SprintGroupNotFound"], (e) =>
        Effect.succeed<WidgetData>({ widgetId: widget.id, type: widget.type, title: widget.title, data: null, error: e.message })
      )
    )
  )

// ---------------------------------------------------------------------------
// The workspace overview

export const WorkspaceOverview = Schema.Struct({
  workspaceId: Id,
  generatedAt: Timestamp,
  totals: Schema.Struct({
    tasks: Schema.Number,
    unfinished: Schema.Number,
    finished: Schema.Number,
    overdue: Schema.Number,
    dueToday: Schema.Number,
    dueThisWeek: Schema.Number,
    unassigned: Schema.Number.annotate({ description: "Unfinished tasks without an assignee" })
  }),
  byStatusType: Schema.Struct({ open: Schema.Number, active: Schema.Number, done: Schema.Number, closed: Schema.Number }),
  spaces: Schema.Array(
    Schema.Struct({ spaceId: Id, name: Schema.String, tasks: Schema.Number, unfinished: Schema.Number, overdue: Schema.Number })
  ),
  lastSevenDays: Schema.Struct({ created: Schema.Number, closed: Schema.Number }),
  myWork: Schema.Struct({ assigned: Schema.Number, overdue: Schema.Number, dueThisWeek: Schema.Number }),
  activeSprints: Schema.Array(Sprint),
  mostVoted: Schema.Array(Schema.Struct({ taskId: Id, shortId: Schema.String, name: Schema.String, votes: Schema.Number })),
  dashboards: Schema.Number.annotate({ description: "Dashboards the caller can open in this workspace" })
}).annotate({ identifier: "WorkspaceOverview" })
export type WorkspaceOverview = typeof WorkspaceOverview.Type

export const workspaceOverview = (workspaceId: string, viewer: Viewer, dashboards: number) =>
  Effect.gen(function* () {
    const scope: AggregateScope = { workspaceId, viewer, scopeType: "workspace", scopeId: workspaceId }
    const params: Array<unknown> = []
    const where = filterSql({ workspaceId, viewer, archived: "exclude" }, params)
    params.push(viewer.userId)
    const me = `$${params.length}`
    params.push(workspaceId, viewer.userId, viewer.admin)
    const [ws, user, admin] = [params.length - 2, params.length - 1, params.length]
    // Every visible space shows, those without tasks too; archived spaces still holding unarchived tasks count in the totals, listed last.
    const spaces = yield* query<{
      spaceId: string
      name: string
      tasks: number
      unfinished: number
      overdue: number
      today: number
      week: number
      unassigned: number
      mine: number
      myOverdue: number
      myWeek: number
    }>(
      `WITH g AS (
         SELECT t.space_id, count(*)::int AS tasks,
              count(*) FILTER (WHERE t.closed_at IS NULL)::int AS unfinished,
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date < now())::int AS overdue,
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date >= date_trunc('day', now()) AND t.due_date < date_trunc('day', now()) + interval '1 day')::int AS today,
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date >= now() AND t.due_date < now() + interval '7 days')::int AS week,
              count(*) FILTER (WHERE t.closed_at IS NULL AND NOT EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id))::int AS unassigned,
              count(*) FILTER (WHERE t.closed_at IS NULL AND EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id AND a.user_id = ${me}))::int AS mine,
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date < now() AND EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id AND a.user_id = ${me}))::int AS "myOverdue",
              count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date >= now() AND t.due_date < now() + interval '7 days'
                               AND EXISTS (SELECT 1 FROM pm_task_assignees a WHERE a.task_id = t.id AND a.user_id = ${me}))::int AS "myWeek"
           ${taskFrom} WHERE ${where} GROUP BY t.space_id)
       SELECT s.id AS "spaceId", s.name, COALESCE(g.tasks, 0) AS tasks, COALESCE(g.unfinished, 0) AS unfinished, COALESCE(g.overdue, 0) AS overdue,
              COALESCE(g.today, 0) AS today, COALESCE(g.week, 0) AS week, COALESCE(g.unassigned, 0) AS unassigned, COALESCE(g.mine, 0) AS mine,
              COALESCE(g."myOverdue", 0) AS "myOverdue", COALESCE(g."myWeek", 0) AS "myWeek"
         FROM pm_spaces s LEFT JOIN g ON g.space_id = s.id
        WHERE s.workspace_id = $${ws} AND s.deleted_at IS NULL AND ${visibleSpace("s", user, admin)} AND (s.archived_at IS NULL OR g.space_id IS NOT NULL)
        ORDER BY s.archived_at IS NOT NULL, s.position, CASE WHEN s.archived_at IS NULL THEN NULL ELSE s.name END, s.created_at`,
      params
    )
    const sum = (pick: (r: (typeof spaces)[number]) => number) => spaces.reduce((total, r) => total + pick(r), 0)
    const types = yield* countsBy(scope, "status_type")
    const type = (key: string) => types.items.find((i) => i.key === key)?.count ?? 0
    const week = yield* throughput(scope, lastDays(7))
    const activeSprints = yield* activeSprintsOf(workspaceId, viewer)
    const votes = yield* votingResults(scope, 5, false)
    return {
      workspaceId,
      generatedAt: new Date().toISOString(),
      totals: {
        tasks: sum((r) => r.tasks),
        unfinished: sum((r) => r.unfinished),
        finished: sum((r) => r.tasks - r.unfinished),
        overdue: sum((r) => r.overdue),
        dueToday: sum((r) => r.today),
        dueThisWeek: sum((r) => r.week),
        unassigned: sum((r) => r.unassigned)
      },
      byStatusType: { open: type("open"), active: type("active"), done: type("done"), closed: type("closed") },
      spaces: spaces.map((r) => ({ spaceId: r.spaceId, name: r.name, tasks: r.tasks, unfinished: r.unfinished, overdue: r.overdue })),
      lastSevenDays: { created: week.totals.created, closed: week.totals.closed },
      myWork: { assigned: sum((r) => r.mine), overdue: sum((r) => r.myOverdue), dueThisWeek: sum((r) => r.myWeek) },
      activeSprints,
      mostVoted: votes.items.map((i) => ({ taskId: i.taskId, shortId: i.shortId, name: i.name, votes: i.votes })),
      dashboards
    } satisfies WorkspaceOverview
  })
