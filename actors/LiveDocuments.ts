/**
 * LiveDocuments: the one way the rest of Atrium touches a collaborative
 * document (a wiki page, a feedback milestone article). REST edits go through
 * it and reach connected editors at once; reads see what editors typed.
 *
 * The contract lives here, below the services that use it; collab/ implements
 * it (collab/LiveDocumentsLive.ts). Documents are named by their owner's id
 * (a wiki page id); content is ProseMirror JSON in the rich-text schema of
 * `richtext/RichText.ts`.
 */
import { Context, type Effect } from "effect"
import type { ProseMirrorNode } from "../richtext/Schema.ts"

export type { ProseMirrorNode }

export interface DocumentSnapshot {
  /** ProseMirror JSON of the document (`{type: "doc", content: [...]}`). */
  readonly content: ProseMirrorNode
  readonly text: string
  readonly markdown: string
  readonly html: string
  /** The whole Yjs state as one update (for versions). */
  readonly state: Uint8Array
}

/** A document's content in its derived forms, without its Yjs state (what change listeners get). */
export type DocumentContent = Omit<DocumentSnapshot, "state">

export interface Editor {
  readonly userId: string
  readonly name: string
  readonly since: string
}

export interface LiveDocumentsShape {
  /** The document as it is now (from the live copy, or storage when nobody edits it). */
  readonly snapshot: (name: string) => Effect.Effect<DocumentSnapshot>
  /** Replaces the whole content in one Yjs transaction; durable before it returns; editors see it at once. */
  readonly replace: (name: string, content: ProseMirrorNode) => Effect.Effect<void>
  /** Appends blocks at the end of the document; durable before it returns. */
  readonly append: (name: string, content: ProseMirrorNode) => Effect.Effect<void>
  /** Restores a state taken from `snapshot().state` as a new change (history is kept, editors converge). */
  readonly restore: (name: string, state: Uint8Array) => Effect.Effect<void>
  /** Deletes the document and its stored updates (page deleted for good). */
  readonly remove: (name: string) => Effect.Effect<void>
  /** Who has the document open right now (across the cluster). */
  readonly editors: (name: string) => Effect.Effect<ReadonlyArray<Editor>>
  /**
   * Registers a listener called (debounced, at most about once a second per
   * document) after a document changed, with its new content (read from the
   * live copy, no encoding of its whole state): search indexing hangs here.
   */
  readonly onChange: (listener: (name: string, content: DocumentContent) => Effect.Effect<void>) => Effect.Effect<void>
}

export class LiveDocuments extends Context.Service<LiveDocuments, LiveDocumentsShape>()("atrium/LiveDocuments") {}
