/**
 * A tiny SVG line-chart renderer: axes (linear or log), grid, polylines with
 * point markers, a legend. Enough for the bench's two charts, no browser and
 * no dependency.
 */

export interface Axis {
  readonly label: string
  readonly scale: "linear" | "log"
  /** Fixed ticks (value, label); otherwise chosen from the data. */
  readonly ticks?: ReadonlyArray<readonly [number, string]>
  /** Formats an automatic tick's value. */
  readonly format?: (value: number) => string
  /** Include zero in a linear axis (throughput). */
  readonly fromZero?: boolean
  /** Maps a data value to the axis' position before scaling (e.g. percentile → -log10(1 - p)). */
  readonly transform?: (value: number) => number
}

export interface LineSeries {
  readonly name: string
  readonly points: ReadonlyArray<readonly [number, number]>
  readonly dashed?: boolean
}

export interface LineChart {
  readonly title: string
  readonly subtitle?: string
  readonly x: Axis
  readonly y: Axis
  readonly series: ReadonlyArray<LineSeries>
}

const WIDTH = 720
const HEIGHT = 420
const MARGIN = { top: 56, right: 24, bottom: 76, left: 76 }
const LEGEND_ROW = 18
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
const r = (n: number) => Math.round(n * 10) / 10

/** 1-2-5 steps covering [min, max] in about `count` ticks. */
const linearTicks = (min: number, max: number, count = 5): Array<number> => {
  const span = max - min || Math.abs(max) || 1
  const raw = span / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!
  const ticks: Array<number> = []
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v)
  return ticks
}

/** Powers of ten (and 2, 5 between them when the range is narrow) within [min, max]. */
const logTicks = (min: number, max: number): Array<number> => {
  const ticks: Array<number> = []
  const decades = Math.log10(max / min)
  const steps = decades < 1.5 ? [1, 2, 5] : decades < 3 ? [1, 3] : [1]
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of steps) {
      const v = m * 10 ** e
      if (v >= min * 0.999 && v <= max * 1.001) ticks.push(v)
    }
  }
  return ticks
}

interface Scale {
  readonly map: (value: number) => number
  readonly ticks: ReadonlyArray<readonly [number, string]>
}

const makeScale = (axis: Axis, values: ReadonlyArray<number>, from: number, to: number): Scale => {
  const t = axis.transform ?? ((v: number) => v)
  const format = axis.format ?? ((v: number) => String(v))
  const data = values.filter((v) => Number.isFinite(v) && (axis.scale === "linear" || v > 0))
  const fixed = axis.ticks?.map(([v]) => v) ?? []
  let min = Math.min(...data, ...fixed)
  let max = Math.max(...data, ...fixed)
  if (!Number.isFinite(min)) [min, max] = axis.scale === "log" ? [1, 10] : [0, 1]
  if (axis.scale === "log" && axis.transform) {
    // A transformed axis (percentiles) spans exactly its data and fixed ticks.
  } else if (axis.scale === "log") {
    if (min === max) [min, max] = [min / 2, max * 2]
    // Pad to the enclosing 1-2-5 steps so lines don't touch the frame.
    const down = 10 ** Math.floor(Math.log10(min))
    min = [5, 2, 1].map((m) => m * down).find((v) => v <= min) ?? down
    const up = 10 ** Math.floor(Math.log10(max))
    max = [1, 2, 5, 10].map((m) => m * up).find((v) => v >= max) ?? up * 10
  } else {
    if (axis.fromZero) min = Math.min(0, min)
    if (min === max) max = min + 1
    const ticks = linearTicks(min, max)
    min = Math.min(min, ticks[0])
    max = Math.max(max, ticks.at(-1)! < max ? ticks.at(-1)! + (ticks[1] - ticks[0]) : ticks.at(-1)!)
  }
  const position = (v: number) => (axis.scale === "log" ? Math.log10(t(v)) : t(v))
  const lo = position(min)
  const hi = position(max)
  const map = (v: number) => from + ((position(v) - lo) / (hi - lo || 1)) * (to - from)
  const ticks: ReadonlyArray<readonly [number, string]> =
    axis.ticks?.filter(([v]) => v >= min && v <= max) ??
    (axis.scale === "log" ? logTicks(min, max) : linearTicks(min, max)).map((v) => [v, format(v)] as const)
  return { map, ticks }
}

export const renderLineChart = (chart: LineChart): string => {
  const series = chart.series.filter((s) => s.points.length > 0)
  const legendRows = Math.ceil(series.length / 3)
  const height = HEIGHT + legendRows * LEGEND_ROW
  const plot = { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom }
  const xs = makeScale(
    chart.x,
    series.flatMap((s) => s.points.map(([x]) => x)),
    plot.left,
    plot.right
  )
  const ys = makeScale(
    chart.y,
    series.flatMap((s) => s.points.map(([, y]) => y)),
    plot.bottom,
    plot.top
  )

  const out: Array<string> = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(chart.title)}</text>`
  ]
  if (chart.subtitle) out.push(`<text x="${WIDTH / 2}" y="40" text-anchor="middle" fill="#555">${escape(chart.subtitle)}</text>`)

  // Grid and tick labels.
  for (const [v, label] of xs.ticks) {
    const x = r(xs.map(v))
    out.push(`<line x1="${x}" y1="${plot.top}" x2="${x}" y2="${plot.bottom}" stroke="#e5e5e5"/>`)
    out.push(`<text x="${x}" y="${plot.bottom + 16}" text-anchor="middle" fill="#333">${escape(label)}</text>`)
  }
  for (const [v, label] of ys.ticks) {
    const y = r(ys.map(v))
    out.push(`<line x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="#e5e5e5"/>`)
    out.push(`<text x="${plot.left - 6}" y="${y + 4}" text-anchor="end" fill="#333">${escape(label)}</text>`)
  }
  out.push(
    `<rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}" fill="none" stroke="#888"/>`
  )
  out.push(`<text x="${(plot.left + plot.right) / 2}" y="${plot.bottom + 36}" text-anchor="middle">${escape(chart.x.label)}</text>`)
  out.push(
    `<text x="16" y="${(plot.top + plot.bottom) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(plot.top + plot.bottom) / 2})">${escape(chart.y.label)}</text>`
  )

  // Lines, markers, legend.
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length]
    const points = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (chart.y.scale === "linear" || y > 0))
    const coords = points.map(([x, y]) => `${r(xs.map(x))},${r(ys.map(y))}`)
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : ""
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${coords.join(" ")}"/>`)
    for (const c of coords) {
      const [cx, cy] = c.split(",")
      out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`)
    }
    const lx = MARGIN.left + (i % 3) * 215
    const ly = HEIGHT - 8 + Math.floor(i / 3) * LEGEND_ROW
    out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 24}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${dash}/>`)
    out.push(`<text x="${lx + 30}" y="${ly}">${escape(s.name)}</text>`)
  })
  out.push(`</svg>`)
  return out.join("\n") + "\n"
}
