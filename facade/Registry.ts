/**
 * The operation registry: every documented operation of the four services,
 * checked once at startup (known tag, unique operationId per service, no
 * route declared twice). The router, validation, catalog and OpenAPI all read
 * from here.
 */
import type { AnyOperation, ServiceName } from "./Operation.ts"
import { Router } from "./Router.ts"
import { isScope } from "./Scopes.ts"
import { services } from "./catalog/Services.ts"

export interface Registry {
  /** Documented operations, in declaration order. */
  readonly operations: ReadonlyArray<AnyOperation>
  readonly router: Router
  readonly ofService: (service: ServiceName) => ReadonlyArray<AnyOperation>
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
    if (!services[op.service].tags.some((t) => t.tag === op.tag)) throw new Error(`${op.operationId}: unknown ${op.service} tag "${op.tag}"`)
    if (op.auth === "both" && op.scopes.length === 0) {
      throw new Error(`${op.operationId}: an operation open to API keys must name its scope(s)`)
    }
    const unknownScope = op.scopes.find((scope) => !isScope(scope))
    if (unknownScope !== undefined) throw new Error(`${op.operationId}: unknown scope ${unknownScope}`)
  }
  const router = new Router([...operations, ...infrastructure].map((operation) => ({ fullPath: fullPath(operation), operation })))
  const byService = new Map<ServiceName, Array<AnyOperation>>()
  for (const op of operations) byService.set(op.service, [...(byService.get(op.service) ?? []), op])
  return { operations, router, ofService: (service) => byService.get(service) ?? [] }
}
