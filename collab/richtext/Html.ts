/**
 * HTML ↔ document with ProseMirror's DOM serializer and parser driven by the
 * Tiptap extensions' own renderHTML/parseHTML rules — what @tiptap/html's
 * server entry does, but on one long-lived happy-dom window and the cached
 * schema (@tiptap/html opens a window and rebuilds the schema per call,
 * ~10 ms each). Links and images with unsafe URLs are rendered without them;
 * parsing drops scripts, styles and any element the schema does not know,
 * keeping its text.
 */
import { DOMParser, DOMSerializer } from "@tiptap/pm/model"
import { Window } from "happy-dom"
import { richTextSchema } from "./Extensions.ts"
import { type ProseMirrorNode, validateDoc } from "./Schema.ts"

export { escapeHtml, safeUrl } from "./Urls.ts"

// No scripts, no loading: the window only parses and serializes markup.
const window = new Window({
  settings: {
    disableJavaScriptEvaluation: true,
    disableJavaScriptFileLoading: true,
    disableCSSFileLoading: true,
    disableIframePageLoading: true,
    disableComputedStyleRendering: true
  }
})
const document = window.document
const serializer = DOMSerializer.fromSchema(richTextSchema)
const parser = DOMParser.fromSchema(richTextSchema)

/** The document as HTML (the markup Tiptap's editor renders). */
export const docToHtml = (doc: ProseMirrorNode): string => {
  const wrap = document.createElement("div")
  // happy-dom's Document stands in for the DOM's (the server has no DOM typings).
  serializer.serializeFragment(richTextSchema.nodeFromJSON(validateDoc(doc)).content, { document: document as never }, wrap as never)
  return wrap.innerHTML
}

/** The markup parsed as the content of an element (html/head/body tags of a whole page are dropped, their content kept). */
const parse = (html: string) => {
  const holder = document.createElement("div")
  holder.innerHTML = html
  return holder
}

/** Reads HTML (a fragment or a whole page) into a document. */
export const htmlToDoc = (html: string): ProseMirrorNode => validateDoc(parser.parse(parse(html) as never).toJSON())

/** The text of an HTML fragment: tags dropped, entities decoded (e.g. a page's `<title>`). */
export const htmlToText = (html: string): string => parse(html).textContent ?? ""
