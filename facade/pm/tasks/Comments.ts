/**
 * Comments on a task: threaded replies, resolving, assigning and reactions.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { Comment, Emoji, getComment, listComments } from "../../../actors/pm/TaskDiscussion.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Page } from "../../../actors/pm/WorkRecords.ts"
import { tagGroup } from "../../Operation.ts"
import { BooleanString, Limit, Offset, onTask, orDieSql, pageOf } from "../WorkAccess.ts"

import { taskCommand, tag, service, read, write, TaskParams } from "./shared.ts"
import { commentsExamples } from "./Comments.examples.ts"

const CommentParams = Schema.Struct({ taskId: Id, commentId: Id })

const { operation } = tagGroup(service, tag, commentsExamples)

export const taskCommentsOperations = [
  operation({
    operationId: "listTaskComments",
    method: "GET",
    path: "/v1/tasks/{taskId}/comments",
    summary: "A task's top-level comments, oldest first (replies via listCommentReplies)",
    auth: "both",
    scopes: read,
    params: TaskParams,
    query: Schema.Struct({
      resolved: Schema.optionalKey(BooleanString),
      offset: Schema.optionalKey(Offset),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "A page of comments", schema: Page(Comment) } },
    handler: ({ params, query: q }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        orDieSql(listComments(params.taskId, { ...pageOf(q), ...(q.resolved ? { resolved: q.resolved === "true" } : {}) }))
      )
  }),
  operation({
    operationId: "createTaskComment",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments",
    summary: "Comment on a task",
    description:
      "`@alice@example.com` in the text mentions a member (they are notified); assignees and watchers hear of the comment; `assigneeId` assigns the comment.",
    auth: "both",
    scopes: write,
    params: TaskParams,
    body: Schema.Struct({ text: Name(20_000), assigneeId: Schema.optionalKey(Id) }),
    responses: { 201: { description: "Created", schema: Comment } },
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "createComment", body)
  }),
  operation({
    operationId: "getTaskComment",
    method: "GET",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "One comment",
    auth: "both",
    scopes: read,
    params: CommentParams,
    responses: { 200: { description: "The comment", schema: Comment } },
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), orDieSql(getComment(params.taskId, params.commentId)))
  }),
  operation({
    operationId: "updateTaskComment",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Edit your comment (newly mentioned members are notified)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 200: { description: "Updated", schema: Comment }, 403: { description: "Not the author" } },
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "updateComment", { commentId: params.commentId, text: body.text })
  }),
  operation({
    operationId: "deleteTaskComment",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Delete a comment and its replies (author or admin)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "deleteComment", caller.userId, { commentId: params.commentId, admin: caller.admin })
      })
  }),
  operation({
    operationId: "listCommentReplies",
    method: "GET",
    path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Replies in a comment's thread, oldest first",
    auth: "both",
    scopes: read,
    params: CommentParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "A page of replies", schema: Page(Comment) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        yield* orDieSql(getComment(params.taskId, params.commentId))
        return yield* orDieSql(listComments(params.taskId, { parentCommentId: params.commentId, ...pageOf(q) }))
      })
  }),
  operation({
    operationId: "createCommentReply",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Reply in a comment's thread (the comment's author is notified, mentions too)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 201: { description: "Created", schema: Comment } },
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "createComment", { text: body.text, parentCommentId: params.commentId })
  }),
  operation({
    operationId: "resolveTaskComment",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/resolve",
    summary: "Mark a comment resolved",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 200: { description: "Resolved", schema: Comment }, 409: { description: "Already resolved" } },
    handler: ({ params }, context) => taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: true })
  }),
  operation({
    operationId: "reopenTaskComment",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reopen",
    summary: "Reopen a resolved comment",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 200: { description: "Reopened", schema: Comment }, 409: { description: "Not resolved" } },
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: false })
  }),
  operation({
    operationId: "assignTaskComment",
    method: "PUT",
    path: "/v1/tasks/{taskId}/comments/{commentId}/assignee",
    summary: "Assign a comment to a member as a to-do (null unassigns); they are notified",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ assigneeId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The comment", schema: Comment } },
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "assignComment", { commentId: params.commentId, assigneeId: body.assigneeId })
  }),
  operation({
    operationId: "addCommentReaction",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reactions",
    summary: "React to a comment with an emoji",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ emoji: Emoji }),
    responses: { 201: { description: "The comment", schema: Comment }, 409: { description: "Already reacted so" } },
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "addReaction", { commentId: params.commentId, emoji: body.emoji })
  }),
  operation({
    operationId: "removeCommentReaction",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reactions/{emoji}",
    summary: "Take back your reaction",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, commentId: Id, emoji: Emoji }),
    responses: { 204: { description: "Removed" } },
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "removeReaction", { commentId: params.commentId, emoji: params.emoji })
  })
]
