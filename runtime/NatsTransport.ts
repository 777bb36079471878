/**
 * The clustered ActorSystem: actors are partitioned into `shards` (a stable
 * hash of kind + id, see `Sharding.ts`), each shard is served by at most one
 * node at a time — the holder of its lease in a JetStream KV bucket (see
 * `ShardLeases.ts`) — and asks travel as NATS request-reply on the shard's
 * subject `<prefix>.shard.<n>`, which only the owner subscribes to.
 *
 * - An ask for a shard this node serves goes straight into the local mailbox
 *   (no NATS round trip, no encoding).
 * - Otherwise the payload is encoded with its Schema and sent; the owner
 *   validates it on receipt and answers with the encoded success, Rejection
 *   or ActorError (see `MessageCodec.ts`).
 * - While a shard has no owner (no responders), or its owner is handing it
 *   over ("moved"), the sender retries with backoff until the ask's deadline,
 *   then fails with ActorUnavailable (never reached an owner) or ActorTimeout
 *   (an owner got the message but did not answer in time — not retried, as it
 *   may have been processed).
 * - Inbound messages of all shards are consumed by ONE long-running fiber
 *   (subscription callbacks only enqueue), so the hot path never leaves
 *   Effect: no runPromise/runFork per message.
 *
 * Requirements: `ActorStore` (shared by all nodes — e.g. `SqlActorStore` on
 * PostgreSQL — since actors re-activate on whichever node takes their shard)
 * and the kinds' handler requirements. As with the in-process transport, the
 * layer captures the Context it is built in and runs handlers in it.
 */
import { connect, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node"
import { jetstream } from "@nats-io/jetstream"
import { Kvm } from "@nats-io/kv"
import { Context, Deferred, Effect, Exit, Layer, Queue, Schema } from "effect"
import type { ActorAddress, ActorKind, ServicesOf } from "./Actor.ts"
import { type ActorError, ActorTimeout, ActorUnavailable } from "./ActorError.ts"
import * as ActorHost from "./ActorHost.ts"
import type { ActorStore } from "./ActorStore.ts"
import { ActorSystem, type ActorSystemShape } from "./ActorSystem.ts"
import { type Envelope, LocalEnvelope, NotServed, type Outcome } from "./Envelope.ts"
import * as MessageCodec from "./MessageCodec.ts"
import * as NodeId from "./NodeId.ts"
import { reject, type Rejection } from "./Rejection.ts"
import * as ShardLeases from "./ShardLeases.ts"
import { shardOf } from "./Sharding.ts"

export interface NatsOptions extends ActorHost.ActorHostOptions {
  /** NATS server(s), e.g. `nats://127.0.0.1:4222`. */
  readonly url: string | ReadonlyArray<string>
  /** Namespace of this cluster: subjects `<prefix>.shard.<n>`, KV bucket `<prefix>_shards` (see `bucketName`). */
  readonly prefix: string
  /** Number of shards; must be the same on every node of the cluster. Default 64. */
  readonly shards?: number
  /** Lease TTL = the KV bucket's max_age. A dead node's shards move after about this long. Default 10 s. */
  readonly leaseTtlMillis?: number
  /** Lease renewal / rebalance period. Default TTL / 3. */
  readonly renewMillis?: number
  /** A node stops serving a shard this long before its lease could lapse. Default TTL / 4. */
  readonly safetyMillis?: number
  /** Default: generated (hostname-pid-random). Letters, digits, `-`, `_`. */
  readonly nodeId?: string
  /** Default timeout of `ask`. Default 10 s. */
  readonly timeoutMillis?: number
  /** false: a client-only node that sends asks but never owns shards. Default true. */
  readonly serve?: boolean
  /** Storage of the lease bucket. Default "file". */
  readonly storage?: "file" | "memory"
}

/** The NATS connection or the lease bucket could not be set up. */
export class NatsTransportError extends Schema.TaggedError<NatsTransportError>()("NatsTransportError", {
  message: Schema.String
}) {}

export const subjectOf = (prefix: string, shard: number): string => `${prefix}.shard.${shard}`

/** The KV bucket holding the leases and heartbeats of the cluster `prefix`. */
export const bucketName = (prefix: string): string => `${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}_shards`

const safeRespond = (msg: Msg, text: string): void => {
  try {
    msg.respond(text)
  } catch {
    // Connection closing: the sender times out and retries elsewhere.
  }
}

/** A message that came over NATS: its outcome is encoded and sent back as the reply. */
class RemoteEnvelope implements Envelope {
  private replied = false
  constructor(
    private readonly msg: Msg,
    private readonly address: ActorAddress,
    private readonly codec: MessageCodec.MessageCodec,
    readonly tag: string,
    readonly payload: unknown,
    private readonly deadline: number
  ) {}

  reply(outcome: Outcome): void {
    if (this.replied) return
    this.replied = true
    safeRespond(this.msg, MessageCodec.encodeOutcome(this.address, this.codec, outcome))
  }

  isAbandoned(): boolean {
    return performance.now() > this.deadline
  }
}

type Failure = Rejection | ActorError | NotServed

const request = (nc: NatsConnection, subject: string, body: string, timeout: number): Effect.Effect<Msg, unknown> =>
  Effect.callback<Msg, unknown>((resume) => {
    nc.request(subject, body, { timeout }).then(
      (msg) => resume(Effect.succeed(msg)),
      (error) => resume(Effect.fail(error))
    )
  })

const isTimeout = (error: unknown): boolean => (error as Error)?.name === "TimeoutError"

export const layerNats = <const Kinds extends ReadonlyArray<ActorKind<any, any, any>>>(
  kinds: Kinds,
  options: NatsOptions
): Layer.Layer<ActorSystem, NatsTransportError, ActorStore | ServicesOf<Kinds[number]>> =>
  Layer.effect(
    ActorSystem,
    Effect.gen(function* () {
      const context = yield* Effect.context<ActorStore | ServicesOf<Kinds[number]>>()
      const scope = yield* Effect.scope
      const nodeId = options.nodeId ?? NodeId.make()
      if (!NodeId.isValid(nodeId)) return yield* new NatsTransportError({ message: `invalid node id "${nodeId}"` })
      const prefix = options.prefix
      const shards = options.shards ?? 64
      const ttl = options.leaseTtlMillis ?? 10_000
      const serve = options.serve ?? true
      const defaultTimeout = options.timeoutMillis ?? 10_000
      if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
        return yield* new NatsTransportError({ message: `invalid prefix "${prefix}"` })
      }
      if (!Number.isInteger(shards) || shards < 1) {
        return yield* new NatsTransportError({ message: `invalid shard count ${shards}` })
      }

      const nc = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () =>
            connect({
              servers: typeof options.url === "string" ? options.url : [...options.url],
              name: `atrium-${nodeId}`,
              maxReconnectAttempts: -1
            }),
          catch: (error) => new NatsTransportError({ message: `cannot connect to NATS: ${String(error)}` })
        }),
        (nc) => Effect.promise(() => (nc.isClosed() ? Promise.resolve() : nc.close().catch(() => undefined)))
      )
      const js = jetstream(nc, { timeout: Math.max(500, Math.min(5000, Math.floor(ttl / 3))) })
      const kv = yield* Effect.tryPromise({
        try: () =>
          new Kvm(js).create(bucketName(prefix), {
            ttl,
            history: 1,
            storage: options.storage === "memory" ? "memory" : "file"
          } as Parameters<Kvm["create"]>[1]),
        catch: (error) => new NatsTransportError({ message: `cannot open the lease bucket: ${String(error)}` })
      })

      // The leases are created below (they need the host to passivate); activations only exist after that.
      let leaseTable: ShardLeases.ShardLeases | undefined
      // Handlers may ask other actors: they run with this very system (defined below) in their context.
      let system: ActorSystemShape | undefined
      const forHandlers = ActorSystem.of({
        nodeId,
        ask: (kind, id, tag, payload, askOptions) => Effect.suspend(() => system!.ask(kind, id, tag, payload, askOptions)),
        invalidate: (kind, id) => Effect.suspend(() => system!.invalidate(kind, id)),
        drain: Effect.suspend(() => system!.drain)
      })
      const host = yield* ActorHost.make({
        ...options,
        kinds,
        context: Context.add(context, ActorSystem, forHandlers),
        nodeId,
        shardOf: (kind, id) => shardOf(kind, id, shards),
        canProcess: (shard) => leaseTable?.isValid(shard) === true
      })

      // Subscription callbacks only enqueue; one fiber does the work.
      const inbound = yield* Queue.unbounded<Msg>()
      const subscriptions = new Map<number, Subscription>()

      const onServe = (shard: number) =>
        Effect.sync(() => {
          if (subscriptions.has(shard)) return
          subscriptions.set(
            shard,
            nc.subscribe(subjectOf(prefix, shard), {
              callback: (error, msg) => {
                if (error === null) Queue.offerUnsafe(inbound, msg)
              }
            })
          )
        })

      // drain(), not unsubscribe(): messages already on their way are still delivered (and answered
      // "moved", so their senders retry at once) instead of being dropped (their senders would time out).
      const unsubscribe = (shard: number) =>
        Effect.suspend(() => {
          const subscription = subscriptions.get(shard)
          if (subscription === undefined) return Effect.void
          subscriptions.delete(shard)
          return Effect.ignore(
            Effect.timeoutOption(
              Effect.tryPromise(() => subscription.drain()),
              1000
            )
          )
        })

      const onStop = (shard: number, graceful: boolean) => {
        const inShard = (activation: { readonly shard: number }) => activation.shard === shard
        const notServed = new NotServed({ shard })
        // Graceful: stop the inflow, then finish what is queued. Lease lost: stop the actors first.
        return graceful
          ? Effect.andThen(unsubscribe(shard), host.passivate(inShard, notServed))
          : Effect.andThen(host.abort(inShard, notServed), unsubscribe(shard))
      }

      const handleInbound = (msg: Msg): Effect.Effect<void> => {
        const req = MessageCodec.decodeRequest(msg.string())
        if (req === undefined) {
          safeRespond(msg, MessageCodec.encodeOutcome({ kind: "?", id: "?" }, undefined, Exit.fail(reject("invalid", "malformed request"))))
          return Effect.void
        }
        const shard = shardOf(req.k, req.i, shards)
        if (!leases.isServing(shard)) {
          safeRespond(msg, JSON.stringify({ moved: shard }))
          return Effect.void
        }
        if (req.inv === 1) {
          host.invalidate(req.k, req.i)
          safeRespond(msg, '{"ok":null}')
          return Effect.void
        }
        const address = { kind: req.k, id: req.i }
        const kind = host.kinds.get(req.k)
        const codec = kind && MessageCodec.codecFor(kind, req.t)
        const deadline = performance.now() + req.ms
        if (codec === undefined) {
          const error =
            kind === undefined
              ? new ActorUnavailable({ address, message: `actor kind "${req.k}" is not registered on node ${nodeId}` })
              : reject("invalid", `unknown message "${req.t}" for actor kind "${req.k}"`)
          safeRespond(msg, MessageCodec.encodeOutcome(address, undefined, Exit.fail(error)))
          return Effect.void
        }
        return Effect.matchEffect(codec.decodePayload(req.p), {
          onFailure: (error) => {
            safeRespond(msg, MessageCodec.encodeOutcome(address, codec, Exit.fail(reject("invalid", `invalid payload: ${error.message}`))))
            return Effect.void
          },
          onSuccess: (payload) => host.offer(req.k, req.i, new RemoteEnvelope(msg, address, codec, req.t, payload, deadline))
        })
      }

      const leases = yield* ShardLeases.make({
        kv,
        nodeId,
        shards,
        leaseTtlMillis: ttl,
        ...(options.renewMillis !== undefined ? { renewMillis: options.renewMillis } : {}),
        ...(options.safetyMillis !== undefined ? { safetyMillis: options.safetyMillis } : {}),
        acquire: serve,
        onServe,
        onStop
      })
      leaseTable = leases

      // Started once `leases` exists; messages that arrived meanwhile waited in `inbound`.
      yield* Effect.forkIn(
        Effect.forever(
          Effect.flatMap(Queue.takeAll(inbound), (msgs) => Effect.forEach(msgs, handleInbound, { discard: true })),
          { disableYield: true }
        ),
        scope
      )

      let accepting = true

      const ask: ActorSystemShape["ask"] = (kind, id, tag, payload, askOptions) =>
        Effect.suspend(() => {
          const address: ActorAddress = { kind: kind.kind, id }
          if (!accepting) {
            return Effect.fail(new ActorUnavailable({ address, message: "actor system is draining", reason: "draining" }))
          }
          const millis = askOptions?.timeoutMillis ?? defaultTimeout
          const deadline = performance.now() + millis
          const shard = shardOf(kind.kind, id, shards)
          const subject = subjectOf(prefix, shard)
          let body: string | undefined
          let codec: MessageCodec.MessageCodec | undefined

          const local = (remaining: number): Effect.Effect<unknown, Failure> => {
            const envelope = new LocalEnvelope(address, tag, payload, remaining)
            return Effect.andThen(host.offer(kind.kind, id, envelope), envelope.await)
          }

          const remote = (remaining: number): Effect.Effect<unknown, Failure | "no-owner"> => {
            const send = (text: string, c: MessageCodec.MessageCodec) =>
              Effect.matchEffect(request(nc, subject, MessageCodec.withDeadline(text, remaining), remaining), {
                onSuccess: (reply) => MessageCodec.decodeReply(address, c, shard, reply.string()),
                onFailure: (error): Effect.Effect<never, Failure | "no-owner"> =>
                  isTimeout(error) ? Effect.fail(new ActorTimeout({ address, millis })) : Effect.fail("no-owner" as const) // no responders, or disconnected: retry
              })
            if (body !== undefined && codec !== undefined) return send(body, codec)
            const c = MessageCodec.codecFor(kind, tag)
            if (c === undefined) return Effect.fail(reject("invalid", `unknown message "${tag}" for actor kind "${kind.kind}"`))
            return Effect.matchEffect(c.encodePayload(payload), {
              onFailure: (error) => Effect.fail(reject("invalid", `invalid payload: ${error.message}`)),
              onSuccess: (encoded) => {
                codec = c
                body = MessageCodec.encodeRequestBody(kind.kind, id, tag, encoded)
                return send(body, c)
              }
            })
          }

          const attempt = (n: number): Effect.Effect<unknown, Rejection | ActorError> => {
            const remaining = deadline - performance.now()
            if (remaining < 1) {
              // Only "not processed" outcomes are retried, so reaching the deadline here means no owner took it.
              return Effect.fail(
                n === 0
                  ? new ActorTimeout({ address, millis })
                  : new ActorUnavailable({ address, message: `no node served shard ${shard} within ${millis} ms`, reason: "handover" })
              )
            }
            const once = leases.isServing(shard) ? local(remaining) : remote(remaining)
            return Effect.catch(once, (error) => {
              if (typeof error !== "string" && error._tag !== "NotServed") return Effect.fail(error)
              // Nobody serves the shard right now (hand-over in progress): back off and retry.
              const left = deadline - performance.now()
              const backoff = Math.min(left, Math.min(250, 5 * 2 ** n) * (0.5 + Math.random() / 2))
              return Effect.andThen(
                Effect.sleep(Math.max(0, backoff)),
                Effect.suspend(() => attempt(n + 1))
              )
            })
          }

          return attempt(0)
        }) as Effect.Effect<any, Rejection | ActorError>

      const invalidate: ActorSystemShape["invalidate"] = (kind, id) =>
        Effect.suspend(() => {
          const shard = shardOf(kind.kind, id, shards)
          if (leases.isServing(shard)) return Effect.sync(() => host.invalidate(kind.kind, id))
          const body = MessageCodec.withDeadline(MessageCodec.encodeInvalidation(kind.kind, id), defaultTimeout)
          // No owner, or a shard on the move: no activation lives to be marked (a new one rebuilds anyway).
          return Effect.catch(Effect.asVoid(request(nc, subjectOf(prefix, shard), body, defaultTimeout)), (error) =>
            isTimeout(error)
              ? Effect.logWarning(`invalidation of ${kind.kind}/${id} got no answer from the owner of shard ${shard}`)
              : Effect.void
          )
        })

      const drainDone = Deferred.makeUnsafe<void>()
      let drainStarted = false
      const drain = Effect.suspend(() => {
        // A second caller (e.g. the layer's finalizer after an explicit drain) waits for the first.
        if (drainStarted) return Deferred.await(drainDone)
        drainStarted = true
        accepting = false
        return Effect.gen(function* () {
          // Unsubscribe, finish queued messages, passivate, delete the leases (peers take over at once).
          yield* leases.releaseAll
          yield* host.close
          yield* Effect.promise(() => (nc.isClosed() ? Promise.resolve() : nc.drain().catch(() => undefined)))
        }).pipe(Effect.ensuring(Deferred.done(drainDone, Exit.void)))
      })

      yield* Effect.addFinalizer(() => drain)
      system = ActorSystem.of({ nodeId, ask, invalidate, drain })
      return system
    })
  )
