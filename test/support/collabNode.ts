/**
 * A whole Atrium in a child process, with the collab tests' DocumentAccess
 * (see collabAtrium.ts), for tests that kill it (`kill -9`) or run several
 * nodes. Configured by the environment like `npm start` (PORT, DATA_DIR,
 * DATABASE_URL, NATS_URL, NATS_PREFIX, COLLAB_*); prints `listening <port>`
 * once it accepts connections.
 *
 *   node --import tsx test/support/collabNode.ts
 */
import { Effect, Layer } from "effect"
import { services, start } from "../../server/Atrium.ts"
import { fromEnv } from "../../facade/Config.ts"
import { testAccessLayer } from "./collabAtrium.ts"
import { SMALL_DATABASE_SETTINGS, seedPglite } from "../../tools/PgliteTemplate.ts"

const config = { ...fromEnv(), host: "127.0.0.1" }
if (!config.databaseUrl) await seedPglite(config.dataDir, SMALL_DATABASE_SETTINGS)

const program = Effect.gen(function* () {
  const server = yield* start(config)
  process.stdout.write(`listening ${server.port}\n`)
  yield* Effect.never
})

Effect.runFork(
  program.pipe(Effect.provide(Layer.merge(services(config), testAccessLayer) as Layer.Layer<any>), Effect.scoped) as Effect.Effect<never>
)

// SIGTERM: exit at once (the tests that want a clean stop don't depend on drain; profilers get their output written).
process.on("SIGTERM", () => process.exit(0))
