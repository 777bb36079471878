/**
 * Round trips over generated documents (fast-check): any document of
 * paragraphs, headings, lists, quotes and code blocks whose text holds
 * Markdown's special characters comes back unchanged through Markdown and
 * through HTML.
 */
import { fc, it } from "@fast-check/vitest"
import { describe, expect } from "vitest"
import { docToHtml, docToMarkdown, htmlToDoc, markdownToDoc, type ProseMirrorNode, validateDoc } from "../../richtext/RichText.ts"

// No whitespace inside words: runs are joined by single spaces (HTML collapses runs of blanks, Markdown trims block edges).
const CHARS = [..."abcxyz019*_~=`[]()<>#!\\&|-+.:/@\"'"]
const word = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(""))
// Marked runs start and end with a letter: Markdown cannot put emphasis around outer whitespace.
const markedText = fc
  .tuple(fc.constantFrom("a", "b", "z"), word, fc.constantFrom("a", "b", "z"))
  .map(([a, middle, z]) => `${a}${middle.replace(/`/g, "")}${z}`)
const MARK_SETS: ReadonlyArray<ReadonlyArray<{ type: string; attrs?: Record<string, unknown> }>> = [
  [{ type: "bold" }],
  [{ type: "italic" }],
  [{ type: "bold" }, { type: "italic" }],
  [{ type: "strike" }],
  [{ type: "highlight" }],
  [{ type: "code" }],
  [{ type: "link", attrs: { href: "https://example.com/a_b" } }]
]
const run = fc.oneof(
  word.map((text): ProseMirrorNode => ({ type: "text", text })),
  fc.tuple(markedText, fc.constantFrom(...MARK_SETS)).map(([text, marks]): ProseMirrorNode => ({ type: "text", text, marks: [...marks] }))
)
// Runs are separated by a space so neighbouring emphasis never touches (`**a***b*` is ambiguous).
const inline = fc
  .array(run, { minLength: 1, maxLength: 4 })
  .map((runs) => runs.flatMap((r, i): Array<ProseMirrorNode> => (i === 0 ? [r] : [{ type: "text", text: " " }, r])))
const paragraph = inline.map((content): ProseMirrorNode => ({ type: "paragraph", content }))
const heading = fc
  .tuple(fc.integer({ min: 1, max: 6 }), inline)
  .map(([level, content]): ProseMirrorNode => ({ type: "heading", attrs: { level }, content }))
const codeBlock = fc.tuple(fc.constantFrom(null, "ts", "py"), fc.array(word, { minLength: 1, maxLength: 3 })).map(
  ([language, lines]): ProseMirrorNode => ({
    type: "codeBlock",
    attrs: { language },
    content: [{ type: "text", text: lines.join("\n") }]
  })
)
const list = fc.tuple(fc.constantFrom("bulletList", "orderedList", "taskList"), fc.array(paragraph, { minLength: 1, maxLength: 3 })).map(
  ([type, items]): ProseMirrorNode => ({
    type,
    content: items.map((p, i) => ({
      type: type === "taskList" ? "taskItem" : "listItem",
      ...(type === "taskList" ? { attrs: { checked: i % 2 === 0 } } : {}),
      content: [p]
    }))
  })
)
const quote = fc.array(paragraph, { minLength: 1, maxLength: 2 }).map((content): ProseMirrorNode => ({ type: "blockquote", content }))
const documents = fc
  .array(fc.oneof(paragraph, heading, codeBlock, list, quote), { minLength: 1, maxLength: 5 })
  .map((content) => validateDoc({ type: "doc", content }))

describe("generated documents", () => {
  it.prop([documents], { numRuns: 200, seed: 4242 })("read back unchanged from their Markdown", (doc) => {
    expect(markdownToDoc(docToMarkdown(doc))).toEqual(doc)
  })

  it.prop([documents], { numRuns: 100, seed: 4242 })("read back unchanged from their HTML", (doc) => {
    expect(htmlToDoc(docToHtml(doc))).toEqual(doc)
  })
})
