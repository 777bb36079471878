/**
 * wiki tag "Wiki Comments" (10): discussion on pages — threads (a first
 * comment and its replies), inline threads anchored to a text range that
 * keeps its place while others edit (Yjs relative positions), resolve and
 * reopen, editing and deleting one's own comments, @mentions, a space's
 * open threads and the caller's mentions.
 *
 * Anyone who can read a page may comment on it; the author edits a comment;
 * the author or a space admin deletes it.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { LiveDocuments } from "../../actors/LiveDocuments.ts"
import { Account } from "../../actors/identity/Account.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Id, Timestamp, normalizeEmail } from "../../actors/Fields.ts"
import { anchorPositions, anchorQuote, decodeStored, resolveAnchor } from "../../actors/wiki/CommentAnchor.ts"
import { type CommentRecord, commentById, commentsOfPage, mentionsOf, threadsOfSpace } from "../../actors/wiki/PageComments.ts"
import { pageAccess, type PageAccess, pagesVisibleIn, spaceAccess, type WikiCaller, workspaceAccess } from "../../actors/wiki/WikiAccess.ts"
import { WikiPage } from "../../actors/wiki/WikiPage.ts"

import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { PageParams } from "./WikiPages.ts"
import { callerFrom, SpaceParams } from "./WikiSpaces.ts"
import { wikiCommentsExamples } from "./WikiComments.examples.ts"

const CommentParams = Schema.Struct({ commentId: Id })
const Body = Schema.String.check(Schema.isMaxLength(10_000), Schema.isPattern(/\S/, { expected: "a non-blank comment" })).annotate({
  description: "Markdown text, at most 10 000 characters. `@someone@example.com` mentions a workspace member who can read the page."
})
const MentionIds = Schema.Array(Id)
  .check(Schema.isMaxLength(50))
  .annotate({ description: "Users to mention (besides @e-mail mentions in the body)" })

const AnchorInput = Schema.Union([
  Schema.Struct({
    quote: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000)).annotate({
      description: "The exact text to comment on, as it appears in the page (blocks separated by a newline)"
    }),
    occurrence: Schema.optionalKey(
      Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })).annotate({
        description: "Which appearance of the quote (1 = first)"
      })
    )
  }),
  Schema.Struct({
    start: Schema.String.check(Schema.isMaxLength(1000)).annotate({
      description: "Base64 of Y.encodeRelativePosition for the first character (from an editor)"
    }),
    end: Schema.String.check(Schema.isMaxLength(1000)).annotate({
      description: "Base64 of Y.encodeRelativePosition just after the last character"
    })
  })
]).annotate({
  identifier: "WikiCommentAnchorInput",
  description: "Anchor an inline comment by quoting the text, or with Yjs relative positions computed by an editor"
})

const Person = Schema.Struct({ userId: Id, name: Schema.String, email: Schema.String }).annotate({ identifier: "WikiPerson" })

const Anchor = Schema.Struct({
  quote: Schema.String.annotate({ description: "The text when the comment was made" }),
  text: Schema.String.annotate({ description: "The text the range covers now" }),
  from: Schema.NullOr(Schema.Number).annotate({ description: "ProseMirror position where the range starts now" }),
  to: Schema.NullOr(Schema.Number).annotate({ description: "ProseMirror position where the range ends now" }),
  detached: Schema.Boolean.annotate({ description: "The commented text was deleted" })
}).annotate({ identifier: "WikiCommentAnchor" })

const WikiComment = Schema.Struct({
  id: Id,
  pageId: Id,
  spaceId: Id,
  parentId: Schema.NullOr(Id),
  author: Person,
  body: Schema.String,
  mentions: Schema.Array(Person),
  anchor: Schema.NullOr(Anchor),
  resolved: Schema.Boolean,
  resolvedAt: Schema.NullOr(Timestamp),
  resolvedBy: Schema.NullOr(Id),
  editedAt: Schema.NullOr(Timestamp),
  deleted: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "WikiComment" })
type WikiComment = typeof WikiComment.Type

const WikiCommentThread = Schema.Struct({ ...WikiComment.fields, replies: Schema.Array(WikiComment) }).annotate({
  identifier: "WikiCommentThread"
})
const PageRef = Schema.Struct({ id: Id, title: Schema.String, slug: Schema.String }).annotate({ identifier: "WikiCommentPage" })

/** Comment views: authors and mentioned users by name, anchors resolved against the page as it is now. */
const viewsOf = (comments: ReadonlyArray<CommentRecord>) =>
  Effect.gen(function* () {
    const userIds = [...new Set(comments.flatMap((c) => [c.authorId, ...c.mentions]))]
    const users = yield* Effect.orDie(usersByIds(userIds))
    const person = (userId: string) => ({ userId, name: users.get(userId)?.name ?? "", email: users.get(userId)?.email ?? "" })
    const anchoredPages = [...new Set(comments.filter((c) => c.anchor !== null && c.deletedAt === null).map((c) => c.pageId))]
    const live = yield* LiveDocuments
    const states = new Map<string, Uint8Array>()
    for (const pageId of anchoredPages) states.set(pageId, (yield* live.snapshot(pageId)).state)
    return comments.map(
      (c): WikiComment => ({
        id: c.id,
        pageId: c.pageId,
        spaceId: c.spaceId,
        parentId: c.parentId,
        author: person(c.authorId),
        body: c.body,
        mentions: c.mentions.map(person),
        anchor:
          c.anchor === null || c.deletedAt !== null
            ? null
            : { quote: c.anchor.quote, ...resolveAnchor(states.get(c.pageId)!, decodeStored(c.anchor.start), decodeStored(c.anchor.end)) },
        resolved: c.resolvedAt !== null,
        resolvedAt: c.resolvedAt,
        resolvedBy: c.resolvedBy,
        editedAt: c.editedAt,
        deleted: c.deletedAt !== null,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt
      })
    )
  })

const viewOf = (comment: CommentRecord) => Effect.map(viewsOf([comment]), (views) => views[0]!)

/** The comment and the caller's access to its page (404 when they may not read the page). */
const commentFor = (caller: WikiCaller, id: string) =>
  Effect.gen(function* () {
    const comment = yield* Effect.orDie(commentById(id))
    if (comment === undefined) return yield* reject("not_found", "No such comment")
    const access = yield* pageAccess(caller, comment.pageId).pipe(
      Effect.catchTag("Rejection", () => Effect.fail(reject("not_found", "No such comment")))
    )
    return { comment, access }
  })

const EMAIL_MENTION = /(?:^|[\s(])@([^\s@()<>]+@[^\s@()<>]+\.[A-Za-z]{2,})/g

/** Who a comment mentions: explicit ids (each must be able to read the page) and `@e-mail` mentions in the body (others stay plain text). */
const mentionsFor = (access: PageAccess, body: string, explicit: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const canRead = (userId: string) => Effect.map(Effect.option(pageAccess({ userId }, access.page.id)), (found) => found._tag === "Some")
    const mentioned = new Set<string>()
    for (const [index, userId] of explicit.entries()) {
      if (!(yield* canRead(userId))) {
        return yield* reject("invalid", "A mentioned user cannot see this page", [
          { path: `body.mentionUserIds.${index}`, message: "cannot see this page" }
        ])
      }
      mentioned.add(userId)
    }
    const actors = yield* ActorSystem
    for (const match of body.matchAll(EMAIL_MENTION)) {
      const user = yield* Effect.option(Account.client(actors)(normalizeEmail(match[1]!)).profile({}))
      if (user._tag === "Some" && (yield* canRead(user.value.id))) mentioned.add(user.value.id)
    }
    return [...mentioned]
  })

const anchorFor = (pageId: string, input: typeof AnchorInput.Type) =>
  Effect.gen(function* () {
    const { state } = yield* (yield* LiveDocuments).snapshot(pageId)
    const made = "quote" in input ? anchorQuote(state, input.quote, input.occurrence ?? 1) : anchorPositions(state, input.start, input.end)
    if (typeof made === "object") return made
    const why = {
      not_found: "quote" in input ? "the quoted text is not in the page" : "the positions do not point into the page's text",
      not_text: "the quote must start and end in text",
      empty: "the quote is empty",
      invalid: "not encoded Yjs relative positions"
    }[made]
    return yield* reject("invalid", `Cannot anchor the comment: ${why}`, [
      { path: "quote" in input ? "body.anchor.quote" : "body.anchor.start", message: why }
    ])
  })

const threadsOf = (comments: ReadonlyArray<WikiComment>) =>
  comments.filter((c) => c.parentId === null).map((root) => ({ ...root, replies: comments.filter((c) => c.parentId === root.id) }))

const Status = Schema.Literals(["open", "resolved", "all"])
const Limit = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 }))

const { operation } = tagGroup("wiki", "Wiki Comments", wikiCommentsExamples)

export const wikiCommentsOperations = [
  operation({
    operationId: "listWikiComments",
    method: "GET",
    path: "/v1/pages/{pageId}/comments",
    summary: "A page's comment threads, oldest first, with replies and anchors resolved to where their text is now",
    description: "`status` filters threads (default all); `type=inline` keeps threads anchored to text, `type=page` the others.",
    auth: "both",
    scopes: ["wiki:read"],
    params: PageParams,
    query: Schema.Struct({ status: Schema.optionalKey(Status), type: Schema.optionalKey(Schema.Literals(["inline", "page", "all"])) }),
    responses: {
      200: {
        description: "Threads",
        schema: Schema.Struct({ items: Schema.Array(WikiCommentThread) }).annotate({ identifier: "WikiCommentThreads" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* pageAccess(caller, params.pageId)
        const status = query.status ?? "all"
        const type = query.type ?? "all"
        const threads = threadsOf(yield* viewsOf(yield* Effect.orDie(commentsOfPage(params.pageId))))
        return {
          items: threads.filter(
            (t) =>
              (status === "all" || (status === "resolved") === t.resolved) &&
              (type === "all" || (type === "inline") === (t.anchor !== null))
          )
        }
      })
  }),
  operation({
    operationId: "createWikiComment",
    method: "POST",
    path: "/v1/pages/{pageId}/comments",
    summary: "Start a comment thread on a page, optionally anchored to a text range",
    description:
      "Anchor by quoting the text (`anchor.quote`, and `occurrence` when it appears more than once) or with Yjs relative positions from an editor (`anchor.start`/`anchor.end`). The anchor follows its text through later edits.",
    auth: "both",
    scopes: ["wiki:write"],
    params: PageParams,
    body: Schema.Struct({ body: Body, anchor: Schema.optionalKey(AnchorInput), mentionUserIds: Schema.optionalKey(MentionIds) }),
    responses: { 201: { description: "The comment", schema: WikiComment }, 409: { description: "The page is archived" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* pageAccess(caller, params.pageId)
        const anchor = body.anchor === undefined ? null : yield* anchorFor(params.pageId, body.anchor)
        const mentions = yield* mentionsFor(access, body.body, body.mentionUserIds ?? [])
        const comment = yield* (yield* ActorSystem).ask(WikiPage, params.pageId, "addComment", {
          by: caller.userId,
          commentId: randomUUID(),
          parentId: null,
          body: body.body.trim(),
          anchor,
          mentions
        })
        return yield* viewOf(comment)
      })
  }),
  operation({
    operationId: "getWikiComment",
    method: "GET",
    path: "/v1/comments/{commentId}",
    summary: "One comment; for a thread's first comment, with its replies",
    auth: "both",
    scopes: ["wiki:read"],
    params: CommentParams,
    responses: { 200: { description: "The comment", schema: WikiCommentThread }, 404: { description: "No such comment" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment } = yield* commentFor(caller, params.commentId)
        const family =
          comment.parentId === null
            ? (yield* Effect.orDie(commentsOfPage(comment.pageId))).filter((c) => c.id === comment.id || c.parentId === comment.id)
            : [comment]
        const views = yield* viewsOf(family)
        return { ...views.find((v) => v.id === comment.id)!, replies: views.filter((v) => v.parentId === comment.id) }
      })
  }),
  operation({
    operationId: "replyToWikiComment",
    method: "POST",
    path: "/v1/comments/{commentId}/replies",
    summary: "Reply in a comment's thread",
    description: "Replying to a reply adds to the same thread. Replying reopens nothing: resolve and reopen are explicit.",
    auth: "both",
    scopes: ["wiki:write"],
    params: CommentParams,
    body: Schema.Struct({ body: Body, mentionUserIds: Schema.optionalKey(MentionIds) }),
    responses: { 201: { description: "The reply", schema: WikiComment } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment, access } = yield* commentFor(caller, params.commentId)
        const mentions = yield* mentionsFor(access, body.body, body.mentionUserIds ?? [])
        const reply = yield* (yield* ActorSystem).ask(WikiPage, comment.pageId, "addComment", {
          by: caller.userId,
          commentId: randomUUID(),
          parentId: comment.parentId ?? comment.id,
          body: body.body.trim(),
          anchor: null,
          mentions
        })
        return yield* viewOf(reply)
      })
  }),
  operation({
    operationId: "updateWikiComment",
    method: "PATCH",
    path: "/v1/comments/{commentId}",
    summary: "Edit your own comment",
    auth: "both",
    scopes: ["wiki:write"],
    params: CommentParams,
    body: Schema.Struct({ body: Body, mentionUserIds: Schema.optionalKey(MentionIds) }),
    responses: { 200: { description: "The comment", schema: WikiComment }, 403: { description: "Not your comment" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment, access } = yield* commentFor(caller, params.commentId)
        if (comment.authorId !== caller.userId) return yield* reject("forbidden", "Only its author edits a comment")
        const mentions = yield* mentionsFor(access, body.body, body.mentionUserIds ?? [])
        return yield* viewOf(
          yield* (yield* ActorSystem).ask(WikiPage, comment.pageId, "editComment", {
            by: caller.userId,
            commentId: comment.id,
            body: body.body.trim(),
            mentions
          })
        )
      })
  }),
  operation({
    operationId: "deleteWikiComment",
    method: "DELETE",
    path: "/v1/comments/{commentId}",
    summary: "Delete your own comment (space admins may delete any)",
    description: 'A thread\'s first comment that has replies is kept as "deleted" (empty) so the replies keep their thread.',
    auth: "both",
    scopes: ["wiki:write"],
    params: CommentParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Not your comment" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment, access } = yield* commentFor(caller, params.commentId)
        yield* (yield* ActorSystem).ask(WikiPage, comment.pageId, "deleteComment", {
          by: caller.userId,
          commentId: comment.id,
          moderator: access.spaceRole === "admin"
        })
      })
  }),
  operation({
    operationId: "resolveWikiComment",
    method: "POST",
    path: "/v1/comments/{commentId}/resolve",
    summary: "Resolve a thread (give its first comment)",
    auth: "both",
    scopes: ["wiki:write"],
    params: CommentParams,
    responses: { 200: { description: "The thread's first comment", schema: WikiComment }, 409: { description: "A reply was given" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment } = yield* commentFor(caller, params.commentId)
        return yield* viewOf(
          yield* (yield* ActorSystem).ask(WikiPage, comment.pageId, "setResolved", {
            by: caller.userId,
            commentId: comment.id,
            resolved: true
          })
        )
      })
  }),
  operation({
    operationId: "reopenWikiComment",
    method: "POST",
    path: "/v1/comments/{commentId}/reopen",
    summary: "Reopen a resolved thread",
    auth: "both",
    scopes: ["wiki:write"],
    params: CommentParams,
    responses: { 200: { description: "The thread's first comment", schema: WikiComment } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const { comment } = yield* commentFor(caller, params.commentId)
        return yield* viewOf(
          yield* (yield* ActorSystem).ask(WikiPage, comment.pageId, "setResolved", {
            by: caller.userId,
            commentId: comment.id,
            resolved: false
          })
        )
      })
  }),
  operation({
    operationId: "listWikiSpaceComments",
    method: "GET",
    path: "/v1/spaces/{spaceId}/comments",
    summary: "Comment threads across a space's pages (open ones by default), newest first",
    auth: "both",
    scopes: ["wiki:read"],
    params: SpaceParams,
    query: Schema.Struct({ status: Schema.optionalKey(Status), limit: Schema.optionalKey(Limit) }),
    responses: {
      200: {
        description: "Threads",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ ...WikiComment.fields, page: PageRef, replyCount: Schema.Number }))
        }).annotate({ identifier: "WikiSpaceCommentThreads" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        const access = yield* spaceAccess(caller, params.spaceId)
        const visible = new Map(
          (yield* pagesVisibleIn(caller, access)).filter(({ page }) => page.archivedAt === null).map(({ page }) => [page.id, page] as const)
        )
        const threads = (yield* Effect.orDie(threadsOfSpace(params.spaceId, query.status ?? "open", 1000)))
          .filter(({ comment }) => visible.has(comment.pageId))
          .slice(0, query.limit ?? 50)
        const views = yield* viewsOf(threads.map(({ comment }) => comment))
        return {
          items: views.map((view, i) => {
            const page = visible.get(view.pageId)!
            return { ...view, page: { id: page.id, title: page.title, slug: page.slug }, replyCount: threads[i]!.replyCount }
          })
        }
      })
  }),
  operation({
    operationId: "listMyWikiMentions",
    method: "GET",
    path: "/v1/comments/mentions",
    summary: "Comments that mention you in a workspace, newest first",
    auth: "both",
    scopes: ["wiki:read"],
    query: Schema.Struct({ workspaceId: Id, limit: Schema.optionalKey(Limit) }),
    responses: {
      200: {
        description: "Mentions",
        schema: Schema.Struct({ items: Schema.Array(Schema.Struct({ ...WikiComment.fields, page: PageRef })) }).annotate({
          identifier: "WikiMentions"
        })
      }
    },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const caller = yield* callerFrom(context)
        yield* workspaceAccess(caller, query.workspaceId)
        const mentions = yield* Effect.orDie(mentionsOf(query.workspaceId, caller.userId, 500))
        // Only pages the caller can still read (restrictions may have changed since).
        const pages = new Map<string, PageAccess | undefined>()
        for (const pageId of new Set(mentions.map((c) => c.pageId))) {
          const found = yield* Effect.option(pageAccess(caller, pageId))
          pages.set(pageId, found._tag === "Some" && found.value.page.archivedAt === null ? found.value : undefined)
        }
        const readable = mentions.filter((c) => pages.get(c.pageId) !== undefined).slice(0, query.limit ?? 50)
        const views = yield* viewsOf(readable)
        return {
          items: views.map((view) => {
            const page = pages.get(view.pageId)!.page
            return { ...view, page: { id: page.id, title: page.title, slug: page.slug } }
          })
        }
      })
  })
]
