/**
 * The local summarizer: wink-nlp with its English model (shipped inside the
 * npm package, nothing downloaded), deterministic for the same inputs.
 *
 * - summary and key points: extractive; sentences ranked by the weight of
 *   their content words over the transcript (tf·idf), boosted by the terms of
 *   the prompts and of the note template's sections;
 * - action items: commitments ("I'll…", "Bob will…", "Bob, can you…"),
 *   group obligations ("we need to…", "let's…") and imperatives, with the
 *   owner and the due date when they are spoken;
 * - enhanced notes: each of the user's note lines followed by the transcript
 *   passage it refers to, laid out under their template's sections.
 */
import { Effect } from "effect"
import { englishNlp } from "../../EnglishNlp.ts"
import type { Segment } from "../Transcript.ts"
import type { SummarizerShape, SummaryRequest } from "./Summarizer.ts"
import { type ActionItem, actionItemId, type VersionContent } from "./VersionContent.ts"
import { promptText } from "./VersionInputs.ts"

// Only sentence boundaries and parts of speech (lemmas need them): negation, sentiment and entity
// recognition are never read, and skipping them makes a transcript's analysis about three times cheaper.
const nlp = () => englishNlp(["sbd", "pos"])

interface Sentence {
  readonly index: number
  /** The transcript segment it was said in (by position). */
  readonly segment: number
  readonly speaker: string
  readonly text: string
  readonly terms: ReadonlyArray<string>
  /** The distinct terms (what ranking and steering count). */
  readonly unique: ReadonlySet<string>
  readonly firstPos: string
}

/** What every version of one transcript shares: its sentences and their steering-free scores. */
interface Analysis {
  readonly sentences: ReadonlyArray<Sentence>
  /** tf·idf of each sentence's terms per word, by sentence index (the rank before steering). */
  readonly scores: ReadonlyArray<number>
  /** The action-item candidates by meeting date (due dates resolve from it). */
  readonly candidates: Map<string, ReadonlyArray<Candidate>>
}

/** A sentence that reads as an action item, first occurrence of its text only. */
interface Candidate {
  readonly item: ActionItem
  readonly index: number
  /** Spoken owner and due date come first. */
  readonly bonus: number
}

/** Content words of a text, lemmatized and lower case. */
const termsOf = (text: string): Array<string> => {
  const engine = nlp()
  const its: any = engine.its
  return engine
    .readDoc(text)
    .tokens()
    .filter((t) => t.out(its.type) === "word" && !t.out(its.stopWordFlag))
    .out(its.lemma)
    .map((lemma) => String(lemma).toLowerCase())
}

/**
 * The transcript's sentences, segment by segment. Each document's token properties are read as whole
 * arrays (one pass each) and cut by the sentences' token spans: wink's per-token items cost more than
 * the tagging itself.
 */
const analyse = (segments: ReadonlyArray<Segment>): Array<Sentence> => {
  const sentences: Array<Sentence> = []
  const engine = nlp()
  const its: any = engine.its
  for (const [position, segment] of segments.entries()) {
    const doc: any = engine.readDoc(segment.text)
    const texts: Array<string> = doc.sentences().out()
    const spans: Array<[number, number]> = doc.sentences().out(its.span)
    const tokens = doc.tokens()
    const types: Array<string> = tokens.out(its.type)
    const stopWords: Array<boolean> = tokens.out(its.stopWordFlag)
    const lemmas: Array<string> = tokens.out(its.lemma)
    const pos: Array<string> = tokens.out(its.pos)
    texts.forEach((raw, index) => {
      const text = String(raw).trim()
      if (text === "") return
      const [first, last] = spans[index]!
      const terms: Array<string> = []
      let firstPos = ""
      for (let token = first; token <= last; token++) {
        if (types[token] !== "word") continue
        if (firstPos === "") firstPos = pos[token]!
        if (!stopWords[token]) terms.push(lemmas[token]!.toLowerCase())
      }
      sentences.push({
        index: sentences.length,
        segment: position,
        speaker: segment.speaker,
        text,
        terms,
        unique: new Set(terms),
        firstPos
      })
    })
  }
  return sentences
}

/** Scores every sentence by the tf·idf of its terms per word (transcript-wide: the same for every version). */
const baseScores = (sentences: ReadonlyArray<Sentence>): Array<number> => {
  const frequency = new Map<string, number>()
  const documents = new Map<string, number>()
  for (const sentence of sentences) {
    for (const term of sentence.terms) frequency.set(term, (frequency.get(term) ?? 0) + 1)
    for (const term of sentence.unique) documents.set(term, (documents.get(term) ?? 0) + 1)
  }
  const total = Math.max(1, sentences.length)
  return sentences.map((sentence) => {
    let score = 0
    for (const term of sentence.unique) score += Math.log1p(frequency.get(term)!) * Math.log(1 + total / documents.get(term)!)
    return score / Math.sqrt(Math.max(4, sentence.terms.length))
  })
}

/** One transcript's analysis serves every version generated from it (the call actor passes the same array). */
const analysed = new WeakMap<ReadonlyArray<Segment>, Analysis>()
/** Analyses a transcript ahead of its versions (what every version of it shares), its action items for a meeting on `meetingDate`. */
export const prepare = (segments: ReadonlyArray<Segment>, meetingDate: string): void => void candidatesOf(analysisOf(segments), meetingDate)

const analysisOf = (segments: ReadonlyArray<Segment>): Analysis => {
  let analysis = analysed.get(segments)
  if (analysis === undefined) {
    const sentences = analyse(segments)
    analysis = { sentences, scores: baseScores(sentences), candidates: new Map() }
    analysed.set(segments, analysis)
  }
  return analysis
}

/** The transcript's sentences as the analysis read them (shared with its versions): what customer asks are found in. */
export const sentencesOf = (segments: ReadonlyArray<Segment>): ReadonlyArray<Omit<Sentence, "unique">> => analysisOf(segments).sentences

interface Ranked {
  readonly sentence: Sentence
  readonly score: number
}

/** Every sentence's score for one version: its transcript-wide score plus a boost per steering term it holds. */
const rank = (analysis: Analysis, steering: ReadonlySet<string>): Array<Ranked> =>
  analysis.sentences.map((sentence, index) => {
    let steered = 0
    if (steering.size > 0) for (const term of sentence.unique) if (steering.has(term)) steered++
    return { sentence, score: analysis.scores[index]! + steered * 2.5 }
  })

/** The best `count` sentences (ties broken by position), in transcript order. */
const top = (ranked: ReadonlyArray<Ranked>, count: number): Array<Sentence> =>
  [...ranked]
    .sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index)
    .slice(0, count)
    .map((entry) => entry.sentence)
    .sort((a, b) => a.index - b.index)

/** The most action items one version lists. */
export const MAX_ACTION_ITEMS = 25

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
const DUE =
  /\b(?:by|before|until|due|on)\s+(tomorrow|today|tonight|end of (?:the )?(?:day|week|month)|next week|(?:next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d{4}-\d{2}-\d{2})\b/i
/** Phrases that are a date on their own, without "by": "tomorrow", "next week". */
const BARE_DUE = /\b(tomorrow|tonight|next week|next\s+(?:monday|tuesday|wednesday|thursday|friday))\b/i

const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** A spoken due date resolved against the meeting's day. */
export const dueDateOf = (text: string, meetingDate: string): string | undefined => {
  const match = DUE.exec(text) ?? BARE_DUE.exec(text)
  if (match === null) return undefined
  const phrase = match[1]!.toLowerCase()
  const base = new Date(`${meetingDate}T00:00:00.000Z`)
  const plus = (days: number) => isoDay(new Date(base.getTime() + days * 86_400_000))
  if (/^\d{4}-/.test(phrase)) return phrase
  if (phrase === "today" || phrase === "tonight" || phrase === "end of day" || phrase === "end of the day") return plus(0)
  if (phrase === "tomorrow") return plus(1)
  if (phrase === "next week") return plus(7)
  if (phrase.endsWith("week")) return plus((5 - base.getUTCDay() + 7) % 7)
  if (phrase.endsWith("month")) return isoDay(new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)))
  const weekday = WEEKDAYS.indexOf(phrase.replace(/^next\s+/, ""))
  const ahead = (weekday - base.getUTCDay() + 7) % 7 || 7
  return plus(phrase.startsWith("next ") ? ahead + 7 : ahead)
}

const SELF = /\b(?:I'll|I will|I'm going to|I am going to|I can take|I'll take|let me)\b/i
const ASKED = /^([A-Z][a-z]+),\s+(?:can|could|would|will)\s+you\b/
const NAMED = /\b([A-Z][a-z]+)\s+(?:will|is going to|needs to|should|has to|must)\s+\w+/
const GROUP = /\b(?:we need to|we should|we have to|we must|let's|let us|action item|to-?do)\b/i
const NOT_NAMES = new Set(["I", "We", "It", "This", "That", "There", "They", "You", "He", "She", "What", "Who", "Then", "So", "And", "But"])

const actionOf = (sentence: Sentence, meetingDate: string): ActionItem | undefined => {
  const text = sentence.text
  let owner: string | undefined
  const asked = ASKED.exec(text)
  const named = NAMED.exec(text)
  if (asked && !NOT_NAMES.has(asked[1]!)) owner = asked[1]
  else if (SELF.test(text)) owner = sentence.speaker || undefined
  else if (named && !NOT_NAMES.has(named[1]!)) owner = named[1]
  else if (!GROUP.test(text) && !(sentence.firstPos === "VERB" && !text.endsWith("?"))) return undefined
  const dueDate = dueDateOf(text, meetingDate)
  return { id: actionItemId(text), text, ...(owner ? { owner } : {}), ...(dueDate ? { dueDate } : {}) }
}

/** The transcript's action-item candidates for a meeting on `meetingDate` (computed once per transcript and date). */
const candidatesOf = (analysis: Analysis, meetingDate: string): ReadonlyArray<Candidate> => {
  let candidates = analysis.candidates.get(meetingDate)
  if (candidates === undefined) {
    const seen = new Set<string>()
    const found: Array<Candidate> = []
    for (const sentence of analysis.sentences) {
      const item = actionOf(sentence, meetingDate)
      if (item && !seen.has(item.id)) {
        seen.add(item.id)
        found.push({ item, index: sentence.index, bonus: (item.owner ? 10 : 0) + (item.dueDate ? 10 : 0) })
      }
    }
    candidates = found
    analysis.candidates.set(meetingDate, candidates)
  }
  return candidates
}

const overlap = (a: ReadonlyArray<string>, b: ReadonlySet<string>) => a.reduce((n, term) => n + (b.has(term) ? 1 : 0), 0)

/** The transcript sentence a note line refers to (most shared terms; none when nothing is shared). */
const passageFor = (line: string, sentences: ReadonlyArray<Sentence>): Sentence | undefined => {
  const terms = new Set(termsOf(line))
  let best: Sentence | undefined
  let bestScore = 0
  for (const sentence of sentences) {
    const score = overlap(sentence.terms, terms)
    if (score > bestScore) {
      best = sentence
      bestScore = score
    }
  }
  return best
}

const quote = (sentence: Sentence) => `${sentence.speaker ? `${sentence.speaker}: ` : ""}"${sentence.text}"`

const enhancedNotes = (
  request: SummaryRequest,
  analysis: Analysis,
  summary: ReadonlyArray<Sentence>,
  actions: ReadonlyArray<ActionItem>
) => {
  const lines = (request.inputs.notes ?? "")
    .split("\n")
    .map((line) => line.replace(/^\s*[-*\u2022]\s*/, "").trim())
    .filter((line) => line !== "")
  const expand = (line: string) => {
    const passage = passageFor(line, analysis.sentences)
    return passage ? `- ${line}\n  - ${quote(passage)}` : `- ${line}`
  }
  const template = request.inputs.template
  if (template === null) {
    if (lines.length === 0)
      return [`## Summary`, ...summary.map((s) => `- ${s.text}`), "", "## Action items", ...actions.map((a) => `- ${a.text}`)].join("\n")
    return ["## Notes", ...lines.map(expand)].join("\n")
  }
  // Each note line goes under the section it shares most terms with (the first when none).
  const sectionTerms = template.sections.map((section) => new Set(termsOf(`${section.title} ${section.instruction}`)))
  const bySection = template.sections.map(() => [] as Array<string>)
  for (const line of lines) {
    const terms = termsOf(line)
    let best = 0
    sectionTerms.forEach((set, index) => {
      if (overlap(terms, set) > overlap(terms, sectionTerms[best]!)) best = index
    })
    bySection[best]!.push(line)
  }
  return template.sections
    .map((section, index) => {
      const notes = bySection[index]!
      if (notes.length > 0) return [`## ${section.title}`, ...notes.map(expand)].join("\n")
      // A section without notes is filled from the transcript by its instruction.
      const filled = top(rank(analysis, sectionTerms[index]!), 2).filter((s) => overlap(s.terms, sectionTerms[index]!) > 0)
      return [`## ${section.title}`, ...(filled.length > 0 ? filled.map((s) => `- ${quote(s)}`) : ["- (nothing discussed)"])].join("\n")
    })
    .join("\n\n")
}

/** Generates one version; pure and deterministic. */
export const summarize = (request: SummaryRequest): VersionContent => {
  const analysis = analysisOf(request.segments)
  const sentences = analysis.sentences
  const steering = new Set([
    ...termsOf(promptText(request.inputs)),
    ...(request.inputs.template?.sections.flatMap((section) => termsOf(`${section.title} ${section.instruction}`)) ?? [])
  ])
  const ranked = rank(analysis, steering)
  const summary = top(ranked, Math.min(3, sentences.length))
  const keyPoints = top(ranked, Math.min(6, sentences.length))
  // Items with a spoken owner or due date first, then the most relevant to the steering terms.
  const found = candidatesOf(analysis, request.meetingDate).map(({ item, index, bonus }) => ({
    item,
    index,
    score: bonus + ranked[index]!.score
  }))
  // A long meeting's notes list the main commitments, not every sentence that sounds like one.
  const actionItems = found
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_ACTION_ITEMS)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.item)
  return {
    summary: summary.map((s) => s.text).join(" "),
    keyPoints: keyPoints.map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text)),
    actionItems,
    enhancedNotes: enhancedNotes(request, analysis, summary, actionItems)
  }
}

export const localSummarizer: SummarizerShape = {
  name: "local",
  generate: (request) => Effect.sync(() => summarize(request))
}
