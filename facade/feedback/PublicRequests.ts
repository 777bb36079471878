/**
 * feedback tag "Public Board Resource", part 2 (11 of 33): a public board's
 * feature requests as an anonymous visitor sees them — listed, searched,
 * similar ones while typing, one by short id with its public comments,
 * status history and changelog entries — and anonymous votes when the
 * board allows them (per-IP hourly limit and one vote per visitor, kept by
 * the Board actor). Only approved requests; never an internal comment, an
 * e-mail or a user id.
 */
import { Effect, Schema } from "effect"
import { ANONYMOUS } from "../../actors/feedback/DeskCommand.ts"
import type { BoardView } from "../../actors/feedback/Board.ts"
import { shortIdOf, SortOrder, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { voterKey } from "../../actors/feedback/Votes.ts"
import { Timestamp } from "../../actors/Fields.ts"
import { hasVoted, publicComments, statusHistory, votedRequestIds } from "../../actors/feedback/PublicReads.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import type { RequestContext } from "../Operation.ts"
import { publicOperation } from "./PublicBoard.ts"
import { PublicChangelogEntry, publishedEntries } from "./PublicReleases.ts"
import {
  approvedRequests,
  displayNames,
  PublicComment,
  PublicFeatureRequest,
  publicBoard,
  publicRequestByShortId,
  publicRequests,
  ShortRequestId,
  SlugParams,
  VisitorId,
  WorkspaceQuery
} from "./PublicViews.ts"
import { board } from "./BoardAsk.ts"

const RequestParams = Schema.Struct({ slug: SlugParams.fields.slug, shortId: ShortRequestId })
const Limit = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))
const Offset = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))
const Page = Schema.Struct({ items: Schema.Array(PublicFeatureRequest), total: Schema.Number, nextOffset: Schema.NullOr(Schema.Number) })

const VoteState = Schema.Struct({ shortId: Schema.String, voteCount: Schema.Number, voted: Schema.Boolean }).annotate({
  identifier: "PublicVoteState"
})

/** A page of the board's approved requests matching the filter, as a visitor sees them. */
const page = (
  view: BoardView,
  filter: { q?: string; sort?: typeof SortOrder.Type; statusType?: string; category?: string; limit?: number; offset?: number }
) =>
  Effect.gen(function* () {
    const offset = filter.offset ?? 0
    const limit = filter.limit ?? 20
    const category =
      filter.category === undefined
        ? undefined
        : view.options.find((o) => o.kind === "category" && o.name.toLowerCase() === filter.category!.toLowerCase())
    if (filter.category !== undefined && category === undefined) {
      return yield* reject("not_found", `No category named "${filter.category}" on this board`, [
        { path: "query.category", message: "no such category" }
      ])
    }
    const result = yield* board(view.board.id).requests({
      viewerId: null,
      team: false,
      includeMerged: false,
      sort: filter.sort ?? "trending",
      ...(filter.q !== undefined ? { q: filter.q } : {}),
      ...(filter.statusType !== undefined ? { statusTypes: [filter.statusType as typeof StatusType.Type] } : {}),
      ...(category !== undefined ? { categoryId: category.id } : {}),
      offset,
      limit
    })
    const approved = result.items.filter((r) => r.moderationState === "approved")
    return {
      items: yield* publicRequests(view, approved),
      total: result.total,
      nextOffset: offset + result.items.length < result.total ? offset + result.items.length : null
    }
  })

/** An anonymous visitor's vote, when the board takes them. */
const anonymousVoter = (view: BoardView, visitorId: string, context: RequestContext) =>
  view.board.settings.anonymousVoting && view.board.settings.whoMayVote === "anyone"
    ? Effect.succeed({ kind: "anonymous" as const, fingerprint: visitorId, ip: context.clientIp ?? "unknown" })
    : Effect.fail(reject("forbidden", "This board does not take anonymous votes; sign in to vote"))

const voteState = (view: BoardView, shortId: string, visitorId: string) =>
  Effect.gen(function* () {
    const { record } = yield* publicRequestByShortId(view, shortId)
    const key = voterKey({ kind: "anonymous", fingerprint: visitorId, ip: "" })
    const voted = yield* orDieStore(hasVoted(record.id, key))
    return { shortId: shortIdOf(record.number), voteCount: record.voteCount, voted }
  })

const ListQuery = Schema.Struct({
  ...WorkspaceQuery.fields,
  sort: Schema.optionalKey(SortOrder),
  statusType: Schema.optionalKey(StatusType),
  category: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "Category name" })),
  limit: Schema.optionalKey(Limit),
  offset: Schema.optionalKey(Offset)
})

export const publicRequestOperations = [
  publicOperation({
    operationId: "listPublicFeatureRequests",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests",
    summary: "The public board's feature requests, trending / top / new / old, by status type or category name (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: ListQuery,
    responses: { 200: { description: "Requests", schema: Page }, 404: { description: "No such public board or category" } },
    handler: ({ params, query: q }) => Effect.flatMap(publicBoard(params.slug, q.workspaceId), (view) => page(view, q))
  }),
  publicOperation({
    operationId: "getPublicFeatureRequest",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}",
    summary: "One feature request of the public board by short id (no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "The request", schema: PublicFeatureRequest }, 404: { description: "No such request" } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record, all } = yield* publicRequestByShortId(view, params.shortId)
        return (yield* publicRequests(view, [record], all))[0]!
      })
  }),
  publicOperation({
    operationId: "searchPublicFeatureRequests",
    method: "GET",
    path: "/v1/public/boards/{slug}/search",
    summary: "Search the public board's requests by words in their title and text, best match first (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: Schema.Struct({
      ...WorkspaceQuery.fields,
      q: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(200)).annotate({ description: "Words to look for; without them, the trending requests" })
      ),
      limit: Schema.optionalKey(Limit),
      offset: Schema.optionalKey(Offset)
    }),
    responses: { 200: { description: "Matches", schema: Page } },
    handler: ({ params, query: q }) => Effect.flatMap(publicBoard(params.slug, q.workspaceId), (view) => page(view, q))
  }),
  publicOperation({
    operationId: "findSimilarPublicFeatureRequests",
    method: "GET",
    path: "/v1/public/boards/{slug}/similar",
    summary: "Requests like the title being typed, so visitors vote instead of posting a duplicate (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: Schema.Struct({
      ...WorkspaceQuery.fields,
      title: Schema.optionalKey(
        Schema.String.check(Schema.isMaxLength(300)).annotate({ description: "The title being typed; none or blank finds nothing" })
      )
    }),
    responses: { 200: { description: "Up to 5 similar requests", schema: Schema.Struct({ items: Schema.Array(PublicFeatureRequest) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        if (q.title === undefined || q.title.trim() === "") return { items: [] }
        return { items: (yield* page(view, { q: q.title, limit: 5 })).items }
      })
  }),
  publicOperation({
    operationId: "listPublicFeatureRequestComments",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/comments",
    summary: "The public comments on a request, oldest first (no internal notes, nothing waiting for moderation; no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Comments", schema: Schema.Struct({ items: Schema.Array(PublicComment) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        const comments = yield* orDieStore(publicComments(record.id))
        const shown = new Set(comments.map((c) => c.id))
        const nameOf = yield* displayNames(comments.map((c) => c.authorId))
        return {
          items: comments.map((c) => ({
            id: c.id,
            // A reply to something the visitor may not see hangs at the top level.
            parentId: c.parentId !== null && shown.has(c.parentId) ? c.parentId : null,
            authorName: c.authorId === null ? c.authorName : nameOf(c.authorId),
            body: c.body,
            edited: c.edited,
            createdAt: c.createdAt
          }))
        }
      })
  }),
  publicOperation({
    operationId: "listPublicFeatureRequestHistory",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/history",
    summary: "How a request's status changed, oldest first (no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    responses: {
      200: {
        description: "Status changes",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ from: Schema.NullOr(Schema.String), to: Schema.NullOr(Schema.String), at: Timestamp }))
        })
      }
    },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        return { items: yield* orDieStore(statusHistory(record.id)) }
      })
  }),
  publicOperation({
    operationId: "listPublicFeatureRequestChangelog",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/changelog",
    summary: "The published changelog entries that shipped a request (no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Entries", schema: Schema.Struct({ items: Schema.Array(PublicChangelogEntry) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        const shortId = shortIdOf(record.number)
        return { items: (yield* publishedEntries(view)).filter((e) => e.featureRequests.includes(shortId)) }
      })
  }),
  publicOperation({
    operationId: "votePublicFeatureRequest",
    method: "POST",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/votes",
    summary: "Vote for a request anonymously, when the board allows it (no authentication)",
    description:
      "`visitorId` is the id the visitor's browser keeps; one vote per visitor and request, and a per-address hourly limit per board (429). A board without anonymous voting answers 403.",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: WorkspaceQuery,
    body: Schema.Struct({ visitorId: VisitorId }),
    responses: {
      200: { description: "The request's votes", schema: VoteState },
      403: { description: "No anonymous votes here" },
      409: { description: "Already voted" }
    },
    handler: ({ params, query: q, body }, context) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        const voter = yield* anonymousVoter(view, body.visitorId, context)
        const outcome = yield* board(view.board.id).vote({ by: ANONYMOUS, requestId: record.id, voter })
        return { shortId: shortIdOf(record.number), voteCount: outcome.voteCount, voted: outcome.voted }
      })
  }),
  publicOperation({
    operationId: "unvotePublicFeatureRequest",
    method: "DELETE",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/votes",
    summary: "Take back an anonymous vote (no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: Schema.Struct({ ...WorkspaceQuery.fields, visitorId: VisitorId }),
    responses: { 200: { description: "The request's votes", schema: VoteState } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const { record } = yield* publicRequestByShortId(view, params.shortId)
        const voter = yield* anonymousVoter(view, q.visitorId, context)
        const outcome = yield* board(view.board.id).unvote({ by: ANONYMOUS, requestId: record.id, voter })
        return { shortId: shortIdOf(record.number), voteCount: outcome.voteCount, voted: outcome.voted }
      })
  }),
  publicOperation({
    operationId: "getPublicVoteState",
    method: "GET",
    path: "/v1/public/boards/{slug}/feature-requests/{shortId}/votes",
    summary: "A request's vote count and whether this visitor voted for it (no authentication)",
    auth: "public",
    scopes: [],
    params: RequestParams,
    query: Schema.Struct({ ...WorkspaceQuery.fields, visitorId: VisitorId }),
    responses: { 200: { description: "Votes", schema: VoteState } },
    handler: ({ params, query: q }) =>
      Effect.flatMap(publicBoard(params.slug, q.workspaceId), (view) => voteState(view, params.shortId, q.visitorId))
  }),
  publicOperation({
    operationId: "listPublicVisitorVotes",
    method: "GET",
    path: "/v1/public/boards/{slug}/votes",
    summary: "The requests of the board this visitor voted for (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: Schema.Struct({ ...WorkspaceQuery.fields, visitorId: Schema.optionalKey(VisitorId) }),
    responses: { 200: { description: "Short ids", schema: Schema.Struct({ items: Schema.Array(Schema.String) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        if (q.visitorId === undefined) return { items: [] }
        const key = voterKey({ kind: "anonymous", fingerprint: q.visitorId, ip: "" })
        const voted = yield* orDieStore(votedRequestIds(view.board.id, key))
        const requests = yield* approvedRequests(view.board.id)
        return {
          items: requests
            .filter((r) => voted.has(r.id))
            .sort((a, b) => a.number - b.number)
            .map((r) => shortIdOf(r.number))
        }
      })
  })
]
