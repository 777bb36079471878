/**
 * When to send what has piled up for one fan-out target (a document, a
 * workspace's event stream). Changes go out right after the current
 * event-loop turn (`setImmediate`: a burst read in one turn still leaves as
 * one frame) until the target is busy; then a window opens and gathers what
 * arrives until it ends, as one frame:
 *
 * - a window (`windowMs`) starts with the first send after a quiet one;
 * - it opens when a change finds the target busy (`busy`, given the frames
 *   already sent at once within the window; by default any: the second
 *   change of a window waits);
 * - an open window's flush starts the next window, which stays open while
 *   each window gathers more than one change: at high rates the target sends
 *   one frame per window, whatever its rate, and a reader pays one socket
 *   write per window instead of one per change; once a window gathers one
 *   change or none, sends go out at once again.
 *
 * So a lone change never waits for a window. With `firstNow`, the first
 * change of a turn goes out within that turn rather than after it (what
 * follows it in the same turn still leaves as one frame after the turn).
 */
export interface WindowPolicy {
  /** Whether a change should wait for the window, the window being shut and `sentAtOnce` frames sent within it. */
  readonly busy?: (sentAtOnce: number) => boolean
  /**
   * Send the first change of a turn at once, inside the turn that made it
   * (a keystroke reaches readers without waiting for the rest of the turn);
   * without it, changes go out after the turn.
   */
  readonly firstNow?: boolean
}

const anySent = (sentAtOnce: number) => sentAtOnce >= 1

export class AdaptiveWindow {
  private cancel: (() => void) | undefined
  /** What the scheduled flush runs (`fire`, `fireGathered` or `fireWindow`). */
  private scheduled: () => void = () => {}
  /** When the current window started, and the frames sent at once within it. */
  private start = Number.NEGATIVE_INFINITY
  private sentAtOnce = 0
  /** The window is open: changes wait for its end. */
  private open = false
  /** Changes asked for since the open window's flush was scheduled. */
  private gathered = 0
  private readonly busy: (sentAtOnce: number) => boolean
  private readonly firstNow: boolean

  constructor(
    private readonly windowMs: number,
    private readonly run: () => void,
    policy: WindowPolicy = {}
  ) {
    this.busy = policy.busy ?? anySent
    this.firstNow = policy.firstNow ?? false
  }

  /** Something is pending; `urgent` flushes after this turn whatever the window (too much piled up). */
  request(urgent = false): void {
    if (this.cancel !== undefined) {
      this.gathered++
      if (!urgent) return
      this.cancel()
    }
    const now = performance.now()
    if (now - this.start >= this.windowMs) {
      // A whole window passed without a change: quiet again.
      this.start = now
      this.sentAtOnce = 0
      this.open = false
    }
    if (!urgent && !this.open && this.busy(this.sentAtOnce)) this.open = true
    if (urgent || !this.open) {
      this.sentAtOnce++
      if (this.firstNow) {
        // Changes asked for later in this turn gather into one flush after it.
        this.gathered = 0
        this.scheduled = this.fireGathered
        const handle = setImmediate(this.fireGathered)
        this.cancel = () => clearImmediate(handle)
        this.run()
        return
      }
      this.scheduled = this.fire
      const handle = setImmediate(this.fire)
      this.cancel = () => clearImmediate(handle)
    } else {
      this.gathered = 1
      this.scheduled = this.fireWindow
      const handle = setTimeout(this.fireWindow, Math.max(0, this.start + this.windowMs - now))
      this.cancel = () => clearTimeout(handle)
    }
  }

  /** Flushes now, when what is pending must not wait behind what comes next (ordering). */
  flushNow(): void {
    if (this.cancel === undefined) return
    this.cancel()
    this.scheduled()
  }

  /** Drops the scheduled flush (the target is gone). */
  stop(): void {
    this.cancel?.()
    this.cancel = undefined
  }

  private readonly fire = (): void => {
    this.cancel = undefined
    this.run()
  }

  /** The end of a turn whose first change went out at once: what the rest of the turn asked for. */
  private readonly fireGathered = (): void => {
    this.cancel = undefined
    if (this.gathered === 0) return
    this.gathered = 0
    this.sentAtOnce++
    this.run()
  }

  /** The open window's end: its flush starts the next window, open only if this one gathered more than one change. */
  private readonly fireWindow = (): void => {
    this.cancel = undefined
    this.start = performance.now()
    this.sentAtOnce = 0
    this.open = this.gathered > 1
    this.gathered = 0
    this.run()
  }
}
