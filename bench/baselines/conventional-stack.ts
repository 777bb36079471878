/**
 * The conventional stack: what a developer would write without actors. A
 * Fastify 5 app on node:http with postgres.js (DATABASE_URL), or with PGlite
 * in-process on an embedded DATA_DIR, serving Atrium's task routes on
 * Atrium's own tables with one statement per read and one short
 * transaction per write (bench/baselines/conventional/TaskSql.ts):
 *
 *   GET   /pm/v1/tasks/:taskId             getTask: one SELECT building the Task JSON
 *   PATCH /pm/v1/tasks/:taskId             updateTask: UPDATE + change-log INSERT in one transaction, then getTask
 *   POST  /pm/v1/lists/:listId/tasks       createTask: INSERT + change-log INSERT in one transaction, then getTask
 *   GET   /pm/v1/lite/search/tasks         searchTasksLite: workspaceId, q, limit, cursor (keyset)
 *
 * Callers authenticate with Atrium's own access tokens (HS256 JWTs signed
 * with the key Atrium keeps in `system_secrets`, or JWT_SECRET); a verified
 * token is remembered until it expires, as Atrium does. Errors use Atrium's
 * envelope. Listens on HOST:PORT, prints READY; SIGTERM closes the server
 * and the database.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify"
import { jwtVerify } from "jose"
import { openDb, type Db, type DbTarget } from "./conventional/Db.ts"
import * as TaskSql from "./conventional/TaskSql.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const target: DbTarget = process.env.DATABASE_URL
  ? { databaseUrl: process.env.DATABASE_URL }
  : { dataDir: process.env.DATA_DIR ?? "./data" }
const db: Db = await openDb(target, Number(process.env.DB_POOL ?? 10))

const secret = new TextEncoder().encode(
  process.env.JWT_SECRET ||
    (await db.query<{ value: string }>("SELECT value FROM system_secrets WHERE name = 'jwt-signing-key'"))[0]?.value ||
    ""
)
const verified = new Map<string, { readonly userId: string; readonly expiresAtMillis: number }>()

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string
  ) {
    super(message)
  }
}

const userOf = async (request: FastifyRequest): Promise<string> => {
  const header = request.headers.authorization ?? ""
  const token = header.startsWith("Bearer ") ? header.slice(7) : ""
  if (token === "") throw new HttpError(401, "unauthorized", "Missing bearer token")
  const hit = verified.get(token)
  if (hit !== undefined && hit.expiresAtMillis > Date.now()) return hit.userId
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: "atrium", algorithms: ["HS256"] })
    if (typeof payload.sub !== "string") throw new Error("no subject")
    if (verified.size >= 10_000) verified.clear()
    verified.set(token, { userId: payload.sub, expiresAtMillis: (payload.exp ?? 0) * 1000 })
    return payload.sub
  } catch {
    throw new HttpError(401, "unauthorized", "Invalid access token")
  }
}

const uuidParam = (value: string, path: string) => {
  if (!UUID.test(value)) throw new HttpError(400, "invalid", `Invalid ${path}: not a UUID`, path)
  return value
}

const notFound = (what: string) => new HttpError(404, "not_found", `No such ${what}`)

const json = (reply: FastifyReply, status: number, body: string) => reply.code(status).header("content-type", "application/json").send(body)

const optionalString = (body: Record<string, unknown>, key: string, max: number): string | undefined => {
  const value = body[key]
  if (value === undefined) return undefined
  if (typeof value !== "string" || value.length > max || (key === "name" && value.trim() === "")) {
    throw new HttpError(400, "invalid", `Invalid body.${key}`, `body.${key}`)
  }
  return value
}

const objectBody = (body: unknown): Record<string, unknown> => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new HttpError(400, "invalid", "The body must be a JSON object", "body")
  return body as Record<string, unknown>
}

const app = Fastify({ logger: false })

app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
  const status = error instanceof HttpError ? error.status : (error.statusCode ?? 500)
  const code = error instanceof HttpError ? error.code : status < 500 ? "invalid" : "internal"
  const details = error instanceof HttpError && error.path ? [{ path: error.path, message: error.message }] : undefined
  if (status >= 500) process.stderr.write(`conventional-stack: ${error.stack ?? error.message}\n`)
  void json(
    reply,
    status,
    JSON.stringify({ error: { code, message: error.message, ...(details ? { details } : {}) }, requestId: request.id })
  )
})

app.get("/healthz", async () => ({ status: "ok" }))

app.get<{ Params: { taskId: string } }>("/pm/v1/tasks/:taskId", async (request, reply) => {
  const userId = await userOf(request)
  const body = await TaskSql.getTask(db, uuidParam(request.params.taskId, "path.taskId"), userId)
  if (body === undefined) throw notFound("task")
  return json(reply, 200, body)
})

app.patch<{ Params: { taskId: string } }>("/pm/v1/tasks/:taskId", async (request, reply) => {
  const userId = await userOf(request)
  const taskId = uuidParam(request.params.taskId, "path.taskId")
  const input = objectBody(request.body)
  const unknown = Object.keys(input).find((key) => key !== "name" && key !== "description")
  if (unknown !== undefined) throw new HttpError(400, "invalid", `Unsupported field body.${unknown}`, `body.${unknown}`)
  const patch: TaskSql.TaskPatch = {
    name: optionalString(input, "name", 500)?.trim(),
    description: optionalString(input, "description", 100_000)
  }
  const body = await TaskSql.updateTask(db, taskId, patch, userId)
  if (body === undefined) throw notFound("task")
  return json(reply, 200, body)
})

app.post<{ Params: { listId: string } }>("/pm/v1/lists/:listId/tasks", async (request, reply) => {
  const userId = await userOf(request)
  const listId = uuidParam(request.params.listId, "path.listId")
  const name = optionalString(objectBody(request.body), "name", 500)
  if (name === undefined) throw new HttpError(400, "invalid", "Missing body.name", "body.name")
  const body = await TaskSql.createTask(db, listId, name.trim(), userId)
  if (body === undefined) throw notFound("list")
  return json(reply, 201, body)
})

app.get<{ Querystring: Record<string, string | undefined> }>("/pm/v1/lite/search/tasks", async (request, reply) => {
  const userId = await userOf(request)
  const query = request.query
  const workspaceId = uuidParam(query.workspaceId ?? "", "query.workspaceId")
  const limit = query.limit === undefined ? 20 : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new HttpError(400, "invalid", "Invalid query.limit: 1..100", "query.limit")
  let after: { at: string; id: string } | undefined
  if (query.cursor !== undefined) {
    try {
      after = JSON.parse(Buffer.from(query.cursor, "base64url").toString("utf8"))
    } catch {
      throw new HttpError(400, "invalid", "Invalid query.cursor", "query.cursor")
    }
    if (typeof after?.at !== "string" || typeof after.id !== "string")
      throw new HttpError(400, "invalid", "Invalid query.cursor", "query.cursor")
  }
  const page = await TaskSql.searchTasks(db, { workspaceId, userId, q: query.q ?? "", limit, ...(after ? { after } : {}) })
  if (!page.member) throw notFound("workspace")
  const next = page.next ? JSON.stringify(Buffer.from(JSON.stringify(page.next)).toString("base64url")) : "null"
  return json(reply, 200, `{"items":[${page.items.join(",")}],"nextCursor":${next}}`)
})

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 0) })
console.log(`READY conventional-stack port=${(app.server.address() as { port: number }).port} db=${db.backend}`)

const stop = async () => {
  await app.close()
  await db.close()
  process.exit(0)
}
process.once("SIGTERM", () => void stop())
process.once("SIGINT", () => void stop())
