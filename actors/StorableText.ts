/**
 * The one rule for text that enters Atrium (requests, WebSocket frames,
 * imported files): no NUL character and no unpaired UTF-16 surrogate.
 * PostgreSQL cannot store either in `text` or `jsonb`, and a lone surrogate
 * would come back as U+FFFD, so such text is refused where it is decoded,
 * naming the field, instead of failing (or silently changing) in storage.
 * Text that passes is stored and returned byte-identical.
 */

export interface TextProblem {
  /** Dotted path of the offending field, from the given root. */
  readonly path: string
  readonly message: string
}

// Without the `u` flag a regex sees UTF-16 code units, so it can tell a lone surrogate from a pair.
const SURROGATE = /[\ud800-\udfff]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `text` cannot be stored, or undefined when it can. */
export const textProblem = (text: string): string | undefined => {
  if (text.includes("\u0000")) return "contains a NUL character"
  // The first test is a cheap scan; most text has no surrogate at all.
  return SURROGATE.test(text) && LONE_SURROGATE.test(text) ? "contains an unpaired UTF-16 surrogate" : undefined
}

/**
 * Every string (and object key) in a decoded JSON value that cannot be
 * stored, with its path under `root` (a key's problem is reported at the
 * object holding it). Iterative: a deeply nested body must not exhaust the stack.
 */
export const unstorableText = (value: unknown, root: string): ReadonlyArray<TextProblem> => {
  const problems: Array<TextProblem> = []
  const pending: Array<[unknown, string]> = [[value, root]]
  while (pending.length > 0) {
    const [current, path] = pending.pop()!
    if (typeof current === "string") {
      const problem = textProblem(current)
      if (problem !== undefined) problems.push({ path, message: problem })
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push([current[index], `${path}.${index}`])
    } else if (typeof current === "object" && current !== null) {
      const keys = Object.keys(current)
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!
        const keyProblem = textProblem(key)
        if (keyProblem !== undefined) {
          problems.push({ path, message: `a key ${keyProblem}` })
          continue
        }
        pending.push([(current as Record<string, unknown>)[key], `${path}.${key}`])
      }
    }
  }
  return problems
}
