/**
 * What the fuzz suites need to know of an operation's request, read from the
 * same JSON Schema the catalog and OpenAPI publish (facade/catalog/Describe):
 * its fields, which are required, and which JSON types each accepts.
 */
import { describe as describeOperation, type JsonSchema } from "../../../facade/catalog/Describe.ts"
import type { AnyOperation } from "../../../facade/Operation.ts"

export type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object"
export const jsonTypes: ReadonlyArray<JsonType> = ["string", "number", "boolean", "null", "array", "object"]

export interface Field {
  readonly name: string
  readonly required: boolean
  /** Accepted JSON types; undefined when the schema accepts any value. */
  readonly types: ReadonlySet<JsonType> | undefined
}

export interface Shape {
  readonly query: ReadonlyArray<Field>
  /** Top-level fields of an object body (empty for other bodies). */
  readonly body: ReadonlyArray<Field>
}

const REF = "#/$defs/"

const typesOf = (schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>, seen = 0): Set<JsonType> | undefined => {
  if (seen > 20) return undefined
  if (typeof schema.$ref === "string") {
    const target = defs[schema.$ref.slice(REF.length)]
    return target === undefined ? undefined : typesOf(target, defs, seen + 1)
  }
  const union = (schema.anyOf ?? schema.oneOf) as Array<JsonSchema> | undefined
  if (union !== undefined) {
    const all = new Set<JsonType>()
    for (const member of union) {
      const types = typesOf(member, defs, seen + 1)
      if (types === undefined) return undefined
      for (const type of types) all.add(type)
    }
    return all
  }
  const values = (schema.enum as Array<unknown> | undefined) ?? ("const" in schema ? [schema.const] : undefined)
  if (values !== undefined) {
    return new Set(values.map((value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value) as JsonType))
  }
  const declared = schema.type
  if (declared === undefined) {
    const allOf = schema.allOf as Array<JsonSchema> | undefined
    return allOf?.[0] ? typesOf(allOf[0], defs, seen + 1) : undefined
  }
  const names = Array.isArray(declared) ? (declared as Array<string>) : [declared as string]
  return new Set(names.map((name) => (name === "integer" ? "number" : name) as JsonType))
}

const fieldsOf = (schema: JsonSchema, defs: Readonly<Record<string, JsonSchema>>): Array<Field> => {
  const resolved = typeof schema.$ref === "string" ? (defs[schema.$ref.slice(REF.length)] ?? {}) : schema
  const properties = resolved.properties as Record<string, JsonSchema> | undefined
  if (properties === undefined) return []
  const required = new Set((resolved.required ?? []) as Array<string>)
  return Object.entries(properties).map(([name, property]) => ({ name, required: required.has(name), types: typesOf(property, defs) }))
}

const shapes = new WeakMap<AnyOperation, Shape>()

export const shapeOf = (op: AnyOperation): Shape => {
  let shape = shapes.get(op)
  if (shape === undefined) {
    const described = describeOperation(op, REF)
    const query = described.parameters
      .filter((parameter) => parameter.in === "query")
      .map((parameter) => ({ name: parameter.name, required: parameter.required, types: typesOf(parameter.schema, described.schemas) }))
    const body = described.requestBody && op.body ? fieldsOf(described.requestBody.schema, described.schemas) : []
    shape = { query, body }
    shapes.set(op, shape)
  }
  return shape
}

/** A value of each JSON type, for "wrong type" cases. */
export const valueOfType: Readonly<Record<JsonType, unknown>> = {
  string: "a string",
  number: 12345,
  boolean: true,
  null: null,
  array: [1, "two"],
  object: { unexpected: "object" }
}
