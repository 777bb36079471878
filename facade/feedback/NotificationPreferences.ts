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
import { tagGroup } from "../Operation.ts"
import { board, BoardParams } from "./BoardAsk.ts"
import { boardAccess } from "./FeedbackAccess.ts"
import { service } from "./FeedbackViews.ts"
import { notificationPreferencesExamples } from "./NotificationPreferences.examples.ts"

const Preference = Schema.Struct({
  boardId: Id,
  mode: NotificationMode,
  updatedAt: Schema.NullOr(Timestamp).annotate({ description: "null while the default (instant) applies" })
}).annotate({ identifier: "FeedbackNotificationPreference" })

const { operation } = tagGroup(service, "Notification Preference Resource", notificationPreferencesExamples)

export const notificationPreferenceOperations = [
  operation({
    operationId: "getNotificationPreference",
    method: "GET",
    path: "/v1/boards/{boardId}/notification-preference",
    summary: "How the caller is notified about the requests they follow on this board",
    auth: "both",
    scopes: ["feedback:read"],
    params: BoardParams,
    responses: { 200: { description: "The preference", schema: Preference } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        return { boardId: params.boardId, ...(yield* Effect.orDie(notificationModeOf(params.boardId, caller.userId))) }
      })
  }),
  operation({
    operationId: "updateNotificationPreference",
    method: "PUT",
    path: "/v1/boards/{boardId}/notification-preference",
    summary: "Choose instant, digest or off for this board",
    auth: "both",
    scopes: ["feedback:write"],
    params: BoardParams,
    body: Schema.Struct({ mode: NotificationMode }),
    responses: { 200: { description: "The preference", schema: Preference } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* boardAccess(context, params.boardId)
        return {
          boardId: params.boardId,
          ...(yield* board(params.boardId).setNotificationMode({ by: caller.userId, mode: body.mode }))
        }
      })
  })
]
