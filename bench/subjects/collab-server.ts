/**
 * Atrium's collab server for the collab bench scenarios: the whole Atrium
 * (as `npm start` runs it: PGlite in DATA_DIR, or DATABASE_URL) with a
 * DocumentAccess that lets every user edit every document (read only those
 * named `ro-…`), so the bench measures the collaboration path, not the
 * wiki's permission checks. Creates
 * a user and prints `READY port=<port> token=<access token>`.
 */
import { Effect, Layer } from "effect"
import { DocumentAccess } from "../../actors/DocumentAccess.ts"
import { services, start } from "../../server/Atrium.ts"
import { fromEnv } from "../../facade/Config.ts"
import { reportSettledMemoryOnSignal } from "./settled-memory.ts"
import * as HeapReclaim from "../../runtime/HeapReclaim.ts"

const config = { ...fromEnv(), host: "127.0.0.1" }
// As server/main.ts runs it.
HeapReclaim.limitGrowth(config.heapGrowthPercent)
const everyoneEdits = Layer.succeed(DocumentAccess, {
  rightOf: (_principal, name) => Effect.succeed(name.startsWith("ro-") ? ("read" as const) : ("edit" as const))
})

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, any>
}

const program = Effect.gen(function* () {
  const server = yield* start(config)
  const origin = `http://127.0.0.1:${server.port}`
  const email = `bench-${Date.now().toString(36)}@example.com`
  const password = "bench-password-1234"
  const token = yield* Effect.promise(async () => {
    await post(`${origin}/pm/v1/auth/register`, { email, password, name: "Bench" })
    return (await post(`${origin}/pm/v1/auth/login`, { email, password })).accessToken as string
  })
  process.stdout.write(`READY port=${server.port} token=${token}\n`)
  yield* Effect.never
})

process.on("SIGTERM", () => process.exit(0))
reportSettledMemoryOnSignal()
Effect.runFork(
  program.pipe(Effect.provide(Layer.merge(services(config), everyoneEdits) as Layer.Layer<any>), Effect.scoped) as Effect.Effect<never>
)
