/**
 * notification-fanout (issue 24): a feature request with N voters (10,000;
 * 50 at smoke size) is moved to the board's shipped status through the API;
 * Atrium (server/main.ts on a fresh PostgreSQL database, SMTP_URL at a local
 * smtp-server in the runner) writes one notification per voter in the
 * status change's transaction and mails each through its notification
 * outbox. Measured: from the status change's request to the last mail handed
 * to the SMTP server, mails/s, the server's CPU per mail; each voter counted
 * once at the SMTP server.
 *
 * The baseline: a plain loop in the runner sending the same N mails (the
 * subject, text and HTML Atrium sent) with nodemailer to the same SMTP
 * server, as many in flight as Atrium's sender (8), CPU per mail of the
 * runner's process.
 *
 * The voters are made by SQL (copies of the owner's account, a vote and a
 * subscription each): 10,000 sign-ups through the API would measure password
 * hashing, not notifications.
 */
import nodemailer from "nodemailer"
import { startSmtpSink } from "../../test/support/SmtpSink.ts"
import { Histogram } from "../load/Histogram.ts"
import type { Server } from "../process.ts"
import { usageBetween } from "../process.ts"
import { failedSeries, type Point, type RunOptions, type Scenario, type Series, type Target } from "../Scenario.ts"
import { ATRIUM, type Backend, firstLine, postgresBackend, withDb } from "./rest.ts"
import { api, login, structure } from "./rest/workspace.ts"

const voterCount = (options: RunOptions) => (options.smoke ? 50 : 10_000)
const IN_FLIGHT = 8
const ATRIUM_ENV = { NOTIFY_INSTANT_DELAY_SECONDS: "0" }

/** One message as each recipient got it (the SMTP server counts per session; a voter is one recipient). */
interface Received {
  readonly to: string
  readonly at: number
  readonly raw: string
}

/** The SMTP server in the runner (the tests' sink): every message, per recipient, when it arrived. */
const startSink = async () => {
  const sink = await startSmtpSink()
  return {
    url: sink.url,
    get received(): ReadonlyArray<Received> {
      return sink.received.flatMap((mail) => mail.to.map((to) => ({ to, at: mail.at, raw: mail.raw })))
    },
    close: sink.close
  }
}

const waitFor = async (done: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

interface Fixture {
  readonly token: string
  readonly requestId: string
  readonly shippedId: string
  readonly voterEmails: ReadonlySet<string>
}

const fixture = async (server: Server, backend: Backend, voters: number): Promise<Fixture> => {
  const seeded = await structure(server.url)
  const token = await login(server.url, seeded.email)
  const as = api(server.url, token)
  const board = await as("POST", "/feedback/v1/boards", {
    workspaceId: seeded.workspaceId,
    name: "Bench roadmap",
    slug: `bench-fanout-${Date.now().toString(36)}`,
    visibility: "public"
  })
  const request = await as("POST", `/feedback/v1/boards/${board.id}/feature-requests`, { title: "Offline mode" })
  const statuses = (await as("GET", `/feedback/v1/boards/${board.id}/statuses`)).items as Array<{ id: string; type: string }>
  const shipped = statuses.find((s) => s.type === "shipped")
  if (shipped === undefined) throw new Error("the board has no shipped status")
  const tag = Date.now().toString(36)
  await withDb(backend.db, (db) =>
    db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO actor_state (kind, id, state, version)
         SELECT 'account', v.email, o.state || jsonb_build_object('userId', v.user_id, 'email', v.email, 'name', 'Voter ' || v.n), 1
           FROM (SELECT n, gen_random_uuid()::text AS user_id, 'voter-' || $2 || '-' || n || '@example.com' AS email
                   FROM generate_series(1, $3::int) AS n) v,
                (SELECT state FROM actor_state WHERE kind = 'account' AND id = $1) o`,
        [seeded.email, tag, voters]
      )
      const votersOf = `SELECT state->>'userId' AS user_id FROM actor_state WHERE kind = 'account' AND id LIKE 'voter-' || $1 || '-%'`
      await tx.query(
        `INSERT INTO feedback_votes (id, request_id, board_id, voter_key, user_id)
         SELECT gen_random_uuid()::text, $2, $3, 'user:' || v.user_id, v.user_id FROM (${votersOf}) v`,
        [tag, request.id, board.id]
      )
      await tx.query(`INSERT INTO feedback_subscribers (request_id, user_id) SELECT $2, v.user_id FROM (${votersOf}) v`, [tag, request.id])
    })
  )
  const voterEmails = new Set(Array.from({ length: voters }, (_, i) => `voter-${tag}-${i + 1}@example.com`))
  return { token, requestId: request.id as string, shippedId: shipped.id, voterEmails }
}

interface FanOut {
  readonly point: Point
  readonly mails: ReadonlyArray<Received>
  readonly duplicates: number
}

const fanOut = async (server: Server, sink: Awaited<ReturnType<typeof startSink>>, f: Fixture, options: RunOptions): Promise<FanOut> => {
  const isVoter = (mail: Received) => f.voterEmails.has(mail.to)
  const before = server.sample()
  const began = performance.now()
  await api(server.url, f.token)("POST", `/feedback/v1/feature-requests/${f.requestId}/status`, { statusId: f.shippedId })
  await waitFor(
    () => new Set(sink.received.filter(isVoter).map((m) => m.to)).size >= f.voterEmails.size,
    options.smoke ? 120_000 : 1_800_000
  )
  const after = server.sample()
  const mails = sink.received.filter(isVoter)
  const histogram = new Histogram()
  for (const mail of mails) histogram.record(Math.max(1, mail.at - began) * 1e6)
  const durationSec = (Math.max(...mails.map((m) => m.at)) - began) / 1000
  const distinct = new Set(mails.map((m) => m.to)).size
  return {
    point: {
      load: IN_FLIGHT,
      durationSec,
      ops: mails.length,
      errors: f.voterEmails.size - distinct,
      throughput: mails.length / durationSec,
      latency: histogram.latency(),
      server: usageBetween(before, after)
    },
    mails,
    duplicates: mails.length - distinct
  }
}

/** The baseline: the same mails from a plain nodemailer loop, IN_FLIGHT at a time. */
const plainLoop = async (sinkUrl: string, sample: Received, recipients: ReadonlyArray<string>): Promise<Point> => {
  const parts = sample.raw
  const subject = /^Subject: (.*)$/m.exec(parts)?.[1] ?? "Notification"
  const transport = nodemailer.createTransport(sinkUrl)
  const histogram = new Histogram()
  let next = 0
  let errors = 0
  const cpuBefore = process.cpuUsage()
  const began = performance.now()
  const worker = async () => {
    for (let n = next++; n < recipients.length; n = next++) {
      const sent = process.hrtime.bigint()
      try {
        await transport.sendMail({
          from: "Atrium <no-reply@atrium.local>",
          to: recipients[n],
          subject,
          text: parts,
          html: `<pre>${parts.replace(/</g, "&lt;")}</pre>`,
          headers: { "List-Unsubscribe": "<http://localhost/unsubscribe>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
        })
      } catch {
        errors++
      }
      histogram.record(Number(process.hrtime.bigint() - sent))
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  const durationSec = (performance.now() - began) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const cpuSec = (cpu.user + cpu.system) / 1e6
  transport.close()
  return {
    load: IN_FLIGHT,
    durationSec,
    ops: recipients.length,
    errors,
    throughput: (recipients.length - errors) / durationSec,
    latency: histogram.latency(),
    server: { cpuSec, cores: cpuSec / durationSec, tool: "the runner (nodemailer loop)" }
  }
}

const SUBJECT = "Atrium: status change → notification outbox → SMTP"
const BASELINE = "plain nodemailer loop (same mails, 8 in flight)"

const perMailMs = (point: Point) => (point.server ? (1000 * point.server.cpuSec) / Math.max(1, point.ops) : Number.NaN)

export const notificationFanout: Scenario = {
  name: "notification-fanout",
  subject:
    "A feature request with N voters moved to shipped: time until every voter's e-mail is handed to the SMTP server, mails/s, server CPU per mail",
  baselines: ["a plain loop in the runner sending the same mails with nodemailer to the same SMTP server"],
  levels: { sweep: [IN_FLIGHT], smoke: IN_FLIGHT },
  workload: (options) => [
    `${voterCount(options)} voters (accounts, votes and subscriptions made by SQL) on one request of a public board, on a fresh PostgreSQL database; one POST …/status to the shipped status.`,
    "Atrium runs with NOTIFY_INSTANT_DELAY_SECONDS=0 and SMTP_URL at an smtp-server in the runner; each voter's mail is one SMTP session (nodemailer, unpooled, as Atrium's transport).",
    "Latency: from the status change's request to each mail's arrival at the SMTP server; the baseline's is each sendMail."
  ],
  estimateSec: (options) => 40 + voterCount(options) / 50,
  run: async (options, progress) => {
    let backend: Backend | undefined
    let server: Server | undefined
    let sink: Awaited<ReturnType<typeof startSink>> | undefined
    let subject: Series
    let baseline: Series
    const targets: Array<Target> = []
    const notes: Array<string> = []
    try {
      sink = await startSink()
      backend = await postgresBackend(options)
      progress.update(0.1, "Atrium migrates; board, request and voters")
      server = await ATRIUM.start(options, backend, { ...ATRIUM_ENV, SMTP_URL: sink.url })
      const f = await fixture(server, backend, voterCount(options))
      progress.update(0.3, "the status change and its e-mails")
      const fanned = await fanOut(server, sink, f, options)
      subject = { label: SUBJECT, role: "subject", status: "ok", points: [fanned.point] }
      progress.update(0.8, "the plain nodemailer loop")
      const floor = await plainLoop(sink.url, fanned.mails[0]!, [...f.voterEmails])
      baseline = { label: BASELINE, role: "baseline", status: "ok", points: [floor] }
      const p = fanned.point
      targets.push({
        target: "every voter mailed exactly once (counted at the SMTP server)",
        figure: `${new Set(fanned.mails.map((m) => m.to)).size} of ${f.voterEmails.size} voters mailed, ${fanned.duplicates} duplicates`,
        met: p.errors === 0 && fanned.duplicates === 0
      })
      targets.push({
        target:
          "time until every e-mail is handed to SMTP; mails/s and CPU per mail against the plain nodemailer loop (the issue sets no ratio)",
        figure: `${p.durationSec.toFixed(2)} s, ${p.throughput.toFixed(0)} mails/s vs ${floor.throughput.toFixed(0)}/s (${((100 * p.throughput) / floor.throughput).toFixed(1)}%); server CPU ${perMailMs(p).toFixed(2)} ms/mail vs ${perMailMs(floor).toFixed(2)} ms/mail`,
        met: undefined
      })
      notes.push(
        `Atrium's server CPU covers the whole fan-out (the status change's transaction, the outbox, rendering, SMTP); the baseline's is the runner's process during the loop.`
      )
    } catch (error) {
      progress.note(`notification-fanout: ${firstLine(error)}`)
      subject = failedSeries(SUBJECT, "subject", error)
      baseline = failedSeries(BASELINE, "baseline", error)
    } finally {
      await server?.stop(15_000)
      await backend?.drop()
      await sink?.close()
    }
    return { groups: [{ name: "request shipped → one e-mail per voter", unit: "mail", series: [baseline, subject] }], targets, notes }
  }
}
