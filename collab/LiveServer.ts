/**
 * The live documents of this process: a Hocuspocus instance whose documents
 * load from (and log every change to) SQL, broadcast through uWS topics,
 * and meet their copies on other nodes through the cluster.
 *
 * - Loading: snapshot + log tail (one statement), after the log committed
 *   what it had queued for the document (a quick reopen sees its own last
 *   edits); applied without an update event, and no conversion (JSON,
 *   Markdown, text) on the way.
 * - Joining: a fresh provider's initial sync and the crowd's awareness come
 *   from the document's JoinFrames, encoded once per change, not per joiner;
 *   presence goes to peers at most every PRESENCE_DELAY_MS. Read-only
 *   readers join as ReadOnlyReaders (no Hocuspocus connection; the
 *   document's DocumentReaders hold it loaded) and share its topic.
 * - Logging: every change made here (an editor's update, a REST edit, a
 *   repair from a peer) is appended to the UpdateLog; editors' acks wait for
 *   it (see SocketAdapter). Hocuspocus's debounced onStoreDocument is never
 *   started (nor its onChange hooks run): a document unloads once its last
 *   connection goes.
 * - Broadcast: Hocuspocus's per-connection sends of updates and awareness
 *   are routed, per document, to its DocumentFanOut, which coalesces them
 *   over an adaptive window (`coalesceMs`): one merged frame per window when
 *   busy (what it sent at once in a window cost many socket writes, or a
 *   reader is behind), at once otherwise; each frame is encoded once and
 *   goes out as one native `publish` to the document's topic (only
 *   connections whose socket is not ours get their own sends).
 * - Hocuspocus's and Yjs's private members are reached only through
 *   HocuspocusInternals and YjsInternals, checked when the server is built.
 * - Compaction folds a document's log into its state every `compactRows`
 *   rows, when it unloads, and in a periodic sweep (logs a dead node left).
 */
import { randomUUID } from "node:crypto"
import { ResetConnection } from "@hocuspocus/common"
import { type Connection, type Document, Hocuspocus, type onAuthenticatePayload, OutgoingMessage } from "@hocuspocus/server"
import { Effect } from "effect"
import { applyAwarenessUpdate, encodeAwarenessUpdate } from "y-protocols/awareness"
import * as Y from "yjs"
import type { Sql, SqlError } from "../persistence/Sql.ts"
import { type ClusterHost, type ClusterNode, soloNode } from "./Cluster.ts"
import type { CollabOptions } from "./CollabOptions.ts"
import * as DocumentStore from "./DocumentStore.ts"
import type { DocumentContent, DocumentSnapshot, Editor, ProseMirrorNode } from "../actors/LiveDocuments.ts"
import {
  appendToYFragment,
  contentOf,
  docToHtml,
  docToMarkdown,
  docToText,
  docToYFragment,
  stateToDoc,
  validateDoc,
  yFragmentToDoc
} from "../richtext/RichText.ts"
import { CloseCode, SocketAdapter } from "./SocketAdapter.ts"
import { BACKLOG_SAMPLE, DocumentFanOut } from "./DocumentFanOut.ts"
import { RotatingSample } from "./RotatingSample.ts"
import type { Grant } from "./Grant.ts"
import { DocumentReaders, type ReaderSocket, type ReadOnlyReader } from "./ReadOnlyReaders.ts"
import { UpdateLog } from "./UpdateLog.ts"
import { UpdateMerger } from "./UpdateMerger.ts"
import { JoinFrames } from "./JoinFrames.ts"
import { DocumentMessages, type PeerKind } from "./DocumentMessages.ts"
import { checkHocuspocusInternals, followConnections, type JoinPath, replaceJoinPath, routeBroadcasts } from "./HocuspocusInternals.ts"
import { checkYjsInternals, pendingOf, withoutUpdateEvents } from "./YjsInternals.ts"
import { logError } from "../runtime/Log.ts"

/** Runs an SQL effect (the layer's context). */
export type RunSql = <A>(effect: Effect.Effect<A, SqlError, Sql>) => Promise<A>

/** What an authenticated connection carries (Hocuspocus merges it into the connection's context). */
export interface ConnectionContext {
  readonly socket?: SocketAdapter
  /** Grants the endpoint decided for documents it handed to Hocuspocus (taken once, by onAuthenticate). */
  readonly grants?: Map<string, Grant>
  readonly editor?: Editor
  readonly principal?: unknown
}

/** Decides whether a connection may open a document; throws (after arranging its close) when it may not. */
export type Authenticator = (request: {
  readonly token: string
  readonly documentName: string
  readonly socket: SocketAdapter | undefined
}) => Promise<Grant>

// Transaction origins, tagged for us (Hocuspocus 3 only tells a connection's updates, the origin, from others).
const PEER = { atrium: "peer" }
const REPAIR = { atrium: "repair" }
const STORAGE = { atrium: "storage" }
const REST = { atrium: "rest" }

/** Hocuspocus 3's ping timer per socket (`timeout`), never due: liveness is uWS's (automatic pings, idle timeout). */
const NEVER_MS = 2 ** 31 - 1

const REMOVED_REASON = "document removed"
/** Hocuspocus's reason when the server closes a connection (the socket follows with 4500: see `documentClosed`). */
const SERVER_CLOSED_REASON = "Server closed the connection"
const PRESENCE_DELAY_MS = 25

export const topicOf = (name: string) => `doc/${name}`

/** A Hocuspocus connection as DocumentMessages' peer: Hocuspocus's own bookkeeping (its awareness clients, its close). */
const connectionKind: PeerKind<Connection> = {
  readOnly: (connection) => connection.readOnly,
  send: (connection, frame) => connection.send(frame),
  origin: (connection) => connection,
  awareness: (connection, update) => applyAwarenessUpdate(connection.document.awareness, update, connection.webSocket),
  close: (connection) => connection.close({ code: 1000, reason: "provider_initiated" }),
  fault: (connection, error) => {
    logError("collab", `closing a connection to ${connection.document.name}: handling its message failed`, error)
    connection.close({ code: ResetConnection.code, reason: ResetConnection.reason })
  }
}

/** A document's text, Markdown and HTML, derived from its content on first use. */
abstract class DerivedForms implements DocumentContent {
  abstract readonly content: ProseMirrorNode
  get text(): string {
    return docToText(this.content)
  }
  get markdown(): string {
    return docToMarkdown(this.content)
  }
  get html(): string {
    return docToHtml(this.content)
  }
}

/** ProseMirror JSON of a Yjs fragment; an editor extension's node is kept rather than failing the read. */
const validContent = (raw: ProseMirrorNode): ProseMirrorNode => {
  try {
    return validateDoc(raw)
  } catch {
    return raw
  }
}

/** A snapshot whose derived forms (JSON, text, Markdown, HTML) are computed on first use. */
class LazySnapshot extends DerivedForms implements DocumentSnapshot {
  private cached: ProseMirrorNode | undefined
  constructor(readonly state: Uint8Array) {
    super()
  }
  get content(): ProseMirrorNode {
    this.cached ??= validContent(stateToDoc(this.state))
    return this.cached
  }
  toJSON() {
    return { content: this.content, text: this.text, markdown: this.markdown, html: this.html }
  }
}

/** The content of a live document as it is now, read from its fragment (no state encoded and decoded again). */
class LiveContent extends DerivedForms {
  readonly content: ProseMirrorNode
  constructor(document: Y.Doc) {
    super()
    this.content = validContent(yFragmentToDoc(contentOf(document)))
  }
}

/**
 * Hocuspocus names each socket with `crypto.randomUUID()`, which Node builds by concatenation: a rope of a dozen
 * strings (~450 bytes) that the socket's ClientConnection, Connection and hook payloads keep for its life. Read as
 * a number, V8 flattens a rope in place (the trick of the `flatstr` package): every holder then shares one flat
 * 36-character string and the pieces are freed. For idle readers that is about 6% of what each costs.
 */
const flattenInPlace = (text: string): number => Number(text)

const emptyState = (() => {
  const doc = new Y.Doc()
  const state = Y.encodeStateAsUpdate(doc)
  doc.destroy()
  return state
})()

type Listener = (name: string, content: DocumentContent) => Promise<void>

interface Tracked {
  /** Connections that cannot use the document's topic (their socket is not ours). */
  readonly individual: Set<Connection>
  rowsSinceCompaction: number
  bytesSinceCompaction: number
  /** Size of the stored state when last known (load or compaction). */
  stateBytes: number
  /** When an update of it last committed (`performance.now()`), and the timer of a compaction waiting for a pause. */
  lastCommitAt: number
  quietTimer: NodeJS.Timeout | undefined
  /** The last pending structs / delete set logged (see `whenDurable`). */
  loggedPending: unknown
  loggedPendingDs: unknown
  /** The whole stored document as one update, when storage held it as one part (the joiners' initial sync as it is). */
  loaded: Uint8Array | undefined
  /** Coalesced broadcasts (set once the document is followed, after loading). */
  fanOut: DocumentFanOut | undefined
  /** What joiners are sent, and how what connections send is answered (set once the document is followed). */
  frames: JoinFrames | undefined
  messages: DocumentMessages | undefined
  /** Its read-only readers on this node, while it has any. */
  readers: DocumentReaders | undefined
}

export class LiveServer implements ClusterHost {
  readonly nodeId = randomUUID()
  readonly hocuspocus: Hocuspocus
  readonly log: UpdateLog
  cluster: ClusterNode
  private publisher: ((topic: string, frame: Uint8Array) => void) | undefined
  private authenticator: Authenticator | undefined
  private readonly tracked = new Map<string, Tracked>()
  private readonly listeners: Array<Listener> = []
  private readonly changeTimers = new Map<string, NodeJS.Timeout>()
  private readonly removed = new Set<string>()
  private readonly compactions: Array<string> = []
  private readonly compactionQueued = new Set<string>()
  private readonly openingReaders = new Map<string, Promise<DocumentReaders>>()
  private compacting = false
  /** Compactions merge on a worker: a page's merge would otherwise hold up every keystroke meanwhile. */
  private readonly merger = new UpdateMerger()
  private sweepTimer: NodeJS.Timeout | undefined
  private readonly presenceDue = new Set<string>()
  private presenceTimer: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly runSql: RunSql,
    readonly options: CollabOptions,
    backend: "postgres" | "pglite" = "pglite",
    cluster?: ClusterNode
  ) {
    // Refuse to start on a Hocuspocus or Yjs whose private members moved (named in the error).
    checkHocuspocusInternals()
    checkYjsInternals()
    this.cluster = cluster ?? soloNode(this.nodeId)
    this.log = new UpdateLog({
      write: (entries) => runSql(DocumentStore.append(entries)),
      // PostgreSQL's pool overlaps commits; PGlite is one session.
      concurrency: backend === "postgres" ? 3 : 1,
      blocksLoop: backend === "pglite",
      committed: (entries) => this.committed(entries),
      failed: (error, attempt) => {
        if (attempt === 1 || attempt % 20 === 0) logError("collab", `appending updates failed (attempt ${attempt}), retrying`, error)
      }
    })
    this.hocuspocus = new Hocuspocus({
      name: this.nodeId,
      quiet: true,
      timeout: NEVER_MS,
      yDocOptions: { gc: true, gcFilter: () => true },
      // Storing is the UpdateLog's job: routed documents never start Hocuspocus's store debounce (HocuspocusInternals).
      extensions: [
        {
          extensionName: "atrium-collab",
          onLoadDocument: async ({ document, documentName }) => {
            await this.loadInto(documentName, document)
          },
          afterLoadDocument: async ({ document, documentName }) => {
            this.follow(documentName, document)
          },
          onAuthenticate: async (payload: onAuthenticatePayload) => {
            flattenInPlace(payload.socketId)
            const context: ConnectionContext = payload.context
            const authenticate = this.authenticator
            if (authenticate === undefined) {
              context.socket?.close(CloseCode.forbidden, "collaboration is not available")
              throw { reason: "forbidden" }
            }
            // The endpoint decided the first opening of a document on a socket already; a reopening is decided here.
            const decided = context.grants?.get(payload.documentName)
            if (decided !== undefined) context.grants?.delete(payload.documentName)
            const granted =
              decided ?? (await authenticate({ token: payload.token, documentName: payload.documentName, socket: context.socket }))
            if (granted.readOnly) payload.connectionConfig.readOnly = true
            return { editor: granted.editor, principal: granted.principal }
          },
          connected: async ({ documentName }) => {
            this.presenceChanged(documentName)
          },
          onDisconnect: async ({ documentName }) => {
            this.presenceChanged(documentName)
          },
          beforeUnloadDocument: async ({ documentName }) => {
            // The last connection's leaving (its awareness removed) still has peers to reach.
            this.tracked.get(documentName)?.fanOut?.flushNow()
          },
          afterUnloadDocument: async ({ documentName }) => {
            this.unloaded(documentName)
          }
        }
      ]
    })
    this.sweepTimer = setInterval(() => void this.sweep(), options.sweepSeconds * 1000)
    this.sweepTimer.unref()
  }

  /** The uWS app's publish, once the endpoint is attached. */
  setPublisher(publish: (topic: string, frame: Uint8Array) => void): void {
    this.publisher = publish
  }

  setAuthenticator(authenticator: Authenticator): void {
    this.authenticator = authenticator
  }

  // -------------------------------------------------------------------------
  // loading and following documents

  private async loadInto(name: string, document: Document): Promise<void> {
    await this.log.barrier(name)
    const stored = await this.runSql(DocumentStore.load(name))
    // Nobody is connected yet and what is applied comes from storage: an update event
    // (Yjs re-encoding the whole document for it) would serve nobody.
    withoutUpdateEvents(document, () =>
      Y.transact(
        document,
        () => {
          if (stored.state !== undefined) Y.applyUpdate(document, stored.state)
          for (const update of stored.updates) Y.applyUpdate(document, update)
        },
        STORAGE
      )
    )
    // Stored as one part (a compacted state, or a single update): that is the joiners' initial sync as it is.
    const parts = [...(stored.state !== undefined ? [stored.state] : []), ...stored.updates]
    this.tracked.set(name, {
      individual: new Set(),
      rowsSinceCompaction: stored.updates.length,
      bytesSinceCompaction: stored.updates.reduce((sum, update) => sum + update.byteLength, 0),
      stateBytes: stored.state?.byteLength ?? 0,
      lastCommitAt: performance.now(),
      quietTimer: undefined,
      loggedPending: undefined,
      loggedPendingDs: undefined,
      loaded: parts.length === 1 ? parts[0] : undefined,
      fanOut: undefined,
      frames: undefined,
      messages: undefined,
      readers: undefined
    })
  }

  /** The document loaded (no connection yet): its broadcasts, joins, change log and peers. */
  private follow(name: string, document: Document): void {
    const tracked = this.tracked.get(name)
    if (tracked === undefined) return
    this.patchBroadcast(name, document, tracked)
    this.followConnections(name, document, tracked)
    document.on("update", (update: Uint8Array, origin: unknown) => this.changed(name, update, origin))
    this.cluster.join(name, document)
  }

  private unloaded(name: string): void {
    const tracked = this.tracked.get(name)
    this.tracked.delete(name)
    tracked?.fanOut?.close()
    if (tracked?.quietTimer !== undefined) clearTimeout(tracked.quietTimer)
    this.cluster.leave(name)
    this.presenceChanged(name)
    if (tracked !== undefined && tracked.rowsSinceCompaction > 1 && !this.removed.has(name)) this.scheduleCompaction(name)
  }

  /**
   * Routes Hocuspocus's per-connection update and awareness sends for
   * `document` to its DocumentFanOut: what it flushes is encoded once and
   * published to the document's uWS topic, which sockets of ours join when
   * their connection is added; other connections are sent it one by one.
   * Local connections' awareness changes (and their cleanup on disconnect)
   * also go to peers; peers' own don't go back.
   */
  private patchBroadcast(name: string, document: Document, tracked: Tracked): void {
    const topic = topicOf(name)
    // Hocuspocus's connections and the lean readers (ReadOnlyReaders) share the topic.
    const broadcast = (frame: Uint8Array): void => {
      if (document.isDestroyed) return
      const viaTopic = document.connections.size - tracked.individual.size + (tracked.readers?.size ?? 0)
      if (viaTopic > 0) this.publisher?.(topic, frame)
      for (const connection of tracked.individual) connection.send(frame)
    }
    const connectionBacklog = new RotatingSample(() => document.connections.keys(), BACKLOG_SAMPLE)
    const fanOut = new DocumentFanOut(this.options.coalesceMs, this.options.sendBudget, {
      update: (update) => broadcast(new OutgoingMessage(name).createSyncMessage().writeUpdate(update).toUint8Array()),
      awareness: (clients) => broadcast(new OutgoingMessage(name).createAwarenessUpdateMessage(document.awareness, clients).toUint8Array()),
      peerAwareness: (clients) => {
        if (!document.isDestroyed) this.cluster.publishAwareness(name, encodeAwarenessUpdate(document.awareness, clients))
      },
      connections: () => document.connections.size + (tracked.readers?.size ?? 0),
      mostBuffered: () =>
        Math.max(
          tracked.readers?.mostBuffered() ?? 0,
          connectionBacklog.max((socket) => (socket instanceof SocketAdapter ? socket.bufferedBytes() : 0))
        )
    })
    routeBroadcasts(document, {
      update: (update) => fanOut.update(update),
      awareness: (clients, local) => {
        // Unloading: the last awareness change has nobody left to reach.
        if (document.isDestroyed) return
        fanOut.awareness(clients)
        if (local) fanOut.peerAwareness(clients)
      }
    })
    tracked.fanOut = fanOut
  }

  /**
   * Follows `document`'s connections as Hocuspocus adds and removes them. An
   * added connection's socket (ours) joins the document's topic; others are
   * broadcast to one by one. Every connection joins through the document's
   * JoinFrames (everyone's awareness as one cached update), and what it sends
   * is answered by the document's DocumentMessages as it arrives, instead of
   * through Hocuspocus's hook chain.
   */
  private followConnections(name: string, document: Document, tracked: Tracked): void {
    const topic = topicOf(name)
    const frames = new JoinFrames(document, name, document.awareness, tracked.loaded)
    const messages = new DocumentMessages(name, document, frames)
    tracked.loaded = undefined
    tracked.frames = frames
    tracked.messages = messages
    // The document's two functions, shared by its connections (`this` is the connection): nothing allocated per connection.
    const joinPath: JoinPath = {
      sendCurrentAwareness(this: Connection): void {
        const frame = frames.currentAwareness()
        if (frame !== undefined) this.send(frame)
      },
      handleMessage(this: Connection, data: Uint8Array): void {
        messages.handle(connectionKind, this, data)
      }
    }
    followConnections(document, {
      added: (connection) => {
        const socket = connection.webSocket
        const viaTopic = socket instanceof SocketAdapter && socket.subscribe(topic)
        if (!viaTopic) tracked.individual.add(connection)
        replaceJoinPath(connection, joinPath)
      },
      removed: (connection) => {
        tracked.individual.delete(connection)
        const socket = connection.webSocket
        if (socket instanceof SocketAdapter) socket.unsubscribe(topic)
      }
    })
  }

  /** A change of a loaded document: log it (unless a peer already made it durable) and tell listeners. */
  private changed(name: string, update: Uint8Array, origin: unknown): void {
    const tag = (origin as { atrium?: unknown } | null)?.atrium
    if (tag === "peer" || origin === STORAGE || this.removed.has(name)) return
    // Repairs are logged (the peer may not have made them durable) but not republished: peers converge on their own.
    this.log.append(name, update, tag !== "repair")
    if (tag !== "repair") this.scheduleChange(name)
  }

  private committed(entries: ReadonlyArray<{ readonly name: string; readonly update: Uint8Array; readonly tag: unknown }>): void {
    // Peers get one message per document per commit (the group commit coalesces like the local fan-out).
    const toPeers = new Map<string, Array<Uint8Array>>()
    for (const entry of entries) {
      if (entry.tag === true) {
        const updates = toPeers.get(entry.name)
        if (updates === undefined) toPeers.set(entry.name, [entry.update])
        else updates.push(entry.update)
      }
    }
    for (const [name, updates] of toPeers) this.cluster.publishUpdate(name, updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates))
    const now = performance.now()
    for (const entry of entries) {
      const tracked = this.tracked.get(entry.name)
      if (tracked === undefined) continue
      tracked.rowsSinceCompaction++
      tracked.bytesSinceCompaction += entry.update.byteLength
      tracked.lastCommitAt = now
      if (this.dueForCompaction(tracked)) this.compactWhenQuiet(entry.name, tracked)
    }
  }

  /**
   * Compacts a document once nobody has changed it for `compactQuietMs`, or
   * at once when it is overdue (its log 20 times past `compactRows`, or past
   * `compactBytes`): encoding the
   * page, and on an embedded database the statements, run on this event loop,
   * so a compaction in the middle of people typing would reach their screens
   * as a pause (tens of milliseconds for a page of 100 KB on PGlite). One
   * timer per due compaction, checked against the last commit when it fires.
   */
  private compactWhenQuiet(name: string, tracked: Tracked): void {
    const compactNow = (): void => {
      if (tracked.quietTimer !== undefined) clearTimeout(tracked.quietTimer)
      tracked.quietTimer = undefined
      tracked.rowsSinceCompaction = 0
      tracked.bytesSinceCompaction = 0
      this.scheduleCompaction(name)
    }
    if (this.overdueForCompaction(tracked)) {
      compactNow()
      return
    }
    if (tracked.quietTimer !== undefined) return
    const wait = (ms: number): void => {
      tracked.quietTimer = setTimeout(() => {
        tracked.quietTimer = undefined
        if (this.tracked.get(name) !== tracked || this.closed) return
        const quietFor = performance.now() - tracked.lastCommitAt
        if (quietFor >= this.options.compactQuietMs) compactNow()
        else wait(this.options.compactQuietMs - quietFor)
      }, ms)
      tracked.quietTimer.unref()
    }
    wait(this.options.compactQuietMs)
  }

  /**
   * Resolves when what `name` holds is durable: everything queued for it is
   * committed. Updates Yjs holds back (their dependencies are missing) are
   * logged too, so an acknowledged update survives even if what it waits for
   * never arrives.
   */
  async whenDurable(name: string): Promise<void> {
    const document = this.hocuspocus.documents.get(name)
    const tracked = this.tracked.get(name)
    if (document !== undefined && tracked !== undefined) {
      const pending = pendingOf(document)
      if (pending.structs !== undefined && pending.structs !== tracked.loggedPending) {
        tracked.loggedPending = pending.structs
        this.log.append(name, Y.convertUpdateFormatV2ToV1(pending.structs), false)
      }
      if (pending.deletes !== undefined && pending.deletes !== tracked.loggedPendingDs) {
        tracked.loggedPendingDs = pending.deletes
        this.log.append(name, Y.convertUpdateFormatV2ToV1(pending.deletes), false)
      }
    }
    await this.log.barrier(name)
  }

  // -------------------------------------------------------------------------
  // cluster host

  applyPeerUpdate(name: string, update: Uint8Array): void {
    const document = this.hocuspocus.documents.get(name)
    if (document !== undefined && !document.isLoading) Y.applyUpdate(document, update, PEER)
  }

  applyRepair(name: string, update: Uint8Array): void {
    const document = this.hocuspocus.documents.get(name)
    if (document !== undefined && !document.isLoading) Y.applyUpdate(document, update, REPAIR)
  }

  applyPeerAwareness(name: string, update: Uint8Array): void {
    const document = this.hocuspocus.documents.get(name)
    if (document !== undefined && !document.isLoading) applyAwarenessUpdate(document.awareness, update, PEER)
  }

  removedByPeer(name: string): void {
    this.markRemoved(name)
    this.closeDocumentConnections(name)
  }

  /** Remembers (a bounded number of) removed documents, so late updates of theirs are not logged again. */
  private markRemoved(name: string): void {
    this.removed.add(name)
    if (this.removed.size > 10_000) this.removed.delete(this.removed.values().next().value!)
  }

  /** Closes every connection to `name`; their sockets follow with 4404 (see `documentClosed`). */
  private closeDocumentConnections(name: string): void {
    this.tracked.get(name)?.readers?.closeAll(REMOVED_REASON)
    const document = this.hocuspocus.documents.get(name)
    if (document === undefined) return
    for (const connection of document.getConnections()) connection.close({ code: CloseCode.removed, reason: REMOVED_REASON })
  }

  // -------------------------------------------------------------------------
  // read-only readers

  /** `socket` as a read-only reader of `name`, loading the document if needed; undefined if the socket closed meanwhile. */
  async openReader(name: string, socket: ReaderSocket, grant: Grant): Promise<ReadOnlyReader | undefined> {
    for (;;) {
      const readers = await this.readersOf(name)
      // Released while this join waited (its last reader left): open it again.
      if (!readers.released) return readers.join(socket, grant.editor)
    }
  }

  private readersOf(name: string): Promise<DocumentReaders> {
    const current = this.tracked.get(name)?.readers
    if (current !== undefined && !current.released) return Promise.resolve(current)
    let opening = this.openingReaders.get(name)
    if (opening === undefined) {
      opening = this.openReaders(name).finally(() => this.openingReaders.delete(name))
      this.openingReaders.set(name, opening)
    }
    return opening
  }

  /** The document's readers, holding it loaded through one direct connection while they are there. */
  private async openReaders(name: string): Promise<DocumentReaders> {
    if (this.closed) throw new Error("collab server is closed")
    const direct = await this.hocuspocus.openDirectConnection(name)
    const tracked = this.tracked.get(name)
    const document = direct.document
    if (tracked?.frames === undefined || tracked.messages === undefined || document === null) {
      await direct.disconnect()
      throw new Error(`document ${name} did not load`)
    }
    const readers: DocumentReaders = new DocumentReaders(name, document, tracked.frames, tracked.messages, topicOf(name), {
      presenceChanged: () => this.presenceChanged(name),
      release: () => {
        if (tracked.readers === readers) tracked.readers = undefined
        direct.disconnect().catch((error: unknown) => logError("collab", `releasing ${name} failed`, error))
      }
    })
    tracked.readers = readers
    return readers
  }

  documentOf(name: string): Document | undefined {
    const document = this.hocuspocus.documents.get(name)
    return document !== undefined && !document.isLoading ? document : undefined
  }

  localPresence(): ReadonlyArray<readonly [string, ReadonlyArray<Editor>]> {
    return [...this.hocuspocus.documents.keys()].map((name) => [name, this.localEditors(name)] as const)
  }

  // -------------------------------------------------------------------------
  // editors and presence

  private localEditors(name: string): Array<Editor> {
    const document = this.hocuspocus.documents.get(name)
    if (document === undefined) return []
    const editors = document.getConnections().flatMap((connection) => (connection.context?.editor ? [connection.context.editor] : []))
    const readers = this.tracked.get(name)?.readers
    return readers === undefined ? editors : [...editors, ...readers.editors()]
  }

  /**
   * Presence goes to peers at most once per PRESENCE_DELAY_MS per document:
   * each publication lists every editor, so publishing on every join would
   * make a crowd joining cost the square of its size.
   */
  private presenceChanged(name: string): void {
    this.presenceDue.add(name)
    if (this.presenceTimer !== undefined || this.closed) return
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = undefined
      const names = [...this.presenceDue]
      this.presenceDue.clear()
      for (const due of names) this.cluster.publishPresence(due, this.localEditors(due))
    }, PRESENCE_DELAY_MS)
  }

  /** Who has `name` open, on this node and others; one entry per user (their earliest session). */
  editors(name: string): ReadonlyArray<Editor> {
    const byUser = new Map<string, Editor>()
    for (const editor of [...this.localEditors(name), ...this.cluster.remoteEditors(name)]) {
      const known = byUser.get(editor.userId)
      if (known === undefined || editor.since < known.since) byUser.set(editor.userId, editor)
    }
    return [...byUser.values()].sort((a, b) => a.since.localeCompare(b.since))
  }

  // -------------------------------------------------------------------------
  // server-side edits (LiveDocuments)

  /** Runs `edit` in one transaction on the live document (loading it if needed), then waits until it is durable. */
  async edit(name: string, edit: (document: Y.Doc) => void): Promise<void> {
    if (this.closed) throw new Error("collab server is closed")
    this.removed.delete(name)
    const connection = await this.hocuspocus.openDirectConnection(name)
    try {
      const document = connection.document!
      Y.transact(document, () => edit(document), REST)
      await this.whenDurable(name)
    } finally {
      await connection.disconnect()
    }
  }

  replace(name: string, content: ProseMirrorNode): Promise<void> {
    const doc = validateDoc(content)
    return this.edit(name, (document) => docToYFragment(doc, contentOf(document)))
  }

  append(name: string, content: ProseMirrorNode): Promise<void> {
    const blocks =
      content.type === "doc" ? (validateDoc(content).content ?? []) : (validateDoc({ type: "doc", content: [content] }).content ?? [])
    return this.edit(name, (document) => appendToYFragment(blocks, contentOf(document)))
  }

  restore(name: string, state: Uint8Array): Promise<void> {
    // The old content becomes a new change on top of the current history.
    const content = stateToDoc(state)
    let doc: ProseMirrorNode
    try {
      doc = validateDoc(content)
    } catch {
      doc = content
    }
    return this.edit(name, (document) => docToYFragment(doc, contentOf(document)))
  }

  async snapshot(name: string): Promise<DocumentSnapshot> {
    const document = this.documentOf(name)
    if (document !== undefined) return new LazySnapshot(Y.encodeStateAsUpdate(document))
    await this.log.barrier(name)
    const stored = await this.runSql(DocumentStore.loadMerged(name))
    return new LazySnapshot(stored ?? emptyState)
  }

  async remove(name: string): Promise<void> {
    this.markRemoved(name)
    const timer = this.changeTimers.get(name)
    if (timer !== undefined) clearTimeout(timer)
    this.changeTimers.delete(name)
    this.closeDocumentConnections(name)
    this.cluster.publishRemoved(name)
    await this.log.barrier(name)
    await this.runSql(DocumentStore.remove(name))
  }

  /**
   * The socket's fate when the server closed one of its document connections:
   * a removed document → 4404; a fault while handling the connection's
   * messages or loading its document → 4500 (the provider reconnects and
   * resyncs); the provider's own detach leaves the socket open.
   */
  documentClosed(reason: string): { readonly code: number; readonly reason: string } | undefined {
    if (reason === "provider_initiated") return undefined
    return reason === REMOVED_REASON ? { code: CloseCode.removed, reason } : { code: CloseCode.reset, reason: "document connection reset" }
  }

  // -------------------------------------------------------------------------
  // change listeners

  onChange(listener: Listener): void {
    this.listeners.push(listener)
  }

  private scheduleChange(name: string): void {
    if (this.listeners.length === 0 || this.changeTimers.has(name)) return
    const timer = setTimeout(() => {
      this.changeTimers.delete(name)
      void this.notify(name)
    }, this.options.changeDebounceMs)
    timer.unref()
    this.changeTimers.set(name, timer)
  }

  private async notify(name: string): Promise<void> {
    if (this.closed || this.removed.has(name)) return
    try {
      await this.log.barrier(name)
      const document = this.documentOf(name)
      const content = document !== undefined ? new LiveContent(document) : await this.snapshot(name)
      for (const listener of this.listeners) {
        await listener(name, content).catch((error) => logError("collab", `onChange listener failed for ${name}`, error))
      }
    } catch (error) {
      logError("collab", `could not snapshot ${name} for listeners`, error)
    }
  }

  // -------------------------------------------------------------------------
  // compaction

  /**
   * Compaction costs about the document's size, so it is amortized: due once
   * the log holds `compactRows` rows and at least half the state's size in
   * bytes (or twenty times `compactRows` rows, or `compactBytes`, whatever
   * the state): cold opens replay a bounded tail, and a big document being
   * typed into is not re-encoded every few hundred keystrokes.
   */
  private dueForCompaction(tracked: Tracked): boolean {
    return (
      (tracked.rowsSinceCompaction >= this.options.compactRows && tracked.bytesSinceCompaction * 2 >= tracked.stateBytes) ||
      this.overdueForCompaction(tracked)
    )
  }

  /** Past these, a compaction no longer waits for a pause: cold opens would replay too long a tail. */
  private overdueForCompaction(tracked: Tracked): boolean {
    return tracked.rowsSinceCompaction >= this.options.compactRows * 20 || tracked.bytesSinceCompaction >= this.options.compactBytes
  }

  private scheduleCompaction(name: string): void {
    if (this.compactionQueued.has(name) || this.closed) return
    this.compactionQueued.add(name)
    this.compactions.push(name)
    if (!this.compacting) void this.compactQueued()
  }

  private async compactQueued(): Promise<void> {
    this.compacting = true
    try {
      while (this.compactions.length > 0 && !this.closed) {
        const name = this.compactions.shift()!
        this.compactionQueued.delete(name)
        if (this.removed.has(name)) continue
        await this.compact(name).catch((error) => logError("collab", `compacting ${name} failed`, error))
      }
    } finally {
      this.compacting = false
    }
  }

  /** Folds the log of `name` into its stored state now. */
  async compact(name: string): Promise<DocumentStore.Compaction> {
    const document = this.documentOf(name)
    const live = document !== undefined ? Y.encodeStateAsUpdate(document) : undefined
    const result = await this.runSql(DocumentStore.compact(name, live, (parts) => Effect.promise(() => this.merger.merge(parts))))
    const tracked = this.tracked.get(name)
    if (tracked !== undefined) tracked.stateBytes = result.bytes
    return result
  }

  private async sweep(): Promise<void> {
    if (this.closed) return
    try {
      const names = await this.runSql(DocumentStore.crowded(this.options.compactRows, 20))
      for (const name of names) this.scheduleCompaction(name)
    } catch (error) {
      logError("collab", "compaction sweep failed", error)
    }
  }

  // -------------------------------------------------------------------------

  /** Drops every connection, writes what is queued, stops the timers. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer)
    if (this.presenceTimer !== undefined) clearTimeout(this.presenceTimer)
    for (const timer of this.changeTimers.values()) clearTimeout(timer)
    this.changeTimers.clear()
    for (const tracked of this.tracked.values()) if (tracked.quietTimer !== undefined) clearTimeout(tracked.quietTimer)
    for (const tracked of this.tracked.values()) tracked.readers?.closeAll(SERVER_CLOSED_REASON)
    this.hocuspocus.closeConnections()
    await this.log.close()
    await this.merger.close()
    await this.cluster.close()
  }
}

export { REMOVED_REASON }
