/**
 * The Fastify baseline: the facade's benchmarked routes, with the same kind
 * of work per request, behind Fastify 5 instead of Atrium's stack:
 *
 * - GET  /pm/v1/api-catalog                 a JSON catalog (~40 operations), serialised per request
 * - POST /pm/v1/auth/register, /auth/login  scrypt (as actors/identity/Password.ts), HS256 JWT via jose
 * - POST /pm/v1/workspaces                  Bearer JWT verify + JSON body parse + validation + insert in a Map
 * - GET  /hub/v1/workspaces/:id/settings    Bearer JWT verify + Map lookup + membership check
 * - GET  /healthz
 *
 * State lives in memory: it measures the HTTP stack and the per-request
 * work, not persistence. Listens on 127.0.0.1:$PORT; logging off.
 */
import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify"
import { SignJWT, jwtVerify } from "jose"

const derive = promisify(scrypt) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const secret = randomBytes(32)

interface User {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly salt: Buffer
  readonly hash: Buffer
}
interface Workspace {
  readonly id: string
  readonly name: string
  readonly ownerId: string
  readonly members: ReadonlySet<string>
  readonly createdAt: string
}

const usersByEmail = new Map<string, User>()
const workspaces = new Map<string, Workspace>()

const services = ["hub", "pm", "wiki", "feedback"] as const
const resources = ["workspaces", "projects", "tasks", "pages", "comments"] as const
const catalog = {
  version: "v1",
  operations: services.flatMap((service) =>
    resources.flatMap((resource) => [
      { id: `${service}.${resource}.list`, service, method: "GET", path: `/${service}/v1/${resource}`, summary: `List ${resource}`, auth: "both", scopes: [`${resource}:read`] },
      { id: `${service}.${resource}.create`, service, method: "POST", path: `/${service}/v1/${resource}`, summary: `Create a ${resource.slice(0, -1)}`, auth: "both", scopes: [`${resource}:write`] }
    ])
  )
}

const fail = (reply: FastifyReply, status: number, code: string, message: string) => reply.code(status).send({ error: { code, message } })

interface Claims {
  readonly sub: string
  readonly email: string
}

/** The Bearer token's claims, or undefined after replying 401. */
const authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<Claims | undefined> => {
  const header = request.headers.authorization
  if (!header?.startsWith("Bearer ")) return void fail(reply, 401, "unauthorized", "missing bearer token")
  try {
    const { payload } = await jwtVerify(header.slice(7), secret, { algorithms: ["HS256"] })
    return { sub: String(payload.sub), email: String(payload.email) }
  } catch {
    return void fail(reply, 401, "unauthorized", "invalid token")
  }
}

const app = Fastify({ logger: false })

app.get("/healthz", async () => ({ ok: true }))

app.get("/pm/v1/api-catalog", async () => catalog)

app.post("/pm/v1/auth/register", async (request, reply) => {
  const body = request.body as { email?: unknown; password?: unknown; name?: unknown } | undefined
  const { email, password, name } = body ?? {}
  if (typeof email !== "string" || typeof password !== "string" || password.length < 8 || typeof name !== "string") {
    return fail(reply, 400, "invalid", "email, password (8+) and name required")
  }
  if (usersByEmail.has(email)) return fail(reply, 409, "conflict", "email taken")
  const salt = randomBytes(16)
  const user: User = { id: randomUUID(), email, name, salt, hash: await derive(password, salt, 32, SCRYPT) }
  usersByEmail.set(email, user)
  return reply.code(201).send({ id: user.id, email, name })
})

app.post("/pm/v1/auth/login", async (request, reply) => {
  const { email, password } = (request.body ?? {}) as { email?: unknown; password?: unknown }
  const user = typeof email === "string" ? usersByEmail.get(email) : undefined
  if (!user || typeof password !== "string") return fail(reply, 401, "unauthorized", "bad credentials")
  const key = await derive(password, user.salt, 32, SCRYPT)
  if (!timingSafeEqual(key, user.hash)) return fail(reply, 401, "unauthorized", "bad credentials")
  const accessToken = await new SignJWT({ email: user.email, name: user.name, sid: randomUUID() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(secret)
  return { accessToken, tokenType: "Bearer", expiresIn: 3600 }
})

app.post("/pm/v1/workspaces", async (request, reply) => {
  const claims = await authenticate(request, reply)
  if (!claims) return reply
  const { name } = (request.body ?? {}) as { name?: unknown }
  if (typeof name !== "string" || name.trim() === "" || name.length > 100) return fail(reply, 400, "invalid", "name: 1-100 characters")
  const workspace: Workspace = {
    id: randomUUID(),
    name,
    ownerId: claims.sub,
    members: new Set([claims.sub]),
    createdAt: new Date().toISOString()
  }
  workspaces.set(workspace.id, workspace)
  return reply.code(201).send({ id: workspace.id, name, ownerId: workspace.ownerId, createdAt: workspace.createdAt })
})

app.get("/hub/v1/workspaces/:id/settings", async (request, reply) => {
  const claims = await authenticate(request, reply)
  if (!claims) return reply
  const workspace = workspaces.get((request.params as { id: string }).id)
  if (!workspace) return fail(reply, 404, "not_found", "no such workspace")
  if (!workspace.members.has(claims.sub)) return fail(reply, 403, "forbidden", "not a member")
  return { workspaceId: workspace.id, name: workspace.name, defaultRole: "member", allowGuests: false, createdAt: workspace.createdAt }
})

await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) })
console.log(`READY fastify port=${(app.server.address() as { port: number }).port}`)
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)))
