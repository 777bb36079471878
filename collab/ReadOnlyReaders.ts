/**
 * Read-only readers of one live document, served without Hocuspocus's
 * per-connection machinery.
 *
 * A socket Hocuspocus serves costs a ClientConnection and a Connection: a
 * ping timer, two dozen closures and hook payloads per socket (about 4 KB of
 * heap), which is most of what an idle reader costs. A reader needs little
 * of it: its first sync, the awareness of everyone present, the document's
 * broadcasts (the topic its socket joins, shared with Hocuspocus's
 * connections), and answers to the few messages it may send. So each is a
 * small object here, and the document stays loaded through one
 * DirectConnection held while it has readers (Hocuspocus unloads a
 * document once its connections, direct ones included, are gone).
 *
 * What a reader sends is answered as Hocuspocus answers a read-only
 * connection: a SyncStep1 with the server's SyncStep1 and the missing part
 * as SyncStep2 (a fresh provider's from the document's JoinFrames), an
 * update or a SyncStep2 that would change the document with "not applied"
 * (SyncStatus 0, the document untouched), one that changes nothing with
 * "applied", an awareness update applied (its clients are removed when the
 * reader leaves), a query with everyone's awareness, a CLOSE by leaving the
 * document (the socket stays), a token refresh and a stateless message by
 * nothing (no hook of Atrium's listens).
 */
import { type Document, OutgoingMessage } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import { applyAwarenessUpdate, removeAwarenessStates } from "y-protocols/awareness"
import { writeSyncStep2 } from "y-protocols/sync"
import * as Y from "yjs"
import type { Editor } from "../actors/LiveDocuments.ts"
import { isEmptySyncStep1, type JoinFrames } from "./JoinFrames.ts"
import { MessageType } from "./Protocol.ts"

const SyncStep1 = 0
const SyncStep2 = 1

/** What a reader needs of its socket (SocketAdapter is one). */
export interface ReaderSocket {
  readonly closed: boolean
  /** Sends one frame (acknowledgements wait for durability: see SocketAdapter). */
  send(frame: Uint8Array): void
  subscribe(topic: string): boolean
  unsubscribe(topic: string): void
  bufferedBytes(): number
}

/** One socket reading one document. */
export class ReadOnlyReader {
  /** The awareness clients this reader announced (their states go when it leaves). */
  clients: Array<number> | undefined
  constructor(
    readonly socket: ReaderSocket,
    readonly editor: Editor,
    readonly document: DocumentReaders
  ) {}

  /** Answers one checked frame the reader sent for the document. */
  handle(frame: Uint8Array): void {
    this.document.handle(this, frame)
  }

  /** The reader is gone (its socket closed, or it closed the document): idempotent. */
  leave(): void {
    this.document.leave(this)
  }
}

export interface DocumentReadersHost {
  /** Presence changed (a reader came or went). */
  readonly presenceChanged: () => void
  /** The last reader left: let the document go (unless others hold it). */
  readonly release: () => void
}

export class DocumentReaders {
  private readonly members = new Set<ReadOnlyReader>()
  /** Set once the last reader left: a join must open the document again. */
  released = false

  constructor(
    readonly name: string,
    private readonly document: Document,
    private readonly frames: JoinFrames,
    private readonly topic: string,
    private readonly host: DocumentReadersHost
  ) {}

  get size(): number {
    return this.members.size
  }

  editors(): Array<Editor> {
    return [...this.members].map((reader) => reader.editor)
  }

  /** Bytes the fullest reader's socket holds that the kernel has not taken yet. */
  mostBuffered(): number {
    let most = 0
    for (const reader of this.members) most = Math.max(most, reader.socket.bufferedBytes())
    return most
  }

  /**
   * Admits a reader: it is told it is authenticated read-only, joins the
   * document's topic and gets everyone's awareness, as Hocuspocus's
   * read-only connection would. Undefined when its socket closed meanwhile.
   */
  join(socket: ReaderSocket, editor: Editor): ReadOnlyReader | undefined {
    if (socket.closed || !socket.subscribe(this.topic)) {
      if (this.members.size === 0) this.releaseNow()
      return undefined
    }
    const reader = new ReadOnlyReader(socket, editor, this)
    this.members.add(reader)
    socket.send(new OutgoingMessage(this.name).writeAuthenticated(true).toUint8Array())
    const awareness = this.frames.currentAwareness()
    if (awareness !== undefined) socket.send(awareness)
    this.host.presenceChanged()
    return reader
  }

  handle(reader: ReadOnlyReader, frame: Uint8Array): void {
    if (!this.members.has(reader)) return
    const decoder = decoding.createDecoder(frame)
    decoding.readVarString(decoder)
    const type = decoding.readVarUint(decoder)
    switch (type) {
      case MessageType.Sync:
      case MessageType.SyncReply:
        this.sync(reader, frame, type, decoder)
        return
      case MessageType.Awareness:
        this.awareness(reader, decoding.readVarUint8Array(decoder))
        return
      case MessageType.QueryAwareness:
        reader.socket.send(new OutgoingMessage(this.name).createAwarenessUpdateMessage(this.document.awareness).toUint8Array())
        return
      case MessageType.Close:
        reader.socket.send(new OutgoingMessage(this.name).writeCloseMessage("provider_initiated").toUint8Array())
        this.leave(reader)
        return
      default:
      // A token refresh or a stateless message: nothing of Atrium listens to them.
    }
  }

  private sync(reader: ReadOnlyReader, frame: Uint8Array, type: number, decoder: decoding.Decoder): void {
    const step = decoding.readVarUint(decoder)
    const socket = reader.socket
    if (step === SyncStep1) {
      if (type === MessageType.Sync && isEmptySyncStep1(frame, this.name)) {
        const [step1, step2] = this.frames.initialSync()
        socket.send(step1)
        socket.send(step2)
        return
      }
      const vector = decoding.readVarUint8Array(decoder)
      socket.send(new OutgoingMessage(this.name).createSyncMessage().writeFirstSyncStepFor(this.document).toUint8Array())
      const reply = new OutgoingMessage(this.name).createSyncMessage()
      writeSyncStep2(reply.encoder, this.document, vector)
      socket.send(reply.toUint8Array())
      return
    }
    // An update (or the reader's SyncStep2) changing nothing is "applied"; anything else is refused.
    const unchanged = step === SyncStep2 && Y.snapshotContainsUpdate(Y.snapshot(this.document), decoding.readVarUint8Array(decoder))
    socket.send(new OutgoingMessage(this.name).writeSyncStatus(unchanged).toUint8Array())
  }

  private awareness(reader: ReadOnlyReader, update: Uint8Array): void {
    // The clients it announces are its own from now on; a null state gives one up.
    const decoder = decoding.createDecoder(update)
    const count = decoding.readVarUint(decoder)
    for (let i = 0; i < count; i++) {
      const client = decoding.readVarUint(decoder)
      decoding.readVarUint(decoder)
      const removed = decoding.readVarString(decoder) === "null"
      const clients = reader.clients
      if (removed) reader.clients = clients?.filter((known) => known !== client)
      else if (clients === undefined) reader.clients = [client]
      else if (!clients.includes(client)) clients.push(client)
    }
    // Origin null: a change made on this node (not a peer's), which the document's route also sends to peers.
    applyAwarenessUpdate(this.document.awareness, update, null)
  }

  leave(reader: ReadOnlyReader): void {
    if (!this.members.delete(reader)) return
    const clients = reader.clients
    reader.clients = undefined
    if (clients !== undefined && clients.length > 0 && !this.document.isDestroyed) {
      removeAwarenessStates(this.document.awareness, clients, null)
    }
    reader.socket.unsubscribe(this.topic)
    this.host.presenceChanged()
    if (this.members.size === 0) this.releaseNow()
  }

  /** Tells every reader the document is closed (`reason`: see SocketAdapter's onDocumentClosed), and lets them go. */
  closeAll(reason: string): void {
    const frame = new OutgoingMessage(this.name).writeCloseMessage(reason).toUint8Array()
    for (const reader of [...this.members]) {
      reader.socket.send(frame)
      this.leave(reader)
    }
  }

  private releaseNow(): void {
    if (this.released) return
    this.released = true
    this.host.release()
  }
}
