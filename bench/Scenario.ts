/**
 * The plug-in interface of the bench. A scenario measures one subject (a part
 * of Atrium) next to baselines that it starts itself, in the same run, on
 * loopback, and returns raw figures. The runner (`run.ts`) turns them into
 * ratios, tables, JSON, Markdown and charts; a scenario never formats.
 *
 * Vocabulary:
 * - group: one operation measured on several systems (e.g. "GET catalog" on
 *   uWS, Fastify and Atrium); ratios are only taken inside a group.
 * - series: one system in a group (role "subject" or "baseline").
 * - point: one measurement of a series at one load level (connections or
 *   concurrent callers). The last level is the headline one.
 */

export interface RunOptions {
  /** `--smoke`: a short run that only checks each scenario produces figures. */
  readonly smoke: boolean
  /** Seconds each point is measured. */
  readonly durationSec: number
  /** Seconds of unmeasured load before a series' first point (JIT, caches, pools). */
  readonly warmupSec: number
  /** The load levels to measure, ascending; the last one is the headline. */
  readonly levels: ReadonlyArray<number>
  /** Which HTTP load generator: wrk when installed, else the worker-thread loader. */
  readonly loader: "wrk" | "node"
  /** The repository's root (children are started from there). */
  readonly root: string
}

export interface Progress {
  /** What runs now and how far the scenario is, 0..1. */
  readonly update: (fraction: number, label: string) => void
  /** A line for the log (shown above the bar, kept in the report's notes). */
  readonly note: (line: string) => void
}

/** CPU and memory of one process over one point's window. */
export interface ProcessFigures {
  /** user + sys seconds spent during the window. */
  readonly cpuSec: number
  /** cpuSec / wall seconds: 1.0 means one core busy the whole time. */
  readonly cores: number
  /** The process's peak resident set size so far (VmHWM), bytes. */
  readonly peakRssBytes?: number
  /** Which program this was (e.g. "wrk 1 thread", "nats-server"). */
  readonly tool?: string
}

/** Latency percentiles in microseconds. */
export interface Latency {
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly p999: number
  readonly max: number
  readonly mean: number
  /** [percentile, µs] pairs for the distribution chart, ascending. */
  readonly distribution: ReadonlyArray<readonly [number, number]>
}

export interface Point {
  /** Connections (HTTP) or concurrent callers (request-reply). */
  readonly load: number
  readonly durationSec: number
  /** Completed operations (successful or not). */
  readonly ops: number
  /** Failed operations (non-2xx, socket errors, timeouts, rejections). */
  readonly errors: number
  /** Operations per second. */
  readonly throughput: number
  readonly latency: Latency
  /** The system under test's process (or the caller's own, when in-process). */
  readonly server?: ProcessFigures
  /** The load generator's process, to see which side was saturated. */
  readonly loadgen?: ProcessFigures
  /** A broker the request went through (nats-server), if any. */
  readonly broker?: ProcessFigures
  /**
   * Cores busy on the whole machine during the point (/proc/stat). Minus the
   * server's, load generator's and broker's, it is what other processes took:
   * how noisy the point was.
   */
  readonly machineBusyCores?: number
}

export type SeriesStatus = "ok" | "not built" | "failed"

export interface Series {
  readonly label: string
  readonly role: "subject" | "baseline"
  readonly status: SeriesStatus
  /** Why not built / failed, or a caveat on the figures. */
  readonly note?: string
  readonly points: ReadonlyArray<Point>
}

export interface Group {
  /** The operation, e.g. "GET /pm/v1/api-catalog". */
  readonly name: string
  /** What one op is, for column headers: "req" or "call". */
  readonly unit: string
  readonly series: ReadonlyArray<Series>
  /** The load its figures and ratios are read at (default: the run's highest level). */
  readonly headlineLoad?: number
}

/** A goal the scenario checks with the run's own figures (an issue's performance target). */
export interface Target {
  /** What is asked, e.g. "getTask on PostgreSQL at 32 connections: ≥ 2× the conventional stack". */
  readonly target: string
  /** What was measured, e.g. "1.4× (6.1k/s vs 4.3k/s)". */
  readonly figure: string
  /** undefined: could not be judged (a series missing). */
  readonly met: boolean | undefined
}

export interface Figures {
  readonly groups: ReadonlyArray<Group>
  readonly targets?: ReadonlyArray<Target>
  readonly notes?: ReadonlyArray<string>
}

/** What `run` returns when the scenario's subject isn't written yet. */
export interface NotBuilt {
  readonly notBuilt: string
}

export interface Scenario {
  readonly name: string
  /** What is measured, one line. */
  readonly subject: string
  /** The baselines it starts, one line each. */
  readonly baselines: ReadonlyArray<string>
  /** Load levels: the full run's sweep, and the one level smoke mode uses. */
  readonly levels: { readonly sweep: ReadonlyArray<number>; readonly smoke: number }
  /**
   * The workload, for the report header: clients, message sizes, durations,
   * so a reader can rerun it. Given the resolved options.
   */
  readonly workload: (options: RunOptions) => ReadonlyArray<string>
  /** Roughly how long `run` takes, in seconds (weights the progress bar). */
  readonly estimateSec: (options: RunOptions) => number
  readonly run: (options: RunOptions, progress: Progress) => Promise<Figures | NotBuilt>
}

export const isNotBuilt = (result: Figures | NotBuilt): result is NotBuilt => "notBuilt" in result

/** A series whose subject isn't there yet: keeps its place in tables and JSON. */
export const notBuiltSeries = (label: string, role: Series["role"], reason: string): Series => ({
  label,
  role,
  status: "not built",
  note: reason,
  points: []
})

export const failedSeries = (label: string, role: Series["role"], error: unknown, points: ReadonlyArray<Point> = []): Series => ({
  label,
  role,
  status: "failed",
  note: error instanceof Error ? error.message : String(error),
  points
})
