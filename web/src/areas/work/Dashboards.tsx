/**
 * Dashboards: the workspace's list (shared ones and the caller's own) with a
 * form to create one over the workspace or a space; a dashboard's widgets,
 * each drawn from `getDashboardData` (computed from the live tasks), added,
 * removed, moved and resized in place (WidgetLayout.tsx). Task relationships
 * and task votes have widgets of their own; feature-request votes are not a
 * dashboard aggregate (a task shows those of the requests it delivers).
 * Live: a task event refetches the data (live/pmCache.ts).
 */
import { useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useEffect, useId, useState } from "react"
import { Link, useNavigate, useParams } from "react-router"
import { $api, client, data, messageOf } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { taskHref } from "../common/links.ts"
import { announce } from "../../ui/announce.tsx"
import { ErrorMessage, Loading } from "../../ui/Status.tsx"
import { LiveIndicator } from "./ListPage.tsx"
import { useHierarchy } from "./queries.ts"
import { RelationshipGraphWidget } from "./RelationshipGraphWidget.tsx"
import { type Burndown, BurndownChart, type Velocity, VelocityChart } from "./SprintCharts.tsx"
import { useCanPlan, useSpaceSprints } from "./Sprints.tsx"
import { cellStyle, LayoutControls, useWidgetLayout } from "./WidgetLayout.tsx"
import "../common/areas.css"
import "./sprints.css"

type Schemas = components["schemas"]
type WidgetData = Schemas["DashboardWidgetData"]
type WidgetType = WidgetData["type"]
type GroupBy = NonNullable<Schemas["WidgetConfig"]["groupBy"]>

const dashboardHref = (workspaceId: string, dashboardId: string) => `/w/${workspaceId}/work/dashboards/${dashboardId}`

const WIDGETS: ReadonlyArray<{ readonly type: WidgetType; readonly label: string; readonly needsSpace?: true }> = [
  { type: "task_count", label: "Tasks by…" },
  { type: "workload", label: "Workload per assignee" },
  { type: "throughput", label: "Created vs finished per day" },
  { type: "overdue", label: "Overdue tasks" },
  { type: "burndown", label: "Sprint burndown", needsSpace: true },
  { type: "velocity", label: "Velocity", needsSpace: true },
  { type: "relationship_graph", label: "Task relationships" },
  { type: "votes", label: "Most voted tasks" }
]
const GROUPS: ReadonlyArray<GroupBy> = ["status", "assignee", "priority", "tag", "list"]

const n = (value: number | string | null | undefined): number => (typeof value === "number" && Number.isFinite(value) ? value : 0)

/**
 * The widget's data in the shape its type is computed in (the server's
 * schema per type: TaskCountsBy, Workload, …); `data` is typed loosely only
 * because one field carries all of them.
 */
const shaped = <T,>(widget: WidgetData, ...keys: ReadonlyArray<string>): T | undefined => {
  const value = widget.data
  return typeof value === "object" && value !== null && keys.every((key) => key in value) ? (value as T) : undefined
}

/** Labelled counts as horizontal bars (SVG, one image named by the widget) with the numbers in a table. */
const Bars = ({
  title,
  rows
}: {
  readonly title: string
  readonly rows: ReadonlyArray<{ readonly label: string; readonly count: number }>
}) => {
  const id = useId()
  if (rows.length === 0) return <p className="muted">Nothing to count yet.</p>
  const max = Math.max(1, ...rows.map((r) => r.count))
  const rowH = 22
  const top = rows.reduce((best, r) => (r.count > best.count ? r : best), rows[0]!)
  return (
    <figure className="chart">
      <p id={`${id}-summary`} className="chart-summary">
        {`${rows.reduce((sum, r) => sum + r.count, 0)} in ${rows.length} ${rows.length === 1 ? "group" : "groups"}; most: ${top.label} (${top.count}).`}
      </p>
      <svg viewBox={`0 0 300 ${rows.length * rowH + 4}`} role="img" aria-describedby={`${id}-summary`} className="chart-svg bars">
        <title>{title}</title>
        {rows.map((r, i) => (
          <g key={r.label}>
            <text x={0} y={i * rowH + 15}>
              {r.label.length > 16 ? `${r.label.slice(0, 15)}…` : r.label}
            </text>
            <rect className="completed" x={110} y={i * rowH + 4} height={14} width={(r.count / max) * 160} />
            <text x={114 + (r.count / max) * 160} y={i * rowH + 15}>
              {r.count}
            </text>
          </g>
        ))}
      </svg>
      <table className="chart-table visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

const WidgetBody = ({ widget }: { readonly widget: WidgetData }) => {
  const { workspaceId = "" } = useParams()
  if (widget.error !== null) return <p className="error">{widget.error}</p>
  switch (widget.type) {
    case "task_count": {
      const counts = shaped<Schemas["TaskCountsBy"]>(widget, "items", "groupBy")
      return counts ? <Bars title={widget.title} rows={counts.items.map((i) => ({ label: i.label, count: n(i.count) }))} /> : null
    }
    case "distribution": {
      const spread = shaped<Schemas["TaskDistribution"]>(widget, "buckets")
      return spread ? <Bars title={widget.title} rows={spread.buckets.map((b) => ({ label: b.label, count: n(b.count) }))} /> : null
    }
    case "workload": {
      const load = shaped<Schemas["Workload"]>(widget, "items")
      return load ? (
        <Bars title={widget.title} rows={load.items.map((i) => ({ label: i.user?.name ?? "Unassigned", count: n(i.openTasks) }))} />
      ) : null
    }
    case "throughput": {
      const flow = shaped<Schemas["Throughput"]>(widget, "days", "totals")
      return flow ? (
        <p>{`${n(flow.totals.created)} created, ${n(flow.totals.closed)} finished (net ${n(flow.totals.net)}) from ${flow.from.slice(0, 10)} to ${flow.to.slice(0, 10)}.`}</p>
      ) : null
    }
    case "overdue": {
      const late = shaped<Schemas["OverdueTasks"]>(widget, "items", "total")
      if (!late) return null
      return late.items.length === 0 ? (
        <p className="muted">Nothing is overdue.</p>
      ) : (
        <ul className="plain">
          {late.items.map(({ task, daysOverdue }) => (
            <li key={task.id}>
              <Link to={taskHref(workspaceId, task.id)}>{task.name}</Link> <span className="overdue small">{n(daysOverdue)} days late</span>
            </li>
          ))}
        </ul>
      )
    }
    case "burndown": {
      const burndown = shaped<Burndown>(widget, "days", "committed")
      return burndown ? <BurndownChart burndown={burndown} /> : null
    }
    case "velocity": {
      const velocity = shaped<Velocity>(widget, "sprints", "average")
      return velocity ? <VelocityChart velocity={velocity} /> : null
    }
    case "relationship_graph": {
      const graph = shaped<Schemas["RelationshipGraph"]>(widget, "nodes", "edges", "stats")
      return graph ? <RelationshipGraphWidget graph={graph} /> : null
    }
    case "votes": {
      const votes = shaped<Schemas["VotingResults"]>(widget, "items", "totalVotes")
      if (!votes) return null
      return (
        <>
          <p>{`${n(votes.totalVotes)} votes from ${n(votes.voters)} ${n(votes.voters) === 1 ? "person" : "people"}.`}</p>
          <Bars title={widget.title} rows={votes.items.map((item) => ({ label: item.name, count: n(item.votes) }))} />
        </>
      )
    }
    case "cycle_time": {
      const cycle = shaped<Schemas["CycleTime"]>(widget, "cycleHours", "count")
      return cycle ? (
        <p>{`${n(cycle.count)} tasks finished; median cycle ${n(cycle.cycleHours.median)} h, 85th percentile ${n(cycle.cycleHours.p85)} h.`}</p>
      ) : null
    }
    default:
      return <p className="muted">This widget is read through the API (`GET /pm/v1/dashboards/{"{dashboardId}"}/data`).</p>
  }
}

const AddWidget = ({ dashboardId, spaceId }: { readonly dashboardId: string; readonly spaceId: string | null }) => {
  const queryClient = useQueryClient()
  const [type, setType] = useState<WidgetType>("task_count")
  const [error, setError] = useState("")
  const [busy, setBusy] = useState(false)
  const sprints = useSpaceSprints(spaceId ?? "")
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const groupBy = GROUPS.find((g) => g === form.get("groupBy")) ?? "status"
    const sprintId = String(form.get("sprintId") ?? "")
    if (type === "burndown" && sprintId === "") return setError("Choose the sprint")
    const config: Schemas["WidgetConfig"] = type === "task_count" ? { groupBy } : type === "burndown" ? { sprintId } : {}
    setBusy(true)
    setError("")
    try {
      const title = type === "task_count" ? `Tasks by ${groupBy}` : WIDGETS.find((w) => w.type === type)?.label
      data(
        await client.POST("/pm/v1/dashboards/{dashboardId}/widgets", {
          params: { path: { dashboardId } },
          body: { type, config, ...(title !== undefined ? { title } : {}) }
        })
      )
      await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[1]).startsWith("/pm/v1/dashboards/{dashboardId}") })
      announce("Widget added")
    } catch (cause) {
      setError(messageOf(cause))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details className="panel">
      <summary>Add a widget</summary>
      <form className="inline-form" onSubmit={submit}>
        <label className="field">
          <span>Widget</span>
          <select value={type} onChange={(event) => setType(WIDGETS.find((w) => w.type === event.target.value)?.type ?? "task_count")}>
            {WIDGETS.filter((w) => !w.needsSpace || spaceId !== null).map((w) => (
              <option key={w.type} value={w.type}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        {type === "task_count" ? (
          <label className="field">
            <span>Group by</span>
            <select name="groupBy" defaultValue="status">
              {GROUPS.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {type === "burndown" ? (
          <label className="field">
            <span>Sprint</span>
            <select name="sprintId">
              {sprints.data?.items.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit" disabled={busy}>
          Add widget
        </button>
      </form>
      <p className="error" role="alert">
        {error}
      </p>
    </details>
  )
}

export const DashboardPage = () => {
  const { workspaceId = "", dashboardId = "" } = useParams()
  const queryClient = useQueryClient()
  const dashboard = $api.useQuery("get", "/pm/v1/dashboards/{dashboardId}", { params: { path: { dashboardId } } })
  const widgets = $api.useQuery("get", "/pm/v1/dashboards/{dashboardId}/data", { params: { path: { dashboardId } } })
  const canEdit = useCanPlan(workspaceId)
  const [error, setError] = useState("")
  const placed = [...(dashboard.data?.widgets ?? [])]
  const layout = useWidgetLayout(dashboardId, placed)
  useEffect(() => {
    if (dashboard.data) document.title = `${dashboard.data.name} · Dashboards · Atrium`
  }, [dashboard.data])
  const remove = async (widget: WidgetData) => {
    setError("")
    try {
      data(
        await client.DELETE("/pm/v1/dashboards/{dashboardId}/widgets/{widgetId}", {
          params: { path: { dashboardId, widgetId: widget.widgetId } }
        })
      )
      await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[1]).startsWith("/pm/v1/dashboards/{dashboardId}") })
      announce(`${widget.title} removed`)
    } catch (cause) {
      setError(messageOf(cause))
    }
  }
  const change = (what: Promise<void>) => {
    setError("")
    what.catch((cause: unknown) => setError(messageOf(cause)))
  }
  // In the saved order (the data may be computed before a move is read back).
  const ordered = [...(widgets.data?.widgets ?? [])].sort(
    (a, b) => placed.findIndex((w) => w.id === a.widgetId) - placed.findIndex((w) => w.id === b.widgetId)
  )
  if (dashboard.error) return <ErrorMessage error={dashboard.error} what="The dashboard could not be loaded" />
  if (dashboard.isPending) return <Loading what="the dashboard" />
  return (
    <section className="area-page dashboard-page" aria-labelledby="dashboard-title">
      <p className="breadcrumb">
        <Link to={`/w/${workspaceId}/work/dashboards`}>All dashboards</Link>
      </p>
      <header className="list-header">
        <h1 id="dashboard-title">{dashboard.data.name}</h1>
        <LiveIndicator />
      </header>
      {dashboard.data.description !== "" ? <p>{dashboard.data.description}</p> : null}
      {canEdit ? <AddWidget dashboardId={dashboardId} spaceId={dashboard.data.spaceId} /> : null}
      <p className="error" role="alert">
        {error}
      </p>
      {widgets.error ? <ErrorMessage error={widgets.error} /> : null}
      {widgets.data?.widgets.length === 0 ? <p className="muted">No widgets yet.</p> : null}
      <div className="dashboard-grid">
        {ordered.map((widget, index) => {
          const place = placed.find((w) => w.id === widget.widgetId)
          return (
            <section key={widget.widgetId} className="panel" style={cellStyle(place)} aria-labelledby={`widget-${widget.widgetId}`}>
              <h2 id={`widget-${widget.widgetId}`}>{widget.title}</h2>
              <WidgetBody widget={widget} />
              {canEdit ? (
                <>
                  {place !== undefined ? (
                    <LayoutControls
                      widget={place}
                      first={index === 0}
                      last={index === ordered.length - 1}
                      onMove={(by) => change(layout.move(place, by))}
                      onResize={(size) => change(layout.resize(place, size))}
                    />
                  ) : null}
                  <button type="button" className="link" onClick={() => void remove(widget)}>
                    Remove <span className="visually-hidden">{widget.title}</span>
                  </button>
                </>
              ) : null}
            </section>
          )
        })}
      </div>
    </section>
  )
}

export const Dashboards = () => {
  const { workspaceId = "" } = useParams()
  const navigate = useNavigate()
  const list = $api.useQuery("get", "/pm/v1/workspaces/{workspaceId}/dashboards", { params: { path: { workspaceId } } })
  const hierarchy = useHierarchy(workspaceId)
  const canEdit = useCanPlan(workspaceId)
  const [error, setError] = useState("")
  useEffect(() => {
    document.title = "Dashboards · Work · Atrium"
  }, [])
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const name = String(form.get("name") ?? "").trim()
    const spaceId = String(form.get("spaceId") ?? "")
    if (name === "") return
    setError("")
    try {
      const created = data(
        await client.POST("/pm/v1/workspaces/{workspaceId}/dashboards", {
          params: { path: { workspaceId } },
          body: {
            name,
            ...(spaceId !== "" ? { scopeType: "space" as const, scopeId: spaceId } : {}),
            widgets: [{ type: "task_count", title: "Tasks by status", config: { groupBy: "status" } }]
          }
        })
      )
      navigate(dashboardHref(workspaceId, created.id))
    } catch (cause) {
      setError(messageOf(cause))
    }
  }
  return (
    <section className="area-page" aria-labelledby="dashboards-title">
      <h1 id="dashboards-title">Dashboards</h1>
      {list.error ? <ErrorMessage error={list.error} /> : null}
      {list.isPending ? <Loading what="dashboards" /> : null}
      {list.data?.items.length === 0 ? <p>No dashboards yet.</p> : null}
      <ul className="card-list">
        {list.data?.items.map((d) => (
          <li key={d.id} className="panel">
            <Link to={dashboardHref(workspaceId, d.id)} className="card-title">
              {d.name}
            </Link>{" "}
            <span className="muted small">
              {d.scopeType === "workspace" ? "whole workspace" : d.scopeType} · {d.widgets.length} widgets
            </span>
          </li>
        ))}
      </ul>
      {canEdit ? (
        <form className="inline-form panel" onSubmit={create}>
          <label className="field">
            <span>Dashboard name</span>
            <input name="name" required maxLength={200} />
          </label>
          <label className="field">
            <span>Over</span>
            <select name="spaceId" defaultValue="">
              <option value="">the whole workspace</option>
              {hierarchy.data?.spaces.map((s) => (
                <option key={s.id} value={s.id}>
                  space {s.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Create dashboard</button>
          <p className="error" role="alert">
            {error}
          </p>
        </form>
      ) : null}
    </section>
  )
}
