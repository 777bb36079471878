/**
 * Comments on pages, as rows: threads (a root and its replies), inline
 * roots anchored to a text range, mentions. Written by the page's actor,
 * read here.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import { iso, isoOrNull } from "./WikiQueries.ts"

export const CommentRecord = Schema.Struct({
  id: Schema.String,
  pageId: Schema.String,
  spaceId: Schema.String,
  workspaceId: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  authorId: Schema.String,
  body: Schema.String,
  /** Base64 of the encoded Yjs relative positions, and the text first quoted. */
  anchor: Schema.NullOr(Schema.Struct({ start: Schema.String, end: Schema.String, quote: Schema.String })),
  mentions: Schema.Array(Schema.String),
  resolvedAt: Schema.NullOr(Schema.String),
  resolvedBy: Schema.NullOr(Schema.String),
  editedAt: Schema.NullOr(Schema.String),
  deletedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CommentRecord = typeof CommentRecord.Type

const COLUMNS = `c.id, c.page_id, c.space_id, c.workspace_id, c.parent_id, c.author_id, c.body, c.anchor_start, c.anchor_end, c.anchor_quote,
  c.resolved_at, c.resolved_by, c.edited_at, c.deleted_at, c.created_at, c.updated_at,
  COALESCE((SELECT array_agg(m.user_id ORDER BY m.created_at, m.user_id) FROM wiki_comment_mentions m WHERE m.comment_id = c.id), ARRAY[]::text[]) AS mentions`

const toRecord = (row: Record<string, any>): CommentRecord => ({
  id: row.id,
  pageId: row.page_id,
  spaceId: row.space_id,
  workspaceId: row.workspace_id,
  parentId: row.parent_id ?? null,
  authorId: row.author_id,
  body: row.body,
  anchor:
    row.anchor_start && row.anchor_end
      ? {
          start: Buffer.from(row.anchor_start).toString("base64"),
          end: Buffer.from(row.anchor_end).toString("base64"),
          quote: row.anchor_quote ?? ""
        }
      : null,
  mentions: Array.isArray(row.mentions) ? row.mentions : [],
  resolvedAt: isoOrNull(row.resolved_at),
  resolvedBy: row.resolved_by ?? null,
  editedAt: isoOrNull(row.edited_at),
  deletedAt: isoOrNull(row.deleted_at),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at)
})

export const commentById = (commentId: string) =>
  Effect.map(query<Record<string, any>>(`SELECT ${COLUMNS} FROM wiki_comments c WHERE c.id = $1`, [commentId]), (rows) =>
    rows[0] ? toRecord(rows[0]) : undefined
  )

/** Every comment of a page, oldest first. */
export const commentsOfPage = (pageId: string) =>
  Effect.map(
    query<Record<string, any>>(`SELECT ${COLUMNS} FROM wiki_comments c WHERE c.page_id = $1 ORDER BY c.created_at, c.id`, [pageId]),
    (rows) => rows.map(toRecord)
  )

/** Thread roots of a space (open, resolved or all), newest first, with their reply counts. */
export const threadsOfSpace = (spaceId: string, status: "open" | "resolved" | "all", limit: number) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT ${COLUMNS}, (SELECT count(*)::int FROM wiki_comments r WHERE r.parent_id = c.id) AS reply_count
         FROM wiki_comments c
        WHERE c.space_id = $1 AND c.parent_id IS NULL AND c.deleted_at IS NULL
          AND ($2 = 'all' OR ($2 = 'open') = (c.resolved_at IS NULL))
        ORDER BY c.created_at DESC, c.id LIMIT $3`,
      [spaceId, status, limit]
    ),
    (rows) => rows.map((row) => ({ comment: toRecord(row), replyCount: Number(row.reply_count) }))
  )

/** Comments of a workspace that mention the user, newest first. */
export const mentionsOf = (workspaceId: string, userId: string, limit: number) =>
  Effect.map(
    query<Record<string, any>>(
      `SELECT ${COLUMNS} FROM wiki_comment_mentions m JOIN wiki_comments c ON c.id = m.comment_id
        WHERE m.workspace_id = $1 AND m.user_id = $2 AND c.deleted_at IS NULL
        ORDER BY c.created_at DESC, c.id LIMIT $3`,
      [workspaceId, userId, limit]
    ),
    (rows) => rows.map(toRecord)
  )
