/**
 * A user's personal webhooks as an actor: one `hubUserWebhooks` per user,
 * rebuilt from `hub_user_webhooks` on activation and serving the list from
 * memory. It is the single writer of that user's rows (registration,
 * changes, deletion, and the DeliveryEngine's disabling after a 410).
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { HubWebhookNotFound, TooManyHubWebhooks } from "../HubErrors.ts"
import { Id } from "../../Fields.ts"
import { addWebhook, changeWebhook, disableWebhook, MAX_WEBHOOKS_PER_USER, removeWebhook, UserWebhook, webhooksOf } from "./UserWebhooks.ts"

const Hooks = Schema.Array(UserWebhook)
type Hooks = typeof Hooks.Type

const replace = (hooks: Hooks, next: UserWebhook): Hooks => hooks.map((hook) => (hook.id === next.id ? next : hook))

const own = (hooks: Hooks, webhookId: string) =>
  hooks.some((hook) => hook.id === webhookId) ? Effect.void : Effect.fail(new HubWebhookNotFound())

export const HubUserWebhooks = Actor<Hooks>()({
  kind: "hubUserWebhooks",
  state: Hooks,
  initial: () => [],
  rebuild: (userId) => webhooksOf(userId),
  messages: {
    list: { payload: Schema.Struct({}), success: Hooks, error: Schema.Never },
    create: {
      payload: Schema.Struct({ url: Schema.String, description: Schema.String }),
      success: Schema.Struct({ ...UserWebhook.fields, secret: Schema.String }),
      error: TooManyHubWebhooks
    },
    update: {
      payload: Schema.Struct({
        webhookId: Id,
        url: Schema.optionalKey(Schema.String),
        description: Schema.optionalKey(Schema.String),
        enabled: Schema.optionalKey(Schema.Boolean)
      }),
      success: UserWebhook,
      error: HubWebhookNotFound
    },
    delete: { payload: Schema.Struct({ webhookId: Id }), success: Schema.Struct({}), error: HubWebhookNotFound },
    /** The receiver said the endpoint is gone (410): stop delivering to it. */
    disable: { payload: Schema.Struct({ webhookId: Id, reason: Schema.String }), success: Schema.Struct({}), error: Schema.Never }
  },
  handlers: {
    list: (_, ctx) => Effect.succeed(ctx.state),
    create: ({ url, description }, ctx) =>
      Effect.gen(function* () {
        if (ctx.state.length >= MAX_WEBHOOKS_PER_USER) return yield* new TooManyHubWebhooks({ max: MAX_WEBHOOKS_PER_USER })
        const created = yield* Effect.orDie(addWebhook(ctx.address.id, url, description))
        const { secret: _, ...hook } = created
        ctx.setState([...ctx.state, hook])
        return created
      }),
    update: ({ webhookId, ...patch }, ctx) =>
      Effect.gen(function* () {
        yield* own(ctx.state, webhookId)
        const changed = yield* Effect.orDie(changeWebhook(ctx.address.id, webhookId, patch))
        if (changed === undefined) return yield* new HubWebhookNotFound()
        ctx.setState(replace(ctx.state, changed))
        return changed
      }),
    delete: ({ webhookId }, ctx) =>
      Effect.gen(function* () {
        yield* own(ctx.state, webhookId)
        yield* Effect.orDie(removeWebhook(ctx.address.id, webhookId))
        ctx.setState(ctx.state.filter((hook) => hook.id !== webhookId))
        return {}
      }),
    disable: ({ webhookId, reason }, ctx) =>
      Effect.gen(function* () {
        const changed = yield* Effect.orDie(disableWebhook(ctx.address.id, webhookId, reason))
        if (changed !== undefined) ctx.setState(replace(ctx.state, changed))
        return {}
      })
  }
})
