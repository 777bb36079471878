/**
 * Every private member of Hocuspocus (@hocuspocus/server) that Atrium relies
 * on, and the only place that reaches them. `checkHocuspocusInternals()` runs
 * when a LiveServer is built: it checks each member below on the installed
 * version (its presence, its shape and, where cheap, the behaviour relied on)
 * and throws an error naming the member and the version when one changed, so
 * an upgrade that moves them stops the server at start (and
 * test/collab/internals.test.ts), never silently. Written against 3.4.4 (the
 * newest line whose `engines` admit Node 20: 4.x requires Node 22).
 *
 * - `Document.handleUpdate(update, origin)` and
 *   `handleAwarenessUpdate(changes, origin)` (private): a document's
 *   constructor binds them as its Yjs and awareness `update` listeners; they
 *   send every change connection by connection (and the awareness one
 *   records which clients each socket owns, in the public `connections`, so
 *   `removeConnection` drops their states). Patched once on the prototype:
 *   a document given a route (`routeBroadcasts`) hands its changes to it
 *   after the same bookkeeping, and its updates skip the public
 *   `callbacks.onUpdate` (Hocuspocus's onChange hooks and its debounced
 *   onStoreDocument: a timer reset per update, for a server that stores
 *   through its own log and hooks neither); any other document keeps
 *   Hocuspocus's own.
 * - The Connection's constructor calls the public `document.addConnection`
 *   before the private `sendCurrentAwareness()` and before any message of
 *   the connection is handled — the moment to subscribe its socket and to
 *   swap in the join path (`sendCurrentAwareness`, `handleMessage`).
 * - `Hocuspocus.handleConnection(socket, request, context)`: declared with a
 *   `ws` WebSocket and a node:http request, it drives the socket through the
 *   members of `DrivenSocket` only and reads the request's `url` and
 *   `headers` (hook payloads), so an adapter and a light object serve.
 */
import { readFileSync } from "node:fs"
import type { IncomingHttpHeaders } from "node:http"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Connection, Document, Hocuspocus } from "@hocuspocus/server"
import type WebSocket from "ws"
import { Awareness, encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"

/** The version this module was written against (the checks, not this string, decide whether it may run). */
export const WRITTEN_AGAINST = "3.4.4"

/** The installed @hocuspocus/server's version (its package.json is not exported: found beside its entry point). */
export const installedVersion = (): string => {
  const entry = createRequire(import.meta.url).resolve("@hocuspocus/server")
  const manifest = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version?: unknown }
  return typeof manifest.version === "string" ? manifest.version : "unknown"
}

/** What Hocuspocus reads of the upgrade request: `url` (path and query) and `headers` (handed to hooks as `requestHeaders`). */
export interface LightRequest {
  readonly url: string
  readonly headers: IncomingHttpHeaders
}

/** The members of a `ws` WebSocket that Hocuspocus 3's ClientConnection and Connection use. */
export interface DrivenSocket {
  readonly readyState: number
  binaryType: string
  send(data: Uint8Array, callback?: (error?: Error) => void): void
  close(code?: number, reason?: string): void
  ping(): void
  on(event: "message" | "pong", listener: (...args: Array<any>) => void): unknown
  once(event: "close", listener: (...args: Array<any>) => void): unknown
  removeListener(event: string, listener: (...args: Array<any>) => void): unknown
  /** Hocuspocus replays the messages it queued while authenticating as "message" events. */
  emit(event: "message", data: Uint8Array): boolean
}

/** Where a routed document's changes go instead of Hocuspocus's connection-by-connection sends. */
export interface BroadcastRoute {
  /** A Yjs update of the document, whatever its origin. */
  readonly update: (update: Uint8Array) => void
  /** The awareness states of `clients` changed; `local`: by one of the document's connections (or their cleanup). */
  readonly awareness: (clients: Array<number>, local: boolean) => void
}

interface AwarenessChanges {
  readonly added: Array<number>
  readonly updated: Array<number>
  readonly removed: Array<number>
}

// The private sides, as 3.4 declares them (their origins are what Yjs passes: a Connection or a socket for clients' changes).
interface DocumentPrivates {
  handleUpdate: (this: Document, update: Uint8Array, origin: Connection) => Document
  handleAwarenessUpdate: (this: Document, changes: AwarenessChanges, origin: WebSocket | null) => Document
}
interface ConnectionPrivates {
  sendCurrentAwareness: () => void
}

/**
 * `owner` seen with the private members `T` declares: TypeScript has no other
 * way to a `private` member. The module's one view of them; every member a
 * `T` names is checked on the installed version at startup (`findChangedMember`).
 */
const privateView = <T extends object>(owner: object): T => owner as unknown as T

const routes = new WeakMap<Document, BroadcastRoute>()
/** The handlers installed on the prototype (re-installed if something replaced them since). */
let installed: DocumentPrivates | undefined

/** Installs the routing handlers on Document's prototype; unrouted documents keep Hocuspocus's own. */
const patchPrototype = (): void => {
  const prototype = privateView<DocumentPrivates>(Document.prototype)
  if (
    installed !== undefined &&
    prototype.handleUpdate === installed.handleUpdate &&
    prototype.handleAwarenessUpdate === installed.handleAwarenessUpdate
  ) {
    return
  }
  const hocuspocusUpdate = prototype.handleUpdate
  const hocuspocusAwareness = prototype.handleAwarenessUpdate
  installed = {
    handleUpdate(update, origin) {
      const route = routes.get(this)
      if (route === undefined) return hocuspocusUpdate.call(this, update, origin)
      route.update(update)
      return this
    },
    handleAwarenessUpdate(changes, origin) {
      const route = routes.get(this)
      if (route === undefined) return hocuspocusAwareness.call(this, changes, origin)
      // Hocuspocus's bookkeeping as 3.4 does it: the clients a socket's connection owns go when it is removed.
      const entry = origin === null ? undefined : this.connections.get(origin)
      if (entry !== undefined) {
        for (const client of changes.added) entry.clients.add(client)
        for (const client of changes.removed) entry.clients.delete(client)
      }
      route.awareness([...changes.added, ...changes.updated, ...changes.removed], origin === null || entry !== undefined)
      return this
    }
  }
  prototype.handleUpdate = installed.handleUpdate
  prototype.handleAwarenessUpdate = installed.handleAwarenessUpdate
}

/**
 * Routes `document`'s update and awareness broadcasts to `route` from now on
 * (instead of Hocuspocus sending each change to each connection). Only for
 * documents built after `checkHocuspocusInternals()`, which patches the
 * prototype whose handlers a document binds when it is built.
 */
export const routeBroadcasts = (document: Document, route: BroadcastRoute): void => {
  patchPrototype()
  routes.set(document, route)
}

/**
 * Calls `added` right after Hocuspocus registers a connection on `document`
 * (from the Connection's constructor, before the connection sends anything or
 * handles a message) and `removed` right after it unregisters one.
 */
export const followConnections = (
  document: Document,
  listeners: { readonly added: (connection: Connection) => void; readonly removed: (connection: Connection) => void }
): void => {
  const add = document.addConnection.bind(document)
  const remove = document.removeConnection.bind(document)
  document.addConnection = (connection) => {
    add(connection)
    listeners.added(connection)
    return document
  }
  document.removeConnection = (connection) => {
    remove(connection)
    listeners.removed(connection)
    return document
  }
}

/**
 * The path of one connection, called with the connection as `this`
 * (functions shared by a document's connections: nothing allocated per
 * connection): what it is sent when it joins, and how what it sends is
 * answered. Install it from `followConnections`' `added`, before the
 * connection handles a message (ClientConnection hands each message to the
 * connection's `handleMessage`).
 */
export interface JoinPath {
  /** Instead of Hocuspocus's own: sends what everyone's awareness is to the joining connection. */
  readonly sendCurrentAwareness: (this: Connection) => void
  /** Instead of `Connection.handleMessage` (its hooks, then MessageReceiver): answers every message of the connection. */
  readonly handleMessage: (this: Connection, data: Uint8Array) => void
}

export const replaceJoinPath = (connection: Connection, path: JoinPath): void => {
  privateView<ConnectionPrivates>(connection).sendCurrentAwareness = path.sendCurrentAwareness
  connection.handleMessage = path.handleMessage
}

/**
 * Hocuspocus 3's two entry points that take a socket and a request, as they
 * behave: declared with `ws`'s WebSocket and node:http's IncomingMessage,
 * they use only what DrivenSocket and LightRequest name (see the header).
 */
interface SocketEntryPoints {
  readonly handleConnection: (this: Hocuspocus, socket: DrivenSocket, request: LightRequest, context: object) => void
  readonly Connection: new (
    socket: DrivenSocket,
    request: LightRequest,
    document: Document,
    socketId: string,
    context: object
  ) => Connection
}

// The declared parameter types are wider than what is used; the checks below drive a scratch socket through both.
// Read when used (not at load), so that what is checked is what runs.
const entryPoints = (): SocketEntryPoints =>
  ({ handleConnection: Hocuspocus.prototype.handleConnection, Connection }) as unknown as SocketEntryPoints

/** Opens Hocuspocus's handling of one socket (it listens to the socket's events from now on). */
export const handleConnection = (hocuspocus: Hocuspocus, socket: DrivenSocket, request: LightRequest, context: object): void => {
  entryPoints().handleConnection.call(hocuspocus, socket, request, context)
}

// ---------------------------------------------------------------- checks

class InternalsChanged extends Error {
  constructor(version: string, member: string, expected: string) {
    super(
      `@hocuspocus/server ${version}: ${member} ${expected}. Atrium relies on this member through ` +
        `collab/HocuspocusInternals.ts (written against ${WRITTEN_AGAINST}); adapt that module to this version or pin ${WRITTEN_AGAINST}.`
    )
    this.name = "HocuspocusInternalsChanged"
  }
}

const method = (owner: object, ownerName: string, name: string, arity: number): [string, string] | undefined => {
  const value: unknown = Reflect.get(owner, name)
  if (typeof value !== "function") return [`${ownerName}.${name}`, "is not a method any more"]
  if (value.length !== arity) return [`${ownerName}.${name}`, `takes ${value.length} parameters, not ${arity}`]
  return undefined
}

/** A socket that records what Hocuspocus does with it. */
class ScratchSocket implements DrivenSocket {
  readyState = 1
  binaryType = "arraybuffer"
  readonly listeners = new Map<string, Array<(...args: Array<any>) => void>>()
  readonly sent: Array<Uint8Array> = []
  send(data: Uint8Array): void {
    this.sent.push(data)
  }
  /** Frames sent so far (a method: what it returns changes with calls in between). */
  sentCount(): number {
    return this.sent.length
  }
  close(): void {
    this.readyState = 3
  }
  ping(): void {}
  on(event: string, listener: (...args: Array<any>) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
    return this
  }
  once(event: string, listener: (...args: Array<any>) => void): this {
    return this.on(event, listener)
  }
  removeListener(event: string, listener: (...args: Array<any>) => void): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((known) => known !== listener)
    )
    return this
  }
  emit(event: string, ...args: Array<unknown>): boolean {
    const listeners = this.listeners.get(event) ?? []
    for (const listener of listeners) listener(...args)
    return listeners.length > 0
  }
}

const scratchRequest: LightRequest = { url: "/?check=1", headers: { origin: "internals-check" } }

/** The members' behaviour, on a scratch document and connections (a few microseconds; nothing reaches a real socket). */
const behaviour = (): [string, string] | undefined => {
  // Before the document is built: its constructor binds the handlers.
  patchPrototype()
  const document = new Document("internals-check", {})
  try {
    // Unrouted: Hocuspocus's own sends, connection by connection.
    const plain = new ScratchSocket()
    const plainConnection = new (entryPoints().Connection)(plain, scratchRequest, document, "internals-check", {})
    document.getText("check").insert(0, "x")
    if (plain.sentCount() !== 1) return ["Document.handleUpdate", "is not what sends a document's update to its connections"]
    const peer = new Awareness(new Y.Doc())
    peer.setLocalState({ check: true })
    document.applyAwarenessUpdate(plainConnection, encodeAwarenessUpdate(peer, [peer.clientID]))
    if (plain.sentCount() !== 2 || document.getClients(plainConnection.webSocket).size !== 1) {
      return ["Document.handleAwarenessUpdate", "is not what sends awareness changes to a document's connections and records their clients"]
    }
    plainConnection.close()

    // Routed: a change reaches the route only (not the public onUpdate callback, nor any connection).
    const heard: Array<string> = []
    document.onUpdate(() => heard.push("onUpdate"))
    routeBroadcasts(document, {
      update: () => heard.push("update"),
      awareness: (clients, local) => heard.push(`awareness ${clients.length} ${local}`)
    })
    const order: Array<string> = []
    followConnections(document, {
      added: (connection) => {
        order.push("addConnection")
        privateView<ConnectionPrivates>(connection).sendCurrentAwareness = () => order.push("sendCurrentAwareness")
      },
      removed: () => order.push("removeConnection")
    })
    const socket = new ScratchSocket()
    const connection = new (entryPoints().Connection)(socket, scratchRequest, document, "internals-check", {})
    if (order.join() !== "addConnection,sendCurrentAwareness") {
      return ["Connection's constructor", "no longer calls document.addConnection, then this.sendCurrentAwareness()"]
    }
    document.getText("check").insert(0, "y")
    if (heard.join() !== "update" || socket.sent.length !== 0) {
      return ["Document.handleUpdate", "is not the document's Yjs update listener (bound at construction)"]
    }
    heard.length = 0
    peer.doc.destroy()
    const other = new Awareness(new Y.Doc())
    other.setLocalState({ check: true })
    document.applyAwarenessUpdate(connection, encodeAwarenessUpdate(other, [other.clientID]))
    other.doc.destroy()
    const owned = [...document.connections.values()].find((entry) => entry.connection === connection)?.clients.size
    if (heard.join() !== "awareness 1 true" || socket.sent.length !== 0 || owned !== 1) {
      return ["Document.handleAwarenessUpdate", "is not the awareness update listener recording the clients of each connection"]
    }
    connection.close()
    if (document.awareness.getStates().size !== 0 || order.at(-1) !== "removeConnection") {
      return ["Document.removeConnection", "no longer drops the states of the clients its connection owned"]
    }
    return undefined
  } finally {
    routes.delete(document)
    document.destroy()
  }
}

/** Hocuspocus drives a socket through its events (messages, pongs, its close) and closes nothing by itself. */
const drivesSocket = (): [string, string] | undefined => {
  const hocuspocus = new Hocuspocus({ quiet: true })
  const socket = new ScratchSocket()
  handleConnection(hocuspocus, socket, scratchRequest, {})
  const events = [...socket.listeners.keys()].sort().join()
  // Its close handler stops the connection's ping timer.
  socket.emit("close", 1000, Buffer.from(""))
  if (events !== "close,message,pong") {
    return ["Hocuspocus.handleConnection", `listens to the socket's "${events}" events, not close, message and pong`]
  }
  if (socket.readyState !== 1 || socket.sent.length !== 0) return ["Hocuspocus.handleConnection", "uses the socket before a message"]
  return undefined
}

/** The first member that is not as this module expects on the installed version, as the error to stop with. */
export const findChangedMember = (): Error | undefined => {
  const problem =
    method(Document.prototype, "Document", "handleUpdate", 2) ??
    method(Document.prototype, "Document", "handleAwarenessUpdate", 2) ??
    method(Document.prototype, "Document", "addConnection", 1) ??
    method(Document.prototype, "Document", "removeConnection", 1) ??
    method(Connection.prototype, "Connection", "sendCurrentAwareness", 0) ??
    method(Connection.prototype, "Connection", "handleMessage", 1) ??
    method(Hocuspocus.prototype, "Hocuspocus", "handleConnection", 2) ??
    behaviour() ??
    drivesSocket()
  return problem === undefined ? undefined : new InternalsChanged(installedVersion(), problem[0], problem[1])
}

let checked = false

/** Throws (naming the member and the version) unless every member this module relies on is as it expects. Runs once. */
export const checkHocuspocusInternals = (): void => {
  if (checked) return
  const changed = findChangedMember()
  if (changed !== undefined) throw changed
  checked = true
}
