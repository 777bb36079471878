/**
 * The feedback board on PostgreSQL (its own throwaway database): the SQL that
 * PGlite's single session cannot exercise — votes and merges really running
 * at once (a cross-board merge commits from the duplicate's board actor while
 * the original's actor takes votes), anonymous limits, undoing a merge.
 * Skipped loudly without PostgreSQL unless ATRIUM_REQUIRE_SERVICES=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Board } from "../../actors/feedback/Board.ts"
import { refusalCode } from "../../facade/HttpError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

const available = await checkPostgres("feedback boards on PostgreSQL")

describe.skipIf(!available)("feedback boards on PostgreSQL", () => {
  let database: TestDatabase
  let atrium: TestServer
  let t: Team
  beforeAll(async () => {
    database = await createTestDatabase()
    atrium = await startAtrium({ databaseUrl: database.url })
    t = await newTeam(atrium)
  })
  afterAll(async () => {
    await atrium?.close()
    await database?.drop()
  })

  const vote = (requestId: string, email: string) =>
    atrium.request("POST", `/feedback/v1/feature-requests/${requestId}/votes?onBehalfOfEmail=${encodeURIComponent(email)}`, {
      token: t.member.token
    })
  const voteCount = async (requestId: string) =>
    (await atrium.request("GET", `/feedback/v1/feature-requests/${requestId}`, { token: t.owner.token })).body.voteCount as number
  const rows = async (requestId: string) =>
    Number((await atrium.sql("SELECT count(*) AS n FROM feedback_votes WHERE request_id = $1", [requestId]))[0]!.n)

  it("votes and merges racing across boards: every accepted vote counted once", async () => {
    const here = await createBoard(atrium, t)
    const there = await createBoard(atrium, t)
    for (let round = 0; round < 3; round++) {
      const original = await createRequest(atrium, t.owner.token, there.id, { title: `Original ${round}` })
      const duplicate = await createRequest(atrium, t.owner.token, here.id, { title: `Duplicate ${round}` })
      const customers = Array.from({ length: 60 }, (_, i) => `r${round}-c${i}@customer.example`)
      const jobs = [
        ...customers.slice(0, 40).map((email) => [original.id, email] as const),
        ...customers.slice(20).map((email) => [duplicate.id, email] as const)
      ].sort(() => Math.random() - 0.5)
      const accepted = new Set<string>()
      const statuses = await Promise.all([
        ...jobs.map(async ([requestId, email]) => {
          const reply = await vote(requestId, email)
          if (reply.status === 201) accepted.add(email)
          return reply.status
        }),
        atrium
          .request("POST", `/feedback/v1/feature-requests/${duplicate.id}/merge`, { token: t.owner.token, body: { intoId: original.id } })
          .then((reply) => reply.status)
      ])
      expect(statuses.every((s) => s === 200 || s === 201 || s === 409)).toBe(true)
      expect(statuses.at(-1)).toBe(200)
      expect(await voteCount(original.id)).toBe(accepted.size)
      expect(await rows(original.id)).toBe(accepted.size)
      expect(await voteCount(duplicate.id)).toBe(0)
    }
  })

  it("many voters on one request at once; anonymous limits; undoing a merge", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.owner.token, board.id)
    const replies = await Promise.all(Array.from({ length: 80 }, (_, i) => vote(request.id, `many-${i % 50}@customer.example`)))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(50)
    expect(await voteCount(request.id)).toBe(50)

    await atrium.request("PATCH", `/feedback/v1/boards/${board.id}/settings`, {
      token: t.owner.token,
      body: { anonymousVoting: true, anonymousVotesPerHour: 2 }
    })
    const ask = (requestId: string, fingerprint: string) =>
      atrium
        .run(
          ActorSystem.use((s) =>
            Board.client(s)(board.id).vote({ by: "anonymous", requestId, voter: { kind: "anonymous", fingerprint, ip: "203.0.113.9" } })
          )
        )
        .then(
          () => "ok",
          (e) => refusalCode(e)
        )
    const others = await Promise.all([1, 2, 3].map((i) => createRequest(atrium, t.owner.token, board.id, { title: `Other ${i}` })))
    expect(await Promise.all(others.map((o, i) => ask(o.id, `fp-${i}`)))).toEqual(expect.arrayContaining(["ok", "ok", "rate_limited"]))

    const duplicate = others[0]!
    const merged = await atrium.request("POST", `/feedback/v1/feature-requests/${duplicate.id}/merge`, {
      token: t.owner.token,
      body: { intoId: request.id }
    })
    expect(merged.status).toBe(200)
    await atrium.run(ActorSystem.use((s) => Board.client(s)(board.id).unmerge({ by: t.owner.userId, requestId: duplicate.id })))
    expect(await voteCount(request.id)).toBe(50)
    expect(await voteCount(duplicate.id)).toBe(await rows(duplicate.id))
  })
})
