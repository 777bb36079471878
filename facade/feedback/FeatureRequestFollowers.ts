/**
 * feedback tag "Feature Request Detail Resource", part 2 (6 of 11): the people
 * and history around a request — voters (customer e-mails for the team only),
 * subscriptions and subscribers, the activity log, and the duplicates merged
 * into it.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { isSubscribed, requestEvents, subscribersOf, votersOf } from "../../actors/feedback/RequestQueries.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { board, FeatureRequestParams, Limit, Offset, page } from "./BoardAsk.ts"
import { requestAccess } from "./FeedbackAccess.ts"
import {
  eventsView,
  FeatureRequestList,
  FeedbackEventList,
  featureRequestsOf,
  names,
  Person,
  Subscription,
  service
} from "./FeedbackViews.ts"
import { featureRequestFollowersExamples } from "./FeatureRequestFollowers.examples.ts"

const Voter = Schema.Struct({
  kind: Schema.Literals(["user", "customer", "anonymous"]),
  user: Schema.NullOr(Person),
  customer: Schema.NullOr(Schema.Struct({ email: Schema.NullOr(Schema.String), name: Schema.NullOr(Schema.String) })).annotate({
    description: "A customer voted for by the team; the e-mail is shown to the team only"
  }),
  castBy: Schema.NullOr(Person),
  mergedFrom: Schema.NullOr(Id).annotate({ description: "Moved here by merging that duplicate" }),
  votedAt: Timestamp
}).annotate({ identifier: "FeedbackVoter" })

const subscription = (subscribed: boolean) => (featureRequestId: string, context: RequestContext) =>
  Effect.gen(function* () {
    const { caller, boardId } = yield* requestAccess(context, featureRequestId)
    return { subscribed: yield* board(boardId).subscribe({ by: caller.userId, requestId: featureRequestId, subscribed }) }
  })

const { operation } = tagGroup(service, "Feature Request Detail Resource", featureRequestFollowersExamples)

export const featureRequestFollowerOperations = [
  operation({
    operationId: "listFeatureRequestVoters",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/voters",
    summary: "Who voted, oldest vote first (customer e-mails for the team only)",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    query: Schema.Struct({ offset: Schema.optionalKey(Offset), limit: Schema.optionalKey(Limit) }),
    responses: {
      200: {
        description: "Voters",
        schema: Schema.Struct({ items: Schema.Array(Voter), total: Schema.Number, nextOffset: Schema.NullOr(Schema.Number) }).annotate({
          identifier: "FeedbackVoterPage"
        })
      }
    },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId)
        const offset = query.offset ?? 0
        const result = yield* Effect.orDie(votersOf(params.featureRequestId, offset, query.limit ?? 50))
        const person = yield* names(result.items.flatMap((v) => [v.userId, v.castBy]))
        const items = result.items.map((v) => ({
          kind: v.kind,
          user: v.kind === "anonymous" ? null : person(v.userId),
          customer: v.kind === "customer" ? { email: caller.team ? v.customerEmail : null, name: v.customerName } : null,
          castBy: person(v.castBy),
          mergedFrom: v.mergedFrom,
          votedAt: v.createdAt
        }))
        return page({ items, total: result.total }, offset)
      })
  }),
  operation({
    operationId: "subscribeToFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/subscription",
    summary: "Follow a request: be notified of status changes and comments (as the board's notification preference says)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Following", schema: Subscription } },
    handler: ({ params }, context) => subscription(true)(params.featureRequestId, context)
  }),
  operation({
    operationId: "unsubscribeFromFeatureRequest",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}/subscription",
    summary: "Stop following a request",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Not following", schema: Subscription } },
    handler: ({ params }, context) => subscription(false)(params.featureRequestId, context)
  }),
  operation({
    operationId: "listFeatureRequestSubscribers",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/subscribers",
    summary: "Who follows the request (the team only), and whether the caller does",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: {
      200: {
        description: "Followers",
        schema: Schema.Struct({
          items: Schema.Array(Schema.Struct({ user: Person, since: Timestamp })),
          subscribed: Schema.Boolean
        }).annotate({ identifier: "FeedbackSubscriberList" })
      }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId, "team")
        const subscribers = yield* Effect.orDie(subscribersOf(params.featureRequestId))
        const person = yield* names(subscribers.map((s) => s.userId))
        return {
          items: subscribers.map((s) => ({ user: person(s.userId)!, since: s.since })),
          subscribed: yield* Effect.orDie(isSubscribed(params.featureRequestId, caller.userId))
        }
      })
  }),
  operation({
    operationId: "getFeatureRequestActivity",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/activity",
    summary: "What happened to the request, newest first: edits, status changes, votes, merges, comments",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Activity", schema: FeedbackEventList } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId)
        return { items: yield* eventsView(yield* Effect.orDie(requestEvents(params.featureRequestId, query.limit ?? 50)), caller.team) }
      })
  }),
  operation({
    operationId: "listMergedFeatureRequests",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/merged",
    summary: "The duplicates merged into this request",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Duplicates", schema: FeatureRequestList } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId)
        // Duplicates may live on other boards the caller cannot see; list the ones of this board.
        const found = yield* board(boardId).requests({
          viewerId: caller.userId,
          team: caller.team,
          includeMerged: true,
          mergedInto: params.featureRequestId,
          sort: "old",
          offset: 0,
          limit: 10_000
        })
        return {
          items: yield* featureRequestsOf(caller.view, found.items)
        }
      })
  })
]
