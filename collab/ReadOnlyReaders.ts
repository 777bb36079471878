/**
 * Read-only readers of one live document, served without Hocuspocus's
 * per-connection machinery.
 *
 * A socket Hocuspocus serves costs a ClientConnection and a Connection: a
 * ping timer, two dozen closures and hook payloads per socket (about 4 KB of
 * heap), which is most of what an idle reader costs. A reader needs little
 * of it: its first sync, the awareness of everyone present, the document's
 * broadcasts (the topic its socket joins, shared with Hocuspocus's
 * connections), and answers to the few messages it may send (the document's
 * DocumentMessages, as for Hocuspocus's read-only connections). So each is a
 * small object here, and the document stays loaded through one
 * DirectConnection held while it has readers (Hocuspocus unloads a
 * document once its connections, direct ones included, are gone). The
 * awareness clients a reader announces are its own: they go when it leaves.
 */
import { type Document, OutgoingMessage } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import { applyAwarenessUpdate, removeAwarenessStates } from "y-protocols/awareness"
import type { Editor } from "../actors/LiveDocuments.ts"
import { logError } from "../runtime/Log.ts"
import type { DocumentMessages, PeerKind } from "./DocumentMessages.ts"
import { BACKLOG_SAMPLE } from "./DocumentFanOut.ts"
import type { JoinFrames } from "./JoinFrames.ts"
import { RotatingSample } from "./RotatingSample.ts"

/** The close code of a connection reset (SocketAdapter's CloseCode.reset: the provider reconnects and resyncs). */
const CLOSE_RESET = 4500

/** What a reader needs of its socket (SocketAdapter is one). */
export interface ReaderSocket {
  readonly closed: boolean
  /** Sends one frame (acknowledgements wait for durability: see SocketAdapter). */
  send(frame: Uint8Array): void
  subscribe(topic: string): boolean
  unsubscribe(topic: string): void
  bufferedBytes(): number
  close(code: number, reason: string): void
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

/** A reader as DocumentMessages' peer. */
const readerKind: PeerKind<ReadOnlyReader> = {
  readOnly: () => true,
  send: (reader, frame) => reader.socket.send(frame),
  origin: () => null,
  awareness: (reader, update) => reader.document.applyAwareness(reader, update),
  close: (reader) => {
    reader.socket.send(new OutgoingMessage(reader.document.name).writeCloseMessage("provider_initiated").toUint8Array())
    reader.leave()
  },
  fault: (reader, error) => {
    logError("collab", `closing a reader of ${reader.document.name}: handling its message failed`, error)
    reader.leave()
    reader.socket.close(CLOSE_RESET, "document connection reset")
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
  private readonly backlog = new RotatingSample(() => this.members, BACKLOG_SAMPLE)
  /** Set once the last reader left: a join must open the document again. */
  released = false

  constructor(
    readonly name: string,
    private readonly document: Document,
    private readonly frames: JoinFrames,
    private readonly messages: DocumentMessages,
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
    return this.backlog.max((reader) => reader.socket.bufferedBytes())
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
    if (this.members.has(reader)) this.messages.handle(readerKind, reader, frame)
  }

  /** Applies an awareness update of `reader`'s; the clients it announces are its own from now on (a null state gives one up). */
  applyAwareness(reader: ReadOnlyReader, update: Uint8Array): void {
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
