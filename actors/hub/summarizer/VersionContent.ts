/** What a generated version holds: the summary, key points, action items and enhanced notes. */
import { createHash } from "node:crypto"
import { Schema } from "effect"

export const ActionItem = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  owner: Schema.optionalKey(Schema.String),
  dueDate: Schema.optionalKey(Schema.String.annotate({ description: "YYYY-MM-DD, resolved from what was said" }))
}).annotate({ identifier: "ActionItem" })
export type ActionItem = typeof ActionItem.Type

export const VersionContent = Schema.Struct({
  summary: Schema.String,
  keyPoints: Schema.Array(Schema.String),
  actionItems: Schema.Array(ActionItem),
  enhancedNotes: Schema.String
})
export type VersionContent = typeof VersionContent.Type

/** Action items keep their id across versions and regenerations when their text is the same. */
export const actionItemId = (text: string): string =>
  `ai_${createHash("sha256").update(text.trim().toLowerCase()).digest("hex").slice(0, 16)}`
