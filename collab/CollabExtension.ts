/**
 * The collab extension: live documents (LiveDocuments) and the Hocuspocus
 * endpoint at {wiki}/v1/collab.
 *
 * Its layer builds on SQL alone (no actors): the live server, its update log
 * and, when `NATS_URL` is set, its cluster node; it provides `LiveDocuments`
 * and `CollabServer`. `attach` adds the WebSocket route; it runs in the full
 * context, where it resolves `authenticate` (actors, tokens) and the
 * optional `DocumentAccess` the wiki provides.
 */
import { Effect, Layer } from "effect"
import type { AtriumConfig } from "../facade/Config.ts"
import { extension } from "../facade/Extension.ts"
import type { TemplatedApp } from "../facade/uws.ts"
import { Sql } from "../persistence/Sql.ts"
import { attachEndpoint } from "./CollabEndpoint.ts"
import { type CollabOptions, collabOptionsFromEnv } from "./CollabOptions.ts"
import { CollabServer, collabContext } from "./LiveDocumentsLive.ts"
import { LiveServer, type RunSql } from "./LiveServer.ts"
import { natsCluster } from "./NatsCluster.ts"

/** The collab services, built on `Sql` (and NATS when configured). */
export const collabLayer = (config: AtriumConfig, options: CollabOptions = collabOptionsFromEnv()) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const sql = yield* Sql
      const context = yield* Effect.context<Sql>()
      const runSql: RunSql = (effect) => Effect.runPromiseWith(context)(effect)
      const server = yield* Effect.acquireRelease(
        Effect.sync(() => new LiveServer(runSql, options, sql.backend)),
        (server) => Effect.promise(() => server.close())
      )
      if (config.natsUrl !== undefined) {
        const natsUrl = config.natsUrl
        server.cluster = yield* Effect.promise(() =>
          natsCluster(server, {
            url: natsUrl,
            prefix: config.natsPrefix,
            nodeId: server.nodeId,
            heartbeatSeconds: options.heartbeatSeconds
          })
        )
      }
      return collabContext(server)
    })
  )

export const collabExtension = extension({
  name: "collab",
  layer: (config) => collabLayer(config),
  attach: (app: TemplatedApp) =>
    Effect.gen(function* () {
      const server = yield* CollabServer
      yield* attachEndpoint(app, server, server.options)
    })
})
