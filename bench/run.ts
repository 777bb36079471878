/**
 * The bench's entry point.
 *
 *   npm run bench                                   every scenario, full length; writes bench/RESULTS.md
 *   npm run bench -- rest [--duration 10s] [--connections 64]
 *   npm run bench -- --smoke [--out DIR]            ~2 s per scenario; only checks each produced its figures
 *
 * Options: --duration T (per point: 10s, 500ms, 1m), --warmup T, --connections N[,N...]
 * (load levels; default: each scenario's sweep), --loader wrk|node, --out DIR, --list.
 *
 * The run: for each scenario, resolve its options, call `run` under a progress
 * bar, turn its figures into a ScenarioResult (with ratios to its baselines);
 * then print the tables, and write results.json, report.md and charts/*.svg to
 * bench/results/<timestamp>/ (smoke mode: only with --out).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { buildBundles } from "../tools/NodeBundle.ts"
import { wrkInstalled, type Loader } from "./load/http.ts"
import { ProgressBar } from "./progress.ts"
import { charts } from "./report/charts.ts"
import { describeMachine, machine } from "./report/machine.ts"
import { renderReport } from "./report/markdown.ts"
import { busyWarning, problems, scenarioResult, type RunResults, type ScenarioResult } from "./report/Results.ts"
import { groupTables, renderText, targetsTable } from "./report/table.ts"
import { isNotBuilt, type Progress, type RunOptions, type Scenario } from "./Scenario.ts"
import { scenarios } from "./scenarios/index.ts"

const ROOT = fileURLToPath(new URL("..", import.meta.url))

// ------------------------------------------------------------ arguments ---

interface Args {
  readonly names: ReadonlyArray<string>
  readonly smoke: boolean
  readonly durationSec?: number
  readonly warmupSec?: number
  readonly levels?: ReadonlyArray<number>
  readonly loader?: Loader
  readonly out?: string
  readonly list: boolean
}

const usage = `usage: npm run bench -- [scenario...] [--smoke] [--duration 5s] [--warmup 2s] [--connections N[,N...]] [--loader wrk|node] [--out DIR] [--list]
scenarios: ${scenarios.map((s) => s.name).join(", ")}`

const fail = (message: string): never => {
  process.stderr.write(`${message}\n${usage}\n`)
  process.exit(2)
}

/** "10s", "500ms", "2m" or a number of seconds. */
const parseDuration = (text: string): number => {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text)
  if (!match) return fail(`not a duration: ${text}`)
  const value = Number(match[1])
  return match[2] === "ms" ? value / 1000 : match[2] === "m" ? value * 60 : value
}

const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const names: Array<string> = []
  let args: Args = { names, smoke: false, list: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => argv[++i] ?? fail(`${arg} needs a value`)
    if (arg === "--smoke") args = { ...args, smoke: true }
    else if (arg === "--list") args = { ...args, list: true }
    else if (arg === "--duration") args = { ...args, durationSec: parseDuration(value()) }
    else if (arg === "--warmup") args = { ...args, warmupSec: parseDuration(value()) }
    else if (arg === "--connections") {
      const levels = value().split(",").map(Number)
      if (levels.some((n) => !Number.isInteger(n) || n < 1)) fail("--connections takes positive integers")
      args = { ...args, levels: [...levels].sort((a, b) => a - b) }
    } else if (arg === "--loader") {
      const loader = value()
      if (loader !== "wrk" && loader !== "node") fail("--loader is wrk or node")
      args = { ...args, loader: loader as Loader }
    } else if (arg === "--out") args = { ...args, out: value() }
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(usage + "\n")
      process.exit(0)
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}`)
    else if (!scenarios.some((s) => s.name === arg)) fail(`unknown scenario ${arg}`)
    else names.push(arg)
  }
  return args
}

/** Per-point duration and warm-up: the flags, else 5 s and 2 s (smoke: 1 s and none). */
const timing = (args: Args) => ({
  durationSec: args.durationSec ?? (args.smoke ? 1 : 5),
  warmupSec: args.warmupSec ?? (args.smoke ? 0 : 2)
})

const optionsFor = (args: Args, scenario: Scenario, loader: Loader): RunOptions => ({
  smoke: args.smoke,
  ...timing(args),
  // A scenario with no levels (not built yet) keeps none.
  levels: scenario.levels.sweep.length === 0 ? [] : (args.levels ?? (args.smoke ? [scenario.levels.smoke] : scenario.levels.sweep)),
  loader,
  root: ROOT
})

/** Runs one scenario; whatever happens (figures, "not built", a throw) becomes its result. */
const runScenario = async (scenario: Scenario, options: RunOptions, progress: Progress): Promise<ScenarioResult> => {
  const notes: Array<string> = []
  const started = performance.now()
  progress.update(0, "starting")
  let outcome: Parameters<typeof scenarioResult>[2]
  try {
    const figures = await scenario.run(options, { update: progress.update, note: (line) => (notes.push(line), progress.note(line)) })
    outcome = isNotBuilt(figures) ? { notBuilt: figures.notBuilt } : { figures }
  } catch (error) {
    outcome = { error }
  }
  const result = scenarioResult(scenario, options, outcome, (performance.now() - started) / 1000, notes)
  progress.update(1, result.status)
  return result
}

// ----------------------------------------------------------- the report ---

const printScenario = (result: ScenarioResult) => {
  const lines = [``, `■ ${result.name} — ${result.status} (${result.wallSec.toFixed(0)} s): ${result.subject}`]
  if (result.status !== "ok") lines.push(`  ${result.status}: ${result.reason?.split("\n")[0] ?? ""}`)
  for (const group of result.groups) {
    for (const table of groupTables(group)) lines.push("", renderText(table))
    for (const s of group.series)
      if (s.status !== "ok" || s.note)
        lines.push(`  · ${s.label}: ${s.status === "ok" ? "" : `${s.status}: `}${s.note?.split("\n")[0] ?? ""}`)
  }
  if (result.targets && result.targets.length > 0) lines.push("", renderText(targetsTable(result.targets)))
  for (const note of result.notes) lines.push(`  note: ${note}`)
  process.stdout.write(lines.join("\n") + "\n")
}

const write = (dir: string, results: RunResults) => {
  const byScenario = charts(results)
  mkdirSync(join(dir, "charts"), { recursive: true })
  writeFileSync(join(dir, "results.json"), JSON.stringify(results, null, 2) + "\n")
  for (const list of byScenario.values()) for (const chart of list) writeFileSync(join(dir, "charts", chart.file), chart.svg)
  writeFileSync(join(dir, "report.md"), renderReport(results, { title: "Atrium bench", charts: { byScenario, dir: "charts" } }))
}

// ----------------------------------------------------------------- main ---

const main = async () => {
  const args = parseArgs(process.argv.slice(2))
  if (args.list) {
    for (const s of scenarios) process.stdout.write(`${s.name.padEnd(18)} ${s.subject}\n`)
    return 0
  }
  const selected = args.names.length === 0 ? scenarios : scenarios.filter((s) => args.names.includes(s.name))
  const loader: Loader = args.loader ?? (wrkInstalled() ? "wrk" : "node")
  if (loader === "wrk" && !wrkInstalled()) fail("wrk is not installed (apt-get install -y wrk)")
  const mode: RunResults["mode"] = args.smoke ? "smoke" : args.names.length === 0 ? "full" : "partial"
  const startedAt = new Date()
  const host = machine(ROOT)
  process.stderr.write(`Atrium bench (${mode}): ${selected.length} scenarios on ${describeMachine(host)}\n`)
  if (loader === "node")
    process.stderr.write("wrk not found: HTTP load from the Node worker-thread loader (apt-get install -y wrk for the real one)\n")

  // Servers and baselines start from bundles built once here (or by the test run that started this one).
  const bundles = await buildBundles()
  process.on("exit", bundles.remove)
  const plan = selected.map((scenario) => ({ scenario, options: optionsFor(args, scenario, loader) }))
  const bar = new ProgressBar(plan.map(({ scenario, options }) => scenario.estimateSec(options)))
  const results: Array<ScenarioResult> = []
  for (const [index, { scenario, options }] of plan.entries()) {
    results.push(await runScenario(scenario, options, bar.forScenario(index, scenario.name)))
  }
  bar.clear()

  const run: RunResults = {
    version: 1,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: ["npm run bench", ...(process.argv.length > 2 ? ["--", ...process.argv.slice(2)] : [])].join(" "),
    mode,
    options: { smoke: args.smoke, ...timing(args), levels: args.levels ?? "per scenario", loader },
    machine: host,
    loadAverageEnd: Math.round(loadavg()[0] * 100) / 100,
    scenarios: results
  }
  for (const result of results) printScenario(result)
  const warning = busyWarning(run)
  if (warning) process.stdout.write(`\nwarning: ${warning}\n`)

  const out =
    args.out ??
    (args.smoke
      ? undefined
      : join(
          ROOT,
          "bench/results",
          startedAt
            .toISOString()
            .replace(/:/g, "-")
            .replace(/\.\d+Z$/, "Z")
        ))
  if (out) {
    write(out, run)
    process.stdout.write(`\nresults: ${join(out, "results.json")}, ${join(out, "report.md")}, ${join(out, "charts")}/\n`)
  }
  if (mode === "full") {
    const latest = renderReport(run, {
      title: "Atrium bench: latest full run",
      preface: [
        "Written by `npm run bench` at the end of a full run (every scenario); don't edit by hand.",
        "The run's JSON and charts were written under bench/results/ (not committed)."
      ]
    })
    writeFileSync(join(ROOT, "bench/RESULTS.md"), latest)
    process.stdout.write(`wrote bench/RESULTS.md\n`)
  }

  const found = results.flatMap(problems)
  const notBuilt = results.filter((r) => r.status === "not built").length
  const partly = results.filter((r) => r.groups.some((g) => g.series.some((s) => s.status === "not built"))).length
  if (found.length > 0) {
    process.stdout.write(`\nproblems:\n${found.map((p) => `  ${p}`).join("\n")}\n`)
    return 1
  }
  const measured = results.length - notBuilt
  process.stdout.write(
    `\n${args.smoke ? "smoke: ok" : "done"}: ${measured} scenarios measured, ${notBuilt} not built` +
      (partly > 0 ? ` (${partly} with some series not built)` : "") +
      "\n"
  )
  return 0
}

process.exit(await main())
