/**
 * Reads of the links between a board's requests and bug reports and pm tasks
 * (`feedback_work_links`), of a board's work-progress declaration, and the
 * progress worker's cursors: statements with their request and row schemas,
 * so the facade and pm read no feedback table themselves.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { iso } from "../wiki/WikiQueries.ts"
import type { WorkItemKind, WorkProgress } from "./WorkLinks.ts"

const Kind = Schema.Literals(["request", "bug"])

const findTasksOf = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ task_id: Schema.String, linked_by: Schema.String, linked_at: Schema.Unknown }),
  execute: (itemId) => [
    "SELECT task_id, linked_by, linked_at FROM feedback_work_links WHERE item_id = $1 ORDER BY linked_at, task_id",
    [itemId]
  ]
})

/** The tasks linked to a request or bug report, oldest link first. */
export const tasksLinkedTo = (itemId: string) =>
  Effect.map(findTasksOf(itemId), (rows) => rows.map((r) => ({ taskId: r.task_id, linkedBy: r.linked_by, linkedAt: iso(r.linked_at) })))

const LinkedItemRow = Schema.Struct({
  task_id: Schema.String,
  item_kind: Kind,
  item_id: Schema.String,
  board_id: Schema.String,
  number: Schema.Number,
  title: Schema.String,
  vote_count: Schema.Number,
  status_id: Schema.NullOr(Schema.String),
  linked_at: Schema.Unknown
})

const findItemsOf = SqlSchema.findAll({
  Request: Schema.Array(Schema.String),
  Result: LinkedItemRow,
  execute: (taskIds) => [
    `SELECT l.task_id, l.item_kind, l.item_id, l.board_id, r.number, r.title, r.vote_count, r.status_id, l.linked_at
       FROM feedback_work_links l JOIN feedback_requests r ON r.id = l.item_id
      WHERE l.task_id = ANY($1::text[]) AND l.item_kind = 'request'
     UNION ALL
     SELECT l.task_id, l.item_kind, l.item_id, l.board_id, b.number, b.title, 0, b.bug_status_level_id, l.linked_at
       FROM feedback_work_links l JOIN feedback_bug_reports b ON b.id = l.item_id
      WHERE l.task_id = ANY($1::text[]) AND l.item_kind = 'bug' AND b.deleted_at IS NULL
     ORDER BY linked_at, item_id`,
    [taskIds]
  ]
})

export interface LinkedItem {
  readonly taskId: string
  readonly kind: WorkItemKind
  readonly id: string
  readonly boardId: string
  readonly number: number
  readonly title: string
  readonly voteCount: number
  /** A request's status, or a bug report's status level (an option of its board). */
  readonly statusId: string | null
  readonly linkedAt: string
}

/** The requests and bug reports linked to these tasks (the caller checks which boards the reader may see). */
export const itemsLinkedTo = (taskIds: ReadonlyArray<string>) =>
  taskIds.length === 0
    ? Effect.succeed([] as ReadonlyArray<LinkedItem>)
    : Effect.map(findItemsOf(taskIds), (rows) =>
        rows.map(
          (r): LinkedItem => ({
            taskId: r.task_id,
            kind: r.item_kind,
            id: r.item_id,
            boardId: r.board_id,
            number: Number(r.number),
            title: r.title,
            voteCount: Number(r.vote_count),
            statusId: r.status_id,
            linkedAt: iso(r.linked_at)
          })
        )
      )

const findLinkedRequests = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ item_id: Schema.String, board_id: Schema.String }),
  execute: (workspaceId) => [
    "SELECT DISTINCT item_id, board_id FROM feedback_work_links WHERE workspace_id = $1 AND item_kind = 'request' ORDER BY item_id",
    [workspaceId]
  ]
})

/** Every request of the workspace with linked work. */
export const requestsWithWork = (workspaceId: string) =>
  Effect.map(findLinkedRequests(workspaceId), (rows) => rows.map((r) => ({ requestId: r.item_id, boardId: r.board_id })))

const findProgress = SqlSchema.findOne({
  Request: Schema.String,
  Result: Schema.Struct({ started_status_id: Schema.NullOr(Schema.String), done_status_id: Schema.NullOr(Schema.String) }),
  execute: (boardId) => ["SELECT started_status_id, done_status_id FROM feedback_work_progress WHERE board_id = $1", [boardId]]
})

/** What the board declared (both null when it declared nothing). */
export const workProgressOf = (boardId: string) =>
  Effect.map(
    findProgress(boardId),
    (row): WorkProgress => ({ startedStatusId: row?.started_status_id ?? null, doneStatusId: row?.done_status_id ?? null })
  )

const findCursors = SqlSchema.findAll({
  Request: Schema.Void,
  Result: Schema.Struct({ workspace_id: Schema.String, last_seq: Schema.Union([Schema.Number, Schema.String]) }),
  execute: () => ["SELECT workspace_id, last_seq FROM feedback_work_cursors", []]
})

/** Every workspace with linked work and how far its pm log was read. */
export const workCursors = Effect.map(findCursors(undefined), (rows) =>
  rows.map((r) => ({ workspaceId: r.workspace_id, lastSeq: Number(r.last_seq) }))
)

/** Takes (or renews) the workspace's lease for `node`; the cursor, or undefined when another node holds it. */
export const leaseWorkCursor = (workspaceId: string, node: string, leaseSeconds: number) =>
  Effect.map(
    query<{ last_seq: number | string }>(
      `UPDATE feedback_work_cursors SET lease_owner = $2, lease_until = now() + make_interval(secs => $3)
        WHERE workspace_id = $1 AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2) RETURNING last_seq`,
      [workspaceId, node, leaseSeconds]
    ),
    (rows) => (rows[0] === undefined ? undefined : Number(rows[0].last_seq))
  )

/** Moves the cursor forward (only while `node` holds the lease: a node that lost it writes nothing). */
export const advanceWorkCursor = (workspaceId: string, node: string, seq: number) =>
  query("UPDATE feedback_work_cursors SET last_seq = $3 WHERE workspace_id = $1 AND lease_owner = $2 AND last_seq < $3", [
    workspaceId,
    node,
    seq
  ])
