/**
 * Lens answer latency over a workspace with many recordings:
 *
 *   node --import tsx bench/lens-answers.ts [--recordings 500] [--tasks 300] [--pages 100] [--runs 60] [--keep]
 *
 * Starts Atrium in this process on a throwaway PostgreSQL database
 * (`BENCH_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/postgres),
 * seeds one workspace through the REST API (recordings with transcripts,
 * processed by the hub's own pipeline; tasks; wiki pages), then asks Lens a
 * mix of questions (one route each: meetings, tasks, pages, fan-out, the
 * agent loop's lookups) `--runs` times over, one at a time, and prints the
 * first answer's latency and the p50/p95/max of the rest. It only speaks
 * HTTP, so the same script measures any revision of the server.
 */
import postgres from "postgres"
import { segments } from "../test/hub/support/calls.ts"
import { signUp, startAtrium } from "../test/support/atrium.ts"

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? Number(args[at + 1]) : fallback
}
const RECORDINGS = option("recordings", 500)
const TASKS = option("tasks", 300)
const PAGES = option("pages", 100)
const RUNS = option("runs", 60)

const QUESTIONS = [
  "What did Carol ask Bob about the login bug in meeting 42?",
  "Which tasks are assigned for the venue booking?",
  "What does the wiki page say about the rollback window?",
  "What is the status of the pricing tiers?",
  "Which action items have no task yet?"
]

const topics = ["billing", "pricing", "venue", "login", "ledger", "mobile", "onboarding", "security", "hiring", "budget"]

const inBatches = async <A>(items: ReadonlyArray<A>, size: number, body: (item: A, i: number) => Promise<void>) => {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map((item, j) => body(item, i + j)))
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const main = async () => {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
  const database = `atrium_lens_bench_${Date.now().toString(36)}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${database}`)
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  const atrium = await startAtrium({ databaseUrl: url.toString() })
  try {
    const alice = await signUp(atrium, "Alice")
    const ws = await atrium.request("POST", "/pm/v1/workspaces", { token: alice.token, body: { name: "Bench" } })
    const workspaceId = ws.body.id as string
    const seeding = performance.now()
    await inBatches(Array.from({ length: RECORDINGS }), 20, async (_, i) => {
      const topic = topics[i % topics.length]!
      const created = await atrium.request("POST", "/hub/v1/recordings", {
        token: alice.token,
        body: {
          workspaceId,
          name: `Meeting ${i} about ${topic}`,
          transcript: {
            format: "segments",
            segments: segments.map((s) => ({ ...s, text: `${s.text} We also covered the ${topic} plan, item ${i}.` }))
          }
        }
      })
      if (created.status !== 202) throw new Error(created.text)
    })
    for (let i = 0; i < 2400; i++) {
      const [row] = await atrium.sql("SELECT count(*)::int AS n FROM hub_recordings WHERE workspace_id = $1 AND status = 'ready'", [
        workspaceId
      ])
      if ((row as { n: number }).n >= RECORDINGS) break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const space = await atrium.request("POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { token: alice.token, body: { name: "Work" } })
    const list = await atrium.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: alice.token, body: { name: "All" } })
    await inBatches(Array.from({ length: TASKS }), 20, async (_, i) => {
      const topic = topics[i % topics.length]!
      await atrium.request("POST", `/pm/v1/lists/${list.body.id}/tasks`, {
        token: alice.token,
        body: { name: `Task ${i}: ${topic} follow-up`, description: `Follow up on the ${topic} decisions, booking the venue if needed.` }
      })
    })
    const wiki = await atrium.request("POST", "/wiki/v1/spaces", { token: alice.token, body: { workspaceId, name: "Docs", key: "DOC" } })
    await inBatches(Array.from({ length: PAGES }), 10, async (_, i) => {
      const topic = topics[i % topics.length]!
      await atrium.request("POST", `/wiki/v1/spaces/${wiki.body.id}/pages`, {
        token: alice.token,
        body: {
          title: `${topic} runbook ${i}`,
          markdown: `The ${topic} rollback window is ${i % 7} days.\n\nAsk the ${topic} owner before changing it.`
        }
      })
    })
    console.log(`seeded ${RECORDINGS} recordings, ${TASKS} tasks, ${PAGES} pages in ${Math.round(performance.now() - seeding)} ms`)

    const ask = async (message: string) => {
      const started = performance.now()
      const reply = await atrium.request("POST", "/hub/lens/chat", { token: alice.token, body: { workspaceId, message } })
      if (reply.status !== 200) throw new Error(reply.text)
      return performance.now() - started
    }
    const first = await ask(QUESTIONS[0]!)
    const timings: Array<number> = []
    const perQuestion = new Map<string, Array<number>>()
    for (let run = 0; run < RUNS; run++) {
      const question = QUESTIONS[run % QUESTIONS.length]!
      const ms = await ask(question)
      timings.push(ms)
      perQuestion.set(question, [...(perQuestion.get(question) ?? []), ms])
    }
    const sorted = [...timings].sort((a, b) => a - b)
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`
    console.log(`first answer (cold): ${fmt(first)}`)
    console.log(`${RUNS} answers: p50 ${fmt(percentile(sorted, 50))}, p95 ${fmt(percentile(sorted, 95))}, max ${fmt(sorted.at(-1)!)}`)
    for (const [question, ms] of perQuestion) {
      const own = [...ms].sort((a, b) => a - b)
      console.log(`  p50 ${fmt(percentile(own, 50)).padStart(10)}  ${question}`)
    }
  } finally {
    await atrium.close()
    if (!args.includes("--keep")) await admin.unsafe(`DROP DATABASE ${database} WITH (FORCE)`)
    await admin.end()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
