/**
 * feedback tag "Moderation Resource" (6): with moderation on, posts and
 * comments of people outside the team wait in the board's queue; its admins
 * approve (optionally verifying the author: their next posts skip the
 * queue), decline (optionally blocking the author from posting), mark spam,
 * and read the moderation log — every decision, marker and merge — from
 * which an action can be undone (a merge is undone by unmerging).
 */
import { Effect, Schema } from "effect"
import { Board } from "../../actors/feedback/Board.ts"
import { commentById } from "../../actors/feedback/Discussion.ts"
import { moderationLog, moderationLogEntry } from "../../actors/feedback/DeskQueries.ts"
import {
  IsoDateTime,
  type ModerationAction,
  ModerationItem,
  type ModerationKind,
  ModerationLogEntry
} from "../../actors/feedback/DeskRecords.ts"
import { mergesOfBoard, mergeById } from "../../actors/feedback/MergeLog.ts"
import { moderationQueue } from "../../actors/feedback/ModerationQueue.ts"
import { Id } from "../../actors/Fields.ts"
import { bugCommentOnBoard } from "../../actors/feedback/PublicReads.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { tagGroup } from "../Operation.ts"
import { type BoardCaller, onBoard } from "./DeskAccess.ts"

import { moderationExamples } from "./Moderation.examples.ts"
import { board, desk } from "./BoardAsk.ts"
const moderate = ["feedback:moderate"]
const ItemParams = Schema.Struct({ boardId: Id, itemId: Id })

interface Post {
  readonly kind: ModerationKind
  readonly authorKey: string | null
  readonly state: string
  readonly title: string
}

/** Any post or comment of the board by id: a feature request, a comment, a bug report or a bug comment. */
const locate = (caller: BoardCaller, itemId: string) =>
  Effect.gen(function* () {
    const boardId = caller.view.board.id
    const request = yield* board(boardId).request({ requestId: itemId }).pipe(Effect.option)
    if (request._tag === "Some") {
      const r = request.value
      return {
        kind: "featureRequest",
        authorKey: r.authorId ? `user:${r.authorId}` : null,
        state: r.moderationState,
        title: r.title
      } satisfies Post
    }
    const comment = yield* orDieStore(commentById(itemId))
    if (comment !== undefined && comment.boardId === boardId && comment.deletedAt === null) {
      return {
        kind: "comment",
        authorKey: comment.authorId ? `user:${comment.authorId}` : null,
        state: comment.moderationState,
        title: comment.body.slice(0, 120)
      } satisfies Post
    }
    const bug = (yield* desk(boardId).bugs({})).find((b) => b.id === itemId)
    if (bug !== undefined) {
      const key = bug.reporterId ? `user:${bug.reporterId}` : bug.reporterEmail ? `email:${bug.reporterEmail.toLowerCase()}` : null
      return { kind: "bugReport", authorKey: key, state: bug.moderation, title: bug.title } satisfies Post
    }
    const bugComment = yield* orDieStore(bugCommentOnBoard(itemId, boardId))
    if (bugComment !== undefined) {
      return {
        kind: "bugComment",
        authorKey: `user:${bugComment.author_id}`,
        state: bugComment.moderation,
        title: bugComment.body.slice(0, 120)
      } satisfies Post
    }
    return yield* reject("not_found", "No such post or comment on this board")
  })

/** A feature request's or comment's state is the Board actor's to change. */
const applyOnBoard = (caller: BoardCaller, post: Post, itemId: string, to: "approved" | "declined" | "pending") =>
  post.kind === "featureRequest" || post.kind === "comment"
    ? Effect.flatMap(ActorSystem, (system) =>
        Board.client(system)(caller.view.board.id).moderate({
          by: caller.userId,
          target: post.kind === "featureRequest" ? "request" : "comment",
          id: itemId,
          state: to
        })
      )
    : Effect.void

const decide = (caller: BoardCaller, itemId: string, action: ModerationAction, detail: Record<string, unknown>) =>
  Effect.gen(function* () {
    const post = yield* locate(caller, itemId)
    if (action === "approve" || action === "approveAndVerify" || action === "decline" || action === "declineAndBlock") {
      if (post.state !== "pending")
        return yield* reject("conflict", `This ${post.kind} is not waiting for moderation (it is ${post.state})`)
      yield* applyOnBoard(caller, post, itemId, action.startsWith("approve") ? "approved" : "declined")
    }
    if ((action === "approveAndVerify" || action === "declineAndBlock") && post.authorKey === null) {
      return yield* reject("conflict", "This post has no known author to verify or block")
    }
    return yield* desk(caller.view.board.id).moderate({
      by: caller.userId,
      input: {
        action,
        kind: post.kind,
        targetId: itemId,
        authorKey: post.authorKey,
        detail
      }
    })
  })

const { operation } = tagGroup("feedback", "Moderation Resource", moderationExamples)

export const moderationOperations = [
  operation({
    operationId: "listModerationQueue",
    method: "GET",
    path: "/v1/boards/{boardId}/moderation/queue",
    summary: "Posts and comments waiting for moderation, oldest first, with spam markers (board admins)",
    auth: "both",
    scopes: moderate,
    params: Schema.Struct({ boardId: Id }),
    query: Schema.Struct({
      kind: Schema.optionalKey(Schema.Literals(["featureRequest", "comment", "bugReport", "bugComment"])),
      spam: Schema.optionalKey(
        Schema.Literals(["true", "false"]).annotate({ description: "Only items marked (true) or not marked (false) as spam" })
      )
    }),
    responses: { 200: { description: "The queue", schema: Schema.Struct({ items: Schema.Array(ModerationItem) }) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onBoard(context, params.boardId, "admin")
        const items = yield* orDieStore(moderationQueue(params.boardId))
        return {
          items: items.filter(
            (i) => (q.kind === undefined || i.kind === q.kind) && (q.spam === undefined || i.spam === (q.spam === "true"))
          )
        }
      })
  }),
  operation({
    operationId: "approveModerationItem",
    method: "POST",
    path: "/v1/boards/{boardId}/moderation/items/{itemId}/approve",
    summary: "Approve a waiting post or comment; `verifyAuthor` lets the author's next posts skip the queue",
    auth: "both",
    scopes: moderate,
    params: ItemParams,
    body: Schema.Struct({ verifyAuthor: Schema.optionalKey(Schema.Boolean) }),
    responses: { 200: { description: "The log entry", schema: ModerationLogEntry } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(onBoard(context, params.boardId, "admin"), (caller) =>
        decide(caller, params.itemId, body.verifyAuthor ? "approveAndVerify" : "approve", {})
      )
  }),
  operation({
    operationId: "declineModerationItem",
    method: "POST",
    path: "/v1/boards/{boardId}/moderation/items/{itemId}/decline",
    summary: "Decline a waiting post or comment (hidden); `blockAuthor` refuses the author's next posts on this board",
    auth: "both",
    scopes: moderate,
    params: ItemParams,
    body: Schema.Struct({
      blockAuthor: Schema.optionalKey(Schema.Boolean),
      reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
    }),
    responses: { 200: { description: "The log entry", schema: ModerationLogEntry } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(onBoard(context, params.boardId, "admin"), (caller) =>
        decide(caller, params.itemId, body.blockAuthor ? "declineAndBlock" : "decline", body.reason ? { reason: body.reason } : {})
      )
  }),
  operation({
    operationId: "markModerationSpam",
    method: "POST",
    path: "/v1/boards/{boardId}/moderation/items/{itemId}/spam",
    summary: "Set or clear a moderator's spam marker on a post or comment of the board",
    auth: "both",
    scopes: moderate,
    params: ItemParams,
    body: Schema.Struct({ spam: Schema.Boolean, reason: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500))) }),
    responses: { 200: { description: "The log entry", schema: ModerationLogEntry } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(onBoard(context, params.boardId, "admin"), (caller) =>
        decide(caller, params.itemId, body.spam ? "markSpam" : "unmarkSpam", { reason: body.reason ?? "marked by a moderator" })
      )
  }),
  operation({
    operationId: "listModerationLog",
    method: "GET",
    path: "/v1/boards/{boardId}/moderation/log",
    summary: "Every moderation action and merge on the board, newest first; `undoable` ones can be undone",
    auth: "both",
    scopes: moderate,
    params: Schema.Struct({ boardId: Id }),
    query: Schema.Struct({
      before: Schema.optionalKey(
        IsoDateTime.annotate({ description: "Only entries before this time (the last entry's actedAt pages back)" })
      ),
      limit: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })))
    }),
    responses: { 200: { description: "The log", schema: Schema.Struct({ items: Schema.Array(ModerationLogEntry) }) } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        yield* onBoard(context, params.boardId, "admin")
        const limit = q.limit ?? 50
        const before = q.before === undefined ? undefined : new Date(q.before).toISOString()
        const own = yield* orDieStore(moderationLog(params.boardId, limit, before))
        const merges = yield* orDieStore(mergesOfBoard(params.boardId, limit, before))
        const items = [...own, ...merges].sort((a, b) => b.actedAt.localeCompare(a.actedAt) || b.id.localeCompare(a.id)).slice(0, limit)
        return { items }
      })
  }),
  operation({
    operationId: "undoModerationAction",
    method: "POST",
    path: "/v1/boards/{boardId}/moderation/log/{entryId}/undo",
    summary:
      "Undo a logged action: the post goes back to the queue, a verification or block is lifted, a spam marker removed, a merge unmerged",
    auth: "both",
    scopes: moderate,
    params: Schema.Struct({ boardId: Id, entryId: Id }),
    responses: { 200: { description: "The log entry of the undo", schema: ModerationLogEntry } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "admin")
        const system = yield* ActorSystem
        const entry = yield* orDieStore(moderationLogEntry(params.entryId))
        if (entry !== undefined && entry.boardId === params.boardId) {
          if (!entry.undoable) return yield* reject("conflict", "That action was already undone or cannot be undone")
          if ((entry.targetKind === "featureRequest" || entry.targetKind === "comment") && entry.action !== "markSpam") {
            const post = yield* locate(caller, entry.targetId)
            if (post.state !== "pending") yield* applyOnBoard(caller, post, entry.targetId, "pending")
          }
          return yield* desk(params.boardId).undo({ by: caller.userId, input: { entryId: entry.id } })
        }
        const merge = yield* orDieStore(mergeById(params.entryId))
        if (merge === undefined || merge.boardId !== params.boardId)
          return yield* reject("not_found", "No such moderation log entry on this board")
        if (!merge.undoable)
          return yield* reject("conflict", "That merge was already undone, or a later merge of the request must be undone first")
        yield* Board.client(system)(params.boardId).unmerge({ by: caller.userId, requestId: merge.targetId })
        return yield* desk(params.boardId).moderate({
          by: caller.userId,
          input: {
            action: "unmerge",
            kind: "featureRequest",
            targetId: merge.targetId,
            authorKey: null,
            detail: { undid: merge.id, intoId: merge.detail.intoId ?? null }
          }
        })
      })
  })
]
