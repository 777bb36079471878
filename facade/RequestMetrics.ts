/**
 * Counts of answered requests by status class over a sliding window of
 * one-minute buckets, on this node: the source of the operators' error-rate
 * alerts. Recording is a few integer increments per request.
 */
const BUCKET_MILLIS = 60_000
/** Minutes kept (one day). */
const BUCKETS = 24 * 60

interface Bucket {
  minute: number
  total: number
  clientErrors: number
  serverErrors: number
}

const buckets: Array<Bucket> = Array.from({ length: BUCKETS }, () => ({ minute: -1, total: 0, clientErrors: 0, serverErrors: 0 }))

export const recordResponse = (status: number, at = Date.now()): void => {
  const minute = Math.floor(at / BUCKET_MILLIS)
  const bucket = buckets[minute % BUCKETS]!
  if (bucket.minute !== minute) {
    bucket.minute = minute
    bucket.total = 0
    bucket.clientErrors = 0
    bucket.serverErrors = 0
  }
  bucket.total++
  if (status >= 500) bucket.serverErrors++
  else if (status >= 400) bucket.clientErrors++
}

export interface RequestCounts {
  readonly total: number
  readonly clientErrors: number
  readonly serverErrors: number
}

/** Requests answered in the last `minutes` minutes (the current one included). */
export const requestCounts = (minutes: number, at = Date.now()): RequestCounts => {
  const newest = Math.floor(at / BUCKET_MILLIS)
  const window = Math.max(1, Math.min(BUCKETS, Math.floor(minutes)))
  let total = 0
  let clientErrors = 0
  let serverErrors = 0
  for (const bucket of buckets) {
    if (bucket.minute > newest - window && bucket.minute <= newest) {
      total += bucket.total
      clientErrors += bucket.clientErrors
      serverErrors += bucket.serverErrors
    }
  }
  return { total, clientErrors, serverErrors }
}
