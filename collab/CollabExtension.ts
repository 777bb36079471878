/**
 * What the facade mounts as its collab extension (facade/LiveExtensions.ts):
 * live documents (LiveDocuments) and the Hocuspocus endpoint at {wiki}/v1/collab.
 *
 * The layer builds on SQL alone (no actors): the live server, its update log
 * and, with a NATS URL, its cluster node; it provides `LiveDocuments` and
 * `CollabServer`. `attachCollab` adds the WebSocket route; it runs in the full
 * context, where it resolves `authenticate` (actors, tokens) and the
 * optional `DocumentAccess` the wiki provides.
 */
import { Effect, Layer } from "effect"
import type { TemplatedApp } from "../facade/uws.ts"
import { Sql } from "../persistence/Sql.ts"
import { attachEndpoint } from "./CollabEndpoint.ts"
import { type CollabOptions, collabOptionsFromEnv } from "./CollabOptions.ts"
import { CollabServer, collabContext } from "./LiveDocumentsLive.ts"
import { LiveServer, type RunSql } from "./LiveServer.ts"
import { natsCluster } from "./NatsCluster.ts"

/** Where the cluster's nodes meet (no `natsUrl`: one process, no cluster). */
export interface CollabCluster {
  readonly natsUrl: string | undefined
  readonly natsPrefix: string
}

/** The collab services, built on `Sql` (and NATS when configured). */
export const collabLayer = (config: CollabCluster, options: CollabOptions = collabOptionsFromEnv()) =>
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

/** Adds the collab WebSocket route to the app, with the options the live server was built with. */
export const attachCollab = (app: TemplatedApp) =>
  Effect.gen(function* () {
    const server = yield* CollabServer
    yield* attachEndpoint(app, server, server.options)
  })
