/**
 * The WebSocket endpoint `{wiki}/v1/collab` on the uWS app: Hocuspocus's
 * protocol, with uWS carrying the sockets.
 *
 * - The upgrade request's URL and headers are copied synchronously (uWS
 *   reuses the request object); a message's ArrayBuffer is copied before
 *   anything else (uWS detaches it when the callback returns).
 * - Every frame is checked whole first: malformed, truncated or unknown
 *   frames close that socket with 4400; documents and other sockets are
 *   untouched.
 * - Authentication, decided here on a socket's first Auth frame for a
 *   document (SocketRouter): the provider's token (a JWT or an API key)
 *   through `authenticate`, then `DocumentAccess.rightOf`: "edit" →
 *   read-write, served by Hocuspocus; "read" → read-only (updates refused,
 *   document untouched), served as a ReadOnlyReader without a Hocuspocus
 *   connection; "none" → 4403; a missing or bad token → 4401. Without a
 *   DocumentAccess service every document is refused (4403).
 * - Per socket only what its path needs: a light request (URL and the kept
 *   upgrade headers, not a node:http request) for Hocuspocus, shared adapter
 *   options; Hocuspocus listens to a socket only once it serves a document
 *   of it.
 *   Liveness is uWS's (automatic pings, idle timeout); one sweep over every
 *   socket closes those never authenticated within the idle time (4408).
 * - Before authentication a socket may send only so much (SocketAdapter's
 *   `admit`, Hocuspocus 4's limits); past it the socket is closed (4205).
 * - Limits: messages up to `maxMessageBytes`; a reader with more than
 *   `maxBackpressureBytes` queued is closed (uWS `closeOnBackpressureLimit`)
 *   and its provider reconnects and resyncs.
 */
import { Effect, Exit, Option } from "effect"
import { authenticate } from "../actors/auth/Authenticate.ts"
import type { Principal } from "../actors/identity/Principal.ts"
import { type TemplatedApp, uws, type WebSocket } from "../facade/uws.ts"
import type { CollabOptions } from "./CollabOptions.ts"
import { DocumentAccess, type DocumentRight } from "../actors/DocumentAccess.ts"
import type { Editor } from "../actors/LiveDocuments.ts"
import type { LiveServer } from "./LiveServer.ts"
import { checkClientFrame } from "./Protocol.ts"
import { CloseCode, SocketAdapter } from "./SocketAdapter.ts"
import { handleConnection } from "./HocuspocusInternals.ts"
import type { Grant } from "./Grant.ts"
import { type Refusal, type SocketData, SocketRouter } from "./SocketRouter.ts"
import { logError } from "../runtime/Log.ts"

/** Paths of the endpoint (the provider may append the document name; it is read from frames). */
export const COLLAB_PATHS = ["/wiki/v1/collab", "/wiki/v1/collab/*"] as const

/** Upgrade headers handed to Hocuspocus's hooks as `requestHeaders` (nothing in Atrium reads others). */
const KEPT_HEADERS = ["origin", "x-forwarded-for"] as const

const tokenCredentials = (token: string) => {
  const trimmed = token.trim()
  return { authorization: trimmed === "" ? "" : /^bearer\s/i.test(trimmed) ? trimmed : `Bearer ${trimmed}`, apiKey: "" }
}

const editorOf = (principal: Principal): Editor => ({
  userId: principal.userId,
  name: principal.kind === "user" ? principal.name : `API key ${principal.keyId}`,
  since: new Date().toISOString()
})

/** A refusal Hocuspocus reports to the provider (PermissionDenied) before the socket closes with `code`. */
const refuse = (socket: SocketAdapter | undefined, code: number, reason: string): never => {
  // Let Hocuspocus send its PermissionDenied frame first, then close.
  if (socket !== undefined) setImmediate(() => socket.close(code, reason))
  throw { reason }
}

export const attachEndpoint = (app: TemplatedApp, server: LiveServer, options: CollabOptions) =>
  Effect.gen(function* () {
    const access = yield* Effect.serviceOption(DocumentAccess)
    const sockets = new Map<SocketAdapter, number>()
    // Shared by every socket: nothing per connection.
    const adapterOptions = {
      maxBackpressureBytes: options.maxBackpressureBytes,
      durable: (name: string) => server.whenDurable(name),
      onDocumentClosed: (_name: string, reason: string) => server.documentClosed(reason)
    }
    // A socket never authenticated within the idle time is closed (uWS keeps a live one open: it answers pings).
    const idleMs = options.idleSeconds * 1000
    const timeouts = setInterval(() => {
      const now = Date.now()
      for (const [socket, openedAt] of sockets) {
        if (!socket.authenticated && now - openedAt > idleMs) socket.close(CloseCode.timeout, "connection timeout")
      }
    }, idleMs / 2)
    timeouts.unref()

    server.setPublisher((topic, frame) => {
      app.publish(topic, frame, true)
    })

    // Who the token names and what they may do with the document, decided in one run (both from memory once warm).
    const decide = (token: string, documentName: string) =>
      Effect.gen(function* () {
        const identified = yield* Effect.exit(authenticate(tokenCredentials(token)))
        const principal = Exit.isSuccess(identified) ? identified.value : undefined
        if (principal === undefined) return { principal, right: "none" as DocumentRight }
        if (Option.isNone(access)) return { principal, right: "none" as DocumentRight }
        const decided = yield* Effect.exit(access.value.rightOf(principal, documentName))
        if (Exit.isSuccess(decided)) return { principal, right: decided.value }
        logError("collab", `DocumentAccess failed for ${documentName}`, decided.cause)
        return { principal, right: "none" as DocumentRight }
      })

    // authenticate() runs in the server's context (actors, tokens, SQL): captured once, as the decision needs it.
    const context = yield* Effect.context<Effect.Services<ReturnType<typeof decide>>>()
    const run = <A, E>(effect: Effect.Effect<A, E, Effect.Services<ReturnType<typeof decide>>>) =>
      Effect.runPromiseExitWith(context)(effect)

    const grantFor = async (token: string, documentName: string): Promise<Grant | Refusal> => {
      const decided = await run(decide(token, documentName))
      const { principal, right } = Exit.isSuccess(decided) ? decided.value : { principal: undefined, right: "none" as DocumentRight }
      if (principal === undefined) return { code: CloseCode.unauthorized, reason: "unauthorized" }
      if (right === "none") return { code: CloseCode.forbidden, reason: "forbidden" }
      return { readOnly: right === "read", editor: editorOf(principal), principal }
    }

    // A document reopened on a socket Hocuspocus serves is decided in its onAuthenticate hook.
    server.setAuthenticator(async ({ token, documentName, socket }) => {
      const granted = await grantFor(token, documentName)
      return "code" in granted ? refuse(socket, granted.code, granted.reason) : granted
    })

    const router = new SocketRouter({
      decide: grantFor,
      openReader: (name, socket, grant) => server.openReader(name, socket, grant),
      attachHocuspocus: (data, socket) => handleConnection(server.hocuspocus, socket, data.request, { socket, grants: data.grants }),
      failed: (name, error) => logError("collab", `opening ${name} on a socket failed`, error)
    })

    const behavior = {
      compression: uws.DISABLED,
      maxPayloadLength: options.maxMessageBytes,
      maxBackpressure: options.maxBackpressureBytes,
      // A reader past the limit is closed rather than silently skipped: its provider resyncs.
      closeOnBackpressureLimit: 1,
      // uWS wants 0, or at least 8 and a multiple of 4.
      idleTimeout: Math.max(8, Math.ceil(options.idleSeconds / 4) * 4),
      sendPingsAutomatically: true,
      upgrade: (res: any, req: any, upgradeContext: any) => {
        // The request as Hocuspocus sees it (a node:http request per socket would cost far more than the
        // socket): the URL with its query, all it parses, and only the headers worth keeping for the socket's
        // life (who connected from where); the rest (user agent, handshake keys…) would be a dozen strings
        // held per idle reader.
        const headers: Record<string, string> = {}
        for (const name of KEPT_HEADERS) {
          const value = req.getHeader(name)
          if (value !== "") headers[name] = value
        }
        const query = req.getQuery() ?? ""
        const data: SocketData = { request: { url: query === "" ? req.getUrl() : `${req.getUrl()}?${query}`, headers } }
        res.upgrade(
          data,
          req.getHeader("sec-websocket-key"),
          req.getHeader("sec-websocket-protocol"),
          req.getHeader("sec-websocket-extensions"),
          upgradeContext
        )
      },
      open: (ws: WebSocket<SocketData>) => {
        const adapter = new SocketAdapter(ws, adapterOptions)
        ws.getUserData().adapter = adapter
        sockets.set(adapter, Date.now())
      },
      message: (ws: WebSocket<SocketData>, message: ArrayBuffer, isBinary: boolean) => {
        const data = ws.getUserData()
        const adapter = data.adapter
        if (adapter === undefined || adapter.closed) return
        if (!isBinary) {
          adapter.close(CloseCode.badFrame, "binary frames only")
          return
        }
        // uWS detaches this buffer when the callback returns: copy first.
        const frame = new Uint8Array(message.slice(0))
        const verdict = checkClientFrame(frame)
        if (verdict._tag === "Refuse") {
          adapter.close(CloseCode.badFrame, verdict.reason)
          return
        }
        if (verdict._tag === "Ignore") return
        if (!adapter.admit(verdict.name, frame.byteLength)) {
          adapter.close(CloseCode.tooMuchBeforeAuth, "too much sent before authentication")
          return
        }
        router.receive(data, adapter, frame, verdict.name, verdict.type)
      },
      close: (ws: WebSocket<SocketData>, code: number, message: ArrayBuffer) => {
        const data = ws.getUserData()
        const adapter = data.adapter
        if (adapter === undefined) return
        adapter.onClosed(code)
        sockets.delete(adapter)
        router.closed(data)
        // Hocuspocus's close handler reads the reason as a Buffer, as `ws` gives it.
        adapter.emit("close", code, Buffer.from(message))
      }
    }
    for (const path of COLLAB_PATHS) app.ws<SocketData>(path, behavior)

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        clearInterval(timeouts)
        for (const socket of sockets.keys()) socket.close(CloseCode.goingAway, "server shutting down")
        sockets.clear()
      })
    )
  })
