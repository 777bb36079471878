/**
 * `npm start`: runs Atrium with the configuration from the environment and
 * drains on SIGTERM/SIGINT — stop accepting, finish in-flight requests,
 * passivate actors (state saved), close the database — then exits.
 */
import { Effect } from "effect"
import { start, services } from "./Atrium.ts"
import { fromEnv } from "../facade/Config.ts"
import { seedDemo } from "../facade/Demo.ts"
import { serviceNames, services as serviceInfo } from "../facade/catalog/Services.ts"
import { uwsBuild } from "../facade/uws.ts"
import * as HeapReclaim from "../runtime/HeapReclaim.ts"

const config = fromEnv()
HeapReclaim.limitGrowth(config.heapGrowthPercent)

const untilSignal = Effect.callback<string>((resume) => {
  const onSignal = (signal: string) => resume(Effect.succeed(signal))
  process.once("SIGTERM", onSignal)
  process.once("SIGINT", onSignal)
})

const program = Effect.gen(function* () {
  const server = yield* start(config)
  const origin = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`
  const lines = [
    `Atrium listening on ${config.host}:${server.port} (uWebSockets.js from ${uwsBuild})`,
    `  database: ${config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`}`,
    `  actors:   ${config.natsUrl ? `NATS ${config.natsUrl} (prefix ${config.natsPrefix})` : "in-process"}`,
    ...serviceNames.map(
      (s) =>
        `  ${serviceInfo[s].name.padEnd(18)} ${origin}${serviceInfo[s].basePath}   (OpenAPI: ${origin}${serviceInfo[s].basePath}/v1/openapi.json)`
    ),
    `  catalogs: ${origin}/hub/v1/api-catalog   ${origin}/pm/v1/api-catalog`,
    `  MCP:      ${origin}/mcp   (for agents: Streamable HTTP)`,
    `  web app:  ${origin}/`
  ]
  console.log(lines.join("\n"))
  if (config.demo) console.log(yield* seedDemo(origin))
  const signal = yield* untilSignal
  console.log(`${signal}: draining`)
  yield* server.close
}).pipe(Effect.scoped, Effect.provide(services(config)))

Effect.runPromise(program).then(
  () => {
    console.log("Atrium stopped")
    process.exit(0)
  },
  (error) => {
    console.error("Atrium failed:", error)
    process.exit(1)
  }
)
