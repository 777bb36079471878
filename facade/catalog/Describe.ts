/**
 * Describes an operation as JSON Schema derived from its `Schema`s: path and
 * query parameters, request body, responses (every error status carries the
 * error envelope), and the named DTO schemas they refer to. The catalog's tag
 * detail and the OpenAPI documents both use it.
 */
import { Schema } from "effect"
import { type AnyOperation, mediaTypesOf, type ResponseSpec } from "../Operation.ts"

export type JsonSchema = Record<string, unknown>

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query"
  readonly required: boolean
  readonly description?: string
  readonly schema: JsonSchema
}

export interface ResponseDescription {
  readonly description: string
  /** One media type each; absent when the response has no body. */
  readonly contentTypes?: ReadonlyArray<string>
  /** The JSON body's schema (the error envelope for an error status). */
  readonly schema?: JsonSchema
}

export interface OperationDescription {
  readonly parameters: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly contentTypes: ReadonlyArray<string>; readonly schema: JsonSchema; readonly maxBytes?: number }
  readonly responses: Readonly<Record<string, ResponseDescription>>
  /** Named schemas referenced from the above, by name. */
  readonly schemas: Readonly<Record<string, JsonSchema>>
}

/** Conversions, once per schema: the registry's checks, the catalog and the OpenAPI documents all describe the same operations. */
const documents = new WeakMap<Schema.Top, ReturnType<typeof Schema.toJsonSchemaDocument>>()

/** Converts one schema, collecting its named definitions and pointing refs at `refPrefix`. */
const convert = (schema: Schema.Top, refPrefix: string, schemas: Record<string, JsonSchema>): JsonSchema => {
  let document = documents.get(schema)
  if (document === undefined) {
    document = Schema.toJsonSchemaDocument(schema as Schema.Codec<unknown, unknown>, { onExcessProperty: "error" })
    documents.set(schema, document)
  }
  const relink = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${refPrefix}`)) as JsonSchema
  for (const [name, definition] of Object.entries(document.definitions ?? {})) schemas[name] = relink(definition)
  return relink(document.schema)
}

const parametersOf = (
  schema: Schema.Top | undefined,
  location: "path" | "query",
  refPrefix: string,
  schemas: Record<string, JsonSchema>
) => {
  if (schema === undefined) return []
  const object = convert(schema, refPrefix, schemas) as { properties?: Record<string, JsonSchema>; required?: Array<string> }
  return Object.entries(object.properties ?? {}).map(([name, property]): Parameter => {
    const { description, ...rest } = property as { description?: string }
    return {
      name,
      in: location,
      required: location === "path" || (object.required ?? []).includes(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest
    }
  })
}

export const describe = (operation: AnyOperation, refPrefix: string): OperationDescription => {
  const schemas: Record<string, JsonSchema> = {}
  const parameters = [
    ...parametersOf(operation.params, "path", refPrefix, schemas),
    ...parametersOf(operation.query, "query", refPrefix, schemas)
  ]
  const requestBody = operation.body
    ? { contentTypes: ["application/json"], schema: convert(operation.body, refPrefix, schemas) }
    : operation.upload
      ? {
          contentTypes: operation.upload.contentTypes,
          schema: { type: "string", contentEncoding: "binary" },
          maxBytes: operation.upload.maxBytes
        }
      : undefined
  const responses: Record<string, ResponseDescription> = {}
  for (const [status, spec] of Object.entries<ResponseSpec>(operation.responses)) {
    if (Number(status) >= 400) {
      responses[status] = {
        description: spec.description,
        contentTypes: ["application/json"],
        schema: { $ref: `${refPrefix}ErrorEnvelope` }
      }
      continue
    }
    const contentTypes = mediaTypesOf(spec)
    responses[status] = {
      description: spec.description,
      ...(contentTypes.length > 0 ? { contentTypes } : {}),
      ...(spec.schema ? { schema: convert(spec.schema, refPrefix, schemas) } : {})
    }
  }
  return { parameters, ...(requestBody ? { requestBody } : {}), responses, schemas }
}

/** The error envelope every operation may answer with. */
export const errorEnvelopeSchema: JsonSchema = {
  type: "object",
  required: ["error", "requestId"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        details: {
          type: "array",
          items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } }
        }
      }
    },
    requestId: { type: "string" }
  }
}
