/**
 * Extractive synthesis: the answer quotes the best sentence of each graded
 * passage, each followed by its citation number; nothing is said that a
 * passage does not say. Also the follow-up questions offered after it.
 */
import { Schema } from "effect"
import { type Passage, SourceType, Span } from "./Passage.ts"
import type { Ranked } from "./Ranking.ts"
import { terms } from "./Ranking.ts"

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

/** The passage's sentences; in a transcript each keeps its speaker ("Bob: …"). */
const sentencesOf = (passage: Passage): Array<string> => {
  const turns =
    passage.sourceType === "transcript" || passage.sourceType === "integration"
      ? passage.text.split(/\s(?=[\p{Lu}][\p{L}.'-]*(?: [\p{Lu}][\p{L}'-]*)?: )/u)
      : [passage.text]
  return turns.flatMap((turn) => {
    const speaker = /^([^:]{1,40}): /.exec(turn)?.[1]
    const body = speaker ? turn.slice(speaker.length + 2) : turn
    return body
      .split(/(?<=[.!?])\s+/)
      .filter((s) => s.trim() !== "")
      .map((s) => (speaker ? `${speaker}: ${s}` : s))
  })
}

const bestSentence = (passage: Passage, wanted: ReadonlySet<string>): string => {
  let best = passage.text
  let bestScore = -1
  for (const sentence of sentencesOf(passage)) {
    const score = terms(sentence).filter((t) => wanted.has(t)).length
    if (score > bestScore) {
      best = sentence
      bestScore = score
    }
  }
  return best.length > MAX_SNIPPET ? `${best.slice(0, MAX_SNIPPET - 1)}…` : best
}

export interface Synthesis {
  readonly answer: string
  readonly citations: Array<Citation>
}

export const MAX_CITATIONS = 5

export const synthesize = (graded: ReadonlyArray<Ranked>, question: string): Synthesis => {
  const wanted = new Set(terms(question))
  const citations: Array<Citation> = []
  const lines: Array<string> = []
  const seen = new Set<string>()
  for (const { passage } of graded) {
    if (citations.length >= MAX_CITATIONS) break
    const snippet = bestSentence(passage, wanted)
    if (seen.has(snippet)) continue
    seen.add(snippet)
    const n = citations.length + 1
    citations.push({
      n,
      sourceType: passage.sourceType,
      sourceId: passage.sourceId,
      title: passage.title,
      snippet,
      ...(passage.span ? { span: passage.span } : {})
    })
    lines.push(`${snippet} [${n}]`)
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
