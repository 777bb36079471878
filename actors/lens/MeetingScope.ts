/**
 * A question that names one meeting ("in the Tuesday standup", "from the Brightwater call", "yesterday's
 * retro") is about that meeting only: the words of its title the question gives, and the day it names, which
 * the index matches against meetings (title words; the day by the title or by when the meeting took place, in
 * the asker's time zone) to restrict retrieval — and the agent loop's action items — to it.
 */
import { terms } from "./Ranking.ts"

export interface NamedMeeting {
  /** Words every matching meeting's title has. */
  readonly terms: ReadonlyArray<string>
  /** A day the question names ("yesterday", "today", a weekday): the title says it, or the meeting took place then. */
  readonly day?: string
}

/** Nouns that say "a meeting" without saying which: they do not identify one alone. */
const GENERIC = new Set(["call", "meet", "meeting", "session", "sync", "chat"])
const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
const DAY = /\b(yesterday|today|sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/i
const KIND =
  "(standup|stand-up|call|meeting|sync|retro|retrospective|review|workshop|interview|demo|planning|kickoff|kick-off|session|handover|check-in|postmortem|post-mortem|committee|board|1:1|one-on-one|offsite|all-hands)"
const NAMED = new RegExp(
  `(?<![\\p{L}\\p{N}-])(?:in|from|during|at|of|on)\\s+(?:the|our|this|last|today's|yesterday's|this week's|last week's)?\\s*((?:[\\p{L}\\p{N}][\\p{L}\\p{N}.'’&-]*\\s+){0,5}?)${KIND}(?:\\s+(?:meeting|call))?\\b`,
  "iu"
)
const POSSESSIVE = new RegExp(`\\b((?:[\\p{L}\\p{N}][\\p{L}\\p{N}.&-]*\\s+){0,3}?[\\p{L}\\p{N}]+)['’]s\\s+${KIND}\\b`, "iu")
/** Words before the meeting kind that are about the question, not the meeting's name. */
const NOT_NAME = new Set([
  "yesterday",
  "today",
  "tomorrow",
  "week",
  "last",
  "latest",
  "recent",
  "previous",
  "next",
  "same",
  "first",
  ...DAYS
])

/** The meeting a question names, or undefined when it names no particular meeting. */
export const namedMeeting = (question: string): NamedMeeting | undefined => {
  const match = NAMED.exec(question) ?? POSSESSIVE.exec(question)
  if (match === null) return undefined
  const words = [...terms(match[1] ?? ""), ...terms(match[2] ?? "")].filter((term) => term.length > 1 && !NOT_NAME.has(term))
  const specific = [...new Set(words.filter((term) => !GENERIC.has(term)))]
  const day = DAY.exec(match[0])?.[1]?.toLowerCase()
  if (specific.length === 0 && day === undefined) return undefined
  return day === undefined ? { terms: specific } : { terms: specific, day }
}

/** `YYYY-MM-DD` of an instant in a time zone. */
const localDate = (at: Date, timeZone: string): string => at.toLocaleDateString("en-CA", { timeZone })

/**
 * The date a named day stands for, seen from `now` in the asker's time zone: today, yesterday, or the latest
 * such weekday (today included).
 */
export const dateOfDay = (day: string, now: Date, timeZone: string): string => {
  const today = localDate(now, timeZone)
  const back = (days: number) => localDate(new Date(now.getTime() - days * 86_400_000), timeZone)
  if (day === "today") return today
  if (day === "yesterday") return back(1)
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay()
  return back((weekday - DAYS.indexOf(day) + 7) % 7)
}

/** What the index matches meetings against: title words, and a day with its date and the asker's time zone. */
export interface MeetingFilter {
  readonly terms: ReadonlyArray<string>
  readonly day?: { readonly name: string; readonly date: string; readonly timeZone: string }
}

/** Whether a meeting (its title, and when it took place) is the one named. */
export const meetingMatches = (title: string, at: string | undefined, named: MeetingFilter): boolean => {
  const have = new Set(terms(title))
  if (!named.terms.every((term) => have.has(term))) return false
  const day = named.day
  if (day === undefined || have.has(day.name)) return true
  return at !== undefined && localDate(new Date(at), day.timeZone) === day.date
}
