/**
 * Reads of a board's rows for its public pages and the moderation queue
 * that the Board actor's memory does not hold (comments, status history,
 * anonymous visitors' votes, boards by slug): statements with their request
 * and row schemas (`SqlSchema`), so the facade runs no SQL.
 */
import { Effect, Schema } from "effect"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { iso, isoOrNull } from "../wiki/WikiQueries.ts"

/** A timestamp column as the driver returns it (a Date); shown as ISO text. */
const At = Schema.Unknown

const VisitorVote = Schema.Struct({ requestId: Schema.String, voterKey: Schema.String })

const findVisitorVote = SqlSchema.findOne({
  Request: VisitorVote,
  Result: Schema.Struct({ voted: Schema.Number }),
  execute: ({ requestId, voterKey }) => [
    `SELECT 1 AS voted FROM feedback_votes WHERE request_id = $1 AND voter_key = $2`,
    [requestId, voterKey]
  ]
})

/** Whether this voter (an anonymous visitor's key) voted for the request. */
export const hasVoted = (requestId: string, voterKey: string) =>
  Effect.map(findVisitorVote({ requestId, voterKey }), (row) => row !== undefined)

const findVotedRequests = SqlSchema.findAll({
  Request: Schema.Struct({ boardId: Schema.String, voterKey: Schema.String }),
  Result: Schema.Struct({ request_id: Schema.String }),
  execute: ({ boardId, voterKey }) => [`SELECT request_id FROM feedback_votes WHERE board_id = $1 AND voter_key = $2`, [boardId, voterKey]]
})

/** The ids of the board's requests this voter voted for. */
export const votedRequestIds = (boardId: string, voterKey: string) =>
  Effect.map(findVotedRequests({ boardId, voterKey }), (rows) => new Set(rows.map((r) => r.request_id)))

const PublicCommentRow = Schema.Struct({
  id: Schema.String,
  parent_id: Schema.NullOr(Schema.String),
  author_id: Schema.NullOr(Schema.String),
  author_name: Schema.NullOr(Schema.String),
  body: Schema.String,
  edited_at: At,
  created_at: At
})

const findPublicComments = SqlSchema.findAll({
  Request: Schema.String,
  Result: PublicCommentRow,
  execute: (requestId) => [
    `SELECT id, parent_id, author_id, author_name, body, edited_at, created_at FROM feedback_comments
      WHERE request_id = $1 AND NOT internal AND deleted_at IS NULL AND moderation_state = 'approved' ORDER BY created_at, id`,
    [requestId]
  ]
})

/** A request's comments a visitor may read (approved, not internal, not deleted), oldest first. */
export const publicComments = (requestId: string) =>
  Effect.map(findPublicComments(requestId), (rows) =>
    rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      authorId: r.author_id,
      authorName: r.author_name,
      body: r.body,
      edited: isoOrNull(r.edited_at) !== null,
      createdAt: iso(r.created_at)
    }))
  )

const findStatusHistory = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ from_name: Schema.NullOr(Schema.String), to_name: Schema.NullOr(Schema.String), changed_at: At }),
  execute: (requestId) => [
    `SELECT from_name, to_name, changed_at FROM feedback_status_history WHERE request_id = $1 ORDER BY changed_at, id`,
    [requestId]
  ]
})

/** A request's status changes, oldest first. */
export const statusHistory = (requestId: string) =>
  Effect.map(findStatusHistory(requestId), (rows) => rows.map((r) => ({ from: r.from_name, to: r.to_name, at: iso(r.changed_at) })))

const findRecentStatusChanges = SqlSchema.findAll({
  Request: Schema.Struct({ boardId: Schema.String, limit: Schema.Number }),
  Result: Schema.Struct({ request_id: Schema.String, to_name: Schema.NullOr(Schema.String), changed_at: At }),
  execute: ({ boardId, limit }) => [
    `SELECT h.request_id, h.to_name, h.changed_at FROM feedback_status_history h JOIN feedback_requests r ON r.id = h.request_id
      WHERE r.board_id = $1 ORDER BY h.changed_at DESC LIMIT $2`,
    [boardId, limit]
  ]
})

/** The board's latest status changes, newest first. */
export const recentStatusChanges = (boardId: string, limit: number) =>
  Effect.map(findRecentStatusChanges({ boardId, limit }), (rows) =>
    rows.map((r) => ({ requestId: r.request_id, to: r.to_name, at: iso(r.changed_at) }))
  )

const PublicBoardRef = Schema.Struct({ id: Schema.String, slug: Schema.String })

const findPublicBoards = SqlSchema.findAll({
  Request: Schema.String,
  Result: PublicBoardRef,
  execute: (workspaceId) => [
    `SELECT id, slug FROM feedback_boards WHERE workspace_id = $1 AND visibility = 'public' AND archived_at IS NULL ORDER BY name, id`,
    [workspaceId]
  ]
})

/** The workspace's public, unarchived boards, by name. */
export const publicBoardsOf = (workspaceId: string) => findPublicBoards(workspaceId)

export const BoardWithSlug = Schema.Struct({ id: Schema.String, workspace_id: Schema.String, name: Schema.String })

const findBoardsWithSlug = SqlSchema.findAll({
  Request: Schema.String,
  Result: BoardWithSlug,
  execute: (slug) => [
    `SELECT id, workspace_id, name FROM feedback_boards WHERE slug = $1 AND visibility = 'public' AND archived_at IS NULL ORDER BY created_at`,
    [slug]
  ]
})

/** Public, unarchived boards with this slug (one per workspace at most), oldest first. */
export const publicBoardsWithSlug = (slug: string) => findBoardsWithSlug(slug)

const findBugComment = SqlSchema.findOne({
  Request: Schema.Struct({ commentId: Schema.String, boardId: Schema.String }),
  Result: Schema.Struct({ author_id: Schema.String, moderation: Schema.String, body: Schema.String }),
  execute: ({ commentId, boardId }) => [
    `SELECT author_id, moderation, body FROM feedback_bug_comments WHERE id = $1 AND board_id = $2`,
    [commentId, boardId]
  ]
})

/** A bug report's comment on the board, for moderation. */
export const bugCommentOnBoard = (commentId: string, boardId: string) => findBugComment({ commentId, boardId })
