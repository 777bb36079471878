/**
 * Workspace migration jobs (hub "Workspace Migration Resource"): one row per
 * export+import, queued by the request and run in the background by one node
 * at a time (a lease; `MigrationRunner.ts`). Each finished item is recorded
 * as a step naming the exported item, so a job a restart interrupted resumes
 * after its last recorded step. The target credential is kept encrypted
 * while the job is unfinished, and erased when it ends.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query as sqlQuery, wakeAfterCommit } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"
import { HubKeys } from "./HubKeys.ts"

const query = <R extends object>(text: string, params: ReadonlyArray<unknown>) => Effect.orDie(sqlQuery<R>(text, params))

export const MigrationStep = Schema.Struct({
  item: Schema.String.annotate({ description: "The exported item (`settings`, `member:<email>`, `recording:<id>`, …)" }),
  name: Schema.String,
  ok: Schema.Boolean,
  status: Schema.NullOr(Schema.Number).annotate({ description: "The target's HTTP status of the item's last call" }),
  detail: Schema.String
})
export type MigrationStep = typeof MigrationStep.Type

export const MigrationStatus = Schema.Literals(["queued", "running", "completed", "completed_with_errors", "failed"]).annotate({
  description:
    "queued: waiting for a runner; running: importing (resumed after a restart); completed: every item imported; completed_with_errors: some were refused (see steps); failed: stopped (see error)"
})

export const WorkspaceMigration = Schema.Struct({
  id: Id,
  workspaceId: Id,
  targetOrigin: Schema.String,
  targetWorkspaceId: Id,
  status: MigrationStatus,
  progress: Schema.Struct({
    done: Schema.Number.annotate({ description: "Items imported (or refused) so far" }),
    total: Schema.Number.annotate({ description: "Items exported; 0 until the export ran" })
  }),
  steps: Schema.Array(MigrationStep),
  error: Schema.NullOr(Schema.String),
  createdBy: Id,
  createdAt: Timestamp,
  startedAt: Schema.NullOr(Timestamp),
  finishedAt: Schema.NullOr(Timestamp)
}).annotate({
  identifier: "WorkspaceMigration",
  description: "An export of a workspace's hub data and its import into another deployment, run as a background job."
})
export type WorkspaceMigration = typeof WorkspaceMigration.Type

const columns = `id, workspace_id AS "workspaceId", target_origin AS "targetOrigin", target_workspace_id AS "targetWorkspaceId", status,
  json_build_object('done', jsonb_array_length(steps), 'total', total) AS progress, steps, error, created_by AS "createdBy",
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt"`

export interface NewMigration {
  readonly workspaceId: string
  readonly targetOrigin: string
  readonly targetWorkspaceId: string
  readonly targetCredential: string
  readonly createdBy: string
}

/** The wake-up topic (runtime/Wakeup.ts) of the migration runner. */
export const migrationQueued = "hub.migrations.queued"

/** Queues the job (the credential sealed; the runner woken once it commits); answers it. */
export const queueMigration = (job: NewMigration) =>
  Effect.gen(function* () {
    const keys = yield* HubKeys
    const [row] = yield* query<WorkspaceMigration>(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by, credential_ciphertext)
       VALUES ($1, $2, $3, $4, 'queued', '[]', $5, $6) RETURNING ${columns}`,
      [randomUUID(), job.workspaceId, job.targetOrigin, job.targetWorkspaceId, job.createdBy, keys.encrypt(job.targetCredential)]
    )
    yield* wakeAfterCommit(migrationQueued)
    return row!
  })

/** The job still queued or running that moves this workspace to that target, if any. */
export const unfinishedMigration = (workspaceId: string, targetOrigin: string, targetWorkspaceId: string) =>
  Effect.map(
    query<WorkspaceMigration>(
      `SELECT ${columns} FROM hub_workspace_migrations
        WHERE workspace_id = $1 AND target_origin = $2 AND target_workspace_id = $3 AND status IN ('queued', 'running')
        ORDER BY created_at DESC LIMIT 1`,
      [workspaceId, targetOrigin, targetWorkspaceId]
    ),
    (rows) => rows[0]
  )

export const migrationOf = (id: string) =>
  Effect.map(query<WorkspaceMigration>(`SELECT ${columns} FROM hub_workspace_migrations WHERE id = $1`, [id]), (rows) => rows[0])

/** A lease on a running job; renewed while it runs, so a job outlives it only when its node died. */
export const LEASE_SECONDS = 120

export interface ClaimedMigration {
  readonly id: string
  readonly workspaceId: string
  readonly targetOrigin: string
  readonly targetWorkspaceId: string
  readonly createdBy: string
  readonly credential: string
  readonly steps: ReadonlyArray<MigrationStep>
}

/** Claims the oldest job waiting (queued, or running with a lapsed lease: its node died) for this node. */
export const claimMigration = Effect.gen(function* () {
  const keys = yield* HubKeys
  const [row] = yield* query<Omit<ClaimedMigration, "credential"> & { sealed: string | null }>(
    `UPDATE hub_workspace_migrations SET status = 'running', runs = runs + 1, started_at = COALESCE(started_at, now()),
            lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id = (SELECT id FROM hub_workspace_migrations
                   WHERE status = 'queued' OR (status = 'running' AND (lease_until IS NULL OR lease_until < now()))
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, workspace_id AS "workspaceId", target_origin AS "targetOrigin", target_workspace_id AS "targetWorkspaceId",
                created_by AS "createdBy", credential_ciphertext AS sealed, steps`,
    []
  )
  if (!row) return undefined
  const { sealed, ...job } = row
  return { ...job, credential: sealed ? keys.decrypt(sealed) : "" } satisfies ClaimedMigration
})

export const renewMigrationLease = (id: string) =>
  query(
    `UPDATE hub_workspace_migrations SET lease_until = now() + make_interval(secs => ${LEASE_SECONDS}) WHERE id = $1 AND status = 'running'`,
    [id]
  )

export const setMigrationTotal = (id: string, total: number) =>
  query(`UPDATE hub_workspace_migrations SET total = $2 WHERE id = $1`, [id, total])

/** Records one finished item (its step) on the job. */
export const recordMigrationStep = (id: string, step: MigrationStep) =>
  query(`UPDATE hub_workspace_migrations SET steps = steps || $2::text::jsonb WHERE id = $1`, [id, JSON.stringify([step])])

/** Ends the job: its status from the steps (or the error), the credential erased. */
export const finishMigration = (id: string, error: string | null) =>
  Effect.map(
    query<WorkspaceMigration>(
      `UPDATE hub_workspace_migrations
          SET status = CASE WHEN $2::text IS NOT NULL THEN 'failed'
                            WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(steps) AS step WHERE NOT (step->>'ok')::boolean)
                              THEN 'completed_with_errors'
                            ELSE 'completed' END,
              error = $2, finished_at = now(), lease_until = NULL, credential_ciphertext = NULL
        WHERE id = $1 RETURNING ${columns}`,
      [id, error]
    ),
    (rows) => rows[0]!
  )

/** How often a job may be started (a restart resumes it) before it is failed instead: a job that kills its node stops. */
export const MAX_MIGRATION_RUNS = 5

export const runsOf = (id: string) =>
  Effect.map(query<{ runs: number }>(`SELECT runs FROM hub_workspace_migrations WHERE id = $1`, [id]), (rows) => rows[0]?.runs ?? 0)
