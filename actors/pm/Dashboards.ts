/**
 * Dashboards: a named board of widgets over a scope (the workspace, or one
 * space, folder or list). Widgets store only what to compute (their type and
 * configuration); their data is computed on every read (`DashboardData.ts`).
 * Private dashboards are seen by their creator only; the commands run in the
 * workspace's dashboards actor.
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { change } from "./Changes.ts"
import {
  DashboardNotFound,
  DeleteByCreatorOrAdmin,
  InvalidFieldValue,
  PrivacyByCreatorOnly,
  SprintGroupNotFound,
  SprintNotFound,
  TooManyWidgets,
  WidgetNotFound
} from "./PlanningErrors.ts"
import { NotWorkspaceMembers, PlaceNotFound } from "./PmErrors.ts"
import { BurndownUnit } from "./SprintCharts.ts"
import { groupRow, sprintRow } from "./SprintRecords.ts"
import { CountDimension, DistributionField, GraphRelationType } from "./TaskAggregates.ts"
import { checkCriteria, TaskCriteria } from "./TaskCriteria.ts"
import { scopeAlive, scopeChain, ViewScopeType } from "./ViewRecords.ts"
import { visibleSpace, type Viewer } from "./StructureReads.ts"
import { command } from "./WorkActor.ts"

export const widgetTypes = [
  "task_count",
  "distribution",
  "workload",
  "throughput",
  "cycle_time",
  "overdue",
  "burndown",
  "velocity",
  "relationship_graph",
  "votes"
] as const
export const WidgetType = Schema.Literals(widgetTypes).annotate({
  description:
    "task_count: tasks by a dimension; distribution: due dates, estimates or age; workload: open work per assignee; throughput: created vs finished per day; cycle_time: how long finishing takes; overdue: late tasks; burndown: a sprint's remaining work per day; velocity: completed sprints; relationship_graph: tasks and their links; votes: voting results"
})
export type WidgetType = typeof WidgetType.Type

export const WidgetConfig = Schema.Struct({
  groupBy: Schema.optionalKey(CountDimension),
  field: Schema.optionalKey(DistributionField),
  days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 366 }))),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
  sprintId: Schema.optionalKey(Id),
  sprintGroupId: Schema.optionalKey(Id),
  unit: Schema.optionalKey(BurndownUnit),
  types: Schema.optionalKey(Schema.Array(GraphRelationType).check(Schema.isMinLength(1), Schema.isMaxLength(3))),
  capacityMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))),
  criteria: Schema.optionalKey(TaskCriteria)
}).annotate({
  identifier: "WidgetConfig",
  description:
    "What the widget computes: groupBy (task_count), field (distribution), days (throughput, cycle_time), limit, sprintId (burndown; narrows others to the sprint), sprintGroupId (velocity), unit (burndown), types (relationship_graph), capacityMinutes (workload), criteria (narrows the tasks)"
})
export type WidgetConfig = typeof WidgetConfig.Type

const Size = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 12 }))
const WidgetSize = { width: Schema.optionalKey(Size.annotate({ description: "Grid columns of 12" })), height: Schema.optionalKey(Size) }

export const Widget = Schema.Struct({
  id: Id,
  type: WidgetType,
  title: Schema.String,
  config: WidgetConfig,
  position: Schema.Number,
  width: Schema.Number,
  height: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "DashboardWidget" })
export type Widget = typeof Widget.Type

export const Dashboard = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  description: Schema.String,
  scopeType: ViewScopeType,
  scopeId: Id,
  spaceId: Schema.NullOr(Id),
  isPrivate: Schema.Boolean,
  widgets: Schema.Array(Widget),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Dashboard" })
export type Dashboard = typeof Dashboard.Type

type Step<A, E> = Effect.Effect<A, E | SqlError, Sql>

const dashboardColumns = `d.id, d.workspace_id AS "workspaceId", d.name, d.description, d.scope_type AS "scopeType", d.scope_id AS "scopeId",
  d.space_id AS "spaceId", d.is_private AS "isPrivate", d.created_by AS "createdBy", d.created_at AS "createdAt", d.updated_at AS "updatedAt"`
/** The dashboard's widgets in order, as one JSON column (read with the dashboard, in the same statement). */
const widgetsColumn = `COALESCE((SELECT json_agg(json_build_object('id', w.id, 'type', w.type, 'title', w.title, 'config', w.config, 'position', w.position,
    'width', w.width, 'height', w.height, 'createdAt', ${isoTimestampSql("w.created_at")}, 'updatedAt', ${isoTimestampSql("w.updated_at")})
    ORDER BY w.position, w.created_at, w.id) FROM pm_dashboard_widgets w WHERE w.dashboard_id = d.id), '[]') AS widgets`

/** A dashboard the user may see (private ones only their creator's; its scope alive), else 404. */
export const getDashboard = (dashboardId: string, userId: string): Step<Dashboard, DashboardNotFound> =>
  Effect.gen(function* () {
    const rows = yield* query<Dashboard>(
      `SELECT ${dashboardColumns}, ${widgetsColumn} FROM pm_dashboards d WHERE d.id = $1 AND (NOT d.is_private OR d.created_by = $2) AND ${scopeAlive("d")}`,
      [dashboardId, userId]
    )
    if (rows[0] === undefined) return yield* new DashboardNotFound()
    return rows[0]
  })

/** Dashboards of a workspace the viewer may see (visible spaces; shared or their own), optionally of one scope. */
export const listDashboards = (
  workspaceId: string,
  viewer: Viewer,
  scope?: { readonly scopeType: ViewScopeType; readonly scopeId: string }
) =>
  Effect.map(
    query<Dashboard>(
      `SELECT ${dashboardColumns}, ${widgetsColumn} FROM pm_dashboards d LEFT JOIN pm_spaces s ON s.id = d.space_id
        WHERE d.workspace_id = $1 AND (NOT d.is_private OR d.created_by = $2) AND ${scopeAlive("d")} AND (d.space_id IS NULL OR ${visibleSpace("s", 2, 3)})
          AND ($4::text IS NULL OR (d.scope_type = $4 AND d.scope_id = $5))
        ORDER BY lower(d.name), d.created_at, d.id`,
      [workspaceId, viewer.userId, viewer.admin, scope?.scopeType ?? null, scope?.scopeId ?? null]
    ),
    (rows) => [...rows]
  )

export const WidgetInput = Schema.Struct({
  type: WidgetType,
  title: Schema.optionalKey(Name(100)),
  config: Schema.optionalKey(WidgetConfig),
  ...WidgetSize
})
export type WidgetInput = typeof WidgetInput.Type

/** A widget added to a dashboard, at `position` (default last). */
export const PlacedWidget = Schema.Struct({ ...WidgetInput.fields, position: Schema.optionalKey(Schema.Finite) })

export const WidgetPatch = Schema.Struct({
  title: Schema.optionalKey(Name(100)),
  config: Schema.optionalKey(WidgetConfig),
  position: Schema.optionalKey(Schema.Finite),
  ...WidgetSize
})

const Description = Schema.String.check(Schema.isMaxLength(5000))

export const DashboardInput = Schema.Struct({
  name: Name(100),
  description: Schema.optionalKey(Description),
  scopeType: ViewScopeType,
  scopeId: Id,
  isPrivate: Schema.optionalKey(Schema.Boolean),
  widgets: Schema.optionalKey(Schema.Array(WidgetInput).check(Schema.isMaxLength(50)))
})

export const DashboardPatch = Schema.Struct({
  name: Schema.optionalKey(Name(100)),
  description: Schema.optionalKey(Description),
  isPrivate: Schema.optionalKey(Schema.Boolean)
})

const WidgetRef = Schema.Struct({ dashboardId: Id, widgetId: Id })

const defaultTitles: Record<WidgetType, string> = {
  task_count: "Tasks",
  distribution: "Distribution",
  workload: "Workload",
  throughput: "Throughput",
  cycle_time: "Cycle time",
  overdue: "Overdue tasks",
  burndown: "Sprint burndown",
  velocity: "Velocity",
  relationship_graph: "Dependencies",
  votes: "Most wanted"
}

/** Checks a widget's configuration against its type and the workspace; returns it with its defaults. */
const checkWidget = (workspaceId: string, scopeType: ViewScopeType, type: WidgetType, config: WidgetConfig, prefix: string) =>
  Effect.gen(function* () {
    const invalid = (key: string, problem: string) => new InvalidFieldValue({ field: `${prefix}.${key}`, problem })
    const allowed: Record<WidgetType, ReadonlyArray<keyof WidgetConfig>> = {
      task_count: ["groupBy", "sprintId", "criteria"],
      distribution: ["field", "sprintId", "criteria"],
      workload: ["capacityMinutes", "sprintId", "criteria"],
      throughput: ["days", "sprintId", "criteria"],
      cycle_time: ["days", "limit", "sprintId", "criteria"],
      overdue: ["limit", "sprintId", "criteria"],
      burndown: ["sprintId", "unit"],
      velocity: ["sprintGroupId", "limit"],
      relationship_graph: ["types", "sprintId", "criteria"],
      votes: ["limit", "sprintId", "criteria"]
    }
    for (const key of Object.keys(config) as Array<keyof WidgetConfig>) {
      if (!allowed[type].includes(key)) return yield* invalid(key, `a ${type} widget does not take ${key}`)
    }
    const out: { -readonly [K in keyof WidgetConfig]: WidgetConfig[K] } = { ...config }
    if (config.sprintId !== undefined) {
      const missing = new SprintNotFound({ field: `${prefix}.sprintId` })
      const sprint = yield* Effect.mapError(sprintRow(config.sprintId), () => missing)
      if (sprint.workspaceId !== workspaceId) return yield* missing
    }
    if (config.sprintGroupId !== undefined) {
      const missing = new SprintGroupNotFound({ field: `${prefix}.sprintGroupId` })
      const group = yield* Effect.mapError(groupRow(config.sprintGroupId), () => missing)
      if (group.workspaceId !== workspaceId) return yield* missing
    }
    if (config.criteria !== undefined) out.criteria = yield* checkCriteria(workspaceId, config.criteria, `${prefix}.criteria`)
    if (type === "task_count") out.groupBy ??= "status"
    if (type === "distribution") out.field ??= "due_date"
    if (type === "throughput" || type === "cycle_time") out.days ??= 14
    if (type === "burndown" && config.sprintId === undefined) return yield* invalid("sprintId", "a burndown widget needs a sprint")
    if (type === "velocity" && config.sprintGroupId === undefined && scopeType === "workspace") {
      return yield* invalid("sprintGroupId", "a velocity widget on a workspace dashboard needs a sprint group")
    }
    return out as WidgetConfig
  })

const dashboardOfWorkspace = (workspaceId: string, dashboardId: string, by: string) =>
  Effect.flatMap(getDashboard(dashboardId, by), (d) =>
    d.workspaceId === workspaceId ? Effect.succeed(d) : Effect.fail(new DashboardNotFound())
  )

const whereOf = (d: { workspaceId: string; spaceId: string | null }) => ({ workspaceId: d.workspaceId, spaceId: d.spaceId })
const described = (d: { name: string; isPrivate: boolean }) => (d.isPrivate ? { private: true } : { name: d.name })

const insertWidget = (dashboardId: string, widget: WidgetInput & { readonly config: WidgetConfig }, position: number, by: string) => {
  const id = crypto.randomUUID()
  return Effect.as(
    query(
      `INSERT INTO pm_dashboard_widgets (id, dashboard_id, type, title, config, position, width, height, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        dashboardId,
        widget.type,
        widget.title?.trim() ?? defaultTitles[widget.type],
        widget.config,
        position,
        widget.width ?? 6,
        widget.height ?? 4,
        by
      ]
    ),
    id
  )
}

/** What a dashboard command may refuse with. */
const DashboardRefused = Schema.Union([
  DashboardNotFound,
  WidgetNotFound,
  TooManyWidgets,
  PrivacyByCreatorOnly,
  DeleteByCreatorOrAdmin,
  InvalidFieldValue,
  NotWorkspaceMembers,
  PlaceNotFound,
  SprintNotFound,
  SprintGroupNotFound
])

export const dashboardCommands = {
  createDashboard: command(DashboardInput, Dashboard, DashboardRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const chain = yield* scopeChain(workspaceId, input.scopeType, input.scopeId)
      if (chain.workspaceId !== workspaceId) return yield* new PlaceNotFound({ what: input.scopeType, field: "body.scopeId" })
      const widgets: Array<WidgetInput & { config: WidgetConfig }> = []
      for (const [index, widget] of (input.widgets ?? []).entries()) {
        widgets.push({
          ...widget,
          config: yield* checkWidget(workspaceId, input.scopeType, widget.type, widget.config ?? {}, `body.widgets.${index}.config`)
        })
      }
      const id = crypto.randomUUID()
      yield* query(
        `INSERT INTO pm_dashboards (id, workspace_id, name, description, scope_type, scope_id, space_id, is_private, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          id,
          workspaceId,
          input.name.trim(),
          input.description ?? "",
          input.scopeType,
          input.scopeId,
          chain.spaceId,
          input.isPrivate ?? false,
          by
        ]
      )
      for (const [index, widget] of widgets.entries()) yield* insertWidget(id, widget, index + 1, by)
      const dashboard = yield* getDashboard(id, by)
      return {
        result: dashboard,
        changes: [change(whereOf(dashboard), "dashboard.created", id, { ...described(dashboard), widgets: widgets.length }, by)]
      }
    })
  ),

  updateDashboard: command(
    Schema.Struct({ dashboardId: Id, ...DashboardPatch.fields }),
    Dashboard,
    DashboardRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const dashboard = yield* dashboardOfWorkspace(workspaceId, input.dashboardId, by)
        if (input.isPrivate !== undefined && input.isPrivate !== dashboard.isPrivate && dashboard.createdBy !== by) {
          return yield* new PrivacyByCreatorOnly({ what: "dashboard" })
        }
        yield* query(`UPDATE pm_dashboards SET name = $2, description = $3, is_private = $4, updated_at = now() WHERE id = $1`, [
          dashboard.id,
          input.name?.trim() ?? dashboard.name,
          input.description ?? dashboard.description,
          input.isPrivate ?? dashboard.isPrivate
        ])
        const updated = yield* getDashboard(dashboard.id, by)
        const { dashboardId: _d, ...patch } = input
        return {
          result: updated,
          changes: [change(whereOf(updated), "dashboard.updated", updated.id, { ...described(updated), changed: Object.keys(patch) }, by)]
        }
      })
  ),

  deleteDashboard: command(
    Schema.Struct({ dashboardId: Id, admin: Schema.Boolean }),
    Schema.Void,
    DashboardRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const dashboard = yield* dashboardOfWorkspace(workspaceId, input.dashboardId, by)
        if (dashboard.createdBy !== by && !input.admin) return yield* new DeleteByCreatorOrAdmin({ what: "dashboard" })
        yield* query(`DELETE FROM pm_dashboards WHERE id = $1`, [dashboard.id])
        return { result: undefined, changes: [change(whereOf(dashboard), "dashboard.deleted", dashboard.id, described(dashboard), by)] }
      })
  ),

  addWidget: command(Schema.Struct({ dashboardId: Id, ...PlacedWidget.fields }), Dashboard, DashboardRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const dashboard = yield* dashboardOfWorkspace(workspaceId, input.dashboardId, by)
      if (dashboard.widgets.length >= 50) return yield* new TooManyWidgets({ max: 50 })
      const config = yield* checkWidget(workspaceId, dashboard.scopeType, input.type, input.config ?? {}, "body.config")
      const last = dashboard.widgets.reduce((max, w) => Math.max(max, w.position), 0)
      const widgetId = yield* insertWidget(dashboard.id, { ...input, config }, input.position ?? last + 1, by)
      yield* query(`UPDATE pm_dashboards SET updated_at = now() WHERE id = $1`, [dashboard.id])
      return {
        result: yield* getDashboard(dashboard.id, by),
        changes: [change(whereOf(dashboard), "dashboard.widget_added", dashboard.id, { widgetId, type: input.type }, by)]
      }
    })
  ),

  updateWidget: command(
    Schema.Struct({ ...WidgetRef.fields, ...WidgetPatch.fields }),
    Dashboard,
    DashboardRefused,
    (input, by, workspaceId) =>
      Effect.gen(function* () {
        const dashboard = yield* dashboardOfWorkspace(workspaceId, input.dashboardId, by)
        const widget = dashboard.widgets.find((w) => w.id === input.widgetId)
        if (widget === undefined) return yield* new WidgetNotFound()
        const config =
          input.config === undefined
            ? widget.config
            : yield* checkWidget(workspaceId, dashboard.scopeType, widget.type, input.config, "body.config")
        yield* query(
          `UPDATE pm_dashboard_widgets SET title = $2, config = $3, position = $4, width = $5, height = $6, updated_at = now() WHERE id = $1`,
          [
            widget.id,
            input.title?.trim() ?? widget.title,
            config,
            input.position ?? widget.position,
            input.width ?? widget.width,
            input.height ?? widget.height
          ]
        )
        yield* query(`UPDATE pm_dashboards SET updated_at = now() WHERE id = $1`, [dashboard.id])
        const { dashboardId: _d, widgetId: _w, ...patch } = input
        return {
          result: yield* getDashboard(dashboard.id, by),
          changes: [
            change(whereOf(dashboard), "dashboard.widget_updated", dashboard.id, { widgetId: widget.id, changed: Object.keys(patch) }, by)
          ]
        }
      })
  ),

  deleteWidget: command(WidgetRef, Schema.Void, DashboardRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      const dashboard = yield* dashboardOfWorkspace(workspaceId, input.dashboardId, by)
      const deleted = yield* query(`DELETE FROM pm_dashboard_widgets WHERE id = $1 AND dashboard_id = $2 RETURNING id`, [
        input.widgetId,
        dashboard.id
      ])
      if (deleted.length === 0) return yield* new WidgetNotFound()
      yield* query(`UPDATE pm_dashboards SET updated_at = now() WHERE id = $1`, [dashboard.id])
      return {
        result: undefined,
        changes: [change(whereOf(dashboard), "dashboard.widget_removed", dashboard.id, { widgetId: input.widgetId }, by)]
      }
    })
  )
}
