/**
 * Bulk jobs: long work (imports) done in the background with progress and a
 * result per input row. The `PmBulkJob` actor (one per job) is the single
 * writer of its job and keeps it in memory (rebuilt from its row on
 * activation; each command answers with the job, its new state), so reading
 * a job's status is one ask and no SQL. The worker runs queued jobs under a
 * lease, row by row, each task created by the list's actor (the normal write
 * path), and reports progress through the job's actor.
 *
 * Idempotent and resumable: a row's result row is written `started` before
 * its task is created and `succeeded`/`failed` after; a row with a final
 * result is never done again (a re-run only retries failed rows). After a
 * crash, a `started` row is settled from the change log: if its task.created
 * event is there (same list, same author, same name, since the row started)
 * that task is the row's, else the row is done now.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../Fields.ts"
import { isoTimestampSql, query, wakeAfterCommit } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { moreLeft, nothingLeft, runWorker, safetyPollMillis } from "../../runtime/Wakeup.ts"
import { change } from "../pm/Changes.ts"
import { NewTask } from "../pm/TaskWrites.ts"
import { command, send, stateRead, workActor } from "../pm/WorkActor.ts"
import { orAbsent, PmList } from "../pm/WorkActors.ts"
import { BulkJobNotFound, JobStillRunning } from "./OpsErrors.ts"

export const JobStatus = Schema.Literals(["queued", "running", "completed", "failed"])
export const ImportSource = Schema.Literals(["csv", "trello", "clickup", "asana"])

export const BulkJob = Schema.Struct({
  id: Id,
  workspaceId: Id,
  kind: Schema.Literals(["import"]),
  source: ImportSource,
  listId: Schema.NullOr(Id),
  status: JobStatus,
  total: Schema.Number,
  processed: Schema.Number,
  succeeded: Schema.Number,
  failed: Schema.Number,
  progress: Schema.Number.annotate({ description: "processed / total, 0..1" }),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "BulkJob" })
export type BulkJob = typeof BulkJob.Type

export const JobRow = Schema.Struct({
  row: Schema.Number.annotate({ description: "1-based position in the source (CSV: after the header)" }),
  status: Schema.Literals(["started", "succeeded", "failed"]),
  taskId: Schema.NullOr(Id),
  error: Schema.NullOr(Schema.String)
}).annotate({ identifier: "BulkJobRow" })

/** A row to import: the task to create, or why it cannot be. */
export const PlannedRow = Schema.Struct({ row: Schema.Number, task: Schema.optionalKey(NewTask), error: Schema.optionalKey(Schema.String) })
export type PlannedRow = typeof PlannedRow.Type

const jobColumns = `id, workspace_id AS "workspaceId", kind, source, list_id AS "listId", status, total, processed, succeeded, failed,
  CASE WHEN total = 0 THEN 1 ELSE round(processed::numeric / total, 4)::float8 END AS progress, created_by AS "createdBy",
  ${isoTimestampSql("created_at")} AS "createdAt", ${isoTimestampSql("updated_at")} AS "updatedAt", ${isoTimestampSql("finished_at")} AS "finishedAt"`

export const jobOf = (jobId: string) =>
  Effect.flatMap(query<BulkJob>(`SELECT ${jobColumns} FROM pm_bulk_jobs WHERE id = $1`, [jobId]), (rows) =>
    rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new BulkJobNotFound())
  )

export const jobRows = (jobId: string, options: { status?: string; offset: number; limit: number }) =>
  query<typeof JobRow.Type>(
    `SELECT row_index AS row, status, task_id AS "taskId", error FROM pm_bulk_job_rows WHERE job_id = $1 AND ($4::text IS NULL OR status = $4)
      ORDER BY row_index LIMIT $2 OFFSET $3`,
    [jobId, options.limit, options.offset, options.status ?? null]
  )

const refreshCounts = (jobId: string) =>
  query(
    `UPDATE pm_bulk_jobs j SET processed = c.done, succeeded = c.ok, failed = c.bad, updated_at = now()
       FROM (SELECT count(*) FILTER (WHERE status <> 'started')::int AS done, count(*) FILTER (WHERE status = 'succeeded')::int AS ok,
                    count(*) FILTER (WHERE status = 'failed')::int AS bad FROM pm_bulk_job_rows WHERE job_id = $1) c
      WHERE j.id = $1`,
    [jobId]
  )

/**
 * The id of a new job: a fresh one, or, with an idempotency key, one derived
 * from (workspace, key), so the same key always reaches the same actor.
 */
export const newJobId = (workspaceId: string, idempotencyKey: string | null): string => {
  if (idempotencyKey === null) return crypto.randomUUID()
  const hex = createHash("sha256").update(`${workspaceId}\n${idempotencyKey}`).digest("hex")
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export const bulkJobCommands = {
  /** Queues the import whose id is the actor's; the same idempotency key again answers the job it made (and `existing: true`). */
  createImport: command(
    Schema.Struct({
      workspaceId: Id,
      source: ImportSource,
      listId: Id,
      spaceId: Id,
      rows: Schema.Array(PlannedRow),
      idempotencyKey: Schema.NullOr(Schema.String)
    }),
    Schema.Struct({ job: BulkJob, existing: Schema.Boolean }),
    BulkJobNotFound,
    (input, by, id) =>
      Effect.gen(function* () {
        const { workspaceId } = input
        if (input.idempotencyKey !== null) {
          const found = yield* query<{ id: string }>(`SELECT id FROM pm_bulk_jobs WHERE workspace_id = $1 AND idempotency_key = $2`, [
            workspaceId,
            input.idempotencyKey
          ])
          if (found[0]) return { result: { job: yield* jobOf(found[0].id), existing: true }, changes: [] }
        }
        yield* query(
          `INSERT INTO pm_bulk_jobs (id, workspace_id, kind, source, list_id, input, idempotency_key, status, total, created_by)
           VALUES ($1, $2, 'import', $3, $4, $5, $6, 'queued', $7, $8)`,
          [id, workspaceId, input.source, input.listId, { rows: input.rows }, input.idempotencyKey, input.rows.length, by]
        )
        yield* wakeAfterCommit(bulkJobQueued)
        return {
          result: { job: yield* jobOf(id), existing: false },
          changes: [
            change(
              { workspaceId, spaceId: input.spaceId, listId: input.listId },
              "import.queued",
              id,
              { source: input.source, rows: input.rows.length },
              by
            )
          ]
        }
      })
  ),

  /** Runs the job again: failed rows are retried, done ones never redone. */
  retry: command(Schema.Struct({}), BulkJob, Schema.Union([BulkJobNotFound, JobStillRunning]), (_input, by, jobId) =>
    Effect.gen(function* () {
      const job = yield* jobOf(jobId)
      if (job.status === "queued" || job.status === "running") return yield* new JobStillRunning()
      yield* query(`DELETE FROM pm_bulk_job_rows WHERE job_id = $1 AND status = 'failed'`, [jobId])
      yield* refreshCounts(jobId)
      yield* query(`UPDATE pm_bulk_jobs SET status = 'queued', finished_at = NULL, updated_at = now() WHERE id = $1`, [jobId])
      yield* wakeAfterCommit(bulkJobQueued)
      return {
        result: yield* jobOf(jobId),
        changes: [change({ workspaceId: job.workspaceId }, "import.retried", jobId, { failed: job.failed }, by)]
      }
    })
  ),

  /** The worker's progress: counts from the row results, and the job's end when it has one. */
  progress: command(
    Schema.Struct({ end: Schema.NullOr(Schema.Literals(["completed", "failed"])) }),
    BulkJob,
    BulkJobNotFound,
    (input, _by, jobId) =>
      Effect.gen(function* () {
        yield* refreshCounts(jobId)
        if (input.end !== null)
          yield* query(
            `UPDATE pm_bulk_jobs SET status = $2, finished_at = now(), lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE id = $1`,
            [jobId, input.end]
          )
        return { result: yield* jobOf(jobId), changes: [] }
      })
  )
}

const isJob = (id: string, value: unknown): value is BulkJob =>
  typeof value === "object" && value !== null && (value as { id?: unknown }).id === id && "progress" in value

export const PmBulkJob = workActor("pmBulkJob", bulkJobCommands, {
  state: Schema.NullOr(BulkJob),
  rebuild: (jobId) => orAbsent(jobOf(jobId)),
  reads: {
    get: stateRead(BulkJob, BulkJobNotFound)
  },
  afterCommand: (_name, result, _state, id) => {
    const job = typeof result === "object" && result !== null && "job" in result ? result.job : result
    return isJob(id, job) ? job : undefined
  }
})

/** Reports the worker's progress on a job through its actor (as the job's author). */
const reportProgress = (job: { readonly id: string; readonly createdBy: string }, end: "completed" | "failed" | null) =>
  send(PmBulkJob, job.id, "progress", job.createdBy, { end })

// ---------------------------------------------------------------------------
// The worker.

const NODE = crypto.randomUUID()
/** How long a job stays with a node that stopped renewing it (PM_BULK_LEASE_SECONDS). */
const LEASE_SECONDS = Number(process.env.PM_BULK_LEASE_SECONDS) > 0 ? Number(process.env.PM_BULK_LEASE_SECONDS) : 60

interface Claimed {
  readonly id: string
  readonly workspaceId: string
  readonly listId: string
  readonly createdBy: string
  readonly input: { readonly rows: ReadonlyArray<PlannedRow> }
}

const claimJob = query<Claimed>(
  `UPDATE pm_bulk_jobs SET status = 'running', lease_owner = $1, lease_until = now() + make_interval(secs => $2), updated_at = now()
    WHERE id = (SELECT id FROM pm_bulk_jobs WHERE status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
                 ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, workspace_id AS "workspaceId", list_id AS "listId", created_by AS "createdBy", input`,
  [NODE, LEASE_SECONDS]
)

const settleRow = (jobId: string, row: number, status: "succeeded" | "failed", taskId: string | null, error: string | null) =>
  query(`UPDATE pm_bulk_job_rows SET status = $3, task_id = $4, error = $5 WHERE job_id = $1 AND row_index = $2`, [
    jobId,
    row,
    status,
    taskId,
    error
  ])

/** The task a row interrupted by a crash did create, read from the change log. */
const createdBefore = (job: Claimed, row: PlannedRow, startedAt: string) =>
  Effect.map(
    query<{ entity_id: string }>(
      `SELECT entity_id FROM pm_events WHERE workspace_id = $1 AND type = 'task.created' AND list_id = $2 AND actor_id = $3
          AND at >= $4::timestamptz AND data->>'name' = $5 ORDER BY seq LIMIT 1`,
      [job.workspaceId, job.listId, job.createdBy, startedAt, row.task?.name ?? ""]
    ),
    (rows) => rows[0]?.entity_id
  )

const describe = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error
    ? String((error as { message: unknown }).message).slice(0, 500)
    : String(error)

const runRow = (job: Claimed, row: PlannedRow, started: ReadonlyMap<number, string>) =>
  Effect.gen(function* () {
    if (row.task === undefined) {
      yield* query(`INSERT INTO pm_bulk_job_rows (job_id, row_index, status, error) VALUES ($1, $2, 'failed', $3) ON CONFLICT DO NOTHING`, [
        job.id,
        row.row,
        row.error ?? "invalid row"
      ])
      return
    }
    const startedAt = started.get(row.row)
    if (startedAt !== undefined) {
      const taskId = yield* createdBefore(job, row, startedAt)
      if (taskId !== undefined) return yield* settleRow(job.id, row.row, "succeeded", taskId, null)
    } else {
      yield* query(`INSERT INTO pm_bulk_job_rows (job_id, row_index, status) VALUES ($1, $2, 'started')`, [job.id, row.row])
    }
    const created = yield* send(PmList, job.listId, "createTask", job.createdBy, row.task).pipe(Effect.result)
    if (created._tag === "Success") yield* settleRow(job.id, row.row, "succeeded", created.success.id, null)
    else yield* settleRow(job.id, row.row, "failed", null, describe(created.failure))
  })

const ROWS_PER_STEP = 25

/** Runs one claimed job to its end (or until its lease would lapse, renewing it every few rows). */
const runJob = (job: Claimed) =>
  Effect.gen(function* () {
    const results = yield* query<{ row_index: number; status: string; started_at: string }>(
      `SELECT row_index, status, started_at::text FROM pm_bulk_job_rows WHERE job_id = $1`,
      [job.id]
    )
    const done = new Set(results.filter((r) => r.status !== "started").map((r) => r.row_index))
    const started = new Map(results.filter((r) => r.status === "started").map((r) => [r.row_index, r.started_at]))
    const todo = job.input.rows.filter((r) => !done.has(r.row))
    for (let i = 0; i < todo.length; i++) {
      yield* runRow(job, todo[i]!, started)
      if (i % ROWS_PER_STEP === ROWS_PER_STEP - 1) {
        yield* reportProgress(job, null)
        yield* query(`UPDATE pm_bulk_jobs SET lease_until = now() + make_interval(secs => $2) WHERE id = $1 AND lease_owner = $3`, [
          job.id,
          LEASE_SECONDS,
          NODE
        ])
      }
    }
    yield* reportProgress(job, "completed")
  })

/** The wake-up topic (runtime/Wakeup.ts) of the job worker: a job queued or retried. */
export const bulkJobQueued = "pm.bulk.queued"

/**
 * Runs queued jobs one after another, forever: woken when a job is queued,
 * looking on its own every PM_BULK_POLL_MS (default: the safety poll) for
 * jobs queued elsewhere or left by a dead node.
 */
export const bulkJobWorker = () => {
  const pollMs = Number(process.env.PM_BULK_POLL_MS) > 0 ? Number(process.env.PM_BULK_POLL_MS) : safetyPollMillis()
  const pass = Effect.gen(function* () {
    const [job] = yield* claimJob
    if (job === undefined) return nothingLeft
    // The claim made the job running: its actor reads it again.
    yield* ActorSystem.use((system) => system.invalidate(PmBulkJob, job.id))
    yield* runJob(job).pipe(
      Effect.catchCause((cause) => Effect.andThen(Effect.logWarning(`bulk job ${job.id} failed`, cause), reportProgress(job, "failed")))
    )
    return moreLeft
  }).pipe(Effect.catchCause((cause) => Effect.as(Effect.logWarning("bulk jobs: pass failed", cause), { dueAt: Date.now() + 500 })))
  return runWorker(bulkJobQueued, pass, { safetyMillis: pollMs })
}
