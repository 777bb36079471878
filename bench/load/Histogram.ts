/**
 * A latency histogram with < 0.8% relative error and constant memory, so a
 * loader can record millions of samples and a parent can merge the
 * histograms of several workers. Values are nanoseconds (integers), clamped
 * to 2^44 - 1 ns (4.9 h): a backlog's latencies (webhook deliveries behind
 * their changes) run into minutes.
 *
 * Buckets: values below 128 ns get one bucket each; above, each power of two
 * is split in 64 equal buckets.
 */
import type { Latency } from "../Scenario.ts"

const SUB = 64
const LINEAR = 2 * SUB // 128
const MAX_EXPONENT = 44
const MAX_NS = 2 ** MAX_EXPONENT - 1
const BUCKETS = LINEAR + (MAX_EXPONENT - 7) * SUB

/** floor(log2 v) for an integer v >= 1 (exact past 32 bits too). */
const exponentOf = (v: number): number => {
  if (v <= 0xffff_ffff) return 31 - Math.clz32(v)
  let exponent = Math.floor(Math.log2(v))
  if (2 ** exponent > v) exponent--
  else if (2 ** (exponent + 1) <= v) exponent++
  return exponent
}

const indexOf = (ns: number): number => {
  const v = ns <= 0 ? 0 : ns >= MAX_NS ? MAX_NS : Math.floor(ns)
  if (v < LINEAR) return v
  const shift = exponentOf(v) - 6 // exponent >= 7
  return LINEAR + (shift - 1) * SUB + (Math.floor(v / 2 ** shift) - SUB)
}

/** The middle of bucket `index`, in ns. */
const valueOf = (index: number): number => {
  if (index < LINEAR) return index
  const shift = Math.floor((index - LINEAR) / SUB) + 1
  const mantissa = ((index - LINEAR) % SUB) + SUB
  return mantissa * 2 ** shift + 2 ** (shift - 1)
}

/** The serialised form sent from a loader child or worker to its parent. */
export interface HistogramData {
  readonly counts: ReadonlyArray<readonly [index: number, count: number]>
  readonly total: number
  readonly sumNs: number
  readonly maxNs: number
}

export class Histogram {
  private readonly counts = new Float64Array(BUCKETS)
  total = 0
  sumNs = 0
  maxNs = 0

  record(ns: number): void {
    this.counts[indexOf(ns)]++
    this.total++
    this.sumNs += ns
    if (ns > this.maxNs) this.maxNs = ns
  }

  /** The value (ns) below which `percentile` % of samples fall. */
  percentile(percentile: number): number {
    if (this.total === 0) return 0
    const rank = Math.max(1, Math.ceil((percentile / 100) * this.total))
    let seen = 0
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]
      if (seen >= rank) return Math.min(valueOf(i), this.maxNs)
    }
    return this.maxNs
  }

  toData(): HistogramData {
    const counts: Array<[number, number]> = []
    this.counts.forEach((count, index) => {
      if (count > 0) counts.push([index, count])
    })
    return { counts, total: this.total, sumNs: this.sumNs, maxNs: this.maxNs }
  }

  merge(data: HistogramData): this {
    for (const [index, count] of data.counts) this.counts[index] += count
    this.total += data.total
    this.sumNs += data.sumNs
    this.maxNs = Math.max(this.maxNs, data.maxNs)
    return this
  }

  static from(...data: ReadonlyArray<HistogramData>): Histogram {
    const histogram = new Histogram()
    for (const d of data) histogram.merge(d)
    return histogram
  }

  /** Percentiles in µs, as reports use them. */
  latency(): Latency {
    const us = (ns: number) => ns / 1000
    return {
      p50: us(this.percentile(50)),
      p90: us(this.percentile(90)),
      p99: us(this.percentile(99)),
      p999: us(this.percentile(99.9)),
      max: us(this.maxNs),
      mean: this.total === 0 ? 0 : us(this.sumNs / this.total),
      distribution: DISTRIBUTION.map((p) => [p, us(this.percentile(p))] as const)
    }
  }
}

/** The percentiles every loader reports for the distribution chart. */
export const DISTRIBUTION: ReadonlyArray<number> = [1, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99]
