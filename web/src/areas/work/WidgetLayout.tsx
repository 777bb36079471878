/**
 * A dashboard's layout: widgets in order on a grid of 12 columns, each as
 * wide (1–12 columns) and tall (1–12 rows) as it is saved. Planners move a
 * widget earlier or later and resize it with buttons (keyboard operable,
 * named after the widget); each change is saved through the widget
 * operation (positions renumbered 1..n in the new order) and the dashboard
 * reread; changes asked in quick succession apply one after another, each
 * on top of the last. On a phone every widget takes the whole width.
 */
import { useQueryClient } from "@tanstack/react-query"
import { type CSSProperties, useRef } from "react"
import { client, data } from "../../api/client.ts"
import type { components } from "../../api/generated/pm.ts"
import { movedBy } from "../common/reorder.ts"
import { announce } from "../../ui/announce.tsx"

export type PlacedWidget = components["schemas"]["DashboardWidget"]

const GRID = 12
const num = (value: number | string, fallback: number) => (typeof value === "number" && Number.isFinite(value) ? value : fallback)
export const widthOf = (widget: PlacedWidget) => num(widget.width, 6)
export const heightOf = (widget: PlacedWidget) => num(widget.height, 4)
const clamp = (value: number) => Math.min(GRID, Math.max(1, value))

/** The grid cell of a widget (its width in columns, its height as a minimum). */
export const cellStyle = (widget: PlacedWidget | undefined): CSSProperties =>
  widget === undefined ? {} : ({ "--span": String(widthOf(widget)), minHeight: `${heightOf(widget) * 3}rem` } as CSSProperties)

export const useWidgetLayout = (dashboardId: string, widgets: ReadonlyArray<PlacedWidget>) => {
  const queryClient = useQueryClient()
  // Layout changes run one after another, each from what the one before it wrote: a second click before the
  // dashboard is read back (or while the first is still being saved) builds on the first, not on the
  // widgets as last rendered, and the saves reach the server in the order they were asked.
  const chain = useRef<Promise<unknown>>(Promise.resolve())
  const queued = useRef(0)
  /** The widgets as the server answered this page's last layout write, until the dashboard is read back. */
  const written = useRef<ReadonlyArray<PlacedWidget> | undefined>(undefined)
  const current = () => written.current ?? widgets
  const patch = async (widgetId: string, body: { position?: number; width?: number; height?: number }) => {
    const dashboard = data(
      await client.PATCH("/pm/v1/dashboards/{dashboardId}/widgets/{widgetId}", {
        params: { path: { dashboardId, widgetId } },
        body
      })
    )
    written.current = dashboard.widgets
  }
  const reread = () =>
    queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[1]).startsWith("/pm/v1/dashboards/{dashboardId}") })

  const inTurn = (change: () => Promise<void>): Promise<void> => {
    queued.current++
    const run = chain.current.then(change).finally(async () => {
      try {
        await reread()
      } finally {
        // Read back with nothing else queued: the rendered widgets are the truth again.
        if (--queued.current === 0) written.current = undefined
      }
    })
    chain.current = run.catch(() => undefined)
    return run
  }

  const move = (widget: PlacedWidget, by: -1 | 1) =>
    inTurn(async () => {
      const before = current()
      const order = movedBy(
        before.map((w) => w.id),
        widget.id,
        by
      )
      if (order === undefined) return
      for (const [index, id] of order.entries()) {
        const placed = before.find((w) => w.id === id)
        if (placed !== undefined && num(placed.position, -1) !== index + 1) await patch(id, { position: index + 1 })
      }
      announce(`${widget.title} moved ${by < 0 ? "earlier" : "later"}`)
    })

  const resize = (widget: PlacedWidget, change: { readonly width?: number; readonly height?: number }) =>
    inTurn(async () => {
      const now = current().find((w) => w.id === widget.id) ?? widget
      const width = clamp(widthOf(now) + (change.width ?? 0))
      const height = clamp(heightOf(now) + (change.height ?? 0))
      await patch(widget.id, { width, height })
      announce(`${widget.title}: ${width} of ${GRID} columns wide, ${height} rows tall`)
    })
  return { move, resize }
}

export const LayoutControls = ({
  widget,
  first,
  last,
  onMove,
  onResize
}: {
  readonly widget: PlacedWidget
  readonly first: boolean
  readonly last: boolean
  readonly onMove: (by: -1 | 1) => void
  readonly onResize: (change: { readonly width?: number; readonly height?: number }) => void
}) => {
  const width = widthOf(widget)
  const height = heightOf(widget)
  const named = <span className="visually-hidden">{widget.title}</span>
  return (
    <fieldset className="row layout-controls">
      <legend className="muted small">{`Layout of ${widget.title}: ${width}/${GRID} wide, ${height} tall`}</legend>
      <button type="button" disabled={first} onClick={() => onMove(-1)}>
        Move earlier {named}
      </button>
      <button type="button" disabled={last} onClick={() => onMove(1)}>
        Move later {named}
      </button>
      <button type="button" disabled={width >= GRID} onClick={() => onResize({ width: 1 })}>
        Wider {named}
      </button>
      <button type="button" disabled={width <= 1} onClick={() => onResize({ width: -1 })}>
        Narrower {named}
      </button>
      <button type="button" disabled={height >= GRID} onClick={() => onResize({ height: 1 })}>
        Taller {named}
      </button>
      <button type="button" disabled={height <= 1} onClick={() => onResize({ height: -1 })}>
        Shorter {named}
      </button>
    </fieldset>
  )
}
