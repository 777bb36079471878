/**
 * A passage: the unit Lens retrieves, grades, quotes and cites. Every
 * passage reaching the engine was filtered with the caller's permissions, so
 * anything downstream (ranking, answers, citations, traces) only ever sees
 * what they may see.
 */
import { Schema } from "effect"

/** `request`: a feedback board's feature request (cited by answers about customer asks; not in the index). */
export const SourceType = Schema.Literals(["transcript", "call", "task", "page", "integration", "request"])
export type SourceType = typeof SourceType.Type

/** Where in its source a passage lies: a transcript's time span, a page's character range. */
export const Span = Schema.Struct({
  startMs: Schema.optionalKey(Schema.Number),
  endMs: Schema.optionalKey(Schema.Number),
  start: Schema.optionalKey(Schema.Number.annotate({ description: "First character (page text)" })),
  end: Schema.optionalKey(Schema.Number.annotate({ description: "Character after the last (page text)" }))
}).annotate({ identifier: "LensSpan" })
export type Span = typeof Span.Type

export const Passage = Schema.Struct({
  /** Unique within one retrieval: source id plus the part of it. */
  key: Schema.String,
  sourceType: SourceType,
  sourceId: Schema.String,
  title: Schema.String,
  text: Schema.String,
  span: Schema.optionalKey(Span),
  /** Who said it (transcripts) or who owns it (tasks), for answers about people. */
  speaker: Schema.optionalKey(Schema.String),
  /** For the agent loop: a call's action item that may become a task. */
  actionItem: Schema.optionalKey(Schema.Struct({ text: Schema.String, owner: Schema.optionalKey(Schema.String) })),
  at: Schema.optionalKey(Schema.String),
  /**
   * The start of what follows the passage in its source (a transcript's next turns), not indexed: an answer
   * to a question asked at the end of a passage is often said right after it.
   */
  following: Schema.optionalKey(Schema.String),
  /** The end of what precedes it (the turns or paragraph before), not indexed, for the same reason. */
  preceding: Schema.optionalKey(Schema.String)
})
export type Passage = typeof Passage.Type

/**
 * Who may read an indexed passage, decided per asker before ranking: every
 * member (transcripts, ingested chat), those who may see a pm space (tasks),
 * those who may see a wiki page (its restrictions and its ancestors'), or one
 * user (their own version of a call).
 */
export type Audience =
  | { readonly _tag: "workspace" }
  | { readonly _tag: "space"; readonly spaceId: string }
  | { readonly _tag: "page"; readonly pageId: string }
  | { readonly _tag: "user"; readonly userId: string }

export interface IndexedPassage {
  readonly passage: Passage
  readonly audience: Audience
}
