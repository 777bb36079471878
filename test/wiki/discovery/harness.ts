/**
 * Atrium for the wiki discovery tests: the same server as `startAtrium()`,
 * plus what the discovery side needs wired until the lead wires it for good
 * (each only when missing): its actor kinds and the search indexer on
 * LiveDocuments. Also direct SQL, the collab WebSocket URL, and fixtures for
 * workspaces, members, spaces and pages through the real operations.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { expect } from "vitest"
import { wikiDiscoveryActorKinds } from "../../../actors/wiki/discoveryKinds.ts"
import { searchIndexing } from "../../../actors/wiki/SearchIndex.ts"
import { extensions, start } from "../../../facade/Atrium.ts"
import * as AccessTokens from "../../../facade/auth/AccessTokens.ts"
import { type AtriumConfig, fromEnv } from "../../../facade/Config.ts"
import type { CoreServices } from "../../../facade/Extension.ts"
import { actorKinds } from "../../../facade/operations.ts"
import * as Database from "../../../persistence/Database.ts"
import * as FileBlobStore from "../../../persistence/FileBlobStore.ts"
import { Sql } from "../../../persistence/Sql.ts"
import * as SqlActorStore from "../../../persistence/SqlActorStore.ts"
import { layerInProcess } from "../../../runtime/InProcessTransport.ts"
import type { RequestOptions, TestAtrium, TestResponse } from "../../support/atrium.ts"

export interface DiscoveryAtrium extends TestAtrium {
  readonly sql: <R = Record<string, any>>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<R>>
  readonly collabUrl: string
  /** Runs an effect in the server's services (LiveDocuments, Sql, ActorSystem…). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
}

/** `databaseUrl`: run on PostgreSQL instead of PGlite. */
export const startDiscoveryAtrium = async (options: { readonly databaseUrl?: string } = {}): Promise<DiscoveryAtrium> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-wiki-discovery-"))
  const config: AtriumConfig = { ...fromEnv({}, []), host: "127.0.0.1", port: 0, dataDir, databaseUrl: options.databaseUrl }
  const scope = Effect.runSync(Scope.make())
  try {
    const stores = Layer.mergeAll(SqlActorStore.layer, AccessTokens.layer, FileBlobStore.layer(dataDir)).pipe(
      Layer.provideMerge(config.databaseUrl !== undefined ? Database.postgres(config.databaseUrl) : Database.pglite(dataDir))
    )
    const extended = extensions.reduce(
      (below, extension) => (extension.layer(config) as unknown as Layer.Layer<never, never, CoreServices>).pipe(Layer.provideMerge(below)),
      stores as unknown as Layer.Layer<CoreServices>
    )
    let context = await Effect.runPromise(Layer.buildWithScope(extended, scope)) as Context.Context<any>
    // Registers once per LiveDocuments: a no-op when the wiki extension already does it.
    context = Context.merge(context, await Effect.runPromise(Layer.buildWithScope(searchIndexing.pipe(Layer.provide(Layer.succeedContext(context))), scope)))
    const known = new Set(actorKinds.map((kind) => kind.kind))
    const kinds = [...actorKinds, ...wikiDiscoveryActorKinds.filter((kind) => !known.has(kind.kind))]
    const actorSystem = layerInProcess(kinds, { idleMillis: config.actorIdleMillis }) as unknown as Layer.Layer<any, never, never>
    context = Context.merge(context, await Effect.runPromise(Layer.buildWithScope(actorSystem.pipe(Layer.provide(Layer.succeedContext(context))), scope)))
    const server = await Effect.runPromise(start(config).pipe(Effect.provideContext(context), Scope.provide(scope)) as Effect.Effect<{ port: number; close: Effect.Effect<void> }>)
    const origin = `http://127.0.0.1:${server.port}`
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.runPromise(effect.pipe(Effect.provideContext(context)) as Effect.Effect<A, E>)
    const request = async (method: string, urlPath: string, options: RequestOptions = {}): Promise<TestResponse> => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      if (options.apiKey) headers["x-api-key"] = options.apiKey
      let body: string | Uint8Array | undefined = options.rawBody
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers["content-type"] ??= "application/json"
      }
      const response = await fetch(origin + urlPath, { method, headers, ...(body !== undefined ? { body } : {}) })
      const text = await response.text()
      let parsed: unknown = undefined
      try {
        parsed = text === "" ? undefined : JSON.parse(text)
      } catch {
        parsed = undefined
      }
      return { status: response.status, headers: response.headers, body: parsed, text }
    }
    return {
      origin,
      request,
      collabUrl: `ws://127.0.0.1:${server.port}/wiki/v1/collab`,
      run,
      sql: (text, params) => run(Sql.use((sql) => sql.query(text, params))) as never,
      close: async () => {
        await Effect.runPromise(server.close)
        await Effect.runPromise(Scope.close(scope, Exit.void))
        rmSync(dataDir, { recursive: true, force: true })
      }
    }
  } catch (error) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  }
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

export const addMember = async (atrium: TestAtrium, owner: TestUser, workspaceId: string, member: TestUser, role: "admin" | "member" | "viewer") =>
  ok(await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/members`, { token: owner.token, body: { email: member.email, role } }), 201, "add member")

export const createSpace = async (
  atrium: TestAtrium,
  user: TestUser,
  workspaceId: string,
  body: { name: string; key: string; visibility?: "workspace" | "restricted" }
) => ok(await atrium.request("POST", "/wiki/v1/spaces", { token: user.token, body: { workspaceId, ...body } }), 201, "create space") as {
  id: string
  key: string
}

export const createPage = async (
  atrium: TestAtrium,
  user: TestUser,
  spaceId: string,
  body: { title: string; markdown?: string; parentPageId?: string }
) => ok(await atrium.request("POST", `/wiki/v1/spaces/${spaceId}/pages`, { token: user.token, body }), 201, "create page") as {
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
