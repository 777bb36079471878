/**
 * Starts a whole Atrium (HTTP facade, actors, PGlite in a temp dir unless a
 * database URL is given) inside the test process on a free port, and gives a
 * small JSON client for it.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { type Context, Effect, Exit, Layer, Scope } from "effect"
import * as Database from "../../persistence/Database.ts"
import { Sql, type SqlError } from "../../persistence/Sql.ts"
import { services, start } from "../../server/Atrium.ts"
import { type AtriumConfig, fromEnv } from "../../facade/Config.ts"
import { SMALL_DATABASE_SETTINGS, seedPglite } from "../../tools/PgliteTemplate.ts"

export interface TestAtrium {
  readonly origin: string
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<TestResponse>
  readonly close: () => Promise<void>
}

/** A server started in the test process: also reachable from inside. */
export interface TestServer extends TestAtrium {
  readonly port: number
  /** Runs an effect with the server's own services (Sql, ActorSystem, LiveDocuments, ChangeLog…). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  /** A query against the server's database. */
  readonly sql: <R = Record<string, any>>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<R>>
}

export interface RequestOptions {
  readonly body?: unknown
  /** Sent as-is (for malformed bodies). */
  readonly rawBody?: string | Uint8Array
  readonly token?: string
  readonly apiKey?: string
  readonly headers?: Record<string, string>
}

export interface TestResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

/** `seedPglite` with the settings of a small database; a directory seeded before (a restart) is left as it is. */
export const seedTestPglite = (dataDir: string): Promise<void> => seedPglite(dataDir, SMALL_DATABASE_SETTINGS)

/**
 * A migrated PGlite database in a temporary folder of its own, removed after the database is closed: a copy of
 * the template, where `Database.pglite(PgliteSql.memory)` runs initdb and every migration (about 10 s of CPU).
 */
export const testPglite: Layer.Layer<Sql, SqlError> = Layer.unwrap(
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-pglite-"))
        await seedTestPglite(dataDir)
        return dataDir
      }),
      (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
    ),
    Database.pglite
  )
)

export const startAtrium = async (overrides: Partial<AtriumConfig> = {}): Promise<TestServer> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-test-"))
  const config: AtriumConfig = { ...fromEnv({}, []), host: "127.0.0.1", port: 0, dataDir, ...overrides }
  if (!config.databaseUrl) await seedTestPglite(config.dataDir)
  const scope = Effect.runSync(Scope.make())
  let context: Context.Context<any> | undefined
  const server = await Effect.runPromise(
    Effect.flatMap(Layer.buildWithScope(services(config), scope), (built) => {
      context = built
      return start(config).pipe(Effect.provideContext(built), Scope.provide(scope))
    })
  ).catch(async (error) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  const origin = `http://127.0.0.1:${server.port}`
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.runPromise(Effect.provideContext(effect, context!) as Effect.Effect<A, E>)
  return {
    origin,
    port: server.port,
    request: jsonClient(origin),
    run,
    sql: (text, params = []) => run(Sql.use((sql) => sql.query(text, params))) as never,
    close: async () => {
      await Effect.runPromise(server.close)
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** A small JSON client for an Atrium origin: credentials, raw bodies, parsed replies. */
export const jsonClient =
  (origin: string): TestAtrium["request"] =>
  async (method, urlPath, options = {}) => {
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
    let parsed: unknown
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, body: parsed, text }
  }

let counter = 0
/** Registers and logs in a fresh user; returns its tokens. */
export const signUp = async (atrium: TestAtrium, name = "User") => {
  const email = `${name.toLowerCase().replace(/\W/g, "")}-${Date.now().toString(36)}-${++counter}@example.com`
  const password = "correct horse battery"
  const registered = await atrium.request("POST", "/pm/v1/auth/register", { body: { email, password, name } })
  if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`)
  const login = await atrium.request("POST", "/pm/v1/auth/login", { body: { email, password } })
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`)
  return {
    email,
    password,
    userId: registered.body.user.id as string,
    token: login.body.accessToken as string,
    refreshToken: login.body.refreshToken as string
  }
}
