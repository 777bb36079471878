/**
 * Whether a user may act at all, by user id (accounts are addressed by
 * e-mail, API keys name their creator by id): set when a platform operator
 * deactivates the account, so the user's API keys stop working at once,
 * like their sessions. Persisted; an active user's actor holds nothing.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"

const StandingState = Schema.Struct({ deactivatedAt: Schema.NullOr(Schema.String) })

export const UserStanding = Actor<typeof StandingState.Type>()({
  kind: "userStanding",
  state: StandingState,
  initial: () => ({ deactivatedAt: null }),
  messages: {
    active: { payload: Schema.Struct({}), success: Schema.Boolean, error: Schema.Never },
    set: { payload: Schema.Struct({ deactivatedAt: Schema.NullOr(Schema.String) }), success: Schema.Void, error: Schema.Never }
  },
  handlers: {
    active: (_, ctx) => Effect.succeed(ctx.state.deactivatedAt === null),
    set: ({ deactivatedAt }, ctx) => Effect.sync(() => ctx.setState({ deactivatedAt }))
  }
})
