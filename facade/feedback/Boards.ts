/**
 * feedback tag "Board Resource", part 1 (9 of 29): boards themselves —
 * create (workspace admins; with the default workflow: statuses open → …
 * → shipped/declined, bug status levels, severity levels), list, read,
 * change, delete, archive and restore, and the board's settings (who may
 * post, who may vote, anonymous voting and its rate limit, moderation,
 * comments).
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Board as BoardActor } from "../../actors/feedback/Board.ts"
import { isReservedKey, KEY_PATTERN } from "../../actors/feedback/BoardKeys.ts"
import { boardIdsOfWorkspace } from "../../actors/feedback/BoardRows.ts"
import { Board, BoardSettings, BoardVisibility, defaultSettings, WhoMayPost, WhoMayVote } from "../../actors/feedback/FeedbackModel.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { principalOf, workspaceRole } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { dropFiles } from "../../actors/feedback/AttachmentFiles.ts"
import { board, BoardParams } from "./BoardAsk.ts"
import { boardAccess, callerOn } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { boardsExamples } from "./Boards.examples.ts"

export const Slug = Schema.String.check(
  Schema.isMaxLength(60),
  Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { expected: "lower-case letters, digits and single hyphens (e.g. product-ideas)" })
).annotate({ description: "Unique in the workspace; lower-case letters, digits and hyphens" })
export const BoardKey = Schema.String.check(
  Schema.isPattern(KEY_PATTERN, { expected: "2–10 upper-case letters and digits starting with a letter (e.g. MOBILE)" }),
  Schema.makeFilter((key: string) => !isReservedKey(key) || `"${key}" is reserved for the per-board short ids (FR-12)`)
).annotate({ description: "Unique in the workspace; names requests as MOBILE-12 and bug reports as MOBILE-B3" })
const BoardName = Schema.String.check(Schema.isMaxLength(120), Schema.isPattern(/\S/, { expected: "a non-blank name" }))
const BoardDescription = Schema.String.check(Schema.isMaxLength(2000))

export const SettingsPatch = Schema.Struct({
  whoMayPost: Schema.optionalKey(WhoMayPost),
  whoMayVote: Schema.optionalKey(WhoMayVote),
  anonymousVoting: Schema.optionalKey(Schema.Boolean),
  anonymousVotesPerHour: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 }))),
  moderation: Schema.optionalKey(Schema.Boolean),
  allowComments: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "FeedbackBoardSettingsPatch" })

const BoardList = Schema.Struct({ items: Schema.Array(Board) }).annotate({ identifier: "FeedbackBoardList" })

const adminWrite =
  <Tag extends "archive" | "restore">(tagName: Tag) =>
  (boardId: string, context: Parameters<typeof boardAccess>[0]) =>
    Effect.flatMap(boardAccess(context, boardId, "admin"), (caller) => board(boardId)[tagName]({ by: caller.userId }))

const { operation } = tagGroup(service, "Board Resource", boardsExamples)

export const boardOperations = [
  operation({
    operationId: "createBoard",
    method: "POST",
    path: "/v1/boards",
    summary: "Create a feedback board in a workspace (workspace admins)",
    description:
      "The board starts with the default workflow: statuses Open, Under review, Planned, In progress, Shipped, Declined; bug status levels and severity levels; no categories or product areas.",
    auth: "both",
    scopes: ["feedback:write"],
    body: Schema.Struct({
      workspaceId: Id,
      name: BoardName,
      slug: Slug,
      key: Schema.optionalKey(BoardKey.annotate({ description: "Unique in the workspace; derived from the slug when left out" })),
      visibility: BoardVisibility,
      description: Schema.optionalKey(BoardDescription),
      settings: Schema.optionalKey(SettingsPatch)
    }),
    responses: { 201: { description: "Created", schema: Board }, 409: { description: "The slug or key is taken in this workspace" } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, body.workspaceId, "admin")
        const principal = yield* principalOf(context)
        const { settings, ...rest } = body
        return yield* board(randomUUID()).create({
          by: principal.userId,
          ...rest,
          description: body.description ?? "",
          settings: { ...defaultSettings, ...settings }
        })
      })
  }),
  operation({
    operationId: "listBoards",
    method: "GET",
    path: "/v1/boards",
    summary: "The workspace's boards the caller may see",
    auth: "both",
    scopes: ["feedback:read"],
    query: Schema.Struct({ workspaceId: Id, includeArchived: Schema.optionalKey(Schema.Literals(["true", "false"])) }),
    responses: { 200: { description: "Boards", schema: BoardList } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, query.workspaceId)
        const system = yield* ActorSystem
        const ids = yield* Effect.orDie(boardIdsOfWorkspace(query.workspaceId))
        const visible = yield* Effect.forEach(
          ids,
          (id) =>
            BoardActor.client(system)(id)
              .view({})
              .pipe(
                Effect.flatMap((view) => callerOn(context, view)),
                Effect.map((caller) => caller.view.board),
                Effect.catchTag(["Rejection", "BoardNotFound"], () => Effect.succeed(undefined))
              ),
          { concurrency: 8 }
        )
        return {
          items: visible.filter((b) => b !== undefined && (query.includeArchived === "true" || !b.archived)) as Array<typeof Board.Type>
        }
      })
  }),
  operation({
    operationId: "getBoard",
    method: "GET",
    path: "/v1/boards/{boardId}",
    summary: "A board with its settings",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "The board", schema: Board }, 404: { description: "No such board" } },
    handler: ({ params }, context) => Effect.map(boardAccess(context, params.boardId), (caller) => caller.view.board)
  }),
  operation({
    operationId: "updateBoard",
    method: "PATCH",
    path: "/v1/boards/{boardId}",
    summary: "Rename a board, change its slug, key, description or visibility (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({
      name: Schema.optionalKey(BoardName),
      slug: Schema.optionalKey(Slug),
      key: Schema.optionalKey(BoardKey),
      description: Schema.optionalKey(BoardDescription),
      visibility: Schema.optionalKey(BoardVisibility)
    }),
    responses: { 200: { description: "Changed", schema: Board }, 409: { description: "Slug or key taken, or the board is archived" } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) =>
        board(params.boardId).update({ by: caller.userId, ...body, settings: {} })
      )
  }),
  operation({
    operationId: "deleteBoard",
    method: "DELETE",
    path: "/v1/boards/{boardId}",
    summary: "Delete a board for good, with its requests, votes, comments and attachments (workspace admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    responses: { 204: { description: "Deleted" } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        yield* workspaceRole(context, caller.view.board.workspaceId, "admin")
        const removed = yield* board(params.boardId).remove({ by: caller.userId })
        yield* dropFiles(removed.blobKeys)
      })
  }),
  operation({
    operationId: "archiveBoard",
    method: "POST",
    path: "/v1/boards/{boardId}/archive",
    summary: "Archive a board: it stays readable, nothing on it changes until it is restored (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    responses: { 200: { description: "Archived", schema: Board }, 409: { description: "Already archived" } },
    handler: ({ params }, context) => adminWrite("archive")(params.boardId, context)
  }),
  operation({
    operationId: "restoreBoard",
    method: "POST",
    path: "/v1/boards/{boardId}/restore",
    summary: "Restore an archived board (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    responses: { 200: { description: "Restored", schema: Board }, 409: { description: "Not archived" } },
    handler: ({ params }, context) => adminWrite("restore")(params.boardId, context)
  }),
  operation({
    operationId: "getBoardSettings",
    method: "GET",
    path: "/v1/boards/{boardId}/settings",
    summary: "Who may post and vote, anonymous voting, moderation and comments on the board",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "Settings", schema: BoardSettings } },
    handler: ({ params }, context) => Effect.map(boardAccess(context, params.boardId), (caller) => caller.view.board.settings)
  }),
  operation({
    operationId: "updateBoardSettings",
    method: "PATCH",
    path: "/v1/boards/{boardId}/settings",
    summary: "Change the board's settings (board admins)",
    description: "Fields left out are unchanged. Anonymous voting applies to public boards' visitors (rate-limited per IP address).",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: SettingsPatch,
    responses: { 200: { description: "Settings", schema: BoardSettings } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) =>
        Effect.map(board(params.boardId).update({ by: caller.userId, settings: body }), (board) => board.settings)
      )
  })
]
