/**
 * The server side of "actor over NATS": a node of the actor runtime that
 * hosts BenchEcho activations. The bench's caller (bench/load/request-reply.ts,
 * target actor-nats) is another node in another process.
 *
 * env: NATS_URL, PREFIX. Prints READY once its ActorSystem is up.
 */
import { Effect, ManagedRuntime } from "effect"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { actorSystemLayer } from "./actor-wiring.ts"

const layer = actorSystemLayer("nats", {
  natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  prefix: process.env.PREFIX ?? "atrium-bench",
  host: true
})
const runtime = ManagedRuntime.make(layer)
const system = await runtime.runPromise(Effect.service(ActorSystem))
console.log(`READY actor-host node=${system.nodeId}`)

process.on("SIGTERM", () => {
  void runtime
    .runPromise(Effect.andThen(system.drain, Effect.void))
    .finally(() => runtime.dispose())
    .finally(() => process.exit(0))
})
