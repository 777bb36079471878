/**
 * Validation of callers' ProseMirror JSON against the schema of the Tiptap
 * extensions (`Extensions.ts`): node and mark types, where each may stand
 * (the schema's content expressions), attributes and their defaults. Errors
 * name the path of the offender (`content[2].attrs.level`). Validation also
 * normalizes: attributes get their defaults (unknown ones are dropped, as an
 * editor would), adjacent text nodes with equal marks merge, empty text
 * disappears, marks are sorted by rank — so every converter sees one shape.
 * Images standing where blocks go (documents stored when images were blocks)
 * are read as a paragraph holding them.
 */
import type { ContentMatch, MarkType, NodeType } from "@tiptap/pm/model"
import { richTextSchema } from "./Extensions.ts"

/** A ProseMirror JSON node in the rich-text schema. */
export type ProseMirrorNode = {
  readonly type: string
  readonly attrs?: Record<string, unknown>
  readonly content?: ReadonlyArray<ProseMirrorNode>
  readonly marks?: ReadonlyArray<{ readonly type: string; readonly attrs?: Record<string, unknown> }>
  readonly text?: string
}
export type ProseMirrorMark = NonNullable<ProseMirrorNode["marks"]>[number]

/** Why a document was refused: `path` points at the offending value (e.g. `content[2].attrs.level`). */
export class InvalidRichText extends Error {
  readonly _tag = "InvalidRichText"
  constructor(
    readonly path: string,
    readonly reason: string
  ) {
    super(`${path === "" ? "document" : path}: ${reason}`)
    this.name = "InvalidRichText"
  }
}

/** Attributes without which a node or mark means nothing (the schema gives them a null default for editors). */
const REQUIRED = new Set(["image.src", "link.href", "mention.id"])
/** Integer attributes' ranges. */
const RANGES: Readonly<Record<string, readonly [number, number]>> = {
  level: [1, 6],
  start: [0, 999_999_999],
  colspan: [1, 1000],
  rowspan: [1, 65534]
}
const INTEGER_ARRAYS = new Set(["colwidth"])

/** What a node may contain, derived from the schema (for callers that inspect structure). */
export interface NodeSpec {
  readonly group: "block" | "inline" | "structural"
  readonly content: { readonly kind: "none" | "inline" | "text" | "blocks" }
  readonly attrs: Readonly<Record<string, { readonly default?: unknown }>>
}

const attrSpecs = (type: NodeType | MarkType): Record<string, { default?: unknown }> => {
  const result: Record<string, { default?: unknown }> = {}
  for (const [name, spec] of Object.entries(type.spec.attrs ?? {})) {
    result[name] = REQUIRED.has(`${type.name}.${name}`) ? {} : { default: (spec as { default?: unknown }).default }
  }
  return result
}

export const nodeSpecs: Readonly<Record<string, NodeSpec>> = Object.fromEntries(
  Object.values(richTextSchema.nodes).map((type) => [
    type.name,
    {
      group: type.isInline ? "inline" : type.isInGroup("block") ? "block" : "structural",
      content: { kind: type.isLeaf ? "none" : type.spec.code ? "text" : type.inlineContent ? "inline" : "blocks" },
      attrs: attrSpecs(type)
    } satisfies NodeSpec
  ])
)

export const markSpecs: Readonly<Record<string, { readonly attrs: Readonly<Record<string, { readonly default?: unknown }>> }>> =
  Object.fromEntries(Object.values(richTextSchema.marks).map((type) => [type.name, { attrs: attrSpecs(type) }]))

/** Marks are kept (and serialized) in this order: outermost first. */
export const markOrder: ReadonlyArray<string> = Object.keys(richTextSchema.marks) // the schema lists marks by rank
const markRank = (name: string) => markOrder.indexOf(name)

export const isKnownNode = (type: string): boolean => Object.hasOwn(richTextSchema.nodes, type)
export const isKnownMark = (type: string): boolean => Object.hasOwn(richTextSchema.marks, type)

const MAX_DEPTH = 64
const MAX_STRING = 16 * 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const at = (path: string, key: string | number) => (typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`)

const checkAttr = (path: string, owner: string, name: string, fallback: unknown, value: unknown): unknown => {
  const required = REQUIRED.has(`${owner}.${name}`)
  // The default's type says the attribute's type (null: an optional string).
  const kind = INTEGER_ARRAYS.has(name)
    ? "integerArray"
    : typeof fallback === "number"
      ? "integer"
      : typeof fallback === "boolean"
        ? "boolean"
        : "string"
  const nullable = !required && fallback === null
  if (value === undefined || (value === null && !nullable)) {
    if (required) throw new InvalidRichText(path, "is required")
    return fallback
  }
  if (value === null) return null
  switch (kind) {
    case "string":
      if (typeof value !== "string") throw new InvalidRichText(path, nullable ? "must be a string or null" : "must be a string")
      return value
    case "boolean":
      if (typeof value !== "boolean") throw new InvalidRichText(path, "must be a boolean")
      return value
    case "integer": {
      // Editors and Yjs round-trips sometimes carry integers as strings ("2").
      const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value
      if (typeof n !== "number" || !Number.isInteger(n)) throw new InvalidRichText(path, "must be an integer")
      const range = RANGES[name]
      if (range !== undefined && (n < range[0] || n > range[1]))
        throw new InvalidRichText(path, `must be between ${range[0]} and ${range[1]}`)
      return n
    }
    case "integerArray":
      if (!Array.isArray(value) || !value.every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0)) {
        throw new InvalidRichText(path, "must be an array of non-negative integers or null")
      }
      return value
  }
}

/** The schema's attributes, checked and defaulted; others are dropped (no editor could keep them). */
const checkAttrs = (path: string, type: NodeType | MarkType, attrs: unknown): Record<string, unknown> | undefined => {
  if (attrs !== undefined && attrs !== null && !isRecord(attrs)) throw new InvalidRichText(path, "must be an object")
  const given = (attrs ?? {}) as Record<string, unknown>
  const specs = Object.entries(type.spec.attrs ?? {})
  if (specs.length === 0) return undefined
  const result: Record<string, unknown> = {}
  for (const [name, spec] of specs) {
    result[name] = checkAttr(at(path, name), type.name, name, (spec as { default?: unknown }).default, given[name])
  }
  return result
}

const checkMarks = (path: string, marks: unknown, parent: NodeType): Array<ProseMirrorMark> | undefined => {
  if (marks === undefined || marks === null) return undefined
  if (!Array.isArray(marks)) throw new InvalidRichText(path, "must be an array")
  const seen = new Set<string>()
  const result: Array<{ mark: ProseMirrorMark; rank: number }> = []
  marks.forEach((mark, index) => {
    const markPath = at(path, index)
    if (!isRecord(mark)) throw new InvalidRichText(markPath, "must be an object with a type")
    const name = mark.type
    if (typeof name !== "string") throw new InvalidRichText(at(markPath, "type"), "must be a string")
    const type = Object.hasOwn(richTextSchema.marks, name) ? richTextSchema.marks[name]! : undefined
    if (type === undefined) {
      throw new InvalidRichText(at(markPath, "type"), `unknown mark type "${name}" (known: ${markOrder.join(", ")})`)
    }
    if (!parent.allowsMarkType(type)) throw new InvalidRichText(path, `marks are not allowed here ("${parent.name}" holds plain text)`)
    if (seen.has(name)) return // a mark type applies once to a text run
    seen.add(name)
    const attrs = checkAttrs(at(markPath, "attrs"), type, mark.attrs)
    result.push({ mark: attrs === undefined ? { type: name } : { type: name, attrs }, rank: markRank(name) })
  })
  result.sort((a, b) => a.rank - b.rank)
  return result.length === 0 ? undefined : result.map((entry) => entry.mark)
}

/** Structural equality of JSON values (key order ignored; a null or missing key are the same, as in Yjs attributes). */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined && a[k] !== null)
    const otherKeys = Object.keys(b).filter((k) => b[k] !== undefined && b[k] !== null)
    return keys.length === otherKeys.length && keys.every((k) => sameJson(a[k], b[k]))
  }
  return false
}

export const sameMarks = (a: ReadonlyArray<ProseMirrorMark> | undefined, b: ReadonlyArray<ProseMirrorMark> | undefined): boolean => {
  const left = a ?? []
  const right = b ?? []
  if (left.length !== right.length) return false
  return left.every((mark, i) => mark.type === right[i]!.type && sameJson(mark.attrs ?? {}, right[i]!.attrs ?? {}))
}

/** Merges adjacent text nodes with equal marks and drops empty ones. */
export const normalizeInline = (nodes: ReadonlyArray<ProseMirrorNode>): Array<ProseMirrorNode> => {
  const result: Array<ProseMirrorNode> = []
  for (const node of nodes) {
    if (node.type === "text") {
      if (node.text === undefined || node.text === "") continue
      const last = result[result.length - 1]
      if (last !== undefined && last.type === "text" && sameMarks(last.marks, node.marks)) {
        result[result.length - 1] = { ...last, text: last.text! + node.text }
        continue
      }
    }
    result.push(node)
  }
  return result
}

const expected = (match: ContentMatch): string => {
  const names = Array.from({ length: match.edgeCount }, (_, i) => match.edge(i).type.name)
  return names.length === 0 ? "nothing more" : names.join(" or ")
}

const unknownNode = (path: string, name: string) =>
  new InvalidRichText(
    at(path, "type"),
    `unknown node type "${name}" (known: ${Object.keys(richTextSchema.nodes)
      .filter((t) => t !== "doc")
      .join(", ")})`
  )

const checkNode = (value: unknown, path: string, type: NodeType, depth: number): ProseMirrorNode => {
  if (type.isText) {
    const text = (value as Record<string, unknown>).text
    if (typeof text !== "string") throw new InvalidRichText(at(path, "text"), "must be a string")
    if (text.length > MAX_STRING) throw new InvalidRichText(at(path, "text"), "is too long")
    return { type: "text", text }
  }
  const record = value as Record<string, unknown>
  if (record.text !== undefined) throw new InvalidRichText(at(path, "text"), `only text nodes carry text, not "${type.name}"`)
  if (!type.isInline && record.marks !== undefined && !(Array.isArray(record.marks) && record.marks.length === 0)) {
    throw new InvalidRichText(at(path, "marks"), `only inline nodes carry marks, not "${type.name}"`)
  }
  const attrs = checkAttrs(at(path, "attrs"), type, record.attrs)
  const content = checkContent(record.content, at(path, "content"), type, depth)
  const node: { type: string; attrs?: Record<string, unknown>; content?: Array<ProseMirrorNode> } = { type: type.name }
  if (attrs !== undefined) node.attrs = attrs
  if (content.length > 0) node.content = content
  return node
}

const isImage = (value: unknown) => isRecord(value) && value.type === "image"

/** Runs of images among blocks, each wrapped in a paragraph (images were blocks before they became inline). */
const wrapBlockImages = (values: ReadonlyArray<unknown>): Array<unknown> => {
  const result: Array<unknown> = []
  for (const value of values) {
    const previous = result[result.length - 1]
    if (!isImage(value)) result.push(value)
    else if (isRecord(previous) && previous.wrapsImages === true) (previous.content as Array<unknown>).push(value)
    else result.push({ type: "paragraph", content: [value], wrapsImages: true })
  }
  return result.map((value) => (isRecord(value) && value.wrapsImages === true ? { type: "paragraph", content: value.content } : value))
}

const checkContent = (value: unknown, path: string, parent: NodeType, depth: number): Array<ProseMirrorNode> => {
  if (depth > MAX_DEPTH) throw new InvalidRichText(path, `nesting deeper than ${MAX_DEPTH} levels`)
  if (value !== undefined && value !== null && !Array.isArray(value)) throw new InvalidRichText(path, "must be an array")
  const given = (value ?? []) as Array<unknown>
  const values = parent.inlineContent || parent.isLeaf || !given.some(isImage) ? given : wrapBlockImages(given)
  if (parent.isLeaf && values.length > 0) throw new InvalidRichText(path, `"${parent.name}" has no content`)
  let match: ContentMatch = parent.contentMatch
  const children: Array<ProseMirrorNode> = []
  values.forEach((child, index) => {
    const childPath = at(path, index)
    if (!isRecord(child)) throw new InvalidRichText(childPath, "must be a node object with a type")
    const name = child.type
    if (typeof name !== "string") throw new InvalidRichText(at(childPath, "type"), "must be a string")
    const type = Object.hasOwn(richTextSchema.nodes, name) ? richTextSchema.nodes[name]! : undefined
    if (type === undefined || type === richTextSchema.topNodeType) throw unknownNode(childPath, name)
    const next = match.matchType(type)
    if (next === null) throw new InvalidRichText(at(childPath, "type"), `"${name}" is not allowed here (expected ${expected(match)})`)
    match = next
    const node = checkNode(child, childPath, type, depth + 1)
    const marks = type.isInline ? checkMarks(at(childPath, "marks"), child.marks, parent) : undefined
    children.push(marks === undefined ? node : { ...node, marks })
  })
  if (!match.validEnd) {
    throw new InvalidRichText(path, children.length === 0 ? `"${parent.name}" needs content` : `"${parent.name}" needs more content`)
  }
  return parent.inlineContent ? normalizeInline(children) : children
}

/**
 * Checks ProseMirror JSON against the schema and returns it normalized.
 * Throws `InvalidRichText` (with the path of the first problem) otherwise.
 */
export const validateDoc = (input: unknown): ProseMirrorNode => {
  if (!isRecord(input)) throw new InvalidRichText("", "must be a ProseMirror document object")
  if (input.type !== "doc") throw new InvalidRichText("type", `the root node must be "doc", got ${JSON.stringify(input.type)}`)
  return { type: "doc", content: checkContent(input.content, "content", richTextSchema.topNodeType, 0) }
}

export type CheckedDoc =
  | { readonly _tag: "Valid"; readonly doc: ProseMirrorNode }
  | { readonly _tag: "Invalid"; readonly path: string; readonly message: string }

/** `validateDoc` without throwing, for request handlers. */
export const checkDoc = (input: unknown): CheckedDoc => {
  try {
    return { _tag: "Valid", doc: validateDoc(input) }
  } catch (error) {
    if (error instanceof InvalidRichText) return { _tag: "Invalid", path: error.path, message: error.reason }
    throw error
  }
}

/** An empty document: what a new page holds. */
export const emptyDoc = (): ProseMirrorNode => ({ type: "doc", content: [] })

/** The attribute `name` of a node, or its schema default. */
export const attrOf = (node: ProseMirrorNode, name: string): unknown => {
  const value = node.attrs?.[name]
  if (value !== undefined) return value
  return nodeSpecs[node.type]?.attrs[name]?.default
}
