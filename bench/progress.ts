/**
 * The progress bar (stderr). On a terminal it redraws one line; elsewhere
 * (CI, a test's child) it prints a line each time the label changes.
 */
import type { Progress } from "./Scenario.ts"

const WIDTH = 28

export class ProgressBar {
  private readonly tty = process.stderr.isTTY === true
  private readonly started = performance.now()
  private lastLabel = ""
  private drawn = false

  private readonly total: number

  /** `weights`: each scenario's expected seconds, so the bar moves with time rather than per scenario. */
  constructor(private readonly weights: ReadonlyArray<number>) {
    this.total = weights.reduce((sum, w) => sum + w, 0) || 1
  }

  /** The Progress handed to scenario number `index` (0-based). */
  forScenario(index: number, name: string): Progress {
    const before = this.weights.slice(0, index).reduce((sum, w) => sum + w, 0)
    return {
      update: (fraction, label) =>
        this.draw((before + Math.min(1, Math.max(0, fraction)) * this.weights[index]) / this.total, `${name}: ${label}`),
      note: (line) => this.print(`  ${name}: ${line}`)
    }
  }

  print(line: string): void {
    this.clear()
    process.stderr.write(line + "\n")
  }

  draw(fraction: number, label: string): void {
    const elapsed = (performance.now() - this.started) / 1000
    if (!this.tty) {
      if (label !== this.lastLabel) process.stderr.write(`[${pct(fraction)}] ${label}\n`)
      this.lastLabel = label
      return
    }
    const filled = Math.round(fraction * WIDTH)
    const eta = fraction > 0.02 ? ` eta ${Math.round((elapsed / fraction) * (1 - fraction))}s` : ""
    const columns = process.stderr.columns ?? 100
    const line = `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${pct(fraction)} ${Math.round(elapsed)}s${eta}  ${label}`
    process.stderr.write(`\r${line.slice(0, columns - 1).padEnd(columns - 1)}`)
    this.drawn = true
  }

  clear(): void {
    if (this.tty && this.drawn) process.stderr.write(`\r${" ".repeat((process.stderr.columns ?? 100) - 1)}\r`)
    this.drawn = false
  }
}

const pct = (fraction: number) => `${Math.round(fraction * 100)}%`.padStart(4)

/**
 * A scenario's plan of `total` timed steps of `stepSec` each: moves the bar
 * smoothly while a step runs (4 times a second).
 */
export class Steps {
  private done = 0
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly progress: Progress,
    private readonly total: number,
    private readonly stepSec: number
  ) {}

  begin(label: string): void {
    this.end()
    const started = performance.now()
    const tick = () => {
      const within = Math.min(0.99, (performance.now() - started) / 1000 / Math.max(0.1, this.stepSec))
      this.progress.update((this.done + within) / Math.max(1, this.total), label)
    }
    tick()
    this.timer = setInterval(tick, 250)
    this.timer.unref()
  }

  /** Ends the running step (counting it done). */
  end(): void {
    if (!this.timer) return
    clearInterval(this.timer)
    this.timer = undefined
    this.done++
  }

  /** Stops the running step without counting it (it failed). */
  abort(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Counts `done` steps finished, whatever ran (after a part that may have failed midway). */
  sync(done: number): void {
    this.abort()
    this.done = Math.max(this.done, done)
  }

  fraction(): number {
    return this.done / Math.max(1, this.total)
  }
}
