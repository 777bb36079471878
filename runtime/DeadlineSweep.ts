/**
 * Deadlines of in-process asks, expired by one sweep instead of a timer per
 * ask: arming and clearing a timer for every request is work on the hot path
 * of every facade call, while almost every ask is answered long before its
 * deadline. Deadlines are grouped into buckets of `GRANULARITY_MILLIS`; one
 * interval, running only while some deadline is pending (so an idle node has
 * no timer), expires the buckets whose time has come. An ask therefore times
 * out up to one granule late, never early.
 */

/** A pending deadline: what to do when it passes. */
export interface Expiring {
  readonly expire: () => void
}

/** How finely deadlines are kept: an expiry is at most this late. */
export const GRANULARITY_MILLIS = 25

const buckets = new Map<number, Set<Expiring>>()
let sweeper: ReturnType<typeof setInterval> | undefined
let pending = 0

const sweep = () => {
  const due = Math.floor(performance.now() / GRANULARITY_MILLIS)
  for (const [bucket, entries] of buckets) {
    if (bucket > due) continue
    buckets.delete(bucket)
    pending -= entries.size
    for (const entry of entries) entry.expire()
  }
  if (pending === 0 && sweeper !== undefined) {
    clearInterval(sweeper)
    sweeper = undefined
  }
}

/** Registers `entry` to expire `millis` from now; answers the handle `cancel` takes. */
export const schedule = (entry: Expiring, millis: number): number => {
  const bucket = Math.ceil((performance.now() + Math.max(0, millis)) / GRANULARITY_MILLIS)
  let entries = buckets.get(bucket)
  if (entries === undefined) {
    entries = new Set()
    buckets.set(bucket, entries)
  }
  entries.add(entry)
  pending++
  sweeper ??= setInterval(sweep, GRANULARITY_MILLIS)
  return bucket
}

/** Forgets `entry` (answered before its deadline). */
export const cancel = (entry: Expiring, bucket: number): void => {
  const entries = buckets.get(bucket)
  if (entries === undefined || !entries.delete(entry)) return
  pending--
  if (entries.size === 0) buckets.delete(bucket)
}

/** How many deadlines are pending, and whether the sweep is running (for tests). */
export const status = (): { readonly pending: number; readonly sweeping: boolean } => ({ pending, sweeping: sweeper !== undefined })
