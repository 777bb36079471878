/**
 * A user's Web Push subscriptions (one persisted actor per user): the push
 * service endpoint and the browser's keys, one entry per endpoint. A
 * subscription the push service reports gone (404/410) is removed.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import { Timestamp, now } from "../Fields.ts"

export const PushKeys = Schema.Struct({
  p256dh: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{80,100}={0,2}$/, { expected: "the browser's P-256 public key, base64url" })),
  auth: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{16,24}={0,2}$/, { expected: "the browser's auth secret, base64url" }))
})

export const PushSubscription = Schema.Struct({
  id: Schema.String,
  endpoint: Schema.String,
  keys: PushKeys,
  userAgent: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  lastDeliveredAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "PushSubscription" })
export type PushSubscription = typeof PushSubscription.Type

const MAX_SUBSCRIPTIONS = 20

const State = Schema.Struct({ subscriptions: Schema.Array(PushSubscription) })
type State = typeof State.Type

/** A user holds at most `max` subscriptions. */
export class TooManyPushSubscriptions extends Schema.TaggedError<TooManyPushSubscriptions>()("TooManyPushSubscriptions", {
  max: Schema.Number
}) {
  override get message() {
    return `At most ${this.max} push subscriptions per user; remove one first`
  }
}

export class PushSubscriptionNotFound extends Schema.TaggedError<PushSubscriptionNotFound>()("PushSubscriptionNotFound", {}) {
  override get message() {
    return "No such push subscription"
  }
}

export type PushError = TooManyPushSubscriptions | PushSubscriptionNotFound

export const PushSubscriptions = Actor<State>()({
  kind: "pushSubscriptions",
  state: State,
  initial: () => ({ subscriptions: [] }),
  messages: {
    list: { payload: Schema.Struct({}), success: Schema.Array(PushSubscription), error: Schema.Never },
    /** Adds the endpoint, or refreshes its keys when it is known (a browser re-subscribing). */
    add: {
      payload: Schema.Struct({ endpoint: Schema.String, keys: PushKeys, userAgent: Schema.NullOr(Schema.String) }),
      success: PushSubscription,
      error: TooManyPushSubscriptions
    },
    remove: { payload: Schema.Struct({ id: Schema.String }), success: Schema.Void, error: PushSubscriptionNotFound },
    /** The push service said the endpoint is gone. */
    gone: { payload: Schema.Struct({ endpoint: Schema.String }), success: Schema.Void, error: Schema.Never },
    delivered: { payload: Schema.Struct({ endpoint: Schema.String }), success: Schema.Void, error: Schema.Never }
  },
  handlers: {
    list: (_, ctx) => Effect.succeed(ctx.state.subscriptions),
    add: ({ endpoint, keys, userAgent }, ctx) =>
      Effect.gen(function* () {
        const existing = ctx.state.subscriptions.find((s) => s.endpoint === endpoint)
        if (existing === undefined && ctx.state.subscriptions.length >= MAX_SUBSCRIPTIONS)
          return yield* new TooManyPushSubscriptions({ max: MAX_SUBSCRIPTIONS })
        const subscription: PushSubscription = existing
          ? { ...existing, keys, userAgent }
          : { id: randomUUID(), endpoint, keys, userAgent, createdAt: now(), lastDeliveredAt: null }
        ctx.setState({ subscriptions: [...ctx.state.subscriptions.filter((s) => s.endpoint !== endpoint), subscription] })
        return subscription
      }),
    remove: ({ id }, ctx) =>
      Effect.gen(function* () {
        if (!ctx.state.subscriptions.some((s) => s.id === id)) return yield* new PushSubscriptionNotFound()
        ctx.setState({ subscriptions: ctx.state.subscriptions.filter((s) => s.id !== id) })
      }),
    gone: ({ endpoint }, ctx) =>
      Effect.sync(() => ctx.setState({ subscriptions: ctx.state.subscriptions.filter((s) => s.endpoint !== endpoint) })),
    delivered: ({ endpoint }, ctx) =>
      Effect.sync(() =>
        ctx.setState({
          subscriptions: ctx.state.subscriptions.map((s) => (s.endpoint === endpoint ? { ...s, lastDeliveredAt: now() } : s))
        })
      )
  }
})
