/**
 * Per-node, per-workspace ordering of live events. Batches reach a node from
 * its own commits (synchronously, but two commits' publications may race) and
 * from other nodes over NATS (at most once, possibly late). The sequencer
 * turns that into "every seq, once, in order" for the workspaces this node has
 * sockets for:
 *
 * - it remembers the last seq it delivered per tracked workspace;
 * - a batch whose events follow it is delivered at once; later ones wait in
 *   `pending` while the gap is read from the event log — always possible,
 *   because seq order is commit order (the counter row serializes writers),
 *   so when seq n is known every seq below n is committed;
 * - a bare tick (a batch without events, or the periodic sweep of the
 *   counters) only says how far the log goes: the rest is read;
 * - what the log no longer has (pruned) is skipped with a resync notice.
 *
 * Socket subscriptions rely on that order: a subscriber catches up from the
 * log to `lastDelivered(ws)` and joins the live topics in the same tick.
 */
import type { FeedBatch } from "../actors/pm/ChangeFeed.ts"
import type { LoggedEvent, NotificationRecord } from "../actors/pm/EventLog.ts"

export interface SequencerIo {
  /** The workspace's last assigned seq (0 when none). */
  readonly lastSeqs: (workspaceIds: ReadonlyArray<string>) => Promise<ReadonlyMap<string, number>>
  /** Events with `after < seq <= upTo`, oldest first, at most `limit`, and their notifications. */
  readonly readRange: (
    workspaceId: string,
    after: number,
    upTo: number,
    limit: number
  ) => Promise<{ readonly events: ReadonlyArray<LoggedEvent>; readonly notifications: ReadonlyArray<NotificationRecord> }>
  readonly deliver: (event: LoggedEvent, notifications: ReadonlyArray<NotificationRecord>) => void
  /** Events up to `seq` cannot be delivered any more (pruned or overflow): subscribers must resync. */
  readonly resync: (workspaceId: string, seq: number) => void
  readonly onError: (error: unknown) => void
}

interface Pending {
  readonly event: LoggedEvent
  readonly notifications: Array<NotificationRecord>
}

interface Track {
  refs: number
  /** Resolves once `last` is known. */
  ready: Promise<void>
  initialized: boolean
  last: number
  /** Highest seq known to exist. */
  target: number
  readonly pending: Map<number, Pending>
  filling: boolean
  retryTimer: ReturnType<typeof setTimeout> | undefined
}

const READ_LIMIT = 1000
/** Pending events kept per workspace while a gap is filled; beyond it subscribers resync. */
const MAX_PENDING = 50_000

export class StreamSequencer {
  private readonly tracks = new Map<string, Track>()

  constructor(private readonly io: SequencerIo) {}

  /** Starts (or keeps) tracking a workspace; resolves once its position is known. */
  retain(workspaceId: string): Promise<void> {
    const existing = this.tracks.get(workspaceId)
    if (existing !== undefined) {
      existing.refs++
      return existing.ready
    }
    const track: Track = {
      refs: 1,
      ready: Promise.resolve(),
      initialized: false,
      last: 0,
      target: 0,
      pending: new Map(),
      filling: false,
      retryTimer: undefined
    }
    this.tracks.set(workspaceId, track)
    track.ready = this.io.lastSeqs([workspaceId]).then(
      (seqs) => {
        const last = seqs.get(workspaceId) ?? 0
        track.initialized = true
        track.last = last
        track.target = Math.max(track.target, last)
        for (const seq of track.pending.keys()) if (seq <= last) track.pending.delete(seq)
        this.advance(workspaceId, track)
      },
      (error) => {
        if (this.tracks.get(workspaceId) === track) this.tracks.delete(workspaceId)
        throw error
      }
    )
    return track.ready
  }

  release(workspaceId: string): void {
    const track = this.tracks.get(workspaceId)
    if (track === undefined) return
    if (--track.refs > 0) return
    if (track.retryTimer !== undefined) clearTimeout(track.retryTimer)
    this.tracks.delete(workspaceId)
  }

  /** The last seq delivered to this node's subscribers of the workspace (tracked workspaces only). */
  lastDelivered(workspaceId: string): number {
    return this.tracks.get(workspaceId)?.last ?? 0
  }

  tracked(): ReadonlyArray<string> {
    return [...this.tracks.keys()]
  }

  offer(batch: FeedBatch): void {
    const track = this.tracks.get(batch.workspaceId)
    if (track === undefined) return // no socket of that workspace here
    track.target = Math.max(track.target, batch.lastSeq)
    if (batch.events !== undefined) {
      const bySeq = new Map<number, Array<NotificationRecord>>()
      for (const n of batch.notifications ?? []) {
        const list = bySeq.get(n.eventSeq)
        if (list === undefined) bySeq.set(n.eventSeq, [n])
        else list.push(n)
      }
      for (const event of batch.events) {
        if (event.seq > track.last || !track.initialized) track.pending.set(event.seq, { event, notifications: bySeq.get(event.seq) ?? [] })
      }
    }
    if (track.initialized) this.advance(batch.workspaceId, track)
  }

  /** Compares every tracked workspace with the log's counters and reads what is missing. */
  async sweep(): Promise<void> {
    const ids = [...this.tracks.entries()].filter(([, t]) => t.initialized).map(([id]) => id)
    if (ids.length === 0) return
    const seqs = await this.io.lastSeqs(ids)
    for (const [workspaceId, lastSeq] of seqs) this.offer({ workspaceId, lastSeq })
  }

  private drain(track: Track): void {
    for (;;) {
      const next = track.pending.get(track.last + 1)
      if (next === undefined) return
      track.pending.delete(track.last + 1)
      track.last++
      try {
        this.io.deliver(next.event, next.notifications)
      } catch (error) {
        this.io.onError(error)
      }
    }
  }

  private advance(workspaceId: string, track: Track): void {
    this.drain(track)
    if (track.pending.size > MAX_PENDING) {
      // A long outage: rather than hold memory, move on and let subscribers refetch.
      const newest = Math.max(track.target, ...track.pending.keys())
      track.pending.clear()
      track.last = newest
      track.target = newest
      this.io.resync(workspaceId, newest)
      return
    }
    if (track.target > track.last && !track.filling) void this.fill(workspaceId, track)
  }

  private async fill(workspaceId: string, track: Track): Promise<void> {
    track.filling = true
    try {
      while (this.tracks.get(workspaceId) === track && track.target > track.last) {
        this.drain(track)
        if (track.target <= track.last) break
        let upTo = track.target
        for (const seq of track.pending.keys()) if (seq > track.last && seq - 1 < upTo) upTo = seq - 1
        const read = await this.io.readRange(workspaceId, track.last, upTo, READ_LIMIT)
        if (this.tracks.get(workspaceId) !== track) return
        const first = read.events.find((e) => e.seq > track.last)
        if (first === undefined || first.seq > track.last + 1) {
          // The log no longer has these seqs (pruned): skip them, tell subscribers.
          const skipTo = first === undefined ? upTo : first.seq - 1
          if (skipTo > track.last) {
            track.last = skipTo
            this.io.resync(workspaceId, skipTo)
          }
        }
        this.offer({ workspaceId, lastSeq: track.target, events: read.events, notifications: read.notifications })
      }
    } catch (error) {
      this.io.onError(error)
      if (this.tracks.get(workspaceId) === track) {
        track.retryTimer = setTimeout(() => {
          track.retryTimer = undefined
          this.advance(workspaceId, track)
        }, 1000)
      }
    } finally {
      track.filling = false
    }
  }
}
