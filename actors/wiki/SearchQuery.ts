/**
 * What a person types into a wiki search box, as a PostgreSQL tsquery.
 *
 * - words are ANDed and matched as prefixes (`deploy` finds "deployment"),
 *   which stands in for stemming under the language-neutral 'simple'
 *   configuration the index uses;
 * - `"exact phrase"` matches the words in that order;
 * - `-word` (or `-"phrase"`) excludes pages containing it;
 * - `OR` between two terms matches either.
 *
 * Every term is passed to PostgreSQL as a quoted lexeme, so user input can
 * never inject tsquery syntax; PostgreSQL's own parser splits it the same
 * way it split the indexed text (`e-mail`, `v1.2.3`).
 */

export interface ParsedQuery {
  /** For `to_tsquery('simple', …)`. */
  readonly tsquery: string
  /** The positive words, lower-cased (for display and analytics). */
  readonly words: ReadonlyArray<string>
}

const quote = (term: string) => `'${term.replace(/\\/g, "").replace(/'/g, "''")}'`
const hasWord = (term: string) => /[\p{L}\p{N}]/u.test(term)

/**
 * Parses `input`; `undefined` when it has no positive word to search for.
 * `weight` restricts matches to one weight class (`"A"`: titles only).
 */
export const parseSearchQuery = (input: string, weight: "" | "A" = ""): ParsedQuery | undefined => {
  const parts: Array<string> = []
  const words: Array<string> = []
  let joiner = " & "
  let positives = 0
  for (const match of input.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    const [, minus, phrase, bare] = match
    if (bare !== undefined && bare === "OR") {
      if (parts.length > 0) joiner = " | "
      continue
    }
    const negative = phrase !== undefined ? minus === "-" : bare!.length > 1 && bare!.startsWith("-")
    const term = phrase !== undefined ? phrase : negative ? bare!.slice(1) : bare!
    if (!hasWord(term)) continue
    // Phrases match exactly; single words as prefixes (search as you type).
    const lexeme = phrase !== undefined ? `${quote(term)}${weight === "" ? "" : `:${weight}`}` : `${quote(term)}:*${weight}`
    const part = negative ? `!${lexeme}` : lexeme
    parts.push(parts.length === 0 ? part : `${joiner}${part}`)
    joiner = " & "
    if (!negative) {
      positives++
      words.push(
        ...term
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter((word) => word !== "")
      )
    }
  }
  if (positives === 0) return undefined
  return { tsquery: parts.join(""), words }
}

/**
 * A `ts_headline` result marked with \u0001…\u0002 as safe HTML: the text
 * escaped, the matches wrapped in `<mark>`.
 */
export const highlightHtml = (marked: string): string =>
  marked
    .replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))
    .replace(/\u0001/g, "<mark>")
    .replace(/\u0002/g, "</mark>")
    .replace(/\s+/g, " ")
    .trim()

/** Options for a body snippet: about 35 words around the best matches, up to two fragments. */
export const SNIPPET_OPTIONS =
  'StartSel="\u0001", StopSel="\u0002", MaxWords=35, MinWords=15, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "'
/** Options for the title: the whole title, matches marked. */
export const TITLE_OPTIONS = 'StartSel="\u0001", StopSel="\u0002", HighlightAll=true'
