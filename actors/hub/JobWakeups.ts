/**
 * Wakes this node's processing loop when a job is queued here (a recording
 * created, a reprocess), so the job is claimed at once instead of the loop
 * polling the jobs table many times a second. The loop still looks on its own
 * every poll interval: jobs queued by another node, leases that ran out.
 */
import { Effect } from "effect"

const sleepers = new Set<() => void>()
/** A job was queued while no loop was waiting: the next wait returns at once. */
let pending = false

/** A job was committed to `hub_recording_jobs` on this node. */
export const jobQueued: Effect.Effect<void> = Effect.sync(() => {
  if (sleepers.size === 0) pending = true
  for (const wake of [...sleepers]) wake()
})

/** Waits until a job is queued on this node or `millis` pass, whichever comes first. */
export const awaitJob = (millis: number): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    if (pending) {
      pending = false
      return resume(Effect.void)
    }
    const wake = () => {
      clearTimeout(timer)
      sleepers.delete(wake)
      resume(Effect.void)
    }
    const timer = setTimeout(wake, millis)
    sleepers.add(wake)
    return Effect.sync(() => {
      clearTimeout(timer)
      sleepers.delete(wake)
    })
  })
