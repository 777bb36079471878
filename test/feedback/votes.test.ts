import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Board } from "../../actors/feedback/Board.ts"
import { refusalCode } from "../../facade/HttpError.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { apiKey, createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

let atrium: TestServer
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await newTeam(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const vote = (token: string, requestId: string, onBehalfOfEmail?: string) =>
  atrium.request(
    "POST",
    `/feedback/v1/feature-requests/${requestId}/votes${onBehalfOfEmail ? `?onBehalfOfEmail=${encodeURIComponent(onBehalfOfEmail)}` : ""}`,
    { token }
  )
const unvote = (token: string, requestId: string, onBehalfOfEmail?: string) =>
  atrium.request(
    "DELETE",
    `/feedback/v1/feature-requests/${requestId}/votes${onBehalfOfEmail ? `?onBehalfOfEmail=${encodeURIComponent(onBehalfOfEmail)}` : ""}`,
    { token }
  )
const merge = (token: string, requestId: string, intoId: string) =>
  atrium.request("POST", `/feedback/v1/feature-requests/${requestId}/merge`, { token, body: { intoId } })
const read = async (requestId: string) =>
  (await atrium.request("GET", `/feedback/v1/feature-requests/${requestId}`, { token: t.owner.token })).body
const rowsOf = async (requestId: string) =>
  Number((await atrium.sql("SELECT count(*) AS n FROM feedback_votes WHERE request_id = $1", [requestId]))[0]!.n)

const anonymous = (boardId: string, requestId: string, fingerprint: string, ip: string) =>
  atrium
    .run(
      ActorSystem.use((system) =>
        Board.client(system)(boardId).vote({ by: "anonymous", requestId, voter: { kind: "anonymous", fingerprint, ip } })
      )
    )
    .then(
      (outcome) => ({ ok: true as const, outcome, code: undefined as string | undefined }),
      (error) => ({ ok: false as const, code: refusalCode(error) })
    )

describe("votes", () => {
  it("one vote per user, removable; a second vote is 409; voting subscribes", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.owner.token, board.id)
    const first = await vote(t.member.token, request.id)
    expect(first.status, first.text).toBe(201)
    expect(first.body).toEqual({ featureRequestId: request.id, voted: true, voteCount: 1, onBehalfOf: null })
    expect((await vote(t.member.token, request.id)).status).toBe(409)
    expect((await vote(t.viewer.token, request.id)).body.voteCount).toBe(2)
    expect((await read(request.id)).voteCount).toBe(2)
    const subscribers = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/subscribers`, { token: t.owner.token })
    expect(subscribers.body.items.map((s: any) => s.user.userId).sort()).toEqual([t.owner.userId, t.member.userId, t.viewer.userId].sort())
    const withdrawn = await unvote(t.member.token, request.id)
    expect(withdrawn.status).toBe(200)
    expect(withdrawn.body).toMatchObject({ voted: false, voteCount: 1 })
    expect((await unvote(t.member.token, request.id)).status).toBe(404)
    expect((await read(request.id)).voteCount).toBe(1)
  })

  it("a team member votes on behalf of a customer (recorded); a customer with an account counts once", async () => {
    const board = await createBoard(atrium, t)
    const request = await createRequest(atrium, t.owner.token, board.id)
    const forCustomer = await vote(t.member.token, request.id, "Carol@Customer.example")
    expect(forCustomer.status, forCustomer.text).toBe(201)
    expect(forCustomer.body.onBehalfOf).toEqual({ email: "carol@customer.example", name: null })
    expect((await vote(t.admin.token, request.id, "carol@customer.example")).status).toBe(409)
    // The viewer (a customer invited to the workspace) has an account: a vote cast for them and their own vote are one voter.
    const open = await createRequest(atrium, t.owner.token, board.id, { title: "Export" })
    expect((await vote(t.member.token, open.id, t.viewer.email)).status).toBe(201)
    expect((await vote(t.viewer.token, open.id)).status).toBe(409)
    // Only the team may vote for someone else.
    expect((await vote(t.viewer.token, open.id, "dave@customer.example")).status).toBe(403)
    const voters = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/voters`, { token: t.owner.token })
    expect(voters.body.items[0]).toMatchObject({
      kind: "customer",
      customer: { email: "carol@customer.example" },
      castBy: { userId: t.member.userId }
    })
    const customerView = await atrium.request("GET", `/feedback/v1/feature-requests/${request.id}/voters`, { token: t.viewer.token })
    expect(customerView.body.items[0].customer.email).toBeNull()
    // Strangers to the workspace reach none of it (the public board operations are theirs).
    expect((await vote(t.outsider.token, request.id)).status).toBe(404)
  })

  it("respects who may vote, locks and API-key scopes", async () => {
    const board = await createBoard(atrium, t, { settings: { whoMayVote: "members" } })
    const request = await createRequest(atrium, t.owner.token, board.id)
    expect((await vote(t.viewer.token, request.id)).status).toBe(403)
    const readOnly = await apiKey(atrium, t.member, t.workspaceId, ["feedback:read"])
    const denied = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes`, { apiKey: readOnly })
    expect(denied.status).toBe(403)
    const writer = await apiKey(atrium, t.member, t.workspaceId, ["feedback:read", "feedback:write"])
    expect((await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes`, { apiKey: writer })).status).toBe(201)
    expect(
      (await atrium.request("PUT", `/feedback/v1/feature-requests/${request.id}/lock`, { token: t.owner.token, body: { locked: true } }))
        .status
    ).toBe(200)
    expect((await vote(t.admin.token, request.id)).status).toBe(409)
  })

  it("votes arriving together commit together, each counted once, with its own answer and change-log entry", async () => {
    const board = await createBoard(atrium, t)
    const [a, b] = [
      await createRequest(atrium, t.owner.token, board.id),
      await createRequest(atrium, t.owner.token, board.id, { title: "B" })
    ]
    const customers = Array.from({ length: 12 }, (_, i) => `group-${i}-${board.id.slice(0, 8)}@customer.example`)
    // Twice each vote on `a` (one of each pair is 409), once each on `b`, and a withdrawal nobody cast (404), all at once.
    const answers = await Promise.all([
      ...customers.flatMap((email) => [
        vote(t.member.token, a.id, email),
        vote(t.admin.token, a.id, email),
        vote(t.member.token, b.id, email)
      ]),
      unvote(t.member.token, b.id, "nobody@customer.example")
    ])
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(24)
    expect(statuses.filter((s) => s === 409)).toHaveLength(12)
    expect(statuses.filter((s) => s === 404)).toHaveLength(1)
    // Each answer's count is the count right after that vote: 1…12 on each request, each once.
    const countsOn = (id: string) =>
      answers
        .filter((r) => r.status === 201 && r.body.featureRequestId === id)
        .map((r) => r.body.voteCount)
        .sort((x: number, y: number) => x - y)
    const oneToTwelve = Array.from({ length: 12 }, (_, i) => i + 1)
    expect(countsOn(a.id)).toEqual(oneToTwelve)
    expect(countsOn(b.id)).toEqual(oneToTwelve)
    expect([(await read(a.id)).voteCount, (await read(b.id)).voteCount, await rowsOf(a.id), await rowsOf(b.id)]).toEqual([12, 12, 12, 12])
    const logged = await atrium.sql("SELECT count(*) AS n FROM feedback_events WHERE board_id = $1 AND type = 'request.voted'", [board.id])
    expect(Number(logged[0]!.n)).toBe(24)
    // Withdrawn together, down to none.
    const withdrawn = await Promise.all(
      customers.flatMap((email) => [unvote(t.member.token, a.id, email), unvote(t.admin.token, b.id, email)])
    )
    expect(withdrawn.map((r) => r.status)).toEqual(withdrawn.map(() => 200))
    expect([(await read(a.id)).voteCount, (await read(b.id)).voteCount, await rowsOf(a.id), await rowsOf(b.id)]).toEqual([0, 0, 0, 0])
  })

  it("anonymous votes: only when enabled, one per fingerprint and per IP on a request, limited per IP and board per hour", async () => {
    const board = await createBoard(atrium, t)
    const requests = await Promise.all(
      Array.from({ length: 4 }, (_, i) => createRequest(atrium, t.owner.token, board.id, { title: `Idea ${i}` }))
    )
    expect((await anonymous(board.id, requests[0]!.id, "fp-1", "203.0.113.5")).code).toBe("forbidden")
    await atrium.request("PATCH", `/feedback/v1/boards/${board.id}/settings`, {
      token: t.owner.token,
      body: { anonymousVoting: true, anonymousVotesPerHour: 3 }
    })
    expect((await anonymous(board.id, requests[0]!.id, "fp-1", "203.0.113.5")).ok).toBe(true)
    expect((await anonymous(board.id, requests[0]!.id, "fp-1", "198.51.100.7")).code).toBe("conflict")
    expect((await anonymous(board.id, requests[0]!.id, "fp-2", "203.0.113.5")).code).toBe("conflict")
    expect((await anonymous(board.id, requests[1]!.id, "fp-1", "203.0.113.5")).ok).toBe(true)
    expect((await anonymous(board.id, requests[2]!.id, "fp-1", "203.0.113.5")).ok).toBe(true)
    expect((await anonymous(board.id, requests[3]!.id, "fp-1", "203.0.113.5")).code).toBe("rate_limited")
    // Another address is counted on its own.
    expect((await anonymous(board.id, requests[3]!.id, "fp-9", "192.0.2.1")).ok).toBe(true)
    expect((await read(requests[3]!.id)).voteCount).toBe(1)
    const ipRows = await atrium.sql("SELECT ip_hash FROM feedback_votes WHERE board_id = $1 AND ip_hash IS NOT NULL", [board.id])
    expect(ipRows.every((r) => !String(r.ip_hash).includes("203.0.113.5"))).toBe(true)
  })
})

describe("merge", () => {
  it("moves voters and subscribers to the original (a voter on both counts once), links comments, and can be undone", async () => {
    const board = await createBoard(atrium, t)
    const original = await createRequest(atrium, t.owner.token, board.id, { title: "Dark mode" })
    const duplicate = await createRequest(atrium, t.viewer.token, board.id, { title: "Night theme" })
    await vote(t.member.token, original.id)
    await vote(t.member.token, duplicate.id)
    await vote(t.admin.token, duplicate.id)
    await vote(t.member.token, duplicate.id, "carol@customer.example")
    const comment = await atrium.request("POST", `/feedback/v1/feature-requests/${duplicate.id}/comments`, {
      token: t.viewer.token,
      body: { body: "Please!" }
    })
    expect(comment.status).toBe(201)
    const merged = await merge(t.owner.token, duplicate.id, original.id)
    expect(merged.status, merged.text).toBe(200)
    expect(merged.body).toMatchObject({
      movedVotes: 2,
      duplicateVotes: 1,
      featureRequest: { id: duplicate.id, mergedInto: original.id, voteCount: 0 },
      into: { voteCount: 3 }
    })
    expect(await read(duplicate.id)).toMatchObject({ mergedInto: original.id, voteCount: 0 })
    expect((await read(original.id)).voteCount).toBe(3)
    expect(await rowsOf(original.id)).toBe(3)
    const subscribers = await atrium.request("GET", `/feedback/v1/feature-requests/${original.id}/subscribers`, { token: t.owner.token })
    expect(subscribers.body.items.map((s: any) => s.user.userId).sort()).toEqual(
      [t.owner.userId, t.member.userId, t.admin.userId, t.viewer.userId].sort()
    )
    const thread = await atrium.request("GET", `/feedback/v1/feature-requests/${original.id}/comments`, { token: t.owner.token })
    expect(thread.body.items).toHaveLength(1)
    expect(thread.body.items[0]).toMatchObject({ body: "Please!", fromFeatureRequestId: duplicate.id, featureRequestId: original.id })
    const duplicates = await atrium.request("GET", `/feedback/v1/feature-requests/${original.id}/merged`, { token: t.owner.token })
    expect(duplicates.body.items.map((r: any) => r.id)).toEqual([duplicate.id])
    expect((await vote(t.viewer.token, duplicate.id)).status).toBe(409)
    // Undo (the moderation log offers it): everything comes back.
    await atrium.run(ActorSystem.use((system) => Board.client(system)(board.id).unmerge({ by: t.owner.userId, requestId: duplicate.id })))
    expect(await read(duplicate.id)).toMatchObject({ mergedInto: null, voteCount: 3 })
    expect((await read(original.id)).voteCount).toBe(1)
    expect(await rowsOf(duplicate.id)).toBe(3)
  })

  it("refuses self-merge, cycles, merges of a merged request, non-admins and cross-board without rights on both", async () => {
    const board = await createBoard(atrium, t)
    const a = await createRequest(atrium, t.owner.token, board.id, { title: "A" })
    const b = await createRequest(atrium, t.owner.token, board.id, { title: "B" })
    const self = await merge(t.owner.token, a.id, a.id)
    expect(self.status).toBe(400)
    expect(self.body.error.details[0].path).toBe("body.intoId")
    expect((await merge(t.member.token, a.id, b.id)).status).toBe(403)
    expect((await merge(t.owner.token, a.id, b.id)).status).toBe(200)
    const cycle = await merge(t.owner.token, b.id, a.id)
    expect(cycle.status).toBe(409)
    expect((await merge(t.owner.token, a.id, b.id)).status).toBe(409)
    // Cross-board: a board admin of only one board is refused; a workspace admin may.
    const other = await createBoard(atrium, t)
    const there = await createRequest(atrium, t.owner.token, other.id, { title: "There" })
    const c = await createRequest(atrium, t.owner.token, board.id, { title: "C" })
    await atrium.request("POST", `/feedback/v1/boards/${board.id}/members`, {
      token: t.owner.token,
      body: { userId: t.member.userId, role: "admin" }
    })
    const refused = await merge(t.member.token, c.id, there.id)
    expect(refused.status).toBe(403)
    expect(refused.body.error.details[0].path).toBe("body.intoId")
    await vote(t.viewer.token, c.id)
    const crossed = await merge(t.admin.token, c.id, there.id)
    expect(crossed.status, crossed.text).toBe(200)
    expect((await read(there.id)).voteCount).toBe(1)
    const list = await atrium.request("GET", `/feedback/v1/boards/${other.id}/feature-requests?sort=top`, { token: t.owner.token })
    expect(list.body.items[0]).toMatchObject({ id: there.id, voteCount: 1 })
  })

  it("votes and a merge racing on the same requests neither lose nor double a vote", async () => {
    const board = await createBoard(atrium, t)
    const other = await createBoard(atrium, t)
    for (const [label, targetBoard] of [
      ["same board", board],
      ["across boards", other]
    ] as const) {
      const original = await createRequest(atrium, t.owner.token, targetBoard.id, { title: `Original ${label}` })
      const duplicate = await createRequest(atrium, t.owner.token, board.id, { title: `Duplicate ${label}` })
      const customers = Array.from({ length: 40 }, (_, i) => `c${i}-${label.replace(/\W/g, "")}@customer.example`)
      // Customers 0–29 vote on the original, 15–39 on the duplicate; the merge runs in the middle of it.
      const onOriginal = customers.slice(0, 30).map((email) => ["original", email] as const)
      const onDuplicate = customers.slice(15).map((email) => ["duplicate", email] as const)
      const jobs = [...onOriginal, ...onDuplicate].sort(() => Math.random() - 0.5)
      const accepted = new Set<string>()
      const mergeAt = Math.floor(jobs.length / 2)
      const results = await Promise.all([
        ...jobs.map(async ([which, email], index) => {
          if (index > mergeAt) await new Promise((resolve) => setImmediate(resolve))
          const reply = await vote(t.member.token, which === "original" ? original.id : duplicate.id, email)
          if (reply.status === 201) accepted.add(email)
          return reply.status
        }),
        merge(t.owner.token, duplicate.id, original.id).then((reply) => reply.status)
      ])
      expect(
        results.every((status) => status === 201 || status === 409 || status === 200),
        label
      ).toBe(true)
      expect(results.at(-1), label).toBe(200)
      const final = await read(original.id)
      expect(final.voteCount, label).toBe(accepted.size)
      expect(await rowsOf(original.id), label).toBe(accepted.size)
      expect(await rowsOf(duplicate.id), label).toBe(0)
    }
  })
})
