/**
 * A question that names one meeting ("in the Tuesday standup", "from the Brightwater call", "yesterday's
 * retro") is about that meeting only: these are the words of its title the question gives, which the index
 * matches against meeting titles to restrict retrieval (and the agent loop's action items) to it.
 */
import { terms } from "./Ranking.ts"

/** Nouns that say "a meeting" without saying which: they do not identify one alone. */
const GENERIC = new Set(["call", "meet", "meeting", "session", "sync", "chat"])
const KIND =
  "(standup|stand-up|call|meeting|sync|retro|retrospective|review|workshop|interview|demo|planning|kickoff|kick-off|session|handover|check-in|postmortem|post-mortem|committee|board|1:1|one-on-one|offsite|all-hands)"
const NAMED = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:in|from|during|at|of|on)\\s+(?:the|our|this|last|today's|yesterday's|this week's|last week's)?\\s*((?:[\\p{L}\\p{N}][\\p{L}\\p{N}.'’&-]*\\s+){0,5}?)${KIND}(?:\\s+(?:meeting|call))?\\b`,
  "iu"
)
const POSSESSIVE = new RegExp(`\\b((?:[\\p{L}\\p{N}][\\p{L}\\p{N}.&-]*\\s+){0,3}?[\\p{L}\\p{N}]+)['’]s\\s+${KIND}\\b`, "iu")
/** Words before the meeting kind that are about the question, not the meeting's name. */
const NOT_NAME = new Set(["yesterday", "today", "tomorrow", "week", "last", "latest", "recent", "previous", "next", "same", "first"])

const titleTerms = (words: string, kind: string) =>
  [...terms(words), ...terms(kind)].filter((term) => term.length > 1 && !NOT_NAME.has(term))

/** The named meeting's title terms, or undefined when the question names no particular meeting. */
export const namedMeeting = (question: string): ReadonlyArray<string> | undefined => {
  const match = NAMED.exec(question) ?? POSSESSIVE.exec(question)
  if (match === null) return undefined
  const kind = match[0].slice(match[0].toLowerCase().lastIndexOf((match[2] ?? "").toLowerCase()))
  const words = titleTerms(match[1] ?? "", match[2] ?? kind)
  return words.some((term) => !GENERIC.has(term)) ? [...new Set(words.filter((term) => !GENERIC.has(term)))] : undefined
}

/** Whether a meeting title carries every term of a named meeting. */
export const titleMatches = (title: string, named: ReadonlyArray<string>): boolean => {
  const have = new Set(terms(title))
  return named.every((term) => have.has(term))
}
