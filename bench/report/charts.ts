/**
 * The charts of a run, rendered from its results (the same data as the JSON):
 * per group, the latency distribution at the headline load and throughput
 * against load. Baselines are dashed, subjects solid.
 */
import { micros, rate, trim } from "./format.ts"
import { headline, type GroupResult, type RunResults } from "./Results.ts"
import { renderLineChart } from "./svg.ts"

export interface Chart {
  /** File name inside the run's charts/ folder. */
  readonly file: string
  readonly title: string
  readonly svg: string
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48)

const PERCENTILE_TICKS: ReadonlyArray<readonly [number, string]> = [
  [50, "p50"],
  [90, "p90"],
  [99, "p99"],
  [99.9, "p99.9"],
  [99.99, "p99.99"]
]

const measured = (group: GroupResult) => group.series.filter((s) => s.status === "ok" && s.points.length > 0)

export const latencyChart = (scenario: string, group: GroupResult): Chart | undefined => {
  const series = measured(group)
  if (series.length === 0) return undefined
  const title = `${scenario}: ${group.name}`
  return {
    file: `${scenario}-${slug(group.name)}-latency.svg`,
    title: `${title}, latency distribution`,
    svg: renderLineChart({
      title,
      subtitle: `latency by percentile at ${group.headlineLoad} ${group.unit === "req" ? "connections" : "callers"} (log scales)`,
      x: { label: "percentile", scale: "log", transform: (p) => 1 / (1 - p / 100), ticks: PERCENTILE_TICKS },
      y: { label: "latency", scale: "log", format: (us) => trim(micros(us)) },
      series: series.map((s) => ({
        name: s.label,
        dashed: s.role === "baseline",
        points: headline(s, group.headlineLoad)!.latency.distribution.filter(([p]) => p >= 50)
      }))
    })
  }
}

export const throughputChart = (scenario: string, group: GroupResult): Chart | undefined => {
  const series = measured(group)
  const loads = [...new Set(series.flatMap((s) => s.points.map((p) => p.load)))].sort((a, b) => a - b)
  if (series.length === 0 || loads.length < 2) return undefined
  const title = `${scenario}: ${group.name}`
  // Series an order of magnitude apart would flatten to zero on a linear axis.
  const rates = series.flatMap((s) => s.points.map((p) => p.throughput)).filter((r) => r > 0)
  const log = Math.max(...rates) / Math.min(...rates) > 30
  return {
    file: `${scenario}-${slug(group.name)}-throughput.svg`,
    title: `${title}, throughput vs load`,
    svg: renderLineChart({
      title,
      subtitle: `${group.unit}/s against load${log ? " (log scales)" : ""}`,
      x: {
        label: group.unit === "req" ? "connections" : "concurrent callers",
        scale: "log",
        ticks: loads.map((l) => [l, String(l)] as const)
      },
      y: { label: `${group.unit}/s`, scale: log ? "log" : "linear", fromZero: true, format: (n) => trim(rate(n)) },
      series: series.map((s) => ({
        name: s.label,
        dashed: s.role === "baseline",
        points: s.points.map((p) => [p.load, p.throughput] as const)
      }))
    })
  }
}

/** Every chart of a run, per scenario. */
export const charts = (results: RunResults): Map<string, Array<Chart>> =>
  new Map(
    results.scenarios.map((scenario) => [
      scenario.name,
      scenario.groups.flatMap((group) =>
        [latencyChart(scenario.name, group), throughputChart(scenario.name, group)].filter((c): c is Chart => c !== undefined)
      )
    ])
  )
