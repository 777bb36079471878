/** The Markdown report of a run: the timestamped one (with charts) and bench/RESULTS.md (without). */
import type { Chart } from "./charts.ts"
import { describeMachine } from "./machine.ts"
import { busyWarning, type RunResults } from "./Results.ts"
import { groupTables, renderMarkdown, targetsTable } from "./table.ts"

export interface MarkdownOptions {
  readonly title: string
  /** Lines under the title. */
  readonly preface?: ReadonlyArray<string>
  /** Charts per scenario and the folder they're in, relative to the report; omitted in RESULTS.md. */
  readonly charts?: { readonly byScenario: Map<string, Array<Chart>>; readonly dir: string }
}

export const renderReport = (results: RunResults, options: MarkdownOptions): string => {
  const out: Array<string> = [`# ${options.title}`, ""]
  if (options.preface) out.push(...options.preface, "")
  out.push(
    `- Date: ${results.startedAt} (finished ${results.finishedAt})`,
    `- Machine: ${describeMachine(results.machine)}`,
    `- Command: \`${results.command}\` (${results.mode} run)`,
    `- Each point: ${results.options.durationSec}s after ${results.options.warmupSec}s warm-up; HTTP load generator: ${results.options.loader}`,
    "",
    "Every figure comes from this run. The machine is shared and noisy: read the ratios to the baselines measured in the same run, not the absolute figures. " +
      "Server CPU is the server process's own user+sys time during the point (cores = CPU seconds per wall second); " +
      "the load generator's CPU shows whether it, not the server, was the limit; " +
      '"others\' cores" is what the rest of the machine used meanwhile (from /proc/stat).',
    ""
  )
  const warning = busyWarning(results)
  if (warning) out.push(`> **Warning:** ${warning}`, "")

  out.push("| scenario | status | subject |", "| --- | --- | --- |")
  for (const s of results.scenarios) out.push(`| [${s.name}](#${s.name}) | ${s.status} | ${s.subject} |`)
  out.push("")

  for (const scenario of results.scenarios) {
    out.push(`## ${scenario.name}`, "", `**Subject:** ${scenario.subject}`, "")
    if (scenario.baselines.length > 0) out.push("**Baselines:**", "", ...scenario.baselines.map((b) => `- ${b}`), "")
    out.push("**Workload:**", "", ...scenario.workload.map((w) => `- ${w}`), "")
    if (scenario.status !== "ok") {
      out.push(`**${scenario.status === "not built" ? "Not built" : "Failed"}:** ${scenario.reason?.split("\n")[0] ?? ""}`, "")
      if (scenario.status === "failed" && scenario.reason) out.push("```", scenario.reason, "```", "")
      continue
    }
    for (const group of scenario.groups) {
      out.push(`### ${group.name}`, "")
      for (const table of groupTables(group)) out.push(renderMarkdown(table), "")
      const unmeasured = group.series.filter((s) => s.status !== "ok" || s.note)
      for (const s of unmeasured) out.push(`- ${s.label}: ${s.status === "ok" ? "" : `${s.status}: `}${s.note?.split("\n")[0] ?? ""}`)
      if (unmeasured.length > 0) out.push("")
    }
    if (scenario.targets && scenario.targets.length > 0) out.push(renderMarkdown(targetsTable(scenario.targets)), "")
    const charts = options.charts?.byScenario.get(scenario.name) ?? []
    for (const chart of charts) out.push(`![${chart.title}](${options.charts!.dir}/${chart.file})`, "")
    if (scenario.notes.length > 0) out.push("**Notes:**", "", ...scenario.notes.map((n) => `- ${n}`), "")
    out.push(`_Scenario wall time: ${scenario.wallSec.toFixed(0)} s._`, "")
  }
  return out.join("\n")
}
