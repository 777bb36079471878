/**
 * Atrium assembled: database (PostgreSQL or PGlite) → actor store → actor
 * system (in-process, or sharded over NATS) → access tokens and blob store →
 * the HTTP server with every operation. Layers are composed here, at the edge.
 */
import { Effect, Layer } from "effect"
import * as Database from "../persistence/Database.ts"
import * as FileBlobStore from "../persistence/FileBlobStore.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import * as AccessTokens from "./auth/AccessTokens.ts"
import type { AtriumConfig } from "./Config.ts"
import { serve } from "./HttpServer.ts"
import { actorKinds, atriumRegistry } from "./operations.ts"

const actorSystem = (config: AtriumConfig) => layerInProcess(actorKinds, { idleMillis: config.actorIdleMillis })

/** Every service the operations need, built from the configuration. */
export const services = (config: AtriumConfig) => {
  const database = config.databaseUrl ? Database.postgres(config.databaseUrl) : Database.pglite(config.dataDir)
  const stores = Layer.mergeAll(SqlActorStore.layer, AccessTokens.layer, FileBlobStore.layer(config.dataDir))
  return actorSystem(config).pipe(Layer.provideMerge(stores), Layer.provideMerge(database))
}

/** Starts the server inside the current scope; closing the scope drains it. */
export const start = (config: AtriumConfig) =>
  Effect.gen(function* () {
    const server = yield* serve(atriumRegistry, { host: config.host, port: config.port, bodyLimitBytes: config.bodyLimitBytes })
    return server
  })
