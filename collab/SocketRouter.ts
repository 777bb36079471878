/**
 * Which path serves each document a collab socket opens (a socket may open
 * several: every frame names its document).
 *
 * The endpoint decides a document's grant itself, on the socket's first
 * Auth frame for it (frames for it that come before are queued, as
 * Hocuspocus queues them): a read-only grant makes the socket a
 * ReadOnlyReader of the document, without Hocuspocus's per-connection
 * machinery (most of what an idle reader would cost); an editing grant hands
 * the document's frames, the Auth frame first, to Hocuspocus, which takes
 * the grant already decided instead of deciding again; a refusal tells the
 * provider why (PermissionDenied), then closes the socket with its code.
 * Hocuspocus listens to a socket only from the first document it serves.
 */
import { OutgoingMessage } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import type { Grant } from "./Grant.ts"
import type { LightRequest } from "./HocuspocusInternals.ts"
import { MessageType, readHeader } from "./Protocol.ts"
import type { ReadOnlyReader } from "./ReadOnlyReaders.ts"
import { CloseCode, type SocketAdapter } from "./SocketAdapter.ts"

/** Why a socket may not open a document: the provider is told `reason`, then the socket closes with `code`. */
export interface Refusal {
  readonly code: number
  readonly reason: string
}

type Route =
  /** Frames wait for the document's grant (`deciding`: its Auth frame came and the decision runs). */
  | { readonly name: string; readonly path: "pending"; readonly queue: Array<Uint8Array>; deciding: boolean }
  | { readonly name: string; readonly path: "hocuspocus" }
  | { readonly name: string; readonly path: "reader"; readonly reader: ReadOnlyReader }

/** A collab socket's state (uWS user data). */
export interface SocketData {
  /** The upgrade request as Hocuspocus keeps it for the socket's life (one object, shared with it). */
  readonly request: LightRequest
  adapter?: SocketAdapter
  /** How each document the socket opened is served (usually one). */
  routes?: Array<Route>
  /**
   * Grants decided for documents handed to Hocuspocus, until its onAuthenticate hook takes them; present once
   * Hocuspocus listens to the socket.
   */
  grants?: Map<string, Grant>
}

export interface SocketRouterHost {
  /** The grant of the token's holder on the document, or why not. */
  readonly decide: (token: string, name: string) => Promise<Grant | Refusal>
  /** The socket as a reader of the document (undefined: the socket closed meanwhile). */
  readonly openReader: (name: string, socket: SocketAdapter, grant: Grant) => Promise<ReadOnlyReader | undefined>
  /** Makes Hocuspocus listen to the socket (its context carries `grants`). */
  readonly attachHocuspocus: (data: SocketData, socket: SocketAdapter) => void
  /** Deciding a grant or opening a reader failed (the socket is closed with 4500: its provider reconnects and resyncs). */
  readonly failed: (name: string, error: unknown) => void
}

const isRefusal = (decided: Grant | Refusal): decided is Refusal => "code" in decided

const tokenOf = (frame: Uint8Array): string => {
  const decoder = decoding.createDecoder(frame)
  decoding.readVarString(decoder)
  decoding.readVarUint(decoder) // Auth
  decoding.readVarUint(decoder) // Token
  return decoding.readVarString(decoder)
}

export class SocketRouter {
  constructor(private readonly host: SocketRouterHost) {}

  /** One checked frame of the socket, for document `name`, of message type `type`. */
  receive(data: SocketData, socket: SocketAdapter, frame: Uint8Array, name: string, type: number): void {
    const route = data.routes?.find((known) => known.name === name)
    if (route?.path === "reader") {
      if (type === MessageType.Close) this.drop(data, route)
      route.reader.handle(frame)
      return
    }
    if (route?.path === "hocuspocus") {
      socket.emit("message", frame)
      return
    }
    if (route !== undefined) {
      route.queue.push(frame)
      if (type === MessageType.Auth && !route.deciding) this.decide(data, socket, route, frame)
      return
    }
    const pending: Route = { name, path: "pending", queue: [frame], deciding: false }
    data.routes = data.routes === undefined ? [pending] : [...data.routes, pending]
    if (type === MessageType.Auth) this.decide(data, socket, pending, frame)
  }

  /** The socket closed: its readers leave their documents. */
  closed(data: SocketData): void {
    const routes = data.routes
    data.routes = undefined
    data.grants = undefined
    for (const route of routes ?? []) if (route.path === "reader") route.reader.leave()
  }

  private decide(data: SocketData, socket: SocketAdapter, route: Route & { path: "pending" }, auth: Uint8Array): void {
    route.deciding = true
    void this.host.decide(tokenOf(auth), route.name).then(
      (decided) => this.decided(data, socket, route, decided),
      (error) => {
        this.host.failed(route.name, error)
        this.decided(data, socket, route, { code: CloseCode.reset, reason: "document connection reset" })
      }
    )
  }

  private async decided(
    data: SocketData,
    socket: SocketAdapter,
    route: Route & { path: "pending" },
    decided: Grant | Refusal
  ): Promise<void> {
    if (socket.closed || !this.holds(data, route)) return
    if (isRefusal(decided)) {
      this.drop(data, route)
      socket.send(new OutgoingMessage(route.name).writePermissionDenied(decided.reason).toUint8Array())
      // The provider reads its PermissionDenied frame first, then sees the close.
      setImmediate(() => socket.close(decided.code, decided.reason))
      return
    }
    if (!decided.readOnly) {
      this.replace(data, route, { name: route.name, path: "hocuspocus" })
      if (data.grants !== undefined) data.grants.set(route.name, decided)
      else {
        data.grants = new Map([[route.name, decided]])
        this.host.attachHocuspocus(data, socket)
      }
      for (const frame of route.queue) socket.emit("message", frame)
      return
    }
    let reader: ReadOnlyReader | undefined
    try {
      reader = await this.host.openReader(route.name, socket, decided)
    } catch (error) {
      this.host.failed(route.name, error)
      socket.close(CloseCode.reset, "document connection reset")
      return
    }
    if (reader === undefined) return
    if (socket.closed || !this.holds(data, route)) {
      reader.leave()
      return
    }
    const served: Route = { name: route.name, path: "reader", reader }
    this.replace(data, route, served)
    // What came while the grant was decided and the document opened, in order (its Auth frame is ignored now).
    for (const frame of route.queue) {
      if (!this.holds(data, served)) break
      if (readHeader(frame)?.type === MessageType.Close) this.drop(data, served)
      reader.handle(frame)
    }
  }

  private holds(data: SocketData, route: Route): boolean {
    return data.routes?.includes(route) === true
  }

  private replace(data: SocketData, route: Route, next: Route): void {
    data.routes = data.routes?.map((known) => (known === route ? next : known))
  }

  private drop(data: SocketData, route: Route): void {
    const rest = data.routes?.filter((known) => known !== route)
    data.routes = rest === undefined || rest.length === 0 ? undefined : rest
  }
}
