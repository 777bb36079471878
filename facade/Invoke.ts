/**
 * Calls one operation as an HTTP request would, without the socket: the
 * arguments become a path, a query string and a JSON body, and the request
 * runs through the same pipeline (authenticate → authorize → decode → handler
 * → reply encoding). The MCP endpoint and the demo seed use it, so neither
 * can do what the REST API would refuse.
 */
import { Effect, Stream } from "effect"
import type { AnyOperation, ServiceName } from "./Operation.ts"
import { respond } from "./Pipeline.ts"
import { fullPath, type Registry } from "./Registry.ts"

export interface Invocation {
  readonly params?: Readonly<Record<string, string>>
  readonly query?: Readonly<Record<string, string>>
  /** Sent as JSON; absent for operations without a body. */
  readonly body?: unknown
}

/** The caller's credentials, as the headers of an HTTP request would carry them. */
export interface Caller {
  readonly authorization: string
  readonly apiKey: string
  readonly origin: string
  readonly requestId: string
}

export interface InvokeResult {
  readonly status: number
  readonly contentType: string
  /** The parsed JSON body (the error envelope for a 4xx/5xx), the text of any other body, undefined when empty. */
  readonly body: unknown
}

const utf8 = new TextDecoder()

/** The concrete path of `operation` with `params` filled in (each segment percent-encoded). */
export const pathOf = (operation: AnyOperation, params: Readonly<Record<string, string>>): string =>
  fullPath(operation).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

export const invoke = Effect.fnUntraced(function* (registry: Registry, operation: AnyOperation, input: Invocation, caller: Caller) {
  const path = pathOf(operation, input.params ?? {})
  const match = registry.router.match(operation.method, path)
  const response = yield* respond(
    // A value that reads as another route's static segment must not reach that route.
    match._tag === "Found" && match.operation !== operation ? { _tag: "NotFound" } : match,
    {
      method: operation.method,
      path,
      query: new URLSearchParams(input.query ?? {}).toString(),
      requestId: caller.requestId,
      origin: caller.origin,
      authorization: caller.authorization,
      apiKey: caller.apiKey,
      contentType: "application/json",
      ifNoneMatch: "",
      body: input.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(input.body))
    }
  )
  const contentType = response.headers["content-type"] ?? ""
  // A streamed body is read to its end: the caller wants the whole reply.
  const text =
    response.stream !== undefined
      ? yield* Stream.mkString(Stream.map(response.stream, (chunk) => (typeof chunk === "string" ? chunk : utf8.decode(chunk))))
      : typeof response.body === "string"
        ? response.body
        : utf8.decode(response.body)
  const body = text === "" ? undefined : /json/i.test(contentType) ? (JSON.parse(text) as unknown) : text
  return { status: response.status, contentType, body } satisfies InvokeResult
})

/** `invoke` by operation id: for callers that name an operation rather than hold it. */
export const invokeById = (registry: Registry, service: ServiceName, operationId: string, input: Invocation, caller: Caller) => {
  const operation = registry.ofService(service).find((op) => op.operationId === operationId)
  return operation === undefined
    ? Effect.die(new Error(`No ${service} operation ${operationId}`))
    : invoke(registry, operation, input, caller)
}
