/**
 * The local router: rules over the question choose the route and the
 * sources, and say why. An agent loop for questions that ask Lens to act on
 * what it finds; the calls' customer asks for questions about what customers
 * asked for; a single route when the question names one kind of source;
 * a fan-out across several sources otherwise (status questions, or nothing
 * naming a source).
 */
import { asksAboutCustomerAsks } from "./CustomerAsks.ts"
import type { SourceType } from "./Passage.ts"

export type Route = "single" | "fan_out" | "agent" | "customer_asks"

export interface RouteDecision {
  readonly route: Route
  readonly reason: string
  readonly sources: ReadonlyArray<SourceType>
}

const ALL: ReadonlyArray<SourceType> = ["transcript", "call", "task", "page", "integration"]

const AGENT = /\b(create|make|add|open|file)\b[^.?!]*\b(tasks?|tickets?|issues?)\b|\bhave no task\b|\bwithout (a )?task\b/i
const FAN_OUT = /\b(status|progress|overview|everything|summar(y|ise|ize)|where (are|do) we stand|update on)\b/i

const SIGNALS: ReadonlyArray<readonly [SourceType, RegExp]> = [
  ["transcript", /\b(say|said|says|mention(ed)?|promis(e|ed)|discuss(ed)?|talk(ed)?|meeting|standup|asked)\b/i],
  ["call", /\b(action items?|notes?|summary|key points?|follow[-_ ]ups?)\b/i],
  ["task", /\b(tasks?|tickets?|assigned|assignee|due|overdue|backlog|sprint|owner|owns|status of task)\b/i],
  ["page", /\b(wiki|page|doc(ument)?s?|policy|guide(lines?)?|handbook|playbook|checklist|runbook|spec|how (do|to))\b/i],
  ["integration", /\b(chat|channel|slack|thread|message[sd]?|conversation)\b/i]
]

/** Words that name a meeting but also other things ("code review", "API call"): they count only when nothing else is named. */
const WEAK_MEETING = /\b(call|sync|review)\b/i

/** "on-call" or "sign-on" is one word, not "call" or "on". */
const joinHyphenated = (question: string) => question.replace(/(\p{L})-(\p{L})/gu, "$1_$2")

export const routeQuestion = (asked: string): RouteDecision => {
  const question = joinHyphenated(asked)
  if (AGENT.test(question)) {
    return {
      route: "agent",
      reason: "The question asks Lens to act on what it finds (look up, then propose writes)",
      sources: ["call", "task"]
    }
  }
  if (asksAboutCustomerAsks(question)) {
    return {
      route: "customer_asks",
      reason: "The question asks what customers asked for: the calls' customer asks and the requests they match",
      sources: ["transcript", "request"]
    }
  }
  const strong = SIGNALS.filter(([, pattern]) => pattern.test(question)).map(([source]) => source)
  const named: ReadonlyArray<SourceType> = strong.length === 0 && WEAK_MEETING.test(question) ? ["transcript"] : strong
  if (FAN_OUT.test(question)) {
    return { route: "fan_out", reason: "A status or overview question: several sources answer it together", sources: ALL }
  }
  const distinct = [...new Set(named.map((s) => (s === "call" ? "transcript" : s)))]
  if (distinct.length === 1) {
    const source = distinct[0]!
    return {
      route: "single",
      reason: `The question names one kind of source (${source === "transcript" ? "meetings" : source})`,
      sources: source === "transcript" ? ["transcript", "call"] : [source]
    }
  }
  return {
    route: "fan_out",
    reason:
      distinct.length === 0 ? "No source is named: search every source" : `Several kinds of source are named (${distinct.join(", ")})`,
    sources: ALL
  }
}
