/**
 * Deactivated members: taken out of the workspace (they lose access like a
 * removed member) while their role is kept, so an admin can bring them back
 * as they were. The workspace's `PmOrganization` actor is the single writer
 * of `pm_workspace_deactivations`; the facade removes and re-admits the user
 * in the identity workspace around these commands (whose membership history
 * records both, with the reason).
 */
import { Effect } from "effect"
import type { BlobStore } from "../../persistence/BlobStore.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import { reject, type Rejection } from "../../runtime/Rejection.ts"
import type { Role } from "../identity/Workspace.ts"
import type { Outcome } from "./WorkActor.ts"

type Result<A> = Effect.Effect<Outcome<A>, Rejection | SqlError, Sql | BlobStore>

export interface Deactivation {
  readonly userId: string
  readonly email: string
  readonly name: string
  readonly role: Exclude<Role, "owner">
  readonly deactivatedBy: string
  readonly deactivatedAt: string
}

export const deactivationsOf = (workspaceId: string, userId?: string) =>
  query<Deactivation>(
    `SELECT d.user_id AS "userId", COALESCE(a.state->>'email', '') AS email, COALESCE(a.state->>'name', '') AS name, d.role,
            d.deactivated_by AS "deactivatedBy", d.deactivated_at AS "deactivatedAt"
       FROM pm_workspace_deactivations d LEFT JOIN actor_state a ON a.kind = 'account' AND a.state->>'userId' = d.user_id
      WHERE d.workspace_id = $1 AND ($2::text IS NULL OR d.user_id = $2) ORDER BY d.deactivated_at DESC, d.user_id`,
    [workspaceId, userId ?? null]
  )

export const deactivationCommands = {
  /** Records a deactivation (after the identity workspace removed the member). */
  recordDeactivation: (input: { readonly userId: string; readonly role: Exclude<Role, "owner"> }, by: string, workspaceId: string): Result<void> =>
    Effect.gen(function* () {
      yield* query(
        `INSERT INTO pm_workspace_deactivations (workspace_id, user_id, role, deactivated_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, deactivated_by = excluded.deactivated_by, deactivated_at = now()`,
        [workspaceId, input.userId, input.role, by]
      )
      // The removal itself is in the workspace's membership history.
      return { result: undefined, changes: [] }
    }),

  /** Takes the record back (before the identity workspace re-admits the user); returns the kept role. */
  takeDeactivation: (input: { readonly userId: string }, _by: string, workspaceId: string): Result<Exclude<Role, "owner">> =>
    Effect.gen(function* () {
      const rows = yield* query<{ role: Exclude<Role, "owner"> }>(`DELETE FROM pm_workspace_deactivations WHERE workspace_id = $1 AND user_id = $2 RETURNING role`, [workspaceId, input.userId])
      if (rows.length === 0) return yield* reject("not_found", "No deactivated member with this id")
      return { result: rows[0]!.role, changes: [] }
    }),

  /** Puts a taken record back when re-admitting failed. */
  restoreDeactivation: (input: { readonly userId: string; readonly role: Exclude<Role, "owner"> }, by: string, workspaceId: string): Result<void> =>
    Effect.gen(function* () {
      yield* query(`INSERT INTO pm_workspace_deactivations (workspace_id, user_id, role, deactivated_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [workspaceId, input.userId, input.role, by])
      return { result: undefined, changes: [] }
    })
}
