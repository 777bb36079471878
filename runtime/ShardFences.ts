/**
 * Fencing tokens: every shard has an epoch in the durable store, bumped by
 * each node that starts serving the shard (before it serves it). An actor's
 * writes carry the epoch its node acquired (`CurrentFence`, set by the
 * activation while a handler runs) and the store refuses a write whose epoch
 * is no longer the shard's current one, so an owner that was paused,
 * partitioned or slowed past its lease cannot overwrite the work of the next
 * owner. The runtime only defines the port; `persistence/SqlShardFences.ts`
 * implements it on PostgreSQL/PGlite and the `Sql` service checks the fence
 * in every transaction of a handler.
 */
import { Context, Data, type Effect } from "effect"
import type { StoreFailure } from "./ActorStore.ts"

export interface ShardFencesShape {
  /**
   * Makes `nodeId` the fenced owner of `shard`: bumps its epoch and returns
   * the new one. Waits for the writes of the previous owner that already
   * passed their fence to finish, so everything they commit is visible to
   * whoever loads the shard's actors after this returns.
   */
  readonly acquire: (shard: number, nodeId: string) => Effect.Effect<number, StoreFailure>
}

export class ShardFences extends Context.Service<ShardFences, ShardFencesShape>()("atrium/runtime/ShardFences") {}

/** The fence of the message being handled: its shard and the epoch its node holds. */
export interface Fence {
  readonly shard: number
  readonly epoch: number
  /** Set by the store when a fenced write of this message committed (the message then counts as processed). */
  committed: boolean
  /** Set by the store when it refused a write of this message (even if the handler caught the failure). */
  refused: Fenced | undefined
  /**
   * The idempotency keys of the message(s) being handled (see `RequestLog.ts`): every fenced
   * transaction records them with its writes, so "committed" and "recorded" are one fact. Absent: none.
   */
  requests?: ReadonlyArray<PendingRequest>
}

/** A keyed message being handled. */
export interface PendingRequest {
  readonly key: string
  readonly kind: string
  readonly id: string
  /** The encoded reply, when known before the transaction commits (a persisted kind's save). */
  reply: string | undefined
}

/** The fence writes of the current fiber must pass; undefined outside a handler (or without fencing). */
export const CurrentFence = Context.Reference<Fence | undefined>("atrium/runtime/CurrentFence", { defaultValue: () => undefined })

/**
 * A write was refused because the shard's epoch moved on: another node owns
 * the shard now. Raised as a defect (so no handler's error mapping can turn
 * it into a domain answer); the activation answers "not served here" when
 * nothing of the message had committed, so the sender retries on the owner.
 */
export class Fenced extends Data.TaggedError("Fenced")<{
  readonly shard: number
  readonly epoch: number
  readonly current: number | undefined
}> {
  override get message(): string {
    return `shard ${this.shard} is fenced: this node holds epoch ${this.epoch}, the store has ${this.current ?? "none"}`
  }
}
