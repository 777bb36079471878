/**
 * A seeded workspace for the registry-driven suites, built from the registry
 * itself: every create/add operation is called with its own first example
 * (the examples share one set of made-up ids: workspace 0b9e4c1a…, space
 * 1c2d3e4f…, list 3e4f5a6b…), the made-up ids replaced by the real ones
 * created so far, in rounds until nothing new can be created. Each reply is
 * matched against the example's reply to learn which real id stands for
 * which made-up one, and the created resource's id is recorded under the
 * name its routes give the path parameter (`taskId`, wiki `spaceId`…). An
 * operation added later is seeded the same way, with no change here.
 */
import { type AnyOperation, successStatus } from "../../../facade/Operation.ts"
import { fullPath, type Registry } from "../../../facade/Registry.ts"
import { scopes } from "../../../facade/Scopes.ts"
import { signUp, type TestAtrium, type TestResponse } from "../../support/atrium.ts"

export interface Caller {
  readonly token: string
  readonly apiKey: string
  readonly userId: string
  readonly workspaceId: string
}

export interface Seeded {
  readonly caller: Caller
  /** Real values for path parameters, by `service:name`, then by `name`. */
  readonly params: ReadonlyMap<string, string>
  /** Made-up example values (ids, short ids, keys) → the real ones. */
  readonly real: ReadonlyMap<string, string>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const SHORT_ID = /^[A-Z]{1,4}-\d+$/
const IDENTIFYING_KEYS = new Set(["key", "slug", "shortId", "token"])

export type Known = Pick<Seeded, "params" | "real">

/**
 * Replaces every made-up value `known` has a real one for, anywhere in
 * `value`; a made-up id it has never seen, under a key like `teamId`, becomes
 * the seeded resource of that name (examples do not always agree on ids).
 */
export const substitute = (value: unknown, known: Known, service: string, key = ""): unknown => {
  if (typeof value === "string") {
    const mapped = known.real.get(value)
    if (mapped !== undefined || !UUID.test(value) || !key.endsWith("Id")) return mapped ?? value
    return known.params.get(`${service}:${key}`) ?? known.params.get(key) ?? value
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, known, service, key.replace(/Ids$/, "Id")))
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, substitute(item, known, service, name)]))
  }
  return value
}

/** Learns made-up → real from an example reply and the real reply, leaf by leaf. */
const learn = (example: unknown, actual: unknown, real: Map<string, string>, key = ""): void => {
  if (typeof example === "string" && typeof actual === "string") {
    if (example !== actual && !real.has(example) && (UUID.test(example) || SHORT_ID.test(example) || IDENTIFYING_KEYS.has(key))) {
      real.set(example, actual)
    }
  } else if (Array.isArray(example) && Array.isArray(actual)) {
    for (const [index, item] of example.entries()) learn(item, actual[index], real, key)
  } else if (typeof example === "object" && example !== null && typeof actual === "object" && actual !== null) {
    for (const [name, item] of Object.entries(example)) learn(item, (actual as Record<string, unknown>)[name], real, name)
  }
}

/**
 * The path parameter that names what `op` creates: `…/comments` → the
 * `{commentId}` of `…/comments/{commentId}` (or of any route with a
 * `/comments/{comment…}` segment of the same service).
 */
const createdParam = (op: AnyOperation, all: ReadonlyArray<AnyOperation>): string | undefined => {
  const path = fullPath(op)
  const segment = path.slice(path.lastIndexOf("/"))
  const stem = segment
    .slice(segment.lastIndexOf("-") + 1)
    .replace(/^\//, "")
    .slice(0, 3)
  const service = path.slice(0, path.indexOf("/", 1))
  const nameAt = (text: string) => {
    const name = text.match(/^\/\{(\w+)\}/)?.[1]
    return name?.toLowerCase().includes(stem) ? name : undefined
  }
  const paths = all.map(fullPath).filter((other) => other.startsWith(service))
  for (const other of paths) {
    if (other.startsWith(`${path}/{`)) {
      const name = nameAt(other.slice(path.length))
      if (name !== undefined) return name
    }
  }
  for (const other of paths) {
    const at = other.indexOf(`${segment}/{`)
    const name = at >= 0 ? nameAt(other.slice(at + segment.length)) : undefined
    if (name !== undefined) return name
  }
  return undefined
}

/** The created resource in a reply: the reply itself, or its one wrapped object (`{invitation: {…}}`). */
const createdOf = (body: unknown): Record<string, unknown> | undefined => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined
  const record = body as Record<string, unknown>
  if (typeof record.id === "string") return record
  const wrapped = Object.values(record).filter((value) => typeof value === "object" && value !== null && !Array.isArray(value))
  return wrapped.length === 1 && typeof (wrapped[0] as Record<string, unknown>).id === "string"
    ? (wrapped[0] as Record<string, unknown>)
    : undefined
}

export const credentialsFor = (op: AnyOperation, caller: Caller) =>
  op.auth === "public" ? {} : op.auth === "apiKey" ? { apiKey: caller.apiKey } : { token: caller.token }

/** Fills a path template, percent-encoding each value. */
export const pathWith = (op: AnyOperation, params: Record<string, string>): string =>
  fullPath(op).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

export const queryString = (query: Record<string, unknown> | undefined): string => {
  if (query === undefined) return ""
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) search.append(key, typeof value === "string" ? value : JSON.stringify(value))
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

/** The real path parameters for `op`: learned by name, else its example's mapped, else a well-formed unknown id. */
export const paramsFor = (op: AnyOperation, seeded: Pick<Seeded, "params" | "real">): Record<string, string> => {
  const example = (op.examples[0]?.request?.params ?? {}) as Record<string, string>
  const result: Record<string, string> = {}
  for (const [, name] of fullPath(op).matchAll(/\{(\w+)\}/g)) {
    const exampleValue = example[name!]
    result[name!] =
      seeded.params.get(`${op.service}:${name}`) ??
      seeded.params.get(name!) ??
      (exampleValue !== undefined ? (seeded.real.get(exampleValue) ?? exampleValue) : "00000000-0000-4000-8000-000000000000")
  }
  return result
}

const isCreation = (op: AnyOperation) =>
  op.method === "POST" && /^(create|add|save)/.test(op.operationId) && op.examples[0]?.request !== undefined

/**
 * Signs up a user, creates a workspace and an all-scopes API key of it, then
 * seeds every resource the registry's create operations can make.
 */
export const seedWorkspace = async (atrium: TestAtrium, registry: Registry, name: string): Promise<Seeded> => {
  const user = await signUp(atrium, name)
  const workspace = await atrium.request("POST", "/pm/v1/workspaces", { token: user.token, body: { name: `${name}'s workspace` } })
  if (workspace.status !== 201) throw new Error(`createWorkspace failed: ${workspace.text}`)
  const workspaceId = workspace.body.id as string
  const key = await atrium.request("POST", "/pm/v1/api-keys", {
    token: user.token,
    body: { workspaceId, name: "fuzz", scopes: Object.keys(scopes) }
  })
  if (key.status !== 201) throw new Error(`createPmApiKey failed: ${key.text}`)
  const caller: Caller = { token: user.token, apiKey: key.body.key, userId: user.userId, workspaceId }
  // The examples' second user ("Bob") is a real member too, so assignments and teams can be seeded.
  const member = await signUp(atrium, `${name}Member`)
  const added = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, {
    token: user.token,
    body: { email: member.email, role: "member" }
  })
  if (added.status >= 300) throw new Error(`addWorkspaceMember failed: ${added.text}`)
  const real = new Map<string, string>([
    ["0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10", workspaceId],
    ["6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f", user.userId],
    ["alice@example.com", user.email],
    ["7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d", member.userId],
    ["bob@example.com", member.email]
  ])
  // Path `userId`s name the member, not the caller: fuzzing "change this member" must not demote the caller.
  const params = new Map<string, string>([
    ["workspaceId", workspaceId],
    ["userId", member.userId]
  ])
  const pending = registry.operations.filter(
    (op) => isCreation(op) && op.operationId !== "createWorkspace" && op.operationId !== "createHubWorkspace"
  )
  let progress = true
  while (progress && pending.length > 0) {
    progress = false
    for (const op of [...pending]) {
      const example = op.examples[0]!
      const known = { params, real }
      const path = pathWith(op, substitute(example.request?.params ?? {}, known, op.service) as Record<string, string>)
      const reply: TestResponse = await atrium.request(
        op.method,
        path + queryString(substitute(example.request?.query, known, op.service) as never),
        {
          ...credentialsFor(op, caller),
          ...(op.body && example.request?.body !== undefined ? { body: substitute(example.request.body, known, op.service) } : {})
        }
      )
      if (reply.status !== successStatus(op)) continue
      pending.splice(pending.indexOf(op), 1)
      progress = true
      learn(example.response.body, reply.body, real)
      const created = createdOf(reply.body)
      const param = createdParam(op, registry.operations)
      // An "add" may answer its parent (the task a tag was added to): only a new id names a new resource.
      const isNew = created !== undefined && ![...params.values()].includes(created.id as string)
      if (isNew && param !== undefined && !params.has(`${op.service}:${param}`)) {
        params.set(`${op.service}:${param}`, created.id as string)
      }
    }
  }
  return { caller, params, real }
}
