/**
 * The rich-text schema of Atrium, defined once as Tiptap extensions: the
 * server converts with it (Markdown, HTML, Yjs) and the browser editor
 * (`web/`) runs on it. Browser-safe: no Node-only imports here.
 *
 * Nodes: doc, paragraph, heading (level 1–6), bulletList, orderedList
 * (start), listItem, taskList, taskItem (checked), codeBlock (language),
 * blockquote, horizontalRule, hardBreak, image (inline: src, alt, title),
 * table, tableRow, tableHeader, tableCell (colspan, rowspan, colwidth),
 * mention (inline: id, label), text. Marks (outermost first): link, bold,
 * italic, strike, highlight (color), code.
 */
import { type AnyExtension, getSchema, Mark, mergeAttributes, Node } from "@tiptap/core"
import { Blockquote } from "@tiptap/extension-blockquote"
import { Bold } from "@tiptap/extension-bold"
import { Code } from "@tiptap/extension-code"
import { CodeBlock } from "@tiptap/extension-code-block"
import { Document } from "@tiptap/extension-document"
import { HardBreak } from "@tiptap/extension-hard-break"
import { Heading } from "@tiptap/extension-heading"
import { HorizontalRule } from "@tiptap/extension-horizontal-rule"
import { Italic } from "@tiptap/extension-italic"
import { Link } from "@tiptap/extension-link"
import { BulletList, ListItem, OrderedList, TaskItem, TaskList } from "@tiptap/extension-list"
import { Paragraph } from "@tiptap/extension-paragraph"
import { Strike } from "@tiptap/extension-strike"
import { Text } from "@tiptap/extension-text"
import { safeUrl } from "./Urls.ts"

/** The part of a DOM element the parse rules read (the server has no DOM typings; happy-dom or the browser provide one). */
interface DomNode {
  readonly tagName: string
  readonly children: ArrayLike<DomNode>
  getAttribute(name: string): string | null
  hasAttribute(name: string): boolean
  querySelector(selector: string): DomNode | null
  readonly type?: string
}
interface DomElement extends DomNode {
  readonly style: { readonly backgroundColor: string }
}

/** A checkbox that is a direct child of `element` or of its first paragraph/label (plain HTML task lists). */
const leadingCheckbox = (element: DomNode): DomNode | null => {
  for (const child of Array.from(element.children)) {
    if (child.tagName === "INPUT" && child.type === "checkbox") return child
    if (child.tagName === "LABEL" || child.tagName === "P") {
      const inner = child.querySelector("input[type=checkbox]")
      if (inner !== null) return inner
    }
    if (child.tagName !== "LABEL") break
  }
  return null
}

const taskList = TaskList.extend({
  parseHTML() {
    return [
      ...(this.parent?.() ?? []),
      // A plain `<ul>` whose items start with checkboxes (GitHub, other editors) is a task list too.
      { tag: "ul", priority: 60, getAttrs: (element) => (leadingCheckbox(element.querySelector("li") ?? element) !== null ? null : false) }
    ]
  }
})

const taskItem = TaskItem.extend({
  // Any block may open an item (a Markdown item can start with a code block), as in the stored documents.
  content: "block+",
  parseHTML() {
    return [
      ...(this.parent?.() ?? []),
      { tag: "li", priority: 60, getAttrs: (element) => (leadingCheckbox(element) === null ? false : null) }
    ]
  },
  addAttributes() {
    return {
      checked: {
        default: false,
        keepOnSplit: false,
        parseHTML: (element: DomElement) => {
          const flag = element.getAttribute("data-checked")
          if (flag !== null) return flag === "" || flag === "true"
          return leadingCheckbox(element)?.hasAttribute("checked") ?? false
        },
        renderHTML: (attributes: Record<string, unknown>) => ({ "data-checked": attributes.checked })
      }
    }
  }
}).configure({ nested: true })

const listItem = ListItem.extend({ content: "block+" })

/** Ordered lists keep only `start` (Tiptap's `type` attribute is not part of Atrium's documents). */
const orderedList = OrderedList.extend({
  addAttributes() {
    const { type: _type, ...rest } = (this.parent?.() ?? {}) as Record<string, unknown>
    return rest as ReturnType<NonNullable<typeof this.parent>>
  }
})

/** Documents may be empty (a new page); editors add a trailing paragraph themselves. */
const document = Document.extend({ content: "block*" })

/** Code may be combined with other marks (stored documents and Markdown such as `**`x`**` do). */
const code = Code.extend({ excludes: "code" })

const link = Link.configure({
  openOnClick: false,
  autolink: false,
  linkOnPaste: true,
  HTMLAttributes: { target: null, rel: null },
  isAllowedUri: (url) => safeUrl(url) !== undefined
})

export const Highlight = Mark.create({
  name: "highlight",
  addAttributes() {
    return {
      color: {
        default: null,
        parseHTML: (element: DomElement) => element.getAttribute("data-color") || element.style.backgroundColor || null,
        renderHTML: (attributes: Record<string, unknown>) =>
          attributes.color ? { "data-color": attributes.color, style: `background-color: ${attributes.color}` } : {}
      }
    }
  },
  parseHTML: () => [{ tag: "mark" }],
  renderHTML: ({ HTMLAttributes }) => ["mark", HTMLAttributes, 0]
})

/**
 * Images are inline, as in Markdown and HTML (Tiptap's Image extension with
 * `inline: true`): an image stays in its paragraph, between its words; an
 * image standing alone is a paragraph holding it.
 */
export const Image = Node.create({
  name: "image",
  group: "inline",
  inline: true,
  draggable: true,
  addAttributes: () => ({ src: { default: null }, alt: { default: null }, title: { default: null } }),
  parseHTML: () => [{ tag: "img[src]" }],
  renderHTML: ({ HTMLAttributes }) => ["img", { ...HTMLAttributes, src: safeUrl(String(HTMLAttributes.src ?? ""), true) ?? "" }]
})

/** `@label` pointing at a user (or any entity) by id. */
export const Mention = Node.create({
  name: "mention",
  group: "inline",
  inline: true,
  atom: true,
  selectable: false,
  addAttributes: () => ({
    id: { default: null, parseHTML: (element: DomElement) => element.getAttribute("data-id"), renderHTML: (a) => ({ "data-id": a.id }) },
    label: {
      default: null,
      parseHTML: (element: DomElement) => element.getAttribute("data-label"),
      renderHTML: (a) => (a.label === null ? {} : { "data-label": a.label })
    }
  }),
  parseHTML: () => [{ tag: 'span[data-type="mention"]' }],
  renderHTML: ({ node, HTMLAttributes }) => [
    "span",
    mergeAttributes({ "data-type": "mention" }, HTMLAttributes),
    `@${node.attrs.label ?? node.attrs.id}`
  ],
  renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`
})

const cellAttributes = () => ({
  colspan: { default: 1, parseHTML: (element: DomElement) => Number(element.getAttribute("colspan") ?? 1) || 1 },
  rowspan: { default: 1, parseHTML: (element: DomElement) => Number(element.getAttribute("rowspan") ?? 1) || 1 },
  colwidth: {
    default: null,
    parseHTML: (element: DomElement) => {
      const widths = element.getAttribute("data-colwidth")
      return widths === null ? null : widths.split(",").map((w: string) => Number.parseInt(w, 10) || 0)
    },
    renderHTML: (attributes: Record<string, unknown>) =>
      Array.isArray(attributes.colwidth) ? { "data-colwidth": attributes.colwidth.join(",") } : {}
  }
})

const cellHtml = (attributes: Record<string, unknown>) => {
  const { colspan, rowspan, ...rest } = attributes
  return { ...rest, ...(colspan !== 1 ? { colspan } : {}), ...(rowspan !== 1 ? { rowspan } : {}) }
}

export const Table = Node.create({
  name: "table",
  group: "block",
  content: "tableRow+",
  isolating: true,
  parseHTML: () => [{ tag: "table" }],
  renderHTML: ({ HTMLAttributes }) => ["table", HTMLAttributes, ["tbody", 0]]
})

export const TableRow = Node.create({
  name: "tableRow",
  content: "(tableCell | tableHeader)+",
  parseHTML: () => [{ tag: "tr" }],
  renderHTML: ({ HTMLAttributes }) => ["tr", HTMLAttributes, 0]
})

export const TableHeader = Node.create({
  name: "tableHeader",
  content: "block+",
  isolating: true,
  addAttributes: cellAttributes,
  parseHTML: () => [{ tag: "th" }],
  renderHTML: ({ HTMLAttributes }) => ["th", cellHtml(HTMLAttributes), 0]
})

export const TableCell = Node.create({
  name: "tableCell",
  content: "block+",
  isolating: true,
  addAttributes: cellAttributes,
  parseHTML: () => [{ tag: "td" }],
  renderHTML: ({ HTMLAttributes }) => ["td", cellHtml(HTMLAttributes), 0]
})

/**
 * The schema's extensions, in rank order (marks: link outermost, code
 * innermost). Editors add behaviour (collaboration, keymaps, cursors) on top;
 * nothing here changes the document model.
 */
export const richTextExtensions: ReadonlyArray<AnyExtension> = [
  document,
  Text,
  Paragraph,
  Heading,
  BulletList,
  orderedList,
  listItem,
  taskList,
  taskItem,
  CodeBlock,
  Blockquote,
  HorizontalRule,
  Image,
  Table,
  TableRow,
  TableHeader,
  TableCell,
  HardBreak,
  Mention,
  link,
  Bold,
  Italic,
  Strike,
  Highlight,
  code
]

/** The ProseMirror schema of those extensions. */
export const richTextSchema = getSchema([...richTextExtensions])
