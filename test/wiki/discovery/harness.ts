/**
 * Atrium for the wiki discovery tests: the server of `startAtrium()` with its
 * collab WebSocket URL, and fixtures for workspaces, members, spaces and pages
 * through the real operations.
 */
import { expect } from "vitest"
import { startAtrium, type TestAtrium, type TestResponse, type TestServer } from "../../support/atrium.ts"

export interface DiscoveryAtrium extends TestServer {
  readonly collabUrl: string
}

/** `databaseUrl`: run on PostgreSQL instead of PGlite. */
export const startDiscoveryAtrium = async (options: { readonly databaseUrl?: string } = {}): Promise<DiscoveryAtrium> => {
  const atrium = await startAtrium(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {})
  return { ...atrium, collabUrl: `ws://127.0.0.1:${atrium.port}/wiki/v1/collab` }
}

let counter = 0
export const signUp = async (atrium: TestAtrium, name = "User") => {
  const email = `${name.toLowerCase().replace(/\W/g, "")}-${Date.now().toString(36)}-${++counter}@example.com`
  const password = "correct horse battery"
  const registered = await atrium.request("POST", "/pm/v1/auth/register", { body: { email, password, name } })
  if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`)
  const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email, password } })
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`)
  return { email, name, userId: registered.body.user.id as string, token: login.body.accessToken as string }
}
export type TestUser = Awaited<ReturnType<typeof signUp>>

const ok = (response: TestResponse, status: number, what: string) => {
  expect(response.status, `${what}: ${response.text}`).toBe(status)
  return response.body
}

export const createWorkspace = async (atrium: TestAtrium, owner: TestUser, name = "Acme") =>
  ok(await atrium.request("POST", "/pm/v1/workspaces", { token: owner.token, body: { name } }), 201, "create workspace").id as string

export const addMember = async (
  atrium: TestAtrium,
  owner: TestUser,
  workspaceId: string,
  member: TestUser,
  role: "admin" | "member" | "viewer"
) =>
  ok(
    await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, { token: owner.token, body: { email: member.email, role } }),
    201,
    "add member"
  )

export const createSpace = async (
  atrium: TestAtrium,
  user: TestUser,
  workspaceId: string,
  body: { name: string; key: string; visibility?: "workspace" | "restricted" }
) =>
  ok(await atrium.request("POST", "/wiki/v1/spaces", { token: user.token, body: { workspaceId, ...body } }), 201, "create space") as {
    id: string
    key: string
  }

export const createPage = async (
  atrium: TestAtrium,
  user: TestUser,
  spaceId: string,
  body: { title: string; markdown?: string; parentPageId?: string }
) =>
  ok(await atrium.request("POST", `/wiki/v1/spaces/${spaceId}/pages`, { token: user.token, body }), 201, "create page") as {
    id: string
    slug: string
    title: string
  }

/** Polls `probe` until it returns a value (the indexer runs after the change, not with it). */
export const eventually = async <A>(probe: () => Promise<A | undefined>, what: string, tries = 100): Promise<A> => {
  for (let i = 0; i < tries; i++) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`never happened: ${what}`)
}
