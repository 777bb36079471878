/**
 * What a connection joining a loaded document is sent, encoded once per
 * change of the document rather than once per joiner, so a crowd joining a
 * hot page (a reconnect storm after a deploy) costs one encode, not one per
 * socket:
 *
 * - the initial sync for a joiner with an empty state vector (a fresh
 *   provider): the server's SyncStep1 and the whole state as SyncStep2,
 *   dropped on the document's next update (or when what Yjs holds back
 *   changes: an encoded state includes it), so it is never stale;
 * - the awareness of everyone present, as one update: each client's entry is
 *   encoded when its state changes, and the joiner's frame is their
 *   concatenation, rebuilt only after a change.
 *
 * Frames are addressed to the document's name: session-multiplexed
 * connections (another address) take Hocuspocus's own path.
 */
import * as encoding from "lib0/encoding"
import type { Awareness } from "y-protocols/awareness"
import * as Y from "yjs"
import { MessageType } from "./Protocol.ts"
import { pendingOf } from "./YjsInternals.ts"

const SyncStep1 = 0
const SyncStep2 = 1

interface SyncFrames {
  readonly step1: Uint8Array
  readonly step2: Uint8Array
  /** What Yjs held back when the frames were encoded (an encoded state includes it). */
  readonly pendingStructs: Uint8Array | undefined
  readonly pendingDs: Uint8Array | undefined
}

interface AwarenessChange {
  readonly added: ReadonlyArray<number>
  readonly updated: ReadonlyArray<number>
  readonly removed: ReadonlyArray<number>
}

const syncFrame = (address: string, step: number, payload: Uint8Array): Uint8Array => {
  const encoder = encoding.createEncoder()
  encoding.writeVarString(encoder, address)
  encoding.writeVarUint(encoder, MessageType.Sync)
  encoding.writeVarUint(encoder, step)
  encoding.writeVarUint8Array(encoder, payload)
  return encoding.toUint8Array(encoder)
}

/**
 * Whether `frame` is a SyncStep1 to `address` with an empty state vector:
 * `address`, Sync, SyncStep1, then the one-byte vector `[0]` (length 1).
 */
export const isEmptySyncStep1 = (frame: Uint8Array, address: string): boolean => {
  // A document name is short; anything else takes the general path.
  const length = address.length
  if (length > 127 || frame.length !== length + 5 || frame[0] !== length) return false
  for (let i = 0; i < length; i++) if (frame[i + 1] !== address.charCodeAt(i)) return false
  const body = length + 1
  return frame[body] === MessageType.Sync && frame[body + 1] === SyncStep1 && frame[body + 2] === 1 && frame[body + 3] === 0
}

export class JoinFrames {
  private sync: SyncFrames | undefined
  /** Each present client's awareness entry (client id, clock, state as JSON). */
  private readonly entries = new Map<number, Uint8Array>()
  private awarenessFrame: Uint8Array | undefined

  /** `loaded`: the whole document as one update, when the caller has it (a cold open read it from storage). */
  constructor(
    private readonly document: Y.Doc,
    private readonly address: string,
    private readonly awareness: Awareness,
    loaded?: Uint8Array
  ) {
    if (loaded !== undefined) this.sync = this.frames(loaded)
    document.on("update", () => {
      this.sync = undefined
    })
    this.entriesChanged({ added: [...awareness.getStates().keys()], updated: [], removed: [] })
    awareness.on("update", (change: AwarenessChange) => this.entriesChanged(change))
  }

  /** The server's SyncStep1 and the whole document as SyncStep2, for a joiner that has nothing. */
  initialSync(): readonly [Uint8Array, Uint8Array] {
    const pending = pendingOf(this.document)
    let sync = this.sync
    if (sync === undefined || sync.pendingStructs !== pending.structs || sync.pendingDs !== pending.deletes) {
      sync = this.frames(Y.encodeStateAsUpdate(this.document))
      this.sync = sync
    }
    return [sync.step1, sync.step2]
  }

  private frames(state: Uint8Array): SyncFrames {
    const pending = pendingOf(this.document)
    return {
      step1: syncFrame(this.address, SyncStep1, Y.encodeStateVector(this.document)),
      step2: syncFrame(this.address, SyncStep2, state),
      pendingStructs: pending.structs,
      pendingDs: pending.deletes
    }
  }

  /** Everyone's awareness as one update, or undefined when nobody has any. */
  currentAwareness(): Uint8Array | undefined {
    if (this.entries.size === 0) return undefined
    if (this.awarenessFrame === undefined) {
      const update = encoding.createEncoder()
      encoding.writeVarUint(update, this.entries.size)
      for (const entry of this.entries.values()) encoding.writeUint8Array(update, entry)
      const frame = encoding.createEncoder()
      encoding.writeVarString(frame, this.address)
      encoding.writeVarUint(frame, MessageType.Awareness)
      encoding.writeVarUint8Array(frame, encoding.toUint8Array(update))
      this.awarenessFrame = encoding.toUint8Array(frame)
    }
    return this.awarenessFrame
  }

  private entriesChanged({ added, updated, removed }: AwarenessChange): void {
    const states = this.awareness.getStates()
    for (const clientId of [...added, ...updated, ...removed]) {
      const state = states.get(clientId)
      const meta = this.awareness.meta.get(clientId)
      if (state === undefined || meta === undefined) {
        this.entries.delete(clientId)
        continue
      }
      // The layout of y-protocols' encodeAwarenessUpdate, one client.
      const entry = encoding.createEncoder()
      encoding.writeVarUint(entry, clientId)
      encoding.writeVarUint(entry, meta.clock)
      encoding.writeVarString(entry, JSON.stringify(state))
      this.entries.set(clientId, encoding.toUint8Array(entry))
    }
    this.awarenessFrame = undefined
  }
}
