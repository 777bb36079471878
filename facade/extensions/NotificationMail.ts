/**
 * The notification e-mail sender beside the server (actors/notifications/Sender.ts),
 * a background worker like the others (runtime/Wakeup.ts): it sleeps until the
 * next row is due — an instant one's grace period, a digest's morning, a lapsed
 * lease — or until a write that enqueued notifications commits
 * (`notificationsQueued`), or the safety poll (rows another node wrote).
 */
import { Cause, Effect, Layer } from "effect"
import { notificationsQueued } from "../../actors/notifications/Outbox.ts"
import { nextDueAt, sendDueNotifications } from "../../actors/notifications/Sender.ts"
import { logError } from "../../runtime/Log.ts"
import { type Pass, runWorker } from "../../runtime/Wakeup.ts"
import { extension } from "../Extension.ts"

/** A failed pass (the database did not answer) is looked at again after this long. */
const RETRY_MILLIS = 5_000

// Suspended: each pass reads the clock anew.
const pass = Effect.suspend(() => sendDueNotifications(Date.now())).pipe(
  Effect.flatMap(({ more }) =>
    more ? Effect.succeed<Pass>({ more }) : Effect.map(nextDueAt, (dueAt): Pass => ({ dueAt: dueAt ?? undefined }))
  ),
  Effect.catchCause((cause) =>
    Effect.as(
      Effect.sync(() => logError("notification-mail", "send pass failed", Cause.pretty(cause))),
      { dueAt: Date.now() + RETRY_MILLIS }
    )
  )
)

export const notificationMailExtension = extension({
  name: "notification-mail",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      yield* Effect.forkIn(runWorker(notificationsQueued, pass), yield* Effect.scope)
    })
})
