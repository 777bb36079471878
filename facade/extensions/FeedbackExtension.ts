/**
 * Beside the feedback operations, on every node: the work-progress worker
 * (pm task status changes move linked requests, `actors/feedback/WorkProgress.ts`;
 * each workspace's cursor is leased by one node at a time), and the changelog sweep.
 *
 * Scheduled changelog entries publish on time even when nobody reads the
 * board: every node looks, every half minute, for boards with entries whose
 * `publishAt` has passed and asks their desks to publish them (shipping the
 * linked requests and notifying their voters). The desk serialises a board's
 * writes and publishes only entries still scheduled, so nodes looking at the
 * same time publish each entry once.
 */
import { Effect, Layer } from "effect"
import { extension } from "../Extension.ts"
import { SCHEDULER } from "../../actors/feedback/DeskCommand.ts"
import { boardsWithDueEntries } from "../../actors/feedback/DueChangelog.ts"
import { workProgressWorker } from "../../actors/feedback/WorkProgress.ts"
import { desk } from "../feedback/BoardAsk.ts"

const SWEEP_MILLIS = 30_000
const workPollMillis = () => {
  const value = Number(process.env.FEEDBACK_WORK_POLL_MS)
  return Number.isFinite(value) && value > 0 ? value : 500
}

/** Publishes what is due on every board; a board that refuses (archived) or fails is left for the next sweep. */
export const publishDueEntries = Effect.gen(function* () {
  const boards = yield* boardsWithDueEntries
  yield* Effect.forEach(
    boards,
    (boardId) =>
      desk(boardId)
        .publishDue({ by: SCHEDULER, input: {} })
        .pipe(Effect.catchCause(() => Effect.void)),
    { concurrency: 4, discard: true }
  )
})

export const feedbackExtension = extension({
  name: "feedback",
  layer: () => Layer.empty,
  attach: () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const sweep = publishDueEntries.pipe(
        Effect.catchCause((cause) => Effect.logWarning("feedback: publishing due changelog entries failed", cause))
      )
      yield* Effect.forkIn(Effect.forever(Effect.andThen(Effect.sleep(SWEEP_MILLIS), sweep)), scope)
      yield* Effect.forkIn(workProgressWorker(workPollMillis()), scope)
    })
})
