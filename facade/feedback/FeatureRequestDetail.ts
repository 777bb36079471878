/**
 * feedback tag "Feature Request Detail Resource" (11): the workflow around a
 * request — status changes (history kept, subscribers notified as they chose),
 * voters (customer e-mails only for the team), subscriptions, the activity
 * log, the duplicates merged into it, and the admin's pin, lock and owner.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { isSubscribed, requestEvents, statusHistory, subscribersOf, votersOf } from "../../actors/feedback/RequestQueries.ts"
import { reject } from "../../runtime/Rejection.ts"
import { operation, type RequestContext } from "../Operation.ts"
import { askBoard, FeatureRequestParams, Limit, Offset, page } from "./BoardAsk.ts"
import { roleIn, requestAccess } from "./FeedbackAccess.ts"
import {
  examples,
  exampleFeatureRequest,
  FeatureRequest,
  FeatureRequestList,
  featureRequestOf,
  featureRequestsOf,
  names,
  Person,
  service
} from "./FeedbackViews.ts"

const tag = "Feature Request Detail Resource"
const params = { featureRequestId: examples.featureRequestId }

const StatusChange = Schema.Struct({
  id: Id,
  fromStatusId: Schema.NullOr(Id),
  toStatusId: Schema.NullOr(Id),
  fromName: Schema.NullOr(Schema.String),
  toName: Schema.NullOr(Schema.String),
  note: Schema.String,
  changedBy: Person,
  changedAt: Timestamp
}).annotate({ identifier: "FeedbackStatusChange" })

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

export const Subscription = Schema.Struct({ subscribed: Schema.Boolean }).annotate({ identifier: "FeedbackSubscription" })

export const FeedbackEvent = Schema.Struct({
  seq: Schema.Number,
  type: Schema.String,
  entityId: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown),
  actor: Person,
  at: Timestamp
}).annotate({ identifier: "FeedbackEvent" })

export const FeedbackEventList = Schema.Struct({ items: Schema.Array(FeedbackEvent) }).annotate({ identifier: "FeedbackEventList" })

/** Events as DTOs; internal notes' events only for the team. */
export const eventsView = (
  events: ReadonlyArray<{ seq: number; type: string; entityId: string; data: Record<string, unknown>; actorId: string; at: string }>,
  team: boolean
) =>
  Effect.map(names(events.map((e) => e.actorId)), (person) =>
    events
      .filter((e) => team || e.data.internal !== true)
      .map((e) => ({ seq: e.seq, type: e.type, entityId: e.entityId, data: e.data, actor: person(e.actorId)!, at: e.at }))
  )

const adminSet = (
  context: RequestContext,
  featureRequestId: string,
  flags: { pinned?: boolean; locked?: boolean; ownerId?: string | null }
) =>
  Effect.gen(function* () {
    const { caller, boardId } = yield* requestAccess(context, featureRequestId, "admin")
    const record = yield* askBoard(boardId, "setFlags", { by: caller.userId, requestId: featureRequestId, ...flags })
    return yield* featureRequestOf(caller.view, record)
  })

const subscription = (subscribed: boolean) => (featureRequestId: string, context: RequestContext) =>
  Effect.gen(function* () {
    const { caller, boardId } = yield* requestAccess(context, featureRequestId)
    return { subscribed: yield* askBoard(boardId, "subscribe", { by: caller.userId, requestId: featureRequestId, subscribed }) }
  })

const exampleEvent = {
  seq: 42,
  type: "request.status_changed",
  entityId: examples.featureRequestId,
  data: { statusId: examples.statusId, status: "Planned", type: "planned" },
  actor: { userId: examples.userId, name: "Alice" },
  at: examples.at
}

export const featureRequestDetailOperations = [
  operation({
    service,
    tag,
    operationId: "changeFeatureRequestStatus",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/status",
    summary: "Move a request to another status (board admins); subscribers are notified",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ statusId: Id, note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))) }),
    responses: { 200: { description: "Changed", schema: FeatureRequest }, 409: { description: "Already in that status" } },
    examples: [
      {
        name: "plan",
        request: { params, body: { statusId: examples.statusId, note: "Scheduled for Q1" } },
        response: {
          status: 200,
          body: { ...exampleFeatureRequest, status: { id: examples.statusId, name: "Planned", type: "planned", color: "#3b82f6" } }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId, "admin")
        const record = yield* askBoard(boardId, "changeStatus", {
          by: caller.userId,
          requestId: params.featureRequestId,
          statusId: body.statusId,
          note: body.note ?? ""
        })
        return yield* featureRequestOf(caller.view, record)
      })
  }),
  operation({
    service,
    tag,
    operationId: "getFeatureRequestStatusHistory",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/status-history",
    summary: "Every status the request went through, oldest first",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: {
      200: {
        description: "History",
        schema: Schema.Struct({ items: Schema.Array(StatusChange) }).annotate({ identifier: "FeedbackStatusHistory" })
      }
    },
    examples: [
      {
        name: "history",
        request: { params },
        response: {
          status: 200,
          body: {
            items: [
              {
                id: "fc0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
                fromStatusId: null,
                toStatusId: examples.statusId,
                fromName: null,
                toName: "Open",
                note: "created",
                changedBy: { userId: examples.userId, name: "Alice" },
                changedAt: examples.at
              }
            ]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* requestAccess(context, params.featureRequestId)
        const history = yield* Effect.orDie(statusHistory(params.featureRequestId))
        const person = yield* names(history.map((h) => h.changedBy))
        return { items: history.map(({ changedBy, ...rest }) => ({ ...rest, changedBy: person(changedBy)! })) }
      })
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "voters",
        request: { params },
        response: {
          status: 200,
          body: {
            items: [
              {
                kind: "user",
                user: { userId: examples.memberId, name: "Bob" },
                customer: null,
                castBy: null,
                mergedFrom: null,
                votedAt: examples.at
              }
            ],
            total: 1,
            nextOffset: null
          }
        }
      }
    ],
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
    service,
    tag,
    operationId: "subscribeToFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/subscription",
    summary: "Follow a request: be notified of status changes and comments (as the board's notification preference says)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Following", schema: Subscription } },
    examples: [{ name: "follow", request: { params }, response: { status: 200, body: { subscribed: true } } }],
    handler: ({ params }, context) => subscription(true)(params.featureRequestId, context)
  }),
  operation({
    service,
    tag,
    operationId: "unsubscribeFromFeatureRequest",
    method: "DELETE",
    path: "/v1/feature-requests/{featureRequestId}/subscription",
    summary: "Stop following a request",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Not following", schema: Subscription } },
    examples: [{ name: "unfollow", request: { params }, response: { status: 200, body: { subscribed: false } } }],
    handler: ({ params }, context) => subscription(false)(params.featureRequestId, context)
  }),
  operation({
    service,
    tag,
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
    examples: [
      {
        name: "list",
        request: { params },
        response: {
          status: 200,
          body: { items: [{ user: { userId: examples.userId, name: "Alice" }, since: examples.at }], subscribed: true }
        }
      }
    ],
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
    service,
    tag,
    operationId: "getFeatureRequestActivity",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/activity",
    summary: "What happened to the request, newest first: edits, status changes, votes, merges, comments",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    query: Schema.Struct({ limit: Schema.optionalKey(Limit) }),
    responses: { 200: { description: "Activity", schema: FeedbackEventList } },
    examples: [{ name: "activity", request: { params }, response: { status: 200, body: { items: [exampleEvent] } } }],
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const { caller } = yield* requestAccess(context, params.featureRequestId)
        return { items: yield* eventsView(yield* Effect.orDie(requestEvents(params.featureRequestId, query.limit ?? 50)), caller.team) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "listMergedFeatureRequests",
    method: "GET",
    path: "/v1/feature-requests/{featureRequestId}/merged",
    summary: "The duplicates merged into this request",
    auth: "both",
    scopes: ["feedback:read"],
    params: FeatureRequestParams,
    responses: { 200: { description: "Duplicates", schema: FeatureRequestList } },
    examples: [
      {
        name: "merged",
        request: { params },
        response: {
          status: 200,
          body: {
            items: [
              {
                ...exampleFeatureRequest,
                id: examples.duplicateId,
                shortId: "FR-13",
                mergedInto: examples.featureRequestId,
                mergedAt: examples.at
              }
            ]
          }
        }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId)
        // Duplicates may live on other boards the caller cannot see; list the ones of this board.
        const found = yield* askBoard(boardId, "requests", {
          viewerId: caller.userId,
          team: caller.team,
          includeMerged: true,
          sort: "old",
          offset: 0,
          limit: 10_000
        })
        return {
          items: yield* featureRequestsOf(
            caller.view,
            found.items.filter((r) => r.mergedInto === params.featureRequestId)
          )
        }
      })
  }),
  operation({
    service,
    tag,
    operationId: "lockFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/lock",
    summary: "Lock or unlock a request: a locked request takes no votes or comments (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ locked: Schema.Boolean }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
    examples: [
      {
        name: "lock",
        request: { params, body: { locked: true } },
        response: { status: 200, body: { ...exampleFeatureRequest, locked: true } }
      }
    ],
    handler: ({ params, body }, context) => adminSet(context, params.featureRequestId, { locked: body.locked })
  }),
  operation({
    service,
    tag,
    operationId: "pinFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/pin",
    summary: "Pin or unpin a request: pinned requests come first in every order (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ pinned: Schema.Boolean }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
    examples: [
      {
        name: "pin",
        request: { params, body: { pinned: true } },
        response: { status: 200, body: { ...exampleFeatureRequest, pinned: true } }
      }
    ],
    handler: ({ params, body }, context) => adminSet(context, params.featureRequestId, { pinned: body.pinned })
  }),
  operation({
    service,
    tag,
    operationId: "setFeatureRequestOwner",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/owner",
    summary: "Make a workspace member the request's owner, or clear it (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ ownerId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
    examples: [
      {
        name: "own",
        request: { params, body: { ownerId: examples.memberId } },
        response: { status: 200, body: { ...exampleFeatureRequest, owner: { userId: examples.memberId, name: "Bob" } } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        if (body.ownerId !== null) {
          const { caller } = yield* requestAccess(context, params.featureRequestId, "admin")
          if ((yield* roleIn(body.ownerId, caller.view.board.workspaceId)) === null) {
            return yield* reject("invalid", "The owner must be a member of the workspace", [
              { path: "body.ownerId", message: "not a member" }
            ])
          }
        }
        return yield* adminSet(context, params.featureRequestId, { ownerId: body.ownerId })
      })
  })
]
