/** Web Push beside the REST operations: listens to committed pm batches and pushes their notifications. */
import { Cause, Effect, Layer } from "effect"
import { extension } from "../Extension.ts"
import { logError } from "../../runtime/Log.ts"
import { ChangeFeed } from "../../actors/pm/ChangeFeed.ts"
import { pushNotification } from "../../actors/push/PushDelivery.ts"

export const pushExtension = extension({
  name: "push",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      // What delivering a notification needs, captured once for the listener that runs outside any fiber.
      const context = yield* Effect.context<Effect.Services<ReturnType<typeof pushNotification>>>()
      const feed = yield* ChangeFeed
      const unlisten = feed.listen({
        batch: (batch) => {
          for (const notification of batch.notifications ?? []) {
            Effect.runForkWith(context)(
              pushNotification(notification).pipe(
                Effect.catchCause((cause) => Effect.sync(() => logError("push", `notification ${notification.id}`, Cause.pretty(cause))))
              )
            )
          }
        },
        // Missed batches are not replayed to push: the notifications are in the users' lists all the same.
        reconnected: () => {}
      })
      yield* Effect.addFinalizer(() => Effect.sync(unlisten))
    })
})
