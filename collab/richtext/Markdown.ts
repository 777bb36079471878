/**
 * ProseMirror JSON ↔ Markdown (CommonMark with the GFM extensions editors
 * use: tables, task lists, strikethrough, autolinks; plus `==highlight==` and
 * mentions written `[@label](mention:id)`).
 *
 * The reader is a compact block parser (containers by indentation, like
 * CommonMark) and an inline parser with CommonMark's delimiter algorithm;
 * the writer escapes whatever would otherwise read back differently, so
 * markdown → doc → markdown → doc is stable. What Markdown cannot say
 * (table cell spans, empty paragraphs) is dropped by the writer.
 */
import { decodeEntities } from "./Html.ts"
import { inlineEvents } from "./MarkRuns.ts"
import { attrOf, normalizeInline, type ProseMirrorMark, type ProseMirrorNode, validateDoc } from "./Schema.ts"

// ===========================================================================
// reading: blocks

type Refs = Map<string, { readonly href: string; readonly title: string | null }>

const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, " ").toLowerCase()

const expandTabs = (line: string): string => {
  if (line.indexOf("\t") === -1) return line
  let out = ""
  for (const ch of line) {
    if (ch === "\t") out += " ".repeat(4 - (out.length % 4))
    else out += ch
  }
  return out
}

const indentOf = (line: string): number => {
  let n = 0
  while (n < line.length && line[n] === " ") n++
  return n
}

const isBlank = (line: string) => /^\s*$/.test(line)

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const HR = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/
const QUOTE = /^ {0,3}> ?/
const BULLET = /^( {0,3})([-+*])(?:( {1,4})(?=\S)|( *)$)/
const ORDERED = /^( {0,3})(\d{1,9})([.)])(?:( {1,4})(?=\S)|( *)$)/
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/
const REF_DEFINITION =
  /^ {0,3}\[((?:[^\]\\]|\\.){1,999})\]:\s*(?:<([^<>\n]*)>|(\S+))(?:\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|\(((?:[^()\\]|\\.)*)\)))?\s*$/

interface ListMarker {
  readonly ordered: boolean
  /** The bullet character, or the ordered delimiter ("." or ")"). */
  readonly char: string
  readonly start: number
  /** Columns from the line start to the item's content. */
  readonly contentIndent: number
  /** The first line's content (after the marker). */
  readonly rest: string
}

const listMarkerOf = (line: string): ListMarker | undefined => {
  const bullet = BULLET.exec(line)
  if (bullet !== null) {
    if (HR.test(line)) return undefined
    const spaces = bullet[3] ?? ""
    const indent = bullet[1]!.length + 1 + (spaces === "" ? 1 : spaces.length)
    return { ordered: false, char: bullet[2]!, start: 1, contentIndent: indent, rest: line.slice(bullet[0].length) }
  }
  const ordered = ORDERED.exec(line)
  if (ordered !== null) {
    const spaces = ordered[4] ?? ""
    const indent = ordered[1]!.length + ordered[2]!.length + 1 + (spaces === "" ? 1 : spaces.length)
    return { ordered: true, char: ordered[3]!, start: Number(ordered[2]), contentIndent: indent, rest: line.slice(ordered[0].length) }
  }
  return undefined
}

const splitRow = (line: string): Array<string> => {
  let text = line.trim()
  if (text.startsWith("|")) text = text.slice(1)
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1)
  const cells: Array<string> = []
  let current = ""
  let inCode = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === "\\" && text[i + 1] === "|") {
      current += "\\|"
      i++
    } else if (ch === "`") {
      let run = 0
      while (text[i + run] === "`") run++
      if (inCode === 0) inCode = run
      else if (inCode === run) inCode = 0
      current += "`".repeat(run)
      i += run - 1
    } else if (ch === "|" && inCode === 0) {
      cells.push(current.trim())
      current = ""
    } else current += ch
  }
  cells.push(current.trim())
  return cells
}

const startsTable = (lines: ReadonlyArray<string>, i: number): boolean =>
  i + 1 < lines.length &&
  lines[i]!.includes("|") &&
  TABLE_DELIMITER.test(lines[i + 1]!) &&
  lines[i + 1]!.includes("-") &&
  (lines[i + 1]!.includes("|") || splitRow(lines[i]!).length === 1) &&
  splitRow(lines[i]!).length === splitRow(lines[i + 1]!).length

/** Whether `line` starts a block that interrupts a paragraph. */
const interruptsParagraph = (line: string): boolean => {
  if (isBlank(line) || FENCE.test(line) || ATX.test(line) || HR.test(line) || QUOTE.test(line)) return true
  const marker = listMarkerOf(line)
  // An empty item, or an ordered one not starting at 1, cannot interrupt a paragraph (CommonMark).
  return marker !== undefined && marker.rest.trim() !== "" && (!marker.ordered || marker.start === 1)
}

class BlockReader {
  constructor(private readonly refs: Refs) {}

  read(lines: ReadonlyArray<string>): Array<ProseMirrorNode> {
    const blocks: Array<ProseMirrorNode> = []
    let i = 0
    while (i < lines.length) {
      const line = lines[i]!
      if (isBlank(line)) {
        i++
        continue
      }
      const fence = FENCE.exec(line)
      if (fence !== null && !(fence[2]![0] === "`" && line.slice(fence[0].indexOf(fence[2]!) + fence[2]!.length).includes("`"))) {
        i = this.fencedCode(lines, i, fence, blocks)
        continue
      }
      const atx = ATX.exec(line)
      if (atx !== null) {
        blocks.push(this.heading(atx[1]!.length, atx[2] ?? ""))
        i++
        continue
      }
      if (HR.test(line)) {
        blocks.push({ type: "horizontalRule" })
        i++
        continue
      }
      if (QUOTE.test(line)) {
        i = this.blockquote(lines, i, blocks)
        continue
      }
      const marker = listMarkerOf(line)
      if (marker !== undefined) {
        i = this.list(lines, i, marker, blocks)
        continue
      }
      if (indentOf(line) >= 4) {
        i = this.indentedCode(lines, i, blocks)
        continue
      }
      if (startsTable(lines, i)) {
        i = this.table(lines, i, blocks)
        continue
      }
      if (REF_DEFINITION.test(line)) {
        i++ // collected beforehand
        continue
      }
      i = this.paragraph(lines, i, blocks)
    }
    return blocks
  }

  private heading(level: number, text: string): ProseMirrorNode {
    const inline = liftImages(parseInline(text.trim(), this.refs))
    const node: ProseMirrorNode = { type: "heading", attrs: { level }, ...(inline.inline.length > 0 ? { content: inline.inline } : {}) }
    return node
  }

  private fencedCode(lines: ReadonlyArray<string>, start: number, fence: RegExpExecArray, blocks: Array<ProseMirrorNode>): number {
    const indent = fence[1]!.length
    const marker = fence[2]!
    const language = fence[3] === undefined || fence[3] === "" ? null : decodeEntities(fence[3].replace(/\\(.)/g, "$1"))
    const body: Array<string> = []
    let i = start + 1
    for (; i < lines.length; i++) {
      const line = lines[i]!
      const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`)
      if (closing.test(line)) {
        i++
        break
      }
      body.push(line.slice(Math.min(indent, indentOf(line))))
    }
    const text = body.join("\n")
    blocks.push({ type: "codeBlock", attrs: { language }, ...(text !== "" ? { content: [{ type: "text", text }] } : {}) })
    return i
  }

  private indentedCode(lines: ReadonlyArray<string>, start: number, blocks: Array<ProseMirrorNode>): number {
    const body: Array<string> = []
    let i = start
    for (; i < lines.length; i++) {
      const line = lines[i]!
      if (isBlank(line)) body.push(line.slice(Math.min(4, line.length)))
      else if (indentOf(line) >= 4) body.push(line.slice(4))
      else break
    }
    while (body.length > 0 && isBlank(body[body.length - 1]!)) body.pop()
    const text = body.join("\n")
    blocks.push({ type: "codeBlock", attrs: { language: null }, ...(text !== "" ? { content: [{ type: "text", text }] } : {}) })
    return i
  }

  private blockquote(lines: ReadonlyArray<string>, start: number, blocks: Array<ProseMirrorNode>): number {
    const inner: Array<string> = []
    let i = start
    let lazyAllowed = false
    for (; i < lines.length; i++) {
      const line = lines[i]!
      const quote = QUOTE.exec(line)
      if (quote !== null) {
        const rest = line.slice(quote[0].length)
        inner.push(rest)
        lazyAllowed = !isBlank(rest) && !FENCE.test(rest) && indentOf(rest) < 4
      } else if (lazyAllowed && !interruptsParagraph(line)) inner.push(line)
      else break
    }
    const content = this.read(inner)
    blocks.push({ type: "blockquote", content: content.length > 0 ? content : [{ type: "paragraph" }] })
    return i
  }

  private list(lines: ReadonlyArray<string>, start: number, first: ListMarker, blocks: Array<ProseMirrorNode>): number {
    interface Item {
      readonly task: boolean
      readonly checked: boolean
      readonly content: Array<ProseMirrorNode>
    }
    const items: Array<Item> = []
    let i = start
    let marker: ListMarker | undefined = first
    while (marker !== undefined && marker.ordered === first.ordered && marker.char === first.char) {
      const itemLines: Array<string> = []
      let firstLine = marker.rest
      let task = false
      let checked = false
      const taskMatch = marker.ordered ? null : /^\[([ xX])\](?:\s+|$)/.exec(firstLine)
      if (taskMatch !== null) {
        task = true
        checked = taskMatch[1] !== " "
        firstLine = firstLine.slice(taskMatch[0].length)
      }
      itemLines.push(firstLine)
      let contentIndent = marker.contentIndent
      // An item that starts with a blank line takes its indentation from the marker alone.
      if (isBlank(marker.rest)) contentIndent = Math.min(contentIndent, indentOf(lines[i]!) + lines[i]!.trim().length + 1)
      i++
      let previousBlank = isBlank(firstLine)
      let lazyAllowed = !isBlank(firstLine) && !FENCE.test(firstLine)
      for (; i < lines.length; i++) {
        const line = lines[i]!
        if (isBlank(line)) {
          itemLines.push("")
          previousBlank = true
          lazyAllowed = false
          continue
        }
        if (indentOf(line) >= contentIndent) {
          const rest = line.slice(contentIndent)
          itemLines.push(rest)
          previousBlank = false
          lazyAllowed = !FENCE.test(rest) && indentOf(rest) < 4 && !HR.test(rest)
          continue
        }
        if (!previousBlank && lazyAllowed && !interruptsParagraph(line) && listMarkerOf(line) === undefined) {
          itemLines.push(line.trimStart())
          continue
        }
        break
      }
      while (itemLines.length > 0 && isBlank(itemLines[itemLines.length - 1]!)) itemLines.pop()
      const content = listItemContent(this.read(itemLines))
      items.push({ task, checked, content })
      marker = i < lines.length ? listMarkerOf(lines[i]!) : undefined
    }
    // Task and plain items do not mix in one list node: each run becomes its own list.
    let run: Array<Item> = []
    const flush = () => {
      if (run.length === 0) return
      if (run[0]!.task) {
        blocks.push({
          type: "taskList",
          content: run.map((item) => ({ type: "taskItem", attrs: { checked: item.checked }, content: item.content }))
        })
      } else if (first.ordered) {
        blocks.push({
          type: "orderedList",
          attrs: { start: first.start },
          content: run.map((item) => ({ type: "listItem", content: item.content }))
        })
      } else {
        blocks.push({ type: "bulletList", content: run.map((item) => ({ type: "listItem", content: item.content })) })
      }
      run = []
    }
    for (const item of items) {
      if (run.length > 0 && run[0]!.task !== item.task) flush()
      run.push(item)
    }
    flush()
    return i
  }

  private table(lines: ReadonlyArray<string>, start: number, blocks: Array<ProseMirrorNode>): number {
    const header = splitRow(lines[start]!)
    const width = header.length
    const cell = (type: string, source: string): ProseMirrorNode => {
      const inline = parseInline(source, this.refs).filter((node) => node.type !== "image")
      return {
        type,
        attrs: { colspan: 1, rowspan: 1 },
        content: [inline.length > 0 ? { type: "paragraph", content: inline } : { type: "paragraph" }]
      }
    }
    const rows: Array<ProseMirrorNode> = [{ type: "tableRow", content: header.map((source) => cell("tableHeader", source)) }]
    let i = start + 2
    for (; i < lines.length; i++) {
      const line = lines[i]!
      if (isBlank(line) || !line.includes("|") || interruptsParagraph(line)) break
      const cells = splitRow(line)
      const padded = Array.from({ length: width }, (_, k) => cells[k] ?? "")
      rows.push({ type: "tableRow", content: padded.map((source) => cell("tableCell", source)) })
    }
    blocks.push({ type: "table", content: rows })
    return i
  }

  private paragraph(lines: ReadonlyArray<string>, start: number, blocks: Array<ProseMirrorNode>): number {
    const body: Array<string> = [lines[start]!.trimStart()]
    let i = start + 1
    for (; i < lines.length; i++) {
      const line = lines[i]!
      if (/^ {0,3}=+\s*$/.test(line) || (/^ {0,3}-+\s*$/.test(line) && !isBlank(body.join("")))) {
        const level = line.trim()[0] === "=" ? 1 : 2
        blocks.push(this.heading(level, body.join("\n")))
        return i + 1
      }
      if (interruptsParagraph(line) || startsTable(lines, i)) break
      body.push(line.trimStart())
    }
    const text = body.join("\n").replace(/\s+$/, "")
    // Images are blocks in this schema: a paragraph holding some is split around them.
    for (const piece of splitAroundImages(parseInline(text, this.refs))) {
      if (piece.kind === "image") blocks.push(piece.node)
      else {
        const nodes = trimBreaks(piece.nodes)
        if (nodes.length > 0) blocks.push({ type: "paragraph", content: nodes })
      }
    }
    return i
  }
}

const listItemContent = (blocks: Array<ProseMirrorNode>): Array<ProseMirrorNode> =>
  blocks.length === 0 || blocks[0]!.type !== "paragraph" ? [{ type: "paragraph" }, ...blocks] : blocks

const trimBreaks = (nodes: ReadonlyArray<ProseMirrorNode>): Array<ProseMirrorNode> => {
  let from = 0
  let to = nodes.length
  while (from < to && nodes[from]!.type === "hardBreak") from++
  while (to > from && nodes[to - 1]!.type === "hardBreak") to--
  const slice = [...nodes.slice(from, to)]
  if (slice.length > 0 && slice[0]!.type === "text") slice[0] = { ...slice[0]!, text: slice[0]!.text!.replace(/^\s+/, "") }
  const last = slice.length - 1
  if (last >= 0 && slice[last]!.type === "text") slice[last] = { ...slice[last]!, text: slice[last]!.text!.replace(/\s+$/, "") }
  return normalizeInline(slice)
}

const liftImages = (nodes: Array<ProseMirrorNode>) => ({
  inline: nodes.filter((node) => node.type !== "image"),
  images: nodes.filter((node) => node.type === "image")
})

const splitAroundImages = (nodes: Array<ProseMirrorNode>) => {
  const pieces: Array<{ kind: "inline"; nodes: Array<ProseMirrorNode> } | { kind: "image"; node: ProseMirrorNode }> = []
  let current: Array<ProseMirrorNode> = []
  for (const node of nodes) {
    if (node.type === "image") {
      pieces.push({ kind: "inline", nodes: current })
      pieces.push({ kind: "image", node })
      current = []
    } else current.push(node)
  }
  pieces.push({ kind: "inline", nodes: current })
  return pieces
}

const collectRefs = (lines: ReadonlyArray<string>): Refs => {
  const refs: Refs = new Map()
  let fence: string | undefined
  for (const line of lines) {
    const open = FENCE.exec(line)
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(line)) fence = undefined
      continue
    }
    if (open !== null) {
      fence = open[2]!
      continue
    }
    const def = REF_DEFINITION.exec(line)
    if (def === null) continue
    const label = normalizeLabel(def[1]!)
    if (!refs.has(label)) {
      const title = def[4] ?? def[5] ?? def[6]
      refs.set(label, { href: unescapeMarkdown(def[2] ?? def[3] ?? ""), title: title === undefined ? null : unescapeMarkdown(title) })
    }
  }
  return refs
}

const unescapeMarkdown = (text: string) => decodeEntities(text.replace(/\\([!-/:-@[-`{-~])/g, "$1"))

/** Reads Markdown as a valid document of the schema. */
export const markdownToDoc = (markdown: string): ProseMirrorNode => {
  const lines = markdown
    .replace(/\r\n?/g, "\n")
    .replace(/\u0000/g, "\ufffd")
    .split("\n")
    .map(expandTabs)
  const reader = new BlockReader(collectRefs(lines))
  return validateDoc({ type: "doc", content: reader.read(lines) })
}

// ===========================================================================
// reading: inline

interface Delimiter {
  readonly char: string
  count: number
  readonly original: number
  readonly canOpen: boolean
  readonly canClose: boolean
}

interface Item {
  kind: "text" | "delim" | "node" | "group"
  text: string
  node?: ProseMirrorNode
  delim?: Delimiter
  /** For groups: the mark applied to `children`. */
  mark?: ProseMirrorMark
  children?: Array<Item>
  prev: Item | null
  next: Item | null
  /** The delimiter stack, for delimiter items. */
  dPrev?: Item | null
  dNext?: Item | null
}

interface Bracket {
  readonly item: Item
  readonly image: boolean
  /** Source index just after "[" (for reference labels). */
  readonly sourceStart: number
  active: boolean
  /** Delimiter-stack length when the bracket opened. */
  readonly delimiterBottom: Item | null
}

const isWhitespace = (ch: string | undefined) => ch === undefined || /\s/u.test(ch)
const isPunctuation = (ch: string | undefined) => ch !== undefined && /[\p{P}\p{S}]/u.test(ch)
const ESCAPABLE = /[!-/:-@[-`{-~]/
const ORDINARY = /[^\\`*_~=![\]<&\nh]+/y
const BARE_URL = /https?:\/\/[^\s<]+/y

class InlineParser {
  private head: Item | null = null
  private tail: Item | null = null
  private lastDelimiter: Item | null = null
  private brackets: Array<Bracket> = []
  private buffer = ""
  private pos = 0

  constructor(
    private readonly source: string,
    private readonly refs: Refs
  ) {}

  private append(item: Item) {
    item.prev = this.tail
    item.next = null
    if (this.tail === null) this.head = item
    else this.tail.next = item
    this.tail = item
  }

  private flushText() {
    if (this.buffer === "") return
    this.append({ kind: "text", text: this.buffer, prev: null, next: null })
    this.buffer = ""
  }

  private pushNode(node: ProseMirrorNode) {
    this.flushText()
    this.append({ kind: "node", text: "", node, prev: null, next: null })
  }

  parse(): Array<ProseMirrorNode> {
    const s = this.source
    while (this.pos < s.length) {
      const ch = s[this.pos]!
      switch (ch) {
        case "\\":
          this.escape()
          break
        case "`":
          this.codeSpan()
          break
        case "*":
        case "_":
        case "~":
        case "=":
          this.delimiterRun(ch)
          break
        case "!":
          if (s[this.pos + 1] === "[") this.openBracket(true)
          else this.literal(ch)
          break
        case "[":
          this.openBracket(false)
          break
        case "]":
          this.closeBracket()
          break
        case "<":
          if (!this.autolink() && !this.htmlBreak()) this.literal(ch)
          break
        case "&": {
          const entity = /^&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/i.exec(s.slice(this.pos, this.pos + 40))
          if (entity !== null && decodeEntities(entity[0]) !== entity[0]) {
            this.buffer += decodeEntities(entity[0])
            this.pos += entity[0].length
          } else this.literal(ch)
          break
        }
        case "\n":
          this.lineBreak()
          break
        case "h":
          if (!this.bareUrl()) this.literal(ch)
          break
        default: {
          // Copy a run of ordinary characters at once.
          ORDINARY.lastIndex = this.pos
          const match = ORDINARY.exec(s)
          if (match !== null) {
            this.buffer += match[0]
            this.pos += match[0].length
          } else this.literal(ch)
        }
      }
    }
    this.flushText()
    this.processEmphasis(null)
    return normalizeInline(toNodes(this.head, []))
  }

  private literal(ch: string) {
    this.buffer += ch
    this.pos++
  }

  private escape() {
    const next = this.source[this.pos + 1]
    if (next === "\n") {
      this.pushNode({ type: "hardBreak" })
      this.pos += 2
      this.skipLeadingSpaces()
    } else if (next !== undefined && ESCAPABLE.test(next)) {
      this.buffer += next
      this.pos += 2
    } else this.literal("\\")
  }

  private skipLeadingSpaces() {
    while (this.source[this.pos] === " ") this.pos++
  }

  private lineBreak() {
    const hard = / {2,}$/.test(this.buffer)
    this.buffer = this.buffer.replace(/ +$/, "")
    if (hard) this.pushNode({ type: "hardBreak" })
    else this.buffer += " "
    this.pos++
    this.skipLeadingSpaces()
  }

  private codeSpan() {
    const s = this.source
    let run = 0
    while (s[this.pos + run] === "`") run++
    let search = this.pos + run
    while (search < s.length) {
      const found = s.indexOf("`", search)
      if (found === -1) break
      let closeRun = 0
      while (s[found + closeRun] === "`") closeRun++
      if (closeRun === run) {
        let code = s.slice(this.pos + run, found).replace(/\n/g, " ")
        if (code.length >= 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1)
        this.pushNode({ type: "text", text: code, marks: [{ type: "code" }] })
        this.pos = found + closeRun
        return
      }
      search = found + closeRun
    }
    this.buffer += "`".repeat(run)
    this.pos += run
  }

  private delimiterRun(ch: string) {
    const s = this.source
    let count = 0
    while (s[this.pos + count] === ch) count++
    const before = this.pos === 0 ? undefined : s[this.pos - 1]
    const after = s[this.pos + count]
    const leftFlanking = !isWhitespace(after) && (!isPunctuation(after) || isWhitespace(before) || isPunctuation(before))
    const rightFlanking = !isWhitespace(before) && (!isPunctuation(before) || isWhitespace(after) || isPunctuation(after))
    let canOpen: boolean
    let canClose: boolean
    if (ch === "_") {
      // CommonMark's rule keeps snake_case words intact.
      canOpen = leftFlanking && (!rightFlanking || isPunctuation(before))
      canClose = rightFlanking && (!leftFlanking || isPunctuation(after))
    } else {
      // Relaxed for "*", "~", "=": only whitespace matters, so "**foo.**bar" closes as writers expect.
      canOpen = !isWhitespace(after)
      canClose = !isWhitespace(before)
    }
    if ((ch === "=" && count < 2) || (!canOpen && !canClose)) {
      this.buffer += ch.repeat(count)
      this.pos += count
      return
    }
    this.flushText()
    const item: Item = {
      kind: "delim",
      text: ch.repeat(count),
      delim: { char: ch, count, original: count, canOpen, canClose },
      prev: null,
      next: null
    }
    this.append(item)
    item.dPrev = this.lastDelimiter
    if (this.lastDelimiter !== null) this.lastDelimiter.dNext = item
    this.lastDelimiter = item
    this.pos += count
  }

  private openBracket(image: boolean) {
    this.flushText()
    const text = image ? "![" : "["
    const item: Item = { kind: "text", text, prev: null, next: null }
    this.append(item)
    this.pos += text.length
    this.brackets.push({ item, image, sourceStart: this.pos, active: true, delimiterBottom: this.lastDelimiter })
  }

  private closeBracket() {
    const opener = this.brackets.pop()
    if (opener === undefined || !opener.active) {
      this.literal("]")
      return
    }
    const labelSource = this.source.slice(opener.sourceStart, this.pos)
    const after = this.pos + 1
    const target = this.inlineTarget(after) ?? this.referenceTarget(after, labelSource)
    if (target === undefined) {
      this.literal("]")
      return
    }
    this.flushText()
    this.processEmphasis(opener.delimiterBottom)
    const children = this.detachAfter(opener.item)
    // the opener "[" itself goes too
    this.unlink(opener.item)
    this.pos = target.end
    if (opener.image) {
      const alt = plainText(children)
      this.append({
        kind: "node",
        text: "",
        node: { type: "image", attrs: { src: target.href, alt: alt === "" ? null : alt, title: target.title } },
        prev: null,
        next: null
      })
      return
    }
    const mention = /^mention:(.+)$/.exec(target.href)
    const label = plainText(children)
    if (mention !== null && label.startsWith("@")) {
      this.append({
        kind: "node",
        text: "",
        node: { type: "mention", attrs: { id: decodeURIComponentSafe(mention[1]!), label: label.slice(1) } },
        prev: null,
        next: null
      })
      return
    }
    const attrs: Record<string, unknown> = { href: target.href }
    if (target.title !== null) attrs.title = target.title
    this.append({ kind: "group", text: "", mark: { type: "link", attrs }, children, prev: null, next: null })
    // No links inside links.
    for (const bracket of this.brackets) if (!bracket.image) bracket.active = false
  }

  /** `(dest "title")` after a closing bracket. */
  private inlineTarget(start: number): { href: string; title: string | null; end: number } | undefined {
    const s = this.source
    if (s[start] !== "(") return undefined
    let i = start + 1
    while (s[i] === " " || s[i] === "\n") i++
    let href = ""
    if (s[i] === "<") {
      const end = s.indexOf(">", i)
      if (end === -1 || s.slice(i + 1, end).includes("\n") || s.slice(i + 1, end).includes("<")) return undefined
      href = s.slice(i + 1, end)
      i = end + 1
    } else {
      let depth = 0
      const from = i
      while (i < s.length) {
        const ch = s[i]!
        if (ch === "\\" && i + 1 < s.length && ESCAPABLE.test(s[i + 1]!)) {
          i += 2
          continue
        }
        if (ch === "(") depth++
        else if (ch === ")") {
          if (depth === 0) break
          depth--
        } else if (/\s/.test(ch)) break
        i++
      }
      href = s.slice(from, i)
    }
    let title: string | null = null
    const beforeTitle = i
    while (s[i] === " " || s[i] === "\n") i++
    if (i > beforeTitle && (s[i] === '"' || s[i] === "'" || s[i] === "(")) {
      const close = s[i] === "(" ? ")" : s[i]!
      let j = i + 1
      let raw = ""
      while (j < s.length && s[j] !== close) {
        if (s[j] === "\\" && j + 1 < s.length) {
          raw += s[j]! + s[j + 1]!
          j += 2
          continue
        }
        raw += s[j]
        j++
      }
      if (j >= s.length) return undefined
      title = unescapeMarkdown(raw)
      i = j + 1
      while (s[i] === " " || s[i] === "\n") i++
    }
    if (s[i] !== ")") return undefined
    return { href: unescapeMarkdown(href), title, end: i + 1 }
  }

  /** `[label]`, `[]` or nothing (shortcut) after a closing bracket, resolved from the definitions. */
  private referenceTarget(start: number, labelSource: string): { href: string; title: string | null; end: number } | undefined {
    const s = this.source
    let label = labelSource
    let end = start
    if (s[start] === "[") {
      const close = s.indexOf("]", start + 1)
      if (close !== -1) {
        const given = s.slice(start + 1, close)
        if (given.trim() !== "") label = given
        end = close + 1
      }
    }
    const ref = this.refs.get(normalizeLabel(label))
    return ref === undefined ? undefined : { href: ref.href, title: ref.title, end }
  }

  private autolink(): boolean {
    const s = this.source.slice(this.pos, this.pos + 2048)
    const uri = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^<>\s]*)>/.exec(s)
    const email =
      uri === null
        ? /^<([a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*)>/.exec(
            s
          )
        : null
    const match = uri ?? email
    if (match === null) return false
    const href = uri !== null ? match[1]! : `mailto:${match[1]!}`
    this.flushText()
    this.append({
      kind: "group",
      text: "",
      mark: { type: "link", attrs: { href } },
      children: [{ kind: "text", text: match[1]!, prev: null, next: null }],
      prev: null,
      next: null
    })
    this.pos += match[0].length
    return true
  }

  /** `<br>` inside a paragraph or table cell (what the writer emits where `\` + newline can't go). */
  private htmlBreak(): boolean {
    const match = /^<br\s*\/?>/i.exec(this.source.slice(this.pos, this.pos + 8))
    if (match === null) return false
    this.pushNode({ type: "hardBreak" })
    this.pos += match[0].length
    return true
  }

  private bareUrl(): boolean {
    const s = this.source
    const before = this.pos === 0 ? undefined : s[this.pos - 1]
    if (this.brackets.length > 0 || !(before === undefined || /[\s*_~(]/.test(before))) return false
    if (s[this.pos + 1] !== "t") return false
    BARE_URL.lastIndex = this.pos
    const match = BARE_URL.exec(s)
    if (match === null) return false
    let url = match[0]
    url = url.replace(/[?!.,:*_~'"]+$/, "")
    while (url.endsWith(")") && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) url = url.slice(0, -1)
    if (/^https?:\/\/$/.test(url)) return false
    this.flushText()
    this.append({
      kind: "group",
      text: "",
      mark: { type: "link", attrs: { href: url } },
      children: [{ kind: "text", text: url, prev: null, next: null }],
      prev: null,
      next: null
    })
    this.pos += url.length
    return true
  }

  /** Removes and returns the items after `item`. */
  private detachAfter(item: Item): Array<Item> {
    const children: Array<Item> = []
    let cursor = item.next
    while (cursor !== null) {
      children.push(cursor)
      cursor = cursor.next
    }
    item.next = null
    this.tail = item
    return children
  }

  private unlink(item: Item) {
    if (item.prev === null) this.head = item.next
    else item.prev.next = item.next
    if (item.next === null) this.tail = item.prev
    else item.next.prev = item.prev
  }

  private removeDelimiter(item: Item) {
    if (item.dPrev) item.dPrev.dNext = item.dNext ?? null
    if (item.dNext) item.dNext.dPrev = item.dPrev ?? null
    if (this.lastDelimiter === item) this.lastDelimiter = item.dPrev ?? null
    item.dPrev = null
    item.dNext = null
  }

  /** CommonMark's "process emphasis" over the delimiters above `bottom` (a linked stack: no quadratic splicing). */
  private processEmphasis(bottom: Item | null) {
    const openersBottom = new Map<string, Item | null>()
    let closer: Item | null = this.lastDelimiter
    if (closer === bottom) closer = null
    else {
      while (closer !== null && closer.dPrev !== bottom && closer.dPrev !== null && closer.dPrev !== undefined) closer = closer.dPrev
    }
    while (closer !== null) {
      const cd = closer.delim!
      if (!cd.canClose) {
        closer = closer.dNext ?? null
        continue
      }
      const key = `${cd.char}${cd.canOpen ? 1 : 0}${cd.original % 3}`
      const floor = openersBottom.has(key) ? openersBottom.get(key)! : bottom
      let opener: Item | null = closer.dPrev ?? null
      let found: Item | null = null
      while (opener !== null && opener !== bottom && opener !== floor) {
        const od = opener.delim!
        const fits =
          od.char === cd.char &&
          od.canOpen &&
          !(
            (cd.char === "*" || cd.char === "_") &&
            (od.canClose || cd.canOpen) &&
            (od.original + cd.original) % 3 === 0 &&
            !(od.original % 3 === 0 && cd.original % 3 === 0)
          ) &&
          !(cd.char === "~" && od.count !== cd.count) &&
          !(cd.char === "=" && (od.count < 2 || cd.count < 2))
        if (fits) {
          found = opener
          break
        }
        opener = opener.dPrev ?? null
      }
      if (found === null) {
        openersBottom.set(key, closer.dPrev ?? null)
        const next: Item | null = closer.dNext ?? null
        if (!cd.canOpen) this.removeDelimiter(closer)
        closer = next
        continue
      }
      const od = found.delim!
      let use: number
      let mark: ProseMirrorMark
      if (cd.char === "~") {
        use = cd.count
        mark = { type: "strike" }
      } else if (cd.char === "=") {
        use = 2
        mark = { type: "highlight" }
      } else {
        use = od.count >= 2 && cd.count >= 2 ? 2 : 1
        mark = { type: use === 2 ? "bold" : "italic" }
      }
      // Wrap everything between opener and closer.
      const children: Array<Item> = []
      let cursor = found.next
      while (cursor !== null && cursor !== closer) {
        children.push(cursor)
        cursor = cursor.next
      }
      const group: Item = { kind: "group", text: "", mark, children, prev: found, next: closer }
      found.next = group
      closer.prev = group
      od.count -= use
      cd.count -= use
      found.text = od.char.repeat(od.count)
      closer.text = cd.char.repeat(cd.count)
      // the delimiters in between are now plain text inside the group
      found.dNext = closer
      closer.dPrev = found
      if (od.count === 0) {
        this.unlink(found)
        this.removeDelimiter(found)
      }
      if (cd.count === 0) {
        const next: Item | null = closer.dNext ?? null
        this.unlink(closer)
        this.removeDelimiter(closer)
        closer = next
      }
    }
    // What is left above the bottom is literal text.
    if (bottom === null) this.lastDelimiter = null
    else {
      bottom.dNext = null
      this.lastDelimiter = bottom
    }
  }
}

const decodeURIComponentSafe = (value: string) => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

const plainText = (items: ReadonlyArray<Item>): string =>
  items
    .map((item) =>
      item.kind === "group"
        ? plainText(item.children ?? [])
        : item.kind === "node"
          ? (item.node?.text ?? (item.node?.type === "mention" ? `@${String(item.node.attrs?.label ?? "")}` : ""))
          : item.text
    )
    .join("")

const toNodes = (head: Item | null | Array<Item>, marks: ReadonlyArray<ProseMirrorMark>): Array<ProseMirrorNode> => {
  const nodes: Array<ProseMirrorNode> = []
  const items: Array<Item> = []
  if (Array.isArray(head)) items.push(...head)
  else for (let cursor = head; cursor !== null; cursor = cursor.next) items.push(cursor)
  for (const item of items) {
    if (item.kind === "group") {
      const inner = item.mark !== undefined && !marks.some((m) => m.type === item.mark!.type) ? [...marks, item.mark] : marks
      nodes.push(...toNodes(item.children ?? [], inner))
    } else if (item.kind === "node") {
      const node = item.node!
      if (node.type === "text") {
        const all = [...marks.filter((m) => !(node.marks ?? []).some((n) => n.type === m.type)), ...(node.marks ?? [])]
        nodes.push(all.length > 0 ? { ...node, marks: all } : node)
      } else nodes.push(node)
    } else if (item.text !== "") {
      nodes.push(marks.length > 0 ? { type: "text", text: item.text, marks: [...marks] } : { type: "text", text: item.text })
    }
  }
  return nodes
}

const parseInline = (source: string, refs: Refs): Array<ProseMirrorNode> => new InlineParser(source, refs).parse()

// ===========================================================================
// writing

const EMPHASIS: Record<string, string> = { bold: "**", italic: "*", strike: "~~", highlight: "==" }

/**
 * Escapes what would read back as markup inside a line. An "=" is escaped
 * next to another "=" or at the edge of a run (where a highlight's "==" may
 * touch it).
 */
const escapeText = (text: string, inTable: boolean): string =>
  text
    .replace(/[\\`*_[\]<~|]/g, (c) => (c === "|" && !inTable ? c : `\\${c}`))
    .replace(/=/g, (c, offset: number, whole: string) =>
      offset === 0 || offset === whole.length - 1 || whole[offset - 1] === "=" || whole[offset + 1] === "=" ? "\\=" : c
    )
    .replace(/&(?=#?[a-z0-9]+;)/gi, "\\&")
    .replace(/\b(https?):\/\//g, "$1:\\/\\/")

/** Block syntax at the start of a line must not be read as such; leading spaces would not survive anyway. */
const escapeLineStart = (raw: string): string => {
  const line = raw.replace(/^ +/, "")
  if (/^(#{1,6}|[-+*])( |$)/.test(line) || /^>/.test(line) || /^[-=]+\s*$/.test(line)) return `\\${line}`
  const ordered = /^(\d{1,9})([.)])( |$)/.exec(line)
  if (ordered !== null) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`
  return line
}

const codeSpan = (raw: string): string => {
  const text = raw.replace(/\n/g, " ")
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length))
  const fence = "`".repeat(longest + 1)
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "") ? " " : ""
  return `${fence}${pad}${text}${pad}${fence}`
}

const linkDestination = (href: string): string =>
  /[\s<>()]/.test(href) || href === "" ? `<${href.replace(/[<>\n]/g, (c) => encodeURIComponent(c))}>` : href.replace(/\\/g, "\\\\")

const linkTitle = (title: unknown): string =>
  typeof title === "string" && title !== "" ? ` "${title.replace(/["\\]/g, (c) => `\\${c}`)}"` : ""

/** Marks that would sit on whitespace only are dropped: `** **` reads back as text. */
const dropMarksOnBlanks = (nodes: ReadonlyArray<ProseMirrorNode>): Array<ProseMirrorNode> =>
  normalizeInline(
    nodes.map((node) =>
      node.type === "text" && node.marks !== undefined && /^\s+$/.test(node.text ?? "")
        ? (() => {
            const marks = node.marks!.filter((mark) => !(mark.type in EMPHASIS))
            return marks.length > 0 ? { ...node, marks } : { type: "text", text: node.text! }
          })()
        : node
    )
  )

/**
 * Inline content as Markdown. Whitespace at the edges of an emphasis moves
 * outside its delimiters (CommonMark would not read `** a**` as bold).
 * `breakStyle` is how a hard break is written: `\` + newline, or `<br>` in
 * table cells and headings.
 */
const writeInline = (nodes: ReadonlyArray<ProseMirrorNode>, breakStyle: "newline" | "html", inTable = false): string => {
  const parts: Array<string> = []
  let pendingOpens: Array<string> = []
  const flushOpens = () => {
    parts.push(...pendingOpens)
    pendingOpens = []
  }
  const events = inlineEvents(dropMarksOnBlanks(nodes))
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!
    if (event.kind === "open") {
      const mark = event.mark
      const href = String(mark.attrs?.href ?? "")
      const next = events[index + 1]
      const after = events[index + 2]
      if (
        mark.type === "link" &&
        next?.kind === "node" &&
        next.node.type === "text" &&
        next.node.text === href &&
        (next.node.marks ?? []).length === 1 &&
        after?.kind === "close" &&
        /^[a-z][a-z0-9+.-]{1,31}:[^\s<>\\]*$/i.test(href) &&
        !href.startsWith("mention:")
      ) {
        // a link whose text is its URL: an autolink
        flushOpens()
        parts.push(`<${href}>`)
        index += 2
        continue
      }
      if (mark.type === "link") pendingOpens.push("[")
      else if (mark.type in EMPHASIS) pendingOpens.push(EMPHASIS[mark.type]!)
      else if (mark.type === "code") pendingOpens.push("") // written with its text
      continue
    }
    if (event.kind === "close") {
      const mark = event.mark
      flushOpens()
      if (mark.type === "link") {
        parts.push(`](${linkDestination(String(mark.attrs?.href ?? ""))}${linkTitle(mark.attrs?.title)})`)
      } else if (mark.type in EMPHASIS) {
        // move trailing whitespace out of the emphasis
        const last = parts.length - 1
        const trailing = last >= 0 ? (/\s+$/.exec(parts[last]!)?.[0] ?? "") : ""
        if (trailing !== "") parts[last] = parts[last]!.slice(0, -trailing.length)
        parts.push(EMPHASIS[mark.type]!, trailing)
      }
      continue
    }
    const node = event.node
    if (node.type === "text") {
      const text = node.text ?? ""
      const isCode = node.marks?.some((mark) => mark.type === "code") === true
      // move leading whitespace before the delimiters just opened
      const leading = !isCode && pendingOpens.some((open) => open !== "" && open !== "[") ? (/^\s+/.exec(text)?.[0] ?? "") : ""
      if (leading !== "") parts.push(leading)
      flushOpens()
      const body = text.slice(leading.length)
      if (isCode) parts.push(codeSpan(inTable ? body.replace(/\|/g, "\\|") : body))
      else {
        const lines = body.split("\n")
        parts.push(lines.map((line) => escapeText(line, inTable)).join(breakStyle === "html" ? "<br>" : "\\\n"))
      }
      continue
    }
    flushOpens()
    if (node.type === "hardBreak") parts.push(breakStyle === "html" ? "<br>" : "\\\n")
    else if (node.type === "mention") {
      const id = String(attrOf(node, "id") ?? "")
      const label = String(attrOf(node, "label") ?? id)
      parts.push(`[@${escapeText(label, inTable)}](mention:${encodeURIComponent(id)})`)
    } else if (node.type === "image") parts.push(writeImage(node))
    else if (node.content !== undefined) parts.push(writeInline(node.content, breakStyle, inTable))
  }
  flushOpens()
  // Block syntax at the start of a line must not be read as such.
  return parts.join("").split("\n").map(escapeLineStart).join("\n")
}

const writeImage = (node: ProseMirrorNode): string =>
  `![${escapeText(String(attrOf(node, "alt") ?? ""), false)}](${linkDestination(String(attrOf(node, "src") ?? ""))}${linkTitle(attrOf(node, "title"))})`

const indent = (text: string, prefix: string, firstPrefix: string): string =>
  text
    .split("\n")
    .map((line, index) => (index === 0 ? firstPrefix + line : line === "" ? "" : prefix + line))
    .join("\n")

const isList = (type: string) => type === "bulletList" || type === "orderedList" || type === "taskList"

/** Lists that would read back as one list when written next to each other with the same marker. */
const wouldMerge = (a: ProseMirrorNode, b: ProseMirrorNode) =>
  isList(a.type) && isList(b.type) && (a.type === "orderedList") === (b.type === "orderedList")

/** A list is tight when each item is one paragraph, optionally followed by nested lists. */
const isTight = (list: ProseMirrorNode) =>
  (list.content ?? []).every((item) => {
    const blocks = item.content ?? []
    return blocks.length > 0 && blocks[0]!.type === "paragraph" && blocks.slice(1).every((block) => isList(block.type))
  })

/**
 * Writes sibling blocks. Adjacent lists of one kind alternate their marker
 * ("-"/"*", "."/")") so they stay separate lists; `separator` says what goes
 * between two blocks.
 */
const writeSequence = (
  blocks: ReadonlyArray<ProseMirrorNode>,
  separator: (previous: ProseMirrorNode, next: ProseMirrorNode) => string
): string => {
  let out = ""
  let previous: ProseMirrorNode | undefined
  let alternated = false
  for (const block of blocks) {
    let text: string
    if (isList(block.type)) {
      alternated = previous !== undefined && wouldMerge(previous, block) ? !alternated : false
      text = writeList(block, alternated)
    } else text = writeBlock(block)
    if (text === "" && block.type === "paragraph") continue // Markdown has no empty paragraphs
    if (previous !== undefined) out += separator(previous, block)
    out += text
    previous = block
  }
  return out
}

const writeList = (list: ProseMirrorNode, alternate: boolean): string => {
  const start = list.type === "orderedList" ? Number(attrOf(list, "start")) || 0 : 1
  return (list.content ?? [])
    .map((item, index) => {
      let marker = list.type === "orderedList" ? `${start + index}${alternate ? ")" : "."} ` : `${alternate ? "*" : "-"} `
      if (list.type === "taskList") marker += attrOf(item, "checked") === true ? "[x] " : "[ ] "
      const body = writeSequence(item.content ?? [], (previous, next) =>
        isList(next.type) && previous.type === "paragraph" ? "\n" : "\n\n"
      )
      const pad = " ".repeat(list.type === "taskList" ? 2 : marker.length)
      return indent(body, pad, marker).replace(/ +$/, "")
    })
    .join(isTight(list) ? "\n" : "\n\n")
}

const writeTable = (table: ProseMirrorNode): string => {
  const rows = (table.content ?? []).map((row) =>
    (row.content ?? []).map((cell) =>
      (cell.content ?? [])
        .map((block) =>
          block.type === "paragraph" || block.type === "heading" ? writeInline(block.content ?? [], "html", true) : writePlainBlock(block)
        )
        .filter((text) => text !== "")
        .join("<br>")
    )
  )
  const width = Math.max(1, ...rows.map((row) => row.length))
  const pad = (row: Array<string>) => Array.from({ length: width }, (_, k) => row[k] ?? "")
  const line = (cells: Array<string>) => `| ${cells.join(" | ")} |`
  const [header = [], ...body] = rows
  return [line(pad(header)), line(Array.from({ length: width }, () => "---")), ...body.map((row) => line(pad(row)))].join("\n")
}

/** A block that can't live in a table cell, as escaped plain text. */
const writePlainBlock = (block: ProseMirrorNode): string => escapeText(blockText(block), true)

const blockText = (node: ProseMirrorNode): string =>
  node.type === "text" ? (node.text ?? "") : (node.content ?? []).map(blockText).join(" ")

const writeCode = (node: ProseMirrorNode): string => {
  const text = (node.content ?? []).map((child) => child.text ?? "").join("")
  const longest = Math.max(0, ...Array.from(text.matchAll(/^ {0,3}(`{3,})/gm), (m) => m[1]!.length))
  const fence = "`".repeat(Math.max(3, longest + 1))
  const language = attrOf(node, "language")
  return `${fence}${typeof language === "string" ? language.replace(/[`\s]/g, "") : ""}\n${text}${text === "" ? "" : "\n"}${fence}`
}

const writeBlock = (node: ProseMirrorNode): string => {
  switch (node.type) {
    case "paragraph":
      return writeInline(node.content ?? [], "newline")
    case "heading": {
      const level = Math.min(6, Math.max(1, Number(attrOf(node, "level")) || 1))
      // a closing "#" sequence would be dropped by the reader
      const text = writeInline(node.content ?? [], "html")
        .replace(/\n/g, " ")
        .replace(/(\s)(#+)\s*$/, "$1\\$2")
      return `${"#".repeat(level)}${text === "" ? "" : ` ${text}`}`
    }
    case "bulletList":
    case "orderedList":
    case "taskList":
      return writeList(node, false)
    case "codeBlock":
      return writeCode(node)
    case "blockquote":
      return indent(writeBlocks(node.content ?? []), "> ", "> ")
        .split("\n")
        .map((line) => (line === "" ? ">" : line))
        .join("\n")
    case "horizontalRule":
      return "---"
    case "image":
      return writeImage(node)
    case "table":
      return writeTable(node)
    default:
      return node.content !== undefined ? writeBlocks(node.content) : escapeText(node.text ?? "", false)
  }
}

const writeBlocks = (blocks: ReadonlyArray<ProseMirrorNode>): string => writeSequence(blocks, () => "\n\n")

/** The document as Markdown. */
export const docToMarkdown = (doc: ProseMirrorNode): string => {
  const text = writeBlocks(doc.content ?? [])
  return text === "" ? "" : `${text}\n`
}
