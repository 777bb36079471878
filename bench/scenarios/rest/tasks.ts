/**
 * A workspace with a few tasks, made through the API of a running Atrium (the
 * webhooks and automations scenarios), and a closed loop of task updates
 * driven from the runner itself.
 */
import { Histogram } from "../../load/Histogram.ts"
import { api, login, structure, type Structure } from "./workspace.ts"

export interface TaskFixture {
  readonly seeded: Structure
  readonly token: string
  readonly taskIds: ReadonlyArray<string>
}

/** The structure of rest/workspace.ts, then `tasks` tasks on its first list. */
export const workspaceWithTasks = async (url: string, tasks: number): Promise<TaskFixture> => {
  const seeded = await structure(url)
  const token = await login(url, seeded.email)
  const as = api(url, token)
  const taskIds: Array<string> = []
  for (let i = 0; i < tasks; i++)
    taskIds.push((await as("POST", `/pm/v1/lists/${seeded.lists[0]!.id}/tasks`, { name: `Bench task ${i + 1}` })).id)
  return { seeded, token, taskIds }
}

export interface UpdateLoop {
  readonly ok: number
  readonly errors: number
  /** The failed writes by what answered them: an HTTP status, or the fetch error's message. */
  readonly errorKinds: Readonly<Record<string, number>>
  readonly startedAt: number
  readonly durationSec: number
  readonly histogram: Histogram
}

/** `count` PATCHes of one task's description (tasks in turn, each body unique), `inFlight` at a time. */
export const updateTasks = async (url: string, fixture: TaskFixture, count: number, inFlight: number, tag: string): Promise<UpdateLoop> => {
  const histogram = new Histogram()
  let next = 0
  let ok = 0
  let errors = 0
  const errorKinds: Record<string, number> = {}
  const failed = (kind: string) => {
    errors++
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
  }
  const startedAt = Date.now()
  const began = performance.now()
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      const sent = process.hrtime.bigint()
      const response = await fetch(`${url}/pm/v1/tasks/${fixture.taskIds[n % fixture.taskIds.length]}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${fixture.token}`, "content-type": "application/json" },
        body: JSON.stringify({ description: `bench ${tag} ${n}` })
      }).catch((error: unknown) =>
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)
      )
      if (typeof response === "string") {
        failed(response)
        continue
      }
      await response.arrayBuffer()
      histogram.record(Number(process.hrtime.bigint() - sent))
      if (response.status === 200) ok++
      else failed(`HTTP ${response.status}`)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return { ok, errors, errorKinds, startedAt, durationSec: (performance.now() - began) / 1000, histogram }
}
