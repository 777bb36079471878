/**
 * Atrium assembled: database (PostgreSQL or PGlite) → actor store → actor
 * system (in-process, or sharded over NATS) → access tokens and blob store →
 * the HTTP server with every operation. Layers are composed here, at the edge.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect, Layer, type Scope } from "effect"
import * as Database from "../persistence/Database.ts"
import * as FileBlobStore from "../persistence/FileBlobStore.ts"
import * as PgliteSql from "../persistence/PgliteSql.ts"
import * as SqlActorStore from "../persistence/SqlActorStore.ts"
import type { ServicesOf } from "../runtime/Actor.ts"
import type { ActorStore } from "../runtime/ActorStore.ts"
import type { ActorSystem } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import { layerNats, type NatsTransportError } from "../runtime/NatsTransport.ts"
import * as AccessTokens from "../actors/auth/AccessTokens.ts"
import type { AtriumConfig } from "../facade/Config.ts"
import { type RunningServer, serve } from "../facade/HttpServer.ts"
import { type ActorKinds, actorKinds, atriumRegistry } from "../facade/operations.ts"
import { OperationRegistry } from "../facade/Registry.ts"
import type { Extension } from "../facade/Extension.ts"
import { collabExtension, streamsExtension } from "../facade/LiveExtensions.ts"
import { wikiExtension } from "../facade/extensions/WikiExtension.ts"
import { mcpExtension } from "../facade/mcp/McpEndpoint.ts"
import { pushExtension } from "../facade/extensions/PushExtension.ts"
import { hubExtension } from "../facade/extensions/HubExtension.ts"
import { webhookDeliveryExtension } from "../facade/extensions/WebhookDelivery.ts"
import { pmOpsExtension } from "../facade/extensions/PmOpsExtension.ts"
import { webExtension } from "../facade/web/WebExtension.ts"
import { feedbackExtension } from "../facade/extensions/FeedbackExtension.ts"
import { mailRetryExtension } from "../facade/extensions/MailRetry.ts"
import { notificationMailExtension } from "../facade/extensions/NotificationMail.ts"

/** In-process by default; sharded over NATS (leases in a JetStream KV bucket) when NATS_URL is set. */
const actorSystem = (config: AtriumConfig): Layer.Layer<ActorSystem, NatsTransportError, ActorStore | ServicesOf<ActorKinds>> =>
  config.natsUrl
    ? layerNats(actorKinds, {
        url: config.natsUrl,
        prefix: config.natsPrefix,
        idleMillis: config.actorIdleMillis,
        maxResident: config.actorMaxResident,
        leaseTtlMillis: config.actorLeaseMillis
      })
    : layerInProcess(actorKinds, { idleMillis: config.actorIdleMillis, maxResident: config.actorMaxResident })

/**
 * Real-time documents, live update streams and the services the domains add,
 * beside the REST operations. Each extension's layer sees the ones before it.
 */
export const extensions = [
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
  notificationMailExtension,
  webExtension
] as const

/**
 * Every service the operations need, built from the configuration, bottom up:
 * database → stores and tokens → extensions' services (LiveDocuments,
 * ChangeLog: they build on storage, not on actors) → the actor system, whose
 * handlers run in all of the above. Each step's requirements are checked
 * against what the steps below it provide.
 */
const servicesBelowActors = <Store = never>(
  config: AtriumConfig,
  store: Layer.Layer<ActorStore | Store, never, Layer.Services<typeof SqlActorStore.layer>>
) => {
  const database = config.databaseUrl ? Database.postgres(config.databaseUrl) : Database.pglite(config.dataDir)
  // An in-memory database keeps its blobs in a throwaway directory, not in a folder named "memory:".
  const blobDir = config.dataDir === PgliteSql.memory ? mkdtempSync(path.join(tmpdir(), "atrium-blobs-")) : config.dataDir
  const stores = Layer.mergeAll(
    store,
    AccessTokens.layer,
    FileBlobStore.layer(blobDir),
    Layer.succeed(OperationRegistry, atriumRegistry)
  ).pipe(Layer.provideMerge(database))
  const above =
    <ROut, E, RIn>(extension: Extension<ROut, E, RIn, any>) =>
    <BOut, BE, BIn>(below: Layer.Layer<BOut, BE, BIn>) =>
      extension.layer(config).pipe(Layer.provideMerge(below))
  return stores.pipe(
    above(collabExtension),
    above(streamsExtension),
    above(wikiExtension),
    above(webhookDeliveryExtension),
    above(hubExtension),
    above(pushExtension),
    above(mcpExtension),
    above(pmOpsExtension),
    above(feedbackExtension),
    above(mailRetryExtension),
    above(notificationMailExtension),
    above(webExtension)
  )
}

/** What the server runs in: everything built below the actor system, and the actor system. */
export type AtriumServices = Layer.Success<ReturnType<typeof servicesBelowActors<never>>> | ActorSystem

export const services = (config: AtriumConfig) => servicesWith(config, SqlActorStore.layer)

/**
 * `services` on another actor store layer (`SqlActorStore.layer` provides the store, the shard fences and
 * the request log): the bench composes one without `ShardFences`, to measure what the epoch check costs
 * (bench/scenarios/fencing-cost.ts). Fences and the request log are optional to the runtime.
 */
export const servicesWith = <Store = never>(
  config: AtriumConfig,
  store: Layer.Layer<ActorStore | Store, never, Layer.Services<typeof SqlActorStore.layer>>
) => {
  const below = servicesBelowActors(config, store)
  // Each kind's handlers are typed with what they need (runtime/Actor.ts), but the kinds lists erase it
  // (ActorKind<any, any, any>), so the actor system is held to what the layers below it provide.
  const actors: Layer.Layer<ActorSystem, NatsTransportError, Layer.Success<typeof below>> = actorSystem(config)
  return actors.pipe(Layer.provideMerge(below))
}

/** Starts the server inside the current scope; closing the scope drains it. */
export const start = (config: AtriumConfig): Effect.Effect<RunningServer, never, AtriumServices | Scope.Scope> =>
  Effect.gen(function* () {
    const registry = yield* OperationRegistry
    return yield* serve(registry, { host: config.host, port: config.port, bodyLimitBytes: config.bodyLimitBytes }, (app) =>
      Effect.forEach(extensions, (extension) => extension.attach?.(app, config) ?? Effect.void, { discard: true })
    )
  })
