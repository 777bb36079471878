/**
 * The reply: what a handler returned, encoded through the response schema its
 * operation declares for the status, so every reply is what the published
 * documents promise. A result that does not fit is a defect (`ReplyMismatch`,
 * logged with the operation id and answered 500), never sent as it is.
 */
import { Data, Effect, Exit, Schema, SchemaAST, SchemaIssue, type Stream } from "effect"
import { jsonCodec } from "../runtime/MessageCodec.ts"
import {
  type AnyOperation,
  essenceOf,
  isJsonMediaType,
  mediaTypesOf,
  type RawReply,
  type ResponseSpec,
  type StreamedReply,
  successStatus
} from "./Operation.ts"

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
  /** A body written as it is produced (`body` is then empty); closing the connection interrupts it. */
  readonly stream?: Stream.Stream<string | Uint8Array, never, any>
}

export class ReplyMismatch extends Data.TaggedError("ReplyMismatch")<{
  readonly operationId: string
  readonly status: number
  readonly reason: string
}> {
  override get message() {
    return `The reply of ${this.operationId} (status ${this.status}) does not match its declared response: ${this.reason}`
  }
}

const JSON_TYPE = "application/json; charset=utf-8"
const jsonHeaders: Readonly<Record<string, string>> = { "content-type": JSON_TYPE }
// Replies that fit stop at nothing; one that does not is encoded again to report all its issues.
const options = { onExcessProperty: "error" } as const
const reportAll = { onExcessProperty: "error", errors: "all" } as const
const formatIssue = SchemaIssue.makeFormatterDefault()

type Check = (input: unknown) => Exit.Exit<unknown, Schema.SchemaError>

/** One response of an operation, compiled once: its encoder (a value → its JSON form) and its validator of a JSON body already serialized. */
interface Compiled {
  readonly spec: ResponseSpec
  readonly mediaTypes: ReadonlyArray<string>
  readonly encode: Check | undefined
  readonly explainEncode: Check | undefined
  readonly validateEncoded: Check | undefined
  /** A list reply encoded item by item (see `listOf`), when the schema is one. */
  readonly list: ListReply | undefined
}

/**
 * A reply that is an object holding arrays (a page of items, a list with
 * its total): each array's items are encoded by the item's own encoder, and
 * the other properties together. Encoding a struct is encoding each of its
 * properties, so the body is the same; but an item that is the same object
 * as in an earlier reply (a task a task actor holds, shown in every search
 * that finds it) is encoded once, like a whole reply below.
 */
interface ListReply {
  readonly arrays: ReadonlyArray<{ readonly key: string; readonly item: Check }>
  /** The other properties' names: copied one by one (spreading a wide object and deleting from it is V8's slow path). */
  readonly restKeys: ReadonlyArray<string>
  readonly rest: Check
}

const plain = (ast: SchemaAST.AST) => ast.checks === undefined && ast.encoding === undefined

const listOf = (schema: Schema.Top): ListReply | undefined => {
  const ast = schema.ast
  if (!SchemaAST.isObjects(ast) || !plain(ast) || ast.encodingChecks !== undefined || ast.indexSignatures.length > 0) return undefined
  if (!("fields" in schema)) return undefined
  const fields = (schema as unknown as Schema.Struct<Schema.Struct.Fields>).fields
  const arrays: Array<{ key: string; item: Check }> = []
  const rest: { [key: string]: Schema.Struct.Fields[string] } = {}
  for (const [key, field] of Object.entries(fields)) {
    const fieldAst = field.ast
    const isList =
      SchemaAST.isArrays(fieldAst) &&
      plain(fieldAst) &&
      fieldAst.encodingChecks === undefined &&
      !SchemaAST.isOptional(fieldAst) &&
      fieldAst.elements.length === 0 &&
      fieldAst.rest.length === 1 &&
      "value" in field
    if (isList)
      arrays.push({ key, item: Schema.encodeUnknownExit(jsonCodec((field as unknown as Schema.$Array<Schema.Top>).value), options) })
    else rest[key] = field
  }
  return arrays.length === 0
    ? undefined
    : { arrays, restKeys: Object.keys(rest), rest: Schema.encodeUnknownExit(jsonCodec(Schema.Struct(rest)), options) }
}

const compiledByOperation = new WeakMap<AnyOperation, Map<number, Compiled | undefined>>()

const compiledOf = (operation: AnyOperation, status: number): Compiled | undefined => {
  let byStatus = compiledByOperation.get(operation)
  if (byStatus === undefined) {
    byStatus = new Map()
    compiledByOperation.set(operation, byStatus)
  }
  if (byStatus.has(status)) return byStatus.get(status)
  const spec = operation.responses[status]
  // The JSON form of the schema: what the OpenAPI documents describe.
  const json = spec?.schema ? jsonCodec(spec.schema) : undefined
  const compiled =
    spec === undefined
      ? undefined
      : {
          spec,
          mediaTypes: mediaTypesOf(spec),
          encode: json ? Schema.encodeUnknownExit(json, options) : undefined,
          explainEncode: json ? Schema.encodeUnknownExit(json, reportAll) : undefined,
          // Any JSON (a stored file served as it was uploaded) is not checked.
          validateEncoded: json && spec.schema!.ast._tag !== "Unknown" ? Schema.decodeUnknownExit(json, reportAll) : undefined,
          list: spec.schema ? listOf(spec.schema) : undefined
        }
  byStatus.set(status, compiled)
  return compiled
}

const mismatch = (operation: AnyOperation, status: number, reason: string) =>
  Effect.die(new ReplyMismatch({ operationId: operation.operationId, status, reason }))

const issueOf = (exit: Exit.Exit<unknown, Schema.SchemaError>) => {
  const error = Exit.findErrorOption(exit)
  return error._tag === "Some" ? formatIssue(error.value.issue) : "does not fit"
}

/** The declared media type the reply's type falls under, if any. */
const declaredFor = (declared: ReadonlyArray<string>, actual: string) => {
  const essence = essenceOf(actual)
  return declared.find((mediaType) => {
    const allowed = essenceOf(mediaType)
    return allowed === essence || allowed === "*/*" || (allowed.endsWith("/*") && essence.startsWith(allowed.slice(0, -1)))
  })
}

/** A streamed reply promises its declared media type, nothing more (its chunks are not one document). */
const streamedReply = (operation: AnyOperation, result: StreamedReply) => {
  const status = successStatus(operation)
  const compiled = compiledOf(operation, status)
  if (compiled === undefined) return mismatch(operation, status, "the status is not declared")
  if (declaredFor(compiled.mediaTypes, result.contentType) === undefined) {
    return mismatch(operation, status, `streamed as ${result.contentType}, declared ${compiled.mediaTypes.join(" | ") || "no content"}`)
  }
  return Effect.succeed<Reply>({
    status,
    headers: { "content-type": result.contentType, ...result.headers },
    body: "",
    stream: result.body
  })
}

/** Raw JSON replies are mostly cached documents (catalog, OpenAPI): each is checked once. */
const verifiedRaw = new WeakSet<RawReply>()

const rawReply = (operation: AnyOperation, result: RawReply) => {
  const status = result.status ?? successStatus(operation)
  const compiled = compiledOf(operation, status)
  if (compiled === undefined) return mismatch(operation, status, "the status is not declared")
  const reply: Reply = { status, headers: { "content-type": result.contentType, ...result.headers }, body: result.body }
  if (status === 204) return result.body.length === 0 ? Effect.succeed(reply) : mismatch(operation, status, "a 204 reply has a body")
  const declared = declaredFor(compiled.mediaTypes, result.contentType)
  if (declared === undefined) {
    return mismatch(operation, status, `served as ${result.contentType}, declared ${compiled.mediaTypes.join(" | ") || "no content"}`)
  }
  // A range (a download keeping its file's type) promises no shape; a declared JSON type promises its schema.
  if (!isJsonMediaType(declared) || verifiedRaw.has(result)) return Effect.succeed(reply)
  if (compiled.spec.schema === undefined) return mismatch(operation, status, "JSON without a declared schema")
  if (compiled.validateEncoded === undefined) return Effect.succeed(reply)
  let parsed: unknown
  try {
    parsed = JSON.parse(typeof result.body === "string" ? result.body : new TextDecoder().decode(result.body))
  } catch {
    return mismatch(operation, status, "the body is not JSON")
  }
  const exit = compiled.validateEncoded(parsed)
  if (Exit.isFailure(exit)) return mismatch(operation, status, issueOf(exit))
  verifiedRaw.add(result)
  return Effect.succeed(reply)
}

/**
 * Bodies already encoded, by result object. Read models hand out the same
 * immutable object until they change (a task actor's task), so a hot read is
 * encoded and checked once, not once per request. Kept from the second
 * encoding of an object on: a task read once (a scan) does not hold its body
 * beside its state for as long as its actor lives.
 */
const encodedBodies = new WeakMap<object, { readonly encoder: Compiled | Check; readonly body: string }>()
const encodedOnce = new WeakSet<object>()

/** `value`'s JSON by `encode` (an item's encoder), reused as a whole reply's is; `undefined` if it does not fit. */
const itemBody = (encode: Check, value: unknown): string | undefined => {
  const isObject = typeof value === "object" && value !== null
  const cached = isObject ? encodedBodies.get(value) : undefined
  if (cached !== undefined && cached.encoder === encode) return cached.body
  const exit = encode(value)
  if (Exit.isFailure(exit)) return undefined
  const body = JSON.stringify(exit.value)
  if (isObject) {
    if (encodedOnce.has(value)) encodedBodies.set(value, { encoder: encode, body })
    else encodedOnce.add(value)
  }
  return body
}

/** A list reply's body, its arrays item by item; `undefined` if anything does not fit. */
const listBody = (list: ListReply, result: object): string | undefined => {
  const fields = result as Record<string, unknown>
  // A property the schema does not know must still fail the check (onExcessProperty), as a whole encode would.
  let known = list.arrays.length
  const rest: Record<string, unknown> = {}
  for (const key of list.restKeys) {
    if (key in fields) {
      rest[key] = fields[key]
      known++
    }
  }
  if (known !== Object.keys(fields).length) return undefined
  const parts: Array<string> = []
  for (const { key, item } of list.arrays) {
    const items = fields[key]
    if (!Array.isArray(items)) return undefined
    const bodies: Array<string> = new Array(items.length)
    for (let i = 0; i < items.length; i++) {
      const body = itemBody(item, items[i])
      if (body === undefined) return undefined
      bodies[i] = body
    }
    parts.push(`${JSON.stringify(key)}:[${bodies.join(",")}]`)
  }
  const others = list.rest(rest)
  if (Exit.isFailure(others)) return undefined
  const othersJson = JSON.stringify(others.value)
  if (othersJson.length > 2) parts.push(othersJson.slice(1, -1))
  return `{${parts.join(",")}}`
}

/** The response for a handler's result; dies with `ReplyMismatch` when the result does not fit its declaration. */
export const reply = (operation: AnyOperation, result: unknown): Effect.Effect<Reply> => {
  if (typeof result === "object" && result !== null && (result as RawReply)._tag === "RawReply")
    return rawReply(operation, result as RawReply)
  if (typeof result === "object" && result !== null && (result as StreamedReply)._tag === "StreamedReply")
    return streamedReply(operation, result as StreamedReply)
  const status = successStatus(operation)
  // A 204 sends nothing, whatever the handler returned.
  if (status === 204) return Effect.succeed({ status, headers: {}, body: "" })
  const compiled = compiledOf(operation, status)
  if (compiled?.encode === undefined) return mismatch(operation, status, "JSON without a declared schema")
  const isObject = typeof result === "object" && result !== null
  const cached = isObject ? encodedBodies.get(result) : undefined
  if (cached !== undefined && cached.encoder === compiled) return Effect.succeed({ status, headers: jsonHeaders, body: cached.body })
  let body: string
  if (compiled.list !== undefined && isObject) {
    const listed = listBody(compiled.list, result)
    if (listed === undefined) return mismatch(operation, status, issueOf(compiled.explainEncode!(result)))
    body = listed
  } else {
    const exit = compiled.encode(result)
    if (Exit.isFailure(exit)) return mismatch(operation, status, issueOf(compiled.explainEncode!(result)))
    body = JSON.stringify(exit.value)
  }
  if (isObject) {
    if (encodedOnce.has(result)) encodedBodies.set(result, { encoder: compiled, body })
    else encodedOnce.add(result)
  }
  return Effect.succeed({ status, headers: jsonHeaders, body })
}
