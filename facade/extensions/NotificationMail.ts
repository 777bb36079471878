/**
 * The notification e-mail sender beside the server (actors/notifications/Sender.ts).
 * It sleeps until the next row is due — an instant one's grace period, a
 * digest's morning, a lapsed lease — and is woken early by committed writes
 * that may have written rows (pm notifications, feedback board events; from
 * other nodes too, through the ChangeFeed). No polling: with nothing due it
 * sleeps up to NOTIFY_MAX_SLEEP_SECONDS (default 600), a backstop for rows a
 * missed wake-up left.
 */
import { Cause, Effect, Layer } from "effect"
import { nextDueAt, sendDueNotifications } from "../../actors/notifications/Sender.ts"
import { ChangeFeed, type FeedBatch } from "../../actors/pm/ChangeFeed.ts"
import { logError } from "../../runtime/Log.ts"
import { extension } from "../Extension.ts"

/** A batch that may have written outbox rows: pm notifications, a board's events, or another node's bare tick. */
const mayHaveNotified = (batch: FeedBatch) =>
  batch.events === undefined || (batch.notifications?.length ?? 0) > 0 || batch.events.some((event) => event.scope === "board")

export const notificationMailExtension = extension({
  name: "notification-mail",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const feed = yield* ChangeFeed
      const maxSleepMillis = (Number(process.env.NOTIFY_MAX_SLEEP_SECONDS) || 600) * 1000
      let signalled = false
      let wake: (() => void) | undefined
      const signal = () => {
        signalled = true
        wake?.()
      }
      const unlisten = feed.listen({ batch: (batch) => mayHaveNotified(batch) && signal(), reconnected: signal })
      yield* Effect.addFinalizer(() => Effect.sync(unlisten))

      // Suspended: each pass reads the clock anew.
      const pass = Effect.suspend(() => sendDueNotifications(Date.now())).pipe(
        Effect.catchCause((cause) =>
          Effect.as(
            Effect.sync(() => logError("notification-mail", "send pass failed", Cause.pretty(cause))),
            { mails: 0, more: false }
          )
        )
      )
      const sleepUntilDue = Effect.gen(function* () {
        const next = yield* nextDueAt.pipe(Effect.orElseSucceed(() => Date.now() + 5_000))
        const delay = Math.min(maxSleepMillis, next === null ? maxSleepMillis : Math.max(0, next - Date.now()))
        if (signalled || delay === 0) return
        yield* Effect.race(
          Effect.sleep(`${delay} millis`),
          Effect.callback<void>((resume) => {
            wake = () => resume(Effect.void)
            return Effect.sync(() => {
              wake = undefined
            })
          })
        )
      })
      const loop = Effect.gen(function* () {
        signalled = false
        const { more } = yield* pass
        if (!more) yield* sleepUntilDue
      })
      yield* Effect.forkIn(Effect.forever(loop), scope)
    })
})
