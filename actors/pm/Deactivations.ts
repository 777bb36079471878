/**
 * Deactivated members: taken out of the workspace (they lose access like a
 * removed member) while their role is kept, so an admin can bring them back
 * as they were. The workspace's `PmOrganization` actor is the single writer
 * of `pm_workspace_deactivations`; the facade removes and re-admits the user
 * in the identity workspace around these commands (whose membership history
 * records both, with the reason).
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { DeactivatedMemberNotFound, OrganizationRefused } from "./OrganizationErrors.ts"
import { Id } from "../Fields.ts"
import { AssignableRole } from "../identity/Workspace.ts"
import { userRefs } from "./Members.ts"
import { command } from "./WorkActor.ts"

export interface Deactivation {
  readonly userId: string
  readonly email: string
  readonly name: string
  readonly role: typeof AssignableRole.Type
  readonly deactivatedBy: string
  readonly deactivatedAt: string
}

/** Deactivated members, most recent first (optionally one), with their e-mail and name (empty for an account that is gone). */
export const deactivationsOf = (workspaceId: string, userId?: string) =>
  Effect.gen(function* () {
    const rows = yield* query<Omit<Deactivation, "email" | "name">>(
      `SELECT user_id AS "userId", role, deactivated_by AS "deactivatedBy", deactivated_at AS "deactivatedAt"
         FROM pm_workspace_deactivations WHERE workspace_id = $1 AND ($2::text IS NULL OR user_id = $2) ORDER BY deactivated_at DESC, user_id`,
      [workspaceId, userId ?? null]
    )
    const users = yield* userRefs(rows.map((row) => row.userId))
    return rows.map(
      ({ userId, ...row }): Deactivation => ({ userId, email: users.get(userId)?.email ?? "", name: users.get(userId)?.name ?? "", ...row })
    )
  })

/** A member's deactivation: who, with the role they keep for reactivation. */
const Kept = Schema.Struct({ userId: Id, role: AssignableRole })

export const deactivationCommands = {
  /** Records a deactivation (after the identity workspace removed the member). */
  recordDeactivation: command(Kept, Schema.Void, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      yield* query(
        `INSERT INTO pm_workspace_deactivations (workspace_id, user_id, role, deactivated_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, deactivated_by = excluded.deactivated_by, deactivated_at = now()`,
        [workspaceId, input.userId, input.role, by]
      )
      // The removal itself is in the workspace's membership history.
      return { result: undefined, changes: [] }
    })
  ),

  /** Takes the record back (before the identity workspace re-admits the user); returns the kept role. */
  takeDeactivation: command(Schema.Struct({ userId: Id }), AssignableRole, OrganizationRefused, (input, _by, workspaceId) =>
    Effect.gen(function* () {
      const rows = yield* query<{ role: typeof AssignableRole.Type }>(
        `DELETE FROM pm_workspace_deactivations WHERE workspace_id = $1 AND user_id = $2 RETURNING role`,
        [workspaceId, input.userId]
      )
      if (rows.length === 0) return yield* new DeactivatedMemberNotFound()
      return { result: rows[0]!.role, changes: [] }
    })
  ),

  /** Puts a taken record back when re-admitting failed. */
  restoreDeactivation: command(Kept, Schema.Void, OrganizationRefused, (input, by, workspaceId) =>
    Effect.gen(function* () {
      yield* query(
        `INSERT INTO pm_workspace_deactivations (workspace_id, user_id, role, deactivated_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [workspaceId, input.userId, input.role, by]
      )
      return { result: undefined, changes: [] }
    })
  )
}
