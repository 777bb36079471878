/** The rich-text schema and its conversions (pure functions, no server). */
import { describe, expect, it } from "vitest"
import * as Y from "yjs"
import {
  checkDoc,
  contentOf,
  docToHtml,
  docToMarkdown,
  docToState,
  docToText,
  docToYFragment,
  htmlToDoc,
  InvalidRichText,
  markdownToDoc,
  type ProseMirrorNode,
  stateToDoc,
  validateDoc,
  yFragmentToDoc
} from "../../richtext/RichText.ts"

const text = (value: string, marks?: Array<{ type: string; attrs?: Record<string, unknown> }>): ProseMirrorNode =>
  marks === undefined ? { type: "text", text: value } : { type: "text", text: value, marks }
const paragraph = (...content: Array<ProseMirrorNode>): ProseMirrorNode =>
  content.length > 0 ? { type: "paragraph", content } : { type: "paragraph" }
const doc = (...content: Array<ProseMirrorNode>): ProseMirrorNode => ({ type: "doc", content })

/** md → doc → md is a fixed point, and reading it again gives the same document. */
const roundTrip = (markdown: string) => {
  const first = markdownToDoc(markdown)
  const written = docToMarkdown(first)
  const second = markdownToDoc(written)
  expect(second).toEqual(first)
  expect(docToMarkdown(second)).toBe(written)
  return { doc: first, markdown: written }
}

const CANONICAL = [
  "# Heading 1\n",
  "###### Heading 6\n",
  "Plain paragraph.\n",
  "Some **bold**, *italic*, ~~strike~~, `code`, ==highlight== and ***both***.\n",
  'A [link](https://example.com "Title") and <https://auto.example.com/x>.\n',
  "Line one\\\nline two\n",
  "- one\n- two\n  - nested\n  - nested too\n- three\n",
  "1. first\n2. second\n",
  "3. starts at three\n4. four\n",
  "- [ ] todo\n- [x] done\n",
  "> quoted\n>\n> - list in quote\n",
  "```ts\nconst x = 1 < 2 && `tick`\n```\n",
  "````\n```\nnested fence\n```\n````\n",
  "---\n",
  '![alt text](https://img.example.com/a.png "An image")\n',
  "| a | b |\n| --- | --- |\n| 1 | x \\| y |\n| **bold** | `c` |\n",
  "Hey [@Ann](mention:user-1), look.\n",
  "- loose item\n\n  second paragraph\n\n- next\n"
]

describe("markdown", () => {
  it.each(CANONICAL)("round-trips %j unchanged", (markdown) => {
    expect(roundTrip(markdown).markdown).toBe(markdown)
  })

  it("reads the block structure", () => {
    const parsed = markdownToDoc(
      "# T\n\npara\n\n- a\n- [x] b\n\n1. c\n\n> q\n\n```js\nx\n```\n\n---\n\n![i](s.png)\n\n| h |\n| - |\n| c |\n"
    )
    expect(parsed.content!.map((node) => node.type)).toEqual([
      "heading",
      "paragraph",
      "bulletList",
      "taskList",
      "orderedList",
      "blockquote",
      "codeBlock",
      "horizontalRule",
      "paragraph",
      "table"
    ])
    expect(parsed.content![8]!.content![0]!.type).toBe("image")
    const table = parsed.content![9]!
    expect(table.content![0]!.content![0]!.type).toBe("tableHeader")
    expect(table.content![1]!.content![0]!.type).toBe("tableCell")
    expect(parsed.content![6]!.attrs).toEqual({ language: "js" })
    expect(parsed.content![3]!.content![0]!.attrs).toEqual({ checked: true })
  })

  it("reads marks, nested and adjacent", () => {
    const parsed = markdownToDoc("**b *bi* b** and *i***b**\n")
    expect(parsed.content![0]!.content).toEqual([
      text("b ", [{ type: "bold" }]),
      text("bi", [{ type: "bold" }, { type: "italic" }]),
      text(" b", [{ type: "bold" }]),
      text(" and "),
      text("i", [{ type: "italic" }]),
      text("b", [{ type: "bold" }])
    ])
  })

  it("keeps snake_case and lone delimiters as text", () => {
    const parsed = markdownToDoc("snake_case_name, 2 * 3 = 6, a ~ b, x == y\n")
    expect(docToText(parsed)).toBe("snake_case_name, 2 * 3 = 6, a ~ b, x == y")
    expect(parsed.content![0]!.content).toHaveLength(1)
  })

  it("escapes text that would read back as markup", () => {
    const tricky = doc(
      paragraph(text("# not a heading *nor emphasis* [nor](link) `code` <tag> ~~x~~ ==y== \\ back")),
      paragraph(text("1. not a list")),
      paragraph(text("- not a bullet")),
      paragraph(text("> not a quote")),
      paragraph(text("=")),
      paragraph(text("http://not-a-link.example")),
      paragraph(text("&amp; stays literal")),
      paragraph(text("bold edge", [{ type: "bold" }]), text("=after"))
    )
    const markdown = docToMarkdown(validateDoc(tricky))
    expect(markdownToDoc(markdown)).toEqual(validateDoc(tricky))
  })

  it("moves whitespace out of emphasis and drops marks on blanks", () => {
    const written = docToMarkdown(
      validateDoc(doc(paragraph(text("a"), text(" bold ", [{ type: "bold" }]), text("b"), text(" ", [{ type: "italic" }]), text("c"))))
    )
    expect(written).toBe("a **bold** b c\n")
  })

  it("keeps adjacent lists apart by alternating markers", () => {
    const lists = validateDoc(
      doc(
        { type: "bulletList", content: [{ type: "listItem", content: [paragraph(text("a"))] }] },
        { type: "bulletList", content: [{ type: "listItem", content: [paragraph(text("b"))] }] }
      )
    )
    const markdown = docToMarkdown(lists)
    expect(markdown).toBe("- a\n\n* b\n")
    expect(markdownToDoc(markdown)).toEqual(lists)
  })

  it("resolves reference links and reads autolinks, bare URLs and entities", () => {
    const parsed = markdownToDoc(
      'See [the docs][d], <me@example.com> and https://x.example/a_(b). &copy; &#65;\n\n[d]: https://docs.example "Docs"\n'
    )
    const nodes = parsed.content![0]!.content!
    expect(nodes[1]).toEqual(
      text("the docs", [{ type: "link", attrs: { href: "https://docs.example", target: null, rel: null, class: null, title: "Docs" } }])
    )
    expect(nodes.find((n) => n.text === "me@example.com")?.marks?.[0]?.attrs?.href).toBe("mailto:me@example.com")
    expect(nodes.find((n) => n.text === "https://x.example/a_(b)")?.marks?.[0]?.attrs?.href).toBe("https://x.example/a_(b)")
    expect(docToText(parsed)).toContain("© A")
  })

  it("keeps images inline, in their paragraph", () => {
    const parsed = markdownToDoc("before ![pic](p.png) *after*\n")
    expect(parsed.content).toEqual([
      paragraph(
        text("before "),
        { type: "image", attrs: { src: "p.png", alt: "pic", title: null } },
        text(" "),
        text("after", [{ type: "italic" }])
      )
    ])
    expect(docToMarkdown(parsed)).toBe("before ![pic](p.png) *after*\n")
    expect(docToHtml(parsed)).toBe('<p>before <img src="p.png" alt="pic"> <em>after</em></p>')
  })

  it("reads an image stored as a block (before images were inline) as a paragraph holding it", () => {
    const image = { type: "image", attrs: { src: "s.png", alt: null, title: null } }
    expect(validateDoc(doc(paragraph(text("a")), image, image))).toEqual(doc(paragraph(text("a")), paragraph(image, image)))
  })

  it("reads setext headings, indented code and lazy continuation", () => {
    const parsed = markdownToDoc("Title\n=====\n\nSub\n---\n\n    code line\n\n> quote\ncontinued\n")
    expect(parsed.content!.map((n) => [n.type, n.attrs?.level ?? null])).toEqual([
      ["heading", 1],
      ["heading", 2],
      ["codeBlock", null],
      ["blockquote", null]
    ])
    expect(docToText(parsed)).toBe("Title\nSub\ncode line\nquote continued")
  })

  it("parses a large document in reasonable shape", () => {
    const markdown = "Lorem **ipsum** dolor sit amet, *consectetur* adipiscing [elit](https://x.y).\n\n".repeat(2000)
    const parsed = markdownToDoc(markdown)
    expect(parsed.content).toHaveLength(2000)
    expect(docToMarkdown(parsed)).toBe(markdown.replace(/\n\n$/, "\n"))
  })
})

describe("html", () => {
  it("renders every node and mark, escaped", () => {
    const { doc: parsed } = roundTrip(
      '# <T>\n\n**b** *i* ~~s~~ `c` ==h== [l](https://x.y "t") [@Ann](mention:u1)\\\nnext\n\n- [x] done\n\n3. three\n\n```js\na < b\n```\n\n| h |\n| --- |\n| c |\n'
    )
    expect(docToHtml(parsed)).toBe(
      "<h1>&lt;T&gt;</h1>" +
        '<p><strong>b</strong> <em>i</em> <s>s</s> <code>c</code> <mark>h</mark> <a href="https://x.y" title="t">l</a> ' +
        '<span data-type="mention" data-id="u1" data-label="Ann">@Ann</span><br>next</p>' +
        '<ul data-type="taskList"><li data-checked="true" data-type="taskItem"><label><input type="checkbox" checked="checked"><span></span></label><div><p>done</p></div></li></ul>' +
        '<ol start="3"><li><p>three</p></li></ol>' +
        '<pre><code class="language-js">a &lt; b</code></pre>' +
        "<table><tbody><tr><th><p>h</p></th></tr><tr><td><p>c</p></td></tr></tbody></table>"
    )
  })

  it("round-trips html → doc → html", () => {
    for (const markdown of CANONICAL) {
      const parsed = markdownToDoc(markdown)
      expect(htmlToDoc(docToHtml(parsed))).toEqual(parsed)
    }
  })

  it("drops dangerous URLs when rendering", () => {
    const unsafe = validateDoc(
      doc(
        paragraph(
          text("x", [{ type: "link", attrs: { href: "javascript:alert(1)" } }]),
          text("y", [{ type: "link", attrs: { href: " java\tscript:alert(1)" } }])
        ),
        { type: "image", attrs: { src: "javascript:alert(1)" } },
        { type: "image", attrs: { src: "data:image/png;base64,AAAA" } }
      )
    )
    const html = docToHtml(unsafe)
    expect(html).not.toContain("javascript")
    expect(html).not.toContain("script:")
    expect(html).toContain('src="data:image/png;base64,AAAA"')
  })

  it("reads messy html tolerantly", () => {
    const parsed = htmlToDoc(
      "<html><head><title>t</title><style>p{}</style><script>alert(1)</script></head><body>" +
        "<div>loose <b>bold <i>both</i></b><p>one<p>two<ul><li>a<li>b<ul><li>c</ul></ul>" +
        "<table><tr><th>h<td>d</table><!-- comment --><p>x &amp; y &lt;z&gt; &#x1F600; &nope;</p>" +
        '<pre><code class="language-py">\nprint(1)\n</code></pre><h2>Head <img src="a.png"> tail</h2><span style="color:red">span</span></body></html>'
    )
    expect(parsed.content!.map((node) => node.type)).toEqual([
      "paragraph",
      "paragraph",
      "paragraph",
      "bulletList",
      "table",
      "paragraph",
      "codeBlock",
      "heading",
      "paragraph"
    ])
    expect(docToText(parsed)).toContain("x & y <z> 😀 &nope;")
    expect(parsed.content![6]!.attrs).toEqual({ language: "py" })
    expect(JSON.stringify(parsed)).not.toContain("alert")
    expect(parsed.content![0]!.content).toEqual([
      text("loose "),
      text("bold ", [{ type: "bold" }]),
      text("both", [{ type: "bold" }, { type: "italic" }])
    ])
  })

  it("reads Tiptap's task list markup and checkboxes", () => {
    const parsed = htmlToDoc('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>')
    expect(parsed.content![0]!.type).toBe("taskList")
    expect(parsed.content![0]!.content!.map((item) => item.attrs?.checked)).toEqual([true, false])
  })
})

describe("validation", () => {
  it("refuses unknown node and mark types, naming the path", () => {
    expect(checkDoc({ type: "doc", content: [paragraph(), { type: "video" }] })).toMatchObject({ _tag: "Invalid", path: "content[1].type" })
    const badMark = checkDoc(doc(paragraph(text("x", [{ type: "underline" }]))))
    expect(badMark).toMatchObject({ _tag: "Invalid", path: "content[0].content[0].marks[0].type" })
    expect(badMark._tag === "Invalid" && badMark.message).toContain('unknown mark type "underline"')
  })

  it("refuses misplaced nodes and bad attributes", () => {
    expect(checkDoc(doc(text("bare")))).toMatchObject({ _tag: "Invalid", path: "content[0].type" })
    expect(checkDoc(doc(paragraph({ type: "paragraph" })))).toMatchObject({ _tag: "Invalid", path: "content[0].content[0].type" })
    expect(checkDoc(doc({ type: "heading", attrs: { level: 7 } }))).toMatchObject({ _tag: "Invalid", path: "content[0].attrs.level" })
    expect(checkDoc(doc({ type: "bulletList", content: [paragraph()] }))).toMatchObject({
      _tag: "Invalid",
      path: "content[0].content[0].type"
    })
    expect(checkDoc(doc({ type: "bulletList" }))).toMatchObject({ _tag: "Invalid", path: "content[0].content" })
    expect(checkDoc(doc(paragraph({ type: "image", attrs: {} })))).toMatchObject({
      _tag: "Invalid",
      path: "content[0].content[0].attrs.src"
    })
    expect(checkDoc(doc({ type: "codeBlock", content: [text("x", [{ type: "bold" }])] }))).toMatchObject({
      _tag: "Invalid",
      path: "content[0].content[0].marks"
    })
    expect(checkDoc(doc(paragraph(text("x", [{ type: "link", attrs: {} }]))))).toMatchObject({
      _tag: "Invalid",
      path: "content[0].content[0].marks[0].attrs.href"
    })
    expect(checkDoc({ type: "paragraph" })).toMatchObject({ _tag: "Invalid", path: "type" })
    expect(checkDoc("nope")).toMatchObject({ _tag: "Invalid", path: "" })
    expect(() => validateDoc({ type: "doc", content: [{ type: "nope" }] })).toThrow(InvalidRichText)
  })

  it("refuses absurd nesting", () => {
    let node: ProseMirrorNode = paragraph(text("deep"))
    for (let i = 0; i < 100; i++) node = { type: "blockquote", content: [node] }
    expect(checkDoc(doc(node))).toMatchObject({ _tag: "Invalid" })
  })

  it("normalizes: defaults, merged text, dropped empty text, sorted marks, dropped unknown attributes", () => {
    const normalized = validateDoc(
      doc(
        { type: "heading", content: [text("a"), text(""), text("b")] },
        paragraph(text("x", [{ type: "italic" }, { type: "bold" }]), text("y", [{ type: "bold" }, { type: "italic" }])),
        paragraph({ type: "image", attrs: { src: "s.png", textAlign: "center" } })
      )
    )
    expect(normalized.content![0]).toEqual({ type: "heading", attrs: { level: 1 }, content: [text("ab")] })
    expect(normalized.content![1]).toEqual(paragraph(text("xy", [{ type: "bold" }, { type: "italic" }])))
    expect(normalized.content![2]).toEqual(paragraph({ type: "image", attrs: { src: "s.png", alt: null, title: null } }))
  })
})

describe("yjs", () => {
  it('lays documents out like y-prosemirror (fragment "default", elements, formatted text)', () => {
    const ydoc = new Y.Doc()
    docToYFragment(markdownToDoc("# T\n\nHello **b** [l](https://a.b)\n\n- [x] done\n"), contentOf(ydoc))
    expect(ydoc.getXmlFragment("default").toString()).toBe(
      '<heading level="1">T</heading><paragraph>Hello <bold>b</bold> <link class="null" href="https://a.b" rel="null" target="null" title="null">l</link></paragraph>' +
        '<tasklist><taskitem checked="true"><paragraph>done</paragraph></taskitem></tasklist>'
    )
    expect((contentOf(ydoc).get(2) as Y.XmlElement).nodeName).toBe("taskList")
    const heading = contentOf(ydoc).get(0) as Y.XmlElement
    expect(heading.nodeName).toBe("heading")
    expect(heading.getAttribute("level")).toBe(1 as never)
    const run = (contentOf(ydoc).get(1) as Y.XmlElement).get(0) as Y.XmlText
    expect(run.toDelta()[1]).toEqual({ insert: "b", attributes: { bold: {} } })
  })

  it.each(CANONICAL)("round-trips %j through Yjs", (markdown) => {
    const parsed = markdownToDoc(markdown)
    const ydoc = new Y.Doc()
    docToYFragment(parsed, contentOf(ydoc))
    expect(validateDoc(yFragmentToDoc(contentOf(ydoc)))).toEqual(parsed)
    expect(validateDoc(stateToDoc(docToState(parsed)))).toEqual(parsed)
  })

  it("reads what an editor wrote (mentions, hard breaks, unknown attributes, hashed mark names)", () => {
    const ydoc = new Y.Doc()
    const fragment = contentOf(ydoc)
    ydoc.transact(() => {
      const p = new Y.XmlElement("paragraph")
      p.setAttribute("textAlign", "left")
      const before = new Y.XmlText()
      before.insert(0, "hi ")
      const mention = new Y.XmlElement("mention")
      mention.setAttribute("id", "u1")
      mention.setAttribute("label", "Ann")
      const after = new Y.XmlText()
      after.insert(0, "there", { bold: {}, "link--AbCd1234": { href: "https://x.y" } })
      p.insert(0, [before, mention, new Y.XmlElement("hardBreak"), after])
      fragment.insert(0, [p])
    })
    const read = validateDoc(yFragmentToDoc(fragment))
    // The schema has no textAlign: it is dropped, as the editor would.
    expect(read).toEqual(
      doc({
        type: "paragraph",
        content: [
          text("hi "),
          { type: "mention", attrs: { id: "u1", label: "Ann" } },
          { type: "hardBreak" },
          text("there", [
            { type: "link", attrs: { href: "https://x.y", target: null, rel: null, class: null, title: null } },
            { type: "bold" }
          ])
        ]
      })
    )
    expect(docToMarkdown(read)).toBe("hi [@Ann](mention:u1)\\\n[**there**](https://x.y)\n")
  })

  it("keeps equal blocks at both ends when replacing (small updates, cursors undisturbed)", () => {
    const ydoc = new Y.Doc()
    const blocks = Array.from({ length: 50 }, (_, i) => paragraph(text(`paragraph ${i} `.repeat(20))))
    docToYFragment(validateDoc(doc(...blocks)), contentOf(ydoc))
    const firstBlock = contentOf(ydoc).get(0)
    const lastBlock = contentOf(ydoc).get(49)
    const updates: Array<Uint8Array> = []
    ydoc.on("update", (update: Uint8Array) => updates.push(update))
    const edited = [...blocks]
    edited[25] = paragraph(text("changed"))
    docToYFragment(validateDoc(doc(...edited)), contentOf(ydoc))
    expect(updates).toHaveLength(1)
    expect(updates[0]!.byteLength).toBeLessThan(200)
    expect(contentOf(ydoc).get(0)).toBe(firstBlock)
    expect(contentOf(ydoc).get(49)).toBe(lastBlock)
    expect(docToText(yFragmentToDoc(contentOf(ydoc))).split("\n")[25]).toBe("changed")
  })

  it("converges when two replicas replace content concurrently", () => {
    const a = new Y.Doc()
    const b = new Y.Doc()
    docToYFragment(markdownToDoc("one\n\ntwo\n"), contentOf(a))
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    docToYFragment(markdownToDoc("one\n\ntwo\n\nthree\n"), contentOf(a))
    docToYFragment(markdownToDoc("zero\n\none\n\ntwo\n"), contentOf(b))
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b))
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
    expect(yFragmentToDoc(contentOf(a))).toEqual(yFragmentToDoc(contentOf(b)))
    expect(docToText(yFragmentToDoc(contentOf(a)))).toBe("zero\none\ntwo\nthree")
  })
})

describe("text", () => {
  it("gives one line per block, tabs between cells, labels for mentions", () => {
    const parsed = markdownToDoc("# T\n\nHi [@Ann](mention:u1)\\\nbye\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n![alt](x.png)\n")
    expect(docToText(parsed)).toBe("T\nHi @Ann\nbye\na\tb\n1\t2\nalt")
  })
})
