/**
 * When to send what has piled up for one fan-out target (a document, a
 * workspace's event stream). Leading edge, then a window:
 *
 * - idle (nothing sent for `windowMs`): the flush runs right after the
 *   current event-loop turn (`setImmediate`), so a lone change goes out with
 *   no added latency, and a burst read in one turn still leaves as one frame;
 * - busy (something sent less than `windowMs` ago): the flush waits until the
 *   window since the last one has passed, gathering everything meanwhile.
 *
 * So a target sends at most one frame per window, whatever its rate, and a
 * reader pays one socket write per window instead of one per change.
 */
export class AdaptiveWindow {
  private cancel: (() => void) | undefined
  private last = Number.NEGATIVE_INFINITY

  constructor(
    private readonly windowMs: number,
    private readonly run: () => void
  ) {}

  /** Something is pending; `urgent` flushes after this turn whatever the window (too much piled up). */
  request(urgent = false): void {
    if (this.cancel !== undefined) {
      if (!urgent) return
      this.cancel()
    }
    const wait = urgent ? 0 : this.last + this.windowMs - performance.now()
    if (wait <= 0) {
      const handle = setImmediate(this.fire)
      this.cancel = () => clearImmediate(handle)
    } else {
      const handle = setTimeout(this.fire, wait)
      this.cancel = () => clearTimeout(handle)
    }
  }

  /** Flushes now, when what is pending must not wait behind what comes next (ordering). */
  flushNow(): void {
    if (this.cancel === undefined) return
    this.cancel()
    this.fire()
  }

  /** Drops the scheduled flush (the target is gone). */
  stop(): void {
    this.cancel?.()
    this.cancel = undefined
  }

  private readonly fire = (): void => {
    this.cancel = undefined
    this.last = performance.now()
    this.run()
  }
}
