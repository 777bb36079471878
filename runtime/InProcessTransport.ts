/**
 * The embedded ActorSystem: every actor lives in this process. Asks go
 * straight into the actor's mailbox with decoded values (no encoding, no
 * validation — the types already checked them), replies come back through a
 * Deferred.
 *
 * Requirements: `ActorStore` and whatever the kinds' handlers need (e.g. the
 * `Sql` service). The layer captures the Context it is built in
 * (`Effect.context()`) and runs every handler in it, so provide those services
 * to this layer, not to the callers of `ask`.
 */
import { Context, Effect, Layer } from "effect"
import type { ActorKind, ServicesOf } from "./Actor.ts"
import type { ActorError } from "./ActorError.ts"
import * as ActorHost from "./ActorHost.ts"
import type { ActorStore } from "./ActorStore.ts"
import { ActorSystem, type ActorSystemShape } from "./ActorSystem.ts"
import { LocalEnvelope } from "./Envelope.ts"
import * as NodeId from "./NodeId.ts"
import type { Rejection } from "./Rejection.ts"

export interface InProcessOptions extends ActorHost.ActorHostOptions {
  /** Default: generated (hostname-pid-random). */
  readonly nodeId?: string
  /** Default timeout of `ask`. Default 10 s. */
  readonly timeoutMillis?: number
}

export const layerInProcess = <const Kinds extends ReadonlyArray<ActorKind<any, any, any>>>(
  kinds: Kinds,
  options: InProcessOptions = {}
): Layer.Layer<ActorSystem, never, ActorStore | ServicesOf<Kinds[number]>> =>
  Layer.effect(
    ActorSystem,
    Effect.gen(function*() {
      const outer = yield* Effect.context<ActorStore | ServicesOf<Kinds[number]>>()
      const nodeId = NodeId.validate(options.nodeId ?? NodeId.make())
      const defaultTimeout = options.timeoutMillis ?? 10_000
      // Handlers may ask other actors: they run with this very system in their context.
      let host: ActorHost.ActorHost

      const ask: ActorSystemShape["ask"] = (kind, id, tag, payload, askOptions) =>
        Effect.suspend(() => {
          const envelope = new LocalEnvelope(
            { kind: kind.kind, id },
            tag,
            payload,
            askOptions?.timeoutMillis ?? defaultTimeout
          )
          return Effect.andThen(host.offer(kind.kind, id, envelope), envelope.await)
        }) as Effect.Effect<any, Rejection | ActorError>

      const invalidate: ActorSystemShape["invalidate"] = (kind, id) => Effect.sync(() => host.invalidate(kind.kind, id))
      const drain = Effect.suspend(() => host.close)
      const system = ActorSystem.of({ nodeId, ask, invalidate, drain })
      host = yield* ActorHost.make({ ...options, kinds, context: Context.add(outer, ActorSystem, system), nodeId })

      // Closing the layer drains: queued messages are answered, activations stop.
      yield* Effect.addFinalizer(() => host.close)
      return system
    })
  )
