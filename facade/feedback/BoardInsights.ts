/**
 * feedback tag "Board Resource", part 4 (6 of 29): for the board's team —
 * counts, the activity log, top voters, an export (JSON or CSV), bulk triage
 * and a copy of the board's configuration.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { BoardStats } from "../../actors/feedback/BoardReads.ts"
import { Board, BoardVisibility } from "../../actors/feedback/FeedbackModel.ts"
import { boardEvents, topVoters } from "../../actors/feedback/RequestQueries.ts"
import { workspaceRole } from "../Access.ts"
import { raw, tagGroup } from "../Operation.ts"
import { board, BoardParams, Limit } from "./BoardAsk.ts"
import { Slug } from "./Boards.ts"
import { type BoardCaller, boardAccess } from "./FeedbackAccess.ts"
import {
  eventsView,
  FeatureRequest,
  FeatureRequestList,
  FeedbackEventList,
  featureRequestsOf,
  names,
  optionDto,
  Person,
  service
} from "./FeedbackViews.ts"
import { boardInsightsExamples } from "./BoardInsights.examples.ts"

const TopVoter = Schema.Struct({
  user: Schema.NullOr(Person),
  customer: Schema.NullOr(Schema.Struct({ email: Schema.String, name: Schema.NullOr(Schema.String) })),
  votes: Schema.Number
}).annotate({ identifier: "FeedbackTopVoter" })

const BoardExport = Schema.Struct({ board: Board, options: Schema.Array(Schema.Unknown), requests: Schema.Array(FeatureRequest) }).annotate(
  {
    identifier: "FeedbackBoardExport"
  }
)

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value)
  // A leading =, +, - or @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

const exportOf = (caller: BoardCaller, format: "json" | "csv") =>
  Effect.gen(function* () {
    const found = yield* board(caller.view.board.id).requests({
      viewerId: caller.userId,
      team: true,
      includeMerged: true,
      sort: "old",
      offset: 0,
      limit: 1_000_000
    })
    const requests = yield* featureRequestsOf(caller.view, found.items)
    const filename = `${caller.view.board.slug}-feedback.${format}`
    const disposition = { "content-disposition": `attachment; filename="${filename}"` }
    if (format === "json") {
      return raw(
        "application/json",
        JSON.stringify({ board: caller.view.board, options: caller.view.options.map(optionDto), requests }),
        disposition
      )
    }
    const header = [
      "shortId",
      "title",
      "status",
      "category",
      "productArea",
      "votes",
      "comments",
      "author",
      "mergedInto",
      "createdAt",
      "description"
    ]
    const lines = requests.map((r) =>
      [
        r.shortId,
        r.title,
        r.status?.name,
        r.category?.name,
        r.productArea?.name,
        r.voteCount,
        r.commentCount,
        r.author?.name,
        r.mergedInto,
        r.createdAt,
        r.description
      ]
        .map(csvCell)
        .join(",")
    )
    return raw("text/csv; charset=utf-8", `${[header.join(","), ...lines].join("\r\n")}\r\n`, disposition)
  })

const { operation } = tagGroup(service, "Board Resource", boardInsightsExamples)

export const boardInsightOperations = [
  operation({
    operationId: "getBoardStats",
    method: "GET",
    path: "/v1/boards/{boardId}/stats",
    summary: "Counts: requests, votes, comments, merged, pending moderation, new this week, by status, type and category",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "Counts", schema: BoardStats } },
    handler: ({ params }, context) => Effect.flatMap(boardAccess(context, params.boardId, "team"), () => board(params.boardId).stats({}))
  }),
  operation({
    operationId: "getBoardActivity",
    method: "GET",
    path: "/v1/boards/{boardId}/activity",
    summary: "The board's change log, newest first (page back with beforeSeq)",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: Schema.Struct({
      beforeSeq: Schema.optionalKey(Schema.FiniteFromString.check(Schema.isInt(), Schema.isGreaterThan(0))),
      limit: Schema.optionalKey(Limit)
    }),
    responses: { 200: { description: "Events", schema: FeedbackEventList } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "team")
        return {
          items: yield* eventsView(yield* Effect.orDie(boardEvents(params.boardId, query.beforeSeq, query.limit ?? 50)), caller.team)
        }
      })
  }),
  operation({
    operationId: "listBoardTopVoters",
    method: "GET",
    path: "/v1/boards/{boardId}/top-voters",
    summary: "Who voted most on the board: users and customers voted for by the team (the team only)",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit) }),
    responses: {
      200: {
        description: "Voters",
        schema: Schema.Struct({ items: Schema.Array(TopVoter) }).annotate({ identifier: "FeedbackTopVoterList" })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        yield* boardAccess(context, params.boardId, "team")
        const voters = yield* Effect.orDie(topVoters(params.boardId, query.limit ?? 20))
        const person = yield* names(voters.map((v) => v.userId))
        return {
          items: voters.map((v) => ({
            user: person(v.userId),
            customer: v.userId === null && v.email !== null ? { email: v.email, name: v.name } : null,
            votes: v.votes
          }))
        }
      })
  }),
  operation({
    operationId: "exportBoard",
    method: "GET",
    path: "/v1/boards/{boardId}/export",
    summary: "Download the board's requests as JSON or CSV (board admins)",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: Schema.Struct({ format: Schema.optionalKey(Schema.Literals(["json", "csv"])) }),
    responses: { 200: { description: "The export", schema: BoardExport, contentType: ["application/json", "text/csv; charset=utf-8"] } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId, "admin"), (caller) => exportOf(caller, query.format ?? "json"))
  }),
  operation({
    operationId: "bulkUpdateFeatureRequests",
    method: "POST",
    path: "/v1/boards/{boardId}/feature-requests/bulk",
    summary: "Set the status, category and/or product area of several requests at once (board admins; all or none)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({
      ids: Schema.Array(Id).check(Schema.isMinLength(1), Schema.isMaxLength(200)),
      statusId: Schema.optionalKey(Id),
      categoryId: Schema.optionalKey(Schema.NullOr(Id)),
      productAreaId: Schema.optionalKey(Schema.NullOr(Id))
    }),
    responses: { 200: { description: "The requests after the change", schema: FeatureRequestList } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId, "admin")
        const { ids, ...change } = body
        const records = yield* board(params.boardId).bulkUpdate({ by: caller.userId, ids, ...change })
        return { items: yield* featureRequestsOf(caller.view, records) }
      })
  }),
  operation({
    operationId: "duplicateBoard",
    method: "POST",
    path: "/v1/boards/{boardId}/duplicate",
    summary: "A new board with this one's settings, statuses, categories, product areas and levels (no requests; workspace admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({
      name: Schema.String.check(Schema.isMaxLength(120), Schema.isPattern(/\S/, { expected: "a non-blank name" })),
      slug: Slug,
      visibility: Schema.optionalKey(BoardVisibility)
    }),
    responses: { 201: { description: "The new board", schema: Board } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        const source = caller.view.board
        yield* workspaceRole(context, source.workspaceId, "admin")
        return yield* board(randomUUID()).create({
          by: caller.userId,
          workspaceId: source.workspaceId,
          name: body.name,
          slug: body.slug,
          description: source.description,
          visibility: body.visibility ?? source.visibility,
          settings: source.settings,
          copyOptionsOf: caller.view.options
        })
      })
  })
]
