/**
 * Coalesced fan-out of a workspace's live stream: the frames published within
 * an AdaptiveWindow (an idle workspace: at once, after this turn; a busy one:
 * once per window) leave together.
 *
 * - Clients that accept batches get one frame per topic,
 *   `{"type":"batch","frames":[…]}` (a lone frame as itself), each event
 *   still carrying its `seq`.
 * - Plain clients get every frame as itself, in the order added, all in the
 *   flush's turn: uWS drains a turn's publishes as one write per socket, so a
 *   busy workspace costs a reader one socket write per window, not per event.
 *
 * Order: a socket follows several topics (a list here, a task elsewhere, its
 * notifications) and gets one frame per topic per flush, in the order of
 * their first frames. That keeps its frames in seq order as long as, among
 * the pending frames, two topics it may follow together never interleave.
 * Topics of one event are never followed together (StreamSession folds
 * overlapping subscriptions); any two others may be. So before a frame joins
 * a topic that another topic (not one of this frame's) has overtaken, that
 * topic is published early, with every pending topic that ends before it
 * begins. The wide topics (workspace, space) thus batch a whole burst, and
 * a list or task topic splits where the burst leaves it and comes back.
 */
import { AdaptiveWindow } from "../collab/AdaptiveWindow.ts"

export type Publish = (topic: string, frame: object, json: string) => void

interface Pending {
  readonly frames: Array<object>
  readonly jsons: Array<string>
  readonly first: number
  last: number
  /** Seq-less frames (notifications) keep no order with events: they never overtake a topic. */
  readonly ordered: boolean
}

interface PlainFrame {
  readonly topics: ReadonlyArray<string>
  readonly frame: object
  readonly json: string
}

class WorkspaceBatch {
  readonly topics = new Map<string, Pending>()
  /** Frames for plain topics, in the order added (uWS keeps a socket's frames in publish order across topics). */
  plain: Array<PlainFrame> = []
  next = 0
  readonly window: AdaptiveWindow
  constructor(windowMs: number, flush: () => void) {
    this.window = new AdaptiveWindow(windowMs, flush)
  }
}

export class StreamBatcher {
  private readonly workspaces = new Map<string, WorkspaceBatch>()

  constructor(
    private readonly windowMs: number,
    private readonly publish: Publish
  ) {}

  /**
   * Queues `frame` for every one of `topics` (the batched topics of one event)
   * and as itself for `plainTopics`. A frame that is not `ordered` (a
   * notification) goes out in the same window as the event before it, in no
   * particular order with the events.
   */
  add(
    workspaceId: string,
    topics: ReadonlyArray<string>,
    frame: object,
    json: string,
    ordered = true,
    plainTopics: ReadonlyArray<string> = []
  ): void {
    let batch = this.workspaces.get(workspaceId)
    if (batch === undefined) {
      const created = new WorkspaceBatch(this.windowMs, () => this.flushBatch(created))
      batch = created
      this.workspaces.set(workspaceId, batch)
    }
    if (plainTopics.length > 0) batch.plain.push({ topics: plainTopics, frame, json })
    if (ordered) this.publishOvertaken(batch, topics)
    const index = ordered ? batch.next++ : Math.max(0, batch.next - 1)
    for (const topic of topics) {
      const pending = batch.topics.get(topic)
      if (pending === undefined) batch.topics.set(topic, { frames: [frame], jsons: [json], first: index, last: index, ordered })
      else {
        pending.frames.push(frame)
        pending.jsons.push(json)
        pending.last = index
      }
    }
    batch.window.request()
  }

  /** Publishes what is pending for the workspace now (before a socket joins topics, or a resync notice). */
  flush(workspaceId: string): void {
    this.workspaces.get(workspaceId)?.window.flushNow()
  }

  /** No socket of the workspace is left here. */
  forget(workspaceId: string): void {
    this.workspaces.get(workspaceId)?.window.stop()
    this.workspaces.delete(workspaceId)
  }

  close(): void {
    for (const batch of this.workspaces.values()) batch.window.stop()
    this.workspaces.clear()
  }

  /** Publishes the pending topics of `topics` that another topic has overtaken, and every pending topic that ends before them. */
  private publishOvertaken(batch: WorkspaceBatch, topics: ReadonlyArray<string>): void {
    let latestElsewhere = -1
    for (const [topic, pending] of batch.topics)
      if (pending.ordered && pending.last > latestElsewhere && !topics.includes(topic)) latestElsewhere = pending.last
    let cutoff = -1
    const early = new Set<string>()
    for (const topic of topics) {
      const pending = batch.topics.get(topic)
      if (pending !== undefined && pending.last < latestElsewhere) {
        early.add(topic)
        cutoff = Math.max(cutoff, pending.first)
      }
    }
    if (early.size === 0) return
    for (const [topic, pending] of batch.topics) if (pending.last < cutoff) early.add(topic)
    this.publishTopics(batch, [...early])
  }

  private flushBatch(batch: WorkspaceBatch): void {
    const plain = batch.plain
    batch.plain = []
    for (const { topics, frame, json } of plain) for (const topic of topics) this.publish(topic, frame, json)
    this.publishTopics(batch, [...batch.topics.keys()])
    batch.next = 0
  }

  private publishTopics(batch: WorkspaceBatch, topics: ReadonlyArray<string>): void {
    const pending = topics.map((topic) => [topic, batch.topics.get(topic)!] as const).sort(([, a], [, b]) => a.first - b.first)
    for (const topic of topics) batch.topics.delete(topic)
    for (const [topic, { frames, jsons }] of pending) {
      if (frames.length === 1) this.publish(topic, frames[0]!, jsons[0]!)
      else this.publish(topic, { type: "batch", frames }, `{"type":"batch","frames":[${jsons.join(",")}]}`)
    }
  }
}
