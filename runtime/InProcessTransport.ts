/**
 * The embedded ActorSystem: every actor lives in this process. Asks go
 * straight into the actor's mailbox with decoded values (no encoding, no
 * validation — the types already checked them), replies come back through a
 * Deferred.
 *
 * Fencing takes the clustered path too: with `ShardFences` in the context
 * (provided by `SqlActorStore.layer`) the node bumps the epoch of its one
 * shard (0) when it starts, so a second process started on the same database
 * fences this one's writes off instead of interleaving with them.
 *
 * Requirements: `ActorStore` and whatever the kinds' handlers need (e.g. the
 * `Sql` service). The layer captures the Context it is built in
 * (`Effect.context()`) and runs every handler in it, so provide those services
 * to this layer, not to the callers of `ask`.
 */
import { Context, Effect, Layer } from "effect"
import type { ActorKind, ServicesOf } from "./Actor.ts"
import { ActorDefect, type ActorError, ActorUnavailable } from "./ActorError.ts"
import * as ActorHost from "./ActorHost.ts"
import type { ActorStore } from "./ActorStore.ts"
import { type AskOptions, ActorSystem, type ActorSystemShape } from "./ActorSystem.ts"
import { LocalEnvelope, type NotServed } from "./Envelope.ts"
import * as MessageCodec from "./MessageCodec.ts"
import * as NodeId from "./NodeId.ts"
import type { Rejection } from "./Rejection.ts"
import { ShardFences } from "./ShardFences.ts"

/**
 * Sends what the NATS transport would send: the payload and the success
 * value each go through their message's codec (a value that does not fit its
 * schema fails loudly here, in tests, instead of in a cluster), and either one
 * larger than a NATS message may be (`MAX_MESSAGE_BYTES`) fails likewise.
 */
const checked = (
  kind: ActorKind,
  tag: string,
  payload: unknown,
  send: (payload: unknown) => Effect.Effect<unknown, Rejection | ActorError | NotServed>
) =>
  Effect.gen(function* () {
    const address = { kind: kind.kind, id: "?" }
    const codec = MessageCodec.codecFor(kind, tag)
    if (codec === undefined) return yield* Effect.die(new Error(`${kind.kind} has no message "${tag}"`))
    const encoded = yield* Effect.mapError(
      codec.encodePayload(payload),
      (error) => new ActorDefect({ address, message: `payload of ${kind.kind}.${tag} does not fit its schema: ${error.message}` })
    )
    const request = MessageCodec.encodeRequestBody(kind.kind, "?", tag, encoded)
    const tooLarge = MessageCodec.oversized(`payload of ${kind.kind}.${tag}`, Buffer.byteLength(request))
    if (tooLarge !== undefined) return yield* new ActorDefect({ address, message: tooLarge })
    const decoded = yield* Effect.mapError(
      codec.decodePayload(JSON.parse(request).p),
      (error) => new ActorDefect({ address, message: `payload of ${kind.kind}.${tag} does not survive JSON: ${error.message}` })
    )
    const value = yield* send(decoded)
    const reply = codec.encodeSuccess(value)
    if (reply._tag === "Failure") {
      return yield* new ActorDefect({ address, message: `reply of ${kind.kind}.${tag} does not fit its schema: ${String(reply.cause)}` })
    }
    const replied = JSON.stringify({ ok: reply.value ?? null })
    const replyTooLarge = MessageCodec.oversized(`reply of ${kind.kind}.${tag}`, Buffer.byteLength(replied))
    if (replyTooLarge !== undefined) return yield* new ActorDefect({ address, message: replyTooLarge })
    return yield* Effect.mapError(
      codec.decodeSuccess(JSON.parse(replied).ok),
      (error) => new ActorDefect({ address, message: `reply of ${kind.kind}.${tag} does not survive JSON: ${error.message}` })
    )
  })

export interface InProcessOptions extends ActorHost.ActorHostOptions {
  /** Encode every ask's payload and reply as the NATS transport would (tests). Default: ATRIUM_CHECK_PROTOCOLS=1. */
  readonly checkProtocols?: boolean
  /** Default: generated (hostname-pid-random). */
  readonly nodeId?: string
  /** Default timeout of `ask`. Default 10 s. */
  readonly timeoutMillis?: number
}

export const layerInProcess = <const Kinds extends ReadonlyArray<ActorKind<any, any, any>>>(
  kinds: Kinds,
  options: InProcessOptions = {}
): Layer.Layer<ActorSystem, never, ActorStore | Exclude<ServicesOf<Kinds[number]>, ActorSystem>> =>
  Layer.effect(
    ActorSystem,
    Effect.gen(function* () {
      const outer = yield* Effect.context<ActorStore | Exclude<ServicesOf<Kinds[number]>, ActorSystem>>()
      const nodeId = NodeId.validate(options.nodeId ?? NodeId.make())
      const defaultTimeout = options.timeoutMillis ?? 10_000
      // Handlers may ask other actors: they run with this very system in their context.
      let host: ActorHost.ActorHost

      // The one shard's fence: taken before the first message.
      const fences = Context.getOrUndefined(outer as Context.Context<unknown>, ShardFences)
      const epoch = fences === undefined ? undefined : yield* Effect.orDie(fences.acquire(0, nodeId))

      const deliver = (kind: ActorKind, id: string, tag: string, payload: unknown, askOptions: AskOptions | undefined) =>
        Effect.suspend(() => {
          const key = askOptions?.idempotencyKey
          // A read of a resident actor needs no envelope, deadline nor mailbox: answered here.
          const now = key === undefined ? host.readNow(kind.kind, id, tag, payload) : undefined
          if (now !== undefined) return now
          const address = { kind: kind.kind, id }
          // A caller's key may be a re-send of its own: looked up every time.
          const envelope = new LocalEnvelope(address, tag, payload, askOptions?.timeoutMillis ?? defaultTimeout, key, key !== undefined)
          return Effect.andThen(
            host.offer(kind.kind, id, envelope),
            // Not served: another process took the database's shard over (its epoch is newer).
            Effect.catchTag(envelope.await, "NotServed", () =>
              Effect.fail(new ActorUnavailable({ address, message: "another node fenced this one off", reason: "handover" }))
            )
          )
        })
      const ask: ActorSystemShape["ask"] =
        (options.checkProtocols ?? process.env.ATRIUM_CHECK_PROTOCOLS === "1")
          ? (kind, id, tag, payload, askOptions) => checked(kind, tag, payload, (p) => deliver(kind, id, tag, p, askOptions)) as any
          : (kind, id, tag, payload, askOptions) => deliver(kind, id, tag, payload, askOptions) as any

      const invalidate: ActorSystemShape["invalidate"] = (kind, id) => Effect.sync(() => host.invalidate(kind.kind, id))
      const drain = Effect.suspend(() => host.close)
      const system = ActorSystem.of({ nodeId, ask, invalidate, drain })
      host = yield* ActorHost.make({
        ...options,
        kinds,
        context: Context.add(outer, ActorSystem, system),
        nodeId,
        ...(epoch !== undefined ? { epochOf: () => epoch } : {})
      })

      // Closing the layer drains: queued messages are answered, activations stop.
      yield* Effect.addFinalizer(() => host.close)
      return system
    })
  )
