/**
 * An activation's bounded mailbox: an Effect Queue whose producers never wait.
 * A full mailbox refuses at once (the caller gets ActorOverloaded) instead of
 * suspending the caller or growing without limit — backpressure is pushed to
 * the edge, where a 503/retry is cheap.
 */
import { type Cause, Effect, Queue } from "effect"
import type { Envelope } from "./Envelope.ts"

export interface Mailbox {
  readonly queue: Queue.Queue<Envelope, Cause.Done>
  readonly capacity: number
}

export const make = (capacity: number): Effect.Effect<Mailbox> =>
  Effect.map(Queue.bounded<Envelope, Cause.Done>(capacity), (queue) => ({ queue, capacity }))

export type OfferResult = "accepted" | "full" | "closed"

/** Synchronous, never waits. */
export const offer = (mailbox: Mailbox, envelope: Envelope): OfferResult => {
  if (Queue.offerUnsafe(mailbox.queue, envelope)) return "accepted"
  return mailbox.queue.state._tag === "Open" ? "full" : "closed"
}

/** The next message; fails with `Done` once the mailbox is closed and empty. */
export const take = (mailbox: Mailbox): Effect.Effect<Envelope, Cause.Done> => Queue.take(mailbox.queue)

/** The next message if one is queued, without waiting. */
export const poll = (mailbox: Mailbox): Envelope | undefined => {
  const exit = Queue.takeUnsafe(mailbox.queue)
  return exit === undefined || exit._tag === "Failure" ? undefined : exit.value
}

export const size = (mailbox: Mailbox): number => Queue.sizeUnsafe(mailbox.queue)

/** No new messages; those already queued are still taken, then `take` fails with `Done`. */
export const close = (mailbox: Mailbox): void => {
  Queue.endUnsafe(mailbox.queue)
}

/** Closes the mailbox and hands back the messages that were still queued (to answer them). */
export const evict = (mailbox: Mailbox): Array<Envelope> => {
  const pending: Array<Envelope> = []
  for (;;) {
    const exit = Queue.takeUnsafe(mailbox.queue)
    if (exit === undefined || exit._tag === "Failure") break
    pending.push(exit.value)
  }
  Queue.shutdownUnsafe(mailbox.queue)
  return pending
}
