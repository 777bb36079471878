/**
 * The fixed cases of one operation, generated from its own schemas: garbage
 * path ids, bad query values, each required field removed, each field given
 * each wrong JSON type, unstorable text in each field (and in a key),
 * storable hostile text in each text field, deep nesting and an oversized
 * body. Each case says what an honest answer is.
 */
import type { AnyOperation } from "../../../facade/Operation.ts"
import type { FuzzRequest } from "./Client.ts"
import { deeplyNested, extremeNumbers, storableSamples, unstorableSamples } from "./Hostile.ts"
import { jsonTypes, shapeOf, valueOfType } from "./Shapes.ts"

export type Expectation =
  /** Never a 5xx; a 4xx is the error envelope. */
  | { readonly kind: "honest" }
  /** A 400 naming this field. */
  | { readonly kind: "refused"; readonly path: string }
  /** Honest, and when accepted the reply echoes `field` byte-identical (if it has it). */
  | { readonly kind: "stored"; readonly field: string; readonly value: string }

export interface FuzzCase extends FuzzRequest {
  readonly expect: Expectation
}

export interface Base {
  readonly params: Record<string, string>
  readonly query: Record<string, unknown> | undefined
  readonly body: unknown
}

const honest: Expectation = { kind: "honest" }
const refused = (path: string): Expectation => ({ kind: "refused", path })

const garbageIds = ["not-an-id", "9".repeat(300), "' OR '1'='1", "../../etc/passwd", "00000000-0000-4000-8000-000000000000", "%00", "-1"]
const badQueryValues = ["-1", "1e309", "NaN", "[]", "' OR 1=1 --", "x".repeat(2000), "\u202Eevil", "👩‍👩‍👧‍👦"]

/** Operations whose reply is the created or updated resource, so accepted text can be read back from it. */
export const echoes = (op: AnyOperation) =>
  op.method !== "GET" && op.method !== "DELETE" && /^(create|update|add|rename|set|save)/.test(op.operationId)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

export const casesFor = (op: AnyOperation, base: Base, bodyLimitBytes: number, readBack: boolean): ReadonlyArray<FuzzCase> => {
  const cases: Array<FuzzCase> = []
  const shape = shapeOf(op)
  const withParam = (name: string, value: string) => ({ ...base.params, [name]: value })
  const request = (label: string, expect: Expectation, change: Partial<FuzzRequest>): FuzzCase => ({
    label,
    expect,
    params: base.params,
    ...(base.query !== undefined ? { query: base.query } : {}),
    ...(op.body && base.body !== undefined ? { body: base.body } : {}),
    ...change
  })

  for (const name of Object.keys(base.params)) {
    for (const value of garbageIds)
      cases.push(request(`path ${name}=${JSON.stringify(value.slice(0, 20))}`, honest, { params: withParam(name, value) }))
    cases.push(request(`path ${name} with NUL`, refused(`path.${name}`), { params: withParam(name, `${base.params[name]}\u0000`) }))
  }

  if (op.query) {
    cases.push(request("an unknown query parameter", honest, { query: { ...base.query, __fuzz: "1" } }))
    for (const field of shape.query) {
      cases.push(
        request(`query ${field.name} with NUL`, refused(`query.${field.name}`), { query: { ...base.query, [field.name]: "a\u0000b" } })
      )
      for (const value of badQueryValues)
        cases.push(
          request(`query ${field.name}=${JSON.stringify(value.slice(0, 20))}`, honest, { query: { ...base.query, [field.name]: value } })
        )
    }
  }

  if (op.body && isObject(base.body)) {
    const body = base.body
    const withField = (name: string, value: unknown) => ({ body: { ...body, [name]: value } })
    for (const field of shape.body) {
      const path = `body.${field.name}`
      if (field.required) {
        const { [field.name]: _removed, ...rest } = body
        cases.push(request(`without required ${field.name}`, refused(path), { body: rest }))
      }
      if (field.types !== undefined) {
        for (const type of jsonTypes) {
          if (!field.types.has(type))
            cases.push(request(`${field.name} as ${type}`, refused(path), withField(field.name, valueOfType[type])))
        }
      }
      for (const text of unstorableSamples.slice(0, 3)) {
        cases.push(request(`${field.name}=${JSON.stringify(text)}`, refused(path), withField(field.name, text)))
      }
      if (field.types === undefined || field.types.has("string")) {
        storableSamples.forEach((text, index) => {
          // Each text field gets every sample when reading back, else a rotating few (CI cost).
          if (!readBack && (index + field.name.length) % 4 !== 0) return
          cases.push(
            request(
              `${field.name}=${JSON.stringify(text.slice(0, 16))}…`,
              { kind: "stored", field: field.name, value: text },
              withField(field.name, text)
            )
          )
        })
        cases.push(request(`${field.name} of 100 kB`, honest, withField(field.name, "x".repeat(100_000))))
      }
      if (field.types === undefined || field.types.has("number")) {
        for (const value of extremeNumbers) cases.push(request(`${field.name}=${value}`, honest, withField(field.name, value)))
      }
      if (field.types === undefined || field.types.has("array") || field.types.has("object")) {
        cases.push(request(`${field.name} nested 200 deep`, honest, withField(field.name, deeplyNested(200))))
      }
    }
    cases.push(request("a key with NUL", refused("body"), { body: { ...body, "na\u0000me": 1 } }))
    cases.push(request("a key with an unpaired surrogate", refused("body"), { body: { ...body, "\ud800key": 1 } }))
    cases.push(request("the whole body nested 200 deep", honest, { body: deeplyNested(200) }))
    // The body limit is checked before the body is read: no valid body needed.
    const { body: _body, ...withoutBody } = request("oversized", honest, {})
    cases.push({ ...withoutBody, rawBody: JSON.stringify({ pad: "x".repeat(bodyLimitBytes) }) })
  }
  return cases
}
