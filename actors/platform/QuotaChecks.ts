/**
 * The workspace quota checked where things are created: tasks (every path
 * goes through `insertTasks`, which checks each task against `taskRoom`)
 * and attachment bytes. The quota's own stored state is read here (its
 * actor persists it before acknowledging a change); usage is counted only
 * when a limit is set, so a workspace without a quota pays one indexed read
 * per batch of creations. Concurrent creations may overshoot a
 * limit by the few that race; the next ones are refused.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"

/** A new task (given at `field`) beyond the workspace's quota of `limit` tasks. */
export class TaskQuotaReached extends Schema.TaggedError<TaskQuotaReached>()("TaskQuotaReached", {
  limit: Schema.Number,
  field: Schema.String
}) {
  override get message() {
    return `The workspace has reached its quota of ${this.limit} tasks`
  }
  get details() {
    return [{ path: this.field, message: `quota of ${this.limit} tasks reached` }]
  }
}

/** An upload beyond the workspace's quota of `limit` stored bytes. */
export class StorageQuotaReached extends Schema.TaggedError<StorageQuotaReached>()("StorageQuotaReached", { limit: Schema.Number }) {
  override get message() {
    return `The workspace has reached its storage quota of ${this.limit} bytes`
  }
  get details() {
    return [{ path: "body", message: "storage quota reached" }]
  }
}

export type QuotaError = TaskQuotaReached | StorageQuotaReached

const limitOf = (workspaceId: string, resource: "tasks" | "storageBytes") =>
  Effect.map(
    query<{ limit: number | string | null }>(
      `SELECT (state->'limits'->>'${resource}')::bigint AS "limit" FROM actor_state WHERE kind = 'workspaceQuota' AND id = $1`,
      [workspaceId]
    ),
    (rows) => (rows[0]?.limit === null || rows[0]?.limit === undefined ? null : Number(rows[0].limit))
  )

/**
 * How many more tasks the workspace may have: its limit less its tasks (the count read only when a limit
 * is set), or undefined without a limit.
 */
export const taskRoom = (workspaceId: string) =>
  Effect.gen(function* () {
    const limit = yield* limitOf(workspaceId, "tasks")
    if (limit === null) return undefined
    const [row] = yield* query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pm_tasks WHERE workspace_id = $1 AND deleted_at IS NULL`,
      [workspaceId]
    )
    return { limit, left: limit - row!.count }
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
    if (Number(row!.used) + bytes > limit) return yield* new StorageQuotaReached({ limit })
  })
