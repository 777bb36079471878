/**
 * When a live document's broadcasts leave. Hocuspocus buffers them itself
 * (`flushDelay`): a window's Yjs updates merged into one sync frame, its
 * awareness changes as one frame with each changed client's latest state,
 * sent on `document.flush()`. This decides when to call it, over an
 * AdaptiveWindow: right after the current turn, until the document is busy,
 * then once per window while it stays busy. Busy: what it already sent at
 * once within the window cost SEND_BUDGET socket writes (frames × its
 * connections; at least one frame: a document read by many waits from the
 * second change of a window on), or a reader's socket holds more than
 * BACKLOG_BYTES the kernel has not taken (frames sent at once would only
 * queue behind). A small editing group (3 editors and 5 readers typing a
 * keystroke every 150 ms each) stays under the budget, so its keystrokes
 * reach the others' screens with no added delay, as stock Hocuspocus's do;
 * a hot document still sends one merged frame per window whatever its rate.
 * Hocuspocus's own timer (a fixed window from the first
 * buffered change) is only the backstop: this one always fires first.
 * The awareness changes of this node's connections go to peer nodes at the
 * same moments, as one cluster message.
 *
 * Durability is untouched: an update is queued in the update log when it is
 * applied, and sent a turn later at the earliest; editors'
 * acknowledgements do not pass through here.
 */
import { AdaptiveWindow } from "./AdaptiveWindow.ts"

export interface FanOutSink {
  /** Sends what Hocuspocus buffered for the document's connections (`document.flush()`). */
  readonly flush: () => void
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

export class DocumentFanOut {
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

  /** Something was buffered for the document's connections (an update, an awareness change). */
  changed(): void {
    if (!this.closed) this.window.request()
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
    this.peerClients.clear()
  }

  private flush(): void {
    this.sink.flush()
    if (this.peerClients.size > 0) {
      const clients = [...this.peerClients]
      this.peerClients.clear()
      this.sink.peerAwareness(clients)
    }
  }
}
