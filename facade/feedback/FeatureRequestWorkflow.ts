/**
 * feedback tag "Feature Request Detail Resource", part 1 (5 of 11): the
 * workflow of a request — status changes (history kept, subscribers notified
 * as they chose), and the admin's pin, lock and owner.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { statusHistory } from "../../actors/feedback/RequestQueries.ts"
import { WORK_AUTOMATION } from "../../actors/feedback/WorkLinks.ts"
import { reject } from "../../runtime/Rejection.ts"
import { type RequestContext, tagGroup } from "../Operation.ts"
import { board, FeatureRequestParams } from "./BoardAsk.ts"
import { requestAccess, roleIn } from "./FeedbackAccess.ts"
import { FeatureRequest, featureRequestOf, names, Person, service } from "./FeedbackViews.ts"
import { featureRequestWorkflowExamples } from "./FeatureRequestWorkflow.examples.ts"

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

const adminSet = (
  context: RequestContext,
  featureRequestId: string,
  flags: { pinned?: boolean; locked?: boolean; ownerId?: string | null }
) =>
  Effect.gen(function* () {
    const { caller, boardId } = yield* requestAccess(context, featureRequestId, "admin")
    const record = yield* board(boardId).setFlags({ by: caller.userId, requestId: featureRequestId, ...flags })
    return yield* featureRequestOf(caller.view, record)
  })

const { operation } = tagGroup(service, "Feature Request Detail Resource", featureRequestWorkflowExamples)

export const featureRequestWorkflowOperations = [
  operation({
    operationId: "changeFeatureRequestStatus",
    method: "POST",
    path: "/v1/feature-requests/{featureRequestId}/status",
    summary: "Move a request to another status (board admins); subscribers are notified",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ statusId: Id, note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))) }),
    responses: { 200: { description: "Changed", schema: FeatureRequest }, 409: { description: "Already in that status" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const { caller, boardId } = yield* requestAccess(context, params.featureRequestId, "admin")
        const record = yield* board(boardId).changeStatus({
          by: caller.userId,
          requestId: params.featureRequestId,
          statusId: body.statusId,
          note: body.note ?? ""
        })
        return yield* featureRequestOf(caller.view, record)
      })
  }),
  operation({
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
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* requestAccess(context, params.featureRequestId)
        const history = yield* Effect.orDie(statusHistory(params.featureRequestId))
        const person = yield* names(history.map((h) => h.changedBy))
        // The work automation has no account: its changes are named for what it is.
        const by = (id: string) => person(id, id === WORK_AUTOMATION ? "Work automation" : undefined)!
        return { items: history.map(({ changedBy, ...rest }) => ({ ...rest, changedBy: by(changedBy) })) }
      })
  }),
  operation({
    operationId: "lockFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/lock",
    summary: "Lock or unlock a request: a locked request takes no votes or comments (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ locked: Schema.Boolean }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
    handler: ({ params, body }, context) => adminSet(context, params.featureRequestId, { locked: body.locked })
  }),
  operation({
    operationId: "pinFeatureRequest",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/pin",
    summary: "Pin or unpin a request: pinned requests come first in every order (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ pinned: Schema.Boolean }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
    handler: ({ params, body }, context) => adminSet(context, params.featureRequestId, { pinned: body.pinned })
  }),
  operation({
    operationId: "setFeatureRequestOwner",
    method: "PUT",
    path: "/v1/feature-requests/{featureRequestId}/owner",
    summary: "Make a workspace member the request's owner, or clear it (board admins)",
    auth: "both",
    scopes: ["feedback:write"],
    params: FeatureRequestParams,
    body: Schema.Struct({ ownerId: Schema.NullOr(Id) }),
    responses: { 200: { description: "Changed", schema: FeatureRequest } },
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
