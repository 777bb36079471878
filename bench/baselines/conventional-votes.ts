/**
 * The conventional stack for votes: what a developer would write without
 * actors. Fastify 5 with postgres.js (DATABASE_URL), its own two tables in
 * the same database, one short transaction per vote:
 *
 *   POST   /feedback/v1/feature-requests/:id/votes?onBehalfOfEmail=   INSERT … ON CONFLICT DO NOTHING, then the counter UPDATE (201, or 409 if already voted)
 *   DELETE /feedback/v1/feature-requests/:id/votes?onBehalfOfEmail=   DELETE, then the counter UPDATE (200, or 404 if no vote)
 *
 * No authentication (an advantage over Atrium, which checks the token and
 * the board's team on every vote). Listens on HOST:PORT; SIGTERM closes.
 */
import Fastify from "fastify"
import { openDb, type Db } from "./conventional/Db.ts"

const db: Db = await openDb({ databaseUrl: process.env.DATABASE_URL ?? "" }, Number(process.env.DB_POOL ?? 10))
await db.query(
  `CREATE TABLE IF NOT EXISTS bench_votes (request_id text NOT NULL, voter_key text NOT NULL, PRIMARY KEY (request_id, voter_key))`
)
await db.query(`CREATE TABLE IF NOT EXISTS bench_vote_counts (request_id text PRIMARY KEY, vote_count integer NOT NULL DEFAULT 0)`)

const app = Fastify({ logger: false })
type VoteRequest = { Params: { id: string }; Querystring: { onBehalfOfEmail?: string } }

const voterOf = (email: string | undefined) => {
  if (!email?.includes("@")) throw Object.assign(new Error("query.onBehalfOfEmail: an e-mail address"), { statusCode: 400 })
  return `email:${email.toLowerCase()}`
}

const vote = (delta: 1 | -1) => async (requestId: string, voterKey: string) =>
  db.transaction(async (tx) => {
    const changed =
      delta === 1
        ? await tx.query(`INSERT INTO bench_votes (request_id, voter_key) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`, [
            requestId,
            voterKey
          ])
        : await tx.query(`DELETE FROM bench_votes WHERE request_id = $1 AND voter_key = $2 RETURNING 1`, [requestId, voterKey])
    if (changed.length === 0) return undefined
    const [row] = await tx.query<{ vote_count: number }>(
      `INSERT INTO bench_vote_counts (request_id, vote_count) VALUES ($1, $2)
       ON CONFLICT (request_id) DO UPDATE SET vote_count = bench_vote_counts.vote_count + $2 RETURNING vote_count`,
      [requestId, delta]
    )
    return row!.vote_count
  })
const cast = vote(1)
const withdraw = vote(-1)

app.get("/healthz", async () => ({ status: "ok" }))

app.post<VoteRequest>("/feedback/v1/feature-requests/:id/votes", async (request, reply) => {
  const voteCount = await cast(request.params.id, voterOf(request.query.onBehalfOfEmail))
  if (voteCount === undefined) return reply.code(409).send({ error: { code: "conflict", message: "Already voted" } })
  return reply.code(201).send({ featureRequestId: request.params.id, voted: true, voteCount })
})

app.delete<VoteRequest>("/feedback/v1/feature-requests/:id/votes", async (request, reply) => {
  const voteCount = await withdraw(request.params.id, voterOf(request.query.onBehalfOfEmail))
  if (voteCount === undefined) return reply.code(404).send({ error: { code: "not_found", message: "No such vote" } })
  return reply.code(200).send({ featureRequestId: request.params.id, voted: false, voteCount })
})

await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 0) })
console.log(`READY conventional-votes port=${(app.server.address() as { port: number }).port}`)

const stop = async () => {
  await app.close()
  await db.close()
  process.exit(0)
}
process.once("SIGTERM", () => void stop())
process.once("SIGINT", () => void stop())
