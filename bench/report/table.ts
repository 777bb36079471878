/**
 * The tables of a group, built once as rows of strings and rendered either
 * for the terminal (aligned columns) or as Markdown.
 */
import { bytes, cores, micros, rate, seconds, times } from "./format.ts"
import type { Target } from "../Scenario.ts"
import { cpuPerOpUs, headline, otherCores, type GroupResult } from "./Results.ts"

export interface Table {
  readonly title: string
  readonly header: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  /** Columns aligned left (the rest right). */
  readonly left: number
}

/** Headline figures: one row per series. */
export const figuresTable = (group: GroupResult): Table => {
  const unit = group.unit
  const hasBroker = group.series.some((s) => s.points.some((p) => p.broker))
  const hasLoadgen = group.series.some((s) => s.points.some((p) => p.loadgen))
  const rows = group.series.map((series) => {
    const p = headline(series, group.headlineLoad)
    if (series.status !== "ok" || !p) return [series.label, series.role, series.status === "not built" ? "not built" : "FAILED"]
    const perOp = cpuPerOpUs(p)
    return [
      series.label,
      series.role,
      `${rate(p.throughput)}/s`,
      micros(p.latency.mean),
      micros(p.latency.p50),
      micros(p.latency.p99),
      micros(p.latency.p999),
      `${seconds(p.server?.cpuSec)} (${cores(p.server?.cores)})`,
      perOp === undefined ? "–" : micros(perOp),
      p.server?.peakRssBytes === undefined ? "–" : bytes(p.server.peakRssBytes),
      ...(hasLoadgen ? [cores(p.loadgen?.cores)] : []),
      ...(hasBroker ? [cores(p.broker?.cores)] : []),
      cores(otherCores(p)),
      p.errors === 0 ? "0" : `${p.errors} (${((100 * p.errors) / Math.max(1, p.ops)).toFixed(1)}%)`
    ]
  })
  return {
    title: `${group.name}: figures at ${group.headlineLoad} ${group.unit === "req" ? "connections" : "callers"}`,
    header: [
      "series",
      "role",
      `${unit}/s`,
      "mean",
      "p50",
      "p99",
      "p99.9",
      "server CPU (cores)",
      `CPU/${unit}`,
      "server peak RSS",
      ...(hasLoadgen ? ["loadgen cores"] : []),
      ...(hasBroker ? ["broker cores"] : []),
      "others' cores",
      "errors"
    ],
    // Unmeasured series: blank cells to the end.
    rows: rows.map((row) => [...row, ...Array(Math.max(0, 12 + (hasLoadgen ? 1 : 0) + (hasBroker ? 1 : 0) - row.length)).fill("")]),
    left: 2
  }
}

/** Every measured series against every baseline of the group, at the headline load. */
export const ratiosTable = (group: GroupResult): Table => ({
  title: `${group.name}: ratios (series ÷ baseline; throughput > 1 is better, latency/CPU/RSS < 1 is better)`,
  header: ["series", "vs baseline", "throughput", "p50", "p99", `CPU/${group.unit}`, "peak RSS"],
  rows: group.ratios.map((r) => [
    r.series,
    r.baseline,
    times(r.throughput),
    times(r.p50),
    times(r.p99),
    times(r.cpuPerOp),
    times(r.peakRss)
  ]),
  left: 2
})

/** Throughput and p99 at each load level: the data of the throughput-vs-load chart. */
export const sweepTable = (group: GroupResult): Table | undefined => {
  const loads = [...new Set(group.series.flatMap((s) => s.points.map((p) => p.load)))].sort((a, b) => a - b)
  if (loads.length < 2) return undefined
  return {
    title: `${group.name}: ${group.unit}/s (p99) by load`,
    header: ["series", ...loads.map((l) => `${l} ${group.unit === "req" ? "conn" : "callers"}`)],
    rows: group.series
      .filter((s) => s.status === "ok")
      .map((s) => [
        s.label,
        ...loads.map((l) => {
          const p = s.points.find((q) => q.load === l)
          return p ? `${rate(p.throughput)} (${micros(p.latency.p99)})` : "–"
        })
      ]),
    left: 1
  }
}

/** The targets a scenario checked: one row each, met or not. */
export const targetsTable = (targets: ReadonlyArray<Target>): Table => ({
  title: "targets (judged with this run's figures)",
  header: ["target", "measured", "met"],
  rows: targets.map((t) => [t.target, t.figure, t.met === undefined ? "–" : t.met ? "met" : "NOT MET"]),
  left: 2
})

export const groupTables = (group: GroupResult): Array<Table> =>
  [figuresTable(group), group.ratios.length > 0 ? ratiosTable(group) : undefined, sweepTable(group)].filter(
    (t): t is Table => t !== undefined
  )

// ------------------------------------------------------------ renderers ---

export const renderText = (table: Table, indent = "  "): string => {
  const widths = table.header.map((h, i) => Math.max(h.length, ...table.rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    indent +
    cells
      .map((c, i) => (i < table.left ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd()
  return [
    `${indent}${table.title}`,
    line(table.header),
    indent + widths.map((w) => "─".repeat(w)).join("  "),
    ...table.rows.map(line)
  ].join("\n")
}

export const renderMarkdown = (table: Table): string => {
  const cell = (c: string) => c.replace(/\|/g, "\\|")
  return [
    `**${table.title}**`,
    "",
    `| ${table.header.map(cell).join(" | ")} |`,
    `| ${table.header.map((_, i) => (i < table.left ? "---" : "---:")).join(" | ")} |`,
    ...table.rows.map((row) => `| ${row.map(cell).join(" | ")} |`)
  ].join("\n")
}
