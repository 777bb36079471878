/**
 * The route table: a segment trie built from the operation registry. Static
 * segments win over `{param}` segments, so `/api-keys/current` and
 * `/api-keys/{keyId}` coexist. A path that matches with another method gives
 * the allowed methods (405), a path that matches nothing gives 404.
 */
import type { AnyOperation, HttpMethod } from "./Operation.ts"

interface Node {
  readonly statics: Map<string, Node>
  param: { readonly name: string; readonly node: Node } | undefined
  readonly methods: Map<HttpMethod, AnyOperation>
}

const node = (): Node => ({ statics: new Map(), param: undefined, methods: new Map() })

export type Match =
  | { readonly _tag: "Found"; readonly operation: AnyOperation; readonly params: Record<string, string> }
  | { readonly _tag: "MethodNotAllowed"; readonly allowed: ReadonlyArray<HttpMethod> }
  | { readonly _tag: "NotFound" }

/** The non-empty segments of a path ("/a//b/" → ["a", "b"]), in one pass. */
const splitPath = (path: string): Array<string> => {
  const segments: Array<string> = []
  let start = 0
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", start)) {
    if (slash > start) segments.push(path.slice(start, slash))
    start = slash + 1
  }
  if (start < path.length) segments.push(path.slice(start))
  return segments
}

/** A path parameter's value: percent-decoded, undefined when the escape is malformed (no match). */
const decodeSegment = (segment: string): string | undefined => {
  if (!segment.includes("%")) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

export class Router {
  private readonly root = node()

  constructor(routes: Iterable<{ readonly fullPath: string; readonly operation: AnyOperation }>) {
    for (const { fullPath, operation } of routes) this.add(fullPath, operation)
  }

  private add(fullPath: string, operation: AnyOperation): void {
    let current = this.root
    for (const segment of splitPath(fullPath)) {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1]
      if (param !== undefined) {
        if (current.param && current.param.name !== param) {
          throw new Error(`Route ${fullPath}: parameter {${param}} clashes with {${current.param.name}} at the same position`)
        }
        current.param ??= { name: param, node: node() }
        current = current.param.node
      } else {
        let next = current.statics.get(segment)
        if (next === undefined) current.statics.set(segment, (next = node()))
        current = next
      }
    }
    const clash = current.methods.get(operation.method)
    if (clash) throw new Error(`Route ${operation.method} ${fullPath} is declared twice (${clash.operationId}, ${operation.operationId})`)
    current.methods.set(operation.method, operation)
  }

  match(method: string, path: string): Match {
    const params: Record<string, string> = {}
    const found = this.walk(this.root, splitPath(path), 0, params)
    if (found === undefined) return { _tag: "NotFound" }
    const operation = found.methods.get(method as HttpMethod)
    if (operation === undefined) return { _tag: "MethodNotAllowed", allowed: [...found.methods.keys()] }
    return { _tag: "Found", operation, params }
  }

  private walk(current: Node, segments: Array<string>, index: number, params: Record<string, string>): Node | undefined {
    if (index === segments.length) return current.methods.size > 0 ? current : undefined
    const segment = segments[index]!
    const exact = current.statics.get(segment)
    if (exact !== undefined) {
      const found = this.walk(exact, segments, index + 1, params)
      if (found !== undefined) return found
    }
    if (current.param !== undefined) {
      const value = decodeSegment(segment)
      if (value === undefined) return undefined
      const found = this.walk(current.param.node, segments, index + 1, params)
      if (found !== undefined) {
        params[current.param.name] = value
        return found
      }
    }
    return undefined
  }
}
