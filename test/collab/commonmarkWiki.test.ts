/**
 * CommonMark conformance through the wiki, as an agent meets it: each spec
 * example is a page created from Markdown with Pages Lite and read back as
 * HTML (`getWikiPageContent?format=html`), compared with the spec's HTML.
 * Only the sections "HTML blocks" and "Raw HTML" are left out (588
 * examples); examples holding raw HTML elsewhere count, and miss (raw HTML is
 * read as text, on purpose).
 *
 * All 588 go through the wiki's own conversions in process (Markdown →
 * document → the page's Yjs state → document → HTML, what Pages Lite and the
 * content download do); a sample from every section also goes through a
 * running server, whose HTML must be the same byte for byte.
 *
 * Both sides are parsed into a DOM and compared as markup after this
 * normalisation, which changes nothing a reader sees:
 * - list items' paragraphs are unwrapped (the schema keeps no tight/loose flag);
 * - entity spelling: characters are compared, not how the HTML escaped them;
 * - the spec's code blocks end with a newline the document does not store;
 * - whitespace outside `<pre>` is HTML's: a run of blanks is one space, and
 *   none is shown at a block's edge or around a line break.
 */
import { createRequire } from "node:module"
import { Window } from "happy-dom"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { docToHtml, docToState, markdownToDoc, stateToDoc, validateDoc } from "../../richtext/RichText.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { createSpace, team } from "../wiki/editing/fixture.ts"

interface Example {
  readonly markdown: string
  readonly html: string
  readonly section: string
  readonly number: number
}

const spec = createRequire(import.meta.url)("commonmark-spec") as { tests: ReadonlyArray<Example> }
const EXCLUDED_SECTIONS = new Set(["HTML blocks", "Raw HTML"])
// The spec writes tabs as "→".
const examples = spec.tests
  .filter((t) => !EXCLUDED_SECTIONS.has(t.section))
  .map((t) => ({ ...t, markdown: t.markdown.replace(/→/g, "\t"), html: t.html.replace(/→/g, "\t") }))

const document = new Window().document
const BLOCKS = new Set(["P", "LI", "UL", "OL", "BLOCKQUOTE", "PRE", "HR", "TABLE", "THEAD", "TBODY", "TR", "TH", "TD", "DIV"])
for (let level = 1; level <= 6; level++) BLOCKS.add(`H${level}`)

type DomNode = ReturnType<typeof document.createElement>["childNodes"][number]

const isBlock = (node: DomNode | null) => node !== null && BLOCKS.has((node as { tagName?: string }).tagName ?? "")

/** HTML whitespace: runs are one space; none at a block's edge or around `<br>`. */
const collapseWhitespace = (parent: DomNode) => {
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === 3) {
      const text = (child.textContent ?? "").replace(/[ \t\n\r\f]+/g, " ")
      const blank = text.trim() === ""
      if (blank && (isBlock(parent) || isBlock(child.previousSibling) || isBlock(child.nextSibling))) parent.removeChild(child)
      else child.textContent = text
    } else if (child.nodeType === 1 && (child as { tagName?: string }).tagName !== "PRE") collapseWhitespace(child)
  }
}

const canonical = (html: string, fromSpec: boolean) => {
  const holder = document.createElement("div")
  holder.innerHTML = fromSpec ? html.replace(/\n<\/code><\/pre>/g, "</code></pre>") : html
  for (const paragraph of Array.from(holder.querySelectorAll("li > p"))) {
    const item = paragraph.parentNode!
    item.insertBefore(document.createTextNode(" "), paragraph)
    while (paragraph.firstChild) item.insertBefore(paragraph.firstChild, paragraph)
    item.insertBefore(document.createTextNode(" "), paragraph)
    item.removeChild(paragraph)
  }
  collapseWhitespace(holder as unknown as DomNode)
  return holder.innerHTML.replace(/ ?(<\/?(?:p|li|h[1-6]|ul|ol|blockquote|br|pre|hr|table|thead|tbody|tr|th|td)(?: [^>]*)?>) ?/g, "$1")
}

/** What the wiki stores for a page written from `markdown`, rendered as its HTML download renders it. */
const throughTheWiki = (markdown: string) => {
  try {
    const stored = stateToDoc(docToState(markdownToDoc(markdown)))
    return docToHtml(validateDoc(stored))
  } catch (error) {
    return `failed: ${String(error)}`
  }
}
const written = new Map(examples.map((example) => [example.number, throughTheWiki(example.markdown)]))

// Every tenth example of each section, its first included: 71 pages.
const sample = examples.filter((example, index) => (index - examples.findIndex((t) => t.section === example.section)) % 10 === 0)

let atrium: TestServer
const served = new Map<number, string>()

beforeAll(async () => {
  atrium = await startAtrium()
  const t = await team(atrium)
  const space = await createSpace(atrium, t.member.token, t.workspaceId)
  const pages = `/wiki/v1/lite/spaces/${space.key}/pages`
  const writeBack = async (example: Example) => {
    const created = await atrium.request("POST", pages, {
      token: t.member.token,
      body: { title: `Example ${example.number}`, markdown: example.markdown }
    })
    if (created.status !== 201) return served.set(example.number, `refused: ${created.status} ${created.text}`)
    const read = await atrium.request("GET", `/wiki/v1/pages/${created.body.id}/content?format=html`, { token: t.member.token })
    served.set(example.number, /<body>\n([\s\S]*)\n<\/body>/.exec(read.text)?.[1] ?? `unreadable: ${read.text}`)
  }
  // A few at a time: the examples are independent pages.
  const queue = [...sample]
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let example = queue.shift(); example !== undefined; example = queue.shift()) await writeBack(example)
    })
  )
}, 300_000)
afterAll(async () => {
  await atrium?.close()
})

describe("CommonMark spec examples through the wiki (Pages Lite Markdown in, page HTML out)", () => {
  it("reproduces at least 90% of the 588 examples outside the raw-HTML sections", () => {
    expect(examples).toHaveLength(588)
    const bySection = new Map<string, { passed: number; total: number }>()
    const failing: Array<number> = []
    for (const example of examples) {
      const passed = canonical(written.get(example.number) ?? "", false) === canonical(example.html, true)
      const section = bySection.get(example.section) ?? { passed: 0, total: 0 }
      bySection.set(example.section, { passed: section.passed + (passed ? 1 : 0), total: section.total + 1 })
      if (!passed) failing.push(example.number)
    }
    const passed = examples.length - failing.length
    const rate = passed / examples.length
    const sections = [...bySection].filter(([, s]) => s.passed < s.total).map(([name, s]) => `${name} ${s.passed}/${s.total}`)
    console.log(
      `CommonMark through the wiki: ${passed} of ${examples.length} (${(rate * 100).toFixed(1)}%); short: ${sections.join(", ")}; failing: ${failing.join(", ")}`
    )
    expect(rate, `failing examples: ${failing.join(", ")}`).toBeGreaterThanOrEqual(0.9)
  })

  it("keeps images in their paragraph and spaces at the edges of code spans", () => {
    const image = examples.find((t) => t.markdown === 'My ![foo bar](/path/to/train.jpg  "title"   )\n')!
    expect(written.get(image.number)).toBe('<p>My <img src="/path/to/train.jpg" alt="foo bar" title="title"></p>')
    const padded = examples.find((t) => t.markdown === "`  ``  `\n")!
    expect(written.get(padded.number)).toBe("<p><code> `` </code></p>")
    // No space comes back as a no-break space (only the examples that write one, as U+00A0 or `&nbsp;`, hold one).
    for (const example of examples) {
      if (!/\u00a0|&nbsp;/.test(example.markdown)) expect(written.get(example.number), `example ${example.number}`).not.toContain("&nbsp;")
    }
  })

  it("a running server answers the same HTML for a sample of every section", () => {
    expect(new Set(sample.map((t) => t.section)).size).toBe(new Set(examples.map((t) => t.section)).size)
    for (const example of sample) expect(served.get(example.number), `example ${example.number}`).toBe(written.get(example.number))
  })
})
