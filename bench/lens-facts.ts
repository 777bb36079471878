/**
 * Lens answer accuracy on the second evaluation set (`bench/lens/facts.ts`), without the 500-recording latency
 * workspace of the `lens-eval` scenario — the quick loop while working on synthesis:
 *
 *   node --import tsx bench/lens-facts.ts
 *
 * Starts Atrium (server/main.ts, PGlite in a temp dir, local engine), builds the workspace over HTTP, asks every
 * question, prints the figures of both halves and the tuning half's failures (the held-out half's are not shown).
 * `--first` also runs the first set (`questions.ts`) with its figures and answer accuracy.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runFactEvaluation } from "./lens/factEval.ts"
import { ANSWERABLE, halfOf, UNANSWERABLE } from "./lens/questions.ts"
import { declined, failureOf, figuresOf, type Reply, type Scored, score } from "./lens/score.ts"
import { Client, createRecordings, createTasksAndPages, createWorkspace, registerPeople } from "./lens/seed.ts"
import { MEETINGS } from "./lens/workspace.ts"
import { startHttpServer, tsNode } from "./process.ts"
import { seedPglite } from "../tools/PgliteTemplate.ts"

const root = join(import.meta.dirname, "..")
const dataDir = mkdtempSync(join(tmpdir(), "atrium-lens-facts-"))
await seedPglite(dataDir)
const [command, args] = tsNode(join(root, "server/main.ts"))
const server = await startHttpServer({
  label: "server/main.ts",
  command,
  args,
  cwd: root,
  env: {
    ...process.env,
    HOST: "127.0.0.1",
    NATS_URL: "",
    DEMO: "",
    DATABASE_URL: "",
    DATA_DIR: dataDir,
    HUB_JOB_POLL_MS: "20",
    LENS_INITIAL_CREDITS: "1000000",
    LLM_BASE_URL: "",
    LLM_API_KEY: "",
    LLM_MODEL: ""
  },
  readyPath: "/healthz",
  timeoutMs: 180_000
})
try {
  const report = await runFactEvaluation(new Client(server.url), Date.now().toString(36))
  const line = (name: string, f: typeof report.tuning) =>
    `${name}: answer accuracy ${f.answerAccuracy.toFixed(2)} (${f.questions} questions), recall@5 ${f.recallAt5.toFixed(2)}, scoped ${f.scopedCorrect}/${f.scoped}`
  console.log(line("tuning  ", report.tuning))
  console.log(line("held-out", report.heldOut))
  console.log(`near misses declined: ${report.nearMissesDeclined}/${report.nearMisses}`)
  for (const note of report.notes) console.log(note)
  if (process.argv.includes("--first")) await firstSet(new Client(server.url))
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

/** The first evaluation set: its figures, and answer accuracy (the answer contains one of its fragments). */
async function firstSet(client: Client) {
  const members = await registerPeople(client, `first-${Date.now().toString(36)}`)
  const owner = members[0]!
  const workspace = await createWorkspace(client, members, "Lens evaluation")
  const ids = new Map([
    ...(await createRecordings(client, members, workspace, MEETINGS.length, 4)),
    ...(await createTasksAndPages(client, members, workspace, "EVAL"))
  ])
  const scored: Array<Scored & { correct: boolean }> = []
  for (const [index, question] of ANSWERABLE.entries()) {
    const reply = await client.call<Reply>("POST", "/hub/lens/chat", { workspaceId: workspace, message: question.text }, owner.token)
    const correct = question.answer.some((fragment) => reply.answer.toLowerCase().includes(fragment.toLowerCase()))
    scored.push({
      ...score(
        question,
        halfOf(index),
        question.sources.map((key) => ids.get(key)!),
        reply
      ),
      correct
    })
  }
  let declines = 0
  for (const text of UNANSWERABLE) {
    if (declined(await client.call<Reply>("POST", "/hub/lens/chat", { workspaceId: workspace, message: text }, owner.token))) declines++
  }
  for (const half of ["tuning", "held-out"] as const) {
    const of = scored.filter((s) => s.half === half)
    const f = figuresOf(of)
    const accuracy = of.filter((s) => s.correct).length / Math.max(1, of.length)
    console.log(
      `first set ${half}: answer accuracy ${accuracy.toFixed(2)}, recall@5 ${f.recallAt5.toFixed(2)}, citation precision ${f.citationPrecision.toFixed(2)}, route accuracy ${f.routeAccuracy.toFixed(2)} (${f.questions} questions)`
    )
  }
  console.log(`first set unanswerable declined: ${declines}/${UNANSWERABLE.length}`)
  for (const s of scored.filter((s) => s.half === "tuning")) {
    const failure = failureOf(s)
    if (failure || !s.correct) console.log(`${failure ?? `[tuning] "${s.text}"`}${s.correct ? "" : "; answer lacks the fact"}`)
  }
}
