/**
 * pm tag "Comments (Lite)" (4): comments on tasks named by short id or id,
 * where `@alice@example.com` mentions a member (resolved to the user and
 * notified; an address that is not a member answers 404 naming it).
 * Writes go through the task's actor.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { type Comment, CommentText as Text, commentPlace, getComment, listComments } from "../../actors/pm/TaskDiscussion.ts"
import { shortIdOfTask } from "../../actors/pm/TaskReads.ts"
import { send } from "../../actors/pm/WorkActor.ts"
import { PmTask } from "../../actors/pm/WorkActors.ts"
import { TaskRef } from "../../actors/pm/WorkRecords.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { WorkspaceRef } from "./LiteShared.ts"
import { inWorkspace, onTask, onTaskRef, orDieSql } from "./WorkAccess.ts"
import { commentsLiteExamples } from "./CommentsLite.examples.ts"

const LiteComment = Schema.Struct({
  id: Id,
  task: Schema.String.annotate({ description: "The task's short id" }),
  parentCommentId: Schema.NullOr(Id),
  author: Schema.String.annotate({ description: "E-mail" }),
  text: Schema.String,
  mentions: Schema.Array(Schema.String).annotate({ description: "E-mails of the mentioned members" }),
  resolved: Schema.Boolean,
  replyCount: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "LiteComment" })

const LiteThread = Schema.Struct({ ...LiteComment.fields, replies: Schema.Array(LiteComment) }).annotate({
  identifier: "LiteCommentThread"
})

const lite = (shortId: string, c: Comment) => ({
  id: c.id,
  task: shortId,
  parentCommentId: c.parentCommentId,
  author: c.author.email,
  text: c.text,
  mentions: c.mentions.map((m) => m.email),
  resolved: c.resolved,
  replyCount: c.replyCount,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})

const shortIdOf = (taskId: string) => orDieSql(shortIdOfTask(taskId))

/** The task of a comment of the workspace, as the caller may touch it. */
const commentTask = (context: RequestContext, workspaceId: string, commentId: string, minimum: "viewer" | "member") =>
  Effect.gen(function* () {
    yield* inWorkspace(context, workspaceId)
    const comment = yield* orDieSql(commentPlace(workspaceId, commentId))
    if (comment === undefined) return yield* reject("not_found", "No such comment")
    const caller = yield* onTask(context, comment.taskId, minimum).pipe(
      Effect.mapError((e) => (e._tag === "Rejection" && e.code === "not_found" ? reject("not_found", "No such comment") : e))
    )
    return { caller, comment }
  })

const { operation } = tagGroup("pm", "Comments (Lite)", commentsLiteExamples)

export const commentsLiteOperations = [
  operation({
    operationId: "createCommentLite",
    mcp: { tool: "commentOnTask" },
    method: "POST",
    path: "/v1/lite/comments",
    summary: "Comment on a task named by short id (or id); `@e-mail` mentions resolve to members and notify them",
    auth: "both",
    scopes: ["tasks:write"],
    body: Schema.Struct({
      workspaceId: WorkspaceRef,
      taskId: TaskRef.annotate({ description: "The task's short id (T-42) or id" }),
      text: Text
    }),
    responses: {
      201: { description: "Created", schema: LiteComment },
      404: { description: "No such task, or a mentioned e-mail is not a member" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, body.workspaceId, body.taskId, "member")
        const comment = yield* send(PmTask, caller.at.taskId!, "createComment", caller.userId, { text: body.text, strictMentions: true })
        return lite(yield* shortIdOf(caller.at.taskId!), comment)
      })
  }),
  operation({
    operationId: "listCommentsLite",
    mcp: { tool: "listComments" },
    method: "GET",
    path: "/v1/lite/comments",
    summary: "A task's comment threads (comments with their replies), by short id or id",
    auth: "both",
    scopes: ["tasks:read"],
    query: Schema.Struct({
      workspaceId: WorkspaceRef,
      taskId: TaskRef,
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })))
    }),
    responses: {
      200: { description: "Threads, oldest first", schema: Schema.Struct({ items: Schema.Array(LiteThread), total: Schema.Number }) }
    },
    handler: ({ query: q }, context) =>
      Effect.gen(function* () {
        const caller = yield* onTaskRef(context, q.workspaceId, q.taskId)
        const taskId = caller.at.taskId!
        const shortId = yield* shortIdOf(taskId)
        const page = yield* orDieSql(listComments(taskId, { offset: 0, limit: q.limit ?? 50 }))
        const items = yield* Effect.forEach(page.items, (comment) =>
          Effect.map(orDieSql(listComments(taskId, { parentCommentId: comment.id, offset: 0, limit: 200 })), (replies) => ({
            ...lite(shortId, comment),
            replies: replies.items.map((r) => lite(shortId, r))
          }))
        )
        return { items, total: page.total }
      })
  }),
  operation({
    operationId: "replyCommentLite",
    method: "POST",
    path: "/v1/lite/comments/{commentId}/replies",
    summary: "Reply in a comment's thread; `@e-mail` mentions resolve to members and notify them",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ commentId: Id }),
    body: Schema.Struct({ workspaceId: WorkspaceRef, text: Text }),
    responses: { 201: { description: "Created", schema: LiteComment } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, comment } = yield* commentTask(context, body.workspaceId, params.commentId, "member")
        const parentId = comment.parentCommentId ?? params.commentId
        const reply = yield* send(PmTask, comment.taskId, "createComment", caller.userId, {
          text: body.text,
          parentCommentId: parentId,
          strictMentions: true
        })
        return lite(yield* shortIdOf(comment.taskId), reply)
      })
  }),
  operation({
    operationId: "updateCommentLite",
    method: "PATCH",
    path: "/v1/lite/comments/{commentId}",
    summary: "Edit your comment; newly mentioned members are notified",
    auth: "both",
    scopes: ["tasks:write"],
    params: Schema.Struct({ commentId: Id }),
    body: Schema.Struct({ workspaceId: WorkspaceRef, text: Text }),
    responses: { 200: { description: "Updated", schema: LiteComment }, 403: { description: "Not the author" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, comment } = yield* commentTask(context, body.workspaceId, params.commentId, "member")
        yield* send(PmTask, comment.taskId, "updateComment", caller.userId, {
          commentId: params.commentId,
          text: body.text,
          strictMentions: true
        })
        return lite(yield* shortIdOf(comment.taskId), yield* orDieSql(getComment(comment.taskId, params.commentId)))
      })
  })
]
