/**
 * HTML ↔ document with ProseMirror's DOM serializer and parser driven by the
 * Tiptap extensions' own renderHTML/parseHTML rules — what @tiptap/html's
 * server entry does, but on one long-lived happy-dom window and the cached
 * schema (@tiptap/html opens a window and rebuilds the schema per call,
 * ~10 ms each). Links and images with unsafe URLs are rendered without them;
 * parsing drops scripts, styles and any element the schema does not know,
 * keeping its text. Inline content nests its marks as a writer would
 * (`<em>a <strong>b</strong> c</em>`, not the schema's rank order that closes
 * and reopens the emphasis around "b").
 */
import { DOMParser, DOMSerializer, type Fragment, type Mark, type Node as PmNode } from "@tiptap/pm/model"
import { createRequire } from "node:module"
import { richTextSchema } from "./Extensions.ts"
import { type ProseMirrorNode, validateDoc } from "./Schema.ts"

export { escapeHtml, safeUrl } from "./Urls.ts"

type HappyDocument = InstanceType<typeof import("happy-dom").Window>["document"]

/**
 * The window's document, made on first use: loading happy-dom costs about 0.3 s of CPU, and most processes (a
 * server start, a cluster node, a bench subject) never convert HTML. Node 20.19+ loads an ES module synchronously
 * through `require`, so the converters stay synchronous.
 */
let windowDocument: HappyDocument | undefined
const markupDocument = (): HappyDocument => {
  if (windowDocument === undefined) {
    const { Window } = createRequire(import.meta.url)("happy-dom") as typeof import("happy-dom")
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
    windowDocument = window.document
  }
  return windowDocument
}
/** When two marks cover the same run: the one listed first goes outside (`***a***` → `<em><strong>`, as CommonMark writes it). */
const OUTSIDE_FIRST = ["link", "italic", "bold", "strike", "highlight", "code"]

// The server has no DOM typings: the serializer's own parameter types stand for them.
type Serialize = DOMSerializer["serializeFragment"]
type DomParent = ReturnType<Serialize>

/**
 * ProseMirror's DOM serializer, except for inline content: a mark already
 * open stays open while the next node carries it, and marks opened together
 * nest by how far they reach (the longest outside). A line break keeps the
 * marks around it. Block content is serialized as ProseMirror does.
 */
class NestingSerializer extends DOMSerializer {
  override serializeFragment(
    fragment: Fragment,
    options: NonNullable<Parameters<Serialize>[1]> = {},
    target?: Parameters<Serialize>[2]
  ): DomParent {
    const doc = options.document
    if (fragment.firstChild?.isInline !== true || doc === undefined) return super.serializeFragment(fragment, options, target)
    const root = target ?? doc.createDocumentFragment()
    const nodes: Array<PmNode> = []
    fragment.forEach((node) => {
      nodes.push(node)
    })
    const open: Array<{ readonly mark: Mark; readonly content: DomParent }> = []
    const reach = (mark: Mark, from: number) => {
      let end = from
      while (end < nodes.length && (nodes[end]!.type.name === "hardBreak" || mark.isInSet(nodes[end]!.marks))) end++
      return end - from
    }
    nodes.forEach((node, index) => {
      if (node.type.name !== "hardBreak") {
        let keep = 0
        while (keep < open.length && open[keep]!.mark.isInSet(node.marks)) keep++
        open.length = keep
        const opening = node.marks
          .filter((mark) => !open.some((entry) => entry.mark.eq(mark)) && this.marks[mark.type.name] !== undefined)
          .map((mark) => ({ mark, reach: reach(mark, index), rank: OUTSIDE_FIRST.indexOf(mark.type.name) }))
          .sort((a, b) => b.reach - a.reach || a.rank - b.rank)
        for (const { mark } of opening) {
          const rendered = DOMSerializer.renderSpec(doc, this.marks[mark.type.name]!(mark, true))
          ;(open[open.length - 1]?.content ?? root).appendChild(rendered.dom)
          open.push({ mark, content: rendered.contentDOM ?? rendered.dom })
        }
      }
      ;(open[open.length - 1]?.content ?? root).appendChild(this.serializeNode(node.mark([]), options))
    })
    return root
  }
}

const serializer = new NestingSerializer(DOMSerializer.nodesFromSchema(richTextSchema), DOMSerializer.marksFromSchema(richTextSchema))
const parser = DOMParser.fromSchema(richTextSchema)

/** The document as HTML (the markup Tiptap's editor renders). */
export const docToHtml = (doc: ProseMirrorNode): string => {
  const document = markupDocument()
  const wrap = document.createElement("div")
  // happy-dom's Document stands in for the DOM's (the server has no DOM typings).
  serializer.serializeFragment(richTextSchema.nodeFromJSON(validateDoc(doc)).content, { document: document as never }, wrap as never)
  return wrap.innerHTML
}

/** The markup parsed as the content of an element (html/head/body tags of a whole page are dropped, their content kept). */
const parse = (html: string) => {
  const holder = markupDocument().createElement("div")
  holder.innerHTML = html
  return holder
}

/** Reads HTML (a fragment or a whole page) into a document. */
export const htmlToDoc = (html: string): ProseMirrorNode => validateDoc(parser.parse(parse(html) as never).toJSON())

/** The text of an HTML fragment: tags dropped, entities decoded (e.g. a page's `<title>`). */
export const htmlToText = (html: string): string => parse(html).textContent ?? ""
