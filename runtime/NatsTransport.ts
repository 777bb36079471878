/**
 * The clustered ActorSystem: actors are partitioned into `shards` (a stable
 * hash of kind + id, see `Sharding.ts`), each shard is served by at most one
 * node at a time — the holder of its lease in a JetStream KV bucket (see
 * `ShardLeases.ts`), fenced in the database by the epoch it bumped (see
 * `ShardFences.ts`) — and asks travel as NATS request-reply.
 *
 * - One delivery: every node subscribes to its own subject
 *   `<prefix>.node.<nodeId>` only, and a sender addresses the owner named by
 *   the lease table (a KV watch). So a request reaches exactly one node; if
 *   that node does not serve the shard it answers `moved` knowing nobody else
 *   got the request, and the sender retries on the owner. Outcomes that
 *   certainly were not processed (moved, no responders, no owner yet, a write
 *   refused by its fence before anything committed) are simply retried. A
 *   write that may have been processed (no reply within a freshness window,
 *   or this node's connection dropped while it was in flight) is re-sent
 *   marked as such with its idempotency key (every remote write carries one,
 *   see `RequestLog.ts`): the owner answers it from the record of the first
 *   attempt if that one committed, and runs it otherwise. A connection that
 *   dropped is waited for and the write re-sent as soon as it is back, all
 *   within the request's deadline (then ActorTimeout: the outcome is unknown).
 *   Reads (a kind's `readOnly` messages) carry no key and are retried either
 *   way; every attempt waits at most a freshness window.
 * - An ask for a shard this node serves goes straight into the local mailbox
 *   (no NATS round trip, no encoding). Otherwise the payload is encoded with
 *   its Schema and sent; the owner validates it on receipt and answers with
 *   the encoded success, Rejection or ActorError (see `MessageCodec.ts`).
 * - Freshness: a node serves (reads and writes) only while it has heard from
 *   the NATS server within `freshnessMillis` (a PING/PONG every quarter of
 *   it) and is connected. Cut off longer, it answers ActorUnavailable
 *   ("disconnected", a 503) for its shards at once; back, it marks every live
 *   activation stale (it may have missed invalidations) before serving again. Writes in flight when the connection drops are
 *   re-sent with their key on reconnect instead of waiting out their deadline (reads fail at once).
 * - Acknowledged invalidation: `invalidate` is delivered to the owner and
 *   acknowledged by it (only the node serving the shard acks), or retried
 *   until this node has been connected for `freshnessMillis` (plus a margin)
 *   without an ack: the owner has then stopped serving what it holds. Called
 *   by a handler, the delivery delays that message's reply, not the actor.
 * - Inbound messages are consumed by ONE long-running fiber (subscription
 *   callbacks only enqueue; invalidations are marked in the callback itself).
 *
 * Requirements: `ActorStore` (shared by all nodes — e.g. `SqlActorStore` on
 * PostgreSQL — since actors re-activate on whichever node takes their shard),
 * optionally `ShardFences` (provided by `SqlActorStore.layer`), and the kinds'
 * handler requirements. As with the in-process transport, the layer captures
 * the Context it is built in and runs handlers in it.
 */
import { connect, type Msg, RequestError, type Status } from "@nats-io/transport-node"
import { jetstream } from "@nats-io/jetstream"
import { Kvm } from "@nats-io/kv"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Queue, Schema } from "effect"
import type { ActorAddress, ActorKind, ServicesOf } from "./Actor.ts"
import { type ActorError, ActorTimeout, ActorUnavailable } from "./ActorError.ts"
import * as ActorHost from "./ActorHost.ts"
import type { ActorStore } from "./ActorStore.ts"
import { ActorSystem, type ActorSystemShape } from "./ActorSystem.ts"
import { type Envelope, LocalEnvelope, NotServed, type Outcome, ReplyBarrier } from "./Envelope.ts"
import * as MessageCodec from "./MessageCodec.ts"
import * as NodeId from "./NodeId.ts"
import { reject, type Rejection } from "./Rejection.ts"
import { ShardFences } from "./ShardFences.ts"
import * as ShardLeases from "./ShardLeases.ts"
import { shardOf } from "./Sharding.ts"

export interface NatsOptions extends ActorHost.ActorHostOptions {
  /** NATS server(s), e.g. `nats://127.0.0.1:4222`. */
  readonly url: string | ReadonlyArray<string>
  /** Namespace of this cluster: subjects `<prefix>.node.<nodeId>`, KV bucket `<prefix>_shards` (see `bucketName`). */
  readonly prefix: string
  /** Number of shards; must be the same on every node of the cluster. Default 64. */
  readonly shards?: number
  /**
   * Lease TTL = the KV bucket's max_age. A dead node's shards move after about this long. Default 10 s.
   * Every node of a cluster must use the same (the bucket is created with it).
   */
  readonly leaseTtlMillis?: number
  /** Lease renewal / rebalance period. Default TTL / 3. */
  readonly renewMillis?: number
  /** A node stops serving a shard this long before its lease could lapse. Default TTL / 4. */
  readonly safetyMillis?: number
  /**
   * A node serves only while it has heard from the NATS server within this
   * long; a writer waits about this long at most for an owner that does not
   * acknowledge an invalidation. Default 3 s.
   */
  readonly freshnessMillis?: number
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

/** The one subject a node receives requests on. */
export const nodeSubjectOf = (prefix: string, nodeId: string): string => `${prefix}.node.${nodeId}`

/** The KV bucket holding the leases and heartbeats of the cluster `prefix`. */
export const bucketName = (prefix: string): string => `${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}_shards`

const safeRespond = (msg: Msg, text: string): void => {
  try {
    msg.respond(text)
  } catch {
    // Connection closing: the sender's request fails and it decides whether to retry.
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
    private readonly deadline: number,
    readonly key: string | undefined,
    readonly resend: boolean
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

/**
 * Why a request got no reply: `unsent` and `no-responders` certainly did not
 * reach an owner (retry); `timeout` and `cut` (our connection dropped while it
 * was in flight) may have been processed.
 */
type Undelivered = "unsent" | "no-responders" | "timeout" | "cut"

const classify = (error: unknown): Undelivered =>
  error instanceof RequestError && error.isNoResponders()
    ? "no-responders"
    : (error as Error)?.name === "TimeoutError" || (error instanceof RequestError && (error.cause as Error)?.name === "TimeoutError")
      ? "timeout"
      : "unsent"

export const layerNats = <const Kinds extends ReadonlyArray<ActorKind<any, any, any>>>(
  kinds: Kinds,
  options: NatsOptions
): Layer.Layer<ActorSystem, NatsTransportError, ActorStore | Exclude<ServicesOf<Kinds[number]>, ActorSystem>> =>
  Layer.effect(
    ActorSystem,
    Effect.gen(function* () {
      const context = yield* Effect.context<ActorStore | Exclude<ServicesOf<Kinds[number]>, ActorSystem>>()
      const scope = yield* Effect.scope
      const nodeId = options.nodeId ?? NodeId.make()
      if (!NodeId.isValid(nodeId)) return yield* new NatsTransportError({ message: `invalid node id "${nodeId}"` })
      const prefix = options.prefix
      const shards = options.shards ?? 64
      const ttl = options.leaseTtlMillis ?? 10_000
      const serve = options.serve ?? true
      const defaultTimeout = options.timeoutMillis ?? 10_000
      const freshness = options.freshnessMillis ?? 3000
      const pingMillis = Math.max(50, Math.floor(freshness / 4))
      // A node that heard from the server at t serves until t + freshness; a message sent to it before then
      // reaches the server at most one trip later, so a writer waits that much longer.
      const invalidationWait = freshness + pingMillis
      if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
        return yield* new NatsTransportError({ message: `invalid prefix "${prefix}"` })
      }
      if (!Number.isInteger(shards) || shards < 1) {
        return yield* new NatsTransportError({ message: `invalid shard count ${shards}` })
      }
      const fences = Context.getOrUndefined(context as Context.Context<unknown>, ShardFences)

      const nc = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () =>
            connect({
              servers: typeof options.url === "string" ? options.url : [...options.url],
              name: `atrium-${nodeId}`,
              maxReconnectAttempts: -1,
              // A dead server is noticed within a few seconds, and a short outage is over in about its length.
              pingInterval: Math.max(500, Math.floor(freshness / 2)),
              maxPingOut: 2,
              reconnectTimeWait: 250,
              reconnectJitter: 100
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

      // --- connection state and freshness -----------------------------------------------------------

      let connected = true
      /** Bumped on every disconnect and reconnect: a PONG only counts for the connection its PING went out on. */
      let generation = 0
      let lastHeard = performance.now()
      /** Cut off since the last re-validation: serve nothing until the leases are renewed and activations marked stale. */
      let lapsed = false
      /** Requests in flight, failed at once when the connection drops. */
      const inflight = new Set<() => void>()
      /** Completed when the connection is up; replaced by a pending one when it drops. */
      let reconnected = Deferred.makeUnsafe<void>()
      Deferred.doneUnsafe(reconnected, Exit.void)
      const wakePing = yield* Queue.sliding<void>(1)

      const fresh = (): boolean => connected && !lapsed && performance.now() < lastHeard + freshness

      const onStatus = (status: Status): void => {
        if (status.type === "disconnect" || status.type === "staleConnection") {
          connected = false
          lapsed = true
          generation++
          if (Deferred.isDoneUnsafe(reconnected)) reconnected = Deferred.makeUnsafe<void>()
          const cut = [...inflight]
          inflight.clear()
          for (const fail of cut) fail()
        } else if (status.type === "reconnect") {
          connected = true
          generation++
          Deferred.doneUnsafe(reconnected, Exit.void)
          Queue.offerUnsafe(wakePing, undefined)
        }
      }
      yield* Effect.forkIn(
        Effect.promise(async () => {
          for await (const status of nc.status()) onStatus(status)
        }),
        scope
      )

      // --- routing table: shard → owner, from the lease bucket ----------------------------------------

      const owners: Array<string | undefined> = new Array(shards).fill(undefined)
      const watchOwners = Effect.gen(function* () {
        const watcher = yield* Effect.tryPromise(() => kv.watch({ key: "shard.>" }))
        yield* Effect.addFinalizer(() => Effect.sync(() => watcher.stop()))
        yield* Effect.tryPromise(async () => {
          for await (const entry of watcher) {
            const shard = Number(entry.key.slice(6))
            if (Number.isInteger(shard) && shard >= 0 && shard < shards) {
              owners[shard] = entry.operation === "PUT" ? entry.string() : undefined
            }
          }
        })
      }).pipe(
        Effect.scoped,
        Effect.ignore,
        // Rebuilt from the last values whenever the watch ends (e.g. after a reconnect).
        Effect.andThen(Effect.sleep(250)),
        Effect.forever
      )
      yield* Effect.forkIn(watchOwners, scope)

      /** The owner in the table, or (not known yet) in the bucket itself. */
      const ownerOf = (shard: number): Effect.Effect<string | undefined> => {
        const known = owners[shard]
        if (known !== undefined) return Effect.succeed(known)
        return Effect.tryPromise(() => kv.get(ShardLeases.shardKey(shard))).pipe(
          Effect.map((entry) => (entry !== null && entry.operation === "PUT" ? entry.string() : undefined)),
          Effect.orElseSucceed(() => undefined)
        )
      }

      const request = (subject: string, body: string, timeout: number): Effect.Effect<Msg, Undelivered> =>
        Effect.callback<Msg, Undelivered>((resume) => {
          if (!connected) {
            resume(Effect.fail("unsent"))
            return
          }
          let settled = false
          const cut = () => {
            if (settled) return
            settled = true
            resume(Effect.fail("cut"))
          }
          inflight.add(cut)
          nc.request(subject, body, { timeout }).then(
            (msg) => {
              inflight.delete(cut)
              if (settled) return
              settled = true
              resume(Effect.succeed(msg))
            },
            (error) => {
              inflight.delete(cut)
              if (settled) return
              settled = true
              resume(Effect.fail(classify(error)))
            }
          )
          return Effect.sync(() => {
            settled = true
            inflight.delete(cut)
          })
        })

      // --- the host and the leases ---------------------------------------------------------------------

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
        canProcess: (shard) => fresh() && leaseTable?.isValid(shard) === true,
        epochOf: (shard) => leaseTable?.epochOf(shard),
        onFenced: (shard) => {
          if (leaseTable !== undefined) Effect.runFork(leaseTable.forfeit(shard))
        }
      })

      const serving = (shard: number): boolean => fresh() && leaseTable?.isServing(shard) === true

      const onStop = (shard: number, graceful: boolean) => {
        const inShard = (activation: { readonly shard: number }) => activation.shard === shard
        const notServed = new NotServed({ shard })
        // Graceful: finish what is queued (new messages are answered "moved"). Lease lost: stop the actors now.
        return graceful ? host.passivate(inShard, notServed) : host.abort(inShard, notServed)
      }

      // Subscription callbacks only enqueue (invalidations excepted); one fiber does the work.
      interface Inbound {
        readonly msg: Msg
        readonly req: MessageCodec.Request
        readonly shard: number
      }
      const inbound = yield* Queue.unbounded<Inbound>()

      const onMessage = (msg: Msg): void => {
        const req = MessageCodec.decodeRequest(msg.string())
        if (req === undefined) {
          safeRespond(msg, MessageCodec.encodeOutcome({ kind: "?", id: "?" }, undefined, Exit.fail(reject("invalid", "malformed request"))))
          return
        }
        const shard = shardOf(req.k, req.i, shards)
        // Only the node serving the shard acknowledges; anyone else certainly holds nothing to mark.
        if (!serving(shard)) {
          safeRespond(msg, JSON.stringify({ moved: shard }))
          return
        }
        if (req.inv === 1) {
          // Marked before the acknowledgement leaves, and before any later message is looked at.
          host.invalidate(req.k, req.i)
          safeRespond(msg, '{"ok":null}')
          return
        }
        Queue.offerUnsafe(inbound, { msg, req, shard })
      }

      const handleInbound = ({ msg, req, shard }: Inbound): Effect.Effect<void> => {
        if (!serving(shard)) {
          safeRespond(msg, JSON.stringify({ moved: shard }))
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
          onSuccess: (payload) =>
            host.offer(req.k, req.i, new RemoteEnvelope(msg, address, codec, req.t, payload, deadline, req.ik, req.r === 1))
        })
      }

      if (serve) {
        nc.subscribe(nodeSubjectOf(prefix, nodeId), {
          callback: (error, msg) => {
            if (error === null) onMessage(msg)
          }
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
        onServe: () => Effect.void,
        onStop,
        ...(fences !== undefined ? { fence: (shard: number) => fences.acquire(shard, nodeId) } : {})
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

      // Freshness: a PING every `pingMillis`; back from a lapse, re-validate before serving again.
      const ping = Effect.gen(function* () {
        const sentOn = generation
        const sent = performance.now()
        // Silent for a whole window (paused, blackholed, a long GC) even if no ping saw it: it may have missed invalidations.
        if (sent >= lastHeard + freshness) lapsed = true
        const answered = yield* Effect.timeoutOption(
          Effect.tryPromise(() => nc.flush()),
          freshness
        ).pipe(Effect.orElseSucceed(() => undefined))
        if (answered !== undefined && answered._tag === "Some" && connected && generation === sentOn) {
          lastHeard = Math.max(lastHeard, sent)
        }
        const reachable = connected && performance.now() < lastHeard + freshness
        if (!reachable) {
          if (!lapsed) yield* Effect.logWarning(`no word from the NATS server for ${freshness} ms: not serving until it is back`)
          lapsed = true
        } else if (lapsed) {
          // Invalidations may have been missed meanwhile: every activation rebuilds before its next message.
          // The leases need no check here: each is still served only until its own deadline, which no
          // other node can reach first (see ShardLeases.ts), and writes are fenced anyway.
          host.invalidateAll()
          lapsed = false
          yield* Effect.logInfo("connected to the NATS server again: serving")
        }
      })
      yield* Effect.forkIn(Effect.forever(Effect.andThen(ping, Effect.timeoutOption(Queue.take(wakePing), pingMillis))), scope)

      let accepting = true

      const disconnected = (address: ActorAddress) =>
        new ActorUnavailable({ address, message: `node ${nodeId} is cut off from the cluster`, reason: "disconnected" })

      const ask: ActorSystemShape["ask"] = (kind, id, tag, payload, askOptions) =>
        Effect.suspend(() => {
          const address: ActorAddress = { kind: kind.kind, id }
          if (!accepting) {
            return Effect.fail(new ActorUnavailable({ address, message: "actor system is draining", reason: "draining" }))
          }
          const millis = askOptions?.timeoutMillis ?? defaultTimeout
          const deadline = performance.now() + millis
          const shard = shardOf(kind.kind, id, shards)
          const isRead = kind.readOnly?.includes(tag) === true
          const key = isRead ? undefined : (askOptions?.idempotencyKey ?? crypto.randomUUID())
          /** An earlier attempt may have been processed (or the caller's key may have been): re-sends are looked up. */
          let uncertain = askOptions?.idempotencyKey !== undefined
          let body: string | undefined
          let codec: MessageCodec.MessageCodec | undefined

          // Here no reply can be lost, so the key only travels when an earlier attempt's outcome is unknown.
          const local = (remaining: number): Effect.Effect<unknown, Failure> => {
            // A read of a resident actor needs no envelope, deadline nor mailbox: answered here.
            const now = isRead ? host.readNow(kind.kind, id, tag, payload) : undefined
            if (now !== undefined) return now
            const envelope = new LocalEnvelope(address, tag, payload, remaining, uncertain ? key : undefined, uncertain)
            return Effect.andThen(host.offer(kind.kind, id, envelope), envelope.await)
          }

          // "retry": certainly not processed anywhere (or a read): back off and try again.
          const remote = (remaining: number): Effect.Effect<unknown, Failure | "retry"> => {
            const send = (text: string, c: MessageCodec.MessageCodec) =>
              Effect.flatMap(ownerOf(shard), (owner) => {
                // A write that may have been processed waits for the connection (in `attempt`) to be re-sent.
                if (!connected) return Effect.fail(uncertain ? ("retry" as const) : disconnected(address))
                if (owner === undefined) return Effect.fail("retry" as const)
                // Asked again if need be (a read, or a write with its key), so no attempt waits out the deadline
                // on an owner that went silent. The owner may run a write until the request's own deadline.
                const wait = Math.min(remaining, freshness)
                const sent = MessageCodec.withDeadline(text, isRead ? wait : remaining, uncertain)
                return Effect.matchEffect(request(nodeSubjectOf(prefix, owner), sent, wait), {
                  onSuccess: (reply) => MessageCodec.decodeReply(address, c, shard, reply.string()),
                  onFailure: (undelivered): Effect.Effect<never, "retry"> => {
                    // Timed out, or our connection dropped while it was in flight: a write may have been processed
                    // (a read is simply asked again, or answered "disconnected" while we are cut off).
                    if (!isRead && (undelivered === "timeout" || undelivered === "cut")) uncertain = true
                    return Effect.fail("retry")
                  }
                })
              })
            if (body !== undefined && codec !== undefined) return send(body, codec)
            const c = MessageCodec.codecFor(kind, tag)
            if (c === undefined) return Effect.fail(reject("invalid", `unknown message "${tag}" for actor kind "${kind.kind}"`))
            return Effect.matchEffect(c.encodePayload(payload), {
              onFailure: (error) => Effect.fail(reject("invalid", `invalid payload: ${error.message}`)),
              onSuccess: (encoded) => {
                codec = c
                body = MessageCodec.encodeRequestBody(kind.kind, id, tag, encoded, key)
                return send(body, c)
              }
            })
          }

          const attempt = (n: number): Effect.Effect<unknown, Rejection | ActorError> => {
            const remaining = deadline - performance.now()
            if (remaining < 1) {
              // Unless an attempt may have been processed, reaching the deadline means no owner took it.
              return Effect.fail(
                n === 0 || uncertain
                  ? new ActorTimeout({ address, millis })
                  : new ActorUnavailable({ address, message: `no node served shard ${shard} within ${millis} ms`, reason: "handover" })
              )
            }
            if (!connected) {
              // Cut off: answer at once (the caller retries later) instead of waiting for the deadline…
              if (!uncertain) return Effect.fail(disconnected(address))
              // …unless a write in flight may have been processed: re-sent with its key as soon as we are back.
              return Effect.flatMap(Effect.timeoutOption(Deferred.await(reconnected), remaining), () => attempt(n + 1))
            }
            const once = serving(shard) ? local(remaining) : remote(remaining)
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
        }) as Effect.Effect<any, any>

      const invalidationBody = (kind: string, id: string) =>
        MessageCodec.withDeadline(MessageCodec.encodeInvalidation(kind, id), Math.min(1000, freshness))

      /**
       * Until the owner acknowledges, or this node has been connected for
       * `invalidationWait` without an acknowledgement (the owner has then stopped
       * serving: it cannot have heard from the server either), or the request
       * deadline has passed (this node itself was cut off: logged).
       */
      const deliverInvalidation = (kind: string, id: string, shard: number): Effect.Effect<void> =>
        Effect.gen(function* () {
          const started = performance.now()
          let last = started
          let connectedFor = 0
          for (let n = 0; ; n++) {
            if (serving(shard)) return host.invalidate(kind, id)
            const owner = yield* ownerOf(shard)
            // No lease at all: its former owner stopped serving before its key could lapse.
            if (owner === undefined) return
            // Ours but not served right now: every activation is marked stale before we serve again.
            if (owner === nodeId) return host.invalidate(kind, id)
            const reply = yield* Effect.option(request(nodeSubjectOf(prefix, owner), invalidationBody(kind, id), Math.min(1000, freshness)))
            if (reply._tag === "Some" && reply.value.string().startsWith('{"ok"')) return
            const now = performance.now()
            if (fresh()) connectedFor += now - last
            last = now
            if (connectedFor >= invalidationWait) {
              return yield* Effect.logWarning(
                `invalidation of ${kind}/${id} not acknowledged by ${owner} for ${Math.round(connectedFor)} ms: it no longer serves shard ${shard}`
              )
            }
            if (now - started >= defaultTimeout) {
              return yield* Effect.logError(`invalidation of ${kind}/${id} could not be delivered: this node was cut off from the cluster`)
            }
            yield* Effect.sleep(Math.min(250, 10 * 2 ** n))
          }
        })

      const invalidate: ActorSystemShape["invalidate"] = (kind, id) =>
        Effect.suspend(() => {
          const shard = shardOf(kind.kind, id, shards)
          if (serving(shard)) return Effect.sync(() => host.invalidate(kind.kind, id))
          const delivery = deliverInvalidation(kind.kind, id, shard)
          // In a handler: delivered while the actor goes on; the handler's reply waits for it.
          return Effect.flatMap(ReplyBarrier, (barrier) =>
            barrier === undefined
              ? delivery
              : Effect.map(Effect.forkIn(delivery, scope), (fiber) => {
                  barrier.waits.push(Fiber.join(fiber))
                })
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
          // Finish queued messages, passivate, delete the leases (peers take over at once).
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
