/**
 * automations (issue 16): task updates on a workspace without rules, then
 * with 100 enabled rules, on the same Atrium server (server/main.ts on a
 * fresh PostgreSQL database): the write path's throughput with rules on
 * against rules off, and what evaluating the rules costs per change (the
 * server's CPU over the load and until it is idle again — the automation
 * engine follows the change log after the write is acknowledged — on minus
 * off, per change).
 *
 * Off and on alternate (off, on, off, on: the rules deleted and created
 * again between), and each series keeps its best round: on a shared machine
 * other processes only ever slow a round down, and neither side gets the
 * server's warm-up alone.
 *
 * The rules mix the triggers a task update can meet (assignee changed,
 * custom field changed, status changed, comment added), each with a
 * condition no bench task meets: every change is matched against all 100,
 * none fires (a firing rule writes, which is another workload).
 */
import { describeLoader, type HttpLoad } from "../load/http.ts"
import type { Server } from "../process.ts"
import { Steps } from "../progress.ts"
import { rate } from "../report/format.ts"
import { failedSeries, type Point, type RunOptions, type Scenario, type Series, type Target } from "../Scenario.ts"
import { ATRIUM, at, type Backend, firstLine, measure, postgresBackend, ratioTarget, settle } from "./rest.ts"
import { type TaskFixture, workspaceWithTasks } from "./rest/tasks.ts"
import { api } from "./rest/workspace.ts"

const RULES = 100
const TASKS = 8
const TRIGGERS = ["assignee_changed", "custom_field_changed", "status_changed", "comment_added"] as const

const ruleBody = (i: number) => ({
  name: `Bench rule ${i + 1}`,
  trigger: { type: TRIGGERS[i % TRIGGERS.length] },
  conditions: [{ field: "name", operator: "contains", value: `no bench task is named this ${i}` }],
  actions: [{ type: "set_priority", priority: "urgent" }]
})

let runs = 0
const updateLoad = (url: string, fixture: TaskFixture, connections: number, durationSec: number): HttpLoad => {
  const tag = `${(++runs).toString(36)}${Date.now().toString(36)}`
  return {
    url: `${url}/pm/v1/tasks/${fixture.taskIds[0]}`,
    paths: fixture.taskIds.map((id) => `/pm/v1/tasks/${id}`),
    method: "PATCH",
    headers: { Authorization: `Bearer ${fixture.token}`, "Content-Type": "application/json" },
    body: `{"description":"bench ${tag}-{n}"}`,
    connections,
    durationSec,
    timeoutSec: 60
  }
}

interface Phase {
  readonly series: Series
  /** Server CPU seconds per acknowledged change, over the loads and the settling after each. */
  readonly cpuPerChange: number
}

/** Warm-up, then each level; CPU is read from before the first measured load to after the last settle. */
const phase = async (
  label: string,
  role: Series["role"],
  server: Server,
  fixture: TaskFixture,
  options: RunOptions,
  steps: Steps
): Promise<Phase> => {
  if (options.warmupSec > 0) {
    await measure(server, updateLoad(server.url, fixture, options.levels.at(-1)!, options.warmupSec), options)
    await settle(server)
  }
  const points: Array<Point> = []
  const before = server.sample()
  for (const connections of options.levels) {
    steps.begin(`${label}, ${connections} connections`)
    points.push(await measure(server, updateLoad(server.url, fixture, connections, options.durationSec), options))
    await settle(server)
    steps.end()
  }
  const cpuSec = server.sample().cpuSec - before.cpuSec
  const changes = points.reduce((sum, p) => sum + p.ops - p.errors, 0)
  const errors = points.reduce((sum, p) => sum + p.errors, 0)
  return {
    series: { label, role, status: "ok", points, ...(errors === 0 ? {} : { note: `${errors} error responses` }) },
    cpuPerChange: cpuSec / Math.max(1, changes)
  }
}

/** Each series' best of its rounds: per level the point with the most throughput, and the least CPU per change. */
const best = (rounds: ReadonlyArray<Phase>): Phase => {
  const first = rounds[0]!
  const points = first.series.points.map((point, i) =>
    rounds.map((r) => r.series.points[i] ?? point).reduce((a, b) => (b.throughput > a.throughput ? b : a))
  )
  return { series: { ...first.series, points }, cpuPerChange: Math.min(...rounds.map((r) => r.cpuPerChange)) }
}

const ROUNDS = (options: RunOptions) => (options.smoke ? 1 : 2)

const OFF = "updateTask, rules off"
const ON = `updateTask, ${RULES} rules on`
const TARGET_LOAD = 32

export const automations: Scenario = {
  name: "automations",
  subject: `The task write path (updateTask) with ${RULES} automation rules on one workspace against none, on PostgreSQL; rule evaluation cost per change`,
  baselines: ["the same server and workspace before any rule exists (rules off)"],
  levels: { sweep: [8, 32], smoke: 4 },
  workload: (options) => [
    `Load: ${describeLoader(options.loader)}; PATCH {"description"} on ${TASKS} tasks in turn; connections = ${options.levels.join(", ")}; each point ${options.durationSec}s after ${options.warmupSec}s of warm-up.`,
    `Rules off, then ${RULES} rules created through the API (triggers ${TRIGGERS.join(", ")} in turn, a name condition no task meets, action set_priority): every change is matched against all of them, none fires. ${ROUNDS(options)} rounds of off then on (the rules deleted in between); each series keeps its best round.`,
    "Cost per change: the server's CPU from the first measured load to the end of the settling after the last (the engine works after the acknowledgement), per acknowledged change; on minus off."
  ],
  estimateSec: (options) => 40 + 2 * ROUNDS(options) * (options.warmupSec + options.levels.length * options.durationSec),
  run: async (options, progress) => {
    const steps = new Steps(progress, 2 * ROUNDS(options) * options.levels.length, options.durationSec)
    let backend: Backend | undefined
    let server: Server | undefined
    let off: Phase | undefined
    let on: Phase | undefined
    let failure: unknown
    const notes: Array<string> = []
    try {
      backend = await postgresBackend(options)
      progress.update(0, "Atrium migrates, workspace through the API")
      server = await ATRIUM.start(options, backend)
      const fixture = await workspaceWithTasks(server.url, TASKS)
      const as = api(server.url, fixture.token)
      const rules = `/pm/v1/workspaces/${fixture.seeded.workspaceId}/automations`
      const offRounds: Array<Phase> = []
      const onRounds: Array<Phase> = []
      for (let round = 0; round < ROUNDS(options); round++) {
        offRounds.push(await phase(OFF, "baseline", server, fixture, options, steps))
        const ids: Array<string> = []
        for (let i = 0; i < RULES; i++) ids.push((await as("POST", rules, ruleBody(i))).id as string)
        const listed = await as("GET", rules)
        if (round === 0) notes.push(`${(listed.items as Array<unknown>).length} rules listed on the workspace after creation.`)
        await settle(server)
        onRounds.push(await phase(ON, "subject", server, fixture, options, steps))
        if (round + 1 < ROUNDS(options)) {
          for (const id of ids) await as("DELETE", `${rules}/${id}`)
          await settle(server)
        }
      }
      off = best(offRounds)
      on = best(onRounds)
    } catch (error) {
      failure = error
      progress.note(`automations: ${firstLine(error)}`)
    } finally {
      await server?.stop(15_000)
      await backend?.drop()
    }
    const load = options.levels.includes(TARGET_LOAD) ? TARGET_LOAD : options.levels.at(-1)!
    const offSeries = off?.series ?? failedSeries(OFF, "baseline", failure ?? "did not run")
    const onSeries = on?.series ?? failedSeries(ON, "subject", failure ?? "did not run")
    const targets: Array<Target> = [
      ratioTarget(`updateTask, ${load} conn: ${RULES} rules on ≥ 0.8× rules off`, at(onSeries, load), at(offSeries, load), 0.8, "×"),
      {
        target: "rule evaluation cost per change (server CPU, on minus off)",
        figure:
          on && off
            ? `${((on.cpuPerChange - off.cpuPerChange) * 1e6).toFixed(0)} µs (${(on.cpuPerChange * 1e6).toFixed(0)} µs on, ${(off.cpuPerChange * 1e6).toFixed(0)} µs off per change)`
            : "not measured",
        met: undefined
      }
    ]
    if (on && off && on.cpuPerChange < off.cpuPerChange)
      notes.push("Rules on cost less CPU per change than rules off here: the difference is below this run's noise.")
    const onPoint = at(onSeries, load)
    if (onPoint) notes.push(`updateTask with ${RULES} rules at ${load}: ${rate(onPoint.throughput)}/s.`)
    return {
      groups: [
        {
          name: `updateTask: PATCH /pm/v1/tasks/{taskId} on ${TASKS} tasks — PostgreSQL`,
          unit: "req",
          series: [offSeries, onSeries],
          headlineLoad: load
        }
      ],
      targets,
      notes
    }
  }
}
