/**
 * The workspace quota checked where things are created: tasks (every path
 * goes through `insertTask`) and attachment bytes. The quota's own stored
 * state is read here (its actor persists it before acknowledging a change);
 * usage is counted only when a limit is set, so a workspace without a quota
 * pays one indexed read per creation. Concurrent creations may overshoot a
 * limit by the few that race; the next ones are refused.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { reject } from "../../runtime/Rejection.ts"

const limitOf = (workspaceId: string, resource: "tasks" | "storageBytes") =>
  Effect.map(
    query<{ limit: number | string | null }>(
      `SELECT (state->'limits'->>'${resource}')::bigint AS "limit" FROM actor_state WHERE kind = 'workspaceQuota' AND id = $1`,
      [workspaceId]
    ),
    (rows) => (rows[0]?.limit === null || rows[0]?.limit === undefined ? null : Number(rows[0].limit))
  )

/** Refuses a new task beyond the workspace's task quota. */
export const requireTaskRoom = (workspaceId: string, path: string) =>
  Effect.gen(function* () {
    const limit = yield* limitOf(workspaceId, "tasks")
    if (limit === null) return
    const [row] = yield* query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL`,
      [workspaceId]
    )
    if (row!.count + 1 > limit)
      return yield* reject("conflict", `The workspace has reached its quota of ${limit} tasks`, [
        { path, message: `quota of ${limit} tasks reached` }
      ])
  })

/** Refuses an upload that would take the workspace's stored attachment bytes beyond its quota. */
export const requireStorageRoom = (workspaceId: string, bytes: number) =>
  Effect.gen(function* () {
    const limit = yield* limitOf(workspaceId, "storageBytes")
    if (limit === null) return
    const [row] = yield* query<{ used: number | string }>(
      `SELECT COALESCE(sum(size), 0)::bigint AS used FROM pm_attachments WHERE workspace_id = $1`,
      [workspaceId]
    )
    if (Number(row!.used) + bytes > limit)
      return yield* reject("conflict", `The workspace has reached its storage quota of ${limit} bytes`, [
        { path: "body", message: "storage quota reached" }
      ])
  })
