/**
 * Extractive synthesis: the answer quotes the best sentence of each graded
 * passage, each followed by its citation number; nothing is said that a
 * passage does not say. Also the follow-up questions offered after it.
 */
import { Schema } from "effect"
import { type AnswerType, classify, holds, type Reading, SPECIFIC } from "./AnswerType.ts"
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

/** Sources whose text is turns ("Bob: …"): transcripts, chat, and call notes quoting them. */
const SPOKEN = new Set<SourceType>(["transcript", "integration", "call"])

interface Sentence {
  /** As quoted: with its speaker ("Bob: …"). */
  readonly text: string
  /** Who said it: context, like the passage's title, not part of what was said. */
  readonly speaker?: string
  readonly said: string
}

/** The sentences of a passage's text (or of the text after it); in a transcript each keeps its speaker. */
const sentencesOf = (passage: Passage, text = passage.text): Array<Sentence> => {
  const spoken = SPOKEN.has(passage.sourceType)
  const turns = spoken ? text.split(/\s(?=[\p{Lu}][\p{L}.'-]*(?: [\p{Lu}][\p{L}'-]*)?: )/u) : [text]
  return turns.flatMap((turn) => {
    const speaker = spoken ? /^([^:]{1,40}): /.exec(turn)?.[1] : undefined
    const body = speaker ? turn.slice(speaker.length + 2) : turn
    return body
      .split(/(?<=[.!?])\s+/)
      .filter((said) => said.trim() !== "")
      .map((said) => (speaker ? { text: `${speaker}: ${said}`, speaker, said } : { text: said, said }))
  })
}

const matches = (term: string, wanted: ReadonlySet<string>) => wanted.has(term) || [...wanted].some((w) => inflects(w, term))

/**
 * Which sentence of a passage answers: the one saying the most question terms that its context (title,
 * speaker) does not already have (the context says what the passage is about, not the answer); then the
 * one by a speaker the question names ("what did Dana promise"); then the one with more new words.
 */
const answerScore = (
  said: ReadonlyArray<string>,
  wanted: ReadonlySet<string>,
  context: ReadonlySet<string>,
  speaker: ReadonlyArray<string>
) => {
  let says = 0
  let novel = 0
  for (const term of said) {
    if (context.has(term)) continue
    if (matches(term, wanted)) says++
    else novel++
  }
  const byNamed = speaker.some((t) => matches(t, wanted)) ? 0.5 : 0
  return { says, score: says + byNamed + Math.min(novel, 9) / 100 }
}

/** How much a quote is about the question: question terms it says count 1, those only its context has ½. */
const quoteScore = (said: ReadonlyArray<string>, wanted: ReadonlySet<string>, context: ReadonlySet<string>): number => {
  const spoken = new Set(said.filter((t) => matches(t, wanted)))
  const around = [...context].filter((t) => !spoken.has(t) && matches(t, wanted))
  return spoken.size + around.length / 2
}

interface Quote {
  readonly sentence: string
  readonly score: number
  /** Whether the sentence itself says a question term its context does not have. */
  readonly says: boolean
  /** Who said or owns it, when known, and whether the question names them. */
  readonly by?: { readonly named: boolean }
  /** Whether the quote states a fact of the type the question asks for (always, for untyped questions). */
  readonly holds: boolean
}

/** A question about commitments ("what did Dana promise") is answered by action items, whatever words they use. */
const ASKS_COMMITMENTS = /\b(promis\w*|commit(ted|ments?)?|pledged?|agreed to|action items?|to-?dos?|follow[- ]ups?)\b/i

const clip = (text: string) => (text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET - 1)}…` : text)

/** How far (in sentences that say something) from the sentence about the topic the asked fact is looked for. */
const WINDOW = 4
/** A sentence that refers back ("we're doing it because …", "to make up for it") continues the topic before it. */
const REFERS_BACK = /\b(it|this|that|these|those|they|them)\b/i

/** What the question asks, as synthesis needs it. */
interface Asked {
  readonly wanted: ReadonlySet<string>
  readonly commitments: boolean
  readonly type: AnswerType
  readonly reading: Reading
}

const typed = (type: AnswerType) => SPECIFIC.has(type) || type === "action"

/**
 * The sentence of a passage that answers: the one about the question's topic (the most question terms its
 * context — title, speaker — does not already have); for a question asking a kind of fact (a date, a number,
 * a reason, a person …), the sentence within a few of it that states such a fact, preferring the topic
 * sentence itself, then its neighbours, then sentences that also name the topic. A sentence that asks a
 * question states nothing. Sentences of the text around the passage (the turns or paragraphs before and after) are
 * neighbours too.
 */
const bestSentence = (passage: Passage, asked: Asked): Quote => {
  const { wanted, commitments, type, reading } = asked
  if (commitments && passage.actionItem !== undefined) {
    const owner = terms(passage.actionItem.owner ?? "")
    return {
      sentence: clip(passage.text),
      score: 1 + quoteScore(terms(passage.actionItem.text), wanted, new Set([...terms(passage.title), ...owner])),
      says: true,
      holds: true,
      ...(owner.length > 0 ? { by: { named: owner.some((t) => matches(t, wanted)) } } : {})
    }
  }
  const title = terms(passage.title)
  const own = sentencesOf(passage)
  const before = passage.preceding === undefined ? [] : sentencesOf(passage, passage.preceding)
  const sentences = [...before, ...own, ...(passage.following === undefined ? [] : sentencesOf(passage, passage.following))]
  const scored = sentences.map((sentence) => {
    const speaker = terms(sentence.speaker ?? "")
    const context = new Set([...title, ...speaker])
    const said = [...new Set(terms(sentence.said))]
    const { says, score } = answerScore(said, wanted, context, speaker)
    const mentions = said.some((term) => matches(term, wanted))
    return { sentence, speaker, says, mentions, score, quote: quoteScore(said, wanted, context) }
  })
  // The topic sentence is the passage's own (what was retrieved); its neighbours may come from around it.
  let topic = before.length
  for (let i = topic + 1; i < before.length + own.length; i++) if (scored[i]!.score > scored[topic]!.score) topic = i
  const quoteOf = (i: number, holdsFact: boolean, score = scored[i]!.quote): Quote => {
    const { sentence, speaker, says } = scored[i]!
    return {
      sentence: clip(sentence.text),
      score,
      says: says > 0,
      holds: holdsFact,
      ...(speaker.length > 0 ? { by: { named: speaker.some((t) => matches(t, wanted)) } } : {})
    }
  }
  if (own.length === 0) return { sentence: clip(passage.text), score: 0, says: false, holds: !typed(type) }
  if (!typed(type)) return quoteOf(topic, true)
  // Call notes (summary, key points) list sentences from all over the call: a neighbour there is no context.
  const window = passage.sourceType === "call" ? 0 : WINDOW
  // Distance counts sentences that say something: "Great." or "I agree with that." between two turns is no distance.
  const position: Array<number> = []
  let counted = 0
  for (const { sentence } of scored) {
    position.push(counted)
    if (terms(sentence.said).length > 2) counted++
  }
  let best: number | undefined
  let bestRank = Number.NEGATIVE_INFINITY
  for (let i = 0; i < sentences.length; i++) {
    const { sentence, mentions, score } = scored[i]!
    const distance = Math.abs(position[i]! - position[topic]!)
    if (distance > window) continue
    // A sentence beyond the next one must name the topic or refer back to it, or it is about something else.
    if (distance > 1 && !mentions && !REFERS_BACK.test(sentence.said)) continue
    if (/\?\s*$/.test(sentence.said)) continue
    const strength = holds(type, sentence.said, reading, sentence.speaker)
    if (strength === 0) continue
    // A surer sign of the fact wins over more topic words; then the topic, then nearness.
    const rank = 4 * strength + score - 0.3 * distance
    if (rank > bestRank) {
      bestRank = rank
      best = i
    }
  }
  if (best === undefined) return quoteOf(topic, false)
  // The fact's sentence is as relevant as the topic sentence next to it; quoted with it when it does not name the topic.
  const score = Math.max(scored[best]!.quote, scored[topic]!.quote)
  if (best === topic || scored[best]!.says > 0) return quoteOf(best, true, score)
  const [first, second] = best < topic ? [best, topic] : [topic, best]
  const joined = `${scored[first]!.sentence.text} ${scored[second]!.sentence.text}`
  return { ...quoteOf(best, true, score), sentence: clip(joined) }
}

export interface Synthesis {
  readonly answer: string
  readonly citations: Array<Citation>
  /**
   * The sources discuss the question's topic but none states the kind of fact it asks for: the title of the
   * best one and what was asked (then the answer is empty and nothing is cited).
   */
  readonly notStated?: { readonly title: string; readonly type: AnswerType }
}

export const MAX_CITATIONS = 5

/** A quoted sentence below this share of the best quote's score is not cited: it is about the question's topic, not its answer. */
const RELATIVE_QUOTE_SCORE = 0.5

/** The same sentence quoted from a transcript ("Bob: …") and from call notes is one quote. */
const normalized = (sentence: string) =>
  sentence
    .replace(/^[^:]{1,40}: /, "")
    .trim()
    .toLowerCase()

/**
 * Cites the best sentence of each graded passage: every source's first quote before any source's second
 * (several sources answer more than one source many times), only quotes scoring at least half the best one,
 * never the same sentence twice. `every` quotes each passage (the agent loop's items, chosen by the loop).
 */
export const synthesize = (graded: ReadonlyArray<Ranked>, question: string, quote: "relevant" | "every" = "relevant"): Synthesis => {
  const wanted = new Set(terms(question))
  const commitments = ASKS_COMMITMENTS.test(question)
  const type = quote === "every" ? "list" : classify(question)
  const people = new Set(
    graded.flatMap(({ passage }) => [passage.speaker, passage.actionItem?.owner]).flatMap((name) => name?.toLowerCase().split(/\s+/) ?? [])
  )
  const asked: Asked = { wanted, commitments, type, reading: { known: wanted, people } }
  const candidates = graded.map(({ passage }) => ({ passage, ...bestSentence(passage, asked) }))
  // A question asking a kind of fact is answered by the quotes that state one; none stating it: say so.
  const stating = candidates.filter((q) => q.holds)
  if (SPECIFIC.has(type) && stating.length === 0) {
    return candidates.length === 0
      ? { answer: "", citations: [] }
      : { answer: "", citations: [], notStated: { title: candidates[0]!.passage.title, type } }
  }
  const all = stating.length > 0 ? stating : candidates
  // When the question names who said it or owns it, what others said is not the answer.
  const named = all.some((q) => q.by?.named)
  // When it asks for commitments and there are action items, other sentences must say something asked about.
  const items = commitments && all.some((q) => q.passage.actionItem !== undefined)
  const quotes = all.filter(
    (q) => !(named && q.by !== undefined && !q.by.named) && !(items && q.passage.actionItem === undefined && !q.says)
  )
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
      // A source's title stands for it once; a second quote from it must itself say something else asked about.
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
