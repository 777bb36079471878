/**
 * What a workspace member did, as another member may see it (only in the
 * spaces the viewer may see), and which private spaces they belong to.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { type Viewer, visibleSpace } from "./StructureReads.ts"

const findActivity = SqlSchema.findOne({
  Request: Schema.Struct({ workspaceId: Schema.String, memberId: Schema.String, userId: Schema.String, admin: Schema.Boolean }),
  Result: Schema.Struct({
    open: Schema.Number,
    done: Schema.Number,
    overdue: Schema.Number,
    created: Schema.Number,
    comments: Schema.Number,
    tracked: Schema.Number,
    lastActiveAt: Schema.NullOr(Schema.String),
    recent: Schema.Number
  }),
  execute: (r) => {
    const visible = visibleSpace("s", 3, 4)
    return [
      `SELECT
       (SELECT count(*) FILTER (WHERE t.closed_at IS NULL)::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
         WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS open,
       (SELECT count(*) FILTER (WHERE t.closed_at IS NOT NULL)::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
         WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS done,
       (SELECT count(*) FILTER (WHERE t.closed_at IS NULL AND t.due_date < now())::int FROM pm_task_assignees a JOIN pm_tasks t ON t.id = a.task_id JOIN pm_spaces s ON s.id = t.space_id
         WHERE a.user_id = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS overdue,
       (SELECT count(*)::int FROM pm_tasks t JOIN pm_spaces s ON s.id = t.space_id WHERE t.created_by = $2 AND t.workspace_id = $1 AND t.deleted_at IS NULL AND s.deleted_at IS NULL AND ${visible}) AS created,
       (SELECT count(*)::int FROM pm_comments c JOIN pm_tasks t ON t.id = c.task_id JOIN pm_spaces s ON s.id = t.space_id
         WHERE c.author_id = $2 AND c.workspace_id = $1 AND c.deleted_at IS NULL AND t.deleted_at IS NULL AND ${visible}) AS comments,
       (SELECT COALESCE(sum(EXTRACT(EPOCH FROM (COALESCE(e.ended_at, now()) - e.started_at)) / 60), 0)::int FROM pm_time_entries e JOIN pm_tasks t ON t.id = e.task_id JOIN pm_spaces s ON s.id = t.space_id
         WHERE e.user_id = $2 AND e.workspace_id = $1 AND t.deleted_at IS NULL AND ${visible}) AS tracked,
       (SELECT max(at) FROM pm_events WHERE workspace_id = $1 AND actor_id = $2) AS "lastActiveAt",
       (SELECT count(*)::int FROM pm_events WHERE workspace_id = $1 AND actor_id = $2 AND at > now() - interval '30 days') AS recent`,
      [r.workspaceId, r.memberId, r.userId, r.admin]
    ]
  }
})

/**
 * A member's assigned tasks (open, done, overdue), tasks created, comments
 * and minutes tracked in the spaces the viewer may see, when they last
 * changed anything and how many changes in the last 30 days.
 */
export const memberActivity = (workspaceId: string, memberId: string, viewer: Viewer) =>
  Effect.map(findActivity({ workspaceId, memberId, userId: viewer.userId, admin: viewer.admin }), (row) => row!)

const findSpaceMemberships = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ spaceId: Schema.String }),
  execute: (userId) => [`SELECT space_id AS "spaceId" FROM pm_space_members WHERE user_id = $1`, [userId]]
})

/** The spaces (of any workspace) the user is an explicit member of. */
export const spaceMembershipsOf = (userId: string) =>
  Effect.map(findSpaceMemberships(userId), (rows) => new Set(rows.map((row) => row.spaceId)))

const findMemberSpaces = SqlSchema.findAll({
  Request: Schema.Struct({ workspaceId: Schema.String, userIds: Schema.Array(Schema.String) }),
  Result: Schema.Struct({ userId: Schema.String, id: Schema.String, name: Schema.String }),
  execute: (r) => [
    `SELECT m.user_id AS "userId", s.id, s.name FROM pm_space_members m JOIN pm_spaces s ON s.id = m.space_id
      WHERE s.workspace_id = $1 AND s.deleted_at IS NULL AND m.user_id = ANY($2::text[]) ORDER BY s.position, s.created_at`,
    [r.workspaceId, r.userIds]
  ]
})

/** The (not deleted) spaces of the workspace each of these users is an explicit member of, in order. */
export const memberSpaces = (workspaceId: string, userIds: ReadonlyArray<string>) => findMemberSpaces({ workspaceId, userIds })
