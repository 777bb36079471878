/**
 * How the collab servers of a cluster reach each other: document updates
 * (only once durable), awareness, presence (who edits what) and removals.
 * Without NATS there is one node and nothing to reach.
 */
import type { Document } from "@hocuspocus/server"
import type { Editor } from "../actors/LiveDocuments.ts"

export interface ClusterNode {
  /** This node's id (distinct per process). */
  readonly nodeId: string
  /** Starts following `name` (its document just loaded here); peers send what it may lack. */
  readonly join: (name: string, document: Document) => void
  /** Stops following `name` (unloaded here). */
  readonly leave: (name: string) => void
  /** A durable update of `name` made here. */
  readonly publishUpdate: (name: string, update: Uint8Array) => void
  /** An awareness update of `name` made by a connection here. */
  readonly publishAwareness: (name: string, update: Uint8Array) => void
  /** Who edits `name` on this node now. */
  readonly publishPresence: (name: string, editors: ReadonlyArray<Editor>) => void
  /** `name` was removed: peers drop it. */
  readonly publishRemoved: (name: string) => void
  /** Editors of `name` on other nodes. */
  readonly remoteEditors: (name: string) => ReadonlyArray<Editor>
  readonly close: () => Promise<void>
}

/** What a cluster node asks of the local server. */
export interface ClusterHost {
  /** Applies a peer's durable update (not logged again, not re-published). */
  readonly applyPeerUpdate: (name: string, update: Uint8Array) => void
  /** Applies a peer's repair diff (logged here: it may not be durable yet). */
  readonly applyRepair: (name: string, update: Uint8Array) => void
  readonly applyPeerAwareness: (name: string, update: Uint8Array) => void
  /** A peer removed `name`. */
  readonly removedByPeer: (name: string) => void
  /** The loaded document `name`, if any. */
  readonly documentOf: (name: string) => Document | undefined
  /** Editors here of every loaded document (for the presence heartbeat). */
  readonly localPresence: () => ReadonlyArray<readonly [string, ReadonlyArray<Editor>]>
}

/** The single-process "cluster". */
export const soloNode = (nodeId: string): ClusterNode => ({
  nodeId,
  join: () => {},
  leave: () => {},
  publishUpdate: () => {},
  publishAwareness: () => {},
  publishPresence: () => {},
  publishRemoved: () => {},
  remoteEditors: () => [],
  close: async () => {}
})
