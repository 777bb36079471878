/**
 * pm tag "Whiteboard Comments" (7): comments pinned to a board's elements (by
 * element id, with an offset from the element), so they follow an element
 * however often it is moved, by anyone, at the same time; each comes back
 * with its pin placed where the element is now (`present: false` once the
 * element is gone). Anyone who can see the board comments and resolves;
 * authors (or admins) edit, move and delete their own.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../../actors/Fields.ts"
import { read, send } from "../../../actors/pm/WorkActor.ts"
import {
  type CommentRecord,
  CommentText,
  ElementId,
  PmWhiteboard,
  placed,
  positionsOf,
  WhiteboardComment
} from "../../../actors/pmops/Whiteboards.ts"
import { CommentNotFound } from "../../../actors/pm/PmErrors.ts"
import { tagGroup } from "../../Operation.ts"

import { boardState, onWhiteboard } from "./WhiteboardAccess.ts"
import { whiteboardCommentsExamples } from "./WhiteboardComments.examples.ts"
const BoardParams = Schema.Struct({ whiteboardId: Id })
const CommentParams = Schema.Struct({ whiteboardId: Id, commentId: Id })
const Offset = Schema.Finite.check(Schema.isBetween({ minimum: -100_000, maximum: 100_000 }))
const Comments = Schema.Struct({ items: Schema.Array(WhiteboardComment) })

/** Comments with their pins placed on the board's live state. */
const pinned = (whiteboardId: string, rows: ReadonlyArray<typeof CommentRecord.Type>) =>
  Effect.map(boardState(whiteboardId), (state) => placed(rows, positionsOf(state)))

/** Comments of a board (from its actor's memory) with their pins placed. */
const withPins = (whiteboardId: string, filter: { elementId?: string; resolved?: boolean } = {}) =>
  Effect.flatMap(read(PmWhiteboard, whiteboardId, "comments", filter), (rows) => pinned(whiteboardId, rows))

/** One comment of a command's answer (the board's comments after it), pinned. */
const oneOf = (whiteboardId: string, id: string, comments: ReadonlyArray<typeof CommentRecord.Type>) => {
  const row = comments.find((c) => c.id === id)
  return row === undefined ? Effect.fail(new CommentNotFound()) : Effect.map(pinned(whiteboardId, [row]), (rows) => rows[0]!)
}

const one = (whiteboardId: string, id: string) =>
  Effect.flatMap(read(PmWhiteboard, whiteboardId, "comments", {}), (rows) => oneOf(whiteboardId, id, rows))

const { operation } = tagGroup("pm", "Whiteboard Comments", whiteboardCommentsExamples)

export const whiteboardCommentsOperations = [
  operation({
    operationId: "listWhiteboardComments",
    method: "GET",
    path: "/v1/whiteboards/{whiteboardId}/comments",
    summary: "A board's comments, oldest first, each pinned where its element is now",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: BoardParams,
    query: Schema.Struct({ resolved: Schema.optionalKey(Schema.Literals(["true", "false"])) }),
    responses: { 200: { description: "Comments", schema: Comments } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* onWhiteboard(context, params.whiteboardId)
        return { items: yield* withPins(params.whiteboardId, query.resolved ? { resolved: query.resolved === "true" } : {}) }
      })
  }),
  operation({
    operationId: "createWhiteboardComment",
    method: "POST",
    path: "/v1/whiteboards/{whiteboardId}/comments",
    summary: "Pin a comment to an element (or reply to a thread: the reply sits on the thread's element)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: BoardParams,
    body: Schema.Struct({
      elementId: ElementId,
      offsetX: Schema.optionalKey(Offset),
      offsetY: Schema.optionalKey(Offset),
      text: CommentText,
      parentCommentId: Schema.optionalKey(Id)
    }),
    responses: { 201: { description: "Created", schema: WhiteboardComment } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { board, caller } = yield* onWhiteboard(context, params.whiteboardId)
        const { id, comments } = yield* send(PmWhiteboard, board.id, "createComment", caller.userId, {
          elementId: body.elementId,
          offsetX: body.offsetX ?? 0,
          offsetY: body.offsetY ?? 0,
          text: body.text,
          parentCommentId: body.parentCommentId ?? null
        })
        return yield* oneOf(board.id, id, comments)
      })
  }),
  operation({
    operationId: "getWhiteboardComment",
    method: "GET",
    path: "/v1/whiteboards/{whiteboardId}/comments/{commentId}",
    summary: "One comment with its pin",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: CommentParams,
    responses: { 200: { description: "Comment", schema: WhiteboardComment }, 404: { description: "No such comment" } },
    handler: ({ params }, context) => Effect.andThen(onWhiteboard(context, params.whiteboardId), one(params.whiteboardId, params.commentId))
  }),
  operation({
    operationId: "updateWhiteboardComment",
    method: "PATCH",
    path: "/v1/whiteboards/{whiteboardId}/comments/{commentId}",
    summary: "Edit a comment's text or move its pin to another element or offset (author or admin)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: CommentParams,
    body: Schema.Struct({
      text: Schema.optionalKey(CommentText),
      elementId: Schema.optionalKey(ElementId),
      offsetX: Schema.optionalKey(Offset),
      offsetY: Schema.optionalKey(Offset)
    }),
    responses: { 200: { description: "Updated", schema: WhiteboardComment }, 403: { description: "Not the author" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { board, caller } = yield* onWhiteboard(context, params.whiteboardId)
        const { comments } = yield* send(PmWhiteboard, board.id, "updateComment", caller.userId, {
          commentId: params.commentId,
          admin: caller.admin,
          ...body
        })
        return yield* oneOf(board.id, params.commentId, comments)
      })
  }),
  operation({
    operationId: "resolveWhiteboardComment",
    method: "POST",
    path: "/v1/whiteboards/{whiteboardId}/comments/{commentId}/resolve",
    summary: "Resolve (or reopen) a thread; its replies follow",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: CommentParams,
    body: Schema.Struct({ resolved: Schema.Boolean }),
    responses: { 200: { description: "The comment", schema: WhiteboardComment } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { board, caller } = yield* onWhiteboard(context, params.whiteboardId)
        const { comments } = yield* send(PmWhiteboard, board.id, "updateComment", caller.userId, {
          commentId: params.commentId,
          admin: caller.admin,
          resolved: body.resolved
        })
        return yield* oneOf(board.id, params.commentId, comments)
      })
  }),
  operation({
    operationId: "deleteWhiteboardComment",
    method: "DELETE",
    path: "/v1/whiteboards/{whiteboardId}/comments/{commentId}",
    summary: "Delete a comment and its replies (author or admin)",
    auth: "both",
    scopes: ["whiteboards:write"],
    params: CommentParams,
    responses: { 204: { description: "Deleted" }, 403: { description: "Not the author" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { board, caller } = yield* onWhiteboard(context, params.whiteboardId)
        yield* send(PmWhiteboard, board.id, "deleteComment", caller.userId, {
          commentId: params.commentId,
          admin: caller.admin
        })
      })
  }),
  operation({
    operationId: "listElementComments",
    method: "GET",
    path: "/v1/whiteboards/{whiteboardId}/elements/{elementId}/comments",
    summary: "The comments pinned to one element, with where the element is now",
    auth: "both",
    scopes: ["whiteboards:read"],
    params: Schema.Struct({ whiteboardId: Id, elementId: ElementId }),
    responses: { 200: { description: "Comments", schema: Comments } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* onWhiteboard(context, params.whiteboardId)
        return { items: yield* withPins(params.whiteboardId, { elementId: params.elementId }) }
      })
  })
]
