/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, on the same
 * uWS app and port as the REST services. The SDK's web-standard transport
 * runs stateless with JSON replies: each POST is a web `Request` built from
 * the uWS request, answered by a fresh MCP server bound to the caller's
 * credentials (authenticated first, exactly as REST does: `X-API-Key`, or
 * `Authorization: Bearer` with an API key or a JWT). No SSE stream is
 * offered: `GET` and `DELETE` answer 405, as the transport specification
 * allows for servers that keep no session.
 *
 * `MCP_ALLOWED_HOSTS` (comma-separated host names, read at startup) refuses
 * requests whose Host or Origin names another host (DNS rebinding guard for a
 * server on a developer's machine); unset, any host is served, as REST is.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Cause, Effect, Exit, Layer } from "effect"
import { authenticate } from "../../actors/auth/Authenticate.ts"
import { extension } from "../Extension.ts"
import { fromFailure, type HttpError, httpError } from "../HttpError.ts"
import { requestIdFrom, statusLine } from "../HttpServer.ts"
import { errorResponse, type OutgoingResponse } from "../Pipeline.ts"
import type { Principal } from "../../actors/identity/Principal.ts"
import { OperationRegistry, type Registry } from "../Registry.ts"
import type { HttpResponse, TemplatedApp } from "../uws.ts"
import { mcpServerFor } from "./McpSession.ts"
import { toolsOf } from "./Tools.ts"

export const MCP_PATH = "/mcp"
const VERSION = "1.0.0"

interface Copied {
  readonly url: string
  /** The Host header as sent (checked against MCP_ALLOWED_HOSTS). */
  readonly host: string
  readonly originHeader: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly requestId: string
  readonly origin: string
  readonly authorization: string
  readonly apiKey: string
}

const HOST = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i

const write = (res: HttpResponse, state: { aborted: boolean }, requestId: string, response: OutgoingResponse) => {
  if (state.aborted) return
  res.cork(() => {
    res.writeStatus(statusLine(response.status))
    res.writeHeader("x-request-id", requestId)
    for (const name in response.headers) res.writeHeader(name, response.headers[name]!)
    res.end(response.body)
  })
}

const refusal = (error: HttpError, requestId: string, extra: Record<string, string> = {}): OutgoingResponse => {
  const response = errorResponse(error, requestId)
  return { ...response, headers: { ...response.headers, ...extra } }
}

/** The uWS request's parts, copied before the handler returns (uWS reuses the object afterwards). */
const copy = (req: {
  forEach: (cb: (key: string, value: string) => void) => void
  getHeader: (name: string) => string
  getQuery: () => string | undefined
}): Copied => {
  const headers: Array<readonly [string, string]> = []
  req.forEach((key, value) => {
    headers.push([key, value])
  })
  // The Host header names the origin of links in replies; anything that is not a host[:port] is ignored.
  const hostHeader = req.getHeader("host")
  const origin = `http://${HOST.test(hostHeader) ? hostHeader : "localhost"}`
  const query = req.getQuery()
  return {
    url: `${origin}${MCP_PATH}${query ? `?${query}` : ""}`,
    host: hostHeader,
    originHeader: req.getHeader("origin"),
    headers,
    requestId: requestIdFrom(req.getHeader("x-request-id")),
    origin,
    authorization: req.getHeader("authorization"),
    apiKey: req.getHeader("x-api-key")
  }
}

/** Reads the body up to `limit` bytes; `undefined` when it is larger (the caller answers 413). */
const readBody = (res: HttpResponse, limit: number, done: (body: Uint8Array | undefined) => void) => {
  const chunks: Array<Buffer> = []
  let received = 0
  let over = false
  res.onData((chunk, isLast) => {
    received += chunk.byteLength
    if (received > limit) over = true
    if (!over) chunks.push(Buffer.from(chunk.slice(0)))
    if (isLast) done(over ? undefined : Buffer.concat(chunks))
  })
}

export interface McpEndpointOptions {
  readonly registry: Registry
  readonly bodyLimitBytes: number
  /** Host names a request's Host and Origin may name; empty: any. */
  readonly allowedHosts: ReadonlyArray<string>
}

export const allowedHostsFromEnv = (env: NodeJS.ProcessEnv = process.env): ReadonlyArray<string> =>
  (env.MCP_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== "")

/** The host name of a Host header value or an origin URL, without port or brackets. */
const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname.replace(/^\[|\]$/g, "").toLowerCase()
  } catch {
    return undefined
  }
}

/** Whether Host (and Origin, when sent) name an allowed host. */
export const hostAllowed = (copied: Pick<Copied, "host" | "originHeader">, allowed: ReadonlyArray<string>): boolean => {
  if (allowed.length === 0) return true
  const ok = (value: string) => {
    const hostname = hostnameOf(value)
    return hostname !== undefined && allowed.includes(hostname)
  }
  return ok(copied.host) && (copied.originHeader === "" || ok(copied.originHeader))
}

export const attachMcp = (app: TemplatedApp, options: McpEndpointOptions) =>
  Effect.gen(function* () {
    const tools = toolsOf(options.registry.operations)
    const context = yield* Effect.context<never>()
    const runExit = Effect.runPromiseExitWith(context) as <A, E>(effect: Effect.Effect<A, E, any>) => Promise<Exit.Exit<A, E>>
    // MCP handlers are promises: a failure is thrown as its error (an McpError reaches the client as a JSON-RPC error).
    const run = async <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => {
      const exit = await runExit(effect)
      if (Exit.isSuccess(exit)) return exit.value
      throw Cause.squash(exit.cause)
    }

    const answer = async (copied: Copied, body: Uint8Array): Promise<OutgoingResponse> => {
      if (!hostAllowed(copied, options.allowedHosts)) {
        return refusal(httpError(403, "forbidden", `Host ${copied.host} is not allowed (MCP_ALLOWED_HOSTS)`), copied.requestId)
      }
      const authenticated = await runExit(authenticate({ authorization: copied.authorization, apiKey: copied.apiKey }))
      if (Exit.isFailure(authenticated)) {
        const failure = Cause.findErrorOption(authenticated.cause)
        if (failure._tag === "Some") return refusal(fromFailure(failure.value), copied.requestId)
        throw Cause.squash(authenticated.cause)
      }
      const principal: Principal | undefined = authenticated.value
      if (principal === undefined) {
        return refusal(
          httpError(401, "unauthorized", "Credentials required: X-API-Key, or Authorization: Bearer <API key or token>"),
          copied.requestId,
          { "www-authenticate": 'Bearer realm="atrium"' }
        )
      }
      const server = mcpServerFor({
        registry: options.registry,
        tools,
        principal,
        caller: { authorization: copied.authorization, apiKey: copied.apiKey, origin: copied.origin, requestId: copied.requestId },
        run,
        version: VERSION
      })
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      try {
        await server.connect(transport)
        const response = await transport.handleRequest(
          new Request(copied.url, { method: "POST", headers: copied.headers as Array<[string, string]>, body })
        )
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          headers[name] = value
        })
        return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) }
      } finally {
        await server.close()
      }
    }

    // Drain like the REST routes: refuse new calls, let those under way finish before the database closes.
    let inFlight = 0
    let draining = false
    let drained: (() => void) | undefined
    const settle = () => {
      inFlight--
      if (draining && inFlight === 0) drained?.()
    }
    yield* Effect.addFinalizer(() =>
      Effect.callback<void>((resume) => {
        draining = true
        if (inFlight === 0) resume(Effect.void)
        else drained = () => resume(Effect.void)
      })
    )

    app.post(MCP_PATH, (res, req) => {
      const copied = copy(req)
      const state = { aborted: false }
      if (draining) {
        const unavailable = httpError(503, "unavailable", "Server is shutting down")
        return write(res, state, copied.requestId, refusal(unavailable, copied.requestId, { "retry-after": "1" }))
      }
      // Counted from now until answered, or until the client leaves before its body has arrived.
      inFlight++
      let counted = true
      let dispatched = false
      const release = () => {
        if (counted) {
          counted = false
          settle()
        }
      }
      res.onAborted(() => {
        state.aborted = true
        if (!dispatched) release()
      })
      readBody(res, options.bodyLimitBytes, (body) => {
        dispatched = true
        if (body === undefined) {
          release()
          return write(
            res,
            state,
            copied.requestId,
            refusal(httpError(413, "too_large", `Request bodies are limited to ${options.bodyLimitBytes} bytes`), copied.requestId)
          )
        }
        answer(copied, body)
          .then(
            (response) => write(res, state, copied.requestId, response),
            (error: unknown) => {
              console.error(`defect in POST ${MCP_PATH} (request ${copied.requestId})`, error)
              write(res, state, copied.requestId, refusal(httpError(500, "internal", "Internal error"), copied.requestId))
            }
          )
          .finally(release)
      })
    })

    const notAllowed = (res: HttpResponse, req: { getHeader: (name: string) => string }) => {
      const requestId = requestIdFrom(req.getHeader("x-request-id"))
      write(
        res,
        { aborted: false },
        requestId,
        refusal(httpError(405, "method_not_allowed", "This MCP endpoint keeps no session and offers no SSE stream: use POST"), requestId, {
          allow: "POST"
        })
      )
    }
    app.get(MCP_PATH, notAllowed)
    app.del(MCP_PATH, notAllowed)
  })

export const mcpExtension = extension({
  name: "mcp",
  layer: () => Layer.empty,
  attach: (app, config) =>
    Effect.gen(function* () {
      const registry = yield* OperationRegistry
      yield* attachMcp(app, { registry, bodyLimitBytes: config.bodyLimitBytes, allowedHosts: allowedHostsFromEnv() })
    })
})
