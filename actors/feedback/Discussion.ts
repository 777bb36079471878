/**
 * Around a feature request: threaded comments (subscribers notified, the
 * mentioned told), subscriptions to a request or a whole board, attachments'
 * rows, and each user's notification preference for the board. Run by the
 * Board actor inside `commitBoardWrite`.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import type { Notice, WriteBody } from "./BoardLog.ts"
import { type BoardState, ModerationState, shortIdOf } from "./FeedbackModel.ts"
import { openRequest, reread, requestOf, withRequests } from "./RequestWrites.ts"
import {
  CommentsOff,
  FeedbackAttachmentNotFound,
  FeedbackCommentNotFound,
  ReplyMustBeInternal,
  ReplyParentNotFound,
  VisitorCommentLimit
} from "./FeedbackErrors.ts"

export const CommentRecord = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  boardId: Schema.String,
  parentId: Schema.NullOr(Schema.String),
  authorId: Schema.NullOr(Schema.String),
  authorName: Schema.NullOr(Schema.String),
  /** A visitor's e-mail (a comment from the public portal: no author id), for the team only. */
  authorEmail: Schema.NullOr(Schema.String),
  body: Schema.String,
  internal: Schema.Boolean,
  mentions: Schema.Array(Schema.String),
  moderationState: ModerationState,
  editedAt: Schema.NullOr(Schema.String),
  deletedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type CommentRecord = typeof CommentRecord.Type

export const COMMENT_COLUMNS =
  "id, request_id, board_id, parent_id, author_id, author_name, author_email, body, internal, mentions, moderation_state, edited_at, deleted_at, created_at, updated_at"

export const toComment = (row: Record<string, any>): CommentRecord => ({
  id: row.id,
  requestId: row.request_id,
  boardId: row.board_id,
  parentId: row.parent_id,
  authorId: row.author_id,
  authorName: row.author_name,
  authorEmail: row.author_email,
  body: row.body,
  internal: row.internal,
  mentions: row.mentions,
  moderationState: row.moderation_state,
  editedAt: row.edited_at,
  deletedAt: row.deleted_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const commentById = (commentId: string) =>
  Effect.map(query(`SELECT ${COMMENT_COLUMNS} FROM feedback_comments WHERE id = $1`, [commentId]), (rows) =>
    rows[0] === undefined ? undefined : toComment(rows[0])
  )

/** Comments that count on a request: shown to everyone, approved, not deleted. */
const recountComments = (requestId: string) =>
  query(
    `UPDATE feedback_requests SET comment_count = (SELECT count(*) FROM feedback_comments
       WHERE request_id = $1 AND NOT internal AND deleted_at IS NULL AND moderation_state = 'approved') WHERE id = $1`,
    [requestId]
  )

const subscribe = (requestId: string, userId: string) =>
  query("INSERT INTO feedback_subscribers (request_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [requestId, userId])

interface CommentInput {
  readonly commentId: string
  readonly requestId: string
  readonly parentId: string | null
  readonly authorName: string | null
  readonly body: string
  readonly internal: boolean
  readonly mentions: ReadonlyArray<string>
  readonly moderationState: CommentRecord["moderationState"]
}

/** A visitor of the public portal: who they said they are, and their address's hash for the hourly limit. */
export const VisitorInput = Schema.Struct({
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  ipHash: Schema.String,
  perHour: Schema.Number
})
export type VisitorInput = typeof VisitorInput.Type

/** Writes the comment (a member's, or a visitor's when `visitor` is given) and tells the request's subscribers. */
const writeComment = (state: BoardState, by: string, input: CommentInput, visitor: VisitorInput | null): WriteBody<CommentRecord> =>
  Effect.gen(function* () {
    const request = yield* openRequest(state, input.requestId)
    if (!state.board.settings.allowComments) return yield* new CommentsOff()
    if (input.parentId !== null) {
      const parent = yield* commentById(input.parentId)
      if (parent === undefined || parent.requestId !== input.requestId || parent.deletedAt !== null) {
        return yield* new ReplyParentNotFound()
      }
      if (parent.internal && !input.internal) {
        return yield* new ReplyMustBeInternal()
      }
    }
    const rows = yield* query(
      `INSERT INTO feedback_comments (id, request_id, board_id, parent_id, author_id, author_name, author_email, ip_hash, body, internal, mentions, moderation_state)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${COMMENT_COLUMNS}`,
      [
        input.commentId,
        input.requestId,
        state.board.id,
        input.parentId,
        visitor === null ? by : null,
        visitor === null ? input.authorName : visitor.name,
        visitor?.email ?? null,
        visitor?.ipHash ?? null,
        input.body,
        input.internal,
        [...input.mentions],
        input.moderationState
      ]
    )
    if (visitor === null) yield* subscribe(input.requestId, by)
    yield* recountComments(input.requestId)
    const comment = toComment(rows[0]!)
    const visible = comment.moderationState === "approved"
    const title = `${shortIdOf(request.number)} ${request.title}`
    // Internal notes reach only the team: they notify nobody but the mentioned.
    const notices: Array<Notice> = []
    if (visible && !comment.internal) notices.push({ requestId: request.id, reason: "commented", title: `New comment on ${title}` })
    if (visible && comment.mentions.length > 0) {
      notices.push({ requestId: request.id, reason: "mentioned", title: `You were mentioned on ${title}`, userIds: comment.mentions })
    }
    return {
      result: comment,
      events: [
        {
          type: "comment.created",
          entityId: comment.id,
          data: { requestId: request.id, parentId: comment.parentId, internal: comment.internal },
          teamOnly: comment.internal || !visible
        }
      ],
      notices,
      next: withRequests(state, [yield* reread(request.id)])
    }
  })

export const addComment = (state: BoardState, by: string, input: CommentInput): WriteBody<CommentRecord> =>
  writeComment(state, by, input, null)

/**
 * A visitor's comment from the public portal: never internal, mentions
 * nobody, refused over the per-address hourly limit on this board (counted
 * here, inside the Board actor, so the limit holds across nodes).
 */
export const addVisitorComment = (
  state: BoardState,
  by: string,
  input: Pick<CommentInput, "commentId" | "requestId" | "parentId" | "body" | "moderationState">,
  visitor: VisitorInput
): WriteBody<CommentRecord> =>
  Effect.gen(function* () {
    const recent = yield* query<{ n: number }>(
      `SELECT count(*) AS n FROM feedback_comments WHERE board_id = $1 AND ip_hash = $2 AND created_at > now() - interval '1 hour'`,
      [state.board.id, visitor.ipHash]
    )
    if (Number(recent[0]?.n ?? 0) >= visitor.perHour) {
      return yield* new VisitorCommentLimit({ perHour: visitor.perHour })
    }
    return yield* writeComment(state, by, { ...input, authorName: visitor.name, internal: false, mentions: [] }, visitor)
  })

const existingComment = (state: BoardState, commentId: string) =>
  Effect.flatMap(commentById(commentId), (comment) =>
    comment === undefined || comment.boardId !== state.board.id || comment.deletedAt !== null
      ? Effect.fail(new FeedbackCommentNotFound())
      : Effect.succeed(comment)
  )

export const editComment = (
  state: BoardState,
  commentId: string,
  body: string,
  mentions: ReadonlyArray<string>
): WriteBody<CommentRecord> =>
  Effect.gen(function* () {
    const current = yield* existingComment(state, commentId)
    yield* openRequest(state, current.requestId)
    const rows = yield* query(
      `UPDATE feedback_comments SET body = $2, mentions = $3, edited_at = now(), updated_at = now() WHERE id = $1 RETURNING ${COMMENT_COLUMNS}`,
      [commentId, body, [...mentions]]
    )
    const comment = toComment(rows[0]!)
    return { result: comment, events: [{ type: "comment.updated", entityId: commentId, data: { requestId: comment.requestId } }] }
  })

/** Deletes a comment: its text goes, its place in the thread stays while it has replies. */
export const deleteComment = (state: BoardState, commentId: string): WriteBody<void> =>
  Effect.gen(function* () {
    const current = yield* existingComment(state, commentId)
    yield* query("UPDATE feedback_comments SET body = '', mentions = '[]', deleted_at = now(), updated_at = now() WHERE id = $1", [
      commentId
    ])
    yield* recountComments(current.requestId)
    return {
      result: undefined,
      events: [{ type: "comment.deleted", entityId: commentId, data: { requestId: current.requestId } }],
      next: withRequests(state, [yield* reread(current.requestId)])
    }
  })

export const setSubscribed = (state: BoardState, requestId: string, userId: string, subscribed: boolean): WriteBody<boolean> =>
  Effect.gen(function* () {
    yield* requestOf(state, requestId)
    const changed = subscribed
      ? yield* query("INSERT INTO feedback_subscribers (request_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id", [
          requestId,
          userId
        ])
      : yield* query("DELETE FROM feedback_subscribers WHERE request_id = $1 AND user_id = $2 RETURNING user_id", [requestId, userId])
    return {
      result: subscribed,
      events:
        changed.length === 0
          ? []
          : [{ type: subscribed ? "request.subscribed" : "request.unsubscribed", entityId: requestId, data: { userId } }],
      next: state
    }
  })

export const setBoardSubscribed = (state: BoardState, userId: string, subscribed: boolean): WriteBody<boolean> =>
  Effect.gen(function* () {
    yield* subscribed
      ? query("INSERT INTO feedback_board_subscribers (board_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [state.board.id, userId])
      : query("DELETE FROM feedback_board_subscribers WHERE board_id = $1 AND user_id = $2", [state.board.id, userId])
    return { result: subscribed, events: [], next: state }
  })

export const NotificationMode = Schema.Literals(["instant", "digest", "off"]).annotate({
  description: "instant: each notification as it happens; digest: collected for a periodic e-mail digest; off: none"
})
export type NotificationMode = typeof NotificationMode.Type

export const setNotificationMode = (
  state: BoardState,
  userId: string,
  mode: NotificationMode
): WriteBody<{ readonly mode: NotificationMode; readonly updatedAt: string }> =>
  Effect.gen(function* () {
    const rows = yield* query<{ updated_at: string }>(
      `INSERT INTO feedback_notification_preferences (user_id, board_id, mode) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, board_id) DO UPDATE SET mode = excluded.mode, updated_at = now() RETURNING updated_at`,
      [userId, state.board.id, mode]
    )
    return { result: { mode, updatedAt: rows[0]!.updated_at }, events: [], next: state }
  })

export const AttachmentRecord = Schema.Struct({
  id: Schema.String,
  boardId: Schema.String,
  requestId: Schema.String,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  blobKey: Schema.String,
  uploadedBy: Schema.String,
  createdAt: Schema.String
})
export type AttachmentRecord = typeof AttachmentRecord.Type

export const ATTACHMENT_COLUMNS = "id, board_id, request_id, filename, content_type, size, blob_key, uploaded_by, created_at"
export const toAttachment = (row: Record<string, any>): AttachmentRecord => ({
  id: row.id,
  boardId: row.board_id,
  requestId: row.request_id,
  filename: row.filename,
  contentType: row.content_type,
  size: Number(row.size),
  blobKey: row.blob_key,
  uploadedBy: row.uploaded_by,
  createdAt: row.created_at
})

export const addAttachment = (
  state: BoardState,
  by: string,
  input: Omit<AttachmentRecord, "boardId" | "uploadedBy" | "createdAt">
): WriteBody<AttachmentRecord> =>
  Effect.gen(function* () {
    yield* openRequest(state, input.requestId)
    const rows = yield* query(
      `INSERT INTO feedback_attachments (id, board_id, request_id, filename, content_type, size, blob_key, uploaded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ATTACHMENT_COLUMNS}`,
      [input.id, state.board.id, input.requestId, input.filename, input.contentType, input.size, input.blobKey, by]
    )
    const attachment = toAttachment(rows[0]!)
    return {
      result: attachment,
      events: [{ type: "attachment.added", entityId: attachment.id, data: { requestId: input.requestId, filename: input.filename } }],
      next: state
    }
  })

export const removeAttachment = (state: BoardState, attachmentId: string): WriteBody<AttachmentRecord> =>
  Effect.gen(function* () {
    const rows = yield* query(`DELETE FROM feedback_attachments WHERE id = $1 AND board_id = $2 RETURNING ${ATTACHMENT_COLUMNS}`, [
      attachmentId,
      state.board.id
    ])
    if (rows[0] === undefined) return yield* new FeedbackAttachmentNotFound()
    const attachment = toAttachment(rows[0])
    return {
      result: attachment,
      events: [{ type: "attachment.removed", entityId: attachmentId, data: { requestId: attachment.requestId } }],
      next: state
    }
  })
