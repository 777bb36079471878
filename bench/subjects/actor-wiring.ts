/**
 * The one place the bench touches the actor runtime's layers: an ActorSystem
 * over the in-process transport or over NATS (runtime/InProcessTransport.ts,
 * runtime/NatsTransport.ts), with the actor store in memory.
 */
import { Effect, Layer, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"
import { layerInProcess } from "../../runtime/InProcessTransport.ts"
import * as MemoryActorStore from "../../runtime/MemoryActorStore.ts"
import { layerNats, type NatsTransportError } from "../../runtime/NatsTransport.ts"

/** The bench's actor: echoes its payload, touches no state (nothing to persist per message). */
export const BenchEcho = Actor<{ readonly created: number }>()({
  kind: "BenchEcho",
  state: Schema.Struct({ created: Schema.Number }),
  initial: () => ({ created: Date.now() }),
  messages: {
    echo: {
      payload: Schema.Struct({ body: Schema.String }),
      success: Schema.Struct({ body: Schema.String })
    }
  },
  handlers: {
    echo: (payload) => Effect.succeed(payload)
  }
})

export type ActorTransport = "in-process" | "nats"

export interface WiringOptions {
  readonly natsUrl: string
  /** Subject prefix, unique per bench run so runs never share actors. */
  readonly prefix: string
  /** Whether this node hosts BenchEcho activations (the NATS caller node is client-only: `serve: false`). */
  readonly host: boolean
}

/** A Layer providing ActorSystem over `transport`, with an in-memory ActorStore. */
export const actorSystemLayer = (transport: ActorTransport, options: WiringOptions): Layer.Layer<ActorSystem, NatsTransportError> =>
  Layer.provide(
    transport === "in-process"
      ? layerInProcess([BenchEcho], {})
      : // Leases in memory: a bench run's bucket must not outlive nats-server (see dropNatsState too).
        layerNats([BenchEcho], { url: options.natsUrl, prefix: options.prefix, serve: options.host, storage: "memory" }),
    MemoryActorStore.layer
  )

/** Deletes the lease bucket a NATS run created (its JetStream stream `KV_<prefix>_shards`). */
export const dropNatsState = async (natsUrl: string, prefix: string): Promise<void> => {
  const { connect } = await import("@nats-io/transport-node")
  const { jetstreamManager } = await import("@nats-io/jetstream")
  const nc = await connect({ servers: natsUrl, name: "atrium-bench-cleanup" })
  try {
    const manager = await jetstreamManager(nc)
    await manager.streams.delete(`KV_${prefix.replace(/[^A-Za-z0-9_-]/g, "_")}_shards`).catch(() => false)
  } finally {
    await nc.close()
  }
}
