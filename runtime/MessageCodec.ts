/**
 * How asks and their outcomes cross NATS: JSON text, with every payload and
 * success value encoded by its message's Schema (`Schema.toCodecJson`, so a
 * `Date` or a `Map` in a payload survives) and validated on receipt.
 *
 *   request  {"ms":<remaining millis>,"k":<kind>,"i":<id>,"t":<tag>,"p":<payload>,"ik":<idempotency key>}
 *            {"ms":…,"r":1,"k":…}   (a re-send of "ik": answer from its record if it was processed)
 *            {"ms":…,"k":<kind>,"i":<id>,"t":"","inv":1}   (invalidate the live activation's state)
 *   reply    {"ok":<success>} | {"rej":<Rejection>} | {"err":<ActorError>} | {"moved":<shard>}
 *
 * `moved` means "not processed here, retry on the owner"; Rejections and
 * ActorErrors travel as their tagged JSON and are decoded back to instances.
 */
import { Cause, Effect, type Exit, Option, Schema } from "effect"
import type { ActorAddress, ActorKind, MessageSchemas } from "./Actor.ts"
import { ActorDefect, type ActorError, ActorOverloaded, ActorTimeout, ActorUnavailable } from "./ActorError.ts"
import { NotServed, type Outcome } from "./Envelope.ts"
import { Rejection } from "./Rejection.ts"

/**
 * The largest message NATS carries: its server's default `max_payload` (1 MiB), which a cluster keeps. A request
 * or reply above it never arrives, so a kind must page what could grow past it (see `oversized`).
 */
export const MAX_MESSAGE_BYTES = 1_048_576

/** Why a message of `bytes` cannot cross NATS, or `undefined` when it fits. */
export const oversized = (what: string, bytes: number): string | undefined =>
  bytes > MAX_MESSAGE_BYTES ? `${what} is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte NATS message cap: page it` : undefined

type Encode = (input: unknown) => Effect.Effect<unknown, Schema.SchemaError>
type EncodeSync = (input: unknown) => Exit.Exit<unknown, Schema.SchemaError>

export interface MessageCodec {
  readonly encodePayload: Encode
  readonly decodePayload: Encode
  readonly encodeSuccess: EncodeSync
  readonly decodeSuccess: Encode
  /** The message's domain failure (its `error` schema or Rejection). */
  readonly isError: (u: unknown) => boolean
  readonly encodeError: EncodeSync
  readonly decodeError: Encode
}

/**
 * The JSON form of a schema (dates as strings and the like), as messages cross NATS and responses leave the facade.
 * Cast: message and response schemas need no services (any node decodes them), which `Schema.Top`'s service types
 * cannot say.
 */
export const jsonCodec = (schema: Schema.Top) => Schema.toCodecJson(schema) as unknown as Schema.Codec<unknown, unknown>

// Built once per (kind, tag), not per message.
const cache = new WeakMap<ActorKind, Map<string, MessageCodec>>()

/** The codec of a message, or `undefined` if the kind has no such message. */
export const codecFor = (kind: ActorKind, tag: string): MessageCodec | undefined => {
  let byTag = cache.get(kind)
  if (byTag === undefined) {
    byTag = new Map()
    cache.set(kind, byTag)
  }
  let codec = byTag.get(tag)
  if (codec === undefined) {
    const schemas = (kind.messages as Record<string, MessageSchemas | undefined>)[tag]
    if (schemas === undefined || !Object.hasOwn(kind.messages, tag)) return undefined
    const payload = jsonCodec(schemas.payload)
    const success = jsonCodec(schemas.success)
    // A message with declared errors still answers a Rejection it meets (e.g. a payload refused on receipt).
    const errors = schemas.error === undefined ? Rejection : Schema.Union([schemas.error, Rejection])
    const error = jsonCodec(errors)
    codec = {
      encodePayload: Schema.encodeUnknownEffect(payload),
      decodePayload: Schema.decodeUnknownEffect(payload),
      encodeSuccess: Schema.encodeUnknownExit(success),
      decodeSuccess: Schema.decodeUnknownEffect(success),
      isError: Schema.is(errors),
      encodeError: Schema.encodeUnknownExit(error),
      decodeError: Schema.decodeUnknownEffect(error)
    }
    byTag.set(tag, codec)
  }
  return codec
}

// Rejections of no particular message (unknown kind or tag, malformed request).
const encodeRejection = Schema.encodeUnknownExit(jsonCodec(Rejection))
const ActorErrorJson = jsonCodec(Schema.Union([ActorOverloaded, ActorTimeout, ActorDefect, ActorUnavailable]))
const encodeActorError = Schema.encodeUnknownExit(ActorErrorJson)
const decodeActorError = Schema.decodeUnknownEffect(ActorErrorJson)

export interface Request {
  readonly ms: number
  readonly k: string
  readonly i: string
  readonly t: string
  readonly p: unknown
  /** 1: not a message but an invalidation of the live activation's rebuilt state. */
  readonly inv?: 1
  /** A write's idempotency key (see `RequestLog.ts`). */
  readonly ik?: string
  /** 1: the sender may have sent `ik` before (its earlier attempt's outcome is unknown). */
  readonly r?: 1
}

/**
 * The request without its deadline; `withDeadline` prepends it per attempt
 * (the remaining time shrinks between retries, the rest does not).
 */
export const encodeRequestBody = (kind: string, id: string, tag: string, payload: unknown, key?: string): string =>
  JSON.stringify(key === undefined ? { k: kind, i: id, t: tag, p: payload } : { k: kind, i: id, t: tag, p: payload, ik: key })

export const encodeInvalidation = (kind: string, id: string): string => JSON.stringify({ k: kind, i: id, t: "", inv: 1 })

export const withDeadline = (body: string, remainingMillis: number, resend = false): string =>
  `{"ms":${Math.max(0, Math.floor(remainingMillis))},${resend ? '"r":1,' : ""}` + body.slice(1)

/** Parses a request; `undefined` if it is not one. */
export const decodeRequest = (text: string): Request | undefined => {
  try {
    const r = JSON.parse(text)
    return r !== null &&
      typeof r === "object" &&
      typeof r.k === "string" &&
      typeof r.i === "string" &&
      typeof r.t === "string" &&
      typeof r.ms === "number" &&
      (r.ik === undefined || typeof r.ik === "string")
      ? (r as Request)
      : undefined
  } catch {
    return undefined
  }
}

const stringifyExit = (exit: Exit.Exit<unknown, unknown>, field: string, fallback: () => string): string =>
  exit._tag === "Success" ? JSON.stringify({ [field]: exit.value }) : fallback()

const defectReply = (address: ActorAddress, message: string): string =>
  JSON.stringify({ err: { _tag: "ActorDefect", address: { kind: address.kind, id: address.id }, message } })

/**
 * Encodes an outcome as a reply (synchronously: it runs in the activation's
 * fiber when it answers). A success that does not match its schema is a
 * defect of the handler and is reported as ActorDefect.
 */
export const encodeOutcome = (address: ActorAddress, codec: MessageCodec | undefined, outcome: Outcome): string => {
  if (outcome._tag === "Success") {
    if (codec === undefined) return defectReply(address, "no codec for the reply")
    return stringifyExit(codec.encodeSuccess(outcome.value), "ok", () =>
      defectReply(address, "the reply does not match the message's success schema")
    )
  }
  const value = Option.getOrUndefined(Cause.findErrorOption(outcome.cause))
  if (value instanceof NotServed) return JSON.stringify({ moved: value.shard })
  if (codec?.isError(value)) {
    return stringifyExit(codec.encodeError(value), "rej", () => defectReply(address, "unencodable rejection"))
  }
  if (value instanceof Rejection) {
    return stringifyExit(encodeRejection(value), "rej", () => defectReply(address, "unencodable rejection"))
  }
  if (value !== undefined) {
    return stringifyExit(encodeActorError(value), "err", () => defectReply(address, "unencodable error"))
  }
  return defectReply(address, "request failed without an error value")
}

/** Reply outcome, decoded: `moved` is surfaced as NotServed so the sender retries. */
export const decodeReply = (
  address: ActorAddress,
  codec: MessageCodec,
  shard: number,
  text: string
): Effect.Effect<unknown, Rejection | ActorError | NotServed> => {
  let reply: Record<string, unknown>
  try {
    reply = JSON.parse(text)
  } catch {
    return Effect.fail(new ActorDefect({ address, message: "malformed reply" }))
  }
  const invalid = (what: string) => () => Effect.fail(new ActorDefect({ address, message: `invalid ${what} in reply` }))
  if ("ok" in reply) return Effect.catch(codec.decodeSuccess(reply.ok), invalid("success value"))
  if ("rej" in reply) {
    return Effect.flatMap(Effect.catch(codec.decodeError(reply.rej), invalid("rejection")), (rejection) =>
      Effect.fail(rejection as Rejection)
    )
  }
  if ("err" in reply) {
    return Effect.flatMap(Effect.catch(decodeActorError(reply.err), invalid("error")), (error) => Effect.fail(error as ActorError))
  }
  if ("moved" in reply) return Effect.fail(new NotServed({ shard }))
  return Effect.fail(new ActorDefect({ address, message: "unknown reply" }))
}
