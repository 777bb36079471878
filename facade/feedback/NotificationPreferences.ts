/**
 * feedback tag "Notification Preference Resource" (2): how the caller hears
 * about the requests they follow on a board — each notification at once
 * (instant, the default), collected into a digest, or not at all. Status
 * changes, comments, mentions and merges honour it.
 */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { NotificationMode } from "../../actors/feedback/Discussion.ts"
import { notificationModeOf } from "../../actors/feedback/RequestQueries.ts"
import { operation } from "../Operation.ts"
import { askBoard, BoardParams } from "./BoardAsk.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { examples, service } from "./FeedbackViews.ts"

const tag = "Notification Preference Resource"
const params = { boardId: examples.boardId }

const Preference = Schema.Struct({
  boardId: Id,
  mode: NotificationMode,
  updatedAt: Schema.NullOr(Timestamp).annotate({ description: "null while the default (instant) applies" })
}).annotate({ identifier: "FeedbackNotificationPreference" })

export const notificationPreferenceOperations = [
  operation({
    service,
    tag,
    operationId: "getNotificationPreference",
    method: "GET",
    path: "/v1/boards/{boardId}/notification-preference",
    summary: "How the caller is notified about the requests they follow on this board",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "The preference", schema: Preference } },
    examples: [
      {
        name: "default",
        request: { params },
        response: { status: 200, body: { boardId: examples.boardId, mode: "instant", updatedAt: null } }
      }
    ],
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        return { boardId: params.boardId, ...(yield* Effect.orDie(notificationModeOf(params.boardId, caller.userId))) }
      })
  }),
  operation({
    service,
    tag,
    operationId: "updateNotificationPreference",
    method: "PUT",
    path: "/v1/boards/{boardId}/notification-preference",
    summary: "Choose instant, digest or off for this board",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({ mode: NotificationMode }),
    responses: { 200: { description: "The preference", schema: Preference } },
    examples: [
      {
        name: "digest",
        request: { params, body: { mode: "digest" } },
        response: { status: 200, body: { boardId: examples.boardId, mode: "digest", updatedAt: examples.at } }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        return {
          boardId: params.boardId,
          ...(yield* askBoard(params.boardId, "setNotificationMode", { by: caller.userId, mode: body.mode }))
        }
      })
  })
]
