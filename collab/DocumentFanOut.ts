/**
 * The outgoing broadcasts of one live document, coalesced over an
 * AdaptiveWindow: the Yjs updates of a window are merged (`Y.mergeUpdates`)
 * into one sync frame, and the awareness changes of a window become one
 * awareness frame holding each changed client's latest state — for the
 * document's readers (one topic publish) and, for the changes of this node's
 * connections, for peer nodes (one cluster message). Until the document is
 * busy, the first change of a turn goes out at once (stock Hocuspocus sends
 * each as it is applied; waiting for the rest of the turn — the same
 * keystroke's awareness frame, other sockets' reads — cost a small group
 * ~0.2 ms of keystroke → screen at p50), and what follows it in the same
 * turn goes out merged right after the turn; then once per window while it
 * stays busy. Busy: what it already sent at once within the window
 * cost its send budget (socket writes per second, frames × its connections,
 * over the window; at least one frame), or a reader's socket holds more than
 * BACKLOG_BYTES the kernel has not taken (frames sent at once would only
 * queue behind). The budget is CPU: a uWS publish costs about a microsecond
 * per socket, so the default 100,000 writes a second is a tenth of a core
 * per document. Under it, changes reach readers with no added delay, as
 * stock Hocuspocus's do: a small editing group (3 editors and 5 readers
 * typing a keystroke every 150 ms each), or a page read by 1,000 written 50
 * times a second. A hotter document sends one merged frame per window
 * whatever its rate. (Hocuspocus 3 sends every change at once, connection by
 * connection: LiveServer routes them here instead.)
 *
 * Durability is untouched: readers may see an update before it commits (as
 * with stock Hocuspocus; its editor is acknowledged only after the commit and
 * sends it again if the server goes away first); editors'
 * acknowledgements do not pass through here.
 */
import * as Y from "yjs"
import { AdaptiveWindow } from "./AdaptiveWindow.ts"

export interface FanOutSink {
  /** One (merged) update to every connection of the document. */
  readonly update: (update: Uint8Array) => void
  /** The current states of `clients` to every connection of the document. */
  readonly awareness: (clients: Array<number>) => void
  /** The current states of `clients` (changed by this node's connections) to peer nodes. */
  readonly peerAwareness: (clients: Array<number>) => void
  /** The document's connections (each is sent every frame). */
  readonly connections: () => number
  /**
   * Bytes the kernel has not taken yet on the fullest of the connections looked at this time (0: none behind):
   * at most BACKLOG_SAMPLE of them, in turn, so a socket falling behind is seen within a few changes.
   */
  readonly mostBuffered: () => number
}

/** A socket holding more than this (bytes the kernel has not taken) is behind: changes wait for the window. */
export const BACKLOG_BYTES = 16 * 1024
/** Sockets whose backlog one change looks at (`mostBuffered` samples them in turn: see RotatingSample). */
export const BACKLOG_SAMPLE = 32

/** Buffered update bytes that flush after the current turn whatever the window. */
const MAX_PENDING_BYTES = 1024 * 1024

export class DocumentFanOut {
  private updates: Array<Uint8Array> = []
  private bytes = 0
  private readonly clients = new Set<number>()
  private readonly peerClients = new Set<number>()
  private readonly window: AdaptiveWindow
  private closed = false

  /** `sendBudget`: socket writes per second spent on frames sent at once before the document is busy. */
  constructor(
    windowMs: number,
    sendBudget: number,
    private readonly sink: FanOutSink
  ) {
    const perWindow = (sendBudget * windowMs) / 1000
    this.window = new AdaptiveWindow(windowMs, () => this.flush(), {
      busy: (sentAtOnce) => (sentAtOnce >= 1 && sentAtOnce * sink.connections() >= perWindow) || sink.mostBuffered() > BACKLOG_BYTES,
      firstNow: true
    })
  }

  update(update: Uint8Array): void {
    if (this.closed) return
    this.updates.push(update)
    this.bytes += update.byteLength
    this.window.request(this.bytes >= MAX_PENDING_BYTES)
  }

  awareness(clients: ReadonlyArray<number>): void {
    if (this.closed || clients.length === 0) return
    for (const client of clients) this.clients.add(client)
    this.window.request()
  }

  peerAwareness(clients: ReadonlyArray<number>): void {
    if (this.closed || clients.length === 0) return
    for (const client of clients) this.peerClients.add(client)
    this.window.request()
  }

  /** Sends what is pending now (the document is about to unload: peers still want its last awareness changes). */
  flushNow(): void {
    if (!this.closed) this.flush()
  }

  /** The document unloaded: nobody is left to send to. */
  close(): void {
    this.closed = true
    this.window.stop()
    this.updates = []
    this.clients.clear()
    this.peerClients.clear()
  }

  private flush(): void {
    if (this.updates.length > 0) {
      const updates = this.updates
      this.updates = []
      this.bytes = 0
      this.sink.update(updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates))
    }
    if (this.clients.size > 0) {
      const clients = [...this.clients]
      this.clients.clear()
      this.sink.awareness(clients)
    }
    if (this.peerClients.size > 0) {
      const clients = [...this.peerClients]
      this.peerClients.clear()
      this.sink.peerAwareness(clients)
    }
  }
}
