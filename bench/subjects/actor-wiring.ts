/**
 * The one place the bench touches the actor runtime's layers. The runtime is
 * being written: when its modules aren't there the actor side reports
 * "not built"; when they are but their exports don't match what this file
 * expects, the actor series fail with the import error, and this file is
 * what to adjust (nothing else in the bench names a runtime layer).
 *
 * Expected (from the runtime's contracts):
 * - runtime/InProcessTransport.ts  `layerInProcess(kinds, options)`
 * - runtime/NatsTransport.ts       `layerNats(kinds, { url, prefix, ... })`
 * - runtime/MemoryActorStore.ts    a Layer providing ActorStore
 * Each yields a Layer providing `ActorSystem` (runtime/ActorSystem.ts).
 */
import { existsSync } from "node:fs"
import { Effect, Layer, Schema } from "effect"
import { Actor } from "../../runtime/Actor.ts"
import type { ActorSystem } from "../../runtime/ActorSystem.ts"

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

const RUNTIME = new URL("../../runtime/", import.meta.url)
const TRANSPORT_MODULE: Record<ActorTransport, string> = { "in-process": "InProcessTransport.ts", nats: "NatsTransport.ts" }
const STORE_MODULE = "MemoryActorStore.ts"

/** Why the actor side can't run yet, or undefined when the runtime's modules are there. */
export const actorRuntimeMissing = (transport: ActorTransport): string | undefined => {
  const missing = [TRANSPORT_MODULE[transport], STORE_MODULE].filter((file) => !existsSync(new URL(file, RUNTIME)))
  return missing.length === 0 ? undefined : `runtime/${missing.join(" and runtime/")} not written yet`
}

export interface WiringOptions {
  readonly natsUrl: string
  /** Subject prefix, unique per bench run so runs never share actors. */
  readonly prefix: string
  /** Whether this node hosts BenchEcho activations (the NATS caller node is client-only: `serve: false`). */
  readonly host: boolean
}

/** A Layer providing ActorSystem over `transport`, with an in-memory ActorStore. */
export const actorSystemLayer = async (transport: ActorTransport, options: WiringOptions): Promise<Layer.Layer<ActorSystem, unknown>> => {
  const missing = actorRuntimeMissing(transport)
  if (missing) throw new Error(missing)
  const transportModule = (await import(new URL(TRANSPORT_MODULE[transport], RUNTIME).href)) as Record<string, unknown>
  const storeModule = (await import(new URL(STORE_MODULE, RUNTIME).href)) as Record<string, unknown>
  const kinds = [BenchEcho]

  const make = transportModule[transport === "in-process" ? "layerInProcess" : "layerNats"]
  if (typeof make !== "function") {
    throw new Error(
      `runtime/${TRANSPORT_MODULE[transport]} has no ${transport === "in-process" ? "layerInProcess" : "layerNats"}(): adjust bench/subjects/actor-wiring.ts`
    )
  }
  const transportLayer: unknown =
    transport === "in-process"
      ? make(kinds, {})
      : // Leases in memory: a bench run's bucket must not outlive nats-server (see dropNatsState too).
        make(kinds, { url: options.natsUrl, prefix: options.prefix, serve: options.host, storage: "memory" })
  const storeLayer = Layer.isLayer(storeModule.layer) ? storeModule.layer : Object.values(storeModule).find((value) => Layer.isLayer(value))
  if (!Layer.isLayer(transportLayer) || !storeLayer) {
    throw new Error("the runtime's layers aren't where bench/subjects/actor-wiring.ts expects them: adjust it")
  }
  return Layer.provide(
    transportLayer as Layer.Layer<ActorSystem, unknown, unknown>,
    storeLayer as Layer.Layer<unknown, unknown, never>
  ) as Layer.Layer<ActorSystem, unknown>
}

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
