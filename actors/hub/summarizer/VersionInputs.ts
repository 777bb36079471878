/**
 * What one participant's version of a call is generated from, exactly as the
 * seed lists it: the workspace custom prompt (prepended), their own per-call
 * prompt or their own series + occurrence prompts, their own notes and their
 * own note template. Identical inputs → the same key → one shared version.
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"

export const TemplateSection = Schema.Struct({
  title: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  instruction: Schema.String.check(Schema.isMaxLength(2000))
}).annotate({ identifier: "NoteTemplateSection" })

export const NoteTemplate = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  sections: Schema.Array(TemplateSection).check(Schema.isMinLength(1), Schema.isMaxLength(30))
}).annotate({ identifier: "NoteTemplate" })
export type NoteTemplate = typeof NoteTemplate.Type

export const VersionInputs = Schema.Struct({
  workspacePrompt: Schema.NullOr(Schema.String),
  /** The per-call prompt, else the combined series/occurrence prompt, else null. */
  personalPrompt: Schema.NullOr(Schema.String),
  notes: Schema.NullOr(Schema.String),
  template: Schema.NullOr(NoteTemplate)
})
export type VersionInputs = typeof VersionInputs.Type

/** `series custom prompt: <S>` then `occurrence custom prompt: <O>` when both are set; one alone as it stands. */
export const combineCalendarPrompts = (series: string | null, occurrence: string | null): string | null =>
  series && occurrence ? `series custom prompt: ${series}\noccurrence custom prompt: ${occurrence}` : series || occurrence || null

/** A participant's personal inputs: their per-call prompt wins over their calendar prompt. */
export const inputsOf = (
  workspacePrompt: string | null,
  personal: { readonly callPrompt: string | null; readonly calendarPrompt: string | null; readonly notes: string | null },
  template: NoteTemplate | null
): VersionInputs => ({
  workspacePrompt: workspacePrompt || null,
  personalPrompt: personal.callPrompt || personal.calendarPrompt || null,
  notes: personal.notes || null,
  template
})

/** No call/series/occurrence prompt, no notes, no template: the default version (the workspace prompt alone). */
export const isDefaultInputs = (inputs: VersionInputs): boolean =>
  inputs.personalPrompt === null && inputs.notes === null && inputs.template === null

/** The stored version's key: a hash of exactly the inputs. */
export const inputKey = (inputs: VersionInputs): string =>
  createHash("sha256")
    .update(JSON.stringify([inputs.workspacePrompt, inputs.personalPrompt, inputs.notes, inputs.template]))
    .digest("hex")
    .slice(0, 32)

/** The full prompt text handed to a model: the workspace prompt first, then the personal one. */
export const promptText = (inputs: VersionInputs): string =>
  [inputs.workspacePrompt, inputs.personalPrompt].filter((p) => p !== null).join("\n\n")
