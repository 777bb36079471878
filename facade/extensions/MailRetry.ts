/** Mail beside the server: queued mail sent as it comes, failed mail retried (actors/hub/Mail.ts holds the queue). */
import { Effect, Layer } from "effect"
import { mailQueued, retryFailedMail, sendQueuedMail } from "../../actors/hub/Mail.ts"
import { safetyPollMillis, Wakeup } from "../../runtime/Wakeup.ts"
import { extension } from "../Extension.ts"

/**
 * Sends queued mail as it is queued (woken by the queueing write; looking
 * anyway every MAIL_POLL_MS, default the safety poll, for a wake-up from another node that got lost) and retries
 * failed mail every MAIL_RETRY_SECONDS (default 60) while the server runs;
 * mail queued before a restart is sent after it.
 */
export const mailRetryExtension = extension({
  name: "hub-mail-retry",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const seconds = Number(process.env.MAIL_RETRY_SECONDS) || 60
      const pollMillis = Number(process.env.MAIL_POLL_MS) || safetyPollMillis()
      const queued = (yield* Wakeup).listen(mailQueued)
      const retry = retryFailedMail().pipe(Effect.catchCause((cause) => Effect.logWarning("hub mail: retry pass failed", cause)))
      const send = sendQueuedMail().pipe(
        Effect.catchCause((cause) => Effect.as(Effect.logWarning("hub mail: sending queued mail failed", cause), 0))
      )
      yield* Effect.forkIn(Effect.forever(Effect.andThen(Effect.sleep(`${seconds} seconds`), retry)), scope)
      // A full batch means more may be waiting: look again at once.
      yield* Effect.forkIn(Effect.forever(Effect.flatMap(send, (sent) => (sent >= 20 ? Effect.void : queued.sleep(pollMillis)))), scope)
    })
})
