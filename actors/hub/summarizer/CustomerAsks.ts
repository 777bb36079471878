/**
 * Customer asks: the sentences of a transcript where someone asks for a
 * capability ("could you add…", "we'd love a way to…", "is there a way
 * to…") or complains about one ("exporting is broken", "it keeps
 * crashing"). Read from the local summarizer's analysis of the transcript
 * (the same sentences, speakers and content words its versions are made
 * from), so finding them costs no second pass. Who said it decides whether
 * it is a customer's: that is the caller's to judge (`CallProposals.ts`).
 */
import type { Segment } from "../Transcript.ts"
import { sentencesOf } from "./LocalSummarizer.ts"

export type AskKind = "request" | "complaint"

export interface Ask {
  readonly kind: AskKind
  /** The transcript segment it was said in (by position). */
  readonly segment: number
  readonly speaker: string
  readonly text: string
  /** Its content words, lemmatized: what similar requests are matched on. */
  readonly terms: ReadonlyArray<string>
}

const REQUESTS: ReadonlyArray<RegExp> = [
  /\b(?:could|can|would|will) you (?:please |guys |also )?(?:add|support|build|make|let us|allow|offer|provide|give us|include|integrate|enable)\b/i,
  /\b(?:we|i)(?:'d| would) (?:really |also )?(?:like|love) (?:to be able to|to have|to see|a way|an option|support|it if)\b/i,
  /\b(?:we|i) (?:really |also |still )?(?:need|want|wish)\b[^.?!]*\b(?:feature|option|way|support|ability|integration|export|import|mode|setting|api|report|dashboard)s?\b/i,
  /\bit would be (?:great|nice|helpful|useful|good|amazing|awesome) (?:if|to)\b/i,
  /\b(?:is there|are there|do you have) (?:a way|any way|an option|any option|any plans?|plans|support)\b/i,
  /\bplease (?:add|support|build|make)\b/i,
  /\bfeature request\b/i
]
const COMPLAINT =
  /\b(?:frustrat\w*|annoying|broken|(?:does|do)(?:n't| not) work|can(?:'t|not) (?:find|export|import|use|see|get|change|share)|too slow|keeps? crashing|crashes|painful|no way to)\b/i

/** The kind of ask a sentence is, if it is one. */
export const askKindOf = (text: string): AskKind | undefined =>
  REQUESTS.some((pattern) => pattern.test(text)) ? "request" : COMPLAINT.test(text) ? "complaint" : undefined

/** Every ask in the transcript, in order (a sentence repeated word for word counts once). */
export const asksOf = (segments: ReadonlyArray<Segment>): Array<Ask> => {
  const seen = new Set<string>()
  const asks: Array<Ask> = []
  for (const sentence of sentencesOf(segments)) {
    const kind = askKindOf(sentence.text)
    if (kind === undefined || sentence.terms.length === 0 || seen.has(sentence.text)) continue
    seen.add(sentence.text)
    asks.push({ kind, segment: sentence.segment, speaker: sentence.speaker, text: sentence.text, terms: sentence.terms })
  }
  return asks
}
