/**
 * What a question asks for — a date, a duration, a quantity, a person, an
 * organisation, a reason, a yes/no, a list, a course of action — and whether
 * a sentence holds a fact of that type. Synthesis uses it to quote the
 * sentence that states the asked fact, not the one that merely shares the
 * question's topic words, and to say so when no source states it. Rules over
 * question words plus wink-nlp's entities and parts of speech (the English
 * model shipped in the npm package; no network).
 */
import { englishNlp } from "../EnglishNlp.ts"
import { terms } from "./Ranking.ts"

export type AnswerType = "time" | "duration" | "quantity" | "person" | "organization" | "reason" | "action" | "yes_no" | "list" | "open"

/** Types that name one kind of fact: when no source sentence holds one, the sources do not answer. */
export const SPECIFIC: ReadonlySet<AnswerType> = new Set(["time", "duration", "quantity", "person", "organization", "reason"])

const RULES: ReadonlyArray<readonly [AnswerType, RegExp]> = [
  [
    "reason",
    /^\s*why\b|\bwhat (was|is|were|are) the (reason|cause|rationale)s?\b|\bwhat caused\b|\bhow come\b|\bfor what reason\b|\bwhat led to\b/i
  ],
  ["duration", /\bhow (long|fast|quickly|soon)\b|\bfor how many (seconds|minutes|hours|days|weeks|months|years)\b|\bhow much time\b/i],
  [
    "time",
    /^\s*when\b|\bby when\b|\bwhat (date|day|time|month|year|week)\b|\bwhich (date|day|month|year|week|quarter)\b|\b(start|end|due|launch|release|go-live) date\b|\bwhat time\b/i
  ],
  [
    "quantity",
    /\bhow (many|much|big|large|high|low|often)\b|\b(what|which) (percent(age)?|share|rate|ratio|price|cost|amount|number|budget|fee|discount|limit|size|total|figure|score|salary|pay|wage|revenue|spend|headcount|capacity|volume|quota|deposit|quote|balance|distance|weight|speed|temperature|margin)\b|\bat what (speed|rate|price|level)\b|\bby how much\b/i
  ],
  [
    "person",
    /^\s*(who|whom|whose)\b|\b(and|but|,)\s+who\b|\b(which|what) (person|engineer|developer|designer|teammate|colleague|member|manager|lead|one of us|employee|candidate|hire)\b/i
  ],
  [
    "organization",
    /\b(which|what) (customer|company|vendor|client|partner|provider|supplier|bank|firm|agency|carrier|account|competitor|startup|organi[sz]ation)s?\b/i
  ],
  [
    "action",
    /^\s*how (are|will|do|did|should|can|could|shall) (we|they|you|i|the team)\b|\bwhat (are|will|did|do|should) (we|they) (do|doing)\b/i
  ],
  ["list", /\b(which|what) (action items|tasks|steps|items|things|options|issues|risks|topics|features|requests)\b|\blist\b/i],
  ["yes_no", /^\s*(is|are|was|were|did|does|do|can|could|will|has|have|had|should|would)\b/i]
]

/** The type of answer a question (or one clause of it) asks for. */
export const classify = (question: string): AnswerType => {
  for (const [type, pattern] of RULES) if (pattern.test(question)) return type
  return "open"
}

/**
 * The clauses of a question that asks two things ("How long did it take to notice the leak, and who owns the
 * follow-up task?"), each answered apart. A clause starts at "and" (or ";") followed by a question word; a
 * question with one clause comes back whole.
 */
export const clausesOf = (question: string): Array<string> => {
  const parts = question
    .split(/\s*(?:,\s*and|;\s*and|\band also|;)\s+(?=(?:who|whom|whose|what|when|where|why|how|which|is|are|was|were|did|does|do)\b)/i)
    .map((part) => part.trim())
    .filter((part) => terms(part).length > 0)
  return parts.length > 1 ? parts : [question]
}

// ── Facts in a sentence ─────────────────────────────────────────────────────

interface Analysed {
  readonly entities: ReadonlyArray<{ readonly value: string; readonly type: string }>
  readonly tokens: ReadonlyArray<string>
  readonly pos: ReadonlyArray<string>
}

/** wink-nlp's reading of a sentence (entities, tokens, parts of speech); sentences are short, so this is cheap. */
const analyse = (sentence: string): Analysed => {
  const nlp = englishNlp()
  const its: any = nlp.its
  const doc: any = nlp.readDoc(sentence)
  return {
    entities: doc.entities().out(its.detail) as Array<{ value: string; type: string }>,
    tokens: doc.tokens().out(its.value) as Array<string>,
    pos: doc.tokens().out(its.pos) as Array<string>
  }
}

const MONTH =
  "(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)"
const WEEKDAY = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
const NUMBER_WORD =
  "(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|half|a couple of|a few|several|a dozen)"
const UNIT = "(seconds?|minutes?|hours?|days?|weeks?|months?|quarters?|years?|sprints?)"

const TIME = new RegExp(
  `\\b${MONTH}\\b|\\b${WEEKDAY}\\b|\\b\\d{1,2}(st|nd|rd|th)\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}[/.]\\d{1,2}\\b|\\b(today|tomorrow|tonight|yesterday|noon|midnight|dawn|dusk|sunrise|sunset)\\b|\\b(the same|this|that|tomorrow|next|on ${WEEKDAY}) (morning|afternoon|evening|night)\\b|\\b(this|next|the|over the) weekend\\b|\\b(next|this|last|coming) (week|month|quarter|year|sprint)\\b|\\bend of (the )?(day|week|month|quarter|year|sprint)\\b|\\bq[1-4]\\b|\\b\\d{1,2}(:\\d{2})? ?(am|pm)\\b|\\bin (${NUMBER_WORD}|\\d+) ${UNIT}\\b`,
  "i"
)
const DURATION = new RegExp(
  `\\b(\\d+([.,]\\d+)?|${NUMBER_WORD}|an?|a few|several|half an?)[ -](working |business |calendar |full )?${UNIT}\\b|\\b(overnight|all day|all night)\\b`,
  "i"
)
const QUANTITY = new RegExp(
  `\\d|[$€£¥]|\\b${NUMBER_WORD}\\b|\\b(percent|per ?cent|double|triple|twice|thrice|a third|a quarter|dozens?|none|zero)\\b`,
  "i"
)
const REASON =
  /\b(because|due to|caused by|as a result of|owing to|thanks to|so that|the reason|that's why|which is why|since (the|our|we|they|it|there)|given that|in order to|led to|root cause|blame|came from|was triggered by|triggered)\b/i
const ACTION =
  /\b(will|'ll|going to|agreed|decided|plan(ned)? to|offer(ed|ing)?|giv(e|ing|en)|propose[sd]?|credit|refund|waive[sd]?|discount|compensat\w*|cover(ing)?|switch(ing)? to|instead)\b/i
/** First-person commitments: the speaker is the person who does it ("Priya: I'll take the landlord"). */
const FIRST_PERSON = /\b(I'll|I will|I'm (on|taking|handling|doing)|I can (take|do|handle)|I've got|leave it (to|with) me|me\b)/i
const NOT_NAMES = new RegExp(`^(${MONTH}|${WEEKDAY}|i|ok|okay|yes|no|thanks|so|and|but|the|we|they|it|that|this)$`, "i")

/**
 * Proper names in the sentence that the question does not already say (so "Brightwater" in the question is no
 * answer). A sentence's first word is capitalised anyway: it counts only when it is a known person.
 */
const namesIn = (analysed: Analysed, known: ReadonlySet<string>, people: ReadonlySet<string>): Array<string> =>
  analysed.tokens.filter(
    (token, i) =>
      analysed.pos[i] === "PROPN" &&
      /^\p{Lu}/u.test(token) &&
      (i > 0 || people.has(token.toLowerCase())) &&
      !NOT_NAMES.test(token) &&
      !terms(token).some((term) => known.has(term))
  )

/** A part of the day alone is a greeting ("Good morning"), not a time. */
const GREETING = /^(morning|afternoon|evening|night|day)$/i

/** Entities of wink's types whose words are not all in the question. */
const entitiesOf = (analysed: Analysed, types: ReadonlyArray<string>, known: ReadonlySet<string>) =>
  analysed.entities.filter((e) => types.includes(e.type) && !GREETING.test(e.value) && !terms(e.value).every((term) => known.has(term)))

/** The text with the question's own words removed, so a date the question states ("moved to April 9") is no answer. */
const withoutKnown = (sentence: string, known: ReadonlySet<string>) =>
  sentence.replace(/[\p{L}\p{N}]+/gu, (word) => (terms(word).some((term) => known.has(term)) ? " " : word))

/** Dates say "March 3" or "the 14th": their digits are no quantity. */
const DATE_DIGITS = new RegExp(`\\b${MONTH}\\.? \\d{1,2}(st|nd|rd|th)?\\b|\\b\\d{1,2}(st|nd|rd|th)\\b|\\b\\d{1,2}:\\d{2}\\b`, "gi")

/** What a sentence is read against: the question's terms, and the people the sources name (speakers, owners). */
export interface Reading {
  readonly known: ReadonlySet<string>
  /** Lower-case first names and names of the people speaking in or owning the sources. */
  readonly people: ReadonlySet<string>
}

/**
 * How surely `sentence` states a fact of `type` that the question does not already state: 0 not at all, ½ by a
 * weaker sign (any proper name for a person), 1 surely. `speaker` is who said it: a first-person commitment
 * ("I'll handle it") names them.
 */
export const holds = (type: AnswerType, sentence: string, reading: Reading, speaker?: string): number => {
  switch (type) {
    case "yes_no":
    case "list":
    case "open":
      return 1
    case "reason":
      return REASON.test(sentence) ? 1 : 0
    case "action":
      return ACTION.test(sentence) ? 1 : 0
    default:
      break
  }
  const { known, people } = reading
  const rest = withoutKnown(sentence, known)
  const analysed = analyse(sentence)
  switch (type) {
    case "time":
      return TIME.test(rest) || entitiesOf(analysed, ["DATE", "TIME"], known).length > 0 ? 1 : 0
    case "duration":
      return DURATION.test(rest) || entitiesOf(analysed, ["DURATION"], known).length > 0 ? 1 : 0
    case "quantity":
      // A figure about something the question does not name is another figure ("the deposit" for "the inspection's cost").
      if (!terms(sentence).some((term) => known.has(term))) return 0
      return QUANTITY.test(rest.replace(DATE_DIGITS, " ")) || entitiesOf(analysed, ["MONEY", "PERCENT"], known).length > 0 ? 1 : 0
    case "person": {
      const names = namesIn(analysed, known, people)
      if ((speaker !== undefined && FIRST_PERSON.test(sentence)) || names.some((name) => people.has(name.toLowerCase()))) return 1
      return names.length > 0 ? 0.5 : 0
    }
    case "organization": {
      const names = namesIn(analysed, known, people).filter((name) => !people.has(name.toLowerCase()))
      return names.length > 0 ? 1 : 0
    }
  }
}

/** Words for "the specific fact was not found", by type. */
export const factName: Record<AnswerType, string> = {
  time: "when",
  duration: "how long",
  quantity: "the figure asked for",
  person: "who",
  organization: "which organisation",
  reason: "why",
  action: "what is being done",
  yes_no: "whether it is so",
  list: "the items asked for",
  open: "the answer"
}
