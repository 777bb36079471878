/**
 * The members of prosemirror-markdown's serializer state that Atrium's
 * Markdown writer relies on but the library's typings keep private: the
 * output so far (`out`), whether the writer stands at a block's start
 * (`atBlockStart`), whether it is inside an autolink (`inAutolink`), the
 * block just closed (`closed`) and `flushClose`, plus the public `options`
 * whose `tightLists` is switched per list. Every access goes through this
 * module, which probes them when it loads: if an upgrade renames or
 * reshapes one, the server refuses to start (and
 * `test/collab/markdownInternals.test.ts` fails) instead of writing wrong
 * Markdown.
 */
import type { Node as PmNode } from "@tiptap/pm/model"
import { MarkdownSerializer, type MarkdownSerializerState } from "prosemirror-markdown"
import { richTextSchema } from "./Extensions.ts"

/** What the writer reads and calls beyond the public API. */
interface Internals {
  readonly out: string
  readonly atBlockStart: boolean
  readonly inAutolink: boolean | undefined
  readonly closed: PmNode | null | false
  readonly options: { tightLists?: boolean }
  flushClose(size: number): void
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** Narrows a serializer state to its private members, checking their shapes (cheap: a few `typeof`s; `closed` may hold a block). */
const hasInternals = <S extends object>(state: S): state is S & Internals =>
  isRecord(state) &&
  typeof state.out === "string" &&
  typeof state.atBlockStart === "boolean" &&
  "inAutolink" in state &&
  (state.inAutolink === undefined || typeof state.inAutolink === "boolean") &&
  "closed" in state &&
  (state.closed === null || state.closed === false || typeof state.closed === "object") &&
  isRecord(state.options) &&
  typeof state.flushClose === "function"

/** The public methods the probe below drives. */
interface Probeable {
  write(content: string): void
  closeBlock(node: PmNode): void
}

const isProbeable = <S extends Record<string, unknown>>(state: S): state is S & Probeable =>
  typeof state.write === "function" && typeof state.closeBlock === "function"

/** What is wrong with `state` as prosemirror-markdown's serializer state (nothing: an empty list). */
export const internalsProblems = (state: unknown): ReadonlyArray<string> => {
  if (!isRecord(state)) return ["the serializer state is not an object"]
  const problems: Array<string> = []
  const expect = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem)
  }
  expect(typeof state.out === "string", "`out` is not the output string")
  expect(typeof state.atBlockStart === "boolean", "`atBlockStart` is not a boolean")
  expect("inAutolink" in state && (state.inAutolink === undefined || typeof state.inAutolink === "boolean"), "`inAutolink` is missing")
  expect("closed" in state && (state.closed === null || state.closed === false), "`closed` does not start empty")
  expect(isRecord(state.options), "`options` is not an object")
  expect(typeof state.flushClose === "function", "`flushClose` is not a method")
  if (problems.length > 0 || !hasInternals(state)) return problems
  if (!isProbeable(state)) return ["`write` or `closeBlock` is not a method"]
  // Behaviour: closing a block records it, and flushing writes the blank line and forgets it.
  const probe = state
  const paragraph = richTextSchema.node("paragraph")
  try {
    probe.write("a")
    probe.closeBlock(paragraph)
    expect(probe.closed === paragraph, "`closed` does not hold the block just closed")
    probe.flushClose(2)
    expect(probe.out === "a\n\n", "`flushClose(2)` does not write one blank line")
    expect(probe.closed === null || probe.closed === false, "`flushClose` does not forget the closed block")
  } catch (error) {
    problems.push(`probing the state failed: ${String(error)}`)
  }
  return problems
}

/** The problems of a live state: the one a serializer hands to its node writers. */
const liveStateProblems = (): ReadonlyArray<string> => {
  let problems: ReadonlyArray<string> = ["the serializer never called a node writer"]
  const probe = new MarkdownSerializer(
    {
      paragraph: (state) => {
        problems = internalsProblems(state)
      },
      text: () => {}
    },
    {}
  )
  probe.serialize(richTextSchema.node("doc", null, [richTextSchema.node("paragraph")]))
  return problems
}

const problems = liveStateProblems()
if (problems.length > 0) {
  throw new Error(`prosemirror-markdown's serializer changed; Atrium's Markdown writer cannot run: ${problems.join("; ")}`)
}

// Probed when this module loaded; each access checks the shapes again, so a state without them is an error, not wrong Markdown.
const internals = (state: MarkdownSerializerState): Internals => {
  if (!hasInternals(state)) throw new Error("prosemirror-markdown's serializer state no longer has the members Atrium's writer uses")
  return state
}

/** The Markdown written so far. */
export const written = (state: MarkdownSerializerState): string => internals(state).out

/** Whether the next text starts a block (so line-start characters need escaping). */
export const atBlockStart = (state: MarkdownSerializerState): boolean => internals(state).atBlockStart

/** Whether the writer is inside an autolink (`<https://…>`), whose text is written as is. */
export const inAutolink = (state: MarkdownSerializerState): boolean => internals(state).inAutolink === true

/** The block closed just before, when nothing was written after it. */
export const closedBlock = (state: MarkdownSerializerState): PmNode | null => internals(state).closed || null

/** Writes the pending blank lines after the closed block: `size` newlines. */
export const flushClose = (state: MarkdownSerializerState, size: number): void => internals(state).flushClose(size)

/** Renders with the serializer's `tightLists` option set to `tight` (items without blank lines between them). */
export const withTightLists = (state: MarkdownSerializerState, tight: boolean, render: () => void): void => {
  const options = internals(state).options
  const saved = options.tightLists
  options.tightLists = tight
  try {
    render()
  } finally {
    options.tightLists = saved
  }
}
