/**
 * A sprint's burndown and a space's velocity as SVG drawn here (no chart
 * library): each chart is one `role="img"` named by its heading and described
 * in words (what a screen reader needs to know at a glance; the drawing's
 * parts are presentational inside it), with the numbers
 * it draws in a table beside it for anyone who wants them all.
 */
import { useId } from "react"
import type { Paths } from "../../api/client.ts"

type Json<P extends keyof Paths> = Paths[P]["get"] extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never
export type Burndown = Json<"/pm/v1/sprints/{sprintId}/burndown">
export type Velocity = Json<"/pm/v1/spaces/{spaceId}/velocity">

const W = 640
const H = 240
const PAD = { left: 36, right: 24, top: 12, bottom: 28 }
const plotW = W - PAD.left - PAD.right
const plotH = H - PAD.top - PAD.bottom

/** The numbers as numbers (the schema's JSON numbers may spell Infinity/NaN as strings). */
const num = (value: number | string | null): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

/** Four or five round steps from 0 to at least `max`. */
const ticks = (max: number): Array<number> => {
  const top = Math.max(1, max)
  const step = Math.max(1, Math.ceil(top / 4))
  return Array.from({ length: Math.ceil(top / step) + 1 }, (_, i) => i * step)
}

const shortDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" })

const Axis = ({ scaleTop, y }: { readonly scaleTop: number; readonly y: (v: number) => number }) => (
  <g className="axis">
    {ticks(scaleTop).map((t) => (
      <g key={t}>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="grid" />
        <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
          {t}
        </text>
      </g>
    ))}
  </g>
)

export const BurndownChart = ({ burndown }: { readonly burndown: Burndown }) => {
  const id = useId()
  const unit = burndown.unit === "tasks" ? "tasks" : "minutes"
  const days = burndown.days.map((d) => ({
    date: d.date,
    scope: num(d.scope),
    completed: num(d.completed),
    remaining: num(d.remaining),
    ideal: num(d.ideal) ?? 0
  }))
  const committed = num(burndown.committed) ?? 0
  const current = {
    scope: num(burndown.current.scope) ?? 0,
    completed: num(burndown.current.completed) ?? 0,
    remaining: num(burndown.current.remaining) ?? 0
  }
  const top = Math.max(1, committed, ...days.map((d) => d.scope ?? 0))
  const scaleTop = ticks(top).at(-1) ?? top
  const x = (i: number) => PAD.left + (days.length <= 1 ? plotW / 2 : (i / (days.length - 1)) * plotW)
  const y = (v: number) => PAD.top + plotH - (v / scaleTop) * plotH
  const known = days.map((d, i) => ({ ...d, i })).filter((d) => d.remaining !== null)
  const line = (points: ReadonlyArray<{ i: number; v: number }>) => points.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(" ")
  const labelEvery = Math.max(1, Math.ceil(days.length / 7))
  const summary =
    burndown.status === "planned"
      ? `Not started: ${current.scope} ${unit} planned over ${days.length} days.`
      : `${current.completed} of ${current.scope} ${unit} done, ${current.remaining} remaining; committed ${committed} at the start.`
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        Burndown ({unit})
      </figcaption>
      <p id={`${id}-summary`} className="chart-summary">
        {summary}
      </p>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-describedby={`${id}-summary`} className="chart-svg">
        <title>{`Burndown chart (${unit})`}</title>
        <Axis scaleTop={scaleTop} y={y} />
        <g className="axis">
          {days.map((d, i) =>
            (i % labelEvery === 0 && days.length - 1 - i >= labelEvery) || i === days.length - 1 ? (
              <text key={d.date} x={x(i)} y={H - 8} textAnchor="middle">
                {shortDay(d.date)}
              </text>
            ) : null
          )}
        </g>
        <polyline className="ideal" points={line(days.map((d, i) => ({ i, v: d.ideal })))} />
        {known.length > 0 ? (
          <>
            <polyline className="scope" points={line(known.map((d) => ({ i: d.i, v: d.scope ?? 0 })))} />
            <polyline className="remaining" points={line(known.map((d) => ({ i: d.i, v: d.remaining ?? 0 })))} />
            {known.map((d) => (
              <circle key={d.date} className="remaining-point" cx={x(d.i)} cy={y(d.remaining ?? 0)} r={3.5}>
                <title>{`${shortDay(d.date)}: ${d.remaining} remaining, ${d.completed} done`}</title>
              </circle>
            ))}
          </>
        ) : null}
      </svg>
      <ul className="legend">
        <li className="legend-remaining">Remaining</li>
        <li className="legend-ideal">Ideal</li>
        <li className="legend-scope">Scope</li>
      </ul>
      <details>
        <summary>Burndown by day</summary>
        <table className="chart-table">
          <caption className="visually-hidden">Burndown by day ({unit})</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Scope</th>
              <th scope="col">Done</th>
              <th scope="col">Remaining</th>
              <th scope="col">Ideal</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{shortDay(d.date)}</th>
                <td>{d.scope ?? "–"}</td>
                <td>{d.completed ?? "–"}</td>
                <td>{d.remaining ?? "–"}</td>
                <td>{d.ideal}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}

export const VelocityChart = ({ velocity }: { readonly velocity: Velocity }) => {
  const id = useId()
  const sprints = velocity.sprints.map((s) => ({
    id: s.sprintId,
    name: s.name,
    committed: num(s.committedTasks) ?? 0,
    completed: num(s.completedTasks) ?? 0,
    rate: num(s.completionRate) ?? 0
  }))
  const average = num(velocity.average.completedTasks) ?? 0
  if (sprints.length === 0) return <p className="muted">No completed sprint yet: velocity appears once one completes.</p>
  const scaleTop = ticks(Math.max(1, ...sprints.map((s) => s.committed))).at(-1) ?? 1
  const y = (v: number) => PAD.top + plotH - (v / scaleTop) * plotH
  const slot = plotW / sprints.length
  const bar = Math.min(28, slot / 3)
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart-title">
        Velocity (tasks per sprint)
      </figcaption>
      <p id={`${id}-summary`} className="chart-summary">
        {`Average ${average} tasks completed over the last ${sprints.length} ${sprints.length === 1 ? "sprint" : "sprints"}; last: ${sprints.at(-1)!.completed} of ${sprints.at(-1)!.committed}.`}
      </p>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-describedby={`${id}-summary`} className="chart-svg">
        <title>Velocity chart</title>
        <Axis scaleTop={scaleTop} y={y} />
        {sprints.map((s, i) => {
          const left = PAD.left + i * slot + slot / 2 - bar
          return (
            <g key={s.id}>
              <rect className="committed" x={left} width={bar} y={y(s.committed)} height={y(0) - y(s.committed)}>
                <title>{`${s.name}: committed ${s.committed}`}</title>
              </rect>
              <rect className="completed" x={left + bar} width={bar} y={y(s.completed)} height={y(0) - y(s.completed)}>
                <title>{`${s.name}: completed ${s.completed} (${s.rate}%)`}</title>
              </rect>
              <text x={left + bar} y={H - 8} textAnchor="middle">
                {s.name}
              </text>
            </g>
          )
        })}
        <line className="average" x1={PAD.left} x2={W - PAD.right} y1={y(average)} y2={y(average)} />
      </svg>
      <ul className="legend">
        <li className="legend-committed">Committed</li>
        <li className="legend-completed">Completed</li>
        <li className="legend-average">Average</li>
      </ul>
      <details>
        <summary>Velocity by sprint</summary>
        <table className="chart-table">
          <caption className="visually-hidden">Velocity by sprint</caption>
          <thead>
            <tr>
              <th scope="col">Sprint</th>
              <th scope="col">Committed</th>
              <th scope="col">Completed</th>
              <th scope="col">Rate</th>
            </tr>
          </thead>
          <tbody>
            {sprints.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                <td>{s.committed}</td>
                <td>{s.completed}</td>
                <td>{s.rate}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
