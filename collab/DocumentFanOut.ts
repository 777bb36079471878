/**
 * The outgoing broadcasts of one live document, coalesced over an
 * AdaptiveWindow: the Yjs updates of a window are merged (`Y.mergeUpdates`)
 * into one sync frame, and the awareness changes of a window become one
 * awareness frame holding each changed client's latest state — for the
 * document's readers (one topic publish) and, for the changes of this node's
 * connections, for peer nodes (one cluster message). Changes go out right
 * after the current turn, until the document is busy, then once per window
 * while it stays busy. Busy: what it already sent at once within the window
 * cost SEND_BUDGET socket writes (frames × its connections; at least one
 * frame: a document read by many waits from the second change of a window
 * on), or a reader's socket holds more than BACKLOG_BYTES the kernel has not
 * taken (frames sent at once would only queue behind). A small editing group
 * (3 editors and 5 readers typing a keystroke every 150 ms each) stays under
 * the budget, so its keystrokes reach the others' screens with no added
 * delay, as stock Hocuspocus's do; a hot document still sends one merged
 * frame per window whatever its rate. (Hocuspocus 3 sends every change at
 * once, connection by connection: LiveServer routes them here instead.)
 *
 * Durability is untouched: an update is queued in the update log when it is
 * applied, and sent a turn later at the earliest; editors'
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
  /** Bytes the fullest socket among the document's connections holds that the kernel has not taken yet (0: none behind). */
  readonly mostBuffered: () => number
}

/**
 * Socket writes a document may spend on frames sent at once within one window before the window opens. What
 * coalescing saves is writes, frames × connections: for a group of 8, 64 writes are 8 keystrokes in one window
 * (160/s), which typing never reaches; for a page read by 1,000, one frame is already over it.
 */
export const SEND_BUDGET = 64
/** A socket holding more than this (bytes the kernel has not taken) is behind: changes wait for the window. */
export const BACKLOG_BYTES = 16 * 1024

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
    this.window = new AdaptiveWindow(windowMs, () => this.flush(), {
      busy: (sentAtOnce) => (sentAtOnce >= 1 && sentAtOnce * sink.connections() >= SEND_BUDGET) || sink.mostBuffered() > BACKLOG_BYTES
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
