/** pm tag "Notifications" (4): the caller's notifications, their counts and read status. */
import { Effect, Schema } from "effect"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { countNotifications, listNotifications, markAllRead, markNotification, Notification } from "../../actors/pm/Notifications.ts"
import { NotificationReason } from "../../actors/pm/ReferenceData.ts"
import { reject } from "../../runtime/Rejection.ts"
import { principalOf } from "../Access.ts"
import { tagGroup } from "../Operation.ts"
import { workspaceScope } from "./Viewers.ts"
import { notificationsExamples } from "./Notifications.examples.ts"

const Page = Schema.Struct({
  items: Schema.Array(Notification),
  nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
}).annotate({ identifier: "NotificationPage" })

const Counts = Schema.Struct({
  total: Schema.Number,
  unread: Schema.Number,
  byWorkspace: Schema.Array(Schema.Struct({ workspaceId: Id, total: Schema.Number, unread: Schema.Number }))
}).annotate({ identifier: "NotificationCounts" })

const Limit = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 }))
const BooleanString = Schema.Literals(["true", "false"])

const { operation } = tagGroup("pm", "Notifications", notificationsExamples)

export const notificationsOperations = [
  operation({
    operationId: "listNotifications",
    method: "GET",
    path: "/v1/notifications",
    summary: "List the caller's notifications, newest first",
    description:
      "Across the caller's workspaces (an API key: its workspace only). Filter by workspace, unread, reason; page with `cursor`.",
    auth: "both",
    scopes: ["notifications:read"],
    query: Schema.Struct({
      workspaceId: Schema.optionalKey(Id),
      unread: Schema.optionalKey(BooleanString),
      reason: Schema.optionalKey(NotificationReason),
      limit: Schema.optionalKey(Limit),
      cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200)))
    }),
    responses: { 200: { description: "A page of notifications", schema: Page } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        const workspaceIds = yield* workspaceScope(context, query.workspaceId)
        return yield* listNotifications(
          {
            userId: principal.userId,
            workspaceIds,
            ...(query.unread === "true" ? { unreadOnly: true } : {}),
            ...(query.reason !== undefined ? { reason: query.reason } : {})
          },
          query.limit ?? 50,
          query.cursor
        )
      })
  }),
  operation({
    operationId: "getNotificationCounts",
    method: "GET",
    path: "/v1/notifications/counts",
    summary: "How many notifications the caller has, and how many are unread, per workspace",
    auth: "both",
    scopes: ["notifications:read"],
    query: Schema.Struct({ workspaceId: Schema.optionalKey(Id) }),
    responses: { 200: { description: "Counts", schema: Counts } },
    handler: ({ query }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        return yield* countNotifications({ userId: principal.userId, workspaceIds: yield* workspaceScope(context, query.workspaceId) })
      })
  }),
  operation({
    operationId: "updateNotification",
    method: "PATCH",
    path: "/v1/notifications/{notificationId}",
    summary: "Mark one of the caller's notifications read or unread",
    auth: "both",
    scopes: ["notifications:write"],
    params: Schema.Struct({ notificationId: Id }),
    body: Schema.Struct({ read: Schema.Boolean }),
    responses: {
      200: { description: "The notification", schema: Notification },
      404: { description: "Not one of the caller's notifications" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        return yield* markNotification(principal.userId, yield* workspaceScope(context, undefined), params.notificationId, body.read)
      })
  }),
  operation({
    operationId: "markAllNotificationsRead",
    method: "POST",
    path: "/v1/notifications/read-all",
    summary: "Mark all of the caller's unread notifications read",
    description: "Optionally only in one workspace, and only those created up to `before` (what the user has seen).",
    auth: "both",
    scopes: ["notifications:write"],
    body: Schema.Struct({ workspaceId: Schema.optionalKey(Id), before: Schema.optionalKey(Timestamp) }),
    responses: { 200: { description: "How many were marked", schema: Schema.Struct({ updated: Schema.Number }) } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const principal = yield* principalOf(context)
        if (body.before !== undefined && Number.isNaN(Date.parse(body.before))) {
          return yield* Effect.fail(reject("invalid", "before must be a date-time", [{ path: "body.before", message: "not a date-time" }]))
        }
        return yield* markAllRead(principal.userId, yield* workspaceScope(context, body.workspaceId), body.before)
      })
  })
]
