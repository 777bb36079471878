/**
 * The operation registry: every documented operation of the four services,
 * checked once at startup (known tag, unique operationId per service, no
 * route declared twice, a schema for every JSON reply, one valid media type
 * per content entry). The router, validation, catalog and OpenAPI all read
 * from here. That schema names are unique within a service's document is
 * checked by the tests (`schemaNameProblems`): it needs every operation
 * described as JSON Schema, about 0.35 s of CPU that every process start
 * would pay for a property of the source, not of the run.
 */
import { Context } from "effect"
import { describe } from "./catalog/Describe.ts"
import { type AnyOperation, isJsonMediaType, mediaTypesOf, type ResponseSpec, type ServiceName } from "./Operation.ts"
import { Router } from "./Router.ts"
import { isScope } from "./Scopes.ts"
import { services } from "./catalog/Services.ts"

export interface Registry {
  /** Documented operations, in declaration order. */
  readonly operations: ReadonlyArray<AnyOperation>
  readonly router: Router
  readonly ofService: (service: ServiceName) => ReadonlyArray<AnyOperation>
}

/**
 * The server's registry as a service: code that calls operations (the demo
 * seed, a lens proposal applied as its caller) asks for it instead of
 * importing the module that lists every operation, itself among them.
 */
export class OperationRegistry extends Context.Service<OperationRegistry, Registry>()("atrium/facade/OperationRegistry") {}

const MEDIA_TYPE = /^(?:\*\/\*|[\w!#$&^.+-]+\/(?:\*|[\w!#$&^.+-]+))(?:\s*;\s*[\w!#$&^.+-]+=(?:[\w!#$&^.+-]+|"[^"]*"))*$/

/** What an operation promises to reply: the pipeline holds every reply to it (Reply.ts). */
const responseProblems = (op: AnyOperation): Array<string> => {
  const problems: Array<string> = []
  const refuse = (status: string, why: string) => problems.push(`${op.operationId}: response ${status} ${why}`)
  for (const [status, spec] of Object.entries<ResponseSpec>(op.responses)) {
    const code = Number(status)
    if (!Number.isInteger(code) || code < 200 || code > 599) refuse(status, "is not an HTTP status")
    const mediaTypes = mediaTypesOf(spec)
    if (code >= 400) {
      // Every error is the error envelope (Describe documents it); nothing else may be declared.
      if (spec.schema !== undefined || spec.contentType !== undefined)
        refuse(status, "is an error: it carries the error envelope, declare only its description")
      continue
    }
    if (code === 204 || code === 304) {
      if (mediaTypes.length > 0) refuse(status, "has no body")
      continue
    }
    if (mediaTypes.length === 0) refuse(status, "declares no content: a JSON reply needs its schema")
    for (const mediaType of mediaTypes)
      if (!MEDIA_TYPE.test(mediaType)) refuse(status, `declares "${mediaType}", which is not one media type`)
    if (mediaTypes.some(isJsonMediaType) && spec.schema === undefined) refuse(status, "returns JSON without a schema")
  }
  for (const mediaType of op.upload?.contentTypes ?? []) {
    if (!MEDIA_TYPE.test(mediaType)) problems.push(`${op.operationId}: upload type "${mediaType}" is not one media type`)
  }
  return problems
}

/** A schema name means one shape in a service's document: two different schemas may not share it. */
export const schemaNameProblems = (operations: ReadonlyArray<AnyOperation>): Array<string> => {
  const problems: Array<string> = []
  const seen = new Map<string, { readonly definition: string; readonly operationId: string }>()
  for (const op of operations) {
    for (const [name, schema] of Object.entries(describe(op, "#/").schemas)) {
      const key = `${op.service}:${name}`
      const definition = JSON.stringify(schema)
      const first = seen.get(key)
      if (first === undefined) seen.set(key, { definition, operationId: op.operationId })
      else if (first.definition !== definition) {
        problems.push(`two different schemas are named ${name} in ${op.service} (${first.operationId} and ${op.operationId}); rename one`)
      }
    }
  }
  return problems
}

export const fullPath = (operation: AnyOperation): string => services[operation.service].basePath + operation.path

/**
 * @param operations documented operations (they appear in the catalog)
 * @param infrastructure routes served but not catalogued: the pm catalog itself, OpenAPI documents, health
 */
export const makeRegistry = (operations: ReadonlyArray<AnyOperation>, infrastructure: ReadonlyArray<AnyOperation> = []): Registry => {
  const ids = new Set<string>()
  for (const op of operations) {
    const key = `${op.service}:${op.operationId}`
    if (ids.has(key)) throw new Error(`operationId ${op.operationId} is declared twice in ${op.service}`)
    ids.add(key)
    if (!/^[a-z][A-Za-z0-9]*$/.test(op.operationId)) throw new Error(`operationId ${op.operationId} is not camelCase`)
    if (!services[op.service].tags.some((t) => t.tag === op.tag))
      throw new Error(`${op.operationId}: unknown ${op.service} tag "${op.tag}"`)
    if (op.auth === "both" && op.scopes.length === 0) {
      throw new Error(`${op.operationId}: an operation open to API keys must name its scope(s)`)
    }
    const unknownScope = op.scopes.find((scope) => !isScope(scope))
    if (unknownScope !== undefined) throw new Error(`${op.operationId}: unknown scope ${unknownScope}`)
  }
  const problems = [...operations, ...infrastructure].flatMap(responseProblems)
  if (problems.length > 0) throw new Error(`The registry refuses:\n  ${problems.join("\n  ")}`)
  const router = new Router([...operations, ...infrastructure].map((operation) => ({ fullPath: fullPath(operation), operation })))
  const byService = new Map<ServiceName, Array<AnyOperation>>()
  for (const op of operations) byService.set(op.service, [...(byService.get(op.service) ?? []), op])
  return { operations, router, ofService: (service) => byService.get(service) ?? [] }
}
