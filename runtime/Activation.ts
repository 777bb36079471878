/**
 * One activation: the in-memory incarnation of one actor on this node. A
 * single fiber drains the actor's mailbox, so its messages are handled one at
 * a time, in arrival order, and its state needs no lock.
 *
 * - State is loaded lazily (before the first message) through the ActorStore
 *   and decoded with the kind's `state` codec; `initial(id)` if never saved.
 * - Write-through: a handler's `setState` is encoded and saved BEFORE the reply
 *   is delivered, so every acknowledged update survives a crash. Messages that
 *   don't call `setState` don't write.
 * - A state change takes effect only if the handler succeeds: a Rejection or
 *   a defect leaves the persisted (and in-memory) state as it was.
 * - A defect (die, throw, unexpected error) fails only its own request with
 *   ActorDefect, is logged with the actor's address, and "restarts" the actor:
 *   the in-memory state is discarded and reloaded before the next message, so
 *   a handler that corrupted the state in place cannot leak it. A database
 *   that did not answer (a transient store failure) restarts it the same way
 *   but answers ActorUnavailable ("storage"), a 503 rather than a bug.
 * - Fencing: each message runs with its shard's `CurrentFence` (the epoch
 *   this node acquired), so the store refuses its writes once another node
 *   owns the shard. A refused message whose writes all rolled back answers
 *   NotServed (the sender retries it on the new owner); the state is reloaded.
 *   Persisted kinds save conditionally on the version they loaded.
 * - Group commit (a kind's `group`): a grouped message takes the grouped ones
 *   queued behind it, and they are handled as one message whose outcome
 *   answers each (see `MessageGroup` in Actor.ts).
 * - Idempotency keys (see `RequestLog.ts`): a keyed message's key is recorded
 *   by every fenced transaction of it (`Fence.requests`) and its reply once
 *   known (in the save's transaction for a persisted kind, right after the
 *   handler for a rebuilt one). A message marked as a possible re-send is
 *   answered from this activation's recent replies or from the record, and
 *   runs only if no write of its key ever committed; one whose writes
 *   committed without a recorded reply is refused ("conflict"), never run twice.
 */
import { Cause, Context, Deferred, Effect, Exit, type Fiber, Option, Schema } from "effect"
import type { ActorAddress, ActorContext, ActorKind, MessageSchemas } from "./Actor.ts"
import { ActorDefect, type ActorError, ActorUnavailable } from "./ActorError.ts"
import { type ActorStoreShape, isTransient, StaleState } from "./ActorStore.ts"
import { type Envelope, NotServed, type Outcome, ReplyBarrier } from "./Envelope.ts"
import * as Mailbox from "./Mailbox.ts"
import * as MessageCodec from "./MessageCodec.ts"
import { reject, Rejection } from "./Rejection.ts"
import type { RequestLogShape } from "./RequestLog.ts"
import { CurrentFence, type Fence, Fenced, type PendingRequest } from "./ShardFences.ts"

export interface Activation {
  readonly address: ActorAddress
  readonly key: string
  readonly shard: number
  readonly kind: ActorKind
  readonly mailbox: Mailbox.Mailbox
  /** Set by every offer and message; the idle sweeper clears it (cheaper than a clock read per message). */
  touched: boolean
  /** True while a message is being handled. */
  busy: boolean
  /** True while messages taken from the mailbox wait their turn (a group and those polled with it): not idle. */
  holding: boolean
  /** The message being handled, to answer it if the activation is aborted mid-way. */
  current: Envelope | undefined
  /** The activation's fiber (set right after it is forked). */
  fiber: Fiber.Fiber<void> | undefined
  /** Set by `ActorHost.invalidate`: rebuild the state before the next message. */
  stale: boolean
  /**
   * The kind's `readOnly` messages, answered from the committed state without queueing
   * (set by `run`): the outcome (a declared refusal, or a defect as `ActorDefect`), as an
   * Exit when the read was synchronous, else as an Effect to run with the system's
   * context; undefined when it must queue (not a read, state not loaded or stale).
   */
  readNow: ((tag: string, payload: unknown) => Effect.Effect<unknown, Rejection | ActorDefect> | undefined) | undefined
}

export const make = (kind: ActorKind, id: string, key: string, shard: number, mailbox: Mailbox.Mailbox): Activation => ({
  address: { kind: kind.kind, id },
  key,
  shard,
  kind,
  mailbox,
  touched: true,
  busy: false,
  holding: false,
  current: undefined,
  fiber: undefined,
  stale: false,
  readNow: undefined
})

interface StateCodec {
  readonly decode: (encoded: unknown) => Effect.Effect<unknown, Schema.SchemaError, never>
  readonly encode: (state: unknown) => Effect.Effect<unknown, Schema.SchemaError, never>
}

// Parsers are built once per kind, not per message.
const stateCodecs = new WeakMap<ActorKind, StateCodec>()
const stateCodec = (kind: ActorKind): StateCodec => {
  let codec = stateCodecs.get(kind)
  if (codec === undefined) {
    const schema = kind.state as Schema.Codec<unknown, unknown, never, never>
    codec = { decode: Schema.decodeUnknownEffect(schema), encode: Schema.encodeUnknownEffect(schema) }
    stateCodecs.set(kind, codec)
  }
  return codec
}

/** What every activation of a kind shares: which of its messages group and which are reads. */
interface KindTags {
  readonly grouped: ReadonlySet<string>
  readonly reads: ReadonlySet<string>
}
const kindTags = new WeakMap<ActorKind, KindTags>()
const tagsOf = (kind: ActorKind): KindTags => {
  let tags = kindTags.get(kind)
  if (tags === undefined) {
    tags = { grouped: new Set(kind.group?.tags ?? []), reads: new Set(kind.readOnly ?? []) }
    kindTags.set(kind, tags)
  }
  return tags
}

const messageOf = (u: unknown): string =>
  u instanceof Error
    ? u.message
    : typeof u === "string"
      ? u
      : (() => {
          try {
            return JSON.stringify(u) ?? String(u)
          } catch {
            return String(u)
          }
        })()

const annotate = (address: ActorAddress) =>
  Effect.annotateLogs({ actor: `${address.kind}/${address.id}`, actorKind: address.kind, actorId: address.id })

/** Whether `value` is one of the refusals message `tag` of `kind` declares. */
const isDomainErrorOf = (kind: ActorKind, tag: string, value: unknown): boolean => {
  const schemas = (kind.messages as Record<string, MessageSchemas>)[tag]
  return schemas?.error !== undefined && Schema.is(schemas.error)(value)
}

/** A read's outcome: its success, a declared refusal, or anything else as a defect. */
const readOutcome = (
  kind: ActorKind,
  address: ActorAddress,
  tag: string,
  answer: () => Effect.Effect<unknown, unknown>
): Effect.Effect<unknown, Rejection | ActorDefect> => {
  const asOutcome = (cause: Cause.Cause<unknown>): Exit.Exit<never, Rejection | ActorDefect> => {
    const error = Cause.findErrorOption(cause)
    return Option.isSome(error) && (error.value instanceof Rejection || isDomainErrorOf(kind, tag, error.value))
      ? Exit.fail(error.value as Rejection)
      : Exit.fail(new ActorDefect({ address, message: messageOf(Cause.squash(cause)) }))
  }
  let effect: Effect.Effect<unknown, unknown>
  try {
    effect = answer()
  } catch (defect) {
    return Exit.fail(new ActorDefect({ address, message: messageOf(defect) }))
  }
  // Most reads are synchronous (`Effect.succeed` is an Exit): answered as they are, with no fiber work.
  if (Exit.isExit(effect)) return Exit.isSuccess(effect) ? Exit.succeed(effect.value) : asOutcome(effect.cause)
  return Effect.catchCause(effect, (cause) => asOutcome(cause))
}

const readContext = (address: ActorAddress, state: unknown): ActorContext<unknown> => ({
  address,
  state,
  setState: () => {},
  reload: () => {}
})

/**
 * A `readOnly` message of a rebuilt kind's actor that is not active, answered from the state rebuilt from its
 * rows without activating it: an actor read once (a scan, a link followed) costs its rows' read and nothing
 * after. No write of it is in flight (it has no activation here), so the rows are the last committed state.
 * Undefined when `tag` is not such a read.
 */
export const readCold = (
  kind: ActorKind,
  id: string,
  tag: string,
  payload: unknown
): Effect.Effect<unknown, Rejection | ActorError> | undefined => {
  const rebuild = kind.rebuild as ((id: string) => Effect.Effect<unknown, unknown>) | undefined
  if (rebuild === undefined || !tagsOf(kind).reads.has(tag)) return undefined
  const address = { kind: kind.kind, id }
  const handler = (kind.handlers as Record<string, (payload: unknown, ctx: ActorContext<unknown>) => Effect.Effect<unknown, unknown>>)[tag]!
  return Effect.flatMap(
    Effect.catchCause(
      Effect.suspend(() => rebuild(id)),
      (cause) =>
        Effect.andThen(
          Effect.logError("actor state could not be loaded", cause).pipe(annotate(address)),
          Effect.fail(
            new ActorUnavailable({ address, message: `state could not be loaded: ${messageOf(Cause.squash(cause))}`, reason: "storage" })
          )
        )
    ),
    (state) => readOutcome(kind, address, tag, () => handler(payload, readContext(address, state)))
  )
}

export interface ShardHooks {
  /** Checked before each message (e.g. "this node still holds the shard's lease"); false → NotServed, not processed. */
  readonly canProcess?: (shard: number) => boolean
  /** The epoch this node holds for `shard` (its writes are fenced with it); undefined: unfenced. */
  readonly epochOf?: (shard: number) => number | undefined
  /** A write of `shard` was refused by its fence: another node owns it now. */
  readonly onFenced?: (shard: number) => void
  /** Where idempotency keys are recorded (they are only kept in memory without it). */
  readonly requestLog?: RequestLogShape
}

/** Replies to keyed messages kept by an activation, for re-sends that reach it (the newest this many). */
const recentReplies = 256

/** The fence failure in a cause (raised as a defect by the store), if any. */
const fencedIn = (cause: Cause.Cause<unknown>): Fenced | undefined => {
  for (const reason of cause.reasons) {
    const value = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    if (value instanceof Fenced) return value
  }
  return undefined
}

/**
 * The activation's fiber body. Runs until the mailbox is closed and empty.
 * Handlers' requirements must be in the fiber's context (the host provides
 * the context captured when the system was built).
 */
export const run = (activation: Activation, store: ActorStoreShape, hooks: ShardHooks = {}): Effect.Effect<void> => {
  const { address, kind, mailbox } = activation
  const { canProcess, epochOf, onFenced, requestLog } = hooks
  const codec = stateCodec(kind)
  const handlers = kind.handlers as Record<string, (payload: unknown, ctx: ActorContext<unknown>) => Effect.Effect<unknown, unknown, never>>
  let state: unknown
  let loaded = false
  /** The stored version the state was loaded at (0: never saved); saves are conditional on it. */
  let version = 0
  // An activation lives within one tenure of its shard (it is stopped when the lease goes), so one epoch fences all its writes.
  const epoch = epochOf?.(activation.shard)
  const fence: Fence | undefined =
    epoch === undefined ? undefined : { shard: activation.shard, epoch, committed: false, refused: undefined }
  /** What the reply of the message being handled waits for (see `ReplyBarrier`). */
  const barrier: { waits: Array<Effect.Effect<void>> } = { waits: [] }

  // --- idempotency keys --------------------------------------------------------------------------

  // Made on first use, like `recent`: most activations never group nor see a keyed message, and there are many of them.
  /** Grouped messages handled as one envelope (see `groupEnvelope`). */
  let groupMembers: WeakMap<Envelope, ReadonlyArray<Envelope>> | undefined
  /** The keyed messages of the one being handled, as its fence records them. */
  let pending: Array<PendingRequest & { readonly envelope: Envelope }> = []
  /** Replies of this activation's keyed messages; `delivered` completes once the original's reply has gone out. */
  let recent: Map<string, { readonly outcome: Outcome; readonly delivered: Deferred.Deferred<void> | undefined }> | undefined

  /** Each message's own outcome: a group's success lists one per member. */
  const perMessage = (envelope: Envelope, outcome: Outcome): ReadonlyArray<readonly [Envelope, Outcome]> => {
    const members = groupMembers?.get(envelope)
    if (members === undefined) return [[envelope, outcome]]
    const outcomes = outcome._tag === "Success" ? (outcome.value as ReadonlyArray<Outcome>) : undefined
    return members.map((member, i) => [member, outcomes === undefined ? outcome : outcomes[i]!] as const)
  }

  /** A reply worth repeating to a re-send: a success or a domain refusal (not a runtime failure, which says nothing ran). */
  const repeatable = (tag: string, outcome: Outcome): boolean => {
    if (outcome._tag === "Success") return true
    const error = Option.getOrUndefined(Cause.findErrorOption(outcome.cause))
    return error instanceof Rejection || isDomainErrorOf(kind, tag, error)
  }

  const encodeFor = (envelope: Envelope, outcome: Outcome): string =>
    MessageCodec.encodeOutcome(address, MessageCodec.codecFor(kind, envelope.tag), outcome)

  /** A persisted kind's reply goes into the save's transaction: set on the fence before saving. */
  const recordInSave = (envelope: Envelope, outcome: Outcome): void => {
    if (pending.length === 0) return
    for (const [member, own] of perMessage(envelope, outcome)) {
      const request = pending.find((p) => p.envelope === member)
      if (request !== undefined && repeatable(member.tag, own)) request.reply = encodeFor(member, own)
    }
  }

  /**
   * Called with the outcome of the message just handled: keeps the replies of its keyed messages for
   * re-sends, and records those whose writes committed without their reply (a rebuilt kind's handler
   * commits before it returns) — in the background: a re-send reaching this activation is answered from
   * memory, and one reaching the next owner finds the record unless this node died in between.
   */
  const remember = (envelope: Envelope, outcome: Outcome, delivered: Deferred.Deferred<void> | undefined): void => {
    if (pending.length === 0) return
    const committed = fence?.committed === true
    for (const [member, own] of perMessage(envelope, outcome)) {
      const request = pending.find((p) => p.envelope === member)
      // A failure is kept too once a write of the message committed: a re-send gets that answer, not a bare "conflict".
      if (request === undefined || !(committed || repeatable(member.tag, own))) continue
      recent ??= new Map()
      recent.delete(request.key)
      recent.set(request.key, { outcome: own, delivered })
      if (recent.size > recentReplies) recent.delete(recent.keys().next().value!)
      if (committed && request.reply === undefined && requestLog !== undefined) {
        Effect.runFork(
          requestLog
            .complete(request.key, encodeFor(member, own))
            .pipe(Effect.catchCause((cause) => Effect.logWarning("the reply of a keyed message could not be recorded", cause)))
        )
      }
    }
    pending = []
  }

  /**
   * A possible re-send: answered from this activation's replies or from the record (undefined), or
   * left to run (the Effect that runs it) when no write of its key ever committed.
   */
  const deduplicate = (envelope: Envelope, run: Effect.Effect<void>): Effect.Effect<void> => {
    const key = envelope.key!
    const known = recent?.get(key)
    if (known !== undefined) {
      const answer = Effect.sync(() => envelope.reply(known.outcome))
      return known.delivered === undefined || Deferred.isDoneUnsafe(known.delivered)
        ? answer
        : Effect.asVoid(Effect.forkDetach(Effect.andThen(Deferred.await(known.delivered), answer)))
    }
    if (requestLog === undefined) return run
    return Effect.matchEffect(requestLog.lookup(key), {
      onFailure: (failure) =>
        Effect.sync(() =>
          envelope.reply(
            Exit.fail(new ActorUnavailable({ address, message: `the database did not answer: ${failure.message}`, reason: "storage" }))
          )
        ),
      onSuccess: (record) => {
        if (record === undefined) return run
        if (record.reply === undefined) {
          return Effect.sync(() =>
            envelope.reply(
              Exit.fail(
                reject(
                  "conflict",
                  "this request was already applied, but its reply was not recorded: read the current state instead of sending it again"
                )
              )
            )
          )
        }
        const codec = MessageCodec.codecFor(kind, envelope.tag)
        if (codec === undefined) return run
        return Effect.flatMap(Effect.exit(MessageCodec.decodeReply(address, codec, activation.shard, record.reply)), (outcome) =>
          Effect.sync(() => envelope.reply(outcome))
        )
      }
    })
  }

  const rebuild = kind.rebuild as ((id: string) => Effect.Effect<unknown, unknown>) | undefined
  const fromStore: Effect.Effect<void, unknown> = Effect.flatMap(
    Effect.mapError(store.load(address), (e) => e as unknown),
    (encoded) =>
      encoded === undefined
        ? Effect.sync(() => {
            state = kind.initial(address.id)
            version = 0
            loaded = true
          })
        : Effect.map(codec.decode(encoded.state), (decoded) => {
            state = decoded
            version = encoded.version
            loaded = true
          })
  )
  const fromRows: Effect.Effect<void, unknown> | undefined =
    rebuild &&
    Effect.suspend(() =>
      Effect.map(rebuild(address.id), (rebuilt) => {
        state = rebuilt
        loaded = true
      })
    )
  const load: Effect.Effect<void, ActorUnavailable | ActorDefect> = Effect.suspend(() => {
    // Cleared before reading: an invalidation that lands while we read marks it stale again.
    activation.stale = false
    return fromRows ?? fromStore
  }).pipe(
    Effect.catchCause((cause) => {
      const error = Cause.squash(cause)
      // Stored state that no longer decodes is a bug (500); a database that does not answer is transient (503).
      const failure = Schema.isSchemaError(error)
        ? new ActorDefect({ address, message: `stored state does not decode: ${messageOf(error)}` })
        : new ActorUnavailable({ address, message: `state could not be loaded: ${messageOf(error)}`, reason: "storage" })
      return Effect.andThen(Effect.logError("actor state could not be loaded", cause).pipe(annotate(address)), Effect.fail(failure))
    })
  )

  const finish = (envelope: Envelope, outcome: Exit.Exit<unknown, any>): Effect.Effect<void> => {
    activation.current = undefined
    activation.busy = false
    if (barrier.waits.length === 0) {
      remember(envelope, outcome, undefined)
      envelope.reply(outcome)
      return Effect.void
    }
    const waits = barrier.waits
    barrier.waits = []
    // A re-send handled meanwhile is answered once this reply has gone out (after the invalidations), not before.
    const delivered = pending.length === 0 ? undefined : Deferred.makeUnsafe<void>()
    remember(envelope, outcome, delivered)
    return Effect.asVoid(
      Effect.forkDetach(
        Effect.andThen(
          Effect.all(waits, { concurrency: "unbounded", discard: true }),
          Effect.sync(() => {
            envelope.reply(outcome)
            if (delivered !== undefined) Deferred.doneUnsafe(delivered, Exit.void)
          })
        )
      )
    )
  }

  /** Another node owns the shard now: forget the state; not processed unless a fenced write of it had committed. */
  const onFencedOut = (envelope: Envelope, fenced: Fenced): Effect.Effect<void> => {
    loaded = false
    state = undefined
    const processed = fence?.committed === true
    // Told after the reply: giving the shard up stops this activation, which must not answer first.
    const giveUp = Effect.sync(() => onFenced?.(activation.shard))
    return Effect.andThen(
      Effect.logWarning(`${fenced.message}; "${envelope.tag}" ${processed ? "was interrupted" : "was not processed"}`).pipe(
        annotate(address)
      ),
      finish(
        envelope,
        Exit.fail(
          processed
            ? new ActorUnavailable({ address, message: "the shard moved to another node while processing", reason: "interrupted" })
            : new NotServed({ shard: activation.shard })
        )
      )
    ).pipe(Effect.andThen(giveUp))
  }

  const onFailure = (envelope: Envelope, cause: Cause.Cause<unknown>): Effect.Effect<void> => {
    const error = Cause.findErrorOption(cause)
    if (Option.isSome(error) && (error.value instanceof Rejection || isDomainErrorOf(kind, envelope.tag, error.value))) {
      return finish(envelope, Exit.fail(error.value))
    }
    const fenced = fencedIn(cause)
    if (fenced !== undefined) return onFencedOut(envelope, fenced)
    // Anything else is a defect: the in-memory state may be corrupt, reload it.
    loaded = false
    state = undefined
    const interrupted = Cause.hasInterruptsOnly(cause)
    const squashed = interrupted ? undefined : Cause.squash(cause)
    // Some of its writes committed before it failed (a handler that commits in several transactions): not
    // "retry", which would apply them again, but "interrupted" (check first), also what a re-send of its key is told.
    const partly = fence?.committed === true
    const failure =
      partly && (interrupted || isTransient(squashed))
        ? new ActorUnavailable({
            address,
            message: `partly applied, then ${interrupted ? "interrupted" : `the database did not answer: ${messageOf(squashed)}`}; read the state before retrying`,
            reason: "interrupted"
          })
        : interrupted
          ? new ActorUnavailable({ address, message: "handler interrupted" })
          : isTransient(squashed)
            ? new ActorUnavailable({ address, message: `the database did not answer: ${messageOf(squashed)}`, reason: "storage" })
            : new ActorDefect({ address, message: messageOf(squashed) })
    return Effect.andThen(
      Effect.logError(`actor handler defect in "${envelope.tag}"; restarting from persisted state`, cause).pipe(annotate(address)),
      finish(envelope, Exit.fail(failure))
    )
  }

  type Handler = (payload: unknown, ctx: ActorContext<unknown>) => Effect.Effect<unknown, unknown, never>
  const handlerOf = (tag: string): Handler | undefined => (Object.hasOwn(handlers, tag) ? handlers[tag] : undefined)

  const handleLoaded = (envelope: Envelope, handler = handlerOf(envelope.tag)): Effect.Effect<void> => {
    if (handler === undefined) {
      return finish(envelope, Exit.fail(reject("invalid", `unknown message "${envelope.tag}" for actor kind "${kind.kind}"`)))
    }
    let next: unknown
    let changed = false
    let reload = false
    let open = true
    const ctx: ActorContext<unknown> = {
      address,
      state,
      setState: (value) => {
        // Ignored once the handler has completed (e.g. a leaked callback).
        if (open) {
          next = value
          changed = true
        }
      },
      reload: () => {
        if (open) reload = true
      }
    }
    pending = []
    for (const member of groupMembers?.get(envelope) ?? [envelope]) {
      if (member.key !== undefined) pending.push({ envelope: member, key: member.key, kind: kind.kind, id: address.id, reply: undefined })
    }
    if (fence !== undefined) fence.requests = pending.length === 0 ? undefined : pending
    return Effect.flatMap(Effect.exit(Effect.suspend(() => handler(envelope.payload, ctx))), (exit) => {
      open = false
      // A write refused by the fence fails the message even if the handler caught the failure.
      if (fence?.refused !== undefined) return onFencedOut(envelope, fence.refused)
      if (exit._tag === "Failure") return onFailure(envelope, exit.cause)
      if (reload) {
        loaded = false
        state = undefined
        return finish(envelope, exit)
      }
      if (!changed) return finish(envelope, exit)
      // A rebuilt kind's handler committed its rows itself: the new state only lives in memory.
      if (rebuild !== undefined) {
        state = next
        return finish(envelope, exit)
      }
      // Write-through: persist first, reply after.
      recordInSave(envelope, Exit.succeed(exit.value))
      return Effect.flatMap(
        Effect.exit(Effect.flatMap(codec.encode(next), (encoded) => store.save(address, encoded, version))),
        (saved) => {
          if (saved._tag === "Success") {
            state = next
            version = saved.value
            return finish(envelope, exit)
          }
          // Unknown whether the write landed: forget the in-memory state, reload it next time.
          loaded = false
          state = undefined
          const fenced = fencedIn(saved.cause)
          if (fenced !== undefined) return onFencedOut(envelope, fenced)
          const failure = Cause.squash(saved.cause)
          // Saved by another owner since we loaded: nothing was written; retried on the current state.
          if (failure instanceof StaleState) {
            return Effect.andThen(
              Effect.logWarning(`${failure.message}; reloading`).pipe(annotate(address)),
              finish(envelope, Exit.fail(new NotServed({ shard: activation.shard })))
            )
          }
          if (isTransient(failure)) {
            return Effect.andThen(
              Effect.logWarning("actor state could not be persisted: the database did not answer", saved.cause).pipe(annotate(address)),
              finish(
                envelope,
                Exit.fail(
                  new ActorUnavailable({ address, message: `the database did not answer: ${messageOf(failure)}`, reason: "storage" })
                )
              )
            )
          }
          // A defect, not a transient failure: retrying the same state would fail the same way.
          return Effect.andThen(
            Effect.logError("actor state could not be persisted", saved.cause).pipe(annotate(address)),
            finish(
              envelope,
              Exit.fail(
                new ActorDefect({
                  address,
                  message: `state could not be persisted: ${messageOf(Cause.squash(saved.cause))}`
                })
              )
            )
          )
        }
      )
    })
  }

  const handle = (envelope: Envelope, handler?: Handler): Effect.Effect<void> => {
    activation.touched = true
    // The caller gave up before we started: don't run it at all.
    if (envelope.isAbandoned()) return Effect.void
    if (canProcess !== undefined && !canProcess(activation.shard)) {
      envelope.reply(Exit.fail(new NotServed({ shard: activation.shard })))
      return Effect.void
    }
    if (envelope.resend === true && envelope.key !== undefined) return deduplicate(envelope, start(envelope, handler))
    return start(envelope, handler)
  }

  const start = (envelope: Envelope, handler?: Handler): Effect.Effect<void> => {
    activation.busy = true
    activation.current = envelope
    if (activation.stale) loaded = false
    pending = []
    if (fence !== undefined) {
      fence.committed = false
      fence.refused = undefined
      fence.requests = undefined
    }
    barrier.waits = []
    if (loaded) return handleLoaded(envelope, handler)
    return Effect.matchEffect(load, {
      onFailure: (error) => finish(envelope, Exit.fail(error)),
      onSuccess: () => handleLoaded(envelope, handler)
    })
  }

  const group = kind.group
  const { grouped, reads } = tagsOf(kind)
  const groupMax = group?.max ?? 256
  const groupHandler: Handler = (payload, ctx) => {
    // `groupEnvelope` built the payload; checked rather than cast, so a wrong one is a defect with a message.
    if (!isGroupedPayload(payload)) return Effect.die(new Error(`${kind.kind}: a group's payload is not its messages`))
    const messages = payload
    return Effect.flatMap(group!.handle(messages, ctx) as Effect.Effect<ReadonlyArray<Outcome>, unknown, never>, (outcomes) =>
      outcomes.length === messages.length
        ? Effect.succeed(outcomes)
        : Effect.die(new Error(`group handler answered ${outcomes.length} of ${messages.length} messages`))
    )
  }

  /** Grouped messages handled as one: the payload lists them, the outcome (one per message) answers each. */
  const isGroupedPayload = (payload: unknown): payload is ReadonlyArray<{ readonly tag: string; readonly payload: unknown }> =>
    Array.isArray(payload) && payload.every((m) => typeof m === "object" && m !== null && typeof m.tag === "string" && "payload" in m)

  const groupEnvelope = (members: ReadonlyArray<Envelope>): Envelope => {
    const envelope: Envelope = {
      tag: members[0]!.tag,
      payload: members.map((member) => ({ tag: member.tag, payload: member.payload })),
      reply: (outcome) => {
        for (const [member, own] of perMessage(envelope, outcome)) member.reply(own)
      },
      isAbandoned: () => members.every((member) => member.isAbandoned())
    }
    groupMembers ??= new WeakMap()
    groupMembers.set(envelope, members)
    return envelope
  }

  /** `first` and the grouped messages queued behind it; reads queued among them first, the message that ends the group last. */
  const handleGroup = (first: Envelope): Effect.Effect<void> => {
    const members = [first]
    const early: Array<Envelope> = []
    let after: Envelope | undefined
    while (members.length < groupMax) {
      const queued = Mailbox.poll(mailbox)
      if (queued === undefined) break
      // A possible re-send is looked up on its own (it ends the group).
      if (grouped.has(queued.tag) && queued.resend !== true) members.push(queued)
      else if (reads.has(queued.tag)) early.push(queued)
      else {
        after = queued
        break
      }
    }
    // Callers that gave up are not run at all (as for a single message).
    const live = members.filter((member) => !member.isAbandoned())
    // Each `handle` is built only when its turn comes: it reads the state when called, so one built up front
    // would give the message after the group the state from before the group's commit (and lose the group's changes).
    activation.holding = true
    return Effect.forEach(early, (envelope) => handle(envelope), { discard: true }).pipe(
      Effect.andThen(() => (live.length === 0 ? Effect.void : handle(groupEnvelope(live), groupHandler))),
      Effect.andThen(() => (after === undefined ? Effect.void : handle(after))),
      Effect.ensuring(
        Effect.sync(() => {
          activation.holding = false
        })
      )
    )
  }

  if (reads.size > 0) {
    activation.readNow = (tag, payload) => {
      if (!loaded || activation.stale || !reads.has(tag)) return undefined
      if (canProcess !== undefined && !canProcess(activation.shard)) return undefined
      let changes = false
      const outcome = readOutcome(kind, address, tag, () =>
        handlerOf(tag)!(payload, {
          address,
          state,
          setState: () => {
            changes = true
          },
          reload: () => {}
        })
      )
      // A read with a change to make is a write this time: through the mailbox, where its change is saved.
      if (changes) return undefined
      activation.touched = true
      return outcome
    }
  }

  const next = (envelope: Envelope): Effect.Effect<void> =>
    grouped.has(envelope.tag) && envelope.resend !== true ? handleGroup(envelope) : handle(envelope)

  const loop = Effect.forever(Effect.flatMap(Mailbox.take(mailbox), next), { disableYield: true }).pipe(
    Effect.catch(() => Effect.void)
  ) as Effect.Effect<void>
  // Provided together: each `provideService` copies the whole system context, and an idle activation keeps its copies.
  const own = Context.make(ReplyBarrier, barrier)
  return Effect.provideContext(loop, fence === undefined ? own : Context.add(own, CurrentFence, fence))
}
