/**
 * hub tag "Notification Delivery" (beyond the seed, issue 24): how each kind
 * of notification reaches the caller by e-mail — at once, in a daily or
 * weekly digest (08:00 in their profile's time zone), or not — and the
 * one-click unsubscribe every notification e-mail links to (RFC 8058), which
 * works without a session: its signed token names the user and the kind.
 * pm's own notification settings (`/pm/v1/users/me/settings/notifications`)
 * decide which in-app notifications exist at all; these decide which of them
 * are mailed.
 */
import { Effect, Schema } from "effect"
import { DeliveryMode, kindAreas, NotificationKind, notificationKinds } from "../../../actors/notifications/Kinds.ts"
import { DeliveryPreferences, preferencesOf, setPreferences } from "../../../actors/notifications/Preferences.ts"
import { readUnsubscribeToken } from "../../../actors/notifications/Unsubscribe.ts"
import { orDieStore } from "../../../runtime/ActorStore.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { tagGroup } from "../../Operation.ts"
import { viewerOf } from "./Viewer.ts"

const { operation } = tagGroup("hub", "Notification Delivery")

const KindModes = Schema.Struct(
  Object.fromEntries(notificationKinds.map((kind) => [kind, Schema.optionalKey(DeliveryMode)])) as {
    readonly [K in NotificationKind]: Schema.optionalKey<typeof DeliveryMode>
  }
).annotate({ identifier: "NotificationDeliveryPatch", description: "Kinds to change, each to instant, daily, weekly or off" })

const TokenQuery = Schema.Struct({
  token: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1000)).annotate({ description: "The token from the e-mail's link" })
})

const Unsubscribed = Schema.Struct({
  kind: Schema.Union([NotificationKind, Schema.Literal("all")]).annotate({ description: "The kind the link stops (all: every kind)" }),
  mode: DeliveryMode,
  changed: Schema.Boolean.annotate({ description: "false for GET: it only tells what POST would do" })
}).annotate({ identifier: "NotificationUnsubscribe" })

const exampleDelivery = {
  kinds: notificationKinds.map((kind) => ({
    kind,
    mode: kind === "comment" ? "off" : kind === "mention" || kind === "assignment" || kind === "request_completed" ? "instant" : "daily",
    default: kind === "mention" || kind === "assignment" || kind === "request_completed" ? "instant" : "daily",
    areas: kindAreas(kind)
  }))
}

const tokenOwner = (token: string) =>
  Effect.gen(function* () {
    const read = yield* orDieStore(readUnsubscribeToken(token))
    if (read === undefined)
      return yield* reject("invalid", "Not an unsubscribe link of this server", [{ path: "query.token", message: "invalid token" }])
    return read
  })

export const notificationDeliveryOperations = [
  operation({
    operationId: "getMyNotificationDelivery",
    method: "GET",
    path: "/v1/users/me/notification-delivery",
    summary: "How each kind of notification reaches you by e-mail",
    auth: "both",
    scopes: ["users:read"],
    responses: { 200: { description: "Your choice for every kind", schema: DeliveryPreferences } },
    examples: [{ name: "get", response: { status: 200, body: exampleDelivery } }],
    handler: (_, context) => Effect.flatMap(viewerOf(context), (viewer) => orDieStore(preferencesOf(viewer.userId)))
  }),
  operation({
    operationId: "updateMyNotificationDelivery",
    method: "PATCH",
    path: "/v1/users/me/notification-delivery",
    summary: "Choose instant, daily, weekly or off for kinds of notification (kinds left out are unchanged)",
    description:
      "Applies to notifications written from now on, and to waiting ones when they are sent (off: not sent; a digest: moved to it).",
    auth: "both",
    scopes: ["users:write"],
    body: KindModes,
    responses: { 200: { description: "Your choice for every kind", schema: DeliveryPreferences } },
    examples: [{ name: "comments off", request: { body: { comment: "off" } }, response: { status: 200, body: exampleDelivery } }],
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const viewer = yield* viewerOf(context)
        if (Object.keys(body).length === 0)
          return yield* reject("invalid", "Give at least one kind to change", [{ path: "body", message: "empty" }])
        return yield* orDieStore(setPreferences(viewer.userId, body))
      })
  }),
  operation({
    operationId: "describeNotificationUnsubscribe",
    method: "GET",
    path: "/v1/notification-delivery/unsubscribe",
    summary: "What an e-mail's unsubscribe link stops (changes nothing; no session needed)",
    description: "Link checkers fetch links: a GET never unsubscribes (RFC 8058). POST the same URL to unsubscribe.",
    auth: "public",
    scopes: [],
    query: TokenQuery,
    responses: { 200: { description: "The kind and its current mode", schema: Unsubscribed }, 400: { description: "Not a valid token" } },
    examples: [
      {
        name: "describe",
        request: { query: { token: "dXNlcjptZW50aW9u.c2lnbmF0dXJl" } },
        response: { status: 200, body: { kind: "mention", mode: "instant", changed: false } }
      }
    ],
    handler: ({ query }) =>
      Effect.gen(function* () {
        const { userId, scope } = yield* tokenOwner(query.token)
        const current = yield* orDieStore(preferencesOf(userId))
        const mode =
          scope === "all"
            ? current.kinds.every((k) => k.mode === "off")
              ? "off"
              : "instant"
            : current.kinds.find((k) => k.kind === scope)!.mode
        return { kind: scope, mode, changed: false }
      })
  }),
  operation({
    operationId: "unsubscribeNotifications",
    method: "POST",
    path: "/v1/notification-delivery/unsubscribe",
    summary: "Stop the e-mails an unsubscribe link names (one-click, RFC 8058; no session needed)",
    description:
      "Mail clients POST `List-Unsubscribe=One-Click` (application/x-www-form-urlencoded) to the `List-Unsubscribe` URL; the body is not needed. The token names the user and the kind (or all kinds); it is signed by the server.",
    auth: "public",
    scopes: [],
    query: TokenQuery,
    responses: { 200: { description: "Unsubscribed", schema: Unsubscribed }, 400: { description: "Not a valid token" } },
    examples: [
      {
        name: "one click",
        request: { query: { token: "dXNlcjptZW50aW9u.c2lnbmF0dXJl" } },
        response: { status: 200, body: { kind: "mention", mode: "off", changed: true } }
      }
    ],
    handler: ({ query }) =>
      Effect.gen(function* () {
        const { userId, scope } = yield* tokenOwner(query.token)
        const kinds = scope === "all" ? notificationKinds : [scope]
        yield* orDieStore(setPreferences(userId, Object.fromEntries(kinds.map((kind) => [kind, "off"]))))
        return { kind: scope, mode: "off" as const, changed: true }
      })
  })
]
