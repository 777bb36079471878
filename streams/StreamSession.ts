/**
 * One live-update connection, whatever carries it (a raw uWS WebSocket or a
 * Socket.IO socket): its subscriptions, their authorization, the replay of
 * missed events, and which pub/sub topics it joins.
 *
 * Protocol (client → server): `subscribe {scope, id, lastSeq?}` and
 * `unsubscribe {scope, id}`. Server → client: the events (`{seq, type, …}`),
 * `ready`, `subscribed`, `unsubscribed`, `resync` and `error` frames; and,
 * for transports that asked for them, `batch {frames}`: several of those, in
 * order (StreamBatcher).
 *
 * Ordering: a subscription with `lastSeq` replays the missed events of its
 * scope from the log up to what this node has delivered live
 * (`StreamSequencer.lastDelivered`), re-reading while that moves, then joins
 * the live topics in the same synchronous step — so nothing falls between
 * replay and live, and nothing is sent twice. A client that asks for more
 * than the log still has (or more than `maxReplay`) gets `resync`: refetch
 * state, then follow live from the given seq.
 *
 * Overlapping subscriptions are folded: a subscription covered by another
 * (a list inside a subscribed space, anything inside the subscribed
 * workspace) joins no topic of its own, so each event reaches a connection
 * once. Operations of one connection run one at a time, in order.
 */
import { unstorableText } from "../actors/StorableText.ts"
import type { LoggedEvent, ScopeFilter } from "../actors/pm/EventLog.ts"
import { eventFrame } from "../actors/pm/EventLog.ts"
import type { ChangeScope } from "../actors/pm/ChangeLog.ts"
import type { ScopeTarget, Viewer } from "../actors/pm/Visibility.ts"
import { atLeast } from "../actors/identity/Workspace.ts"
import {
  boardTopic,
  controlTopic,
  listTopic,
  privateSpaceTopic,
  spaceTopic,
  taskTopic,
  userTopic,
  wikiSpaceTopic,
  workspaceAllTopic,
  workspacePublicTopic
} from "./StreamTopics.ts"

/** WebSocket close codes of the live streams (see reference data "stream close codes"). */
export const CloseCode = {
  malformed: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  /** The holder's role or private-space access changed: reconnect (new ticket) to be re-authorized. */
  accessChanged: 4409,
  /** The client sent frames faster than they could be handled. */
  tooManyFrames: 4429,
  unavailable: 4503
} as const

/** Frames a connection may have waiting to be handled before it is closed with 4429. */
export const MAX_PENDING_FRAMES = 200

export interface StreamTransport {
  /** `json` is `JSON.stringify(frame)`, computed once for transports that send text. */
  readonly send: (frame: object, json: string) => void
  readonly join: (topic: string) => void
  readonly leave: (topic: string) => void
  readonly close: (code: number, reason: string) => void
}

export interface StreamBackend {
  readonly lastDelivered: (workspaceId: string) => number
  /** Publishes what is held back for batching (delivered, so not to be replayed to a socket that joins its topics next). */
  readonly flush: (workspaceId: string) => void
  readonly resolveScope: (viewer: Viewer, scope: ChangeScope, id: string) => Promise<ScopeTarget>
  readonly visiblePrivateSpaces: (viewer: Viewer) => Promise<ReadonlyArray<string> | "all">
  readonly readScoped: (
    workspaceId: string,
    filter: ScopeFilter,
    after: number,
    upTo: number,
    limit: number
  ) => Promise<ReadonlyArray<LoggedEvent>>
  readonly oldestSeq: (workspaceId: string) => Promise<number | undefined>
  /** Most events a subscription replays; more means resync. */
  readonly maxReplay: number
  /** Most bytes a subscription replays (kept well under the socket's backpressure limit); more means resync. */
  readonly maxReplayBytes: number
}

export type ClientFrame =
  | { readonly type: "subscribe"; readonly scope: ChangeScope; readonly id: string; readonly lastSeq?: number }
  | { readonly type: "unsubscribe"; readonly scope: ChangeScope; readonly id: string }

const SCOPES: ReadonlySet<string> = new Set(["workspace", "space", "list", "task", "board", "wikiSpace"])
const ALLOWED_KEYS: ReadonlySet<string> = new Set(["type", "scope", "id", "lastSeq"])
export const MAX_SUBSCRIPTIONS = 100

/** The client frame, or why it is malformed. */
export const parseClientFrame = (value: unknown): ClientFrame | string => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "a frame must be a JSON object"
  // The rule of every request (facade/Pipeline): text no store can hold is refused, naming where.
  const unstorable = unstorableText(value, "frame")[0]
  if (unstorable !== undefined) return `${unstorable.path} ${unstorable.message}`
  const frame = value as Record<string, unknown>
  const extra = Object.keys(frame).find((key) => !ALLOWED_KEYS.has(key))
  if (extra !== undefined) return `unknown field "${extra.slice(0, 40)}"`
  if (frame.type !== "subscribe" && frame.type !== "unsubscribe") return 'type must be "subscribe" or "unsubscribe"'
  if (typeof frame.scope !== "string" || !SCOPES.has(frame.scope))
    return 'scope must be "workspace", "space", "list", "task", "board" or "wikiSpace"'
  if (typeof frame.id !== "string" || !/^[\w-]{1,100}$/.test(frame.id)) return "id must be an id string"
  if (frame.type === "unsubscribe") {
    if (frame.lastSeq !== undefined) return "lastSeq belongs to subscribe"
    return { type: "unsubscribe", scope: frame.scope as ChangeScope, id: frame.id }
  }
  if (frame.lastSeq !== undefined && (typeof frame.lastSeq !== "number" || !Number.isSafeInteger(frame.lastSeq) || frame.lastSeq < 0)) {
    return "lastSeq must be a non-negative integer"
  }
  return frame.lastSeq === undefined
    ? { type: "subscribe", scope: frame.scope as ChangeScope, id: frame.id }
    : { type: "subscribe", scope: frame.scope as ChangeScope, id: frame.id, lastSeq: frame.lastSeq }
}

interface Subscription {
  readonly key: string
  readonly target: ScopeTarget
  readonly topics: ReadonlyArray<string>
  /** Workspace subscriptions: the private spaces they include. */
  readonly privateSpaces: ReadonlyArray<string> | "all"
}

const covers = (a: Subscription, b: Subscription): boolean => {
  const outer = a.target
  const inner = b.target
  if (outer.scope === "workspace") {
    if (inner.scope === "workspace") return false
    return !inner.privateSpace || a.privateSpaces === "all" || (inner.spaceId !== undefined && a.privateSpaces.includes(inner.spaceId))
  }
  if (outer.scope === "space") return (inner.scope === "list" || inner.scope === "task") && inner.spaceId === outer.id
  if (outer.scope === "list") return inner.scope === "task" && inner.listId === outer.id
  return false
}

const errorMessage = (error: unknown): { code: string; message: string } => {
  const e = error as { _tag?: string; code?: unknown; message?: unknown }
  if (e?._tag === "Rejection" && typeof e.code === "string") return { code: e.code, message: String(e.message) }
  return { code: "unavailable", message: "The subscription could not be set up; try again" }
}

export class StreamSession {
  private open = true
  private disposed = false
  private readonly subscriptions = new Map<string, Subscription>()
  private joined = new Set<string>()
  private queue: Promise<void>
  private pending = 0

  constructor(
    private readonly viewer: Viewer,
    private readonly transport: StreamTransport,
    private readonly backend: StreamBackend,
    /** Resolves once the node tracks the workspace (the sequencer knows its position). */
    ready: Promise<void>
  ) {
    this.queue = ready.then(
      () => {
        if (!this.open) return
        backend.flush(viewer.workspaceId)
        this.transport.join(controlTopic(viewer.workspaceId))
        this.transport.join(userTopic(viewer.workspaceId, viewer.userId))
        this.send({ type: "ready", workspaceId: viewer.workspaceId, userId: viewer.userId, seq: backend.lastDelivered(viewer.workspaceId) })
      },
      () => this.close(CloseCode.unavailable, "live updates are unavailable; retry")
    )
  }

  get isOpen(): boolean {
    return this.open
  }

  /** A parsed client frame (or the reason it is malformed: the connection is closed with 4400). */
  handle(frame: ClientFrame | string): void {
    if (!this.open) return
    if (typeof frame === "string") {
      this.close(CloseCode.malformed, `malformed frame: ${frame}`)
      return
    }
    if (++this.pending > MAX_PENDING_FRAMES) {
      this.close(CloseCode.tooManyFrames, "too many frames waiting; slow down")
      return
    }
    this.queue = this.queue
      .then(() => (frame.type === "subscribe" ? this.subscribe(frame) : this.unsubscribe(frame.scope, frame.id)))
      .finally(() => {
        this.pending--
      })
  }

  get workspaceId(): string {
    return this.viewer.workspaceId
  }

  get userId(): string {
    return this.viewer.userId
  }

  get role(): Viewer["role"] {
    return this.viewer.role
  }

  /** Spaces whose visibility this connection's subscriptions depend on (for re-checking access while it lives). */
  spacesInUse(): ReadonlyArray<string> {
    const spaces = new Set<string>()
    for (const { target, privateSpaces } of this.subscriptions.values()) {
      if (target.spaceId !== undefined) spaces.add(target.spaceId)
      if (privateSpaces !== "all") for (const id of privateSpaces) spaces.add(id)
    }
    return [...spaces]
  }

  /** Access changed under an open connection: close it; the client reconnects and is authorized afresh. */
  revoke(code: number, reason: string): void {
    this.close(code, reason)
  }

  /** The connection ended (either side). True the first time only. */
  dispose(): boolean {
    this.open = false
    if (this.disposed) return false
    this.disposed = true
    return true
  }

  private send(frame: object): void {
    if (this.open) this.transport.send(frame, JSON.stringify(frame))
  }

  private close(code: number, reason: string): void {
    if (!this.open) return
    this.open = false
    this.transport.close(code, reason)
  }

  private topicsOf(target: ScopeTarget, privateSpaces: ReadonlyArray<string> | "all"): ReadonlyArray<string> {
    const ws = this.viewer.workspaceId
    switch (target.scope) {
      case "workspace":
        return privateSpaces === "all"
          ? [workspaceAllTopic(ws)]
          : [workspacePublicTopic(ws), ...privateSpaces.map((spaceId) => privateSpaceTopic(ws, spaceId))]
      case "space":
        return [spaceTopic(ws, target.id)]
      case "list":
        return [listTopic(ws, target.id)]
      case "task":
        return [taskTopic(ws, target.id)]
      case "board":
        return [boardTopic(ws, target.id)]
      case "wikiSpace":
        return [wikiSpaceTopic(ws, target.id)]
    }
  }

  private covered(subscription: Subscription): boolean {
    for (const other of this.subscriptions.values()) if (other !== subscription && covers(other, subscription)) return true
    return false
  }

  private applyTopics(): void {
    const wanted = new Set<string>()
    for (const subscription of this.subscriptions.values()) {
      if (!this.covered(subscription)) for (const topic of subscription.topics) wanted.add(topic)
    }
    for (const topic of this.joined) if (!wanted.has(topic)) this.transport.leave(topic)
    for (const topic of wanted) if (!this.joined.has(topic)) this.transport.join(topic)
    this.joined = wanted
  }

  private async subscribe(frame: Extract<ClientFrame, { type: "subscribe" }>): Promise<void> {
    if (!this.open) return
    const key = `${frame.scope}:${frame.id}`
    if (!this.subscriptions.has(key) && this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      return this.send({
        type: "error",
        code: "too_many_subscriptions",
        message: `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`,
        scope: frame.scope,
        id: frame.id
      })
    }
    const ws = this.viewer.workspaceId
    let subscription: Subscription
    const replay: Array<{ readonly frame: object; readonly json: string }> = []
    let replayBytes = 0
    let resync = false
    try {
      const target = await this.backend.resolveScope(this.viewer, frame.scope, frame.id)
      const privateSpaces =
        frame.scope === "workspace"
          ? atLeast(this.viewer.role, "admin")
            ? ("all" as const)
            : await this.backend.visiblePrivateSpaces(this.viewer)
          : []
      subscription = { key, target, privateSpaces, topics: this.topicsOf(target, privateSpaces) }
      if (frame.lastSeq !== undefined && !this.covered(subscription)) {
        const filter: ScopeFilter = { scope: frame.scope, id: frame.id, privateSpaces }
        let after = frame.lastSeq
        /** Reads (after, lastDelivered] until that stops moving; false when the replay got too big. */
        const readUpToDelivered = async () => {
          while (after < this.backend.lastDelivered(ws)) {
            const upTo = this.backend.lastDelivered(ws)
            const events = await this.backend.readScoped(ws, filter, after, upTo, this.backend.maxReplay + 1 - replay.length)
            for (const event of events) {
              const eventFrameValue = eventFrame(event)
              const json = JSON.stringify(eventFrameValue)
              replayBytes += json.length
              replay.push({ frame: eventFrameValue, json })
            }
            if (replay.length > this.backend.maxReplay || replayBytes > this.backend.maxReplayBytes) return false
            after = upTo
          }
          return true
        }
        resync = !(await readUpToDelivered())
        if (!resync && frame.lastSeq < this.backend.lastDelivered(ws)) {
          // Checked after reading, so whatever was pruned meanwhile is caught too.
          const oldest = await this.backend.oldestSeq(ws)
          resync = oldest === undefined || oldest > frame.lastSeq + 1
          // That query took a turn of the event loop: pick up what was delivered meanwhile.
          if (!resync) resync = !(await readUpToDelivered())
        }
      }
    } catch (error) {
      return this.send({ type: "error", ...errorMessage(error), scope: frame.scope, id: frame.id })
    }
    if (!this.open) return
    // From here on synchronous: the replay ends exactly where the live topics begin.
    this.backend.flush(ws)
    const seq = this.backend.lastDelivered(ws)
    if (resync) this.send({ type: "resync", workspaceId: ws, scope: frame.scope, id: frame.id, seq })
    else for (const { frame: replayed, json } of replay) this.transport.send(replayed, json)
    this.subscriptions.set(key, subscription)
    this.applyTopics()
    this.send({ type: "subscribed", scope: frame.scope, id: frame.id, seq })
  }

  private unsubscribe(scope: ChangeScope, id: string): void {
    if (!this.open) return
    const existed = this.subscriptions.delete(`${scope}:${id}`)
    if (existed) this.applyTopics()
    this.send({ type: "unsubscribed", scope, id })
  }
}
