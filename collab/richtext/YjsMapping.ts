/**
 * ProseMirror JSON ↔ Yjs, exactly as y-prosemirror (Tiptap's Collaboration
 * extension) lays a document out, so server-side edits and browser editors
 * share one shape: the document is `ydoc.getXmlFragment("default")`, each
 * node a `Y.XmlElement(nodeName)` with its non-null attrs as attributes, each
 * run of text nodes one `Y.XmlText` whose formatting attributes are the marks
 * (`{bold: {}, link: {href: …}}`).
 */
import * as Y from "yjs"
import { markOrder, normalizeInline, type ProseMirrorMark, type ProseMirrorNode, sameJson } from "./Schema.ts"

/** The fragment Tiptap's Collaboration extension binds to by default. */
export const FRAGMENT = "default"

/** The document's content fragment. */
export const contentOf = (doc: Y.Doc): Y.XmlFragment => doc.getXmlFragment(FRAGMENT)

type Attributes = Record<string, unknown>

const marksToAttributes = (marks: ReadonlyArray<ProseMirrorMark> | undefined): Attributes => {
  const attributes: Attributes = {}
  for (const mark of marks ?? []) attributes[mark.type] = mark.attrs ?? {}
  return attributes
}

// y-prosemirror suffixes marks that may overlap themselves with "--<hash>".
const markNameOf = (attribute: string) => /^(.*)--[a-zA-Z0-9+/=]{8}$/.exec(attribute)?.[1] ?? attribute

const attributesToMarks = (attributes: Attributes | undefined): Array<ProseMirrorMark> | undefined => {
  if (attributes === undefined) return undefined
  const marks: Array<ProseMirrorMark> = []
  for (const key in attributes) {
    const value = attributes[key]
    if (value === null || value === undefined) continue
    const attrs = typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
    marks.push(Object.keys(attrs).length > 0 ? { type: markNameOf(key), attrs } : { type: markNameOf(key) })
  }
  marks.sort((a, b) => rank(a.type) - rank(b.type))
  return marks.length === 0 ? undefined : marks
}

const rank = (type: string) => {
  const index = markOrder.indexOf(type)
  return index === -1 ? markOrder.length : index
}

const textRunToY = (nodes: ReadonlyArray<ProseMirrorNode>): Y.XmlText => {
  const text = new Y.XmlText()
  text.applyDelta(nodes.map((node) => ({ insert: node.text ?? "", attributes: marksToAttributes(node.marks) })))
  return text
}

/** Groups consecutive text nodes into one XmlText, like y-prosemirror's normalizePNodeContent. */
const childrenToY = (content: ReadonlyArray<ProseMirrorNode> | undefined): Array<Y.XmlElement | Y.XmlText> => {
  const result: Array<Y.XmlElement | Y.XmlText> = []
  let run: Array<ProseMirrorNode> = []
  const flush = () => {
    if (run.length > 0) result.push(textRunToY(run))
    run = []
  }
  for (const child of content ?? []) {
    if (child.type === "text") run.push(child)
    else {
      flush()
      result.push(nodeToY(child))
    }
  }
  flush()
  return result
}

/** One ProseMirror node (not text) as a new, unattached Y.XmlElement. */
export const nodeToY = (node: ProseMirrorNode): Y.XmlElement => {
  const element = new Y.XmlElement(node.type)
  for (const [key, value] of Object.entries(node.attrs ?? {})) {
    // Yjs types attribute values as strings but stores any JSON value; y-prosemirror writes the raw attr.
    if (value !== null && value !== undefined) element.setAttribute(key, value as string)
  }
  const children = childrenToY(node.content)
  if (children.length > 0) element.insert(0, children)
  return element
}

const yTextToNodes = (text: Y.XmlText): Array<ProseMirrorNode> =>
  (text.toDelta() as Array<{ insert: unknown; attributes?: Attributes }>).flatMap((op) => {
    if (typeof op.insert !== "string" || op.insert === "") return []
    const marks = attributesToMarks(op.attributes)
    return [marks === undefined ? { type: "text", text: op.insert } : { type: "text", text: op.insert, marks }]
  })

/** One Y.XmlElement as ProseMirror JSON (no validation: editors may hold nodes this schema doesn't know). */
export const yToNode = (element: Y.XmlElement): ProseMirrorNode => {
  const node: { type: string; attrs?: Record<string, unknown>; content?: Array<ProseMirrorNode> } = { type: element.nodeName }
  const attrs = element.getAttributes() as Record<string, unknown>
  if (Object.keys(attrs).length > 0) node.attrs = attrs
  const content = yChildrenToNodes(element.toArray())
  if (content.length > 0) node.content = content
  return node
}

const yChildrenToNodes = (children: ReadonlyArray<unknown>): Array<ProseMirrorNode> => {
  const nodes: Array<ProseMirrorNode> = []
  for (const child of children) {
    if (child instanceof Y.XmlText) nodes.push(...yTextToNodes(child))
    else if (child instanceof Y.XmlElement) nodes.push(yToNode(child))
  }
  return normalizeInline(nodes)
}

/** The fragment as a ProseMirror document. */
export const yFragmentToDoc = (fragment: Y.XmlFragment): ProseMirrorNode => ({
  type: "doc",
  content: yChildrenToNodes(fragment.toArray())
})

/**
 * Makes `fragment` hold `doc` (a validated document). Top-level blocks equal
 * at the start and at the end are kept as they are, so an append or a small
 * REST edit does not disturb what editors have around their cursors. Run it
 * inside a transaction to make it one change.
 */
export const docToYFragment = (doc: ProseMirrorNode, fragment: Y.XmlFragment): void => {
  const wanted = doc.content ?? []
  const existing = fragment.toArray()
  const current = existing.map((child) => (child instanceof Y.XmlElement ? yToNode(child) : undefined))
  let prefix = 0
  while (prefix < wanted.length && prefix < current.length && current[prefix] !== undefined && sameJson(current[prefix], wanted[prefix]))
    prefix++
  let suffix = 0
  while (
    suffix < wanted.length - prefix &&
    suffix < current.length - prefix &&
    current[current.length - 1 - suffix] !== undefined &&
    sameJson(current[current.length - 1 - suffix], wanted[wanted.length - 1 - suffix])
  )
    suffix++
  const removeCount = current.length - prefix - suffix
  const insert = wanted.slice(prefix, wanted.length - suffix)
  const apply = () => {
    if (removeCount > 0) fragment.delete(prefix, removeCount)
    if (insert.length > 0) fragment.insert(prefix, insert.map(nodeToY))
  }
  if (fragment.doc !== null) fragment.doc.transact(apply)
  else apply()
}

/** Appends blocks at the end of the fragment. */
export const appendToYFragment = (blocks: ReadonlyArray<ProseMirrorNode>, fragment: Y.XmlFragment): void => {
  if (blocks.length === 0) return
  fragment.insert(fragment.length, blocks.map(nodeToY))
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
