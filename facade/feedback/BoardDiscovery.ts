/**
 * feedback tag "Board Resource", part 3 (5 of 29): the board's requests as
 * people look for them — listed with filters and sorted trending / top / new
 * (pinned first), searched, similar requests while typing a new one, the
 * roadmap (requests grouped by status type) and the caller's contributions.
 * Served from the Board actor's memory.
 */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import type { RequestFilter } from "../../actors/feedback/BoardReads.ts"
import { SortOrder, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { contributionsOf } from "../../actors/feedback/RequestQueries.ts"
import { tagGroup } from "../Operation.ts"
import { board, BoardParams, Limit, Offset, page } from "./BoardAsk.ts"
import { type BoardCaller, boardAccess } from "./FeedbackAccess.ts"
import { FeatureRequest, FeatureRequestPage, featureRequestsOf, optionDto, optionSchema, service } from "./FeedbackViews.ts"
import { boardDiscoveryExamples } from "./BoardDiscovery.examples.ts"

const BooleanParam = Schema.Literals(["true", "false"])

const Query = Schema.String.check(Schema.isMaxLength(200), Schema.isPattern(/\S/, { expected: "some words" }))

const pageOf = (caller: BoardCaller, filter: Omit<RequestFilter, "viewerId" | "team">) =>
  Effect.gen(function* () {
    const found = yield* board(caller.view.board.id).requests({ ...filter, viewerId: caller.userId, team: caller.team })
    return page({ items: yield* featureRequestsOf(caller.view, found.items), total: found.total }, filter.offset)
  })

const StatusDto = optionSchema("status", "FeedbackStatus")

const Roadmap = Schema.Struct({
  columns: Schema.Array(Schema.Struct({ type: StatusType, statuses: Schema.Array(StatusDto), items: Schema.Array(FeatureRequest) }))
}).annotate({ identifier: "FeedbackRoadmap" })

const Contribution = Schema.Struct({
  featureRequest: FeatureRequest,
  posted: Schema.Boolean,
  voted: Schema.Boolean,
  commented: Schema.Boolean
}).annotate({ identifier: "FeedbackContribution" })

const listQuery = Schema.Struct({
  sort: Schema.optionalKey(SortOrder),
  statusId: Schema.optionalKey(Id),
  statusType: Schema.optionalKey(StatusType),
  categoryId: Schema.optionalKey(Id),
  productAreaId: Schema.optionalKey(Id),
  authorId: Schema.optionalKey(Id),
  ownerId: Schema.optionalKey(Id),
  includeMerged: Schema.optionalKey(BooleanParam),
  offset: Schema.optionalKey(Offset),
  limit: Schema.optionalKey(Limit)
})

const { operation } = tagGroup(service, "Board Resource", boardDiscoveryExamples)

export const boardDiscoveryOperations = [
  operation({
    operationId: "listBoardFeatureRequests",
    method: "GET",
    path: "/v1/boards/{boardId}/feature-requests",
    summary: "The board's feature requests, filtered, sorted trending / top / new / old (pinned first)",
    description: "Merged duplicates are left out unless includeMerged=true. Pending (moderated) posts show to the team and their authors.",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: listQuery,
    responses: { 200: { description: "A page", schema: FeatureRequestPage } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId), (caller) =>
        pageOf(caller, {
          sort: query.sort ?? "trending",
          ...(query.statusId !== undefined ? { statusIds: [query.statusId] } : {}),
          ...(query.statusType !== undefined ? { statusTypes: [query.statusType] } : {}),
          ...(query.categoryId !== undefined ? { categoryId: query.categoryId } : {}),
          ...(query.productAreaId !== undefined ? { productAreaId: query.productAreaId } : {}),
          ...(query.authorId !== undefined ? { authorId: query.authorId } : {}),
          ...(query.ownerId !== undefined ? { ownerId: query.ownerId } : {}),
          includeMerged: query.includeMerged === "true",
          offset: query.offset ?? 0,
          limit: query.limit ?? 50
        })
      )
  }),
  operation({
    operationId: "searchBoardFeatureRequests",
    method: "GET",
    path: "/v1/boards/{boardId}/search",
    summary: "Search the board's requests by words in their titles and descriptions (best match first)",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: Schema.Struct({ q: Query, offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Matches", schema: FeatureRequestPage } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId), (caller) =>
        pageOf(caller, { q: query.q, sort: "top", includeMerged: false, offset: query.offset ?? 0, limit: query.limit ?? 20 })
      )
  }),
  operation({
    operationId: "findSimilarFeatureRequests",
    method: "GET",
    path: "/v1/boards/{boardId}/similar",
    summary: "Requests like the one being typed (by its title so far), to vote instead of posting a duplicate",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    query: Schema.Struct({ title: Query, limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Similar requests", schema: FeatureRequestPage } },
    handler: ({ params, query }, context) =>
      Effect.flatMap(boardAccess(context, params.boardId), (caller) =>
        pageOf(caller, { q: query.title, sort: "top", includeMerged: false, offset: 0, limit: query.limit ?? 5 })
      )
  }),
  operation({
    operationId: "getBoardRoadmap",
    method: "GET",
    path: "/v1/boards/{boardId}/roadmap",
    summary: "The roadmap: requests grouped by status type (open, under review, planned, in progress, shipped, declined), most votes first",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "Columns in workflow order", schema: Roadmap } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        const columns = yield* board(params.boardId).roadmap({ viewerId: caller.userId, team: caller.team })
        const items = yield* featureRequestsOf(
          caller.view,
          columns.flatMap((c) => c.requests)
        )
        const byId = new Map(items.map((i) => [i.id, i]))
        return {
          columns: columns.map((c) => ({
            type: c.type,
            statuses: c.statuses.map(optionDto),
            items: c.requests.map((r) => byId.get(r.id)!)
          }))
        }
      })
  }),
  operation({
    operationId: "listMyContributions",
    method: "GET",
    path: "/v1/boards/{boardId}/my-contributions",
    summary: "The requests the caller posted, voted for or commented on, newest first",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: {
      200: {
        description: "Contributions",
        schema: Schema.Struct({ items: Schema.Array(Contribution) }).annotate({ identifier: "FeedbackContributionList" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        const kinds = yield* Effect.orDie(contributionsOf(params.boardId, caller.userId))
        const found = yield* board(params.boardId).requests({
          viewerId: caller.userId,
          team: caller.team,
          ids: [...kinds.keys()],
          includeMerged: true,
          sort: "new",
          offset: 0,
          limit: 10_000
        })
        const items = yield* featureRequestsOf(caller.view, found.items)
        return {
          items: items.map((featureRequest) => {
            const mine = kinds.get(featureRequest.id)!
            return { featureRequest, posted: mine.has("posted"), voted: mine.has("voted"), commented: mine.has("commented") }
          })
        }
      })
  })
]
