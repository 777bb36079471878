/**
 * An Operation is one documented endpoint, declared once as data: its route,
 * schemas, auth mode, scopes, examples and handler. The route table, request
 * validation, the catalog tiers and the OpenAPI documents all derive from it.
 */
import type { Effect, Schema, Stream } from "effect"
import type { ActorError } from "../runtime/ActorError.ts"
import type { Rejection } from "../runtime/Rejection.ts"
import type { DomainError } from "./HttpError.ts"
import type { Principal } from "../actors/identity/Principal.ts"

export type ServiceName = "hub" | "pm" | "wiki" | "feedback"
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/**
 * public: no credentials. jwt: a user session only (API keys refused with 403).
 * apiKey: an API key only. both: either.
 */
export type AuthMode = "public" | "jwt" | "apiKey" | "both"

export interface ResponseSpec {
  readonly description: string
  /** The JSON body; every JSON reply declares one, and the reply is encoded through it. */
  readonly schema?: Schema.Top
  /**
   * The media type(s) served when not only JSON: a download, an export, a format chosen by the caller.
   * One valid media type each (a range such as `image/*` when the body keeps a stored file's own type);
   * a JSON type among them takes `schema`.
   */
  readonly contentType?: string | ReadonlyArray<string>
}

/** The media types a response may carry: the declared ones, else JSON when it has a schema. */
export const mediaTypesOf = (spec: ResponseSpec): ReadonlyArray<string> =>
  spec.contentType === undefined
    ? spec.schema
      ? ["application/json"]
      : []
    : typeof spec.contentType === "string"
      ? [spec.contentType]
      : spec.contentType

/** `type/subtype`, lower case, without parameters. */
export const essenceOf = (mediaType: string): string => mediaType.split(";")[0]!.trim().toLowerCase()

export const isJsonMediaType = (mediaType: string): boolean => /^application\/(?:[\w.-]+\+)?json$/.test(essenceOf(mediaType))

/** Marks an operation as a tool of the MCP endpoint (`POST /mcp`): agents call it by this name. */
export interface McpTool {
  /** The tool's name (unique; lower camel case, e.g. `createTask`). */
  readonly tool: string
  /** What the agent reads; the operation's summary and description when absent. */
  readonly description?: string
}

export interface Example {
  readonly name: string
  readonly summary?: string
  readonly request?: {
    readonly params?: Record<string, string>
    readonly query?: Record<string, string>
    readonly body?: unknown
  }
  readonly response: { readonly status: number; readonly body?: unknown }
}

export interface RequestContext {
  readonly requestId: string
  /** Absent only for public operations. */
  readonly principal: Principal | undefined
  /** `http://host:port` as the caller addressed us, for links in responses. */
  readonly origin: string
  /** The request headers the operation declares (`Contract.headers`), lower-case names; absent ones are left out. */
  readonly headers?: Readonly<Record<string, string>>
  /** The peer's address (absent when not served over a socket), for per-address rate limits of public operations. */
  readonly clientIp?: string
}

/** A non-JSON reply (a download, an export). */
export interface RawReply {
  readonly _tag: "RawReply"
  readonly status?: number
  readonly contentType: string
  readonly body: Uint8Array | string
  readonly headers?: Record<string, string>
}

export const raw = (contentType: string, body: Uint8Array | string, headers?: Record<string, string>): RawReply => ({
  _tag: "RawReply",
  contentType,
  body,
  ...(headers ? { headers } : {})
})

/**
 * A reply written as it is produced (server-sent events): the status and
 * headers go out first, then each chunk the stream emits. The stream runs
 * only once the reply is being sent, and closing the connection interrupts
 * it, so whatever produces it stops with the client.
 */
export interface StreamedReply {
  readonly _tag: "StreamedReply"
  readonly contentType: string
  readonly body: Stream.Stream<string | Uint8Array, never, any>
  readonly headers?: Record<string, string>
}

export const streamed = (
  contentType: string,
  body: Stream.Stream<string | Uint8Array, never, any>,
  headers?: Record<string, string>
): StreamedReply => ({
  _tag: "StreamedReply",
  contentType,
  body,
  ...(headers ? { headers } : {})
})

type TypeOf<S> = S extends Schema.Top ? S["Type"] : undefined

export interface Decoded<P, Q, B> {
  readonly params: TypeOf<P>
  readonly query: TypeOf<Q>
  readonly body: TypeOf<B>
  /** Raw bytes of a non-JSON upload (when `upload` is declared). */
  readonly upload?: { readonly contentType: string; readonly bytes: Uint8Array; readonly filename?: string }
}

/** An operation's responses, by status; the first 2xx is the success status. */
export type Responses = Readonly<Record<number, ResponseSpec>>

/**
 * What a handler may return for one response: the schema's `Type` for JSON,
 * or an already serialized reply (cached JSON documents are checked once at
 * run time, Reply.ts), a raw or streamed body where a media type is declared,
 * and nothing for a response without content (204).
 */
export type ReplyOf<S> = S extends { readonly contentType: string | ReadonlyArray<string> }
  ? RawReply | StreamedReply | (S extends { readonly schema: Schema.Top } ? S["schema"]["Type"] : never)
  : S extends { readonly schema: Schema.Top }
    ? S["schema"]["Type"] | RawReply
    : NoContent

/** What a handler of a reply without content returns: `Effect.void`, a generator that returns nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: the result type of Effect.void and of a generator without return is void
type NoContent = void

/** The reply of the first 2xx status (integer keys enumerate in ascending order, so the lowest). */
export type SuccessOf<Rs> = 200 extends keyof Rs
  ? ReplyOf<Rs[200]>
  : 201 extends keyof Rs
    ? ReplyOf<Rs[201]>
    : 202 extends keyof Rs
      ? ReplyOf<Rs[202]>
      : 203 extends keyof Rs
        ? ReplyOf<Rs[203]>
        : 204 extends keyof Rs
          ? NoContent
          : 206 extends keyof Rs
            ? ReplyOf<Rs[206]>
            : unknown

/**
 * An operation as its tag file declares it: route, schemas, auth, responses,
 * MCP flag and handler. The tag group adds the service, the tag and the
 * examples (kept in the sibling `<Tag>.examples.ts`).
 */
export interface Contract<
  P extends Schema.Top | undefined = any,
  Q extends Schema.Top | undefined = any,
  B extends Schema.Top | undefined = any,
  R = any,
  Rs extends Responses = any
> {
  readonly operationId: string
  readonly method: HttpMethod
  /** Relative to the service base, e.g. `/v1/workspaces/{workspaceId}`. */
  readonly path: string
  readonly summary: string
  readonly description?: string
  readonly auth: AuthMode
  /** API-key scopes the caller's key must hold (all of them). */
  readonly scopes: ReadonlyArray<string>
  readonly params?: P
  readonly query?: Q
  readonly body?: B
  /** Accepts a raw (non-JSON) upload of these content types instead of a JSON body. */
  readonly upload?: { readonly contentTypes: ReadonlyArray<string>; readonly maxBytes: number }
  /** By status; the first 2xx is the success status. */
  readonly responses: Rs
  /** Offered to agents as an MCP tool (facade/mcp/): a curated few, not every operation. */
  readonly mcp?: McpTool
  /**
   * Request headers the handler reads from `context.headers` (besides the credentials and Idempotency-Key every
   * operation gets, facade/RequestHeaders.ts); no other header is copied for it.
   */
  readonly headers?: ReadonlyArray<string>
  /** Typed by the first 2xx response: returning anything else is a compile error. */
  readonly handler: (
    request: Decoded<P, Q, B>,
    context: RequestContext
  ) => Effect.Effect<SuccessOf<Rs>, Rejection | ActorError | DomainError, R>
}

/** One documented endpoint: its contract, filed under a service and a tag, with its examples. */
export interface Operation<
  P extends Schema.Top | undefined = any,
  Q extends Schema.Top | undefined = any,
  B extends Schema.Top | undefined = any,
  R = any,
  Rs extends Responses = any
> extends Contract<P, Q, B, R, Rs> {
  readonly service: ServiceName
  readonly tag: string
  readonly examples: ReadonlyArray<Example>
}

export type AnyOperation = Operation<any, any, any, any, any>

/** A tag's examples by operationId (a `<Tag>.examples.ts` exports one). */
export type ExamplesById = Readonly<Record<string, ReadonlyArray<Example>>>

/** A tag's examples, each checked as an `Example`, keeping their operationIds for `tagGroup`. */
export const examplesById = <const E extends ExamplesById>(examples: E): E => examples

/**
 * An operation's own examples: none when the tag's examples file has them
 * under its operationId, else given here (operations a factory stamps out).
 * A renamed operation whose examples stayed behind is a compile error.
 */
export type OwnExamples<E, Id extends string> = string extends Id
  ? { readonly examples: ReadonlyArray<Example> }
  : Id extends keyof E
    ? { readonly examples?: never }
    : { readonly examples: ReadonlyArray<Example> }

export interface TagGroup<E extends ExamplesById> {
  readonly service: ServiceName
  readonly tag: string
  /** Declares an operation of the tag; the generic parameters tie the handler to its schemas and its success response. */
  readonly operation: <
    P extends Schema.Top | undefined = undefined,
    Q extends Schema.Top | undefined = undefined,
    B extends Schema.Top | undefined = undefined,
    R = never,
    const Rs extends Responses = Responses,
    const Id extends string = string
  >(
    contract: Contract<P, Q, B, R, Rs> & { readonly operationId: Id } & OwnExamples<E, Id>
  ) => Operation<P, Q, B, R, Rs>
}

/** The operations of one tag of one service: a tag file writes its service and tag once, its examples beside it. */
export const tagGroup = <const E extends ExamplesById = {}>(service: ServiceName, tag: string, examples?: E): TagGroup<E> => ({
  service,
  tag,
  operation: (contract) => ({
    ...contract,
    service,
    tag,
    examples: contract.examples ?? examples?.[contract.operationId] ?? []
  })
})

export const successStatus = (op: AnyOperation): number => Number(Object.keys(op.responses).find((status) => status.startsWith("2")) ?? 200)
