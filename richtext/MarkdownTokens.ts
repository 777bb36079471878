/**
 * markdown-it plugins that shape the token stream into the schema's terms
 * before prosemirror-markdown builds the document: `==highlight==`, GFM task
 * list items, mentions (`[@Ann](mention:id)`) and table cells holding
 * paragraphs.
 */
import type { Delimiter, MarkdownIt, StateCore, StateInline, Token } from "markdown-it"
import { safeUrl } from "./Urls.ts"

const EQUALS = 0x3d

/** `==text==` as mark_open/mark_close, paired by markdown-it's delimiter algorithm (like `~~`). */
const highlightTokenize = (state: StateInline, silent: boolean): boolean => {
  if (silent || state.src.charCodeAt(state.pos) !== EQUALS) return false
  const scanned = state.scanDelims(state.pos, true)
  let length = scanned.length
  if (length < 2) return false
  if (length % 2 === 1) {
    state.push("text", "", 0).content = "="
    length--
  }
  for (let i = 0; i < length; i += 2) {
    state.push("text", "", 0).content = "=="
    state.delimiters.push({
      marker: EQUALS,
      length: 0,
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close
    })
  }
  state.pos += scanned.length
  return true
}

const highlightPairs = (state: StateInline, delimiters: ReadonlyArray<Delimiter>) => {
  const loneMarkers: Array<number> = []
  for (const start of delimiters) {
    if (start.marker !== EQUALS || start.end === -1) continue
    const end = delimiters[start.end]!
    Object.assign(state.tokens[start.token]!, { type: "mark_open", tag: "mark", nesting: 1, markup: "==", content: "" })
    Object.assign(state.tokens[end.token]!, { type: "mark_close", tag: "mark", nesting: -1, markup: "==", content: "" })
    const before = state.tokens[end.token - 1]!
    if (before.type === "text" && before.content === "=") loneMarkers.push(end.token - 1)
  }
  // An odd "=" before a closing marker belongs outside it ("===a===" → "=" + <mark>a</mark> + "=").
  while (loneMarkers.length > 0) {
    const i = loneMarkers.pop()!
    let j = i + 1
    while (j < state.tokens.length && state.tokens[j]!.type === "mark_close") j++
    j--
    if (i !== j) [state.tokens[i], state.tokens[j]] = [state.tokens[j]!, state.tokens[i]!]
  }
}

const highlight = (md: MarkdownIt) => {
  md.inline.ruler.before("emphasis", "highlight", highlightTokenize)
  md.inline.ruler2.before("emphasis", "highlight", (state) => {
    highlightPairs(state, state.delimiters)
    for (const meta of state.tokens_meta) if (meta?.delimiters) highlightPairs(state, meta.delimiters)
    return true
  })
}

const textOf = (tokens: ReadonlyArray<Token>): string =>
  tokens
    .map((token) => (token.children ? textOf(token.children) : token.type === "text" || token.type === "code_inline" ? token.content : ""))
    .join("")

const MENTION = "mention:"

const decode = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * `[@Ann](mention:u1)` → one `mention` token (id u1, label Ann); links the
 * schema refuses (empty or unsafe URLs, as its HTML parser does) → their text.
 */
const mentionsIn = (state: StateCore, children: Array<Token>): Array<Token> => {
  const result: Array<Token> = []
  for (let i = 0; i < children.length; i++) {
    const token = children[i]!
    const href = token.type === "link_open" ? String(token.attrGet("href") ?? "") : ""
    if (token.type === "link_open" && !href.startsWith(MENTION) && (href === "" || safeUrl(href) === undefined)) {
      const close = children.findIndex((c, j) => j > i && c.type === "link_close")
      if (close !== -1) children.splice(close, 1)
      continue
    }
    if (!href.startsWith(MENTION)) {
      result.push(token)
      continue
    }
    let close = i + 1
    while (close < children.length && children[close]!.type !== "link_close") close++
    const mention = new state.Token("mention", "", 0)
    const label = textOf(children.slice(i + 1, close)).replace(/^@/, "")
    mention.attrs = [
      ["id", decode(href.slice(MENTION.length))],
      ["label", label]
    ]
    result.push(mention)
    i = close
  }
  return result
}

const NESTABLE_MARKS = new Set(["em", "strong", "s", "mark"])

/**
 * `*a *b* c*` nests emphasis in emphasis; a ProseMirror mark cannot hold
 * itself, so the inner pair is dropped (closing it would end the outer one).
 */
const flattenNestedMarks = (children: ReadonlyArray<Token>): Array<Token> => {
  const depth = new Map<string, number>()
  return children.filter((token) => {
    const name = token.type.replace(/_(open|close)$/, "")
    if (!NESTABLE_MARKS.has(name) || token.nesting === 0) return true
    const current = depth.get(name) ?? 0
    if (token.nesting === 1) {
      depth.set(name, current + 1)
      return current === 0
    }
    depth.set(name, current - 1)
    return current === 1
  })
}

const TASK_PREFIX = /^\[([ xX])\](?=\s|$)\s?/

/** The checked state of a list item written `[ ] …` / `[x] …`, or undefined for a plain item. */
const taskState = (tokens: ReadonlyArray<Token>, itemOpen: number): boolean | undefined => {
  const inline = tokens[itemOpen + 2]
  if (tokens[itemOpen + 1]?.type !== "paragraph_open" || inline?.type !== "inline") return undefined
  const match = TASK_PREFIX.exec(inline.content)
  return match === null ? undefined : match[1] !== " "
}

const stripTaskPrefix = (inline: Token) => {
  inline.content = inline.content.replace(TASK_PREFIX, "")
  const first = inline.children?.[0]
  if (first?.type === "text") first.content = first.content.replace(TASK_PREFIX, "")
}

/**
 * GFM task lists: a bullet list's runs of `[ ]`/`[x]` items become task
 * lists (a list mixing both splits into consecutive lists, as stored).
 */
const taskLists = (state: StateCore, input: Array<Token>): Array<Token> => {
  const tokens = [...input]
  for (let i = 0; i < tokens.length; i++) {
    const list = tokens[i]!
    if (list.type !== "bullet_list_open") continue
    let end = i + 1
    const items: Array<{ open: number; close: number; checked: boolean | undefined }> = []
    while (tokens[end]!.type !== "bullet_list_close" || tokens[end]!.level !== list.level) {
      const token = tokens[end]!
      if (token.type === "list_item_open" && token.level === list.level + 1) {
        let close = end + 1
        while (tokens[close]!.type !== "list_item_close" || tokens[close]!.level !== token.level) close++
        items.push({ open: end, close, checked: taskState(tokens, end) })
        end = close
      }
      end++
    }
    if (items.every((item) => item.checked === undefined)) continue
    const rebuilt: Array<Token> = []
    let current: "task" | "bullet" | undefined
    const closeList = () => {
      if (current === undefined) return
      const close = new state.Token(current === "task" ? "task_list_close" : "bullet_list_close", "ul", -1)
      close.block = true
      close.level = list.level
      rebuilt.push(close)
    }
    for (const item of items) {
      const kind = item.checked === undefined ? "bullet" : "task"
      if (kind !== current) {
        closeList()
        const open = new state.Token(kind === "task" ? "task_list_open" : "bullet_list_open", "ul", 1)
        open.block = true
        open.level = list.level
        open.markup = list.markup
        rebuilt.push(open)
        current = kind
      }
      const body = tokens.slice(item.open, item.close + 1)
      if (kind === "task") {
        body[0] = Object.assign(new state.Token("task_item_open", "li", 1), { block: true, level: body[0]!.level })
        body[0].attrSet("checked", String(item.checked))
        body[body.length - 1] = Object.assign(new state.Token("task_item_close", "li", -1), { block: true, level: body[0].level })
        stripTaskPrefix(body[2]!)
      }
      rebuilt.push(...body)
    }
    closeList()
    tokens.splice(i, end - i + 1, ...rebuilt)
  }
  return tokens
}

/** GFM table cells hold inline content; the schema's cells hold blocks. */
const cellParagraphs = (state: StateCore, tokens: ReadonlyArray<Token>): Array<Token> =>
  tokens.flatMap((token, i) => {
    const previous = tokens[i - 1]
    if (token.type !== "inline" || (previous?.type !== "th_open" && previous?.type !== "td_open")) return [token]
    return [
      Object.assign(new state.Token("paragraph_open", "p", 1), { block: true }),
      token,
      Object.assign(new state.Token("paragraph_close", "p", -1), { block: true })
    ]
  })

/** Installs the plugins on a markdown-it instance. */
export const schemaTokens = (md: MarkdownIt): void => {
  highlight(md)
  md.core.ruler.push("atrium_schema", (state) => {
    for (const token of state.tokens)
      if (token.type === "inline" && token.children) token.children = flattenNestedMarks(mentionsIn(state, token.children))
    state.tokens = cellParagraphs(state, taskLists(state, state.tokens))
    return true
  })
}
