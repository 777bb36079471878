/**
 * A standalone runtime node serving the test actor kinds over NATS, with its
 * actor state in PostgreSQL (SqlActorStore) — also the reference for starting
 * an Atrium node process:
 *
 *   ATRIUM_NODE_ID=n1 ATRIUM_NATS_URL=nats://127.0.0.1:4222 ATRIUM_PREFIX=atrium \
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/atrium \
 *   ATRIUM_SHARDS=64 ATRIUM_LEASE_TTL_MS=10000 \
 *   node --import tsx test/support/actorNode.ts
 *
 * Prints `ready <nodeId>` once it holds its first leases; SIGTERM/SIGINT drain
 * it (finish queued messages, passivate, release leases) and exit 0.
 */
import { Cause, Context, Effect, Exit, Layer } from "effect"
import * as Database from "../../persistence/Database.ts"
import * as SqlActorStore from "../../persistence/SqlActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { layerNats } from "../../runtime/NatsTransport.ts"
import { Counter, NodeInfo } from "./runtimeActors.ts"

const env = (name: string, fallback?: string): string => {
  const value = process.env[name]
  if (value !== undefined && value !== "") return value
  if (fallback !== undefined) return fallback
  throw new Error(`${name} is required`)
}

const nodeId = env("ATRIUM_NODE_ID")

const layer = layerNats([Counter], {
  url: env("ATRIUM_NATS_URL", "nats://127.0.0.1:4222"),
  prefix: env("ATRIUM_PREFIX"),
  shards: Number(env("ATRIUM_SHARDS", "64")),
  leaseTtlMillis: Number(env("ATRIUM_LEASE_TTL_MS", "10000")),
  nodeId
}).pipe(
  Layer.provide(Layer.mergeAll(SqlActorStore.layer, Layer.succeed(NodeInfo, { name: nodeId }))),
  Layer.provide(Database.postgres(env("DATABASE_URL")))
)

const main = Effect.scoped(
  Effect.gen(function* () {
    const system = Context.get(yield* Layer.build(layer), ActorSystem)
    console.log(`ready ${system.nodeId}`)
    return yield* Effect.never
  })
)

const fiber = Effect.runFork(main)
const stop = () => fiber.interruptUnsafe()
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
fiber.addObserver((exit) => {
  if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
    console.error(Cause.pretty(exit.cause))
    process.exit(1)
  }
  process.exit(0)
})
