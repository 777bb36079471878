/**
 * The request pipeline, independent of the socket library: route → authenticate
 * → authorize (auth mode and API-key scopes) → decode path, query and body with
 * the operation's schemas → handler → encode the reply through its response
 * schema (Reply.ts). Every failure leaves as the error envelope; a defect (a
 * reply that does not match its schema too) is logged and answered 500 (a 5xx
 * is a bug).
 */
import { Cause, Effect, Exit, Schema, SchemaIssue, type Stream } from "effect"
import { unstorableText } from "../actors/StorableText.ts"
import { isTransient } from "../runtime/ActorStore.ts"
import { reject, type RejectionDetail } from "../runtime/Rejection.ts"
import { authenticate } from "../actors/auth/Authenticate.ts"
import * as IdempotencyKey from "./IdempotencyKey.ts"
import { envelope, fromFailure, type HttpError, httpError } from "./HttpError.ts"
import type { AnyOperation, RequestContext } from "./Operation.ts"
import type { Principal } from "../actors/identity/Principal.ts"
import { reply } from "./Reply.ts"
import { recordResponse } from "./RequestMetrics.ts"
import type { Match } from "./Router.ts"

export interface IncomingRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly requestId: string
  readonly origin: string
  readonly authorization: string
  readonly apiKey: string
  readonly contentType: string
  readonly ifNoneMatch: string
  /** Every request header, lower-case names (signatures, cookies, internal keys). */
  readonly headers?: Readonly<Record<string, string>>
  /** The peer's address as text (IPv4 or IPv6), for per-address rate limits of public operations. */
  readonly clientIp?: string
  /** `undefined` when the request had no body. */
  readonly body: Uint8Array | undefined
}

export interface OutgoingResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
  /** A body written as it is produced (`body` is then empty): see `StreamedReply`. */
  readonly stream?: Stream.Stream<string | Uint8Array, never, any>
}

const JSON_TYPE = "application/json; charset=utf-8"

export const errorResponse = (error: HttpError, requestId: string): OutgoingResponse => ({
  status: error.status,
  headers: { "content-type": JSON_TYPE, ...error.headers },
  body: envelope(error, requestId)
})

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const decoders = new WeakMap<Schema.Top, (input: unknown) => Exit.Exit<unknown, Schema.SchemaError>>()

const refused = (location: string, details: ReadonlyArray<RejectionDetail>) => {
  const first = details[0]
  return Effect.fail(reject("invalid", first ? `Invalid ${first.path}: ${first.message}` : `Invalid request ${location}`, details))
}

/**
 * Decodes `input` at `location` (path, query or body), naming each offending
 * field. Text no store can hold (NUL, unpaired surrogates) is refused first,
 * for every operation, before any handler or actor sees it.
 */
const decodeAt = (schema: Schema.Top, input: unknown, location: "path" | "query" | "body") => {
  const unstorable = unstorableText(input, location)
  if (unstorable.length > 0) return refused(location, unstorable)
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>, { onExcessProperty: "error", errors: "all" })
    decoders.set(schema, decode)
  }
  const exit = decode(input)
  if (Exit.isSuccess(exit)) return Effect.succeed(exit.value)
  const error = Exit.findErrorOption(exit)
  const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
  const details: Array<RejectionDetail> = issues.map((issue) => ({
    path: [location, ...(issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key))].join("."),
    message: issue.message
  }))
  return refused(location, details)
}

const parseQuery = (query: string): Record<string, string> => {
  const result: Record<string, string> = {}
  if (query === "") return result
  for (const [key, value] of new URLSearchParams(query)) result[key] = value
  return result
}

const authorize = (operation: AnyOperation, principal: Principal | undefined) => {
  if (operation.auth === "public") return Effect.void
  if (principal === undefined) {
    return Effect.fail(reject("unauthorized", "Credentials required: Authorization: Bearer <token or API key>, or X-API-Key"))
  }
  if (principal.kind === "apiKey") {
    if (operation.auth === "jwt") return Effect.fail(reject("forbidden", "This operation requires a user session; API keys are refused"))
    const missing = operation.scopes.filter((scope) => !principal.scopes.includes(scope))
    if (missing.length > 0) return Effect.fail(reject("forbidden", `The API key lacks the scope ${missing.join(", ")}`))
  } else if (operation.auth === "apiKey") {
    return Effect.fail(reject("forbidden", "This operation requires an API key"))
  }
  return Effect.void
}

/** Strict UTF-8 (malformed bytes are a 400); one decoder for all requests, it keeps no state between calls. */
const utf8 = new TextDecoder("utf-8", { fatal: true })
const JSON_CONTENT = /^application\/(?:[\w.+-]+\+)?json\b/i

const decodeBody = (operation: AnyOperation, request: IncomingRequest) => {
  if (operation.body === undefined) return Effect.succeed(undefined)
  if (request.body === undefined || request.body.length === 0) {
    return Effect.fail(reject("invalid", "A JSON request body is required", [{ path: "body", message: "missing" }]))
  }
  if (!JSON_CONTENT.test(request.contentType)) {
    return Effect.fail(reject("unsupported_media_type", "The request body must be application/json"))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(utf8.decode(request.body))
  } catch (error) {
    return Effect.fail(reject("invalid", `Malformed JSON: ${(error as Error).message}`, [{ path: "body", message: "malformed JSON" }]))
  }
  return decodeAt(operation.body, parsed, "body")
}

const decodeUpload = (operation: AnyOperation, request: IncomingRequest) => {
  const upload = operation.upload
  if (upload === undefined) return Effect.succeed(undefined)
  const contentType = request.contentType.split(";")[0]!.trim().toLowerCase()
  if (
    !upload.contentTypes.some(
      (allowed) => allowed === contentType || (allowed.endsWith("/*") && contentType.startsWith(allowed.slice(0, -1)))
    )
  ) {
    return Effect.fail(reject("unsupported_media_type", `Content-Type must be one of ${upload.contentTypes.join(", ")}`))
  }
  if (request.body === undefined || request.body.length === 0) {
    return Effect.fail(reject("invalid", "The upload is empty", [{ path: "body", message: "empty" }]))
  }
  if (request.body.length > upload.maxBytes) return Effect.fail(reject("too_large", `Uploads are limited to ${upload.maxBytes} bytes`))
  return Effect.succeed({ contentType, bytes: request.body })
}

const handle = (match: Match, request: IncomingRequest) => {
  if (match._tag === "NotFound") {
    return Effect.succeed(errorResponse(httpError(404, "not_found", `No route for ${request.method} ${request.path}`), request.requestId))
  }
  if (match._tag === "MethodNotAllowed") {
    return Effect.succeed(
      errorResponse(
        httpError(405, "method_not_allowed", `${request.method} is not allowed here; use ${match.allowed.join(", ")}`, undefined, {
          allow: match.allowed.join(", ")
        }),
        request.requestId
      )
    )
  }
  return handleFound(match, request)
}

/**
 * What a handler learns of its request. A class, so that the peer's address, passed on unread (the server reads
 * it only when a handler asks), is a getter on the prototype: an object literal's getter would give every request
 * its own hidden class.
 */
class HandlerContext implements RequestContext {
  readonly requestId: string
  readonly origin: string
  readonly headers: Readonly<Record<string, string>>

  constructor(
    private readonly request: IncomingRequest,
    readonly principal: Principal | undefined
  ) {
    this.requestId = request.requestId
    this.origin = request.origin
    this.headers = request.headers ?? {}
  }

  get clientIp(): string | undefined {
    return this.request.clientIp
  }
}

/**
 * A routed request. Made once (`fnUntraced`), not per request: V8 builds a new map for every new generator
 * closure, which cost each request microseconds and old-space garbage.
 */
const handleFound = Effect.fnUntraced(function* (match: Extract<Match, { readonly _tag: "Found" }>, request: IncomingRequest) {
  const operation = match.operation
  const principal =
    operation.auth === "public" ? undefined : yield* authenticate({ authorization: request.authorization, apiKey: request.apiKey })
  yield* authorize(operation, principal)
  const params = operation.params ? yield* decodeAt(operation.params, match.params, "path") : undefined
  const query = operation.query ? yield* decodeAt(operation.query, parseQuery(request.query), "query") : undefined
  const body = yield* decodeBody(operation, request)
  const upload = yield* decodeUpload(operation, request)
  const idempotencyKey =
    principal !== undefined && IdempotencyKey.appliesTo(operation) ? yield* IdempotencyKey.parse(request.headers) : undefined
  const handler = operation.handler(
    upload ? { params, query, body, upload } : { params, query, body },
    new HandlerContext(request, principal)
  )
  const result = yield* idempotencyKey === undefined || principal === undefined
    ? handler
    : IdempotencyKey.withKey(handler, idempotencyKey, principal, request.method, request.path)
  const response = yield* reply(operation, result)
  const etag = response.headers.etag
  return etag !== undefined && request.ifNoneMatch === etag
    ? { status: 304, headers: { etag, "cache-control": response.headers["cache-control"] ?? "no-cache" }, body: "" }
    : response
})

/** Never fails: every outcome is a response. */
export const respond = (match: Match, request: IncomingRequest): Effect.Effect<OutgoingResponse, never, any> =>
  handle(match, request).pipe(
    Effect.catchCause((cause) => {
      const failure = Cause.findErrorOption(cause)
      if (failure._tag === "Some") {
        const response = errorResponse(fromFailure(failure.value), request.requestId)
        // 502/504: a vendor system failed or did not answer (named in the message); 503: a transient state. None is a bug here.
        if (response.status < 500 || response.status === 502 || response.status === 503 || response.status === 504)
          return Effect.succeed(response)
        // A defect that crossed the actor boundary as a value (e.g. state that could not be persisted).
        const address = (failure.value as { address?: { kind: string; id: string } }).address
        return Effect.as(
          Effect.logError(
            `defect in ${request.method} ${request.path} (request ${request.requestId})`,
            (failure.value as { message?: string }).message ?? String(failure.value)
          ).pipe(Effect.annotateLogs(address ? { actor: `${address.kind}/${address.id}` } : {})),
          response
        )
      }
      // A database that did not answer, died on the way (orDie): a named 503, not a bug.
      if (isTransient(Cause.squash(cause))) return Effect.succeed(errorResponse(fromFailure(Cause.squash(cause)), request.requestId))
      return Effect.as(
        Effect.logError(`defect in ${request.method} ${request.path} (request ${request.requestId})`, Cause.pretty(cause)),
        errorResponse(httpError(500, "internal", "Internal error"), request.requestId)
      )
    }),
    Effect.tap((response) => Effect.sync(() => recordResponse(response.status)))
  )
