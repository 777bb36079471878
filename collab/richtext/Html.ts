/**
 * HTML ↔ document through Tiptap's own renderer and parser (@tiptap/html;
 * on the server it brings a happy-dom window). Links and images with unsafe
 * URLs are rendered without them; parsing drops scripts, styles and any
 * element the schema does not know, keeping its text.
 */
import type { JSONContent } from "@tiptap/core"
import { generateHTML, generateJSON } from "@tiptap/html"
import { Window } from "happy-dom"
import { richTextExtensions } from "./Extensions.ts"
import { type ProseMirrorNode, validateDoc } from "./Schema.ts"

export { escapeHtml, safeUrl } from "./Urls.ts"

const extensions = [...richTextExtensions]

/** The document as HTML (the markup Tiptap's editor renders). */
export const docToHtml = (doc: ProseMirrorNode): string => generateHTML(validateDoc(doc) as JSONContent, extensions)

/** Reads HTML (a fragment or a whole page) into a document. */
export const htmlToDoc = (html: string): ProseMirrorNode => validateDoc(generateJSON(html, extensions))

const window = new Window()

/** The text of an HTML fragment: tags dropped, entities decoded (e.g. a page's `<title>`). */
export const htmlToText = (html: string): string => {
  const template = window.document.createElement("template")
  template.innerHTML = html
  return template.content.textContent ?? ""
}
