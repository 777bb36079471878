/**
 * Document ↔ Yjs in the layout of Tiptap's Collaboration extension, through
 * its own binding (@tiptap/y-tiptap, y-prosemirror's fork): the document is
 * `ydoc.getXmlFragment("default")`, each node a `Y.XmlElement`, each run of
 * text one `Y.XmlText` whose formatting attributes are the marks.
 */
import { updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap"
import * as Y from "yjs"
import { richTextSchema } from "./Extensions.ts"
import { markOrder, normalizeInline, type ProseMirrorNode, validateDoc } from "./Schema.ts"

/** The fragment Tiptap's Collaboration extension binds to by default. */
export const FRAGMENT = "default"

/** The document's content fragment. */
export const contentOf = (doc: Y.Doc): Y.XmlFragment => doc.getXmlFragment(FRAGMENT)

const rank = (type: string) => {
  const index = markOrder.indexOf(type)
  return index === -1 ? markOrder.length : index
}

/** The binding's JSON, tidied: text runs merged, marks sorted, empty mark attributes dropped. */
const tidy = (node: ProseMirrorNode): ProseMirrorNode => {
  if (node.type === "text") {
    const marks = (node.marks ?? [])
      .map((mark) => (mark.attrs !== undefined && Object.keys(mark.attrs).length > 0 ? mark : { type: mark.type }))
      .sort((a, b) => rank(a.type) - rank(b.type))
    return marks.length === 0 ? { type: "text", text: node.text ?? "" } : { type: "text", text: node.text ?? "", marks }
  }
  if (node.content === undefined) return node
  const content = normalizeInline(node.content.map(tidy))
  const { content: _content, ...rest } = node
  return content.length === 0 ? rest : { ...rest, content }
}

/** The fragment as a ProseMirror document (no validation: editors may hold nodes this schema doesn't know). */
export const yFragmentToDoc = (fragment: Y.XmlFragment): ProseMirrorNode => {
  const json = yXmlFragmentToProsemirrorJSON(fragment) as ProseMirrorNode
  return { type: "doc", content: (json.content ?? []).map(tidy) }
}

/**
 * Makes `fragment` hold `doc` with the binding's own diff: equal blocks at
 * both ends stay as they are, changed ones are updated in place, so an
 * append or a small REST edit does not disturb editors' cursors. One
 * transaction when the fragment belongs to a document.
 */
export const docToYFragment = (doc: ProseMirrorNode, fragment: Y.XmlFragment): void => {
  const node = richTextSchema.nodeFromJSON(validateDoc(doc))
  const transactor = fragment.doc ?? { transact: (apply: () => void) => apply() }
  updateYFragment(transactor, fragment, node, { mapping: new Map(), isOMark: new Map() })
}

/** Appends blocks at the end of the fragment. */
export const appendToYFragment = (blocks: ReadonlyArray<ProseMirrorNode>, fragment: Y.XmlFragment): void => {
  if (blocks.length === 0) return
  const current = validateDoc(yFragmentToDoc(fragment))
  docToYFragment({ type: "doc", content: [...(current.content ?? []), ...blocks] }, fragment)
}

/** A Yjs state (one update) as a ProseMirror document. */
export const stateToDoc = (state: Uint8Array): ProseMirrorNode => {
  const doc = new Y.Doc({ gc: false })
  try {
    Y.applyUpdate(doc, state)
    return yFragmentToDoc(contentOf(doc))
  } finally {
    doc.destroy()
  }
}

/** A ProseMirror document as a fresh Yjs state (one update). */
export const docToState = (content: ProseMirrorNode): Uint8Array => {
  const doc = new Y.Doc()
  try {
    docToYFragment(content, contentOf(doc))
    return Y.encodeStateAsUpdate(doc)
  } finally {
    doc.destroy()
  }
}
