/**
 * The prosemirror-markdown serializer members the Markdown writer reaches
 * beyond the library's typings (`richtext/MarkdownInternals.ts`): the
 * installed version has each with the expected shape and behaviour, and the
 * check names what an upgrade would have changed.
 */
import { MarkdownSerializer, type MarkdownSerializerState } from "prosemirror-markdown"
import { describe, expect, it } from "vitest"
import { richTextSchema } from "../../richtext/RichText.ts"
import { internalsProblems } from "../../richtext/MarkdownInternals.ts"

/** A live serializer state, as node writers receive it. */
const liveState = (): MarkdownSerializerState => {
  let captured: MarkdownSerializerState | undefined
  new MarkdownSerializer({ paragraph: (state) => (captured = state), text: () => {} }, {}).serialize(
    richTextSchema.node("doc", null, [richTextSchema.node("paragraph")])
  )
  return captured!
}

describe("prosemirror-markdown internals", () => {
  it("the installed version has every member the writer relies on", () => {
    expect(internalsProblems(liveState())).toEqual([])
  })

  it("names each member an upgrade renamed or reshaped", () => {
    const renamed: Record<string, unknown> = liveState() as never
    delete renamed.out
    delete renamed.closed
    expect(internalsProblems(renamed)).toEqual(["`out` is not the output string", "`closed` does not start empty"])
    const reshaped = Object.assign(liveState(), { atBlockStart: "yes", flushClose: undefined })
    expect(internalsProblems(reshaped)).toEqual(["`atBlockStart` is not a boolean", "`flushClose` is not a method"])
  })

  it("notices a flushClose that no longer writes the blank line", () => {
    const state = Object.assign(liveState(), { flushClose: () => {} })
    expect(internalsProblems(state)).toEqual([
      "`flushClose(2)` does not write one blank line",
      "`flushClose` does not forget the closed block"
    ])
  })
})
