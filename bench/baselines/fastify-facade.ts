/**
 * "The same handlers behind Fastify": Atrium's services (`services(config)`
 * from facade/Atrium.ts, the same DATA_DIR / DATABASE_URL as the facade) and
 * its request pipeline (`atriumRegistry.router.match` + `respond` from
 * facade/Pipeline.ts), served by Fastify 5 on node:http instead of uWS. Only
 * the HTTP layer differs from facade/main.ts: routing, authentication,
 * decoding, handlers, SQL and encoding are the same code.
 *
 * Fastify only moves bytes here: every body arrives as a Buffer (no JSON
 * parser of its own, the pipeline decodes), every method and path goes to one
 * catch-all route. Real-time sockets (collab, streams) are not attached: they
 * are uWS-specific and not measured by the rest scenario.
 *
 * Environment as facade/main.ts (HOST, PORT, DATA_DIR, DATABASE_URL, BODY_LIMIT_BYTES).
 * Listens, then prints READY; SIGTERM closes Fastify, then the services (PGlite released).
 */
import { randomBytes } from "node:crypto"
import Fastify from "fastify"
import { Effect, type Layer } from "effect"
import { services } from "../../facade/Atrium.ts"
import { fromEnv } from "../../facade/Config.ts"
import { atriumRegistry } from "../../facade/operations.ts"
import { type IncomingRequest, respond } from "../../facade/Pipeline.ts"

const config = fromEnv()
const bootId = randomBytes(4).toString("hex")
let counter = 0

const header = (value: string | Array<string> | undefined): string => (typeof value === "string" ? value : value?.[0] ?? "")

const untilSignal = Effect.callback<void>((resume) => {
  process.once("SIGTERM", () => resume(Effect.void))
  process.once("SIGINT", () => resume(Effect.void))
})

const program = Effect.gen(function* () {
  const context = yield* Effect.context<never>()
  const run = Effect.runPromiseWith(context) as unknown as <A>(effect: Effect.Effect<A, never, any>) => Promise<A>

  const app = Fastify({ logger: false, bodyLimit: config.bodyLimitBytes })
  // The pipeline decodes bodies itself (JSON or uploads): hand it the bytes.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body))

  app.get("/healthz", async () => ({ status: "ok" }))
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    url: "/*",
    handler: async (request, reply) => {
      const url = request.raw.url ?? "/"
      const mark = url.indexOf("?")
      const path = mark === -1 ? url : url.slice(0, mark)
      const incomingId = header(request.headers["x-request-id"])
      const requestId = incomingId !== "" && incomingId.length <= 128 && /^[\w.:-]+$/.test(incomingId) ? incomingId : `${bootId}-${(++counter).toString(36)}`
      const body = request.body as Buffer | undefined
      const incoming: IncomingRequest = {
        method: request.method,
        path,
        query: mark === -1 ? "" : url.slice(mark + 1),
        requestId,
        origin: `http://${header(request.headers.host) || `localhost:${config.port}`}`,
        authorization: header(request.headers.authorization),
        apiKey: header(request.headers["x-api-key"]),
        contentType: header(request.headers["content-type"]),
        ifNoneMatch: header(request.headers["if-none-match"]),
        body: body === undefined || body.length === 0 ? undefined : body
      }
      const response = await run(respond(atriumRegistry.router.match(request.method, path), incoming))
      reply.code(response.status).header("x-request-id", requestId).headers(response.headers)
      return reply.send(typeof response.body === "string" ? response.body : Buffer.from(response.body))
    }
  })

  yield* Effect.promise(() => app.listen({ host: config.host, port: config.port }))
  console.log(`READY fastify-facade port=${(app.server.address() as { port: number }).port}`)
  yield* untilSignal
  yield* Effect.promise(() => app.close())
}).pipe(Effect.scoped, Effect.provide(services(config) as unknown as Layer.Layer<never>))

Effect.runPromise(program as Effect.Effect<void>).then(
  () => process.exit(0),
  (error) => {
    console.error("fastify-facade failed:", error)
    process.exit(1)
  }
)
