/**
 * Collab test harness: a whole Atrium (as `startAtrium` builds it) plus a
 * `DocumentAccess` of the tests' own — the right follows the document
 * name's prefix: `ro-…` read, `no-…` none, anything else edit — and helpers
 * to drive real `@hocuspocus/provider` clients over `ws`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import WebSocket from "ws"
import * as Y from "yjs"
import { DocumentAccess, type DocumentRight } from "../../actors/DocumentAccess.ts"
import { LiveDocuments, type LiveDocumentsShape } from "../../actors/LiveDocuments.ts"
import { CollabServer } from "../../collab/LiveDocumentsLive.ts"
import type { LiveServer } from "../../collab/LiveServer.ts"
import { contentOf, docToText, yFragmentToDoc } from "../../richtext/RichText.ts"
import { services, start } from "../../server/Atrium.ts"
import { type AtriumConfig, fromEnv } from "../../facade/Config.ts"
import { seedTestPglite, type TestAtrium } from "./atrium.ts"

export const rightByName = (name: string): DocumentRight => (name.startsWith("ro-") ? "read" : name.startsWith("no-") ? "none" : "edit")

/** Rights set by a test for one user on one document (they win over the name's prefix). */
const grants = new Map<string, DocumentRight>()
export const grant = (userId: string, name: string, right: DocumentRight): void => {
  grants.set(`${userId}\u0000${name}`, right)
}

export const testAccessLayer = Layer.succeed(DocumentAccess, {
  rightOf: (principal, name) => Effect.succeed(grants.get(`${principal.userId}\u0000${name}`) ?? rightByName(name))
})

export interface CollabAtrium extends TestAtrium {
  readonly port: number
  readonly collabUrl: string
  readonly live: LiveDocumentsShape
  readonly server: LiveServer
  /** Runs an effect in the server's context. */
  readonly run: <A>(effect: Effect.Effect<A, unknown, any>) => Promise<A>
}

/**
 * Starts Atrium with the test DocumentAccess. `env` is applied to
 * `process.env` while the layers are built (COLLAB_* options).
 */
export const startCollabAtrium = async (overrides: Partial<AtriumConfig> = {}, env: Record<string, string> = {}): Promise<CollabAtrium> => {
  const dataDir = overrides.dataDir ?? mkdtempSync(path.join(tmpdir(), "atrium-collab-"))
  const ownsDir = overrides.dataDir === undefined
  const config: AtriumConfig = { ...fromEnv({}, []), host: "127.0.0.1", port: 0, dataDir, ...overrides }
  if (!config.databaseUrl) await seedTestPglite(config.dataDir)
  const scope = Effect.runSync(Scope.make())
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  Object.assign(process.env, env)
  let context: Context.Context<any>
  try {
    context = await Effect.runPromise(Layer.buildWithScope(Layer.merge(services(config), testAccessLayer) as Layer.Layer<any>, scope))
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  const server = await Effect.runPromise(start(config).pipe(Effect.provideContext(context), Scope.provide(scope))).catch(async (error) => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  })
  const origin = `http://127.0.0.1:${server.port}`
  const request: TestAtrium["request"] = async (method, urlPath, options = {}) => {
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
  let closed = false
  return {
    origin,
    port: server.port,
    collabUrl: `ws://127.0.0.1:${server.port}/wiki/v1/collab`,
    live: Context.get(context, LiveDocuments),
    server: Context.get(context, CollabServer),
    run: (effect) => Effect.runPromise(Effect.provideContext(effect, context) as Effect.Effect<any, unknown, never>),
    request,
    close: async () => {
      if (closed) return
      closed = true
      await Effect.runPromise(server.close)
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

export interface TestEditor {
  readonly provider: HocuspocusProvider
  readonly socket: HocuspocusProviderWebsocket
  readonly doc: Y.Doc
  readonly text: () => string
  readonly closes: Array<{ readonly code: number; readonly reason: string }>
  readonly authFailures: Array<string>
  readonly destroy: () => void
}

/**
 * `ws` as the provider's WebSocket, quiet about a socket closed while still
 * connecting (a browser's WebSocket just closes): Hocuspocus's provider 3
 * removes its listeners, then closes it, when it reconnects or is destroyed.
 */
class QuietWebSocket extends WebSocket {
  constructor(address: string) {
    super(address)
    this.on("error", () => {})
  }
}

/** A provider over `ws`, as a browser editor would connect (Tiptap's Collaboration uses the "default" fragment). */
export const connectEditor = (
  url: string,
  name: string,
  token: string,
  options: {
    readonly awareness?: boolean
    /** Another editor's socket, shared (one socket, several documents; destroying this editor leaves it open). */
    readonly socket?: HocuspocusProviderWebsocket
    /** What the editor holds before it connects (its first SyncStep1 then has a state vector). */
    readonly state?: Uint8Array
  } = {}
): TestEditor => {
  const doc = new Y.Doc()
  if (options.state !== undefined) Y.applyUpdate(doc, options.state)
  const closes: Array<{ code: number; reason: string }> = []
  const authFailures: Array<string> = []
  const socket =
    options.socket ??
    new HocuspocusProviderWebsocket({
      url,
      WebSocketPolyfill: QuietWebSocket,
      // reconnect quickly in tests
      delay: 50,
      minDelay: 50,
      maxDelay: 500,
      factor: 1.5,
      jitter: false,
      onClose: ({ event }: { event: { code: number; reason?: unknown } }) => {
        closes.push({ code: event.code, reason: String(event.reason ?? "") })
      }
    })
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name,
    token,
    document: doc,
    ...(options.awareness === false ? { awareness: null } : {}),
    onAuthenticationFailed: ({ reason }) => {
      authFailures.push(reason)
    }
  })
  provider.attach()
  return {
    provider,
    socket,
    doc,
    text: () => docToText(yFragmentToDoc(contentOf(doc))),
    closes,
    authFailures,
    destroy: () => {
      provider.destroy()
      if (options.socket === undefined) socket.destroy()
    }
  }
}

/** Polls `check` until it holds (tests never assert timings; this only bounds the wait). */
export const eventually = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export const synced = (editor: TestEditor, what = "provider synced") => eventually(() => editor.provider.isSynced, what)

/** Everything the editor typed is acknowledged (durable on the server). */
export const acknowledged = (editor: TestEditor, what = "changes acknowledged") =>
  eventually(() => editor.provider.isSynced && editor.provider.unsyncedChanges === 0, what)

/** Types `text` at the end of the first paragraph (creating it), one Yjs transaction. */
export const typeText = (editor: TestEditor, text: string): void => {
  const fragment = contentOf(editor.doc)
  editor.doc.transact(() => {
    let paragraph = fragment.get(0) as Y.XmlElement | undefined
    if (paragraph === undefined) {
      paragraph = new Y.XmlElement("paragraph")
      fragment.insert(0, [paragraph])
    }
    let run = paragraph.get(0) as Y.XmlText | undefined
    if (run === undefined) {
      run = new Y.XmlText()
      paragraph.insert(0, [run])
    }
    run.insert(run.length, text)
  })
}

/** Appends a paragraph holding `text` (one Yjs transaction). */
export const addParagraph = (editor: TestEditor, text: string): void => {
  const fragment = contentOf(editor.doc)
  editor.doc.transact(() => {
    const paragraph = new Y.XmlElement("paragraph")
    const run = new Y.XmlText()
    run.insert(0, text)
    paragraph.insert(0, [run])
    fragment.insert(fragment.length, [paragraph])
  })
}
