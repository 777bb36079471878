/**
 * The local Lens engine: router → single route / fan-out / agent loop →
 * grading (one rewrite when nothing is relevant) → extractive synthesis with
 * numbered citations. Needs no network. Every step is traced with its
 * duration. The agent loop's tools are read-only lookups; its writes are
 * only proposed (applied by the caller's confirmation, with their
 * credentials), and they are derived from the caller's question alone, so
 * text inside a source can never ask for one.
 */
import { Effect, Schema } from "effect"
import { clausesOf, factName } from "./AnswerType.ts"
import { answerCustomerAsks } from "./CustomerAsks.ts"
import { HubUserSettings } from "../hub/people/HubUserSettings.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { dateOfDay, type MeetingFilter, namedMeeting } from "./MeetingScope.ts"
import type { Passage, SourceType } from "./Passage.ts"
import type { ModelSteps } from "./ModelSteps.ts"
import type { ProposedWrite } from "./Proposals.ts"
import { grade, rewrite, terms } from "./Ranking.ts"
import { type Asker, retrieve, search } from "./Retrievers.ts"
import { type RouteDecision, routeQuestion } from "./Router.ts"
import { type Citation, DONT_KNOW, followUpsFor, type Synthesis, synthesize } from "./Synthesis.ts"

export const StepKind = Schema.Literals(["route", "retrieve", "grade", "tool", "synthesize"])
export const Step = Schema.Struct({
  kind: StepKind,
  name: Schema.String,
  durationMs: Schema.Number,
  detail: Schema.String
}).annotate({ identifier: "LensStep" })
export type Step = typeof Step.Type

export const StoppedBecause = Schema.Literals([
  "answered",
  "no_relevant_sources",
  "proposed_writes",
  "nothing_to_do",
  "step_limit",
  "cannot_write"
])

export const Trace = Schema.Struct({
  route: Schema.Literals(["single", "fan_out", "agent", "customer_asks"]),
  routeReason: Schema.String,
  steps: Schema.Array(Step),
  stoppedBecause: StoppedBecause
}).annotate({ identifier: "LensTrace" })
export type Trace = typeof Trace.Type

export interface EngineAnswer {
  readonly answer: string
  readonly citations: Array<Citation>
  readonly trace: Trace
  readonly followUps: Array<string>
  readonly proposals: Array<ProposedWrite>
}

export interface EngineOptions {
  /** Passages whose coverage of the question is below this are not relevant. */
  readonly minimumCoverage: number
  /** How many ranked passages are graded. */
  readonly topK: number
  /** Whether the agent loop may propose writes (a user session with the member role). */
  readonly canWrite: boolean
  /** With a model configured, it routes and grades instead of the rules (falling back to them). */
  readonly model?: ModelSteps
}

// Coverage is weighted by specificity (Specificity.ts): 0.42 sits between what answers and what does not (bench lens-eval, tuning half).
export const defaultOptions: Omit<EngineOptions, "canWrite"> = { minimumCoverage: 0.42, topK: 8 }

const MAX_AGENT_STEPS = 4
const MAX_PROPOSALS = 10
const WANTS_WRITE = /\b(create|make|add|open|file)\b/i

/** Told of each step as it finishes (the streaming operation sends it on at once). */
export type StepObserver = (step: Step) => void

class Tracer {
  readonly steps: Array<Step> = []
  constructor(private readonly observe?: StepObserver) {}
  record(step: Step) {
    this.steps.push(step)
    this.observe?.(step)
  }
  timed<A, E, R>(kind: Step["kind"], name: string, body: Effect.Effect<A, E, R>, detail: (a: A) => string): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const started = performance.now()
      return Effect.tap(body, (result) =>
        Effect.sync(() => {
          this.record({ kind, name, durationMs: Math.round((performance.now() - started) * 100) / 100, detail: detail(result) })
        })
      )
    })
  }
  sync<A>(kind: Step["kind"], name: string, body: () => A, detail: (a: A) => string): Effect.Effect<A> {
    return this.timed(kind, name, Effect.sync(body), detail)
  }
}

const describeSources = (sources: ReadonlyArray<SourceType>) => sources.join(", ")

/** Retrieve and rank (the index, with the caller's permissions) → grade, with the question and, when nothing is relevant, its rewrite. */
/** The meeting the question names, its day (if any) read in the asker's time zone (their hub settings; UTC if unreadable). */
const meetingNamedIn = (asker: Asker, question: string) =>
  Effect.gen(function* () {
    const named = namedMeeting(question)
    if (named?.day === undefined) return named && ({ terms: named.terms } satisfies MeetingFilter)
    const timeZone = yield* ActorSystem.use((actors) => HubUserSettings.client(actors)(asker.userId).view({})).pipe(
      Effect.map((settings) => settings.general.timezone),
      Effect.orElseSucceed(() => "UTC")
    )
    return {
      terms: named.terms,
      day: { name: named.day, date: dateOfDay(named.day, new Date(), timeZone), timeZone }
    } satisfies MeetingFilter
  })

const describeMeeting = (meeting: MeetingFilter) =>
  [...meeting.terms, ...(meeting.day ? [`${meeting.day.name} (${meeting.day.date}, ${meeting.day.timeZone})`] : [])].join(" ")

const searchAndGrade = (tracer: Tracer, asker: Asker, decision: RouteDecision, question: string, options: EngineOptions) =>
  Effect.gen(function* () {
    const rewritten = rewrite(question)
    const meeting = yield* meetingNamedIn(asker, question)
    const found = yield* tracer.timed(
      "retrieve",
      meeting ? `${describeSources(decision.sources)} (the meeting named: ${describeMeeting(meeting)})` : describeSources(decision.sources),
      search(asker, decision.sources, [question, rewritten], options.topK, meeting),
      (f) => `${f.readable} passages readable by the caller`
    )
    const attempt = (ranked: (typeof found.ranked)[number], text: string, name: string) =>
      tracer.timed(
        "grade",
        options.model ? name.replace("bm25", `bm25 + ${options.model.name}`) : name,
        Effect.suspend(() => {
          const local = grade(ranked, options.minimumCoverage)
          return options.model === undefined ? Effect.succeed({ relevant: local, note: "" }) : options.model.grade(text, ranked, local)
        }),
        ({ relevant, note }) => `${relevant.length} of ${ranked.length} ranked passages relevant for "${text}"${note}`
      )
    const first = yield* attempt(found.ranked[0]!, question, "bm25")
    if (first.relevant.length > 0 || terms(question).length === 0) return first.relevant
    return (yield* attempt(found.ranked[1]!, rewritten, "bm25 (rewritten query)")).relevant
  })

type Relevant = ReadonlyArray<{ passage: Passage; score: number; coverage: number }>

const synthesized = (tracer: Tracer, question: string, relevant: Relevant) =>
  relevant.length === 0
    ? Effect.succeed(undefined)
    : tracer.sync(
        "synthesize",
        "extractive",
        () => synthesize(relevant, question),
        (s) => (s.notStated ? `the sources do not state ${factName[s.notStated.type]}` : `${s.citations.length} citations`)
      )

/** The sources discuss the topic but do not state the fact: say what was found, and that the fact was not. */
const notStatedAnswer = (synthesis: Synthesis | undefined) =>
  synthesis?.notStated === undefined
    ? DONT_KNOW
    : `I don't know: "${synthesis.notStated.title}" is about this, but nothing I can see says ${factName[synthesis.notStated.type]}.`

/**
 * A question asking two things, answered clause by clause, each with its own citations (renumbered in order);
 * a clause nothing answers says so. Undefined when no clause is answered.
 */
const answerClauses = (tracer: Tracer, asker: Asker, clauses: ReadonlyArray<string>, options: EngineOptions) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const citations: Array<Citation> = []
    for (const clause of clauses) {
      const relevant = yield* searchAndGrade(tracer, asker, routeQuestion(clause), clause, options)
      const synthesis = yield* synthesized(tracer, clause, relevant)
      if (synthesis === undefined || synthesis.citations.length === 0) {
        lines.push(`${clause.replace(/\?*$/, "?")} ${notStatedAnswer(synthesis)}`)
        continue
      }
      const offset = citations.length
      lines.push(synthesis.answer.replace(/\[(\d+)\]/g, (_, n: string) => `[${Number(n) + offset}]`))
      for (const citation of synthesis.citations) citations.push({ ...citation, n: citation.n + offset })
    }
    return citations.length === 0 ? undefined : { answer: lines.join("\n"), citations }
  })

const answerFrom = (
  tracer: Tracer,
  decision: RouteDecision,
  synthesis: Pick<Synthesis, "answer" | "citations" | "notStated"> | undefined
): EngineAnswer => {
  // No passage, or none with a sentence worth quoting: Lens says so rather than answer without a citation.
  if (synthesis === undefined || synthesis.citations.length === 0) {
    tracer.record({
      kind: "synthesize",
      name: "decline",
      durationMs: 0,
      detail: synthesis?.notStated
        ? `The sources discuss the topic but do not state ${factName[synthesis.notStated.type]}: Lens says so`
        : "No relevant passage: Lens says it does not know"
    })
    return {
      answer: notStatedAnswer(synthesis),
      citations: [],
      trace: { route: decision.route, routeReason: decision.reason, steps: tracer.steps, stoppedBecause: "no_relevant_sources" as const },
      followUps: ["Which meetings, tasks or pages mention this topic?"],
      proposals: []
    } satisfies EngineAnswer
  }
  return {
    answer: synthesis.answer,
    citations: synthesis.citations,
    trace: { route: decision.route, routeReason: decision.reason, steps: tracer.steps, stoppedBecause: "answered" as const },
    followUps: followUpsFor(synthesis.citations),
    proposals: []
  } satisfies EngineAnswer
}

/** A task whose title covers most of an action item's words already tracks it (task titles indexed by term once per run). */
const trackedBy = (tasks: ReadonlyArray<Passage>) => {
  const byTerm = new Map<string, Array<number>>()
  tasks.forEach((task, i) => {
    for (const term of new Set(terms(task.title))) {
      const holders = byTerm.get(term)
      if (holders === undefined) byTerm.set(term, [i])
      else holders.push(i)
    }
  })
  return (item: string) => {
    const wanted = [...new Set(terms(item))]
    if (wanted.length === 0) return true
    const shared = new Map<number, number>()
    for (const term of wanted) for (const i of byTerm.get(term) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1)
    return [...shared.values()].some((count) => count / wanted.length >= 0.6)
  }
}

const WEEK_MS = 7 * 24 * 3600 * 1000
const periodOf = (question: string): { from: number; label: string } | undefined =>
  /\blast week\b|\bthis week\b|\bpast week\b/i.test(question) ? { from: Date.now() - 2 * WEEK_MS, label: "the last two weeks" } : undefined

/** The agent loop: look up action items, look up tasks for them, then propose the missing ones (bounded steps). */
const agentLoop = (tracer: Tracer, asker: Asker, decision: RouteDecision, question: string, options: EngineOptions) =>
  Effect.gen(function* () {
    let steps = 0
    const period = periodOf(question)
    const items = yield* tracer.timed(
      "tool",
      "listCallActionItems",
      Effect.map(retrieve(asker, ["call"], yield* meetingNamedIn(asker, question)), (passages) =>
        passages.filter(
          (p) => p.actionItem !== undefined && (period === undefined || (p.at !== undefined && Date.parse(p.at) >= period.from))
        )
      ),
      (found) => `${found.length} action items in the caller's own call versions${period ? ` from ${period.label}` : ""}`
    )
    steps++
    const tasks = yield* tracer.timed(
      "tool",
      "searchTasks",
      retrieve(asker, ["task"]),
      (found) => `${found.length} tasks visible to the caller`
    )
    steps++
    const missing = yield* tracer.sync(
      "grade",
      "untracked action items",
      () => {
        const tracked = trackedBy(tasks)
        return items.filter((item) => !tracked(item.actionItem!.text))
      },
      (found) => `${found.length} of ${items.length} action items have no task`
    )
    steps++
    const relevant = missing.slice(0, MAX_PROPOSALS).map((passage) => ({ passage, score: 1, coverage: 1 }))
    if (missing.length === 0) {
      tracer.record({ kind: "synthesize", name: "agent", durationMs: 0, detail: "Nothing to do" })
      return {
        answer:
          items.length === 0
            ? "I found no action items in your calls."
            : `Every one of the ${items.length} action items I can see already has a task.`,
        citations: [],
        trace: { route: decision.route, routeReason: decision.reason, steps: tracer.steps, stoppedBecause: "nothing_to_do" as const },
        followUps: ["Which tasks are due this week?"],
        proposals: []
      } satisfies EngineAnswer
    }
    const synthesis = synthesize(relevant, question, "every")
    const wantsWrite = WANTS_WRITE.test(question)
    const proposals: Array<ProposedWrite> =
      wantsWrite && options.canWrite && steps < MAX_AGENT_STEPS
        ? missing.slice(0, MAX_PROPOSALS).map((item) => ({
            operationId: "createTaskLite" as const,
            title: `Create task "${item.actionItem!.text}"`,
            input: {
              name: item.actionItem!.text.slice(0, 200),
              description: `From the call "${item.title.replace(/: action item$/, "")}"${item.actionItem!.owner ? `; owner: ${item.actionItem!.owner}` : ""}`
            }
          }))
        : []
    if (proposals.length > 0) {
      tracer.record({
        kind: "tool",
        name: "proposeWrites",
        durationMs: 0,
        detail: `${proposals.length} createTaskLite proposals awaiting confirmation`
      })
    }
    const lead = `${missing.length} action item${missing.length === 1 ? " has" : "s have"} no task yet:`
    const tail =
      proposals.length > 0
        ? `\nI proposed ${proposals.length} task${proposals.length === 1 ? "" : "s"}; confirm the proposals to create them.`
        : wantsWrite
          ? "\nI cannot create tasks for you here: writes need a user session with the member role."
          : ""
    tracer.record({ kind: "synthesize", name: "agent", durationMs: 0, detail: `${synthesis.citations.length} citations` })
    return {
      answer: `${lead}\n${synthesis.answer}${tail}`,
      citations: synthesis.citations,
      trace: {
        route: decision.route,
        routeReason: decision.reason,
        steps: tracer.steps,
        stoppedBecause: proposals.length > 0 ? ("proposed_writes" as const) : wantsWrite ? ("cannot_write" as const) : ("answered" as const)
      },
      followUps: followUpsFor(synthesis.citations),
      proposals
    } satisfies EngineAnswer
  })

/** What customers asked for: the calls' customer asks of the period, each citing its moment and its request. */
const customerAsks = (tracer: Tracer, asker: Asker, decision: RouteDecision, question: string) =>
  Effect.gen(function* () {
    const found = yield* tracer.timed(
      "tool",
      "listCustomerAsks",
      answerCustomerAsks(asker, question),
      (result) => `${result.asks} customer asks from calls, ${result.citations.length} citations`
    )
    tracer.record({ kind: "synthesize", name: "customer asks", durationMs: 0, detail: `${found.citations.length} citations` })
    return {
      answer: found.answer,
      citations: found.citations,
      trace: {
        route: decision.route,
        routeReason: decision.reason,
        steps: tracer.steps,
        stoppedBecause: found.asks > 0 ? ("answered" as const) : ("no_relevant_sources" as const)
      },
      followUps: found.asks > 0 ? ["Which of these requests are planned?"] : ["Which meetings mention customers?"],
      proposals: []
    } satisfies EngineAnswer
  })

/** Answers `question` (already resolved against its thread) for `asker`. */
export const answerQuestion = (asker: Asker, question: string, options: EngineOptions, observe?: StepObserver) =>
  Effect.gen(function* () {
    const tracer = new Tracer(observe)
    const model = options.model
    const rules = routeQuestion(question)
    // Customer asks are read from the calls, not searched: the rules route them, model or not.
    const decision = yield* tracer.timed(
      "route",
      model && rules.route !== "customer_asks" ? model.name : "rules",
      model && rules.route !== "customer_asks" ? model.route(question, () => rules) : Effect.succeed(rules),
      (d) => `${d.route}: ${d.reason}`
    )
    if (decision.route === "customer_asks") return yield* customerAsks(tracer, asker, decision, question)
    if (decision.route === "agent") return yield* agentLoop(tracer, asker, decision, question, options)
    const clauses = clausesOf(question)
    if (clauses.length > 1) return answerFrom(tracer, decision, yield* answerClauses(tracer, asker, clauses, options))
    const relevant = yield* searchAndGrade(tracer, asker, decision, question, options)
    return answerFrom(tracer, decision, yield* synthesized(tracer, question, relevant))
  })

const REFERS_BACK = /\b(it|its|that|this|they|them|those|he|she|him|her|there)\b|^\s*(and|also|what about)\b/i

/** A follow-up ("and who owns it?") carries the thread's last question's words with it. */
export const resolveAgainstThread = (message: string, previous: string | undefined): string =>
  previous !== undefined && REFERS_BACK.test(message) && terms(message).length <= 6 ? `${message} (${terms(previous).join(" ")})` : message
