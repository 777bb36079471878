/**
 * The durable update log with group commit: updates are queued in memory and
 * written in batches (one statement per batch, `concurrency` batches at a
 * time, committed in order), so under load many updates share one commit. `barrier(name)` resolves once
 * every update queued for `name` so far is committed: the collab server holds
 * an editor's acknowledgement (SyncStatus) and REST edits hold their reply on
 * it. A failed write is retried (with backoff) until it succeeds: nothing is
 * acknowledged meanwhile, and nothing queued is ever dropped.
 */
import type { AppendEntry } from "./DocumentStore.ts"

export interface UpdateLogOptions {
  /** Writes one batch durably (rejects on failure). */
  readonly write: (entries: ReadonlyArray<AppendEntry>) => Promise<void>
  /** Called after a batch committed (cluster fan-out, compaction counters). */
  readonly committed?: (entries: ReadonlyArray<LoggedUpdate>) => void
  /** Called when a write failed (it will be retried). */
  readonly failed?: (error: unknown, attempt: number) => void
  /** Largest batch, in bytes (a single larger update still goes alone). */
  readonly maxBatchBytes?: number
  /** Largest batch, in updates. */
  readonly maxBatchCount?: number
  /** Batches written at once (a pool of connections overlaps their commits); 1 for an embedded database. */
  readonly concurrency?: number
  /**
   * The write runs on this thread (an embedded database): a batch then starts
   * on a timer rather than right after the current turn, so the frames this
   * turn sent (the fan-out of the very updates being logged) reach the
   * readers before the loop is busy writing (else each keystroke of a small
   * editing group would reach the others' screens a write later).
   */
  readonly blocksLoop?: boolean
}

export interface LoggedUpdate extends AppendEntry {
  readonly seq: number
  /** Whatever the appender attached (e.g. whether to publish it to the cluster). */
  readonly tag: unknown
}

interface Waiter {
  readonly seq: number
  readonly resolve: () => void
}

export class UpdateLog {
  private queue: Array<LoggedUpdate> = []
  private queuedBytes = 0
  private scheduled = false
  private readonly inFlight: Array<{ readonly batch: ReadonlyArray<LoggedUpdate>; done: boolean }> = []
  private readonly concurrency: number
  private closed = false
  /** Sequence of the last update queued. */
  private lastQueued = 0
  /** Every update with seq ≤ this is committed (batches commit in order). */
  private lastCommitted = 0
  private readonly lastByName = new Map<string, number>()
  private waiters: Array<Waiter> = []

  constructor(private readonly options: UpdateLogOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 1)
  }

  /** Queues an update; it is written with the next batch. */
  append(name: string, update: Uint8Array, tag?: unknown): number {
    if (this.closed) throw new Error("UpdateLog is closed")
    const seq = ++this.lastQueued
    this.queue.push({ name, update, seq, tag })
    this.queuedBytes += update.byteLength
    this.lastByName.set(name, seq)
    // Let the socket reads already pending queue theirs too, then write them together.
    this.schedule()
    return seq
  }

  /** Resolves when every update queued for `name` so far is committed. */
  barrier(name: string): Promise<void> {
    const seq = this.lastByName.get(name)
    return seq === undefined ? Promise.resolve() : this.until(seq)
  }

  /** Resolves when everything queued so far is committed. */
  flush(): Promise<void> {
    return this.until(this.lastQueued)
  }

  /** Whether `name` has updates not yet committed. */
  pending(name: string): boolean {
    const seq = this.lastByName.get(name)
    return seq !== undefined && seq > this.lastCommitted
  }

  get backlog(): { readonly count: number; readonly bytes: number } {
    return { count: this.queue.length, bytes: this.queuedBytes }
  }

  /** Writes what is queued, then refuses new appends. */
  async close(): Promise<void> {
    await this.flush()
    this.closed = true
  }

  private until(seq: number): Promise<void> {
    if (seq <= this.lastCommitted) return Promise.resolve()
    return new Promise((resolve) => {
      this.waiters.push({ seq, resolve })
    })
  }

  private takeBatch(): Array<LoggedUpdate> {
    const maxBytes = this.options.maxBatchBytes ?? 8 * 1024 * 1024
    const maxCount = this.options.maxBatchCount ?? 2000
    let bytes = 0
    let count = 0
    while (count < this.queue.length && count < maxCount) {
      const size = this.queue[count]!.update.byteLength
      if (count > 0 && bytes + size > maxBytes) break
      bytes += size
      count++
    }
    const batch = this.queue.splice(0, count)
    this.queuedBytes -= bytes
    return batch
  }

  /**
   * Starts batch writes while fewer than `concurrency` are in flight. Batches
   * may finish out of order (several connections of a pool); they commit —
   * waiters, listeners — strictly in order.
   */
  private pump(): void {
    this.scheduled = false
    while (this.inFlight.length < this.concurrency && this.queue.length > 0) {
      const slot = { batch: this.takeBatch(), done: false }
      this.inFlight.push(slot)
      void this.writeWithRetry(slot.batch).then(() => {
        slot.done = true
        while (this.inFlight.length > 0 && this.inFlight[0]!.done) this.commit(this.inFlight.shift()!.batch)
        // Yield to I/O before the next batch: messages that arrived during the write join it
        // (an embedded database blocks the loop while it writes, so nothing else would).
        this.schedule()
      })
    }
  }

  private readonly pumpNow = () => this.pump()

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return
    this.scheduled = true
    if (this.options.blocksLoop) setTimeout(this.pumpNow, 0)
    else setImmediate(this.pumpNow)
  }

  private async writeWithRetry(batch: ReadonlyArray<LoggedUpdate>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.write(batch)
        return
      } catch (error) {
        this.options.failed?.(error, attempt)
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 50 * 2 ** Math.min(attempt, 7))))
      }
    }
  }

  private commit(batch: ReadonlyArray<LoggedUpdate>) {
    const last = batch[batch.length - 1]!.seq
    this.lastCommitted = last
    for (const entry of batch) {
      if (this.lastByName.get(entry.name) === entry.seq) this.lastByName.delete(entry.name)
    }
    if (this.waiters.length > 0) {
      const ready: Array<Waiter> = []
      const waiting: Array<Waiter> = []
      for (const waiter of this.waiters) (waiter.seq <= last ? ready : waiting).push(waiter)
      this.waiters = waiting
      for (const waiter of ready) waiter.resolve()
    }
    try {
      this.options.committed?.(batch)
    } catch {
      // a listener's failure must not stall the log
    }
  }
}
