/**
 * Extractive synthesis: the answer quotes the best sentence of each graded
 * passage, each followed by its citation number; nothing is said that a
 * passage does not say. Also the follow-up questions offered after it.
 */
import { Schema } from "effect"
import { type Passage, SourceType, Span } from "./Passage.ts"
import type { Ranked } from "./Ranking.ts"
import { terms } from "./Ranking.ts"
import { inflects } from "./Specificity.ts"

export const Citation = Schema.Struct({
  n: Schema.Number,
  sourceType: SourceType,
  sourceId: Schema.String,
  title: Schema.String,
  snippet: Schema.String,
  span: Schema.optionalKey(Span)
}).annotate({ identifier: "LensCitation" })
export type Citation = typeof Citation.Type

const MAX_SNIPPET = 280

const SPOKEN = new Set<SourceType>(["transcript", "integration"])

/** The passage's sentences; in a transcript each keeps its speaker ("Bob: …"). */
const sentencesOf = (passage: Passage): Array<string> => {
  const spoken = SPOKEN.has(passage.sourceType)
  const turns = spoken ? passage.text.split(/\s(?=[\p{Lu}][\p{L}.'-]*(?: [\p{Lu}][\p{L}'-]*)?: )/u) : [passage.text]
  return turns.flatMap((turn) => {
    const speaker = spoken ? /^([^:]{1,40}): /.exec(turn)?.[1] : undefined
    const body = speaker ? turn.slice(speaker.length + 2) : turn
    return body
      .split(/(?<=[.!?])\s+/)
      .filter((s) => s.trim() !== "")
      .map((s) => (speaker ? `${speaker}: ${s}` : s))
  })
}

const matches = (term: string, wanted: ReadonlySet<string>) => wanted.has(term) || [...wanted].some((w) => inflects(w, term))

/**
 * Which sentence of a passage answers: the one with the most question terms its title does not already
 * have (the title says what the passage is about, not the answer); ties go to the sentence with more new words.
 */
const answerScore = (sentence: ReadonlyArray<string>, wanted: ReadonlySet<string>, title: ReadonlySet<string>): number => {
  let score = 0
  let novel = 0
  for (const term of sentence) {
    if (title.has(term)) continue
    if (matches(term, wanted)) score++
    else novel++
  }
  return score + Math.min(novel, 9) / 100
}

/** How much a quote (its sentence, then its title) is about the question: sentence terms count 1, title-only terms ½. */
const quoteScore = (sentence: ReadonlyArray<string>, wanted: ReadonlySet<string>, title: ReadonlySet<string>): number => {
  const said = new Set(sentence.filter((t) => matches(t, wanted)))
  const titled = [...title].filter((t) => !said.has(t) && matches(t, wanted))
  return said.size + titled.length / 2
}

const bestSentence = (passage: Passage, wanted: ReadonlySet<string>): { sentence: string; score: number; says: boolean } => {
  const title = new Set(terms(passage.title))
  let best = passage.text
  let bestTerms: Array<string> = terms(best)
  let bestScore = -1
  for (const sentence of sentencesOf(passage)) {
    const own = [...new Set(terms(sentence))]
    const score = answerScore(own, wanted, title)
    if (score > bestScore) {
      best = sentence
      bestTerms = own
      bestScore = score
    }
  }
  return {
    sentence: best.length > MAX_SNIPPET ? `${best.slice(0, MAX_SNIPPET - 1)}…` : best,
    score: quoteScore(bestTerms, wanted, title),
    says: bestTerms.some((t) => matches(t, wanted))
  }
}

export interface Synthesis {
  readonly answer: string
  readonly citations: Array<Citation>
}

export const MAX_CITATIONS = 5

/** A quoted sentence below this share of the best quote's score is not cited: it is about the question's topic, not its answer. */
const RELATIVE_QUOTE_SCORE = 0.5

/** The same sentence quoted from a transcript ("Bob: …") and from call notes is one quote. */
const normalized = (sentence: string) => sentence.replace(/^[^:]{1,40}: /, "").trim().toLowerCase()

/**
 * Cites the best sentence of each graded passage: every source's first quote before any source's second
 * (several sources answer more than one source many times), only quotes scoring at least half the best one,
 * never the same sentence twice. `every` quotes each passage (the agent loop's items, chosen by the loop).
 */
export const synthesize = (graded: ReadonlyArray<Ranked>, question: string, quote: "relevant" | "every" = "relevant"): Synthesis => {
  const wanted = new Set(terms(question))
  const quotes = graded.map(({ passage }) => ({ passage, ...bestSentence(passage, wanted) }))
  const top = Math.max(0, ...quotes.map((q) => q.score))
  const perSource = new Map<string, number>()
  const ordered = quotes
    .map((quote, rank) => {
      const nth = perSource.get(quote.passage.sourceId) ?? 0
      perSource.set(quote.passage.sourceId, nth + 1)
      return { quote, rank, nth }
    })
    .sort((a, b) => a.nth - b.nth || a.rank - b.rank)
    .map(({ quote }) => quote)
  const citations: Array<Citation> = []
  const lines: Array<string> = []
  const seen = new Set<string>()
  const quotedSources = new Set<string>()
  for (const { passage, sentence, score, says } of ordered) {
    if (citations.length >= MAX_CITATIONS) break
    if (quote === "relevant") {
      if (score <= 0 || score < top * RELATIVE_QUOTE_SCORE) continue
      // A source's title stands for it once; a second quote from it must itself say something asked about.
      if (quotedSources.has(passage.sourceId) && !says) continue
    }
    const key = normalized(sentence)
    if (seen.has(key)) continue
    seen.add(key)
    quotedSources.add(passage.sourceId)
    const n = citations.length + 1
    citations.push({
      n,
      sourceType: passage.sourceType,
      sourceId: passage.sourceId,
      title: passage.title,
      snippet: sentence,
      ...(passage.span ? { span: passage.span } : {})
    })
    lines.push(`${sentence} [${n}]`)
  }
  return { answer: lines.join("\n"), citations }
}

export const DONT_KNOW = "I don't know: nothing I can see in this workspace answers that."

const quoted = (title: string) => `"${title.length > 60 ? `${title.slice(0, 59)}…` : title}"`

export const followUpsFor = (citations: ReadonlyArray<Citation>): Array<string> => {
  const out: Array<string> = []
  for (const c of citations) {
    const next =
      c.sourceType === "transcript"
        ? `What else was decided in ${quoted(c.title)}?`
        : c.sourceType === "call"
          ? `Which action items of ${quoted(c.title)} have no task yet?`
          : c.sourceType === "task"
            ? `Who owns ${quoted(c.title)} and when is it due?`
            : c.sourceType === "page"
              ? `What else does the page ${quoted(c.title)} say?`
              : `What was decided in ${quoted(c.title)}?`
    if (!out.includes(next)) out.push(next)
    if (out.length === 3) break
  }
  return out
}
