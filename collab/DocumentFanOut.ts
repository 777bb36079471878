/**
 * The outgoing broadcasts of one live document, coalesced over an
 * AdaptiveWindow: the Yjs updates of a window are merged (`Y.mergeUpdates`)
 * into one sync frame, and the awareness changes of a window become one
 * awareness frame holding each changed client's latest state — for the
 * document's readers (one topic publish) and for peer nodes (one cluster
 * message). An idle document sends at once; a busy one, once per window.
 *
 * Durability is untouched: an update reaches this only after it was queued
 * in the update log (the flush runs a turn later at the earliest), and
 * editors' acknowledgements do not pass through here.
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
}

/** Buffered update bytes that flush after the current turn whatever the window. */
const MAX_PENDING_BYTES = 1024 * 1024

export class DocumentFanOut {
  private updates: Array<Uint8Array> = []
  private bytes = 0
  private readonly clients = new Set<number>()
  private readonly peerClients = new Set<number>()
  private readonly window: AdaptiveWindow
  private closed = false

  constructor(
    windowMs: number,
    private readonly sink: FanOutSink
  ) {
    this.window = new AdaptiveWindow(windowMs, () => this.flush())
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
