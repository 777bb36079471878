/**
 * Inline comment anchors: a text range of a page held as two Yjs relative
 * positions (start, end) in the page's Y.XmlFragment. Relative positions
 * point at the characters themselves, not at offsets, so the range keeps
 * covering the same text while others type before it, inside it or after
 * it; when its text is deleted the anchor becomes detached.
 *
 * Positions are made and resolved on a copy of the document built from its
 * state (`LiveDocuments.snapshot().state`): the same items, the same ids.
 * Resolved ranges are answered as ProseMirror positions (`from`, `to`), the
 * way an editor (Tiptap) highlights them, with the text they now cover.
 */
import * as Y from "yjs"
import { contentOf, nodeSpecs } from "../../richtext/RichText.ts"

interface Segment {
  readonly text: Y.XmlText
  /** Offset of its first character in the flat text. */
  readonly flatStart: number
  /** ProseMirror position of its first character. */
  readonly pmStart: number
  readonly length: number
}

interface Layout {
  readonly flat: string
  readonly segments: ReadonlyArray<Segment>
}

const isLeaf = (name: string) => nodeSpecs[name]?.content.kind === "none"
const INLINE_LEAF = "\uFFFC"

/** The document's text as one string (blocks separated by newlines) and where each Y.XmlText sits in it. */
const layoutOf = (fragment: Y.XmlFragment): Layout => {
  let flat = ""
  let pm = 0
  const segments: Array<Segment> = []
  const separate = () => {
    if (flat !== "" && !flat.endsWith("\n")) flat += "\n"
  }
  const visit = (children: ReadonlyArray<unknown>) => {
    for (const child of children) {
      if (child instanceof Y.XmlText) {
        const text = (child.toDelta() as Array<{ insert: unknown }>)
          .map((op) => (typeof op.insert === "string" ? op.insert : INLINE_LEAF))
          .join("")
        segments.push({ text: child, flatStart: flat.length, pmStart: pm, length: child.length })
        flat += text
        pm += child.length
      } else if (child instanceof Y.XmlElement) {
        if (isLeaf(child.nodeName)) {
          flat += child.nodeName === "hardBreak" ? "\n" : INLINE_LEAF
          pm += 1
        } else {
          separate()
          pm += 1
          visit(child.toArray())
          pm += 1
          separate()
        }
      }
    }
  }
  visit(fragment.toArray())
  return { flat, segments }
}

const withDoc = <A>(state: Uint8Array, use: (doc: Y.Doc, layout: Layout) => A): A => {
  const doc = new Y.Doc({ gc: false })
  try {
    Y.applyUpdate(doc, state)
    return use(doc, layoutOf(contentOf(doc)))
  } finally {
    doc.destroy()
  }
}

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"))

export interface EncodedAnchor {
  /** Base64 of the encoded Yjs relative positions. */
  readonly start: string
  readonly end: string
  /** The text the anchor covered when it was made. */
  readonly quote: string
}

export type AnchorFailure = "not_found" | "not_text" | "empty" | "invalid"

/** Anchors the `occurrence`-th (1-based) appearance of `quote`; the range must start and end inside text. */
export const anchorQuote = (state: Uint8Array, quote: string, occurrence = 1): EncodedAnchor | AnchorFailure =>
  withDoc(state, (_doc, layout) => {
    if (quote.length === 0) return "empty"
    let at = -1
    for (let seen = 0; seen < occurrence; seen++) {
      at = layout.flat.indexOf(quote, at + 1)
      if (at === -1) return "not_found"
    }
    const first = layout.segments.find((s) => at >= s.flatStart && at < s.flatStart + s.length)
    const lastChar = at + quote.length - 1
    const last = layout.segments.find((s) => lastChar >= s.flatStart && lastChar < s.flatStart + s.length)
    if (first === undefined || last === undefined) return "not_text"
    // The start sticks to the first quoted character, the end to the last one.
    const start = Y.createRelativePositionFromTypeIndex(first.text, at - first.flatStart, 0)
    const end = Y.createRelativePositionFromTypeIndex(last.text, lastChar - last.flatStart + 1, -1)
    return { start: toBase64(Y.encodeRelativePosition(start)), end: toBase64(Y.encodeRelativePosition(end)), quote }
  })

export interface ResolvedAnchor {
  /** ProseMirror positions of the range now (null when detached). */
  readonly from: number | null
  readonly to: number | null
  /** The text the range covers now ("" when detached). */
  readonly text: string
  /** The anchored text was deleted. */
  readonly detached: boolean
}

const locate = (doc: Y.Doc, layout: Layout, encoded: Uint8Array) => {
  const absolute = Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(encoded), doc)
  if (absolute === null) return undefined
  const segment = layout.segments.find((s) => s.text === absolute.type)
  if (segment === undefined) return undefined
  return { flat: segment.flatStart + absolute.index, pm: segment.pmStart + absolute.index }
}

/** Where the anchor is now. */
export const resolveAnchor = (state: Uint8Array, start: Uint8Array, end: Uint8Array): ResolvedAnchor =>
  withDoc(state, (doc, layout) => {
    try {
      const from = locate(doc, layout, start)
      const to = locate(doc, layout, end)
      if (from === undefined || to === undefined || to.flat <= from.flat) return { from: null, to: null, text: "", detached: true }
      return { from: from.pm, to: to.pm, text: layout.flat.slice(from.flat, to.flat), detached: false }
    } catch {
      return { from: null, to: null, text: "", detached: true }
    }
  })

/** Checks positions an editor computed itself (base64 of `Y.encodeRelativePosition`); answers the anchor with its current text. */
export const anchorPositions = (state: Uint8Array, start: string, end: string): EncodedAnchor | AnchorFailure => {
  let startBytes: Uint8Array
  let endBytes: Uint8Array
  try {
    startBytes = fromBase64(start)
    endBytes = fromBase64(end)
    Y.decodeRelativePosition(startBytes)
    Y.decodeRelativePosition(endBytes)
  } catch {
    return "invalid"
  }
  const resolved = resolveAnchor(state, startBytes, endBytes)
  if (resolved.detached) return "not_found"
  return { start, end, quote: resolved.text }
}

export const decodeStored = fromBase64
export const encodeStored = toBase64
