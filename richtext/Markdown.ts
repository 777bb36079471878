/**
 * Markdown ↔ document through maintained libraries: markdown-it (CommonMark
 * plus GFM tables, strikethrough and bare-URL links) with the schema plugins
 * of `MarkdownTokens.ts`, and prosemirror-markdown to build and serialize
 * documents of the Tiptap schema.
 */
import type { Node as PmNode } from "@tiptap/pm/model"
import MarkdownIt, { type Token } from "markdown-it"
import {
  defaultMarkdownSerializer,
  MarkdownParser,
  MarkdownSerializer,
  type MarkdownSerializerState,
  type ParseSpec
} from "prosemirror-markdown"
import { richTextSchema } from "./Extensions.ts"
import { atBlockStart, closedBlock, flushClose, inAutolink, withTightLists, written } from "./MarkdownInternals.ts"
import { schemaTokens } from "./MarkdownTokens.ts"
import { type ProseMirrorNode, validateDoc } from "./Schema.ts"

// Raw HTML stays text: agents' `<b>` reads back as they wrote it and cannot inject markup.
const tokenizer = MarkdownIt("commonmark", { html: false, linkify: true }).enable(["table", "strikethrough", "linkify"])
tokenizer.use(schemaTokens)

const plainText = (tokens: ReadonlyArray<Token> | null): string =>
  (tokens ?? [])
    .map((t) => (t.children !== null && t.children.length > 0 ? plainText(t.children) : t.type === "softbreak" ? " " : t.content))
    .join("")

const cellSpec = (block: string): ParseSpec => ({
  block,
  getAttrs: (token) => {
    const colspan = Number(token.attrGet("colspan") ?? 1)
    return colspan > 1 ? { colspan } : null
  }
})

const parser = new MarkdownParser(richTextSchema, tokenizer, {
  blockquote: { block: "blockquote" },
  paragraph: { block: "paragraph" },
  list_item: { block: "listItem" },
  bullet_list: { block: "bulletList" },
  ordered_list: { block: "orderedList", getAttrs: (token) => ({ start: Number(token.attrGet("start") ?? 1) }) },
  task_list: { block: "taskList" },
  task_item: { block: "taskItem", getAttrs: (token) => ({ checked: token.attrGet("checked") === "true" }) },
  heading: { block: "heading", getAttrs: (token) => ({ level: Number(token.tag.slice(1)) }) },
  code_block: { block: "codeBlock", noCloseToken: true },
  fence: {
    block: "codeBlock",
    getAttrs: (token) => ({ language: tokenizer.utils.unescapeAll(token.info).trim().split(/\s+/)[0] || null }),
    noCloseToken: true
  },
  hr: { node: "horizontalRule" },
  image: {
    node: "image",
    getAttrs: (token) => ({ src: token.attrGet("src"), title: token.attrGet("title") || null, alt: plainText(token.children) })
  },
  hardbreak: { node: "hardBreak" },
  mention: { node: "mention", getAttrs: (token) => ({ id: token.attrGet("id"), label: token.attrGet("label") || null }) },
  table: { block: "table" },
  thead: { ignore: true },
  tbody: { ignore: true },
  tr: { block: "tableRow" },
  th: cellSpec("tableHeader"),
  td: cellSpec("tableCell"),
  em: { mark: "italic" },
  strong: { mark: "bold" },
  s: { mark: "strike" },
  mark: { mark: "highlight" },
  link: { mark: "link", getAttrs: (token) => ({ href: token.attrGet("href"), title: token.attrGet("title") || null }) },
  code_inline: { mark: "code", noCloseToken: true }
})

/** Parses Markdown (CommonMark + GFM tables, task lists and strikethrough, `==highlight==`, mentions) into a document. */
export const markdownToDoc = (markdown: string): ProseMirrorNode => {
  const doc = validateDoc(parser.parse(markdown).toJSON())
  // A paragraph left empty (e.g. `[](x)`) says nothing and Markdown cannot write it back.
  return { type: "doc", content: (doc.content ?? []).filter((block) => block.type !== "paragraph" || block.content !== undefined) }
}

type Serialize = (state: MarkdownSerializerState, node: PmNode, parent: PmNode, index: number) => void

const LIST_TYPES = new Set(["bulletList", "orderedList", "taskList"])

/** Items separated by blank lines when one holds several blocks other than lists (else they would merge). */
const isLoose = (list: PmNode) => {
  let loose = false
  list.forEach((item) => {
    let blocks = 0
    item.forEach((child) => {
      if (!LIST_TYPES.has(child.type.name)) blocks++
    })
    if (blocks > 1) loose = true
  })
  return loose
}

/** Consecutive lists of one kind would merge: alternate the bullet (or delimiter) between neighbours. */
const alternates = (parent: PmNode, index: number, types: ReadonlyArray<string>) => {
  let count = 0
  for (let i = index - 1; i >= 0 && types.includes(parent.child(i).type.name); i--) count++
  return count % 2 === 1
}

const renderList = (state: MarkdownSerializerState, list: PmNode, delim: string, firstDelim: (index: number) => string) => {
  // Two blank lines no longer end a list in CommonMark; the alternating marker does.
  if (closedBlock(state)?.type === list.type) flushClose(state, 2)
  withTightLists(state, !isLoose(list), () => state.renderList(list, delim, firstDelim))
}

const BULLETS = ["bulletList", "taskList"]

const fenceFor = (text: string) => {
  const runs = text.match(/`{3,}/gm)
  return runs === null ? "```" : `${runs.sort((a, b) => b.length - a.length)[0]}\``
}

/** A GFM cell holds one line: the cell's blocks written inline, pipes escaped. */
const cellMarkdown = (cell: PmNode): string => {
  const parts: Array<string> = []
  cell.forEach((block) => {
    parts.push(
      serializer
        .serialize(richTextSchema.node("doc", null, [block]))
        .trim()
        .replace(/\n+/g, " ")
    )
  })
  return parts.join(" ").replace(/\|/g, "\\|")
}

const nodes: Record<string, Serialize> = {
  paragraph: defaultMarkdownSerializer.nodes.paragraph!,
  heading: defaultMarkdownSerializer.nodes.heading!,
  blockquote: defaultMarkdownSerializer.nodes.blockquote!,
  horizontalRule: (state, node, parent) => {
    // In a list item "- ---" would read as one thematic break, and "* ***" too.
    state.write(parent.type.name === "listItem" || parent.type.name === "taskItem" ? "___" : "---")
    state.closeBlock(node)
  },
  image: defaultMarkdownSerializer.nodes.image!,
  hardBreak: defaultMarkdownSerializer.nodes.hard_break!,
  text: (state, node) => {
    const text = node.text ?? ""
    if (inAutolink(state)) return state.text(text, false)
    const atLineStart = atBlockStart(state) || written(state).endsWith("\n")
    // What Markdown would read as structure (a newline, indentation) is written as character references.
    let escaped = state.esc(text, atLineStart).replace(/\n/g, "&#10;")
    if (atLineStart) escaped = escaped.replace(/^[ \t]+/, (blank) => [...blank].map((c) => `&#${c.charCodeAt(0)};`).join(""))
    state.text(escaped, false)
  },
  codeBlock: (state, node) => {
    const fence = fenceFor(node.textContent)
    state.write(`${fence}${node.attrs.language ?? ""}\n`)
    state.text(node.textContent, false)
    state.ensureNewLine()
    state.write(fence)
    state.closeBlock(node)
  },
  bulletList: (state, node, parent, index) => {
    const bullet = alternates(parent, index, BULLETS) ? "*" : "-"
    renderList(state, node, "  ", () => `${bullet} `)
  },
  taskList: (state, node, parent, index) => {
    const bullet = alternates(parent, index, BULLETS) ? "*" : "-"
    renderList(state, node, "  ", (i) => `${bullet} [${node.child(i).attrs.checked ? "x" : " "}] `)
  },
  orderedList: (state, node, parent, index) => {
    const start = Number(node.attrs.start ?? 1)
    const delimiter = alternates(parent, index, ["orderedList"]) ? ")" : "."
    const width = String(start + node.childCount - 1).length
    renderList(state, node, " ".repeat(width + 2), (i) => `${String(start + i).padStart(width, " ")}${delimiter} `)
  },
  listItem: (state, node) => state.renderContent(node),
  taskItem: (state, node) => state.renderContent(node),
  mention: (state, node) => {
    const label = String(node.attrs.label ?? node.attrs.id)
    state.write(`[@${state.esc(label)}](mention:${encodeURI(String(node.attrs.id))})`)
  },
  table: (state, node) => {
    node.forEach((row, _, rowIndex) => {
      const cells: Array<string> = []
      row.forEach((cell) => {
        cells.push(cellMarkdown(cell))
      })
      state.write(`| ${cells.join(" | ")} |`)
      state.ensureNewLine()
      if (rowIndex === 0) {
        state.write(`|${cells.map(() => " --- ").join("|")}|`)
        state.ensureNewLine()
      }
    })
    state.closeBlock(node)
  }
}

/** The backtick fence of a code span: longer than any run inside it. */
const codeFence = (text: string) => "`".repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length)) + 1)

/**
 * A code span's padding: CommonMark strips one space from each end when both
 * ends hold one (and not only spaces), and a backtick at an end needs a space
 * to stand apart from the fence — so those spans get one space each side.
 */
const codePadding = (text: string) => (/^`|`$/.test(text) || (/^ /.test(text) && / $/.test(text) && /[^ ]/.test(text)) ? " " : "")

const codeText = (node: PmNode | null | undefined) => (node?.isText ? (node.text ?? "") : "")

const code = {
  open: (_state: MarkdownSerializerState, _mark: unknown, parent: PmNode, index: number) => {
    const text = codeText(parent.maybeChild(index))
    return codeFence(text) + codePadding(text)
  },
  close: (_state: MarkdownSerializerState, _mark: unknown, parent: PmNode, index: number) => {
    const text = codeText(parent.maybeChild(index - 1))
    return codePadding(text) + codeFence(text)
  },
  escape: false
}

const emphasis = (delimiter: string) => ({ open: delimiter, close: delimiter, mixable: true, expelEnclosingWhitespace: true })

const serializer = new MarkdownSerializer(
  nodes,
  {
    link: defaultMarkdownSerializer.marks.link!,
    bold: emphasis("**"),
    italic: emphasis("*"),
    strike: emphasis("~~"),
    highlight: emphasis("=="),
    code
  },
  {
    hardBreakNodeName: "hardBreak",
    strict: true,
    // Beyond those: our `==` highlight, `<` (autolinks), entities, what linkify would take for a URL or an
    // email, list markers alone ("+", "1.") and a closing run of #s (it would close a heading).
    escapeExtraCharacters:
      /==|<|&(?=#?[a-z0-9]+;)|(?<=[a-z0-9])(?=:\/\/)|(?<=www)(?=\.)|@|^\+(?=\s|$)|(?<=^\d{1,9})[.)](?=\s|$)|(?<=(?:^|\s))#(?=#*$)/gi
  }
)

/** Writes a document as Markdown (the dialect `markdownToDoc` reads). */
export const docToMarkdown = (doc: ProseMirrorNode): string => {
  const written = serializer.serialize(richTextSchema.nodeFromJSON(validateDoc(doc)))
  return written === "" ? "" : `${written.replace(/\n+$/, "")}\n`
}
