/**
 * A uWebSockets.js socket dressed as the `ws` socket Hocuspocus 3 drives
 * (`DrivenSocket`: events for messages and the close, `send`, `close`).
 *
 * - A closed uWS socket throws on any use: the adapter tracks its state and
 *   turns late sends and closes into no-ops.
 * - Acknowledgements wait for durability: a "SyncStatus: applied" frame is
 *   held until every update of its document queued so far is committed, so
 *   the provider's `unsyncedChanges` reaches 0 only for persisted edits.
 * - Backpressure: a reader that lets more than the limit pile up is closed
 *   (its provider reconnects and resyncs) instead of silently missing
 *   updates.
 * - Document broadcasts reach it through uWS topics (`subscribe`), one native
 *   publish for every reader of a document.
 * - Before authentication: what a socket may send for documents it is not
 *   authenticated on yet (Hocuspocus 3 queues it without bound) is limited
 *   by `admit`, as Hocuspocus 4 limits it (GHSA-xwhh-v746-pj9m), and
 *   `authenticated` tells the endpoint's sweep which sockets never were.
 * - Liveness is uWS's (automatic pings, idle timeout): `ping` does nothing.
 * - Lean per socket (an idle reader costs what it holds): its listeners are
 *   fields, not an EventEmitter (whose table of events turns into a
 *   dictionary once a `once` listener is removed), and what it counts before
 *   authentication is dropped once there is nothing left to count.
 */
import { WsReadyStates } from "@hocuspocus/common"
import type { WebSocket } from "../facade/uws.ts"
import type { DrivenSocket } from "./HocuspocusInternals.ts"
import { MessageType, readHeader } from "./Protocol.ts"

/** Close codes the collab endpoint uses (4xxx: application, seen by the provider's onClose). */
export const CloseCode = {
  badFrame: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  removed: 4404,
  backpressure: 4408,
  reset: 4500,
  goingAway: 1001,
  /** Never authenticated within the idle time (Hocuspocus 4's ConnectionTimeout). */
  timeout: 4408,
  /** Too much sent before authentication (Hocuspocus 4's ResetConnection). */
  tooMuchBeforeAuth: 4205
} as const

/** What a socket may send for documents it is not authenticated on yet (Hocuspocus 4's defaults). */
export const PRE_AUTH_LIMITS = { documents: 100, messages: 1000, bytes: 5 * 1024 * 1024 } as const

/** Auth message subtypes (Hocuspocus's AuthMessageType). */
const AUTHENTICATED = 2

export interface SocketAdapterOptions {
  readonly maxBackpressureBytes: number
  /** Resolves when the updates of `name` queued so far are durable. */
  readonly durable: (name: string) => Promise<void>
  /** Whether a CLOSE frame with this reason is the server dropping the document connection for a fault (then the socket goes too). */
  readonly onDocumentClosed?: (name: string, reason: string) => { readonly code: number; readonly reason: string } | undefined
}

const decoder = new TextDecoder()

type Listener = ((...args: Array<any>) => void) & { readonly listener?: Listener }
/** Hocuspocus listens once per event: one listener in the field; more, in an array. */
type Listeners = Listener | Array<Listener> | undefined
/** The events Hocuspocus 3 listens to on a socket (see DrivenSocket). */
type SocketEvent = "message" | "pong" | "close"

const withListener = (listeners: Listeners, listener: Listener): Listeners =>
  listeners === undefined ? listener : Array.isArray(listeners) ? [...listeners, listener] : [listeners, listener]

// A `once` listener is found by the listener it wraps too, as EventEmitter does.
const withoutListener = (listeners: Listeners, listener: Listener): Listeners => {
  const matches = (known: Listener) => known === listener || known.listener === listener
  if (listeners === undefined || !Array.isArray(listeners)) return listeners !== undefined && matches(listeners) ? undefined : listeners
  const index = listeners.findIndex(matches)
  if (index < 0) return listeners
  const rest = listeners.filter((_, i) => i !== index)
  return rest.length > 1 ? rest : rest[0]
}

export class SocketAdapter implements DrivenSocket {
  readyState: number = WsReadyStates.Open
  /** Set by Hocuspocus; frames reach it as Uint8Arrays whatever it asks. */
  binaryType = "nodebuffer"
  /** Whether the server authenticated the socket on some document. */
  authenticated = false
  /** Per document not authenticated yet: messages and bytes the socket sent for it (Hocuspocus queues them). */
  private preAuth: Map<string, { messages: number; bytes: number }> | undefined
  /** Usually one name: an array costs an idle reader less than a Set. */
  private authenticatedNames: Array<string> | undefined
  private ws: WebSocket<unknown> | undefined
  /** Set once the socket closed (by either side). */
  closed = false
  closeCode: number | undefined
  private messageListeners: Listeners
  private pongListeners: Listeners
  private closeListeners: Listeners

  constructor(
    ws: WebSocket<unknown>,
    private readonly options: SocketAdapterOptions
  ) {
    this.ws = ws
  }

  on(event: SocketEvent, listener: Listener): this {
    this.setListeners(event, withListener(this.listenersOf(event), listener))
    return this
  }

  once(event: SocketEvent, listener: Listener): this {
    const once: Listener = Object.assign(
      (...args: Array<any>) => {
        this.removeListener(event, once)
        listener(...args)
      },
      { listener }
    )
    return this.on(event, once)
  }

  removeListener(event: string, listener: Listener): this {
    if (event === "message" || event === "pong" || event === "close")
      this.setListeners(event, withoutListener(this.listenersOf(event), listener))
    return this
  }

  /** Calls the event's listeners (those present when it was emitted); whether there were any. */
  emit(event: SocketEvent, ...args: Array<unknown>): boolean {
    const listeners = this.listenersOf(event)
    if (listeners === undefined) return false
    if (Array.isArray(listeners)) for (const listener of [...listeners]) listener(...args)
    else listeners(...args)
    return true
  }

  private listenersOf(event: SocketEvent): Listeners {
    return event === "message" ? this.messageListeners : event === "pong" ? this.pongListeners : this.closeListeners
  }

  private setListeners(event: SocketEvent, listeners: Listeners): void {
    if (event === "message") this.messageListeners = listeners
    else if (event === "pong") this.pongListeners = listeners
    else this.closeListeners = listeners
  }

  /**
   * Whether a client frame for `name` may go to Hocuspocus: always once the
   * socket is authenticated on `name`; before, while what the socket sent
   * for documents it is not authenticated on stays within PRE_AUTH_LIMITS.
   */
  admit(name: string, bytes: number): boolean {
    if (this.authenticatedNames?.includes(name) === true) return true
    this.preAuth ??= new Map()
    const pending = this.preAuth.get(name)
    if (pending === undefined) this.preAuth.set(name, { messages: 1, bytes })
    else {
      pending.messages++
      pending.bytes += bytes
    }
    return this.withinLimits()
  }

  private withinLimits(): boolean {
    const pending = this.preAuth
    if (pending === undefined) return true
    if (pending.size > PRE_AUTH_LIMITS.documents) return false
    let messages = 0
    let bytes = 0
    for (const entry of pending.values()) {
      messages += entry.messages
      bytes += entry.bytes
    }
    return messages <= PRE_AUTH_LIMITS.messages && bytes <= PRE_AUTH_LIMITS.bytes
  }

  /** Liveness is uWS's own (automatic pings): Hocuspocus's ping timer is never due (see LiveServer). */
  ping(): void {}

  /** Hocuspocus sends every direct frame here (replies, acks, awareness snapshots). */
  send(frame: Uint8Array): void {
    if (this.closed) return
    const header = readHeader(frame)
    if (header?.type === MessageType.Auth && frame[header.bodyOffset] === AUTHENTICATED) {
      this.authenticated = true
      if (this.authenticatedNames === undefined) this.authenticatedNames = [header.name]
      else if (!this.authenticatedNames.includes(header.name)) this.authenticatedNames.push(header.name)
      if (this.preAuth?.delete(header.name) === true && this.preAuth.size === 0) this.preAuth = undefined
    }
    if (header?.type === MessageType.SyncStatus && frame[header.bodyOffset] === 1) {
      // Acknowledge only what is durable.
      this.options.durable(header.name).then(
        () => this.write(frame),
        () => this.close(CloseCode.goingAway, "storage unavailable")
      )
      return
    }
    this.write(frame)
    if (header?.type === MessageType.Close) {
      const reasonFrame = frame.subarray(header.bodyOffset)
      const reason = readCloseReason(reasonFrame)
      const verdict = this.options.onDocumentClosed?.(header.name, reason)
      if (verdict !== undefined) this.close(verdict.code, verdict.reason)
    }
  }

  /**
   * Sends unless the reader is already past the limit (as uWS does for
   * topic publishes: one large frame, a full sync, may exceed it; piling up
   * more behind it may not). Past the limit the socket is closed, never
   * silently skipped.
   */
  private write(frame: Uint8Array): void {
    const ws = this.ws
    if (this.closed || ws === undefined) return
    if (ws.getBufferedAmount() > this.options.maxBackpressureBytes || ws.send(frame, true) === 2) this.kill(CloseCode.backpressure)
  }

  /** Bytes queued on the socket that the kernel has not taken yet (0 once closed). */
  bufferedBytes(): number {
    return this.closed || this.ws === undefined ? 0 : this.ws.getBufferedAmount()
  }

  /** Graceful close with a code (a close frame, then the TCP close). */
  close(code?: number, reason?: string): void {
    if (this.closed || this.ws === undefined) return
    const ws = this.ws
    this.markClosed(code)
    try {
      ws.end(code ?? 1000, (reason ?? "").slice(0, 120))
    } catch {
      // already gone
    }
  }

  /** Immediate close, for a reader stuck behind its backlog (a close frame would queue behind it too). */
  kill(code: number): void {
    if (this.closed || this.ws === undefined) return
    const ws = this.ws
    this.markClosed(code)
    try {
      ws.close()
    } catch {
      // already gone
    }
  }

  /** The socket closed (uWS close handler): from now on every call is a no-op. */
  onClosed(code: number): void {
    if (this.closeCode === undefined) this.closeCode = code
    this.markClosed(this.closeCode)
  }

  // The socket's topics are uWS's own (a closed socket has none): no copy of them is kept here.
  subscribe(topic: string): boolean {
    if (this.closed || this.ws === undefined) return false
    return this.ws.subscribe(topic)
  }

  unsubscribe(topic: string): void {
    if (this.closed || this.ws === undefined) return
    this.ws.unsubscribe(topic)
  }

  isSubscribed(topic: string): boolean {
    return !this.closed && this.ws !== undefined && this.ws.isSubscribed(topic)
  }

  private markClosed(code: number | undefined): void {
    this.closed = true
    if (this.closeCode === undefined) this.closeCode = code
    this.readyState = WsReadyStates.Closed
    this.ws = undefined
  }
}

const readCloseReason = (body: Uint8Array): string => {
  // varString: varUint length then UTF-8 bytes
  let length = 0
  let shift = 1
  let i = 0
  for (; i < body.length; i++) {
    const byte = body[i]!
    length += (byte & 0x7f) * shift
    shift *= 128
    if (byte < 0x80) {
      i++
      break
    }
  }
  return decoder.decode(body.subarray(i, i + length))
}
