/**
 * feedback-votes (issue 12): voters voting and withdrawing on the 50
 * requests of one board through Atrium's facade (server/main.ts on a fresh
 * PostgreSQL database), against the conventional stack for votes
 * (bench/baselines/conventional-votes.ts: Fastify + postgres.js, one
 * INSERT … ON CONFLICT + counter UPDATE per vote) on the same database, one
 * server at a time; and getPublicBoard for an anonymous visitor against the
 * bare uWS hello (the limit).
 *
 * Votes are cast by the board's owner on behalf of customers (by e-mail), so
 * one token stands for any number of voters. Each load gets voters of its
 * own (a fresh tag), and its requests are generated inside the loader's
 * workers (bench/load/vote-requests.ts), which also fixes the ledger: from
 * how many requests each worker completed, the votes that must be standing
 * at the end. The check compares it with the stored counters and vote rows.
 */
import { fileURLToPath } from "node:url"
import type { Db } from "../baselines/conventional/Db.ts"
import { runHttpLoad, type HttpLoad, type HttpResult } from "../load/http.ts"
import { expectedVotes, type VoteArgs } from "../load/vote-requests.ts"
import { startHttpServer, tsNode, type Server } from "../process.ts"
import { Steps } from "../progress.ts"
import { failedSeries, type Group, type Point, type RunOptions, type Scenario, type Series, type Target } from "../Scenario.ts"
import { api, login, structure } from "./rest/workspace.ts"
import { at, ATRIUM, type Backend, firstLine, measure, measureHello, postgresBackend, ratioTarget, settle, withDb } from "./rest.ts"

const REQUESTS = 50
const BOARD_SLUG = "bench-ideas"
/** The load for votes. */
const TARGET_LOAD = 64
const voterCount = (options: RunOptions) => (options.smoke ? 20 : 1000)

const generator = fileURLToPath(new URL("../load/vote-requests.ts", import.meta.url))
const conventionalFile = fileURLToPath(new URL("../baselines/conventional-votes.ts", import.meta.url))
const CONVENTIONAL_LABEL = "conventional stack (Fastify + postgres.js)"

interface Board {
  readonly token: string
  readonly workspaceId: string
  readonly boardId: string
  readonly requestIds: ReadonlyArray<string>
}

/** The board and its requests, through Atrium's API. */
const makeBoard = async (url: string): Promise<Board> => {
  const seeded = await structure(url)
  const token = await login(url, seeded.email)
  const as = api(url, token)
  const board = await as("POST", "/feedback/v1/boards", {
    workspaceId: seeded.workspaceId,
    name: "Bench ideas",
    slug: BOARD_SLUG,
    visibility: "public",
    description: "What to build next"
  })
  const requestIds: Array<string> = []
  for (let i = 0; i < REQUESTS; i++) {
    const request = await as("POST", `/feedback/v1/boards/${board.id}/feature-requests`, {
      title: `Idea ${i + 1}`,
      description: `Bench idea number **${i + 1}**.`
    })
    requestIds.push(request.id as string)
  }
  return { token, workspaceId: seeded.workspaceId, boardId: board.id as string, requestIds }
}

/** Votes that must be standing, load by load, and whether every request was answered 2xx. */
class Ledger {
  expected = 0
  errors = 0
  loads = 0
  add(args: VoteArgs, result: HttpResult) {
    const workers = result.perWorker ?? []
    if (workers.length === 0) throw new Error("the loader reported no per-worker counts (the vote generator needs the Node loader)")
    for (const [i, w] of workers.entries()) this.expected += expectedVotes(args, i, workers.length, w.ok + w.errors)
    this.errors += result.errors
    this.loads++
  }
}

let tags = 0
const voteLoad = (
  url: string,
  token: string,
  requestIds: ReadonlyArray<string>,
  voters: number,
  connections: number,
  durationSec: number
) => {
  const args: VoteArgs = { requestIds, voters, tag: `${(++tags).toString(36)}${Date.now().toString(36)}` }
  const load: HttpLoad = {
    url: `${url}/feedback/v1/feature-requests/${requestIds[0]}/votes`,
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    generate: { module: generator, args },
    connections,
    durationSec,
    timeoutSec: 60
  }
  return { args, load }
}

/** Warm-up (counted in the ledger, not measured), then each level; the server settles after each. */
const voteSweep = async (server: Server, board: Board, voters: number, options: RunOptions, steps: Steps, label: string) => {
  const ledger = new Ledger()
  const points: Array<Point> = []
  const top = options.levels.at(-1)!
  if (options.warmupSec > 0) {
    const { args, load } = voteLoad(server.url, board.token, board.requestIds, voters, top, options.warmupSec)
    ledger.add(args, await runHttpLoad(load, "node", options.root))
    await settle(server)
  }
  for (const connections of options.levels) {
    steps.begin(`${label}, ${connections} connections`)
    const { args, load } = voteLoad(server.url, board.token, board.requestIds, voters, connections, options.durationSec)
    points.push(await measure(server, load, { ...options, loader: "node" }, (result) => ledger.add(args, result)))
    await settle(server)
    steps.end()
  }
  return { points, ledger }
}

const ledgerCheck = (ledger: Ledger, counted: number, rows: number) => ({
  figure: `${ledger.expected} votes standing by the ledger of ${ledger.loads} loads, ${counted} by the counters, ${rows} vote rows; ${ledger.errors} error responses`,
  met: ledger.errors === 0 && counted === ledger.expected && rows === ledger.expected
})

const okSeries = (label: string, role: Series["role"], points: ReadonlyArray<Point>): Series => ({ label, role, status: "ok", points })

interface Outcome {
  readonly votes: Series
  readonly publicBoard?: Series
  readonly check?: { readonly figure: string; readonly met: boolean }
}

const runAtrium = async (
  options: RunOptions,
  backend: Backend,
  steps: Steps,
  notes: Array<string>
): Promise<Outcome & { board?: Board }> => {
  let server: Server | undefined
  try {
    server = await ATRIUM.start(options, backend)
    const board = await makeBoard(server.url)
    notes.push(`Atrium: 1 workspace, 1 public board "${BOARD_SLUG}", ${REQUESTS} feature requests, made through the API.`)
    const { points, ledger } = await voteSweep(server, board, voterCount(options), options, steps, "Atrium votes")
    const publicPoints: Array<Point> = []
    const publicUrl = `${server.url}/feedback/v1/public/boards/${BOARD_SLUG}?workspaceId=${board.workspaceId}`
    const probe = await fetch(publicUrl)
    const size = (await probe.text()).length
    if (probe.status !== 200) throw new Error(`getPublicBoard answered ${probe.status}`)
    notes.push(`getPublicBoard answers ${size} B.`)
    for (const connections of options.levels) {
      steps.begin(`Atrium getPublicBoard, ${connections} connections`)
      publicPoints.push(await measure(server, { url: publicUrl, method: "GET", connections, durationSec: options.durationSec }, options))
      await settle(server)
      steps.end()
    }
    await server.stop(15_000)
    server = undefined
    const [counted, rows] = await withDb(backend.db, async (db: Db) => [
      Number(
        (
          await db.query<{ n: string }>(`SELECT coalesce(sum(vote_count), 0) AS n FROM feedback_requests WHERE board_id = $1`, [
            board.boardId
          ])
        )[0]!.n
      ),
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM feedback_votes WHERE board_id = $1`, [board.boardId]))[0]!.n)
    ])
    return {
      board,
      votes: okSeries(ATRIUM.label, "subject", points),
      publicBoard: okSeries(`${ATRIUM.label} getPublicBoard`, "subject", publicPoints),
      check: ledgerCheck(ledger, counted, rows)
    }
  } catch (error) {
    steps.abort()
    return { votes: failedSeries(ATRIUM.label, "subject", error) }
  } finally {
    await server?.stop(15_000)
  }
}

const runConventional = async (options: RunOptions, backend: Backend, board: Board | undefined, steps: Steps): Promise<Outcome> => {
  let server: Server | undefined
  try {
    if (!board) throw new Error("Atrium's part failed: no board to vote on")
    const [command, args] = tsNode(conventionalFile)
    server = await startHttpServer({
      label: "conventional-votes",
      command,
      args,
      cwd: options.root,
      env: { HOST: "127.0.0.1", ...backend.env },
      readyPath: "/healthz"
    })
    const { points, ledger } = await voteSweep(server, board, voterCount(options), options, steps, "conventional votes")
    await server.stop(15_000)
    server = undefined
    const [counted, rows] = await withDb(backend.db, async (db: Db) => [
      Number((await db.query<{ n: string }>(`SELECT coalesce(sum(vote_count), 0) AS n FROM bench_vote_counts`))[0]!.n),
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM bench_votes`))[0]!.n)
    ])
    return { votes: okSeries(CONVENTIONAL_LABEL, "baseline", points), check: ledgerCheck(ledger, counted, rows) }
  } catch (error) {
    steps.abort()
    return { votes: failedSeries(CONVENTIONAL_LABEL, "baseline", error) }
  } finally {
    await server?.stop(15_000)
  }
}

const headline = (levels: ReadonlyArray<number>) => (levels.includes(TARGET_LOAD) ? TARGET_LOAD : levels.at(-1)!)

const targetsOf = (atrium: Outcome, conventional: Outcome, hello: Series, levels: ReadonlyArray<number>): Array<Target> => {
  const load = headline(levels)
  return [
    ratioTarget(`votes, ${load} conn: ≥ 1× the conventional stack`, at(atrium.votes, load), at(conventional.votes, load), 1, "×"),
    {
      target: "votes, Atrium: every vote counted exactly once (counters and rows == the ledger, no error response)",
      figure: atrium.check?.figure ?? "not checked (its series failed)",
      met: atrium.check?.met
    },
    {
      target: "votes, conventional stack: every vote counted exactly once",
      figure: conventional.check?.figure ?? "not checked (its series failed)",
      met: conventional.check?.met
    },
    ratioTarget(
      `getPublicBoard (anonymous), ${load} conn: ≥ 25% of the uWS hello`,
      at(atrium.publicBoard, load),
      at(hello, load),
      0.25,
      "%"
    )
  ]
}

export const feedbackVotes: Scenario = {
  name: "feedback-votes",
  subject: `Votes and withdrawals on the ${REQUESTS} requests of one feedback board (voteFeatureRequest / unvoteFeatureRequest on behalf of customers), and getPublicBoard for an anonymous visitor, on PostgreSQL`,
  baselines: [
    "the conventional stack for votes: Fastify 5 + postgres.js, one transaction per vote (INSERT … ON CONFLICT DO NOTHING + counter UPDATE), no authentication (bench/baselines/conventional-votes.ts)",
    'a bare uWS server answering "Hello" to everything: the limit for getPublicBoard (bench/baselines/uws-hello.ts)'
  ],
  levels: { sweep: [8, 64], smoke: 4 },
  workload: (options) => [
    `Load: the Node loader (requests generated in each worker thread: bench/load/vote-requests.ts), closed loop over keep-alive connections; connections = ${options.levels.join(", ")}; targets at ${headline(options.levels)}.`,
    `Votes: ${voterCount(options)} voters (customers by e-mail, fresh ones for each load) × ${REQUESTS} requests; each worker walks its pairs in blocks of up to 512, voting on a block then withdrawing the same votes; one server at a time on a fresh PostgreSQL database.`,
    `Each point runs ${options.durationSec}s after ${options.warmupSec}s of unmeasured warm-up (counted in the exactly-once ledger). getPublicBoard: GET /feedback/v1/public/boards/${BOARD_SLUG} without credentials.`
  ],
  estimateSec: (options) => 60 + (options.warmupSec + options.levels.length * options.durationSec) * 4,
  run: async (options, progress) => {
    const steps = new Steps(progress, options.levels.length * 4, options.durationSec)
    const notes: Array<string> = []
    progress.update(0, "uWS hello")
    const hello = await measureHello(options.levels, options, steps, notes)
    let backend: Backend | undefined
    let atrium: Outcome
    let conventional: Outcome
    try {
      backend = await postgresBackend(options)
      const subject = await runAtrium(options, backend, steps, notes)
      atrium = subject
      conventional = await runConventional(options, backend, subject.board, steps)
    } catch (error) {
      progress.note(`PostgreSQL: ${firstLine(error)}`)
      atrium = {
        votes: failedSeries(ATRIUM.label, "subject", error),
        publicBoard: failedSeries(`${ATRIUM.label} getPublicBoard`, "subject", error)
      }
      conventional = { votes: failedSeries(CONVENTIONAL_LABEL, "baseline", error) }
    } finally {
      await backend?.drop()
    }
    const headlineLoad = headline(options.levels)
    const groups: Array<Group> = [
      { name: `vote / unvote on ${REQUESTS} requests — PostgreSQL`, unit: "req", series: [conventional.votes, atrium.votes], headlineLoad },
      {
        name: `getPublicBoard: GET /feedback/v1/public/boards/{slug}, anonymous`,
        unit: "req",
        series: [hello, atrium.publicBoard ?? failedSeries(`${ATRIUM.label} getPublicBoard`, "subject", "the votes part failed first")],
        headlineLoad
      }
    ]
    return { groups, targets: targetsOf(atrium, conventional, hello, options.levels), notes }
  }
}
