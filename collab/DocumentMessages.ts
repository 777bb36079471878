/**
 * How a live document answers what its connections send: Hocuspocus's
 * MessageReceiver as Atrium uses it, run as each frame arrives, for
 * Hocuspocus's connections and ReadOnlyReaders alike.
 *
 * Hocuspocus hands every message through its `beforeHandleMessage` hook
 * chain (a payload built per message, its request's query parsed again, a
 * few promise turns) before applying it, and its `beforeSync`, `onStateless`
 * and `onTokenSync` hooks after; no extension of Atrium's has any of them,
 * so here a keystroke is applied, and published, in the turn it arrived in.
 * Every message of a connection goes through here, in order.
 *
 * - Sync step 1: the server's SyncStep1, then what the sender lacks as
 *   SyncStep2 (a fresh provider's two frames come from the document's
 *   JoinFrames, encoded once per change).
 * - Sync step 2 and updates: applied with the connection as origin, then
 *   "applied" (SyncStatus 1; SocketAdapter holds it until it is durable);
 *   from a read-only peer, "not applied" unless it changes nothing, and the
 *   document is untouched.
 * - Awareness: the peer applies it (and records the clients it owns);
 *   a query: everyone's awareness.
 * - CLOSE: the peer leaves the document (the socket stays).
 * - Stateless messages and token refreshes: nothing listens to them.
 */
import type { Document } from "@hocuspocus/server"
import { OutgoingMessage } from "@hocuspocus/server"
import * as decoding from "lib0/decoding"
import { readSyncStep2, writeSyncStep2 } from "y-protocols/sync"
import * as Y from "yjs"
import { isEmptySyncStep1, type JoinFrames } from "./JoinFrames.ts"
import { MessageType } from "./Protocol.ts"

const SyncStep1 = 0
const SyncStep2 = 1

/** What a kind of peer (a Hocuspocus connection, a reader) does for the messages it sends; one object per kind. */
export interface PeerKind<P> {
  readonly readOnly: (peer: P) => boolean
  readonly send: (peer: P, frame: Uint8Array) => void
  /** The origin of the peer's changes to the document. */
  readonly origin: (peer: P) => unknown
  /** Applies an awareness update the peer sent (and records the clients it owns). */
  readonly awareness: (peer: P, update: Uint8Array) => void
  /** The provider closed the document on this socket (the socket stays). */
  readonly close: (peer: P) => void
  /** Handling a message of the peer failed: drop its connection (its provider reconnects and resyncs). */
  readonly fault: (peer: P, error: unknown) => void
}

export class DocumentMessages {
  constructor(
    private readonly name: string,
    private readonly document: Document,
    private readonly frames: JoinFrames
  ) {}

  /** Answers one checked frame `peer` sent. */
  handle<P>(kind: PeerKind<P>, peer: P, frame: Uint8Array): void {
    try {
      const decoder = decoding.createDecoder(frame)
      if (decoding.readVarString(decoder) !== this.name) return
      const type = decoding.readVarUint(decoder)
      switch (type) {
        case MessageType.Sync:
        case MessageType.SyncReply:
          this.sync(kind, peer, frame, type, decoder)
          return
        case MessageType.Awareness:
          kind.awareness(peer, decoding.readVarUint8Array(decoder))
          return
        case MessageType.QueryAwareness:
          kind.send(peer, new OutgoingMessage(this.name).createAwarenessUpdateMessage(this.document.awareness).toUint8Array())
          return
        case MessageType.Close:
          kind.close(peer)
          return
        default:
        // A token refresh or a stateless message: no hook of Atrium's listens to them.
      }
    } catch (error) {
      kind.fault(peer, error)
    }
  }

  private sync<P>(kind: PeerKind<P>, peer: P, frame: Uint8Array, type: number, decoder: decoding.Decoder): void {
    const step = decoding.readVarUint(decoder)
    if (step === SyncStep1) {
      if (type === MessageType.Sync && isEmptySyncStep1(frame, this.name)) {
        const [step1, step2] = this.frames.initialSync()
        kind.send(peer, step1)
        kind.send(peer, step2)
        return
      }
      const vector = decoding.readVarUint8Array(decoder)
      kind.send(peer, new OutgoingMessage(this.name).createSyncMessage().writeFirstSyncStepFor(this.document).toUint8Array())
      const reply = new OutgoingMessage(this.name).createSyncMessage()
      writeSyncStep2(reply.encoder, this.document, vector)
      kind.send(peer, reply.toUint8Array())
      return
    }
    if (kind.readOnly(peer)) {
      // An update (or the peer's SyncStep2) changing nothing is "applied"; anything else is refused.
      const unchanged = step === SyncStep2 && Y.snapshotContainsUpdate(Y.snapshot(this.document), decoding.readVarUint8Array(decoder))
      kind.send(peer, new OutgoingMessage(this.name).writeSyncStatus(unchanged).toUint8Array())
      return
    }
    readSyncStep2(decoder, this.document, kind.origin(peer))
    kind.send(peer, new OutgoingMessage(this.name).writeSyncStatus(true).toUint8Array())
  }
}
