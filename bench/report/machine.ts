/** The machine a run ran on, for every report's header. */
import { execFileSync } from "node:child_process"
import { cpus, loadavg, release, totalmem } from "node:os"

export interface Machine {
  readonly cores: number
  readonly cpu: string
  readonly memoryBytes: number
  readonly node: string
  readonly os: string
  /** 1-minute load average when the run started: how busy the shared machine already was. */
  readonly loadAverage: number
  /** The commit the work tree is on (uncommitted changes not shown). */
  readonly commit: string | undefined
}

export const machine = (root: string): Machine => {
  let commit: string | undefined
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim()
  } catch {
    commit = undefined
  }
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    memoryBytes: totalmem(),
    node: process.version,
    os: `${process.platform} ${release()}`,
    loadAverage: Math.round(loadavg()[0] * 100) / 100,
    commit
  }
}

export const describeMachine = (m: Machine): string =>
  `${m.cores} cores (${m.cpu}), ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, Node ${m.node}, ${m.os}, ` +
  `load average ${m.loadAverage} at start${m.commit ? `, commit ${m.commit}` : ""}`
