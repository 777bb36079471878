/**
 * The uWebSockets.js server: one app, one port, all four services. This file
 * only moves bytes: it copies what it needs from the request synchronously
 * (uWS invalidates the request object when the handler returns), buffers the
 * body up to the route's limit (refusing larger ones without buffering them),
 * runs the pipeline as one fiber per request, and writes the response corked.
 * Real-time sockets attach to the same app.
 */
import { randomBytes } from "node:crypto"
import { Cause, Context, Effect, Fiber, Stream } from "effect"
import { httpError } from "./HttpError.ts"
import { errorResponse, type IncomingRequest, type OutgoingResponse, respond } from "./Pipeline.ts"
import type { Registry } from "./Registry.ts"
import { headersFor } from "./RequestHeaders.ts"
import { type HttpResponse, type TemplatedApp, type us_listen_socket, uws } from "./uws.ts"

export interface HttpServerOptions {
  readonly host: string
  readonly port: number
  /** Largest JSON body accepted (uploads declare their own limit). */
  readonly bodyLimitBytes: number
}

export interface RunningServer {
  readonly app: TemplatedApp
  readonly port: number
  /** Stop accepting connections, then wait for in-flight requests to finish. */
  readonly close: Effect.Effect<void>
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable"
}

/** Status lines built once ("200 OK"), not per response. */
const STATUS_LINE = new Map(Object.entries(STATUS_TEXT).map(([status, text]) => [Number(status), `${status} ${text}`]))
export const statusLine = (status: number) => STATUS_LINE.get(status) ?? `${status} `

const addressText = new TextDecoder()

/**
 * A request as uWS handed it over, with the connection's state. A class, so that the lazily read peer
 * address is a getter on the prototype: an object literal's getter gives every request its own hidden
 * class, which cost each request microseconds and old-space garbage.
 */
class UwsRequest implements IncomingRequest {
  /** Filled in when the body has arrived (none for most requests). */
  body: Uint8Array | undefined = undefined
  /** The client went away (or was refused): the response may not be touched again. */
  aborted = false
  private address: string | undefined = undefined

  constructor(
    private readonly res: HttpResponse,
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly requestId: string,
    readonly origin: string,
    readonly authorization: string,
    readonly apiKey: string,
    readonly contentType: string,
    readonly ifNoneMatch: string,
    readonly headers: Readonly<Record<string, string>>
  ) {}

  /** Read when a handler asks (a few public operations): uWS asks the kernel for the peer's address each time. */
  get clientIp(): string | undefined {
    if (this.address === undefined && !this.aborted) this.address = addressText.decode(this.res.getRemoteAddressAsText())
    return this.address
  }
}

const bootId = randomBytes(4).toString("hex")
let requestCounter = 0
const SAFE_REQUEST_ID = /^[\w.:-]+$/
export const requestIdFrom = (header: string): string =>
  header !== "" && header.length <= 128 && SAFE_REQUEST_ID.test(header) ? header : `${bootId}-${(++requestCounter).toString(36)}`

/**
 * Bytes of an over-limit body read and dropped before answering 413: a client
 * still sending when the connection closes sees EPIPE or a reset instead of
 * the answer. Beyond this bound the connection is cut without waiting.
 */
const DISCARD_BYTES = 16 * 1024 * 1024

const write = (res: HttpResponse, requestId: string, response: OutgoingResponse, closeAfter = false): void => {
  res.cork(() => {
    res.writeStatus(statusLine(response.status))
    res.writeHeader("x-request-id", requestId)
    for (const name in response.headers) res.writeHeader(name, response.headers[name]!)
    // `end(…, true)` writes `Connection: close` itself.
    res.end(response.body, closeAfter)
  })
}

/**
 * Writes a streamed reply: status and headers at once, then each chunk as
 * it comes (chunked transfer encoding), then the end. Runs as its own fiber,
 * which `onAborted` interrupts: a client that goes away stops the producer.
 */
const writeStream = (
  res: HttpResponse,
  requestId: string,
  response: OutgoingResponse,
  stream: Stream.Stream<string | Uint8Array, never, any>,
  connection: { aborted: boolean }
) =>
  Effect.suspend(() => {
    if (connection.aborted) return Effect.void
    res.cork(() => {
      res.writeStatus(statusLine(response.status))
      res.writeHeader("x-request-id", requestId)
      for (const name in response.headers) res.writeHeader(name, response.headers[name]!)
    })
    return Stream.runForEach(stream, (chunk) =>
      Effect.suspend(() => {
        if (connection.aborted) return Effect.void
        let drained = true
        res.cork(() => {
          drained = res.write(chunk)
        })
        // Backpressure: the socket is full, wait until uWS drained it before producing more.
        return drained
          ? Effect.void
          : Effect.callback<void>((resume) => {
              res.onWritable(() => {
                resume(Effect.void)
                return true
              })
            })
      })
    ).pipe(
      // A producer that dies mid-reply is a bug: logged, and the reply ends where it stopped.
      Effect.catchCause((cause) => Effect.logError(`streamed reply failed (request ${requestId})`, Cause.pretty(cause))),
      Effect.andThen(
        Effect.sync(() => {
          if (!connection.aborted) res.cork(() => res.end())
        })
      )
    )
  })

export const serve = <R = never>(
  registry: Registry,
  options: HttpServerOptions,
  configure?: (app: TemplatedApp) => Effect.Effect<void, never, R>
) =>
  Effect.gen(function* () {
    // Handlers need the services the server is built in (actors, SQL, tokens…):
    // capture that context once and run each request's fiber with it. Cast: operation handlers are typed with `any`
    // services (the registry holds every service's), so their requirements cannot be named here.
    const context = yield* Effect.context<never>()
    const run = Effect.runForkWith(context) as unknown as (effect: Effect.Effect<void, never, any>) => Fiber.Fiber<void>
    let inFlight = 0
    let draining = false
    let drained: (() => void) | undefined
    const settle = () => {
      inFlight--
      if (draining && inFlight === 0) drained?.()
    }

    const app = uws.App()
    if (configure) yield* configure(app)

    app.get("/healthz", (res) => {
      res.cork(() => {
        res.writeStatus(draining ? "503 Service Unavailable" : "200 OK").writeHeader("content-type", "application/json")
        res.end(draining ? '{"status":"draining"}' : '{"status":"ok"}')
      })
    })

    // Clients keep sending the same Host: build its origin once, not per request.
    let lastHost: string | undefined
    let lastOrigin = ""
    const originOf = (host: string) => {
      if (host !== lastHost) {
        lastHost = host
        lastOrigin = `http://${host || `localhost:${options.port}`}`
      }
      return lastOrigin
    }

    app.any("/*", (res, req) => {
      const method = req.getCaseSensitiveMethod().toUpperCase()
      const path = req.getUrl()
      const requestId = requestIdFrom(req.getHeader("x-request-id"))
      const contentLength = req.getHeader("content-length")
      const chunked = req.getHeader("transfer-encoding") !== ""
      const expectsContinue = req.getHeader("expect").toLowerCase() === "100-continue"
      const match = registry.router.match(method, path)
      const request = new UwsRequest(
        res,
        method,
        path,
        req.getQuery() ?? "",
        requestId,
        originOf(req.getHeader("host")),
        req.getHeader("authorization"),
        req.getHeader("x-api-key"),
        req.getHeader("content-type"),
        req.getHeader("if-none-match"),
        match._tag === "Found" ? headersFor(match.operation, req) : {}
      )
      // A streamed reply's fiber, interrupted when the client goes away.
      let streaming: Fiber.Fiber<void> | undefined
      res.onAborted(() => {
        request.aborted = true
        if (streaming !== undefined) Effect.runFork(Fiber.interrupt(streaming))
      })
      if (draining) {
        write(
          res,
          requestId,
          errorResponse(httpError(503, "unavailable", "Server is shutting down", undefined, { "retry-after": "1" }), requestId),
          true
        )
        return
      }
      const limit = match._tag === "Found" && match.operation.upload ? match.operation.upload.maxBytes : options.bodyLimitBytes
      const tooLarge = () => errorResponse(httpError(413, "too_large", `Request bodies are limited to ${limit} bytes`), requestId)

      const dispatch = (body: Uint8Array | undefined) => {
        request.body = body
        inFlight++
        // Whether the pipeline is still running inside uWS's callback (a reply with nothing to wait for).
        let inCallback = true
        const finish = (response: OutgoingResponse) => {
          if (!request.aborted) write(res, requestId, response)
          settle()
        }
        run(
          Effect.flatMap(respond(match, request), (response) =>
            Effect.sync(() => {
              if (response.stream === undefined || request.aborted) {
                // A reply ready inside the callback goes out after it (with the loop turn's others): written inside
                // it, the server ran a fifth slower (the catalog GET: 20–24k → 25–28k requests/s, 41–49 → 34–38 µs
                // of CPU each, alternated on one machine).
                if (inCallback) setImmediate(finish, response)
                else finish(response)
                return
              }
              streaming = run(Effect.ensuring(writeStream(res, requestId, response, response.stream, request), Effect.sync(settle)))
            })
          )
        )
        inCallback = false
      }

      const declared = contentLength === "" ? 0 : Number(contentLength)
      if (!chunked && declared === 0) return dispatch(undefined)
      const refuse = () => {
        request.aborted = true
        write(res, requestId, tooLarge(), true)
      }
      // A client waiting for 100 Continue sends nothing more once it reads a final status.
      // (uWS 20.30 writes the interim 100 itself before any handler runs; the 413 follows at once.)
      if (declared > limit && (expectsContinue || declared > limit + DISCARD_BYTES)) return refuse()
      // Collect the body; uWS reuses each chunk's memory after the callback returns, so copy.
      // Over the limit, read and drop the rest (up to a bound), then answer: see DISCARD_BYTES.
      const chunks: Array<Buffer> = []
      let received = 0
      let over = declared > limit
      res.onData((chunk, isLast) => {
        if (request.aborted) return
        received += chunk.byteLength
        if (!over && received > limit) {
          over = true
          chunks.length = 0
        }
        if (over) {
          if (isLast || received > limit + DISCARD_BYTES) refuse()
          return
        }
        chunks.push(Buffer.from(chunk.slice(0)))
        if (isLast) dispatch(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
      })
    })

    const listenSocket = yield* Effect.callback<us_listen_socket>((resume) => {
      app.listen(options.host, options.port, (socket) => {
        resume(socket ? Effect.succeed(socket) : Effect.die(new Error(`Cannot listen on ${options.host}:${options.port}`)))
      })
    })
    const port = uws.us_socket_local_port(listenSocket)

    const close = Effect.callback<void>((resume) => {
      if (draining) return resume(Effect.void)
      draining = true
      uws.us_listen_socket_close(listenSocket)
      if (inFlight === 0) resume(Effect.void)
      else drained = () => resume(Effect.void)
    })
    return { app, port, close } satisfies RunningServer
  })

export class HttpServer extends Context.Service<HttpServer, RunningServer>()("atrium/facade/HttpServer") {}
