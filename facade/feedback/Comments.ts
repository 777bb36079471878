/**
 * feedback tags "Feature Request Comment Resource" (2) and "Comment Resource"
 * (3): threaded discussion on a request. Anyone who may see the board
 * comments (while the board allows comments and the request is not locked);
 * the team may add internal notes nobody else sees. `@someone@example.com`
 * or `mentions` tell workspace members. A request's thread also shows the
 * comments of the duplicates merged into it (linked, marked with where they
 * came from). Authors edit their comments; authors and board admins delete.
 * On a moderated board, comments from outside the team wait for approval.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { usersByEmails } from "../../actors/identity/IdentityQueries.ts"
import { Id, Timestamp, normalizeEmail } from "../../actors/Fields.ts"
import { type CommentRecord, commentById } from "../../actors/feedback/Discussion.ts"
import { ModerationState } from "../../actors/feedback/FeedbackModel.ts"
import { commentsOf } from "../../actors/feedback/RequestQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { board, FeatureRequestParams } from "./BoardAsk.ts"
import { type BoardCaller, requestAccess, roleIn } from "./FeedbackAccess.ts"
import { names, Person, service } from "./FeedbackViews.ts"
import { heldFor } from "./DeskAccess.ts"
import { featureRequestCommentResourceExamples, commentResourceExamples } from "./Comments.examples.ts"

const CommentParams = Schema.Struct({ commentId: Id })
const Body = Schema.String.check(Schema.isMaxLength(10_000), Schema.isPattern(/\S/, { expected: "a non-blank comment" })).annotate({
  description: "Markdown, at most 10 000 characters; `@someone@example.com` mentions a workspace member"
})
const Mentions = Schema.Array(Id)
  .check(Schema.isMaxLength(50))
  .annotate({ description: "Workspace members to mention (besides @e-mail mentions)" })

const Comment = Schema.Struct({
  id: Id,
  featureRequestId: Id,
  parentId: Schema.NullOr(Id),
  author: Schema.NullOr(Person),
  visitor: Schema.NullOr(
    Schema.Struct({
      name: Schema.String,
      email: Schema.NullOr(Schema.String).annotate({ description: "What the visitor left to hear back; the board's team only" })
    })
  ).annotate({ description: "Set (and `author` null) when a visitor of the public portal wrote it" }),
  body: Schema.String,
  internal: Schema.Boolean.annotate({ description: "A team-only note" }),
  mentions: Schema.Array(Person),
  moderationState: ModerationState,
  fromFeatureRequestId: Schema.NullOr(Id).annotate({
    description: "Set when the comment was made on a duplicate merged into this request"
  }),
  editedAt: Schema.NullOr(Timestamp),
  deleted: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "FeedbackComment" })
type Comment = typeof Comment.Type
const Thread = Schema.Struct({ ...Comment.fields, replies: Schema.Array(Comment) }).annotate({ identifier: "FeedbackCommentThread" })

const commentsView = (records: ReadonlyArray<CommentRecord>, shownOn: string, caller: BoardCaller) =>
  Effect.map(names(records.flatMap((r) => [r.authorId, ...r.mentions])), (person) =>
    records.map(
      (r): Comment => ({
        id: r.id,
        featureRequestId: shownOn,
        parentId: r.parentId,
        author: person(r.authorId, r.authorName),
        visitor: r.authorId === null ? { name: r.authorName ?? "Visitor", email: caller.team ? r.authorEmail : null } : null,
        body: r.body,
        internal: r.internal,
        mentions: r.mentions.map((id) => person(id)!),
        moderationState: r.moderationState,
        fromFeatureRequestId: r.requestId === shownOn ? null : r.requestId,
        editedAt: r.editedAt,
        deleted: r.deletedAt !== null,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt
      })
    )
  )

/** Whether the caller may see the comment: internal notes for the team, pending ones for the team and their author. */
const visible = (caller: BoardCaller, comment: CommentRecord) =>
  (!comment.internal || caller.team) && (comment.moderationState === "approved" || caller.team || comment.authorId === caller.userId)

/** The users the comment mentions: the given ids and the @e-mails in the body, all workspace members. */
const mentionsOf = (caller: BoardCaller, body: string, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const workspaceId = caller.view.board.workspaceId
    for (const [index, id] of ids.entries()) {
      if ((yield* roleIn(id, workspaceId)) === null) {
        return yield* reject("invalid", "Mentions name members of the workspace", [
          { path: `body.mentions[${index}]`, message: "not a member" }
        ])
      }
    }
    const emails = [...body.matchAll(/@([^\s@]+@[^\s@]+\.[^\s@,;:!?)]+)/g)].map((m) => normalizeEmail(m[1]!))
    const users = yield* Effect.orDie(usersByEmails(emails))
    const byEmail: Array<string> = []
    for (const user of users.values()) if ((yield* roleIn(user.id, workspaceId)) !== null) byEmail.push(user.id)
    return [...new Set([...ids, ...byEmail])]
  })

/** The comment and the caller's standing on its board; 404 when they may not see it. */
const commentAccess = (context: RequestContext, commentId: string) =>
  Effect.gen(function* () {
    const comment = yield* Effect.orDie(commentById(commentId))
    if (comment === undefined || comment.deletedAt !== null) return yield* reject("not_found", "No such comment")
    const { caller, boardId } = yield* requestAccess(context, comment.requestId).pipe(
      Effect.catchIf(
        (e) => refusalCode(e) === "not_found",
        () => Effect.fail(reject("not_found", "No such comment"))
      )
    )
    if (!visible(caller, comment)) return yield* reject("not_found", "No such comment")
    return { caller, boardId, comment }
  })

const featureRequestCommentResourceTag = tagGroup(service, "Feature Request Comment Resource", featureRequestCommentResourceExamples)
const commentResourceTag = tagGroup(service, "Comment Resource", commentResourceExamples)

export const commentOperations = [
  featureRequestCommentResourceTag.operation({
    operationId: "listFeatureRequestComments",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/comments",
    summary: "The request's discussion as threads (oldest first), with the comments of duplicates merged into it",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: {
      200: {
        description: "Threads",
        schema: Schema.Struct({ items: Schema.Array(Thread) }).annotate({ identifier: "FeedbackCommentThreads" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId)
        const listed = yield* board(boardId).requests({
          viewerId: caller.userId,
          team: caller.team,
          includeMerged: true,
          mergedInto: params.featureRequestId,
          sort: "old",
          offset: 0,
          limit: 10_000
        })
        const sources = [params.featureRequestId, ...listed.items.map((r) => r.id)]
        const all = (yield* Effect.orDie(commentsOf(sources))).filter((c) => visible(caller, c))
        // A deleted comment stays as a placeholder only while replies hang under it.
        const parents = new Set(all.map((c) => c.parentId))
        const shown = yield* commentsView(
          all.filter((c) => c.deletedAt === null || parents.has(c.id)),
          params.featureRequestId,
          caller
        )
        const byId = new Map(shown.map((c) => [c.id, c]))
        const rootOf = (c: Comment): string => {
          let current = c
          while (current.parentId !== null && byId.has(current.parentId)) current = byId.get(current.parentId)!
          return current.id
        }
        const roots = shown.filter((c) => c.parentId === null || !byId.has(c.parentId))
        return { items: roots.map((root) => ({ ...root, replies: shown.filter((c) => c !== root && rootOf(c) === root.id) })) }
      })
  }),
  featureRequestCommentResourceTag.operation({
    operationId: "createFeatureRequestComment",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/comments",
    summary: "Comment on a request, or reply to a comment (`parentId`); the team may post internal notes",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({
      body: Body,
      parentId: Schema.optionalKey(Schema.NullOr(Id)),
      internal: Schema.optionalKey(Schema.Boolean),
      mentions: Schema.optionalKey(Mentions)
    }),
    responses: { 201: { description: "Posted", schema: Comment }, 409: { description: "The request is locked or merged" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId)
        const internal = body.internal ?? false
        if (internal && !caller.team) return yield* reject("forbidden", "Only the board's team may post internal notes")
        const mentions = yield* mentionsOf(caller, body.body, body.mentions ?? [])
        const record = yield* board(boardId).addComment({
          by: caller.userId,
          commentId: randomUUID(),
          requestId: params.featureRequestId,
          parentId: body.parentId ?? null,
          authorName: null,
          body: body.body,
          internal,
          mentions,
          moderationState: yield* heldFor(caller)
        })
        return (yield* commentsView([record], params.featureRequestId, caller))[0]!
      })
  }),
  commentResourceTag.operation({
    operationId: "getComment",
    method: "GET",
    path: "/v1/comments/{commentId}",
    summary: "One comment",
    auth: "both",
    scopes: ["feedback:read"],
    params: CommentParams,
    responses: { 200: { description: "The comment", schema: Comment }, 404: { description: "No such comment" } },
    handler: ({ params }, context) =>
      Effect.flatMap(commentAccess(context, params.commentId), ({ comment, caller }) =>
        Effect.map(commentsView([comment], comment.requestId, caller), (items) => items[0]!)
      )
  }),
  commentResourceTag.operation({
    operationId: "updateComment",
    method: "PATCH",
    path: "/v1/comments/{commentId}",
    summary: "Edit one's own comment",
    auth: "both",
    scopes: ["feedback:write"],
    params: CommentParams,
    body: Schema.Struct({ body: Body, mentions: Schema.optionalKey(Mentions) }),
    responses: { 200: { description: "Edited", schema: Comment }, 403: { description: "Not the author" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, boardId, comment } = yield* commentAccess(context, params.commentId)
        if (comment.authorId !== caller.userId) return yield* reject("forbidden", "Only the author may edit a comment")
        const mentions = yield* mentionsOf(caller, body.body, body.mentions ?? comment.mentions)
        const record = yield* board(boardId).editComment({ by: caller.userId, commentId: comment.id, body: body.body, mentions })
        return (yield* commentsView([record], record.requestId, caller))[0]!
      })
  }),
  commentResourceTag.operation({
    operationId: "deleteComment",
    method: "DELETE",
    path: "/v1/comments/{commentId}",
    summary: "Delete a comment (its author or a board admin); replies stay under a placeholder",
    auth: "both",
    scopes: ["feedback:write"],
    params: CommentParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, boardId, comment } = yield* commentAccess(context, params.commentId)
        if (comment.authorId !== caller.userId && !caller.admin)
          return yield* reject("forbidden", "Only the author or a board admin may delete a comment")
        yield* board(boardId).deleteComment({ by: caller.userId, commentId: comment.id })
      })
  })
]
