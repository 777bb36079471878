/**
 * A Vitest reporter that prints the 20 slowest test files at the end of a run
 * (time from the file's import to its last hook), so a file that grows slow is
 * seen where the run's total is read.
 */
import type { Reporter, TestModule } from "vitest/node"

const COUNT = 20

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8)

export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const timed = testModules.map((module) => {
      const diagnostic = module.diagnostic()
      return { file: module.relativeModuleId, total: diagnostic.collectDuration + diagnostic.duration, tests: diagnostic.duration }
    })
    if (timed.length === 0) return
    timed.sort((a, b) => b.total - a.total)
    const lines = timed.slice(0, COUNT).map(({ file, total, tests }) => `${seconds(total)} ${seconds(tests)}  ${file}`)
    console.log([``, `Slowest ${Math.min(COUNT, timed.length)} test files (import + tests, tests alone):`, ...lines, ``].join("\n"))
  }
}
