/**
 * Wakes the processing loop when a job is queued (a recording created, a
 * reprocess), once the queueing write commits, so the job is claimed at once
 * instead of the loop polling the jobs table. The loop still looks on its own
 * every safety poll: jobs queued by another node, leases that ran out.
 */
import { wakeAfterCommit } from "../../persistence/Sql.ts"

/** The wake-up topic (runtime/Wakeup.ts) of the processing loop. */
export const jobsQueued = "hub.jobs.queued"

/** A job was written to `hub_recording_jobs`: wakes the loop once that commits. */
export const jobQueued = wakeAfterCommit(jobsQueued)
