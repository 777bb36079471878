/**
 * pm tag "Dashboard (Lite)" (1): dashboard aggregates by names — a dashboard
 * named by name, or the standard overview of the workspace or of a space,
 * folder or list named by name (optionally one sprint by name): tasks by
 * status, priority and assignee (by e-mail), due dates, overdue tasks (with
 * names) and throughput. Unknown names answer 404 naming them; ambiguous
 * ones 409 listing the candidates.
 */
import { Effect, Schema } from "effect"
import { dashboardData, type WidgetData } from "../../actors/pm/DashboardData.ts"
import { listDashboards } from "../../actors/pm/Dashboards.ts"
import { countsBy, distribution, lastDays, type Overdue, overdue, throughput, type AggregateScope } from "../../actors/pm/TaskAggregates.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { NameRef, toLite, WorkspaceRef } from "./LiteShared.ts"
import { inWorkspace, orDieSql } from "./WorkAccess.ts"
import { liteScope, scopeLabels } from "./ViewsLite.ts"
import { onDashboard } from "./Dashboard.ts"
import { sprintsNamed } from "../../actors/pm/SprintRecords.ts"
import { dashboardLiteExamples } from "./DashboardLite.examples.ts"

const LiteWidget = Schema.Struct({
  title: Schema.String,
  type: Schema.String,
  data: Schema.NullOr(Schema.Unknown).annotate({ description: "The aggregate; tasks appear with names" }),
  error: Schema.NullOr(Schema.String)
}).annotate({ identifier: "LiteDashboardWidget" })

const LiteDashboard = Schema.Struct({
  dashboard: Schema.NullOr(Schema.String).annotate({ description: "The dashboard's name; null for the standard overview" }),
  scope: Schema.String,
  sprint: Schema.NullOr(Schema.String),
  generatedAt: Schema.String,
  widgets: Schema.Array(LiteWidget)
}).annotate({ identifier: "LiteDashboard" })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Overdue widgets show their tasks with names; every other aggregate already carries names, e-mails and short ids. */
const withNames = (widget: { type: string; data: unknown }) =>
  widget.type !== "overdue" || widget.data === null
    ? Effect.succeed(widget.data)
    : Effect.gen(function* () {
        const data = widget.data as Overdue
        const tasks = yield* toLite(data.items.map((i) => i.task))
        return { ...data, items: data.items.map((item, i) => ({ daysOverdue: item.daysOverdue, task: tasks[i]! })) }
      })

const { operation } = tagGroup("pm", "Dashboard (Lite)", dashboardLiteExamples)

export const dashboardLiteOperations = [
  operation({
    operationId: "getDashboardLite",
    method: "GET",
    path: "/v1/lite/dashboards",
    summary:
      "Dashboard aggregates by names: a dashboard by name, or the standard overview of the workspace, a space, folder or list (and sprint) by name",
    auth: "both",
    scopes: ["tasks:read"],
    query: Schema.Struct({
      workspaceId: WorkspaceRef,
      dashboard: Schema.optionalKey(NameRef.annotate({ description: "A dashboard by name or id; without it, the standard overview" })),
      space: Schema.optionalKey(NameRef),
      folder: Schema.optionalKey(NameRef),
      list: Schema.optionalKey(NameRef),
      sprint: Schema.optionalKey(NameRef.annotate({ description: "Narrows the overview to one sprint's tasks (by name)" }))
    }),
    responses: {
      200: { description: "The aggregates", schema: LiteDashboard },
      404: { description: "An unknown name" },
      409: { description: "An ambiguous name" }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* inWorkspace(context, q.workspaceId)
        const generatedAt = new Date().toISOString()
        if (q.dashboard !== undefined) {
          for (const key of ["space", "folder", "list", "sprint"] as const) {
            if (q[key] !== undefined)
              return yield* reject("invalid", `Invalid query.${key}: a dashboard brings its own scope`, [
                { path: `query.${key}`, message: "not with dashboard" }
              ])
          }
          const all = yield* orDieSql(listDashboards(q.workspaceId, caller.viewer))
          const ref = q.dashboard.trim()
          const matches = all.filter((d) => (UUID.test(ref) ? d.id === ref.toLowerCase() : d.name.toLowerCase() === ref.toLowerCase()))
          if (matches.length === 0)
            return yield* reject("not_found", `No dashboard named "${ref}"`, [
              { path: "query.dashboard", message: `no dashboard named "${ref}"` }
            ])
          if (matches.length > 1) {
            return yield* reject(
              "conflict",
              `"${ref}" names ${matches.length} dashboards; use its id`,
              matches.map((d) => ({ path: "query.dashboard", message: `candidate: ${d.name} [${d.id}]` }))
            )
          }
          const { dashboard } = yield* onDashboard(context, matches[0]!.id)
          const data = yield* orDieSql(dashboardData(dashboard, caller.viewer))
          const labels = yield* orDieSql(scopeLabels([dashboard]))
          const widgets = yield* Effect.forEach(data, (w: WidgetData) =>
            Effect.map(orDieSql(withNames(w)), (named) => ({ title: w.title, type: w.type, data: named, error: w.error }))
          )
          return {
            dashboard: dashboard.name,
            scope: labels.get(dashboard.scopeId) ?? dashboard.scopeType,
            sprint: null,
            generatedAt,
            widgets
          }
        }
        const where = {
          ...(q.space !== undefined ? { space: q.space } : {}),
          ...(q.folder !== undefined ? { folder: q.folder } : {}),
          ...(q.list !== undefined ? { list: q.list } : {})
        }
        const scope = yield* liteScope(context, q.workspaceId, where, "viewer", "query")
        let sprint: { id: string; name: string } | undefined
        if (q.sprint !== undefined) {
          const ref = q.sprint.trim()
          const sprints = yield* orDieSql(sprintsNamed(q.workspaceId, caller.viewer, scope.spaceId, ref))
          if (sprints.length === 0)
            return yield* reject("not_found", `No sprint named "${ref}"`, [{ path: "query.sprint", message: `no sprint named "${ref}"` }])
          if (sprints.length > 1)
            return yield* reject(
              "conflict",
              `"${ref}" names ${sprints.length} sprints; name the space`,
              sprints.map((s) => ({ path: "query.sprint", message: `candidate: ${s.name} in ${s.space} [${s.id}]` }))
            )
          sprint = sprints[0]!
        }
        const aggregate: AggregateScope = {
          workspaceId: q.workspaceId,
          viewer: caller.viewer,
          scopeType: scope.scopeType,
          scopeId: scope.scopeId,
          ...(sprint ? { sprintId: sprint.id } : {})
        }
        const run = <A>(title: string, type: string, effect: Effect.Effect<A, any, any>) =>
          Effect.flatMap(orDieSql(effect), (data) =>
            Effect.map(orDieSql(withNames({ type, data })), (named) => ({ title, type, data: named, error: null }))
          )
        const widgets = [
          yield* run("By status", "task_count", countsBy(aggregate, "status")),
          yield* run("By priority", "task_count", countsBy(aggregate, "priority")),
          yield* run("By assignee", "task_count", countsBy(aggregate, "assignee")),
          yield* run("Due dates", "distribution", distribution(aggregate, "due_date")),
          yield* run("Overdue", "overdue", overdue(aggregate, 20)),
          yield* run("Throughput, last 14 days", "throughput", throughput(aggregate, lastDays(14)))
        ]
        return { dashboard: null, scope: scope.label, sprint: sprint?.name ?? null, generatedAt, widgets }
      })
  })
]
