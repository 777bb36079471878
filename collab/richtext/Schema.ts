/**
 * The rich-text schema shared by wiki pages and feedback milestone articles:
 * the nodes and marks of a Tiptap StarterKit-like editor (plus task lists,
 * tables, images, highlight and mentions), and the validation of ProseMirror
 * JSON against it. Validation also normalizes: known attributes get their
 * defaults, adjacent text nodes with equal marks merge, empty text disappears,
 * so every converter downstream sees one canonical shape.
 */
import type { ProseMirrorNode } from "../LiveDocuments.ts"

export type { ProseMirrorNode }
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

type AttrType = "string" | "nullableString" | "integer" | "boolean" | "nullableIntegerArray"

interface AttrSpec {
  readonly type: AttrType
  /** Absent: the attribute is required. */
  readonly default?: unknown
  readonly min?: number
  readonly max?: number
}

/** What a node may contain. */
type ContentRule =
  | { readonly kind: "none" }
  | { readonly kind: "blocks"; readonly min: number }
  | { readonly kind: "inline" }
  /** Plain text only (code blocks): no marks, no inline nodes. */
  | { readonly kind: "text" }
  | { readonly kind: "only"; readonly types: ReadonlyArray<string>; readonly min: number }

interface NodeSpec {
  readonly group: "block" | "inline" | "structural"
  readonly content: ContentRule
  readonly attrs: Readonly<Record<string, AttrSpec>>
}

const cellAttrs = {
  colspan: { type: "integer", default: 1, min: 1, max: 1000 },
  rowspan: { type: "integer", default: 1, min: 1, max: 65534 },
  colwidth: { type: "nullableIntegerArray", default: null }
} as const satisfies Record<string, AttrSpec>

export const nodeSpecs: Readonly<Record<string, NodeSpec>> = {
  doc: { group: "structural", content: { kind: "blocks", min: 0 }, attrs: {} },
  paragraph: { group: "block", content: { kind: "inline" }, attrs: {} },
  heading: { group: "block", content: { kind: "inline" }, attrs: { level: { type: "integer", default: 1, min: 1, max: 6 } } },
  bulletList: { group: "block", content: { kind: "only", types: ["listItem"], min: 1 }, attrs: {} },
  orderedList: {
    group: "block",
    content: { kind: "only", types: ["listItem"], min: 1 },
    attrs: { start: { type: "integer", default: 1, min: 0, max: 999_999_999 } }
  },
  listItem: { group: "structural", content: { kind: "blocks", min: 1 }, attrs: {} },
  taskList: { group: "block", content: { kind: "only", types: ["taskItem"], min: 1 }, attrs: {} },
  taskItem: { group: "structural", content: { kind: "blocks", min: 1 }, attrs: { checked: { type: "boolean", default: false } } },
  codeBlock: { group: "block", content: { kind: "text" }, attrs: { language: { type: "nullableString", default: null } } },
  blockquote: { group: "block", content: { kind: "blocks", min: 1 }, attrs: {} },
  horizontalRule: { group: "block", content: { kind: "none" }, attrs: {} },
  image: {
    // A block, as in Tiptap's Image extension (inline: false): parsers lift images out of paragraphs.
    group: "block",
    content: { kind: "none" },
    attrs: { src: { type: "string" }, alt: { type: "nullableString", default: null }, title: { type: "nullableString", default: null } }
  },
  table: { group: "block", content: { kind: "only", types: ["tableRow"], min: 1 }, attrs: {} },
  tableRow: { group: "structural", content: { kind: "only", types: ["tableHeader", "tableCell"], min: 1 }, attrs: {} },
  tableHeader: { group: "structural", content: { kind: "blocks", min: 1 }, attrs: cellAttrs },
  tableCell: { group: "structural", content: { kind: "blocks", min: 1 }, attrs: cellAttrs },
  hardBreak: { group: "inline", content: { kind: "none" }, attrs: {} },
  mention: {
    group: "inline",
    content: { kind: "none" },
    attrs: { id: { type: "string" }, label: { type: "nullableString", default: null } }
  },
  text: { group: "inline", content: { kind: "none" }, attrs: {} }
}

export const markSpecs: Readonly<Record<string, { readonly attrs: Readonly<Record<string, AttrSpec>> }>> = {
  bold: { attrs: {} },
  italic: { attrs: {} },
  strike: { attrs: {} },
  code: { attrs: {} },
  highlight: { attrs: { color: { type: "nullableString", default: null } } },
  link: {
    attrs: {
      href: { type: "string" },
      target: { type: "nullableString", default: null },
      rel: { type: "nullableString", default: null },
      class: { type: "nullableString", default: null },
      title: { type: "nullableString", default: null }
    }
  }
}

/** Marks are kept (and serialized) in this order: outermost first. */
export const markOrder: ReadonlyArray<string> = ["link", "bold", "italic", "strike", "highlight", "code"]

export const isKnownNode = (type: string): boolean => Object.hasOwn(nodeSpecs, type)
export const isKnownMark = (type: string): boolean => Object.hasOwn(markSpecs, type)

const MAX_DEPTH = 64
const MAX_STRING = 16 * 1024 * 1024

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const at = (path: string, key: string | number) => (typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`)

const checkAttr = (path: string, spec: AttrSpec, value: unknown): unknown => {
  if (value === undefined || (value === null && spec.type !== "nullableString" && spec.type !== "nullableIntegerArray")) {
    if (spec.default === undefined) throw new InvalidRichText(path, "is required")
    return spec.default
  }
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") throw new InvalidRichText(path, "must be a string")
      return value
    case "nullableString":
      if (value !== null && typeof value !== "string") throw new InvalidRichText(path, "must be a string or null")
      return value
    case "boolean":
      if (typeof value !== "boolean") throw new InvalidRichText(path, "must be a boolean")
      return value
    case "integer": {
      // Editors and Yjs round-trips sometimes carry integers as strings ("2").
      const n = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value
      if (typeof n !== "number" || !Number.isInteger(n)) throw new InvalidRichText(path, "must be an integer")
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        throw new InvalidRichText(path, `must be between ${spec.min} and ${spec.max}`)
      }
      return n
    }
    case "nullableIntegerArray":
      if (value === null) return null
      if (!Array.isArray(value) || !value.every((v) => typeof v === "number" && Number.isInteger(v) && v >= 0)) {
        throw new InvalidRichText(path, "must be an array of non-negative integers or null")
      }
      return value
  }
}

/** Known attributes are checked and defaulted; unknown ones (editor extensions: textAlign, ids…) are kept when they are plain JSON scalars. */
const checkAttrs = (path: string, specs: Readonly<Record<string, AttrSpec>>, attrs: unknown): Record<string, unknown> | undefined => {
  if (attrs !== undefined && attrs !== null && !isRecord(attrs)) throw new InvalidRichText(path, "must be an object")
  const given = (attrs ?? {}) as Record<string, unknown>
  const result: Record<string, unknown> = {}
  for (const name in specs) result[name] = checkAttr(at(path, name), specs[name]!, given[name])
  for (const name in given) {
    if (Object.hasOwn(specs, name)) continue
    const value = given[name]
    if (value === null || value === undefined) continue
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new InvalidRichText(at(path, name), "unknown attribute values must be strings, numbers or booleans")
    }
    result[name] = value
  }
  return Object.keys(result).length === 0 ? undefined : result
}

const checkMarks = (path: string, marks: unknown, allowed: boolean): Array<ProseMirrorMark> | undefined => {
  if (marks === undefined || marks === null) return undefined
  if (!Array.isArray(marks)) throw new InvalidRichText(path, "must be an array")
  if (marks.length > 0 && !allowed) throw new InvalidRichText(path, "marks are not allowed here (code blocks hold plain text)")
  const seen = new Set<string>()
  const result: Array<ProseMirrorMark> = []
  marks.forEach((mark, index) => {
    const markPath = at(path, index)
    if (!isRecord(mark)) throw new InvalidRichText(markPath, "must be an object with a type")
    const type = mark.type
    if (typeof type !== "string") throw new InvalidRichText(at(markPath, "type"), "must be a string")
    if (!isKnownMark(type)) {
      throw new InvalidRichText(at(markPath, "type"), `unknown mark type "${type}" (known: ${Object.keys(markSpecs).join(", ")})`)
    }
    if (seen.has(type)) return // a mark type applies once to a text run
    seen.add(type)
    const attrs = checkAttrs(at(markPath, "attrs"), markSpecs[type]!.attrs, mark.attrs)
    result.push(attrs === undefined ? { type } : { type, attrs })
  })
  result.sort((a, b) => markOrder.indexOf(a.type) - markOrder.indexOf(b.type))
  return result.length === 0 ? undefined : result
}

export const sameMarks = (a: ReadonlyArray<ProseMirrorMark> | undefined, b: ReadonlyArray<ProseMirrorMark> | undefined): boolean => {
  const left = a ?? []
  const right = b ?? []
  if (left.length !== right.length) return false
  return left.every((mark, i) => mark.type === right[i]!.type && sameJson(mark.attrs ?? {}, right[i]!.attrs ?? {}))
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

const build = (type: string, attrs: Record<string, unknown> | undefined, content: Array<ProseMirrorNode> | undefined): ProseMirrorNode => {
  const node: { type: string; attrs?: Record<string, unknown>; content?: Array<ProseMirrorNode> } = { type }
  if (attrs !== undefined) node.attrs = attrs
  if (content !== undefined && content.length > 0) node.content = content
  return node
}

type Place = "block" | "inline" | "text" | { readonly only: ReadonlyArray<string> }

const describePlace = (place: Place) =>
  place === "block" ? "a block node" : place === "inline" ? "an inline node" : place === "text" ? "plain text" : place.only.join(" or ")

const checkNode = (value: unknown, path: string, place: Place, depth: number): ProseMirrorNode => {
  if (depth > MAX_DEPTH) throw new InvalidRichText(path, `nesting deeper than ${MAX_DEPTH} levels`)
  if (!isRecord(value)) throw new InvalidRichText(path, "must be a node object with a type")
  const type = value.type
  if (typeof type !== "string") throw new InvalidRichText(at(path, "type"), "must be a string")
  const spec = nodeSpecs[type]
  if (spec === undefined || type === "doc") {
    throw new InvalidRichText(
      at(path, "type"),
      `unknown node type "${type}" (known: ${Object.keys(nodeSpecs)
        .filter((t) => t !== "doc")
        .join(", ")})`
    )
  }
  const fits =
    place === "block"
      ? spec.group === "block"
      : place === "inline"
        ? spec.group === "inline"
        : place === "text"
          ? type === "text"
          : place.only.includes(type)
  if (!fits) throw new InvalidRichText(at(path, "type"), `"${type}" is not allowed here (expected ${describePlace(place)})`)

  if (type === "text") {
    const text = value.text
    if (typeof text !== "string") throw new InvalidRichText(at(path, "text"), "must be a string")
    if (text.length > MAX_STRING) throw new InvalidRichText(at(path, "text"), "is too long")
    const marks = checkMarks(at(path, "marks"), value.marks, place !== "text")
    return marks === undefined ? { type, text } : { type, text, marks }
  }
  if (value.text !== undefined) throw new InvalidRichText(at(path, "text"), `only text nodes carry text, not "${type}"`)
  if (value.marks !== undefined && !(Array.isArray(value.marks) && value.marks.length === 0)) {
    throw new InvalidRichText(at(path, "marks"), `only text nodes carry marks, not "${type}"`)
  }
  const attrs = checkAttrs(at(path, "attrs"), spec.attrs, value.attrs)
  const content = checkContent(value.content, at(path, "content"), spec.content, type, depth)
  return build(type, attrs, content)
}

const checkContent = (value: unknown, path: string, rule: ContentRule, type: string, depth: number): Array<ProseMirrorNode> | undefined => {
  if (value === undefined || value === null) {
    if ((rule.kind === "blocks" || rule.kind === "only") && rule.min > 0) throw new InvalidRichText(path, `"${type}" needs content`)
    return undefined
  }
  if (!Array.isArray(value)) throw new InvalidRichText(path, "must be an array")
  if (rule.kind === "none") {
    if (value.length > 0) throw new InvalidRichText(path, `"${type}" has no content`)
    return undefined
  }
  const place: Place =
    rule.kind === "blocks" ? "block" : rule.kind === "inline" ? "inline" : rule.kind === "text" ? "text" : { only: rule.types }
  const children = value.map((child, index) => checkNode(child, at(path, index), place, depth + 1))
  const normalized = rule.kind === "inline" || rule.kind === "text" ? normalizeInline(children) : children
  if ((rule.kind === "blocks" || rule.kind === "only") && normalized.length < rule.min) {
    throw new InvalidRichText(path, `"${type}" needs at least ${rule.min} child node${rule.min > 1 ? "s" : ""}`)
  }
  return normalized
}

/**
 * Checks ProseMirror JSON against the schema and returns it normalized.
 * Throws `InvalidRichText` (with the path of the first problem) otherwise.
 */
export const validateDoc = (input: unknown): ProseMirrorNode => {
  if (!isRecord(input)) throw new InvalidRichText("", "must be a ProseMirror document object")
  if (input.type !== "doc") throw new InvalidRichText("type", `the root node must be "doc", got ${JSON.stringify(input.type)}`)
  const content = checkContent(input.content, "content", nodeSpecs.doc!.content, "doc", 0)
  return { type: "doc", content: content ?? [] }
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
