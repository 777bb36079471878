/** Workspace migration jobs (hub "Workspace Migration Resource"): one row per export+import, its steps and outcome. */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { query as sqlQuery } from "../../persistence/Sql.ts"
import { Id, Timestamp } from "../Fields.ts"

const query = <R extends object>(text: string, params: ReadonlyArray<unknown>) => Effect.orDie(sqlQuery<R>(text, params))

export const MigrationStep = Schema.Struct({
  name: Schema.String,
  ok: Schema.Boolean,
  status: Schema.NullOr(Schema.Number).annotate({ description: "The target's HTTP status for an import step" }),
  detail: Schema.String
})
export type MigrationStep = typeof MigrationStep.Type

export const MigrationStatus = Schema.Literals(["running", "completed", "completed_with_errors", "failed"])

export const WorkspaceMigration = Schema.Struct({
  id: Id,
  workspaceId: Id,
  targetOrigin: Schema.String,
  targetWorkspaceId: Id,
  status: MigrationStatus,
  steps: Schema.Array(MigrationStep),
  error: Schema.NullOr(Schema.String),
  createdBy: Id,
  createdAt: Timestamp,
  finishedAt: Schema.NullOr(Timestamp)
}).annotate({
  identifier: "WorkspaceMigration",
  description: "An export of a workspace's hub data and its import into another deployment."
})
export type WorkspaceMigration = typeof WorkspaceMigration.Type

const columns = `id, workspace_id AS "workspaceId", target_origin AS "targetOrigin", target_workspace_id AS "targetWorkspaceId", status, steps,
  error, created_by AS "createdBy", created_at AS "createdAt", finished_at AS "finishedAt"`

export const startMigration = (job: { workspaceId: string; targetOrigin: string; targetWorkspaceId: string; createdBy: string }) =>
  Effect.map(
    query<{ id: string }>(
      `INSERT INTO hub_workspace_migrations (id, workspace_id, target_origin, target_workspace_id, status, steps, created_by)
       VALUES ($1, $2, $3, $4, 'running', '[]', $5) RETURNING id`,
      [randomUUID(), job.workspaceId, job.targetOrigin, job.targetWorkspaceId, job.createdBy]
    ),
    (rows) => rows[0]!.id
  )

export const finishMigration = (id: string, steps: ReadonlyArray<MigrationStep>, error: string | null) => {
  const status = error !== null ? "failed" : steps.every((step) => step.ok) ? "completed" : "completed_with_errors"
  return Effect.map(
    query<WorkspaceMigration>(
      `UPDATE hub_workspace_migrations SET status = $2, steps = $3, error = $4, finished_at = now() WHERE id = $1 RETURNING ${columns}`,
      [id, status, steps, error]
    ),
    (rows) => rows[0]!
  )
}
