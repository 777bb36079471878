/** Writes the four OpenAPI documents and every catalog tier to a folder, to diff contracts before and after a refactor. */
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { Effect } from "effect"
import { makeCatalog } from "../facade/catalog/Catalog.ts"
import { openApiDocument } from "../facade/catalog/OpenApi.ts"
import { serviceNames, services } from "../facade/catalog/Services.ts"
import { atriumRegistry as registry } from "../facade/operations.ts"

const out = process.argv[2] ?? "/tmp/contract-snapshot"
mkdirSync(out, { recursive: true })
const origin = "http://localhost:1"
const write = (name: string, value: unknown) =>
  writeFileSync(path.join(out, name), JSON.stringify(typeof value === "string" ? JSON.parse(value) : value, null, 1))
for (const service of serviceNames) write(`openapi-${service}.json`, openApiDocument(registry, service, origin))
const catalog = makeCatalog(() => registry)
const context = { requestId: "snapshot", principal: undefined, origin }
const run = (op: any, params: Record<string, string> = {}, query: Record<string, string> = {}) =>
  (Effect.runSync(op.handler({ params, query, body: undefined }, context)) as any).body
const tiers = { hub: catalog.hubOperations, pm: catalog.pmRoutes } as const
for (const [scope, ops] of Object.entries(tiers)) {
  write(`catalog-${scope}-list.json`, run(ops[0]))
  write(`catalog-${scope}-detailed.json`, run(ops[1]))
  const tags = (scope === "hub" ? ["hub"] : ["pm", "wiki", "feedback"]).flatMap((s) => services[s as "hub"].tags.map((t) => t.tag))
  for (const tag of new Set(tags)) {
    const file = tag.replace(/[^A-Za-z0-9]+/g, "_")
    write(`catalog-${scope}-tag-${file}.json`, run(ops[2], { tag }))
    write(`catalog-${scope}-examples-${file}.json`, run(ops[3], { tag }))
  }
}
const ids = registry.operations.map((op) => `${op.service} ${op.tag} ${op.operationId} ${op.method} ${op.path} ${op.mcp?.tool ?? ""}`)
write("operations.json", ids)
console.log(`wrote ${out}: ${registry.operations.length} operations`)
