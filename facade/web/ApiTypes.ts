/**
 * The web app's API types, generated from the project's own OpenAPI documents:
 * each service's document is derived from the registry (as the server serves
 * it, paths prefixed with the service's base path), then openapi-typescript (in tools/openapi-client: it needs the
 * TypeScript 5 compiler API) writes `web/src/api/generated/<service>.ts`.
 * The web client (openapi-fetch) is typed by these files only, so a changed
 * operation is a type error in the app, never a hand-written request shape.
 * Files are rewritten only when their document changed (its hash heads the file).
 * Beside them, `scopes.ts`: the API-key scope vocabulary (facade/Scopes.ts), which the key form offers.
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { openApiDocument } from "../catalog/OpenApi.ts"
import { serviceNames, services } from "../catalog/Services.ts"
import { atriumRegistry } from "../operations.ts"
import { scopes } from "../Scopes.ts"

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL("../../", import.meta.url))
export const GENERATED_DIR = path.join(ROOT, "web", "src", "api", "generated")
const GENERATOR = path.join(ROOT, "tools", "openapi-client", "node_modules", "openapi-typescript", "bin", "cli.js")

/**
 * Each service's OpenAPI document as JSON, its paths keyed as the server serves them (`/pm/v1/tasks/{taskId}`):
 * the app calls its own origin, one client covers the four services, and no two services' paths collide.
 */
export const apiDocuments = (): ReadonlyArray<{ readonly service: string; readonly json: string }> =>
  serviceNames.map((service) => {
    const document = openApiDocument(atriumRegistry, service, "")
    const basePath = services[service].basePath
    const paths = Object.fromEntries(Object.entries(document.paths).map(([route, item]) => [basePath + route, item]))
    return { service, json: JSON.stringify({ ...document, servers: [{ url: "/" }], paths }) }
  })

const headerOf = (hash: string) => `// Generated from the ${hash} OpenAPI document by facade/web/ApiTypes.ts; do not edit.\n`

/** Writes the types of every service whose document changed; answers the services written. */
export const writeApiTypes = async (): Promise<ReadonlyArray<string>> => {
  mkdirSync(GENERATED_DIR, { recursive: true })
  const written: Array<string> = []
  for (const { service, json } of apiDocuments()) {
    const hash = createHash("sha256").update(json).digest("hex").slice(0, 16)
    const target = path.join(GENERATED_DIR, `${service}.ts`)
    if (existsSync(target) && readFileSync(target, "utf8").startsWith(headerOf(hash))) continue
    // Written beside the target and renamed: concurrent builds never see half a file.
    const scratch = `${target}.${process.pid}-${Date.now().toString(36)}`
    writeFileSync(`${scratch}.json`, json)
    try {
      await run(process.execPath, [GENERATOR, `${scratch}.json`, "-o", `${scratch}.ts`])
      writeFileSync(`${scratch}.ts`, headerOf(hash) + readFileSync(`${scratch}.ts`, "utf8"))
      renameSync(`${scratch}.ts`, target)
      written.push(service)
    } finally {
      rmSync(`${scratch}.json`, { force: true })
      rmSync(`${scratch}.ts`, { force: true })
    }
  }
  const scopesFile = path.join(GENERATED_DIR, "scopes.ts")
  const scopesSource = `// Generated from facade/Scopes.ts by facade/web/ApiTypes.ts; do not edit.\n/** The API-key scopes and what each allows. */\nexport const scopes = ${JSON.stringify(scopes, null, 2)} as const\n`
  if (!existsSync(scopesFile) || readFileSync(scopesFile, "utf8") !== scopesSource) {
    writeFileSync(scopesFile, scopesSource)
    written.push("scopes")
  }
  return written
}
