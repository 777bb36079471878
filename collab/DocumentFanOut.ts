/**
 * When a live document's broadcasts leave. Hocuspocus buffers them itself
 * (`flushDelay`): a window's Yjs updates merged into one sync frame, its
 * awareness changes as one frame with each changed client's latest state,
 * sent on `document.flush()`. This decides when to call it, over an
 * AdaptiveWindow: an idle document right after the current turn, a busy one
 * once per window. Hocuspocus's own timer (a fixed window from the first
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
}

export class DocumentFanOut {
  private readonly peerClients = new Set<number>()
  private readonly window: AdaptiveWindow
  private closed = false

  constructor(
    windowMs: number,
    private readonly sink: FanOutSink
  ) {
    this.window = new AdaptiveWindow(windowMs, () => this.flush())
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
