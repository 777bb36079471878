/**
 * Votes racing other writes and reads of one board: many voters (team members and customers by e-mail) vote and
 * withdraw concurrently on several requests while the status changes, comments are posted, a request is merged and
 * the requests are read. Every acknowledged outcome is recorded; afterwards each request's count (through the API,
 * as `feedback_votes` rows and as the counter column) must be what the acknowledged outcomes imply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await newTeam(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const ROUNDS = 4
const CUSTOMERS = 12
const STEPS = 8

/** A deterministic pseudo-random sequence (so a failing round can be replayed). */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648
}

interface Voter {
  /** Who calls the API. */
  readonly token: string
  /** Set when the vote is cast for a customer. */
  readonly email?: string
  /** The key the vote is stored under. */
  readonly key: string
}

const votesPath = (requestId: string, voter: Voter) =>
  `/feedback/v1/feature-requests/${requestId}/votes${voter.email ? `?onBehalfOfEmail=${encodeURIComponent(voter.email)}` : ""}`

describe("votes racing other writes of one board", () => {
  it("every acknowledged vote and withdrawal is counted, in the API and in SQL", async () => {
    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `cust${i}-${Date.now().toString(36)}@customer.example`)
    const casters = [t.owner, t.admin, t.member]
    const voters: Array<Voter> = [
      ...[t.owner, t.admin, t.member, t.viewer].map((user) => ({ token: user.token, key: `user:${user.userId}` })),
      ...customers.map((email, i) => ({ token: casters[i % casters.length]!.token, email, key: `email:${email}` }))
    ]
    for (let round = 0; round < ROUNDS; round++) {
      const next = random(round + 1)
      const board = await createBoard(atrium, t)
      const requests = await Promise.all(
        ["Dark mode", "Export", "SSO", "Duplicate of SSO"].map((title) => createRequest(atrium, t.owner.token, board.id, { title }))
      )
      const [, , target, duplicate] = requests.map((r) => r.id) as [string, string, string, string]
      const statuses = (await atrium.request("GET", `/feedback/v1/boards/${board.id}/statuses`, { token: t.owner.token })).body
        .items as Array<{
        id: string
      }>
      // What the acknowledged outcomes imply: the voters of each request.
      const voted = new Map<string, Set<string>>(requests.map((r) => [r.id, new Set<string>()]))
      const failures: Array<string> = []
      let merged = false
      // Sent, not yet answered: a vote answered after the merge committed may arrive before the merge's own answer.
      let mergeSent = false

      // Each voter acts on its own, one step after the other; the voters run concurrently.
      const voterChain = async (voter: Voter, index: number) => {
        // The duplicate's voters stay off its target, so the merge's effect on them is exact.
        const mine = index % 3 === 0 ? [duplicate] : requests.slice(0, 3).map((r) => r.id)
        for (let step = 0; step < STEPS; step++) {
          const requestId = mine[Math.floor(next() * mine.length)]!
          const withdraw = voted.get(requestId)!.has(voter.key) ? next() < 0.6 : next() < 0.15
          const reply = await atrium.request(withdraw ? "DELETE" : "POST", votesPath(requestId, voter), { token: voter.token })
          if (reply.status === 200 || reply.status === 201) {
            expect(reply.body.voted, reply.text).toBe(!withdraw)
            if (withdraw) voted.get(requestId)!.delete(voter.key)
            else voted.get(requestId)!.add(voter.key)
          } else if (reply.status === 409 || reply.status === 404) {
            // Already voted / not voted (the model says which), or the request was merged meanwhile.
            const refusedAsMerged =
              requestId === duplicate && (merged || (mergeSent && reply.status === 409 && reply.text.includes("merged into")))
            const consistent = withdraw ? !voted.get(requestId)!.has(voter.key) : voted.get(requestId)!.has(voter.key)
            if (!refusedAsMerged && !consistent) failures.push(`${voter.key} ${withdraw ? "unvote" : "vote"} ${requestId}: ${reply.text}`)
          } else {
            failures.push(`${voter.key} ${withdraw ? "unvote" : "vote"} ${requestId}: ${reply.status} ${reply.text}`)
          }
        }
      }
      const statusChain = async () => {
        for (let step = 0; step < STEPS; step++) {
          const requestId = requests[Math.floor(next() * 3)]!.id
          const statusId = statuses[Math.floor(next() * statuses.length)]!.id
          const reply = await atrium.request("POST", `/feedback/v1/feature-requests/${requestId}/status`, {
            token: t.owner.token,
            body: { statusId, note: `step ${step}` }
          })
          if (reply.status !== 200 && reply.status !== 409) failures.push(`status ${requestId}: ${reply.status} ${reply.text}`)
        }
      }
      const commentChain = async () => {
        for (let step = 0; step < STEPS; step++) {
          const requestId = requests[Math.floor(next() * 3)]!.id
          const reply = await atrium.request("POST", `/feedback/v1/feature-requests/${requestId}/comments`, {
            token: t.member.token,
            body: { body: `Comment ${step}` }
          })
          if (reply.status !== 201) failures.push(`comment ${requestId}: ${reply.status} ${reply.text}`)
        }
      }
      const readChain = async () => {
        for (let step = 0; step < STEPS * 2; step++) {
          const requestId = requests[Math.floor(next() * requests.length)]!.id
          const reply = await atrium.request("GET", `/feedback/v1/feature-requests/${requestId}`, { token: t.owner.token })
          if (reply.status !== 200) failures.push(`read ${requestId}: ${reply.status} ${reply.text}`)
        }
      }
      const mergeOnce = async () => {
        // After a few votes have landed on the duplicate.
        for (let step = 0; step < 3; step++)
          await atrium.request("GET", `/feedback/v1/feature-requests/${duplicate}`, { token: t.owner.token })
        mergeSent = true
        const reply = await atrium.request("POST", `/feedback/v1/feature-requests/${duplicate}/merge`, {
          token: t.owner.token,
          body: { intoId: target }
        })
        if (reply.status !== 200) failures.push(`merge: ${reply.status} ${reply.text}`)
        else merged = true
      }
      await Promise.all([...voters.map(voterChain), statusChain(), commentChain(), readChain(), readChain(), mergeOnce()])
      expect(failures).toEqual([])
      expect(merged).toBe(true)

      // The duplicate's voters now count on the target (their keys are disjoint from the target's own).
      const expected = new Map<string, Set<string>>([...voted].map(([id, keys]) => [id, new Set(keys)]))
      for (const key of voted.get(duplicate)!) expected.get(target)!.add(key)
      expected.set(duplicate, new Set())
      for (const request of requests) {
        const keys = [...expected.get(request.id)!].sort()
        const read = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}`, { token: t.owner.token })
        expect(read.status, read.text).toBe(200)
        const rows = await atrium.sql<{ voter_key: string }>(
          "SELECT voter_key FROM feedback_votes WHERE request_id = $1 ORDER BY voter_key",
          [request.id]
        )
        const counter = await atrium.sql<{ vote_count: number }>("SELECT vote_count FROM feedback_requests WHERE id = $1", [request.id])
        const where = `round ${round}, ${request.title}`
        expect(
          rows.map((row) => row.voter_key),
          where
        ).toEqual(keys)
        expect(Number(counter[0]!.vote_count), where).toBe(keys.length)
        expect(read.body.voteCount, where).toBe(keys.length)
      }
    }
  })
})
