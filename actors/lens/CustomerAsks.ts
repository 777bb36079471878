/**
 * "What did customers ask for this month?": answered from the calls'
 * customer asks (`actors/hub/CallProposals.ts`: what an outside attendee
 * asked for, with the moment it was said) and the feature requests they
 * match or became. Each ask cites the transcript moment (every member may
 * read transcripts); its request is cited only when the asker may see that
 * board (the feedback rule: public and members boards for the workspace's
 * members, private ones for workspace admins and the board's members) and
 * that request (posts waiting for moderation: the team only).
 */
import { Effect, Option } from "effect"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { Board } from "../feedback/Board.ts"
import { visibleTo } from "../feedback/BoardReads.ts"
import { requestReference } from "../feedback/BoardKeys.ts"
import type { RequestRecord } from "../feedback/FeedbackModel.ts"
import { type CallProposal, clockOf, customerAsksSince } from "../hub/CallProposals.ts"
import { atLeast } from "../identity/Workspace.ts"
import type { Asker } from "./LensReach.ts"
import type { Citation } from "./Synthesis.ts"

/**
 * A question asking what customers asked for, as a whole ("What did customers ask for this month?", "What have
 * clients been requesting lately?"), with at most a period after it. A question about one thing customers asked
 * ("How many customers asked for a Spanish app?", "Which customer wants label printing?") is a search of the
 * transcripts like any other, so it does not match.
 */
const ASKED =
  /^\s*(?:what|which (?:things|features|capabilities)|list)\b[^?]*?\b(?:customers?|clients?)\s+(?:have\s+)?(?:been\s+)?(?:ask(?:ed|ing)?\s+for|request(?:ed|ing)?|want(?:ed)?|complain(?:ed|ing)?\s+about)\s*(?:(?:this|last|the past|past)\s+(?:month|week|quarter)|today|recently|lately|in (?:our |the )?calls|so far)?\s*\??\s*$/i

export const asksAboutCustomerAsks = (question: string) => ASKED.test(question)

/** The most asks one answer lists. */
const MAX_ASKS = 20

export interface Period {
  readonly since: Date
  readonly until: Date
  readonly label: string
}

const DAY_MS = 86_400_000

/** The time the question names (UTC days): this or last month, this or last week, today; else the last 30 days. */
export const periodOf = (question: string, now: Date): Period => {
  const monthStart = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1))
  const monthName = (date: Date) => date.toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" })
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  if (/\blast month\b|\bprevious month\b/i.test(question))
    return { since: monthStart(-1), until: monthStart(0), label: `last month (${monthName(monthStart(-1))})` }
  if (/\bthis month\b/i.test(question)) return { since: monthStart(0), until: now, label: `this month (${monthName(monthStart(0))})` }
  if (/\blast week\b|\bpast week\b/i.test(question))
    return { since: new Date(now.getTime() - 7 * DAY_MS), until: now, label: "the last 7 days" }
  if (/\bthis week\b/i.test(question)) {
    const sinceMonday = (today.getUTCDay() + 6) % 7
    return { since: new Date(today.getTime() - sinceMonday * DAY_MS), until: now, label: "this week" }
  }
  if (/\btoday\b/i.test(question)) return { since: today, until: now, label: "today" }
  return { since: new Date(now.getTime() - 30 * DAY_MS), until: now, label: "the last 30 days" }
}

/** The request an ask is about: the similar one it votes for, or the one confirming it created. */
const requestIdOf = (ask: CallProposal): string | undefined => {
  if (ask.call.requestId !== null) return ask.call.requestId
  const created = (ask.result as { request?: { id?: unknown } } | null)?.request?.id
  return ask.status === "applied" && typeof created === "string" ? created : undefined
}

/** The request, when `asker` may see its board and it. */
const visibleRequest = (asker: Asker, boardId: string, requestId: string) =>
  Effect.gen(function* () {
    const board = Board.client(yield* ActorSystem)(boardId)
    const view = yield* Effect.option(board.view({}))
    if (Option.isNone(view) || view.value.board.workspaceId !== asker.workspaceId) return undefined
    const boardRole = view.value.members.find((member) => member.userId === asker.userId)?.role ?? null
    const admin = atLeast(asker.role, "admin") || boardRole === "admin"
    if (view.value.board.visibility === "private" && !admin && boardRole === null) return undefined
    const request = yield* Effect.option(board.request({ requestId }))
    if (Option.isNone(request)) return undefined
    const team = atLeast(asker.role, "member") || boardRole !== null
    // The workspace-wide reference (MOBILE-12): an answer may cite requests of several boards.
    const reference = requestReference(view.value.board.key, request.value.number)
    return visibleTo(request.value, asker.userId, team)
      ? { request: request.value, reference, boardName: view.value.board.name }
      : undefined
  })

export interface CustomerAsksAnswer {
  readonly answer: string
  readonly citations: Array<Citation>
  readonly asks: number
}

/** What customers asked for in the period the question names, each ask citing its call moment and its request. */
export const answerCustomerAsks = (asker: Asker, question: string, now = new Date()) =>
  Effect.gen(function* () {
    const period = periodOf(question, now)
    const asks = (yield* Effect.orDie(customerAsksSince(asker.workspaceId, period.since.toISOString(), MAX_ASKS * 5)))
      .filter((ask) => Date.parse(ask.callAt) < period.until.getTime() && ask.status !== "rejected")
      .slice(0, MAX_ASKS)
    if (asks.length === 0)
      return { answer: `I found no customer asks in the calls of ${period.label}.`, citations: [], asks: 0 } satisfies CustomerAsksAnswer
    const citations: Array<Citation> = []
    const cited = new Map<string, number>()
    const lines: Array<string> = []
    for (const ask of asks) {
      const moment = ask.call
      citations.push({
        n: citations.length + 1,
        sourceType: "transcript",
        sourceId: String(moment.callId),
        title: moment.callName,
        snippet: `${moment.speakerEmail}: ${moment.said}`,
        span: { startMs: moment.startMs, endMs: moment.endMs }
      })
      let line = `- ${moment.speakerEmail} in "${moment.callName}" at ${clockOf(moment.startMs)}: "${moment.said}" [${citations.length}]`
      const requestId = requestIdOf(ask)
      const found = requestId === undefined ? undefined : yield* visibleRequest(asker, moment.boardId, requestId)
      if (found !== undefined) {
        let n = cited.get(found.request.id)
        if (n === undefined) {
          n = citations.length + 1
          cited.set(found.request.id, n)
          citations.push(requestCitation(n, found.request, found.reference, found.boardName))
        }
        line += ` → ${found.reference} "${found.request.title}" [${n}]`
      } else if (ask.status === "proposed") line += " (no request yet: proposed for the board)"
      lines.push(line)
    }
    const count = asks.length
    return {
      answer: `Customers asked for ${count} thing${count === 1 ? "" : "s"} in the calls of ${period.label}:\n${lines.join("\n")}`,
      citations,
      asks: count
    } satisfies CustomerAsksAnswer
  })

const requestCitation = (n: number, request: RequestRecord, reference: string, boardName: string): Citation => ({
  n,
  sourceType: "request",
  sourceId: request.id,
  title: `${reference}: ${request.title}`,
  snippet: `${request.voteCount} vote${request.voteCount === 1 ? "" : "s"} on the board ${boardName}`
})
