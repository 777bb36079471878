/** Figures from samples taken one at a time (a browser step, a question to Lens): a chart point and percentiles. */
import type { Point } from "../Scenario.ts"
import { Histogram } from "./Histogram.ts"

/** One point from sample times in ms, measured one at a time (load 1). */
export const pointOfSamples = (times: ReadonlyArray<number>, errors = 0): Point => {
  const histogram = new Histogram()
  for (const ms of times) histogram.record(ms * 1e6)
  const durationSec = times.reduce((sum, ms) => sum + ms, 0) / 1000
  return {
    load: 1,
    durationSec,
    ops: times.length,
    errors,
    throughput: times.length / Math.max(1e-9, durationSec),
    latency: histogram.latency()
  }
}

/** The nearest-rank percentile (`p` in 0..1) of `values`; 0 for none. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}
