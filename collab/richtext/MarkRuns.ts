/**
 * Turns a sequence of inline nodes into properly nested mark openings and
 * closings (a mark spanning several text nodes opens once), shared by the
 * HTML and Markdown serializers.
 */
import { markOrder, type ProseMirrorMark, type ProseMirrorNode, sameJson } from "./Schema.ts"

export type InlineEvent =
  | { readonly kind: "open"; readonly mark: ProseMirrorMark }
  | { readonly kind: "close"; readonly mark: ProseMirrorMark }
  | { readonly kind: "node"; readonly node: ProseMirrorNode }

const rank = (type: string) => {
  const index = markOrder.indexOf(type)
  return index === -1 ? markOrder.length : index
}

export const sortedMarks = (node: ProseMirrorNode): Array<ProseMirrorMark> =>
  [...(node.marks ?? [])].sort((a, b) => rank(a.type) - rank(b.type))

const sameMark = (a: ProseMirrorMark, b: ProseMirrorMark) => a.type === b.type && sameJson(a.attrs ?? {}, b.attrs ?? {})

/**
 * Walks `nodes` keeping a stack of open marks: before each node, closes the
 * open marks it does not share (innermost first) and opens its missing ones
 * in schema order. Non-text inline nodes (hard breaks, mentions) keep the
 * marks around them open. Ends with every mark closed.
 */
export const inlineEvents = (nodes: ReadonlyArray<ProseMirrorNode>): Array<InlineEvent> => {
  const events: Array<InlineEvent> = []
  const open: Array<ProseMirrorMark> = []
  for (const node of nodes) {
    const marks = node.type === "text" ? sortedMarks(node) : open.filter((mark) => mark.type !== "code")
    let keep = 0
    while (keep < open.length && keep < marks.length && sameMark(open[keep]!, marks[keep]!)) keep++
    while (open.length > keep) events.push({ kind: "close", mark: open.pop()! })
    for (let i = keep; i < marks.length; i++) {
      open.push(marks[i]!)
      events.push({ kind: "open", mark: marks[i]! })
    }
    events.push({ kind: "node", node })
  }
  while (open.length > 0) events.push({ kind: "close", mark: open.pop()! })
  return events
}
