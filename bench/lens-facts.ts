/**
 * Lens answer accuracy on the second evaluation set (`bench/lens/facts.ts`), without the 500-recording latency
 * workspace of the `lens-eval` scenario — the quick loop while working on synthesis:
 *
 *   node --import tsx bench/lens-facts.ts
 *
 * Starts Atrium (facade/main.ts, PGlite in a temp dir, local engine), builds the workspace over HTTP, asks every
 * question, prints the figures of both halves and the tuning half's failures (the held-out half's are not shown).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runFactEvaluation } from "./lens/factEval.ts"
import { Client } from "./lens/seed.ts"
import { startHttpServer, tsNode } from "./process.ts"

const root = join(import.meta.dirname, "..")
const dataDir = mkdtempSync(join(tmpdir(), "atrium-lens-facts-"))
const [command, args] = tsNode(join(root, "facade/main.ts"))
const server = await startHttpServer({
  label: "facade/main.ts",
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
} finally {
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
