/**
 * Comments on a task: threaded replies, resolving, assigning and reactions.
 */
import { Effect, Schema } from "effect"
import { Id, Name } from "../../../actors/Fields.ts"
import { Comment, Emoji, getComment, listComments } from "../../../actors/pm/TaskDiscussion.ts"
import { send } from "../../../actors/pm/WorkActor.ts"
import { PmTask } from "../../../actors/pm/WorkActors.ts"
import { Page } from "../../../actors/pm/WorkRecords.ts"
import { operation } from "../../Operation.ts"
import { at0, BooleanString, exampleIds as ids, Limit, Offset, onTask, orDieSql, pageOf } from "../WorkAccess.ts"
import { exampleComment, exampleUser } from "../WorkExamples.ts"
import { taskCommand, tag, service, read, write, TaskParams, tk } from "./shared.ts"

const CommentParams = Schema.Struct({ taskId: Id, commentId: Id })

export const taskCommentsOperations = [
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "comments",
        request: { params: tk },
        response: { status: 200, body: { items: [exampleComment], total: 1, offset: 0, limit: 50 } }
      }
    ],
    handler: ({ params, query: q }, context) =>
      Effect.andThen(
        onTask(context, params.taskId),
        orDieSql(listComments(params.taskId, { ...pageOf(q), ...(q.resolved ? { resolved: q.resolved === "true" } : {}) }))
      )
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "comment",
        request: { params: tk, body: { text: "@bob@example.com can you review?" } },
        response: { status: 201, body: exampleComment }
      }
    ],
    handler: ({ params, body }, context) => taskCommand(context, params.taskId, "createComment", body)
  }),
  operation({
    service,
    tag,
    operationId: "getTaskComment",
    method: "GET",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "One comment",
    auth: "both",
    scopes: read,
    params: CommentParams,
    responses: { 200: { description: "The comment", schema: Comment } },
    examples: [{ name: "get", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }],
    handler: ({ params }, context) => Effect.andThen(onTask(context, params.taskId), orDieSql(getComment(params.taskId, params.commentId)))
  }),
  operation({
    service,
    tag,
    operationId: "updateTaskComment",
    method: "PATCH",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Edit your comment (newly mentioned members are notified)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 200: { description: "Updated", schema: Comment }, 403: { description: "Not the author" } },
    examples: [
      {
        name: "edit",
        request: { params: { ...tk, commentId: ids.comment }, body: { text: "Done, thanks @bob@example.com" } },
        response: { status: 200, body: exampleComment }
      }
    ],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "updateComment", { commentId: params.commentId, text: body.text })
  }),
  operation({
    service,
    tag,
    operationId: "deleteTaskComment",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/comments/{commentId}",
    summary: "Delete a comment and its replies (author or admin)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 204: { description: "Deleted" } },
    examples: [{ name: "delete", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTask(context, params.taskId, "member")
        yield* send(PmTask, params.taskId, "deleteComment", caller.userId, { commentId: params.commentId, admin: caller.admin })
      })
  }),
  operation({
    service,
    tag,
    operationId: "listCommentReplies",
    method: "GET",
    path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Replies in a comment's thread, oldest first",
    auth: "both",
    scopes: read,
    params: CommentParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "A page of replies", schema: Page(Comment) } },
    examples: [
      {
        name: "replies",
        request: { params: { ...tk, commentId: ids.comment } },
        response: { status: 200, body: { items: [{ ...exampleComment, parentCommentId: ids.comment }], total: 1, offset: 0, limit: 50 } }
      }
    ],
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onTask(context, params.taskId)
        yield* orDieSql(getComment(params.taskId, params.commentId))
        return yield* orDieSql(listComments(params.taskId, { parentCommentId: params.commentId, ...pageOf(q) }))
      })
  }),
  operation({
    service,
    tag,
    operationId: "createCommentReply",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/replies",
    summary: "Reply in a comment's thread (the comment's author is notified, mentions too)",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ text: Name(20_000) }),
    responses: { 201: { description: "Created", schema: Comment } },
    examples: [
      {
        name: "reply",
        request: { params: { ...tk, commentId: ids.comment }, body: { text: "On it" } },
        response: { status: 201, body: { ...exampleComment, parentCommentId: ids.comment, text: "On it" } }
      }
    ],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "createComment", { text: body.text, parentCommentId: params.commentId })
  }),
  operation({
    service,
    tag,
    operationId: "resolveTaskComment",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/resolve",
    summary: "Mark a comment resolved",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 200: { description: "Resolved", schema: Comment }, 409: { description: "Already resolved" } },
    examples: [
      {
        name: "resolve",
        request: { params: { ...tk, commentId: ids.comment } },
        response: { status: 200, body: { ...exampleComment, resolved: true, resolvedAt: at0, resolvedBy: ids.user } }
      }
    ],
    handler: ({ params }, context) => taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: true })
  }),
  operation({
    service,
    tag,
    operationId: "reopenTaskComment",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reopen",
    summary: "Reopen a resolved comment",
    auth: "both",
    scopes: write,
    params: CommentParams,
    responses: { 200: { description: "Reopened", schema: Comment }, 409: { description: "Not resolved" } },
    examples: [{ name: "reopen", request: { params: { ...tk, commentId: ids.comment } }, response: { status: 200, body: exampleComment } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "resolveComment", { commentId: params.commentId, resolved: false })
  }),
  operation({
    service,
    tag,
    operationId: "assignTaskComment",
    method: "PUT",
    path: "/v1/tasks/{taskId}/comments/{commentId}/assignee",
    summary: "Assign a comment to a member as a to-do (null unassigns); they are notified",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ assigneeId: Schema.NullOr(Id) }),
    responses: { 200: { description: "The comment", schema: Comment } },
    examples: [
      {
        name: "assign",
        request: { params: { ...tk, commentId: ids.comment }, body: { assigneeId: ids.user2 } },
        response: { status: 200, body: { ...exampleComment, assignee: exampleUser } }
      }
    ],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "assignComment", { commentId: params.commentId, assigneeId: body.assigneeId })
  }),
  operation({
    service,
    tag,
    operationId: "addCommentReaction",
    method: "POST",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reactions",
    summary: "React to a comment with an emoji",
    auth: "both",
    scopes: write,
    params: CommentParams,
    body: Schema.Struct({ emoji: Emoji }),
    responses: { 201: { description: "The comment", schema: Comment }, 409: { description: "Already reacted so" } },
    examples: [
      {
        name: "react",
        request: { params: { ...tk, commentId: ids.comment }, body: { emoji: "thumbsup" } },
        response: { status: 201, body: { ...exampleComment, reactions: [{ emoji: "thumbsup", count: 1, userIds: [ids.user] }] } }
      }
    ],
    handler: ({ params, body }, context) =>
      taskCommand(context, params.taskId, "addReaction", { commentId: params.commentId, emoji: body.emoji })
  }),
  operation({
    service,
    tag,
    operationId: "removeCommentReaction",
    method: "DELETE",
    path: "/v1/tasks/{taskId}/comments/{commentId}/reactions/{emoji}",
    summary: "Take back your reaction",
    auth: "both",
    scopes: write,
    params: Schema.Struct({ taskId: Id, commentId: Id, emoji: Emoji }),
    responses: { 204: { description: "Removed" } },
    examples: [{ name: "unreact", request: { params: { ...tk, commentId: ids.comment, emoji: "thumbsup" } }, response: { status: 204 } }],
    handler: ({ params }, context) =>
      taskCommand(context, params.taskId, "removeReaction", { commentId: params.commentId, emoji: params.emoji })
  })
]
