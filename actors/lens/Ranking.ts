/**
 * BM25 ranking of the caller's passages (minisearch), relevance grading of
 * what it returns, and the one query rewrite tried when nothing is relevant.
 */
import MiniSearch from "minisearch"
import type { Passage } from "./Passage.ts"
import { inflects, specificity, weightedCoverage } from "./Specificity.ts"
import { STOP, stem, terms } from "./Terms.ts"

export { stem, terms } from "./Terms.ts"

export interface Ranked {
  readonly passage: Passage
  readonly score: number
  /** Share of the question's terms the passage contains, weighted by their specificity, 0…1. */
  readonly coverage: number
}

/** How passages are indexed and searched, the same for a per-question index and the standing workspace index. */
export const indexOptions = {
  fields: ["title", "text"],
  idField: "id",
  processTerm: (term: string) => (STOP.has(term.toLowerCase()) ? null : stem(term)),
  searchOptions: { boost: { title: 1.5 }, fuzzy: 0.15, prefix: true }
}

/** A passage as MiniSearch indexes it: a numeric id and the two searched fields. */
export interface IndexedDocument {
  readonly id: number
  readonly title: string
  readonly text: string
}

/** The question's distinct content terms; nothing to search for when empty. */
export const wantedTerms = (question: string): Array<string> => [...new Set(terms(question))]

/** Each wanted term's weight (`Specificity.ts`), measured among the passages the caller may read. */
export type Weigh = (wanted: ReadonlyArray<string>, question: string) => ReadonlyMap<string, number>

/**
 * BM25 over `index`, keeping only the documents `admit` lets through (the
 * caller's permissions, applied before anything is ranked), best `limit`
 * first; each with its coverage of the question, its terms weighted by
 * `weigh`.
 */
export const rankIn = (
  index: MiniSearch<IndexedDocument>,
  passageOf: (id: number) => Passage,
  question: string,
  limit: number,
  weigh: Weigh,
  admit?: (id: number) => boolean
): Array<Ranked> => {
  const wanted = wantedTerms(question)
  if (wanted.length === 0 || index.documentCount === 0) return []
  const weights = weigh(wanted, question)
  return index
    .search(wanted.join(" "), { combineWith: "OR", ...(admit ? { filter: (hit) => admit(hit.id as number) } : {}) })
    .slice(0, limit)
    .map((hit) => {
      const passage = passageOf(hit.id as number)
      const own = new Set(terms(`${passage.title} ${passage.text}`))
      const coverage = weightedCoverage(wanted, weights, (t) => own.has(t) || [...own].some((o) => inflects(o, t)))
      return { passage, score: hit.score, coverage }
    })
}

/** Ranks a handful of passages on their own (a fresh index for them alone). */
export const rank = (passages: ReadonlyArray<Passage>, question: string, limit: number): Array<Ranked> => {
  if (passages.length === 0) return []
  const index = new MiniSearch<IndexedDocument>(indexOptions)
  index.addAll(passages.map((p, id) => ({ id, title: p.title, text: p.text })))
  return rankIn(
    index,
    (id) => passages[id]!,
    question,
    limit,
    (wanted) => specificity(passages, wanted, question)
  )
}

/** Grading: a passage is relevant when it covers enough of the question, relative to the best one. */
export const grade = (ranked: ReadonlyArray<Ranked>, minimumCoverage: number): Array<Ranked> => {
  const best = Math.max(0, ...ranked.map((r) => r.coverage))
  if (best < minimumCoverage) return []
  return ranked.filter((r) => r.coverage >= Math.max(minimumCoverage, best * 0.5))
}

const SYNONYMS = new Map<string, ReadonlyArray<string>>(
  Object.entries({
    bug: ["error", "issue", "defect"],
    error: ["bug", "failure"],
    deadline: ["due", "date"],
    due: ["deadline"],
    price: ["pricing", "tier"],
    pricing: ["price", "tier"],
    launch: ["release", "ship"],
    release: ["launch", "ship"],
    ship: ["release", "launch"],
    owner: ["assigned", "responsible"],
    promise: ["will", "send"],
    meeting: ["call", "standup"],
    budget: ["cost", "spend"]
  })
)

/** The one rewrite: the question's content words, each with its synonyms. */
export const rewrite = (question: string): string => {
  const words = terms(question)
  return [...new Set(words.flatMap((w) => [w, ...(SYNONYMS.get(w) ?? [])]))].join(" ")
}
