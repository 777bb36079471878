/**
 * Comments (threaded replies, `@e-mail` mentions, reactions, assigned
 * comments) and attachments of a task: reads, and the task actor's commands.
 */
import { Effect, Schema } from "effect"
import { Id, Name, Timestamp } from "../Fields.ts"
import { query, type Sql, type SqlError } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"
import { CommentAuthorOnly, CommentNotFound, NotWorkspaceMembers, ReplyToReply, TaskNotFound } from "./PmErrors.ts"
import type { Notify } from "./ChangeLog.ts"
import { change, notifyUsers } from "./Changes.ts"
import { membersOf, requireMembers, userRefs, usersByEmail } from "./Members.ts"
import { getTask } from "./TaskReads.ts"
import { taskWhere, touchTask } from "./TaskWrites.ts"
import { requireStorageRoom, StorageQuotaReached } from "../platform/QuotaChecks.ts"
import { command } from "./WorkActor.ts"
import { AlreadyReacted, AttachmentNotFound, NoMemberWithEmail, NotReacted, ResolvedAlready, UploaderOnly } from "./WorkErrors.ts"
import { type Task, UserRef } from "./WorkRecords.ts"

export const Reaction = Schema.Struct({ emoji: Schema.String, count: Schema.Number, userIds: Schema.Array(Id) }).annotate({
  identifier: "CommentReaction"
})

export const Comment = Schema.Struct({
  id: Id,
  taskId: Id,
  parentCommentId: Schema.NullOr(Id),
  author: UserRef,
  text: Schema.String,
  mentions: Schema.Array(UserRef),
  assignee: Schema.NullOr(UserRef),
  resolved: Schema.Boolean,
  resolvedAt: Schema.NullOr(Timestamp),
  resolvedBy: Schema.NullOr(Id),
  replyCount: Schema.Number,
  reactions: Schema.Array(Reaction),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Comment" })
export type Comment = typeof Comment.Type

export const Attachment = Schema.Struct({
  id: Id,
  taskId: Id,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number,
  uploadedBy: Id,
  createdAt: Timestamp
}).annotate({ identifier: "Attachment" })
export type Attachment = typeof Attachment.Type

// ---------------------------------------------------------------------------
// Mentions

const MENTION = /@([^\s@<>()[\]{},;:"']+@[^\s@<>()[\]{},;:"']+\.[A-Za-z]{2,})/g

/** The e-mail addresses `@mentioned` in a text, in order, without duplicates. */
export const mentionedEmails = (text: string): Array<string> => [
  ...new Set([...text.matchAll(MENTION)].map((m) => m[1]!.replace(/[.!?]+$/, "").toLowerCase()))
]

/**
 * Members mentioned in `text`. With `strict`, an address that is not a
 * member answers 404 naming it; otherwise it stays plain text.
 */
export const resolveMentions = (workspaceId: string, text: string, strict: boolean) =>
  Effect.gen(function* () {
    const emails = mentionedEmails(text)
    if (emails.length === 0) return [] as Array<string>
    const users = yield* usersByEmail(emails)
    const members = yield* membersOf(workspaceId)
    const missing = emails.filter((email) => {
      const user = users.get(email)
      return user === undefined || !members.has(user.id)
    })
    if (strict && missing.length > 0) {
      return yield* new NoMemberWithEmail({ entries: missing.map((email) => ({ email, path: "body.text" })) })
    }
    return emails.flatMap((email) => {
      const user = users.get(email)
      return user && members.has(user.id) ? [user.id] : []
    })
  })

// ---------------------------------------------------------------------------
// Reads

type CommentRow = {
  id: string
  taskId: string
  parentCommentId: string | null
  authorId: string
  text: string
  mentions: Array<string>
  assigneeId: string | null
  resolvedAt: string | null
  resolvedBy: string | null
  createdAt: string
  updatedAt: string
  replyCount: number
}

const commentColumns = `c.id, c.task_id AS "taskId", c.parent_comment_id AS "parentCommentId", c.author_id AS "authorId", c.text, c.mentions,
  c.assignee_id AS "assigneeId", c.resolved_at AS "resolvedAt", c.resolved_by AS "resolvedBy", c.created_at AS "createdAt", c.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM pm_comments r WHERE r.parent_comment_id = c.id AND r.deleted_at IS NULL) AS "replyCount"`

const present = (rows: ReadonlyArray<CommentRow>): Effect.Effect<Array<Comment>, SqlError, Sql> =>
  Effect.gen(function* () {
    if (rows.length === 0) return []
    const reactions = yield* query<{ commentId: string; emoji: string; userIds: Array<string> }>(
      `SELECT comment_id AS "commentId", emoji, array_agg(user_id ORDER BY created_at) AS "userIds" FROM pm_comment_reactions
        WHERE comment_id = ANY($1::text[]) GROUP BY comment_id, emoji ORDER BY min(created_at)`,
      [rows.map((r) => r.id)]
    )
    const users = yield* userRefs(rows.flatMap((r) => [r.authorId, ...r.mentions, ...(r.assigneeId ? [r.assigneeId] : [])]))
    const ref = (id: string) => users.get(id) ?? { id, email: "", name: "" }
    return rows.map((r) => ({
      id: r.id,
      taskId: r.taskId,
      parentCommentId: r.parentCommentId,
      author: ref(r.authorId),
      text: r.text,
      mentions: r.mentions.map(ref),
      assignee: r.assigneeId ? ref(r.assigneeId) : null,
      resolved: r.resolvedAt !== null,
      resolvedAt: r.resolvedAt,
      resolvedBy: r.resolvedBy,
      replyCount: r.replyCount,
      reactions: reactions
        .filter((x) => x.commentId === r.id)
        .map((x) => ({ emoji: x.emoji, count: x.userIds.length, userIds: x.userIds })),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt
    }))
  })

/** Top-level comments of a task (or the replies to one), oldest first. */
export const listComments = (
  taskId: string,
  page: { readonly parentCommentId?: string; readonly offset: number; readonly limit: number; readonly resolved?: boolean }
) =>
  Effect.gen(function* () {
    const params: Array<unknown> = [taskId]
    let where = `c.task_id = $1 AND c.deleted_at IS NULL`
    if (page.parentCommentId) {
      params.push(page.parentCommentId)
      where += ` AND c.parent_comment_id = $2`
    } else where += ` AND c.parent_comment_id IS NULL`
    if (page.resolved !== undefined) where += page.resolved ? ` AND c.resolved_at IS NOT NULL` : ` AND c.resolved_at IS NULL`
    const [{ total }] = (yield* query<{ total: number }>(
      `SELECT count(*)::int AS total FROM pm_comments c WHERE ${where}`,
      params
    )) as Array<{ total: number }>
    const rows = yield* query<CommentRow>(
      `SELECT ${commentColumns} FROM pm_comments c WHERE ${where} ORDER BY c.created_at, c.id LIMIT ${page.limit} OFFSET ${page.offset}`,
      params
    )
    return { items: yield* present(rows), total, offset: page.offset, limit: page.limit }
  })

export const getComment = (taskId: string, commentId: string): Effect.Effect<Comment, CommentNotFound | SqlError, Sql> =>
  Effect.flatMap(
    query<CommentRow>(`SELECT ${commentColumns} FROM pm_comments c WHERE c.id = $1 AND c.task_id = $2 AND c.deleted_at IS NULL`, [
      commentId,
      taskId
    ]),
    (rows): Effect.Effect<Comment, CommentNotFound | SqlError, Sql> =>
      rows[0] ? Effect.map(present(rows), (items) => items[0]!) : Effect.fail(new CommentNotFound())
  )

/** Comments assigned to a user in a workspace, unresolved first. */
export const assignedComments = (workspaceId: string, userId: string, includeResolved: boolean) =>
  Effect.flatMap(
    query<CommentRow>(
      `SELECT ${commentColumns} FROM pm_comments c JOIN pm_tasks t ON t.id = c.task_id
        WHERE c.workspace_id = $1 AND c.assignee_id = $2 AND c.deleted_at IS NULL AND t.deleted_at IS NULL ${includeResolved ? "" : "AND c.resolved_at IS NULL"}
        ORDER BY c.resolved_at NULLS FIRST, c.created_at LIMIT 200`,
      [workspaceId, userId]
    ),
    present
  )

const attachmentColumns = `id, task_id AS "taskId", filename, content_type AS "contentType", size, uploaded_by AS "uploadedBy", created_at AS "createdAt"`

export const listAttachments = (taskId: string) =>
  query<Attachment>(`SELECT ${attachmentColumns} FROM pm_attachments WHERE task_id = $1 ORDER BY created_at, id`, [taskId])

export const getAttachment = (taskId: string, attachmentId: string) =>
  Effect.flatMap(
    query<Attachment & { blobKey: string }>(
      `SELECT ${attachmentColumns}, blob_key AS "blobKey" FROM pm_attachments WHERE id = $1 AND task_id = $2`,
      [attachmentId, taskId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new AttachmentNotFound()))
  )

// ---------------------------------------------------------------------------
// Commands (task actor)

const on = (task: Task, type: string, entityId: string, data: Record<string, unknown>, by: string, notify: ReadonlyArray<Notify> = []) => ({
  ...change(taskWhere(task), type, entityId, { taskId: task.id, ...data }, by, notify)
})

const commentRow = (taskId: string, commentId: string) =>
  Effect.flatMap(
    query<{
      authorId: string
      parentCommentId: string | null
      mentions: Array<string>
      assigneeId: string | null
      resolvedAt: string | null
    }>(
      `SELECT author_id AS "authorId", parent_comment_id AS "parentCommentId", mentions, assignee_id AS "assigneeId", resolved_at AS "resolvedAt"
         FROM pm_comments WHERE id = $1 AND task_id = $2 AND deleted_at IS NULL`,
      [commentId, taskId]
    ),
    (rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(new CommentNotFound()))
  )

export const CommentText = Name(20_000).annotate({ description: "The comment; `@member@example.com` mentions a member" })
export const Emoji = Schema.String.check(Schema.isPattern(/^[a-z0-9_+-]{1,32}$/, { expected: "an emoji short name such as thumbsup" }))
const ReactionInput = Schema.Struct({ commentId: Id, emoji: Emoji })
/** An upload already stored under `blobKey`; the command records it on the task. */
const NewAttachment = Schema.Struct({
  attachmentId: Id,
  blobKey: Schema.String,
  filename: Schema.String,
  contentType: Schema.String,
  size: Schema.Number
})
const NewComment = Schema.Struct({
  text: CommentText,
  parentCommentId: Schema.optionalKey(Id),
  assigneeId: Schema.optionalKey(Id),
  strictMentions: Schema.optionalKey(Schema.Boolean.annotate({ description: "Refuse (404) @mentions of addresses that are not members" }))
})

export const discussionCommands = {
  /**
   * A comment (or a reply when `parentCommentId` is set). Mentioned members
   * are notified ("mentioned"), the task's assignees and watchers too
   * ("commented"); `strictMentions` refuses unknown addresses (404).
   */
  createComment: command(
    NewComment,
    Comment,
    Schema.Union([TaskNotFound, CommentNotFound, ReplyToReply, NotWorkspaceMembers, NoMemberWithEmail]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        let parentAuthor: string | undefined
        if (input.parentCommentId) {
          const parent = yield* commentRow(taskId, input.parentCommentId)
          if (parent.parentCommentId !== null) return yield* new ReplyToReply({ field: "path.commentId" })
          parentAuthor = parent.authorId
        }
        if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
        const mentions = yield* resolveMentions(task.workspaceId, input.text, input.strictMentions ?? false)
        const id = crypto.randomUUID()
        yield* query(
          `INSERT INTO pm_comments (id, workspace_id, task_id, parent_comment_id, author_id, text, mentions, assignee_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, task.workspaceId, taskId, input.parentCommentId ?? null, by, input.text, mentions, input.assigneeId ?? null]
        )
        const watchers = yield* query<{ userId: string }>(
          `SELECT user_id AS "userId" FROM pm_watchers WHERE scope_type = 'task' AND scope_id = $1`,
          [taskId]
        )
        const label = `${task.shortId}: ${task.name}`
        const notified = new Set([...mentions, by])
        const notify: Array<Notify> = [
          ...notifyUsers(mentions, "mentioned", `You were mentioned on ${label}`, by),
          ...notifyUsers(
            input.assigneeId && !notified.has(input.assigneeId) ? [input.assigneeId] : [],
            "assigned",
            `A comment on ${label} was assigned to you`,
            by
          ),
          ...notifyUsers(
            [...task.assignees.map((a) => a.id), ...watchers.map((w) => w.userId), ...(parentAuthor ? [parentAuthor] : [])].filter(
              (u) => !notified.has(u) && u !== input.assigneeId
            ),
            "commented",
            `New comment on ${label}`,
            by
          )
        ]
        const comment = yield* getComment(taskId, id)
        return {
          result: comment,
          changes: [
            on(task, "comment.created", id, { parentCommentId: input.parentCommentId ?? null, text: input.text, mentions }, by, notify)
          ]
        }
      })
  ),

  updateComment: command(
    Schema.Struct({ commentId: Id, text: CommentText, strictMentions: Schema.optionalKey(Schema.Boolean) }),
    Comment,
    Schema.Union([TaskNotFound, CommentNotFound, CommentAuthorOnly, NoMemberWithEmail]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* commentRow(taskId, input.commentId)
        if (current.authorId !== by) return yield* new CommentAuthorOnly({ action: "edits" })
        const mentions = yield* resolveMentions(task.workspaceId, input.text, input.strictMentions ?? false)
        yield* query(`UPDATE pm_comments SET text = $2, mentions = $3, updated_at = now() WHERE id = $1`, [
          input.commentId,
          input.text,
          mentions
        ])
        const added = mentions.filter((m) => !current.mentions.includes(m))
        const comment = yield* getComment(taskId, input.commentId)
        return {
          result: comment,
          changes: [
            on(
              task,
              "comment.updated",
              input.commentId,
              { text: input.text, mentions },
              by,
              notifyUsers(added, "mentioned", `You were mentioned on ${task.shortId}: ${task.name}`, by)
            )
          ]
        }
      })
  ),

  /** The author or an admin removes a comment (with its replies). */
  deleteComment: command(
    Schema.Struct({ commentId: Id, admin: Schema.Boolean }),
    Schema.Void,
    Schema.Union([TaskNotFound, CommentNotFound, CommentAuthorOnly]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* commentRow(taskId, input.commentId)
        if (current.authorId !== by && !input.admin) return yield* new CommentAuthorOnly({ action: "deletes" })
        yield* query(`UPDATE pm_comments SET deleted_at = now() WHERE (id = $1 OR parent_comment_id = $1) AND deleted_at IS NULL`, [
          input.commentId
        ])
        return { result: undefined, changes: [on(task, "comment.deleted", input.commentId, {}, by)] }
      })
  ),

  resolveComment: command(
    Schema.Struct({ commentId: Id, resolved: Schema.Boolean }),
    Comment,
    Schema.Union([TaskNotFound, CommentNotFound, ResolvedAlready]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const current = yield* commentRow(taskId, input.commentId)
        if ((current.resolvedAt !== null) === input.resolved) return yield* new ResolvedAlready({ resolved: input.resolved })
        yield* query(
          `UPDATE pm_comments SET resolved_at = ${input.resolved ? "now()" : "NULL"}, resolved_by = $2, updated_at = now() WHERE id = $1`,
          [input.commentId, input.resolved ? by : null]
        )
        const notify = input.resolved
          ? notifyUsers([current.authorId], "commented", `Your comment on ${task.shortId} was resolved`, by)
          : []
        return {
          result: yield* getComment(taskId, input.commentId),
          changes: [on(task, input.resolved ? "comment.resolved" : "comment.reopened", input.commentId, {}, by, notify)]
        }
      })
  ),

  assignComment: command(
    Schema.Struct({ commentId: Id, assigneeId: Schema.NullOr(Id) }),
    Comment,
    Schema.Union([TaskNotFound, CommentNotFound, NotWorkspaceMembers]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        yield* commentRow(taskId, input.commentId)
        if (input.assigneeId) yield* requireMembers(task.workspaceId, [input.assigneeId], "body.assigneeId")
        yield* query(`UPDATE pm_comments SET assignee_id = $2, updated_at = now() WHERE id = $1`, [input.commentId, input.assigneeId])
        const notify = input.assigneeId
          ? notifyUsers([input.assigneeId], "assigned", `A comment on ${task.shortId}: ${task.name} was assigned to you`, by)
          : []
        return {
          result: yield* getComment(taskId, input.commentId),
          changes: [on(task, "comment.assigned", input.commentId, { assigneeId: input.assigneeId }, by, notify)]
        }
      })
  ),

  addReaction: command(ReactionInput, Comment, Schema.Union([TaskNotFound, CommentNotFound, AlreadyReacted]), (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* commentRow(taskId, input.commentId)
      const added = yield* query(
        `INSERT INTO pm_comment_reactions (comment_id, user_id, emoji) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING emoji`,
        [input.commentId, by, input.emoji]
      )
      if (added.length === 0) return yield* new AlreadyReacted()
      return {
        result: yield* getComment(taskId, input.commentId),
        changes: [on(task, "comment.reaction_added", input.commentId, { emoji: input.emoji }, by)]
      }
    })
  ),

  removeReaction: command(ReactionInput, Comment, Schema.Union([TaskNotFound, CommentNotFound, NotReacted]), (input, by, taskId) =>
    Effect.gen(function* () {
      const task = yield* getTask(taskId)
      yield* commentRow(taskId, input.commentId)
      const removed = yield* query(
        `DELETE FROM pm_comment_reactions WHERE comment_id = $1 AND user_id = $2 AND emoji = $3 RETURNING emoji`,
        [input.commentId, by, input.emoji]
      )
      if (removed.length === 0) return yield* new NotReacted()
      return {
        result: yield* getComment(taskId, input.commentId),
        changes: [on(task, "comment.reaction_removed", input.commentId, { emoji: input.emoji }, by)]
      }
    })
  ),

  addAttachment: command(
    NewAttachment,
    Attachment,
    Schema.Union([TaskNotFound, StorageQuotaReached, AttachmentNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        yield* requireStorageRoom(task.workspaceId, input.size)
        yield* query(
          `INSERT INTO pm_attachments (id, workspace_id, task_id, blob_key, filename, content_type, size, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [input.attachmentId, task.workspaceId, taskId, input.blobKey, input.filename, input.contentType, input.size, by]
        )
        const version = yield* touchTask(taskId)
        const attachment = yield* getAttachment(taskId, input.attachmentId)
        const { blobKey: _k, ...result } = attachment
        return {
          result,
          changes: [on(task, "attachment.created", input.attachmentId, { filename: input.filename, size: input.size, version }, by)]
        }
      })
  ),

  renameAttachment: command(
    Schema.Struct({ attachmentId: Id, filename: Schema.String }),
    Attachment,
    Schema.Union([TaskNotFound, AttachmentNotFound]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        yield* getAttachment(taskId, input.attachmentId)
        yield* query(`UPDATE pm_attachments SET filename = $2 WHERE id = $1`, [input.attachmentId, input.filename])
        const version = yield* touchTask(taskId)
        const { blobKey: _k, ...result } = yield* getAttachment(taskId, input.attachmentId)
        return { result, changes: [on(task, "attachment.renamed", input.attachmentId, { filename: input.filename, version }, by)] }
      })
  ),

  /** Returns the blob key; the caller deletes the bytes once this committed. */
  deleteAttachment: command(
    Schema.Struct({ attachmentId: Id, admin: Schema.Boolean }),
    Schema.Struct({ blobKey: Schema.String }),
    Schema.Union([TaskNotFound, AttachmentNotFound, UploaderOnly]),
    (input, by, taskId) =>
      Effect.gen(function* () {
        const task = yield* getTask(taskId)
        const attachment = yield* getAttachment(taskId, input.attachmentId)
        if (attachment.uploadedBy !== by && !input.admin) return yield* new UploaderOnly()
        yield* query(`DELETE FROM pm_attachments WHERE id = $1`, [input.attachmentId])
        const version = yield* touchTask(taskId)
        return {
          result: { blobKey: attachment.blobKey },
          changes: [on(task, "attachment.deleted", input.attachmentId, { filename: attachment.filename, version }, by)]
        }
      })
  )
}

const findCommentPlace = SqlSchema.findOne({
  Request: Schema.Struct({ commentId: Schema.String, workspaceId: Schema.String }),
  Result: Schema.Struct({ taskId: Schema.String, parentCommentId: Schema.NullOr(Schema.String), authorId: Schema.String }),
  execute: (r) => [
    `SELECT task_id AS "taskId", parent_comment_id AS "parentCommentId", author_id AS "authorId" FROM pm_comments WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL`,
    [r.commentId, r.workspaceId]
  ]
})

/** A (not deleted) comment of the workspace: its task, the comment it answers and its author. */
export const commentPlace = (workspaceId: string, commentId: string) => findCommentPlace({ commentId, workspaceId })
