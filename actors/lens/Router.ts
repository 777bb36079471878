/**
 * The local router: rules over the question choose the route and the
 * sources, and say why. An agent loop for questions that ask Lens to act on
 * what it finds; a single route when the question names one kind of source;
 * a fan-out across several sources otherwise (status questions, or nothing
 * naming a source).
 */
import type { SourceType } from "./Passage.ts"

export type Route = "single" | "fan_out" | "agent"

export interface RouteDecision {
  readonly route: Route
  readonly reason: string
  readonly sources: ReadonlyArray<SourceType>
}

const ALL: ReadonlyArray<SourceType> = ["transcript", "call", "task", "page", "integration"]

const AGENT = /\b(create|make|add|open|file)\b[^.?!]*\b(tasks?|tickets?|issues?)\b|\bhave no task\b|\bwithout (a )?task\b/i
const FAN_OUT = /\b(status|progress|overview|everything|summar(y|ise|ize)|where (are|do) we stand|update on)\b/i

const SIGNALS: ReadonlyArray<readonly [SourceType, RegExp]> = [
  ["transcript", /\b(say|said|says|mention(ed)?|promis(e|ed)|discuss(ed)?|talk(ed)?|meeting|standup|call|sync|review|asked)\b/i],
  ["call", /\b(action items?|notes?|summary|key points?|follow[- ]ups?)\b/i],
  ["task", /\b(tasks?|tickets?|assigned|assignee|due|overdue|backlog|sprint|owner|owns|status of task)\b/i],
  ["page", /\b(wiki|page|doc(ument)?s?|policy|guide|handbook|runbook|spec|how (do|to))\b/i],
  ["integration", /\b(chat|channel|slack|thread|message[sd]?|conversation)\b/i]
]

export const routeQuestion = (question: string): RouteDecision => {
  if (AGENT.test(question)) {
    return {
      route: "agent",
      reason: "The question asks Lens to act on what it finds (look up, then propose writes)",
      sources: ["call", "task"]
    }
  }
  const named = SIGNALS.filter(([, pattern]) => pattern.test(question)).map(([source]) => source)
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
