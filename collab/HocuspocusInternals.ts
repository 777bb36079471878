/**
 * Every private member of Hocuspocus (@hocuspocus/server) that Atrium relies
 * on, and the only place that reaches them. `checkHocuspocusInternals()` runs
 * when a LiveServer is built: it checks each member below on the installed
 * version (its presence, its shape and, where cheap, the behaviour relied on)
 * and throws an error naming the member and the version when one changed, so
 * an upgrade that moves them stops the server at start (and
 * test/collab/internals.test.ts), never silently. Written against 4.7.0.
 *
 * - `Document.broadcast(encode, filter?)` (private): every update, awareness
 *   and stateless frame of a document goes out through it, connection by
 *   connection (updates and awareness when the public `flush()` sends what
 *   `flushDelay` buffered). Replaced per document by one publish to the
 *   document's uWS topic (LiveServer).
 * - `Document.addConnection` / `removeConnection`: the Connection's
 *   constructor calls `addConnection(this)` before it sends the current
 *   awareness and before any message of the connection is handled — the
 *   moment to subscribe its socket and to swap in the join path.
 * - `Connection.sendCurrentAwareness()` (private), `Connection.handleMessage`
 *   and the private `messageQueue` it fills: the join path answers a fresh
 *   provider from frames encoded once (JoinFrames), and only while nothing of
 *   the connection is queued before it.
 * - `ClientConnection.check` (private) and `pingInterval`: the idle check,
 *   run by one sweep over every socket instead of a timer per socket.
 * - `Hocuspocus.handleConnection(socket, request)`: Hocuspocus reads only the
 *   request's `url` and `headers` (hook payloads), so a light object serves.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Connection, Document, Hocuspocus, type WebSocketLike } from "@hocuspocus/server"

/** The version this module was written against (the checks, not this string, decide whether it may run). */
export const WRITTEN_AGAINST = "4.7.0"

/** The installed @hocuspocus/server's version (its package.json is not exported: found beside its entry point). */
export const installedVersion = (): string => {
  const entry = createRequire(import.meta.url).resolve("@hocuspocus/server")
  const manifest = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version?: unknown }
  return typeof manifest.version === "string" ? manifest.version : "unknown"
}

/** One document connection's outgoing frame for a message address. */
export type Encode = (address: string) => Uint8Array
export type Broadcast = (encode: Encode, filter?: (connection: Connection) => boolean) => void

/** Hocuspocus's per-socket ClientConnection (not exported by name). */
export type ClientConnection = ReturnType<Hocuspocus["handleConnection"]>

/** What Hocuspocus reads of the upgrade request: `url` (path and query) and `headers` (handed to hooks as `requestHeaders`). */
export interface LightRequest {
  readonly url: string
  readonly headers: {
    get(name: string): string | null
    has(name: string): boolean
    entries(): IterableIterator<[string, string]>
  }
}

// The private sides, as 4.7 declares them.
interface DocumentPrivates {
  broadcast: Broadcast
  addConnection: (connection: Connection) => Document
  removeConnection: (connection: Connection) => Document
}
interface ConnectionPrivates {
  readonly messageQueue: ReadonlyArray<Uint8Array>
  sendCurrentAwareness: () => void
  handleMessage: (data: Uint8Array) => void
}
interface ClientConnectionPrivates {
  readonly check: () => void
  pingInterval: NodeJS.Timeout | undefined
}

// The module's casts: TypeScript has no other way to a `private` member; each is checked at startup.
const documentPrivates = (document: Document): DocumentPrivates => document as unknown as DocumentPrivates
const connectionPrivates = (connection: Connection): ConnectionPrivates => connection as unknown as ConnectionPrivates
const clientPrivates = (client: ClientConnection): ClientConnectionPrivates => client as unknown as ClientConnectionPrivates

const hocuspocusHandleMessage: (this: Connection, data: Uint8Array) => void = Connection.prototype.handleMessage

/**
 * Replaces `document`'s connection-by-connection broadcast by `broadcast`
 * (which may call the returned original, e.g. for filtered broadcasts).
 */
export const replaceBroadcast = (document: Document, broadcast: Broadcast): Broadcast => {
  const privates = documentPrivates(document)
  const original = privates.broadcast.bind(document)
  privates.broadcast = broadcast
  return original
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
  const privates = documentPrivates(document)
  const add = privates.addConnection.bind(document)
  const remove = privates.removeConnection.bind(document)
  privates.addConnection = (connection) => {
    add(connection)
    listeners.added(connection)
    return document
  }
  privates.removeConnection = (connection) => {
    remove(connection)
    listeners.removed(connection)
    return document
  }
}

/**
 * The join path of one connection, called with the connection as `this`
 * (functions shared by a document's connections: nothing allocated per
 * connection). Install it from `followConnections`' `added`.
 */
export interface JoinPath {
  /** Instead of Hocuspocus's own: sends what everyone's awareness is to the joining connection. */
  readonly sendCurrentAwareness: (this: Connection) => void
  /** Instead of `Connection.handleMessage`; hand what it does not answer itself to `handleAsHocuspocus`. */
  readonly handleMessage: (this: Connection, data: Uint8Array) => void
}

export const replaceJoinPath = (connection: Connection, path: JoinPath): void => {
  const privates = connectionPrivates(connection)
  privates.sendCurrentAwareness = path.sendCurrentAwareness
  privates.handleMessage = path.handleMessage
}

/** Whether messages of `connection` are queued or being handled (a reply now would overtake theirs). */
export const hasQueuedMessages = (connection: Connection): boolean => connectionPrivates(connection).messageQueue.length > 0

/** Hocuspocus's own message handling (queued, hooks, MessageReceiver). */
export const handleAsHocuspocus = (connection: Connection, data: Uint8Array): void => {
  hocuspocusHandleMessage.call(connection, data)
}

/**
 * Opens Hocuspocus's handling of one socket, without its per-socket timer:
 * the caller runs `checkIdle` for every socket from one sweep instead.
 */
export const handleConnection = <Context>(
  hocuspocus: Hocuspocus<Context>,
  socket: WebSocketLike,
  request: LightRequest,
  context: Context
): ClientConnection => {
  // Hocuspocus declares a fetch Request but reads only `url` and `headers` (see the module's header).
  const client = hocuspocus.handleConnection(socket, request as unknown as Request, context)
  const privates = clientPrivates(client)
  clearInterval(privates.pingInterval)
  privates.pingInterval = undefined
  return client
}

/** Hocuspocus's idle check of one socket: closes it when silent (or unauthenticated) for longer than `timeout`. */
export const checkIdle = (client: ClientConnection): void => {
  clientPrivates(client).check()
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

const quietSocket = (): WebSocketLike => ({ send: () => {}, close: () => {}, readyState: 1 })

/** The members' behaviour, on a scratch document and connection (a few microseconds; nothing reaches a socket). */
const behaviour = (): [string, string] | undefined => {
  // Buffered (as LiveServer configures it), sent on the public flush().
  const document = new Document("internals-check", {}, { flushDelay: 60_000 })
  try {
    const privates = documentPrivates(document)
    const broadcasts: Array<string> = []
    privates.broadcast = (encode) => {
      broadcasts.push(encode("internals-check").length > 0 ? "frame" : "empty")
    }
    document.getText("check").insert(0, "x")
    document.awareness.setLocalState({ check: true })
    if (broadcasts.length > 0) return ["Document.broadcast", "runs before flush() with flushDelay set"]
    document.flush()
    if (broadcasts.join() !== "frame,frame") {
      return ["Document.broadcast", "is not what flush() sends a document's buffered update and awareness through"]
    }
    document.awareness.setLocalState(null)
    document.flush()

    const order: Array<string> = []
    const add = privates.addConnection.bind(document)
    privates.addConnection = (connection) => {
      add(connection)
      order.push("addConnection")
      connectionPrivates(connection).sendCurrentAwareness = () => {
        order.push("sendCurrentAwareness")
      }
      return document
    }
    const connection = new Connection(quietSocket(), new Request("http://localhost/"), document, "internals-check", {})
    if (order.join() !== "addConnection,sendCurrentAwareness") {
      return ["Connection's constructor", "no longer calls document.addConnection, then this.sendCurrentAwareness()"]
    }
    const queue: unknown = connectionPrivates(connection).messageQueue
    if (!Array.isArray(queue) || queue.length !== 0) return ["Connection.messageQueue", "is not an (empty) array of queued messages"]
    connection.close()

    const hocuspocus = new Hocuspocus({ quiet: true })
    const client = hocuspocus.handleConnection(quietSocket(), new Request("http://localhost/"))
    const clientSide = clientPrivates(client)
    const timer: unknown = clientSide.pingInterval
    clearInterval(clientSide.pingInterval)
    client.handleClose()
    if (typeof clientSide.check !== "function" || clientSide.check.length !== 0) {
      return ["ClientConnection.check", "is not a function of no parameters"]
    }
    if (typeof timer !== "object" || timer === null || typeof (timer as { unref?: unknown }).unref !== "function") {
      return ["ClientConnection.pingInterval", "is not the interval timer of the idle check"]
    }
    return undefined
  } finally {
    document.destroy()
  }
}

/** The first member that is not as this module expects on the installed version, as the error to stop with. */
export const findChangedMember = (): Error | undefined => {
  const problem =
    method(Document.prototype, "Document", "broadcast", 2) ??
    method(Document.prototype, "Document", "addConnection", 1) ??
    method(Document.prototype, "Document", "removeConnection", 1) ??
    method(Connection.prototype, "Connection", "sendCurrentAwareness", 0) ??
    method(Connection.prototype, "Connection", "handleMessage", 1) ??
    method(Hocuspocus.prototype, "Hocuspocus", "handleConnection", 2) ??
    behaviour()
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
