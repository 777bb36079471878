/**
 * Atrium assembled: database (PostgreSQL or PGlite) → actor store → actor
 * system (in-process, or sharded over NATS) → access tokens and blob store →
 * the HTTP server with every operation. Layers are composed here, at the edge.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect, Layer } from "effect"
import * as Database from "../persistence/Database.ts"
import * as FileBlobStore from "../persistence/FileBlobStore.ts"
import * as PgliteSql from "../persistence/PgliteSql.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import type { ActorSystem } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import { layerNats } from "../runtime/NatsTransport.ts"
import * as AccessTokens from "./auth/AccessTokens.ts"
import type { AtriumConfig } from "./Config.ts"
import { serve } from "./HttpServer.ts"
import { actorKinds, atriumRegistry } from "./operations.ts"
import type { CoreServices, Extension } from "./Extension.ts"
import { collabExtension } from "../collab/CollabExtension.ts"
import { streamsExtension } from "../streams/StreamsExtension.ts"
import { wikiExtension } from "../actors/wiki/WikiExtension.ts"
import { mcpExtension } from "./mcp/McpEndpoint.ts"
import { pushExtension } from "../actors/push/PushExtension.ts"
import { hubExtension } from "../actors/hub/HubExtension.ts"
import { webhookDeliveryExtension } from "../actors/hub/webhooks/WebhookDelivery.ts"
import { pmOpsExtension } from "../actors/pmops/PmOpsExtension.ts"
import { webExtension } from "./web/WebExtension.ts"
import { feedbackExtension } from "../actors/feedback/FeedbackExtension.ts"
import { mailRetryExtension } from "../actors/hub/Mail.ts"

/** In-process by default; sharded over NATS (leases in a JetStream KV bucket) when NATS_URL is set. */
const actorSystem = (config: AtriumConfig) =>
  config.natsUrl
    ? layerNats(actorKinds, { url: config.natsUrl, prefix: config.natsPrefix, idleMillis: config.actorIdleMillis })
    : layerInProcess(actorKinds, { idleMillis: config.actorIdleMillis })

/**
 * Real-time documents, live update streams and the services the domains add,
 * beside the REST operations. Each extension's layer sees the ones before it.
 */
export const extensions: ReadonlyArray<Extension> = [
  collabExtension,
  streamsExtension,
  wikiExtension,
  webhookDeliveryExtension,
  hubExtension,
  pushExtension,
  mcpExtension,
  pmOpsExtension,
  feedbackExtension,
  mailRetryExtension,
  webExtension
]

/**
 * Every service the operations need, built from the configuration, bottom up:
 * database → stores and tokens → extensions' services (LiveDocuments,
 * ChangeLog: they build on storage, not on actors) → the actor system, whose
 * handlers run in all of the above.
 */
export const services = (config: AtriumConfig) => {
  const database = config.databaseUrl ? Database.postgres(config.databaseUrl) : Database.pglite(config.dataDir)
  // An in-memory database keeps its blobs in a throwaway directory, not in a folder named "memory:".
  const blobDir = config.dataDir === PgliteSql.memory ? mkdtempSync(path.join(tmpdir(), "atrium-blobs-")) : config.dataDir
  const stores = Layer.mergeAll(SqlActorStore.layer, AccessTokens.layer, FileBlobStore.layer(blobDir)).pipe(Layer.provideMerge(database))
  const extended = extensions.reduce(
    (below, extension) => (extension.layer(config) as unknown as Layer.Layer<never, never, CoreServices>).pipe(Layer.provideMerge(below)),
    stores as unknown as Layer.Layer<CoreServices>
  )
  // Handlers' requirements are checked per kind; here they meet the context built below them.
  const actors = actorSystem(config) as unknown as Layer.Layer<ActorSystem, never, CoreServices>
  return actors.pipe(Layer.provideMerge(extended))
}

/** Starts the server inside the current scope; closing the scope drains it. */
export const start = (config: AtriumConfig) =>
  serve(atriumRegistry, { host: config.host, port: config.port, bodyLimitBytes: config.bodyLimitBytes }, (app) =>
    Effect.forEach(extensions, (extension) => (extension.attach?.(app, config) ?? Effect.void) as Effect.Effect<void>, { discard: true })
  )
