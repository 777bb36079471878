/**
 * The rich-text schema of Atrium's editors (wiki pages, feedback milestone
 * articles) and every conversion of its documents: Markdown, HTML, plain
 * text and the Yjs layout of Tiptap's Collaboration extension. Pure
 * functions, no knowledge of pages or boards. The schema is defined once,
 * as Tiptap extensions (`richtext/Extensions.ts`, shared with the browser
 * editor); conversions use maintained libraries (markdown-it +
 * prosemirror-markdown, @tiptap/html, @tiptap/y-tiptap).
 *
 * Nodes: doc, paragraph, heading (level 1–6), bulletList, orderedList
 * (start), listItem, taskList, taskItem (checked), codeBlock (language),
 * blockquote, horizontalRule, hardBreak, image (inline: src, alt, title),
 * table, tableRow, tableHeader, tableCell (colspan, rowspan, colwidth),
 * mention (inline: id, label), text. Marks: bold, italic, strike, code,
 * highlight (color), link (href, target, rel, class, title).
 *
 * Callers' ProseMirror JSON goes through `validateDoc` / `checkDoc` first:
 * unknown node or mark types are refused with the path of the offender.
 */
import type { ProseMirrorNode } from "./Schema.ts"
import { attrOf } from "./Schema.ts"

export type { ProseMirrorNode }
export {
  checkDoc,
  type CheckedDoc,
  emptyDoc,
  InvalidRichText,
  isKnownMark,
  isKnownNode,
  markSpecs,
  nodeSpecs,
  type ProseMirrorMark,
  validateDoc
} from "./Schema.ts"
export { richTextExtensions, richTextSchema } from "./Extensions.ts"
export { docToHtml, escapeHtml, htmlToDoc, htmlToText, safeUrl } from "./Html.ts"
export { docToMarkdown, markdownToDoc } from "./Markdown.ts"
export {
  appendToYFragment,
  contentOf,
  docToState,
  docToYFragment,
  FRAGMENT,
  stateToDoc,
  yFragmentToDoc
} from "./YjsMapping.ts"

const inlineText = (node: ProseMirrorNode): string => {
  switch (node.type) {
    case "text":
      return node.text ?? ""
    case "hardBreak":
      return "\n"
    case "mention":
      return `@${String(attrOf(node, "label") ?? attrOf(node, "id") ?? "")}`
    case "image": {
      const alt = attrOf(node, "alt")
      return typeof alt === "string" ? alt : ""
    }
    default:
      return (node.content ?? []).map(inlineText).join("")
  }
}

const blockText = (node: ProseMirrorNode): Array<string> => {
  switch (node.type) {
    case "paragraph":
    case "heading":
    case "codeBlock":
      return [(node.content ?? []).map(inlineText).join("")]
    case "horizontalRule":
      return []
    case "tableRow":
      return [(node.content ?? []).map((cell) => blockText(cell).join(" ")).join("\t")]
    case "text":
    case "hardBreak":
    case "mention":
    case "image":
      return [inlineText(node)]
    default:
      return (node.content ?? []).flatMap(blockText)
  }
}

/** The document's plain text: one line per block, table cells separated by tabs (for search and listings). */
export const docToText = (doc: ProseMirrorNode): string => blockText(doc).join("\n")
