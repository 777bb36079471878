/**
 * How specific each of a question's terms is among the passages searched
 * (inverse document frequency), so grading weighs "Salesforce" above
 * "status": a passage that covers only the question's common words does not
 * answer it. A noun no passage contains ("the mainframe", "Tokyo") is most
 * likely what the question is about and the workspace lacks: it weighs
 * double; a verb no passage contains ("take" where a transcript says "took")
 * weighs half, since verbs change form and seldom carry the topic.
 */
import { englishNlp } from "../EnglishNlp.ts"
import type { Passage } from "./Passage.ts"
import { stem, terms } from "./Terms.ts"

/** The part of speech of each of the question's words, by its term (NOUN, PROPN, VERB, ...). */
const partsOfSpeech = (question: string): Map<string, string> => {
  const tagger = englishNlp()
  const its: any = tagger.its
  const tokens: any = tagger.readDoc(question).tokens()
  const words: Array<string> = tokens.out(its.normal)
  const tags: Array<string> = tokens.out(its.pos)
  return new Map(words.map((word, i) => [stem(word), tags[i]!]))
}

const ABSENT_WEIGHT: Record<string, number> = { NOUN: 2, PROPN: 2, VERB: 0.5, AUX: 0.5 }

/** One word is an inflection of the other ("sign"/"signed"), not a longer word starting alike ("sales"/"salesforce"). */
export const inflects = (a: string, b: string): boolean => {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 3
}

/**
 * How a question is phrased, not what it is about ("summarize", "how is it going", "any update"): these
 * weigh like a word every passage has, so a passage is not judged by whether it repeats them.
 */
const PHRASING_WORDS =
  "know everything anything something summarize summarise summary overview status update latest news progress going happen happening tell say said says mention mentioned promise promised ask asked discuss discussed talk talked decide decided agree agreed report reported according per think many much long fast quick quickly take took takes"
// Built on first use.
let phrasing: ReadonlySet<string> | undefined
const isPhrasing = (term: string) => (phrasing ??= new Set(terms(PHRASING_WORDS))).has(term)

/** Each wanted term's weight: ln(1 + N / (1 + passages containing it)), scaled by its part of speech when none has it; phrasing words as if every passage had them. */
export const specificity = (passages: ReadonlyArray<Passage>, asked: ReadonlyArray<string>, question: string): Map<string, number> => {
  const counted = asked.filter((t) => t.length > 1 && !isPhrasing(t))
  const found = new Map(counted.map((t) => [t, 0]))
  // Which wanted terms a word is (or inflects): worked out once per distinct word, not once per occurrence.
  const meaning = new Map<string, ReadonlyArray<string>>()
  const wantedBy = (word: string) => {
    let known = meaning.get(word)
    if (known === undefined) {
      known = counted.filter((t) => t === word || inflects(word, t))
      meaning.set(word, known)
    }
    return known
  }
  for (const passage of passages) {
    const has = new Set<string>()
    for (const word of terms(`${passage.title} ${passage.text}`)) for (const t of wantedBy(word)) has.add(t)
    for (const t of has) found.set(t, found.get(t)! + 1)
  }
  return specificityAmong(passages.length, (t) => found.get(t) ?? 0, asked, question)
}

/** The same weights over a corpus known by its size and how many of its passages contain a term (or an inflection of it): a standing index's postings. */
export const specificityAmong = (
  size: number,
  containing: (term: string) => number,
  asked: ReadonlyArray<string>,
  question: string
): Map<string, number> => {
  // One letter ("Tuesday's" → "s", an initial) names nothing.
  const wanted = asked.filter((t) => t.length > 1)
  const found = new Map(wanted.map((t) => [t, isPhrasing(t) ? size : containing(t)]))
  const pos = wanted.some((t) => found.get(t) === 0) ? partsOfSpeech(question) : new Map<string, string>()
  const absent = (t: string) => ABSENT_WEIGHT[pos.get(t) ?? ""] ?? 1
  return new Map(wanted.map((t) => [t, Math.log(1 + size / (1 + found.get(t)!)) * (found.get(t) === 0 ? absent(t) : 1)]))
}

/** The share of the question's weight a passage covers, 0…1. */
export const weightedCoverage = (
  wanted: ReadonlyArray<string>,
  weights: ReadonlyMap<string, number>,
  covers: (term: string) => boolean
) => {
  const total = wanted.reduce((sum, t) => sum + (weights.get(t) ?? 0), 0)
  if (total === 0) return 0
  return wanted.reduce((sum, t) => sum + (covers(t) ? (weights.get(t) ?? 0) : 0), 0) / total
}
