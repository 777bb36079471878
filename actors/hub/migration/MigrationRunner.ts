/**
 * Runs workspace migration jobs in the background (every node runs a
 * runner; a job is claimed by one at a time, its lease renewed while it
 * runs). A job exports the workspace (WorkspaceExport.ts) and imports each
 * item not yet recorded as a step, recording each as it finishes: a job a
 * restart or a dead node interrupted resumes after its last recorded step,
 * or is failed, visibly, after MAX_MIGRATION_RUNS starts. When it ends, its
 * owner gets the outcome by mail (readable in the hub's mail list).
 */
import { Cause, Effect } from "effect"
import { query } from "../../../persistence/Sql.ts"
import { nothingLeft, runWorker } from "../../../runtime/Wakeup.ts"
import { userById } from "../../identity/IdentityQueries.ts"
import { queueMail } from "../Mail.ts"
import {
  type ClaimedMigration,
  claimMigration,
  finishMigration,
  LEASE_SECONDS,
  MAX_MIGRATION_RUNS,
  migrationQueued,
  recordMigrationStep,
  renewMigrationLease,
  runsOf,
  setMigrationTotal,
  type WorkspaceMigration
} from "../WorkspaceMigrations.ts"
import { exportWorkspace } from "./WorkspaceExport.ts"

/** Statuses of the first (settings) call that mean the target refuses this credential or workspace altogether. */
const refusedAltogether = (status: number | null) => status === null || status === 401 || status === 403 || status === 404

const errorMessage = (error: unknown) => {
  const message = (error as { readonly message?: unknown } | null)?.message
  return (typeof message === "string" ? message : String(error)).slice(0, 500)
}
const causeMessage = (cause: Cause.Cause<unknown>) => errorMessage(Cause.squash(cause))

const importAll = (job: ClaimedMigration) =>
  Effect.gen(function* () {
    const items = yield* exportWorkspace(job.workspaceId, job.createdBy)
    yield* setMigrationTotal(job.id, items.length)
    const done = new Set(job.steps.map((step) => step.item))
    const target = { origin: job.targetOrigin, credential: job.credential, workspaceId: job.targetWorkspaceId }
    for (const item of items) {
      if (done.has(item.item)) continue
      const imported = yield* Effect.result(item.importInto(target))
      const step =
        imported._tag === "Success"
          ? imported.success
          : { item: item.item, name: item.name, ok: false, status: null, detail: errorMessage(imported.failure) }
      yield* recordMigrationStep(job.id, step)
      if (item.item === "settings" && refusedAltogether(step.status))
        return `The target refused the import: ${step.detail}` as string | null
    }
    return null
  })

const mailOutcome = (job: WorkspaceMigration) =>
  Effect.gen(function* () {
    const owner = yield* Effect.orDie(userById(job.createdBy))
    if (!owner) return
    const refused = job.steps.filter((step) => !step.ok)
    yield* queueMail({
      to: owner.email,
      userId: owner.id,
      kind: "workspace_migration",
      subject: `Workspace migration ${job.status.replaceAll("_", " ")}`,
      text: [
        `The migration ${job.id} of workspace ${job.workspaceId} to ${job.targetOrigin} (workspace ${job.targetWorkspaceId}) ended: ${job.status}.`,
        `${job.progress.done} of ${job.progress.total} items done.`,
        ...(job.error ? [`Error: ${job.error}`] : []),
        ...refused.map((step) => `Refused: ${step.name}: ${step.detail}`)
      ].join("\n")
    })
  })

/** Runs one claimed job to its end (or until the node dies: the lease then lapses and another run resumes it). */
const runJob = (job: ClaimedMigration) =>
  Effect.gen(function* () {
    const runs = yield* runsOf(job.id)
    const outcome =
      runs > MAX_MIGRATION_RUNS
        ? ({ _tag: "Success", value: `Interrupted ${MAX_MIGRATION_RUNS} times; start the migration again` } as const)
        : job.credential === ""
          ? ({ _tag: "Success", value: "The target credential is gone; start the migration again" } as const)
          : yield* Effect.exit(importAll(job))
    const error = outcome._tag === "Success" ? outcome.value : `The migration stopped: ${causeMessage(outcome.cause)}`
    const finished = yield* finishMigration(job.id, error)
    yield* mailOutcome(finished).pipe(Effect.catchCause((cause) => Effect.logWarning("hub: migration outcome mail failed", cause)))
  })

const keepLease = (id: string) =>
  Effect.forever(Effect.andThen(Effect.sleep(`${(LEASE_SECONDS * 1000) / 3} millis`), Effect.ignore(renewMigrationLease(id))))

/** One pass: runs every job waiting; answers how many. */
export const runMigrations = Effect.gen(function* () {
  let ran = 0
  while (true) {
    const job = yield* claimMigration
    if (job === undefined) return ran
    yield* Effect.race(runJob(job), keepLease(job.id))
    ran += 1
  }
})

/** After a restart of the only node, its jobs' leases are released at once (with several nodes, they lapse). */
export const recoverMigrations = (singleNode: boolean) =>
  singleNode
    ? Effect.asVoid(Effect.orDie(query(`UPDATE hub_workspace_migrations SET lease_until = NULL WHERE status = 'running'`)))
    : Effect.void

/**
 * The runner: runs jobs as they are queued (woken by the queueing write), and
 * looks on its own every safety poll (jobs queued by another node, a lapsed
 * lease); passes start at least MIGRATION_POLL_MS (default 1000) apart.
 */
export const migrationLoop = Effect.suspend(() => {
  const value = Number(process.env.MIGRATION_POLL_MS)
  const paceMillis = Number.isFinite(value) && value >= 10 ? value : 1000
  const pass = runMigrations.pipe(
    Effect.as(nothingLeft),
    Effect.catchCause((cause) => Effect.as(Effect.logWarning("hub: migration pass failed", cause), nothingLeft))
  )
  return runWorker(migrationQueued, pass, { paceMillis })
})
