/**
 * A passage: the unit Lens retrieves, grades, quotes and cites. Every
 * passage was read with the caller's permissions, so anything downstream
 * (ranking, answers, citations, traces) only ever sees what they may see.
 */
import { Schema } from "effect"

export const SourceType = Schema.Literals(["transcript", "call", "task", "page", "integration"])
export type SourceType = typeof SourceType.Type

/** Where in its source a passage lies: a transcript's time span, a page's character range. */
export const Span = Schema.Struct({
  startMs: Schema.optionalKey(Schema.Number),
  endMs: Schema.optionalKey(Schema.Number),
  start: Schema.optionalKey(Schema.Number.annotate({ description: "First character (page text)" })),
  end: Schema.optionalKey(Schema.Number.annotate({ description: "Character after the last (page text)" }))
}).annotate({ identifier: "LensSpan" })
export type Span = typeof Span.Type

export interface Passage {
  /** Unique within one retrieval: source id plus the part of it. */
  readonly key: string
  readonly sourceType: SourceType
  readonly sourceId: string
  readonly title: string
  readonly text: string
  readonly span?: Span
  /** Who said it (transcripts) or who owns it (tasks), for answers about people. */
  readonly speaker?: string
  /** For the agent loop: a call's action item that may become a task. */
  readonly actionItem?: { readonly text: string; readonly owner?: string }
  readonly at?: string
}
