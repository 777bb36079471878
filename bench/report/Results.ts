/**
 * What a bench run produces (the JSON file is exactly this), and the ratios
 * derived from it: every series against every baseline of its group, at the
 * headline load, since absolute figures on a shared machine mean little.
 */
import type { Figures, Group, Point, RunOptions, Scenario, Series, Target } from "../Scenario.ts"
import type { Machine } from "./machine.ts"

export interface Ratio {
  readonly series: string
  readonly baseline: string
  /** series / baseline; > 1 means the series does more per second. */
  readonly throughput: number | undefined
  /** series / baseline; > 1 means the series is slower. */
  readonly p50: number | undefined
  readonly p99: number | undefined
  /** Server CPU per operation, series / baseline; > 1 means the series burns more. */
  readonly cpuPerOp: number | undefined
  readonly peakRss: number | undefined
}

export interface GroupResult extends Group {
  /** The load level headline figures and ratios are taken at. */
  readonly headlineLoad: number
  readonly ratios: ReadonlyArray<Ratio>
}

export interface ScenarioResult {
  readonly name: string
  readonly subject: string
  readonly baselines: ReadonlyArray<string>
  readonly workload: ReadonlyArray<string>
  /** ok: figures produced (some series may still be "not built"); failed: it threw. */
  readonly status: "ok" | "not built" | "failed"
  readonly reason?: string
  readonly wallSec: number
  readonly groups: ReadonlyArray<GroupResult>
  /** The targets, judged with this run's figures (only scenarios that check some). */
  readonly targets?: ReadonlyArray<Target>
  readonly notes: ReadonlyArray<string>
}

export interface RunResults {
  readonly version: 1
  readonly startedAt: string
  readonly finishedAt: string
  /** How to rerun it. */
  readonly command: string
  /** full: every scenario at full length (writes bench/RESULTS.md). */
  readonly mode: "full" | "partial" | "smoke"
  readonly options: Omit<RunOptions, "root" | "levels"> & { readonly levels: "per scenario" | ReadonlyArray<number> }
  readonly machine: Machine
  /** 1-minute load average when the run ended. */
  readonly loadAverageEnd: number
  readonly scenarios: ReadonlyArray<ScenarioResult>
}

/** A warning when other processes were competing for the cores (the figures are then noisy, even the ratios). */
export const busyWarning = (run: RunResults): string | undefined => {
  const load = Math.max(run.machine.loadAverage, run.loadAverageEnd)
  return load > run.machine.cores / 2
    ? `The machine was busy: load average ${run.machine.loadAverage} at start and ${run.loadAverageEnd} at the end, on ${run.machine.cores} cores. ` +
        `Other processes took CPU from this run (see "others' cores"), so even the ratios are noisy; rerun on a quiet machine to compare.`
    : undefined
}

// --------------------------------------------------------- derivations ---

/** The point at the headline load (the highest level), if the series has it. */
export const headline = (series: Series, load: number): Point | undefined =>
  series.points.find((p) => p.load === load) ?? series.points.at(-1)

/** Cores other processes took during the point (machine busy minus ours), if known. */
export const otherCores = (point: Point): number | undefined =>
  point.machineBusyCores === undefined
    ? undefined
    : Math.max(0, point.machineBusyCores - (point.server?.cores ?? 0) - (point.loadgen?.cores ?? 0) - (point.broker?.cores ?? 0))

/** Server CPU per operation, µs. */
export const cpuPerOpUs = (point: Point): number | undefined =>
  point.server && point.ops > 0 ? (point.server.cpuSec * 1e6) / point.ops : undefined

const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined)

/**
 * Each series against each baseline listed before it: subjects against every
 * baseline, and a baseline against the floors/limits before it (Fastify vs uWS).
 */
const ratios = (group: Group, load: number): Array<Ratio> => {
  const measured = group.series.filter((s) => s.status === "ok" && s.points.length > 0)
  const out: Array<Ratio> = []
  for (const [i, series] of measured.entries()) {
    for (const baseline of measured.slice(0, i)) {
      if (baseline.role !== "baseline") continue
      const s = headline(series, load)!
      const b = headline(baseline, load)!
      out.push({
        series: series.label,
        baseline: baseline.label,
        throughput: ratio(s.throughput, b.throughput),
        p50: ratio(s.latency.p50, b.latency.p50),
        p99: ratio(s.latency.p99, b.latency.p99),
        cpuPerOp: ratio(cpuPerOpUs(s), cpuPerOpUs(b)),
        peakRss: ratio(s.server?.peakRssBytes, b.server?.peakRssBytes)
      })
    }
  }
  return out
}

export const scenarioResult = (
  scenario: Scenario,
  options: RunOptions,
  outcome: { figures: Figures } | { notBuilt: string } | { error: unknown },
  wallSec: number,
  notes: ReadonlyArray<string>
): ScenarioResult => {
  const rerun =
    options.levels.length === 0
      ? []
      : [
          `Rerun: \`npm run bench -- ${scenario.name} --duration ${options.durationSec}s --warmup ${options.warmupSec}s ` +
            `--connections ${options.levels.join(",")}${options.loader === "node" ? " --loader node" : ""}\``
        ]
  const workload = [...scenario.workload(options), ...rerun]
  const base = { name: scenario.name, subject: scenario.subject, baselines: scenario.baselines, workload, wallSec }
  if ("notBuilt" in outcome) return { ...base, status: "not built", reason: outcome.notBuilt, groups: [], notes }
  if ("error" in outcome) {
    const reason = outcome.error instanceof Error ? (outcome.error.stack ?? outcome.error.message) : String(outcome.error)
    return { ...base, status: "failed", reason, groups: [], notes }
  }
  const load = options.levels.at(-1) ?? 0
  return {
    ...base,
    status: "ok",
    groups: outcome.figures.groups.map((group) => {
      const at = group.headlineLoad ?? load
      return { ...group, headlineLoad: at, ratios: ratios(group, at) }
    }),
    ...(outcome.figures.targets ? { targets: outcome.figures.targets } : {}),
    notes: [...notes, ...(outcome.figures.notes ?? [])]
  }
}

/**
 * Did a scenario produce its figures? Every series must be measured (a
 * positive throughput at every point) or say "not built". The smoke mode's check.
 */
export const problems = (result: ScenarioResult): Array<string> => {
  if (result.status === "not built") return []
  if (result.status === "failed") return [`${result.name}: failed: ${result.reason?.split("\n")[0]}`]
  const out: Array<string> = []
  if (result.groups.length === 0) out.push(`${result.name}: no figures`)
  for (const group of result.groups) {
    for (const series of group.series) {
      const where = `${result.name} / ${group.name} / ${series.label}`
      if (series.status === "failed") out.push(`${where}: failed: ${series.note?.split("\n")[0]}`)
      else if (series.status === "ok") {
        if (series.points.length === 0) out.push(`${where}: no points`)
        for (const p of series.points) {
          if (!(p.throughput > 0) || !(p.latency.p50 > 0)) out.push(`${where}: no throughput or latency at load ${p.load}`)
        }
      }
    }
  }
  return out
}
