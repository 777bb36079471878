/**
 * A message on its way to an activation, with the way back to its caller.
 * The activation only knows `reply` and `isAbandoned`, so one mailbox serves
 * local callers (a Deferred) and remote ones (a NATS reply) alike.
 */
import { Context, Data, Deferred, type Effect, Exit } from "effect"
import type { ActorAddress } from "./Actor.ts"
import { type ActorError, ActorTimeout } from "./ActorError.ts"
import * as DeadlineSweep from "./DeadlineSweep.ts"
import type { Rejection } from "./Rejection.ts"

/**
 * Internal: the message was NOT processed here (its shard is not, or no longer,
 * served by this node), so the sender may safely retry it on the new owner.
 * Never reaches `ask` callers.
 */
export class NotServed extends Data.TaggedError("NotServed")<{ readonly shard: number }> {}

export type Outcome = Exit.Exit<unknown, Rejection | ActorError | NotServed>

/**
 * What the reply of the message being handled must wait for, without holding
 * the actor: a handler's invalidations on their way to other nodes are added
 * here, and the activation answers once they are done while it already
 * handles its next message (so a node that does not answer delays one reply,
 * not every write to the actor). Undefined outside a handler.
 */
export const ReplyBarrier = Context.Reference<{ waits: Array<Effect.Effect<void>> } | undefined>("atrium/runtime/ReplyBarrier", {
  defaultValue: () => undefined
})

export interface Envelope {
  readonly tag: string
  readonly payload: unknown
  /** Delivers the outcome. Idempotent: the first outcome wins. */
  readonly reply: (outcome: Outcome) => void
  /** Nobody waits for the outcome any more (the caller timed out): the activation skips it. */
  readonly isAbandoned: () => boolean
  /** The idempotency key of a write that may be sent more than once (see `RequestLog.ts`). */
  readonly key?: string | undefined
  /** This may be a re-send of `key`: answer from its record, if any, instead of running the handler. */
  readonly resend?: boolean | undefined
}

/**
 * An in-process ask: the outcome completes a Deferred the caller awaits. Its
 * deadline is kept by the one deadline sweep (runtime/DeadlineSweep.ts), which
 * fails the Deferred when it passes (no timer, no sleeping fiber per request);
 * an abandoned message is then skipped by the activation if it has not started yet.
 */
export class LocalEnvelope implements Envelope, DeadlineSweep.Expiring {
  readonly deferred: Deferred.Deferred<unknown, Rejection | ActorError | NotServed> = Deferred.makeUnsafe()
  private readonly deadline: number

  constructor(
    readonly address: ActorAddress,
    readonly tag: string,
    readonly payload: unknown,
    readonly timeoutMillis: number,
    readonly key?: string,
    readonly resend?: boolean
  ) {
    this.deadline = DeadlineSweep.schedule(this, timeoutMillis)
  }

  expire(): void {
    Deferred.doneUnsafe(this.deferred, Exit.fail(new ActorTimeout({ address: this.address, millis: this.timeoutMillis })))
  }

  reply(outcome: Outcome): void {
    DeadlineSweep.cancel(this, this.deadline)
    Deferred.doneUnsafe(this.deferred, outcome)
  }

  isAbandoned(): boolean {
    return Deferred.isDoneUnsafe(this.deferred)
  }

  /** The caller's side: waits for the outcome (or the timeout). */
  get await(): Effect.Effect<unknown, Rejection | ActorError | NotServed> {
    return Deferred.await(this.deferred)
  }
}
