/**
 * The activations living on this node: activates an actor on its first
 * message (at most one activation per address here — cluster-wide uniqueness
 * is the transport's job), routes messages into mailboxes, passivates idle
 * activations, and drains or aborts them on request (shutdown, shard moves).
 *
 * Resident activations are bounded (`maxResident`): beyond it, the least
 * recently used idle ones passivate, so a scan that touches every task once
 * costs memory for the bound, not for every task. Only activations with no
 * message being handled or queued are evicted; their state is durable
 * (write-through, or rebuilt from SQL), so the next message reloads it.
 *
 * A read of a rebuilt kind's actor that has no activation is answered from its
 * rows without one (an actor read once costs its rows' read, no activation and
 * no passivation); one read again while that read is among the latest
 * `maxResident` is activated.
 *
 * Handlers run with the Context captured when the system's layer was built
 * (`options.context`), never the caller's: an actor must not see a caller's
 * transaction, span or log annotations, and its requirements (e.g. `Sql`) are
 * satisfied once, by the layer.
 */
import { Context, Deferred, Effect, Exit, Fiber, type Scope } from "effect"
import type { ActorKind } from "./Actor.ts"
import * as Activation from "./Activation.ts"
import { type ActorDefect, ActorOverloaded, ActorUnavailable, type UnavailableReason } from "./ActorError.ts"
import { ActorStore } from "./ActorStore.ts"
import * as HeapReclaim from "./HeapReclaim.ts"
import type { Envelope, NotServed } from "./Envelope.ts"
import * as Mailbox from "./Mailbox.ts"
import { RequestLog } from "./RequestLog.ts"
import type { Rejection } from "./Rejection.ts"
import { addressKey } from "./Sharding.ts"

export interface ActorHostOptions {
  /** Passivate an activation after this long without messages, unless its kind says otherwise. Default 60 s. */
  readonly idleMillis?: number
  /** Mailbox capacity, unless its kind says otherwise. Default 1024. */
  readonly mailbox?: number
  /** How long a graceful passivation (drain, shard release) waits for queued messages before aborting them. Default 10 s. */
  readonly drainGraceMillis?: number
  /** At most this many activations on this node; beyond it the least recently used idle ones passivate. Default 5,000; 0: no bound. */
  readonly maxResident?: number
  /** A full heap collection once this many actors passivated and the node went quiet (HeapReclaim). Default 1,000; 0: never. */
  readonly reclaimAfter?: number
}

export interface ActorHostConfig extends ActorHostOptions {
  readonly kinds: ReadonlyArray<ActorKind>
  /** Context handlers run in; must contain ActorStore and the kinds' requirements. */
  readonly context: Context.Context<ActorStore>
  /** The shard of an address (for shard-wise passivation). In-process: constant 0. */
  readonly shardOf?: (kind: string, id: string) => number
  /**
   * Checked by an activation before each message: may this node still process
   * messages of `shard`? (NATS: "the lease is still valid" — so a node that
   * was stalled past its lease does not process what it had queued.)
   */
  readonly canProcess?: (shard: number) => boolean
  /** The fencing epoch this node holds for `shard` (see `ShardFences.ts`); undefined: unfenced. */
  readonly epochOf?: (shard: number) => number | undefined
  /** A write of `shard` was refused by its fence: another node owns it now. */
  readonly onFenced?: (shard: number) => void
  readonly nodeId: string
}

export interface ActorHost {
  readonly kinds: ReadonlyMap<string, ActorKind>
  /**
   * Puts the envelope in the actor's mailbox, activating the actor if needed.
   * Never fails: a refusal (full mailbox, unknown kind, host closed) is
   * delivered through `envelope.reply`.
   */
  readonly offer: (kind: string, id: string, envelope: Envelope) => Effect.Effect<void>
  /**
   * A `readOnly` message of a resident activation answered at once, without an envelope (see
   * `Activation.readNow`); undefined when it must be offered (not such a read, not resident or not
   * loaded, host closed).
   */
  readonly readNow: (kind: string, id: string, tag: string, payload: unknown) => Effect.Effect<unknown, Rejection | ActorDefect> | undefined
  /**
   * Gracefully passivates the selected activations: no new messages reach
   * them, queued ones are processed, then they stop. Those still busy after
   * `drainGraceMillis` are aborted with `abortReason`.
   */
  readonly passivate: (
    select: (activation: Activation.Activation) => boolean,
    abortReason: NotServed | ActorUnavailable
  ) => Effect.Effect<void>
  /**
   * Stops the selected activations now: queued messages are answered with
   * `queuedReason` (never processed), the message being processed is
   * interrupted and answered with ActorUnavailable.
   */
  readonly abort: (
    select: (activation: Activation.Activation) => boolean,
    queuedReason: NotServed | ActorUnavailable
  ) => Effect.Effect<void>
  /**
   * Marks the live activation of `(kind, id)` stale, if there is one (none is
   * started): it rebuilds its state before the next message it handles, so
   * whatever is answered after this call reflects the change that caused it.
   */
  readonly invalidate: (kind: string, id: string) => void
  /** Marks every live activation stale (this node may have missed invalidations, e.g. while cut off). */
  readonly invalidateAll: () => void
  /** Refuses new messages and gracefully passivates everything. Idempotent. */
  readonly close: Effect.Effect<void>
  /** Number of live activations. */
  readonly size: () => number
  /**
   * What the host holds per actor (tests check passivation releases it all): live activations, those
   * detached but still stopping, and the activation fibers still running.
   */
  readonly census: () => { readonly resident: number; readonly leaving: number; readonly running: number }
}

interface Entry {
  readonly activation: Activation.Activation
  readonly exited: Deferred.Deferred<void>
  readonly idleMillis: number
  idleSince: number
  /** Used since the eviction scan last passed it (its "second chance"). */
  recent: boolean
}

export const make = (config: ActorHostConfig): Effect.Effect<ActorHost, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const store = Context.getOrUndefined(config.context, ActorStore)
    if (store === undefined) return yield* Effect.die(new Error("ActorHost: ActorStore missing from the context"))
    const context = config.context
    const defaultIdle = config.idleMillis ?? 60_000
    const defaultMailbox = config.mailbox ?? 1024
    const grace = config.drainGraceMillis ?? 10_000
    const maxResident = config.maxResident === 0 ? Number.POSITIVE_INFINITY : (config.maxResident ?? 5_000)
    const shardOf = config.shardOf ?? (() => 0)
    // Optional like the fences: without it, idempotency keys are only remembered in memory.
    const requestLog = Context.getOrUndefined(config.context as Context.Context<unknown>, RequestLog)
    const hooks: Activation.ShardHooks = {
      ...(requestLog ? { requestLog } : {}),
      ...(config.canProcess ? { canProcess: config.canProcess } : {}),
      ...(config.epochOf ? { epochOf: config.epochOf } : {}),
      ...(config.onFenced ? { onFenced: config.onFenced } : {})
    }
    const kinds = new Map<string, ActorKind>()
    for (const kind of config.kinds) {
      if (kinds.has(kind.kind)) return yield* Effect.die(new Error(`ActorHost: kind "${kind.kind}" registered twice`))
      kinds.set(kind.kind, kind)
    }
    const entries = new Map<string, Entry>()
    // Detached from routing but still running (passivating): an abort must still reach them.
    const leaving = new Set<Entry>()
    /** Activation fibers not yet exited (resident or leaving). */
    let running = 0
    let closed = false
    const reclaim = HeapReclaim.make(config.reclaimAfter ?? 1_000)

    const unavailable = (kind: string, id: string, message: string, reason?: UnavailableReason) =>
      Exit.fail(new ActorUnavailable({ address: { kind, id }, message, ...(reason ? { reason } : {}) }))

    const activate = (kind: ActorKind, id: string, key: string, envelope: Envelope): Effect.Effect<void> =>
      Effect.flatMap(Mailbox.make(kind.mailbox ?? defaultMailbox), (mailbox) => {
        // Creating the mailbox may have yielded: someone may have activated it meanwhile.
        if (entries.has(key) || closed) return offer(kind.kind, id, envelope)
        const activation = Activation.make(kind, id, key, shardOf(kind.kind, id), mailbox)
        const entry: Entry = {
          activation,
          exited: Deferred.makeUnsafe<void>(),
          idleMillis: kind.idleMillis ?? defaultIdle,
          idleSince: Date.now(),
          recent: false
        }
        entries.set(key, entry)
        reclaim.activated()
        Mailbox.offer(mailbox, envelope)
        if (entries.size > maxResident) evictLeastRecent()
        const body = Effect.suspend(() => {
          running++
          return Activation.run(activation, store, hooks)
        }).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              running--
              // Every way an activation ends (idle, evicted, drained, shard released, crashed) counts here, once.
              reclaim.passivated()
              Deferred.doneUnsafe(entry.exited, Exit.void)
              leaving.delete(entry)
              // A crashed/aborted fiber must not stay registered.
              if (entries.get(key) === entry) entries.delete(key)
            })
          ),
          Effect.setContext(context)
        )
        return Effect.map(Effect.forkIn(body, scope), (fiber) => {
          activation.fiber = fiber
        })
      })

    const offer = (kindName: string, id: string, envelope: Envelope): Effect.Effect<void> => {
      if (closed) {
        envelope.reply(unavailable(kindName, id, "actor system is draining", "draining"))
        return Effect.void
      }
      const key = addressKey(kindName, id)
      const entry = entries.get(key)
      if (entry !== undefined) {
        entry.recent = true
        const read = readNow(entry, envelope.tag, envelope.payload)
        if (read !== undefined) return Effect.map(Effect.exit(read), (outcome) => envelope.reply(outcome))
        const result = Mailbox.offer(entry.activation.mailbox, envelope)
        if (result === "accepted") {
          entry.activation.touched = true
          return Effect.void
        }
        if (result === "full") {
          envelope.reply(Exit.fail(new ActorOverloaded({ address: { kind: kindName, id } })))
          return Effect.void
        }
        // Closed but still registered: it is on its way out, start a fresh one.
        entries.delete(key)
        leaving.add(entry)
      }
      const kind = kinds.get(kindName)
      if (kind === undefined) {
        envelope.reply(unavailable(kindName, id, `actor kind "${kindName}" is not registered on node ${config.nodeId}`))
        return Effect.void
      }
      const cold = coldRead(kind, id, key, envelope.tag, envelope.payload)
      // Forked: an offer never waits for the database (the NATS transport offers its messages one after another).
      if (cold !== undefined)
        return Effect.asVoid(
          Effect.forkIn(
            Effect.map(Effect.exit(cold), (outcome) => envelope.reply(outcome)),
            scope
          )
        )
      return activate(kind, id, key, envelope)
    }

    /** Addresses lately answered by a cold read (the newest `readOnceLimit`): read again, they are activated. */
    const readOnce = new Set<string>()
    const readOnceLimit = Number.isFinite(maxResident) ? maxResident : 5_000

    /**
     * A read of an actor with no activation here, answered from its rows without activating it (see
     * `Activation.readCold`), unless it was read so lately that it is worth keeping in memory.
     */
    const coldRead = (kind: ActorKind, id: string, key: string, tag: string, payload: unknown) => {
      if (readOnce.delete(key)) return undefined
      if (config.canProcess !== undefined && !config.canProcess(shardOf(kind.kind, id))) return undefined
      const read = Activation.readCold(kind, id, tag, payload)
      if (read === undefined) return undefined
      // A state built for one read and dropped: to the heap, an activation and its passivation.
      reclaim.activated()
      reclaim.passivated()
      readOnce.add(key)
      if (readOnce.size > readOnceLimit) readOnce.delete(readOnce.values().next().value!)
      return Effect.setContext(read, context)
    }

    /**
     * A read of a resident activation answered at once (see `Activation.readNow`): runs in the caller's
     * fiber, with the system's context like any handler (set, not merged: no copy per read).
     */
    const readNow = (entry: Entry, tag: string, payload: unknown) => {
      const read = entry.activation.readNow?.(tag, payload)
      if (read === undefined) return undefined
      return Exit.isExit(read) ? read : Effect.setContext(read, context)
    }

    const readResident = (kindName: string, id: string, tag: string, payload: unknown) => {
      if (closed) return undefined
      const entry = entries.get(addressKey(kindName, id))
      if (entry === undefined) return undefined
      const read = readNow(entry, tag, payload)
      if (read !== undefined) entry.recent = true
      return read
    }

    /**
     * Passivates idle activations until at most `maxResident` remain: CLOCK (second chance) over the map's
     * insertion order — one used since the scan last passed it is moved to the back instead — so no
     * message pays for reordering. One pass at most: when everything is busy the bound is exceeded
     * for a while rather than a command interrupted.
     */
    const evictLeastRecent = (): void => {
      let budget = entries.size
      for (const [key, entry] of entries) {
        if (entries.size <= maxResident || budget-- === 0) return
        const activation = entry.activation
        entries.delete(key)
        // A message being handled or queued (taken only when its fiber runs) keeps it: never evicted mid-command.
        if (entry.recent || activation.busy || activation.holding || Mailbox.size(activation.mailbox) > 0) {
          entry.recent = false
          entries.set(key, entry)
        } else {
          // Its state is durable (write-through, or rebuilt from rows): passivating just frees memory.
          leaving.add(entry)
          Mailbox.close(activation.mailbox)
        }
      }
    }

    const detach = (select: (activation: Activation.Activation) => boolean): Array<Entry> => {
      const selected: Array<Entry> = []
      for (const [key, entry] of entries) {
        if (select(entry.activation)) {
          entries.delete(key)
          leaving.add(entry)
          selected.push(entry)
        }
      }
      return selected
    }

    const abortEntries = (selected: ReadonlyArray<Entry>, queuedReason: NotServed | ActorUnavailable) =>
      Effect.forEach(
        selected,
        (entry) => {
          const activation = entry.activation
          for (const envelope of Mailbox.evict(activation.mailbox)) envelope.reply(Exit.fail(queuedReason))
          const stop = activation.fiber ? Fiber.interrupt(activation.fiber) : Effect.void
          return Effect.andThen(
            stop,
            Effect.sync(() => {
              const current = activation.current
              activation.current = undefined
              // Interrupted mid-handler: the outcome is unknown, so it must not be retried elsewhere.
              current?.reply(
                Exit.fail(
                  new ActorUnavailable({
                    address: activation.address,
                    message: "activation stopped while processing",
                    reason: "interrupted"
                  })
                )
              )
            })
          )
        },
        { concurrency: "unbounded", discard: true }
      )

    const passivate = (
      select: (activation: Activation.Activation) => boolean,
      abortReason: NotServed | ActorUnavailable
    ): Effect.Effect<void> =>
      Effect.suspend(() => {
        const selected = detach(select)
        if (selected.length === 0) return Effect.void
        for (const entry of selected) Mailbox.close(entry.activation.mailbox)
        const allExited = Effect.forEach(selected, (entry) => Deferred.await(entry.exited), {
          concurrency: "unbounded",
          discard: true
        })
        return Effect.flatMap(Effect.timeoutOption(allExited, grace), (done) =>
          done._tag === "Some"
            ? Effect.void
            : Effect.andThen(
                Effect.logWarning(`passivation exceeded ${grace} ms; aborting the remaining activations`),
                abortEntries(
                  selected.filter((entry) => !Deferred.isDoneUnsafe(entry.exited)),
                  abortReason
                )
              )
        )
      })

    const abort = (
      select: (activation: Activation.Activation) => boolean,
      queuedReason: NotServed | ActorUnavailable
    ): Effect.Effect<void> =>
      Effect.suspend(() => {
        const selected = detach(select)
        for (const entry of leaving) {
          if (select(entry.activation) && !selected.includes(entry)) selected.push(entry)
        }
        return abortEntries(selected, queuedReason)
      })

    // Idle passivation: one sweeper for all activations instead of a timer per message.
    const minIdle = Math.min(defaultIdle, ...config.kinds.map((k) => k.idleMillis ?? defaultIdle))
    const sweepMillis = Math.max(10, Math.min(1000, Math.floor(minIdle / 4)))
    const sweep = Effect.sync(() => {
      const now = Date.now()
      for (const [key, entry] of entries) {
        const activation = entry.activation
        if (activation.touched || activation.busy || activation.holding) {
          activation.touched = false
          entry.idleSince = now
        } else if (now - entry.idleSince >= entry.idleMillis && Mailbox.size(activation.mailbox) === 0) {
          // State is already persisted (write-through): passivating just frees memory.
          entries.delete(key)
          leaving.add(entry)
          Mailbox.close(activation.mailbox)
        }
      }
      reclaim.check(leaving.size)
    })
    yield* Effect.forkIn(Effect.forever(Effect.andThen(Effect.sleep(sweepMillis), sweep)), scope)

    const closeDone = Deferred.makeUnsafe<void>()
    const close = Effect.suspend(() => {
      // A second caller waits for the first drain to finish.
      if (closed) return Deferred.await(closeDone)
      closed = true
      return passivate(
        () => true,
        new ActorUnavailable({ address: { kind: "*", id: "*" }, message: "actor system is draining", reason: "draining" })
      ).pipe(Effect.ensuring(Deferred.done(closeDone, Exit.void)))
    })

    const invalidate = (kind: string, id: string): void => {
      const key = addressKey(kind, id)
      const entry = entries.get(key)
      if (entry !== undefined) entry.activation.stale = true
      // One that is passivating still answers what it had queued.
      for (const leavingEntry of leaving) if (leavingEntry.activation.key === key) leavingEntry.activation.stale = true
    }

    const invalidateAll = (): void => {
      for (const entry of entries.values()) entry.activation.stale = true
      for (const entry of leaving) entry.activation.stale = true
    }

    const census = () => ({ resident: entries.size, leaving: leaving.size, running })

    return {
      kinds,
      offer,
      readNow: readResident,
      passivate,
      abort,
      invalidate,
      invalidateAll,
      close,
      size: () => entries.size,
      census
    } satisfies ActorHost
  })
