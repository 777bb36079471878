/**
 * ProseMirror JSON ↔ HTML. Rendering escapes every text and attribute and
 * drops link and image URLs with a dangerous scheme (javascript:, vbscript:,
 * data: other than images). Parsing is a small tolerant HTML reader: unclosed
 * and misnested tags, stray text, comments, scripts and unknown elements are
 * absorbed instead of refused, and whatever it reads comes out as a valid
 * document of the schema (inline content wrapped in paragraphs, images lifted
 * out of paragraphs, list items starting with a paragraph).
 */
import { inlineEvents } from "./MarkRuns.ts"
import { attrOf, normalizeInline, type ProseMirrorMark, type ProseMirrorNode, validateDoc } from "./Schema.ts"

// ---------------------------------------------------------------------------
// rendering

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))

const SAFE_SCHEMES = new Set(["http", "https", "mailto", "tel", "mention", "ftp"])

/** The URL when it is safe to put in href/src, else undefined. Relative URLs are safe. */
export const safeUrl = (url: string, image = false): string | undefined => {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
  const probe = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "")
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(probe)?.[1]?.toLowerCase()
  if (scheme === undefined) return url
  if (SAFE_SCHEMES.has(scheme)) return url
  if (image && scheme === "data" && /^data:image\/(png|gif|jpe?g|webp|avif|bmp);/i.test(probe)) return url
  return undefined
}

const attribute = (name: string, value: unknown): string =>
  value === null || value === undefined || value === false ? "" : value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`

const openTag = (mark: ProseMirrorMark): string => {
  switch (mark.type) {
    case "bold":
      return "<strong>"
    case "italic":
      return "<em>"
    case "strike":
      return "<s>"
    case "code":
      return "<code>"
    case "highlight":
      return `<mark${attribute("data-color", mark.attrs?.color)}>`
    case "link": {
      const href = safeUrl(String(mark.attrs?.href ?? ""))
      return `<a${attribute("href", href)}${attribute("target", mark.attrs?.target)}${attribute("rel", mark.attrs?.rel)}${attribute("title", mark.attrs?.title)}>`
    }
    default:
      return "<span>"
  }
}

const closeTag = (mark: ProseMirrorMark): string =>
  ({ bold: "</strong>", italic: "</em>", strike: "</s>", code: "</code>", highlight: "</mark>", link: "</a>" })[mark.type] ?? "</span>"

const renderInline = (nodes: ReadonlyArray<ProseMirrorNode>): string => {
  let html = ""
  for (const event of inlineEvents(nodes)) {
    if (event.kind === "open") html += openTag(event.mark)
    else if (event.kind === "close") html += closeTag(event.mark)
    else html += renderInlineNode(event.node)
  }
  return html
}

const renderInlineNode = (node: ProseMirrorNode): string => {
  switch (node.type) {
    case "text":
      return escapeHtml(node.text ?? "")
    case "hardBreak":
      return "<br>"
    case "mention": {
      const label = attrOf(node, "label") ?? attrOf(node, "id")
      return `<span data-type="mention"${attribute("data-id", attrOf(node, "id"))}${attribute("data-label", attrOf(node, "label"))}>@${escapeHtml(String(label ?? ""))}</span>`
    }
    default:
      return renderNode(node)
  }
}

const renderChildren = (node: ProseMirrorNode): string => (node.content ?? []).map(renderNode).join("")

const renderCell = (tag: string, node: ProseMirrorNode): string => {
  const colspan = attrOf(node, "colspan")
  const rowspan = attrOf(node, "rowspan")
  const colwidth = attrOf(node, "colwidth")
  return `<${tag}${attribute("colspan", colspan === 1 ? undefined : colspan)}${attribute("rowspan", rowspan === 1 ? undefined : rowspan)}${attribute(
    "data-colwidth",
    Array.isArray(colwidth) ? colwidth.join(",") : undefined
  )}>${renderChildren(node)}</${tag}>`
}

const renderNode = (node: ProseMirrorNode): string => {
  switch (node.type) {
    case "doc":
      return renderChildren(node)
    case "paragraph":
      return `<p>${renderInline(node.content ?? [])}</p>`
    case "heading": {
      const level = Math.min(6, Math.max(1, Number(attrOf(node, "level")) || 1))
      return `<h${level}>${renderInline(node.content ?? [])}</h${level}>`
    }
    case "bulletList":
      return `<ul>${renderChildren(node)}</ul>`
    case "orderedList": {
      const start = attrOf(node, "start")
      return `<ol${attribute("start", start === 1 ? undefined : start)}>${renderChildren(node)}</ol>`
    }
    case "listItem":
      return `<li>${renderChildren(node)}</li>`
    case "taskList":
      return `<ul data-type="taskList">${renderChildren(node)}</ul>`
    case "taskItem": {
      const checked = attrOf(node, "checked") === true
      return `<li data-type="taskItem" data-checked="${checked}"><label><input type="checkbox" disabled${checked ? " checked" : ""}></label><div>${renderChildren(node)}</div></li>`
    }
    case "codeBlock": {
      const language = attrOf(node, "language")
      const text = (node.content ?? []).map((child) => child.text ?? "").join("")
      return `<pre><code${attribute("class", typeof language === "string" && language !== "" ? `language-${language}` : undefined)}>${escapeHtml(text)}</code></pre>`
    }
    case "blockquote":
      return `<blockquote>${renderChildren(node)}</blockquote>`
    case "horizontalRule":
      return "<hr>"
    case "image":
      return `<img${attribute("src", safeUrl(String(attrOf(node, "src") ?? ""), true))}${attribute("alt", attrOf(node, "alt"))}${attribute("title", attrOf(node, "title"))}>`
    case "table":
      return `<table><tbody>${renderChildren(node)}</tbody></table>`
    case "tableRow":
      return `<tr>${renderChildren(node)}</tr>`
    case "tableHeader":
      return renderCell("th", node)
    case "tableCell":
      return renderCell("td", node)
    case "text":
    case "hardBreak":
    case "mention":
      return renderInlineNode(node)
    default:
      // A node some editor extension added: keep its content visible.
      return node.content ? `<div>${renderChildren(node)}</div>` : node.text ? escapeHtml(node.text) : ""
  }
}

/** The document as HTML (a fragment, no `<html>` wrapper). */
export const docToHtml = (doc: ProseMirrorNode): string => renderNode(doc)

// ---------------------------------------------------------------------------
// reading HTML: tokens → a forgiving element tree

interface HtmlElement {
  readonly kind: "element"
  readonly tag: string
  readonly attrs: Record<string, string>
  readonly children: Array<HtmlChild>
}
interface HtmlText {
  readonly kind: "text"
  readonly text: string
}
type HtmlChild = HtmlElement | HtmlText

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param"])
const RAW_SKIPPED = new Set(["script", "style", "template", "noscript", "iframe", "object", "svg", "math", "head", "title"])
const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "center",
  "details",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "html",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul"
])

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  bull: "•",
  middot: "·",
  times: "×",
  divide: "÷",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  deg: "°",
  plusmn: "±",
  laquo: "«",
  raquo: "»",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  shy: "\u00ad",
  zwj: "\u200d",
  zwnj: "\u200c",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009"
}

export const decodeEntities = (text: string): string =>
  text.indexOf("&") === -1
    ? text
    : text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});?/gi, (whole, body: string) => {
        if (body[0] === "#") {
          const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
          return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd"
        }
        return NAMED_ENTITIES[body.toLowerCase()] ?? whole
      })

const readAttributes = (source: string): Record<string, string> => {
  const attrs: Record<string, string> = {}
  const pattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
  let match: RegExpExecArray | null
  while ((match = pattern.exec(source)) !== null) {
    const name = match[1]!.toLowerCase()
    if (Object.hasOwn(attrs, name)) continue
    attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "")
  }
  return attrs
}

/** Parses HTML into a tree, closing what authors leave open the way browsers mostly do. */
const parseTree = (html: string): HtmlElement => {
  const root: HtmlElement = { kind: "element", tag: "#root", attrs: {}, children: [] }
  const stack: Array<HtmlElement> = [root]
  const current = () => stack[stack.length - 1]!
  const closeUpTo = (index: number) => {
    stack.length = Math.max(1, index)
  }
  const indexOfOpen = (tags: ReadonlyArray<string>, boundaries: ReadonlyArray<string>) => {
    for (let i = stack.length - 1; i > 0; i--) {
      if (tags.includes(stack[i]!.tag)) return i
      if (boundaries.includes(stack[i]!.tag)) return -1
    }
    return -1
  }
  const implicitlyClose = (tag: string) => {
    if (BLOCKS.has(tag)) {
      const p = indexOfOpen(["p"], ["div", "li", "td", "th", "blockquote", "section", "article", "body", "table"])
      if (p !== -1) closeUpTo(p)
    }
    if (tag === "li") {
      const li = indexOfOpen(["li"], ["ul", "ol"])
      if (li !== -1) closeUpTo(li)
    } else if (tag === "tr") {
      const tr = indexOfOpen(["tr"], ["table"])
      if (tr !== -1) closeUpTo(tr)
    } else if (tag === "td" || tag === "th") {
      const cell = indexOfOpen(["td", "th"], ["tr", "table"])
      if (cell !== -1) closeUpTo(cell)
    } else if (tag === "dt" || tag === "dd") {
      const item = indexOfOpen(["dt", "dd"], ["dl"])
      if (item !== -1) closeUpTo(item)
    } else if (tag === "thead" || tag === "tbody" || tag === "tfoot") {
      const section = indexOfOpen(["thead", "tbody", "tfoot"], ["table"])
      if (section !== -1) closeUpTo(section)
    }
  }

  let i = 0
  const length = html.length
  const pushText = (text: string) => {
    if (text !== "") current().children.push({ kind: "text", text: decodeEntities(text) })
  }
  while (i < length) {
    const lt = html.indexOf("<", i)
    if (lt === -1) {
      pushText(html.slice(i))
      break
    }
    if (lt > i) pushText(html.slice(i, lt))
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4)
      i = end === -1 ? length : end + 3
      continue
    }
    if (html.startsWith("<![CDATA[", lt)) {
      const end = html.indexOf("]]>", lt + 9)
      current().children.push({ kind: "text", text: html.slice(lt + 9, end === -1 ? length : end) })
      i = end === -1 ? length : end + 3
      continue
    }
    if (html[lt + 1] === "!" || html[lt + 1] === "?") {
      const end = html.indexOf(">", lt)
      i = end === -1 ? length : end + 1
      continue
    }
    const tagMatch = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(html.slice(lt, lt + 64 * 1024))
    if (tagMatch === null) {
      // A lone "<" is text.
      pushText("<")
      i = lt + 1
      continue
    }
    i = lt + tagMatch[0].length
    const closing = tagMatch[1] === "/"
    const tag = tagMatch[2]!.toLowerCase()
    if (closing) {
      for (let s = stack.length - 1; s > 0; s--) {
        if (stack[s]!.tag === tag) {
          closeUpTo(s)
          break
        }
      }
      continue
    }
    if (RAW_SKIPPED.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, i)
      i = end === -1 ? length : html.indexOf(">", end) + 1 || length
      continue
    }
    implicitlyClose(tag)
    const element: HtmlElement = { kind: "element", tag, attrs: readAttributes(tagMatch[3] ?? ""), children: [] }
    current().children.push(element)
    if (!VOID.has(tag) && !/\/\s*$/.test(tagMatch[3] ?? "")) stack.push(element)
  }
  return root
}

// ---------------------------------------------------------------------------
// element tree → ProseMirror

interface Sink {
  readonly inline: (node: ProseMirrorNode) => void
  readonly block: (node: ProseMirrorNode) => void
}

const textContent = (node: HtmlChild): string =>
  node.kind === "text" ? node.text : node.tag === "br" ? "\n" : node.children.map(textContent).join("")

const withMark = (marks: ReadonlyArray<ProseMirrorMark>, mark: ProseMirrorMark) =>
  marks.some((m) => m.type === mark.type) ? marks : [...marks, mark]

const markOf = (element: HtmlElement): ProseMirrorMark | undefined => {
  switch (element.tag) {
    case "strong":
    case "b":
      return /font-weight\s*:\s*(normal|[1-4]00)/i.test(element.attrs.style ?? "") ? undefined : { type: "bold" }
    case "em":
    case "i":
    case "cite":
    case "dfn":
      return { type: "italic" }
    case "s":
    case "strike":
    case "del":
      return { type: "strike" }
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return { type: "code" }
    case "mark":
      return element.attrs["data-color"] ? { type: "highlight", attrs: { color: element.attrs["data-color"] } } : { type: "highlight" }
    case "a": {
      const href = element.attrs.href
      if (href === undefined || href === "") return undefined
      const attrs: Record<string, unknown> = { href }
      if (element.attrs.target) attrs.target = element.attrs.target
      if (element.attrs.rel) attrs.rel = element.attrs.rel
      if (element.attrs.title) attrs.title = element.attrs.title
      return { type: "link", attrs }
    }
    default:
      return undefined
  }
}

const intAttr = (value: string | undefined, fallback: number) => {
  const n = value === undefined ? Number.NaN : Number.parseInt(value, 10)
  return Number.isFinite(n) && n >= 0 ? n : fallback
}

/** Collapses HTML whitespace and trims the ends of an inline run. */
const finishInline = (nodes: ReadonlyArray<ProseMirrorNode>): Array<ProseMirrorNode> => {
  const result: Array<ProseMirrorNode> = []
  let lastSpace = true // at the start, leading whitespace goes
  for (const node of nodes) {
    if (node.type !== "text") {
      result.push(node)
      lastSpace = node.type === "hardBreak"
      continue
    }
    let text = node.text!.replace(/[ \t\n\r\f]+/g, " ")
    if (lastSpace && text.startsWith(" ")) text = text.slice(1)
    if (text === "") continue
    lastSpace = text.endsWith(" ")
    result.push({ ...node, text })
  }
  // trailing whitespace (before a hard break too)
  for (let i = result.length - 1; i >= 0; i--) {
    const node = result[i]!
    if (node.type !== "text") {
      if (node.type === "hardBreak") continue
      break
    }
    const trimmed = node.text!.replace(/ +$/, "")
    if (trimmed === "") result.splice(i, 1)
    else {
      result[i] = { ...node, text: trimmed }
      break
    }
  }
  return normalizeInline(result)
}

const listItemContent = (blocks: Array<ProseMirrorNode>): Array<ProseMirrorNode> =>
  blocks.length === 0 || blocks[0]!.type !== "paragraph" ? [{ type: "paragraph" }, ...blocks] : blocks

/**
 * Block context: inline content accumulates into a `wrap` node (a paragraph,
 * or the heading being read); a block child ends it.
 */
const blocksOf = (
  children: ReadonlyArray<HtmlChild>,
  wrap: (inline: Array<ProseMirrorNode>) => ProseMirrorNode = paragraph
): Array<ProseMirrorNode> => {
  const blocks: Array<ProseMirrorNode> = []
  let pending: Array<ProseMirrorNode> = []
  const flush = () => {
    const inline = finishInline(pending)
    pending = []
    if (inline.length > 0) blocks.push(wrap(inline))
  }
  const sink: Sink = {
    inline: (node) => pending.push(node),
    block: (node) => {
      flush()
      blocks.push(node)
    }
  }
  for (const child of children) walk(child, [], sink)
  flush()
  return blocks
}

const paragraph = (inline: Array<ProseMirrorNode>): ProseMirrorNode =>
  inline.length > 0 ? { type: "paragraph", content: inline } : { type: "paragraph" }

const listItems = (list: HtmlElement, task: boolean): Array<ProseMirrorNode> => {
  const items: Array<ProseMirrorNode> = []
  let stray: Array<HtmlChild> = []
  const flushStray = () => {
    const blocks = blocksOf(stray)
    stray = []
    if (blocks.length > 0)
      items.push(
        task
          ? { type: "taskItem", attrs: { checked: false }, content: listItemContent(blocks) }
          : { type: "listItem", content: listItemContent(blocks) }
      )
  }
  for (const child of list.children) {
    if (child.kind === "element" && child.tag === "li") {
      flushStray()
      const content = listItemContent(
        blocksOf(child.children.filter((c) => !(c.kind === "element" && (c.tag === "label" || c.tag === "input"))))
      )
      items.push(task ? { type: "taskItem", attrs: { checked: isChecked(child) }, content } : { type: "listItem", content })
    } else if (child.kind === "text" && child.text.trim() === "") continue
    else stray.push(child)
  }
  flushStray()
  return items
}

const findCheckbox = (element: HtmlElement): HtmlElement | undefined => {
  for (const child of element.children) {
    if (child.kind !== "element") continue
    if (child.tag === "input" && (child.attrs.type ?? "").toLowerCase() === "checkbox") return child
    if (child.tag === "label" || child.tag === "p" || child.tag === "span" || child.tag === "div") {
      const found = child.tag === "div" ? undefined : findCheckbox(child)
      if (found) return found
    }
  }
  return undefined
}

const isChecked = (li: HtmlElement): boolean => {
  if (li.attrs["data-checked"] !== undefined) return li.attrs["data-checked"] === "true" || li.attrs["data-checked"] === ""
  const box = findCheckbox(li)
  return box !== undefined && Object.hasOwn(box.attrs, "checked")
}

const isTaskList = (list: HtmlElement) =>
  list.attrs["data-type"] === "taskList" ||
  (list.children.some((c) => c.kind === "element" && c.tag === "li") &&
    list.children.every(
      (c) => c.kind !== "element" || c.tag !== "li" || c.attrs["data-type"] === "taskItem" || findCheckbox(c) !== undefined
    ))

const tableRows = (table: HtmlElement): Array<ProseMirrorNode> => {
  const rows: Array<ProseMirrorNode> = []
  const visit = (element: HtmlElement) => {
    for (const child of element.children) {
      if (child.kind !== "element") continue
      if (child.tag === "tr") {
        const cells = child.children.flatMap((cell): Array<ProseMirrorNode> => {
          if (cell.kind !== "element" || (cell.tag !== "td" && cell.tag !== "th")) return []
          const blocks = blocksOf(cell.children)
          const attrs: Record<string, unknown> = {
            colspan: Math.max(1, intAttr(cell.attrs.colspan, 1)),
            rowspan: Math.max(1, intAttr(cell.attrs.rowspan, 1))
          }
          const widths = cell.attrs["data-colwidth"]?.split(",").map((w) => Number.parseInt(w, 10))
          if (widths?.every((w) => Number.isInteger(w) && w >= 0)) attrs.colwidth = widths
          return [
            { type: cell.tag === "th" ? "tableHeader" : "tableCell", attrs, content: blocks.length > 0 ? blocks : [{ type: "paragraph" }] }
          ]
        })
        if (cells.length > 0) rows.push({ type: "tableRow", content: cells })
      } else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") visit(child)
    }
  }
  visit(table)
  return rows
}

const codeLanguage = (pre: HtmlElement): string | null => {
  const fromClass = (value: string | undefined) => /(?:^|\s)(?:language|lang)-([\w#+.-]+)/.exec(value ?? "")?.[1]
  const code = pre.children.find((c): c is HtmlElement => c.kind === "element" && c.tag === "code")
  return fromClass(code?.attrs.class) ?? fromClass(pre.attrs.class) ?? pre.attrs["data-language"] ?? null
}

const walk = (node: HtmlChild, marks: ReadonlyArray<ProseMirrorMark>, sink: Sink): void => {
  if (node.kind === "text") {
    if (node.text !== "")
      sink.inline(marks.length > 0 ? { type: "text", text: node.text, marks: [...marks] } : { type: "text", text: node.text })
    return
  }
  const children = node.children
  switch (node.tag) {
    case "p": {
      const blocks = blocksOf(children)
      if (blocks.length === 0) sink.block({ type: "paragraph" })
      else blocks.forEach(sink.block)
      return
    }
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6": {
      const level = Number(node.tag[1])
      blocksOf(children, (inline) => ({ type: "heading", attrs: { level }, content: inline })).forEach(sink.block)
      return
    }
    case "ul":
    case "ol": {
      const task = node.tag === "ul" && isTaskList(node)
      const items = listItems(node, task)
      if (items.length === 0) return
      if (task) sink.block({ type: "taskList", content: items })
      else if (node.tag === "ol") sink.block({ type: "orderedList", attrs: { start: intAttr(node.attrs.start, 1) }, content: items })
      else sink.block({ type: "bulletList", content: items })
      return
    }
    case "pre": {
      let text = textContent(node)
      if (text.startsWith("\n")) text = text.slice(1)
      if (text.endsWith("\n")) text = text.slice(0, -1)
      sink.block({
        type: "codeBlock",
        attrs: { language: codeLanguage(node) },
        ...(text !== "" ? { content: [{ type: "text", text }] } : {})
      })
      return
    }
    case "blockquote": {
      const blocks = blocksOf(children)
      sink.block({ type: "blockquote", content: blocks.length > 0 ? blocks : [{ type: "paragraph" }] })
      return
    }
    case "hr":
      sink.block({ type: "horizontalRule" })
      return
    case "img": {
      const src = node.attrs.src
      if (src === undefined || src === "") return
      sink.block({ type: "image", attrs: { src, alt: node.attrs.alt ?? null, title: node.attrs.title ?? null } })
      return
    }
    case "table": {
      const rows = tableRows(node)
      if (rows.length > 0) sink.block({ type: "table", content: rows })
      return
    }
    case "br":
      sink.inline({ type: "hardBreak" })
      return
    case "input":
      return
    case "span":
      if (node.attrs["data-type"] === "mention" && node.attrs["data-id"]) {
        sink.inline({
          type: "mention",
          attrs: { id: node.attrs["data-id"], label: node.attrs["data-label"] ?? (textContent(node).replace(/^@/, "") || null) }
        })
        return
      }
      break
  }
  if (BLOCKS.has(node.tag)) {
    blocksOf(children).forEach(sink.block)
    return
  }
  const mark = markOf(node)
  const inner = mark === undefined ? marks : withMark(marks, mark)
  for (const child of children) walk(child, inner, sink)
}

/** Reads HTML (a fragment or a whole page) as a valid document of the schema. */
export const htmlToDoc = (html: string): ProseMirrorNode => {
  const root = parseTree(html)
  return validateDoc({ type: "doc", content: blocksOf(root.children) })
}
