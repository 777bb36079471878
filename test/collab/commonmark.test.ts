/**
 * CommonMark conformance of the Markdown reader, on the spec's own examples
 * (`commonmark-spec`): Markdown → document → HTML, compared with the spec's
 * HTML read into the same schema and rendered back (so both sides say only
 * what the schema can hold: no list tightness, no nested identical marks), after
 * whitespace normalisation.
 *
 * Excluded: the sections "HTML blocks" and "Raw HTML", and every other
 * example whose Markdown holds raw HTML (markdown-it with `html: true` sees an
 * html_block or html_inline token in it): Atrium reads raw HTML as text, on
 * purpose, so agents' `<b>` reads back as written and cannot inject markup.
 */
import { createRequire } from "node:module"
import MarkdownIt from "markdown-it"
import { describe, expect, it } from "vitest"
import { docToHtml, docToMarkdown, htmlToDoc, markdownToDoc } from "../../richtext/RichText.ts"

interface Example {
  readonly markdown: string
  readonly html: string
  readonly section: string
  readonly number: number
}

const spec = createRequire(import.meta.url)("commonmark-spec") as { tests: ReadonlyArray<Example> }

const EXCLUDED_SECTIONS = new Set(["HTML blocks", "Raw HTML"])
const rawHtmlReader = MarkdownIt("commonmark", { html: true })
const holdsRawHtml = (markdown: string) =>
  rawHtmlReader.parse(markdown, {}).some((t) => t.type === "html_block" || (t.children ?? []).some((c) => c.type === "html_inline"))

// The spec writes tabs as "→".
const examples = spec.tests.map((t) => ({ ...t, markdown: t.markdown.replace(/→/g, "\t"), html: t.html.replace(/→/g, "\t") }))
const included = examples.filter((t) => !EXCLUDED_SECTIONS.has(t.section) && !holdsRawHtml(t.markdown))

const BLOCK = "p|li|h[1-6]|td|th|blockquote|ul|ol|table|tbody|tr"
const normalize = (html: string) =>
  html
    .replace(/\n<\/code><\/pre>/g, "</code></pre>") // a code block's last newline is not content
    .replace(/<p><\/p>/g, "")
    .replace(new RegExp(`(<(?:${BLOCK})(?: [^>]*)?>)\\s+`, "g"), "$1")
    .replace(new RegExp(`\\s+(</(?:${BLOCK})>)`, "g"), "$1")
    .replace(/\s+/g, " ")
    .trim()

const conforms = (example: Example) => {
  try {
    return normalize(docToHtml(markdownToDoc(example.markdown))) === normalize(docToHtml(htmlToDoc(example.html)))
  } catch {
    return false
  }
}

describe("CommonMark spec examples", () => {
  it("excludes only raw HTML", () => {
    expect(examples).toHaveLength(652)
    const excluded = examples.filter((t) => !included.includes(t))
    expect(excluded.filter((t) => EXCLUDED_SECTIONS.has(t.section))).toHaveLength(64)
    // The others hold raw HTML inside other constructs (e.g. `<a href="…">` in a link example).
    for (const t of excluded) expect(EXCLUDED_SECTIONS.has(t.section) || holdsRawHtml(t.markdown)).toBe(true)
    expect(included.length).toBeGreaterThan(560)
  })

  it("reproduces at least 95% of the examples the schema can hold", () => {
    const failing = included.filter((t) => !conforms(t)).map((t) => t.number)
    const rate = (included.length - failing.length) / included.length
    // Known misses: bare URLs become links (GFM autolinks, on purpose: 602, 608, 611, 612); code spans whose
    // padding the HTML side trims when read into a document (138, 331, 332, 334, 336).
    expect(failing.length, `failing examples: ${failing.join(", ")}`).toBeLessThanOrEqual(Math.floor(included.length * 0.05))
    expect(rate).toBeGreaterThanOrEqual(0.95)
  })

  it("round-trips every example Markdown → document → Markdown → document unchanged", () => {
    const unstable: Array<number> = []
    for (const t of examples) {
      const first = markdownToDoc(t.markdown)
      const written = docToMarkdown(first)
      const second = markdownToDoc(written)
      if (JSON.stringify(second) !== JSON.stringify(first) || docToMarkdown(second) !== written) unstable.push(t.number)
    }
    // 413 (`***foo** bar*`): prosemirror-markdown moves the space opening " bar" out of the emphasis it
    // writes, so the space loses its italic mark (the text and every other mark survive).
    expect(unstable).toEqual([413])
  })
})
