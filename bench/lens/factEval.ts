/**
 * Runs the second evaluation set (`facts.ts`) against a running Atrium: builds its workspace through the HTTP
 * operations, asks every question through chatWithLens, and scores answer accuracy (the answer contains one
 * accepted form of each asked fact), recall@5, meeting scope (every citation from the named meeting) and
 * declines of near misses. Failures are listed for the tuning half only: the held-out half is read by its figures.
 */
import {
  FACT_ANSWERABLE,
  FACT_MEETINGS,
  FACT_NEAR_MISSES,
  FACT_PAGES,
  FACT_PEOPLE,
  FACT_TASKS,
  type FactQuestion,
  factHalfOf
} from "./facts.ts"
import { declined, firstSources, type Reply } from "./score.ts"
import { type Client, createRecordings, createTasksAndPages, createWorkspace, registerPeople } from "./seed.ts"

export interface FactScored {
  readonly text: string
  readonly half: "tuning" | "held-out"
  readonly correct: boolean
  readonly recall: number
  /** undefined: not a scoped question. */
  readonly inScope?: boolean
  readonly answer: string
}

export interface FactFigures {
  readonly questions: number
  readonly answerAccuracy: number
  readonly recallAt5: number
  readonly scoped: number
  readonly scopedCorrect: number
}

export interface FactReport {
  readonly tuning: FactFigures
  readonly heldOut: FactFigures
  readonly nearMisses: number
  readonly nearMissesDeclined: number
  /** Tuning-half failures and undeclined near misses (held-out failures are not shown). */
  readonly notes: ReadonlyArray<string>
  readonly times: ReadonlyArray<number>
}

const contains = (answer: string, form: string) => answer.toLowerCase().includes(form.toLowerCase())

export const answerContains = (answer: string, forms: ReadonlyArray<ReadonlyArray<string>>) =>
  forms.every((group) => group.some((form) => contains(answer, form)))

const figures = (scored: ReadonlyArray<FactScored>): FactFigures => {
  const n = Math.max(1, scored.length)
  const scoped = scored.filter((s) => s.inScope !== undefined)
  return {
    questions: scored.length,
    answerAccuracy: scored.filter((s) => s.correct).length / n,
    recallAt5: scored.reduce((sum, s) => sum + s.recall, 0) / n,
    scoped: scoped.length,
    scopedCorrect: scoped.filter((s) => s.inScope).length
  }
}

export const runFactEvaluation = async (
  client: Client,
  run: string,
  options: { readonly sample?: (index: number) => boolean } = {}
): Promise<FactReport> => {
  const members = await registerPeople(client, `facts-${run}`, FACT_PEOPLE)
  const owner = members[0]!
  const workspace = await createWorkspace(client, members, "Lens facts evaluation")
  const ids = new Map([
    ...(await createRecordings(client, members, workspace, FACT_MEETINGS.length, 4, () => {}, FACT_MEETINGS)),
    ...(await createTasksAndPages(client, members, workspace, "FACTS", FACT_TASKS, FACT_PAGES))
  ])
  const idOf = (key: string) => {
    const id = ids.get(key)
    if (id === undefined) throw new Error(`unknown source key ${key}`)
    return id
  }
  const times: Array<number> = []
  const ask = async (message: string): Promise<Reply> => {
    const started = performance.now()
    const reply = await client.call<Reply>("POST", "/hub/lens/chat", { workspaceId: workspace, message }, owner.token)
    times.push(performance.now() - started)
    return reply
  }
  const scored: Array<FactScored> = []
  const notes: Array<string> = []
  for (const [index, question] of FACT_ANSWERABLE.entries()) {
    if (options.sample && !options.sample(index)) continue
    const reply = await ask(question.text)
    const half = factHalfOf(index)
    const result = scoreFact(question, half, question.sources.map(idOf), question.scopedTo ? idOf(question.scopedTo) : undefined, reply)
    scored.push(result)
    if (half === "tuning" && (!result.correct || result.inScope === false)) {
      notes.push(
        `[tuning] "${question.text}": ${result.correct ? "" : "fact missing; "}${result.inScope === false ? "cites outside the named meeting; " : ""}answered: ${JSON.stringify(reply.answer.slice(0, 300))}`
      )
    }
  }
  let nearMissesDeclined = 0
  let nearMisses = 0
  for (const [index, text] of FACT_NEAR_MISSES.entries()) {
    if (options.sample && !options.sample(index)) continue
    nearMisses++
    const reply = await ask(text)
    if (declined(reply)) nearMissesDeclined++
    else notes.push(`near miss not declined: "${text}" → ${JSON.stringify(reply.answer.slice(0, 200))}`)
  }
  return {
    tuning: figures(scored.filter((s) => s.half === "tuning")),
    heldOut: figures(scored.filter((s) => s.half === "held-out")),
    nearMisses,
    nearMissesDeclined,
    notes,
    times
  }
}

export const scoreFact = (
  question: FactQuestion,
  half: "tuning" | "held-out",
  expectedIds: ReadonlyArray<string>,
  scopeId: string | undefined,
  reply: Reply
): FactScored => {
  const top = new Set(firstSources(reply, 5))
  return {
    text: question.text,
    half,
    correct: answerContains(reply.answer, question.forms),
    recall: expectedIds.filter((id) => top.has(id)).length / Math.min(5, expectedIds.length),
    ...(scopeId === undefined ? {} : { inScope: reply.citations.length > 0 && reply.citations.every((c) => c.sourceId === scopeId) }),
    answer: reply.answer
  }
}
