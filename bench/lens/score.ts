/**
 * How the Lens evaluation scores one reply of `chatWithLens`, and the set's
 * figures. Definitions (also printed in the report):
 * - route accuracy: share of answerable questions whose `trace.route` is the expected route.
 * - recall@5: per answerable question, the expected source ids found among the first 5 distinct
 *   source ids of the reply's citations (in citation order), divided by min(5, expected); averaged.
 *   (The trace's retrieve steps name counts, not ids, so citations are the retrieved sources Lens shows.)
 * - citation precision: over all citations of answerable questions, the share whose snippet contains
 *   one of the question's answer fragments (case-insensitive).
 * - declined: an unanswerable question is declined when the reply has no citation and its trace
 *   stopped with `no_relevant_sources`; an answerable one declined is counted apart.
 */
import type { Half, Question } from "./questions.ts"

export interface Reply {
  readonly answer: string
  readonly citations: ReadonlyArray<{ readonly sourceId: string; readonly snippet: string }>
  readonly trace: { readonly route: string; readonly stoppedBecause: string }
}

export interface Scored {
  readonly text: string
  readonly half: Half
  readonly route: string
  readonly expectedRoute: string
  readonly recall: number
  readonly cited: number
  readonly correctCitations: number
  readonly declined: boolean
}

export const declined = (reply: Reply) => reply.citations.length === 0 && reply.trace.stoppedBecause === "no_relevant_sources"

export const firstSources = (reply: Reply, k: number): Array<string> => [...new Set(reply.citations.map((c) => c.sourceId))].slice(0, k)

export const score = (question: Question, half: Half, expectedIds: ReadonlyArray<string>, reply: Reply): Scored => {
  const top = new Set(firstSources(reply, 5))
  const fragments = question.answer.map((a) => a.toLowerCase())
  const correct = reply.citations.filter((c) => fragments.some((f) => c.snippet.toLowerCase().includes(f))).length
  return {
    text: question.text,
    half,
    route: reply.trace.route,
    expectedRoute: question.route,
    recall: expectedIds.filter((id) => top.has(id)).length / Math.min(5, expectedIds.length),
    cited: reply.citations.length,
    correctCitations: correct,
    declined: declined(reply)
  }
}

export interface SetFigures {
  readonly questions: number
  readonly routeAccuracy: number
  readonly recallAt5: number
  readonly citationPrecision: number
  readonly falseDeclines: number
}

export const figuresOf = (scored: ReadonlyArray<Scored>): SetFigures => {
  const n = Math.max(1, scored.length)
  const cited = scored.reduce((sum, s) => sum + s.cited, 0)
  return {
    questions: scored.length,
    routeAccuracy: scored.filter((s) => s.route === s.expectedRoute).length / n,
    recallAt5: scored.reduce((sum, s) => sum + s.recall, 0) / n,
    citationPrecision: cited === 0 ? 0 : scored.reduce((sum, s) => sum + s.correctCitations, 0) / cited,
    falseDeclines: scored.filter((s) => s.declined).length
  }
}

/** What went wrong with one question, for the report's notes (empty when nothing did). */
export const failureOf = (s: Scored): string | undefined => {
  const wrong: Array<string> = []
  if (s.route !== s.expectedRoute) wrong.push(`route ${s.route} (expected ${s.expectedRoute})`)
  if (s.recall < 1) wrong.push(`recall@5 ${s.recall.toFixed(2)}`)
  if (s.cited > 0 && s.correctCitations < s.cited) wrong.push(`${s.correctCitations}/${s.cited} citations correct`)
  if (s.declined) wrong.push("declined")
  return wrong.length === 0 ? undefined : `[${s.half}] "${s.text}": ${wrong.join(", ")}`
}
