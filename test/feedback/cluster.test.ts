/**
 * Feedback boards on a two-node cluster (NATS + PostgreSQL): board actors
 * live on either node; votes sent through both nodes are counted once, a
 * cross-board merge made through one node is seen at once through the other
 * (the original's board actor, wherever it lives, is invalidated before the
 * reply), and board events reach a follower connected to the other node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rawClient } from "../pm/live/support.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { checkNats, natsUrl, testPrefix } from "../support/nats.ts"
import { createBoard, createRequest, newTeam, type Team } from "./fixture.ts"

const ready = (await checkPostgres("feedback boards on a cluster")) && (await checkNats("feedback boards on a cluster"))

describe.skipIf(!ready)("feedback boards on a two-node cluster", () => {
  let database: TestDatabase
  let a: TestServer
  let b: TestServer
  let t: Team
  beforeAll(async () => {
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    a = await startAtrium(shared)
    b = await startAtrium(shared)
    t = await newTeam(a)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
    await database?.drop()
  })

  const vote = (node: TestServer, requestId: string, email: string) =>
    node.request("POST", `/feedback/v1/feature-requests/${requestId}/votes?onBehalfOfEmail=${encodeURIComponent(email)}`, {
      token: t.member.token
    })
  const voteCount = async (node: TestServer, requestId: string) =>
    (await node.request("GET", `/feedback/v1/feature-requests/${requestId}`, { token: t.owner.token })).body.voteCount as number

  it("votes through both nodes count once; a cross-board merge is read at once through either node", async () => {
    // Several boards, so their actors land on both nodes.
    const boards = await Promise.all(Array.from({ length: 6 }, () => createBoard(a, t)))
    const requests = await Promise.all(boards.map((board) => createRequest(a, t.owner.token, board.id)))
    const replies = await Promise.all(
      requests.flatMap((request) =>
        Array.from({ length: 10 }, (_, i) => vote(i % 2 === 0 ? a : b, request.id, `c${i % 7}@customer.example`))
      )
    )
    expect(replies.filter((r) => r.status === 201)).toHaveLength(requests.length * 7)
    for (const request of requests) {
      expect(await voteCount(a, request.id)).toBe(7)
      expect(await voteCount(b, request.id)).toBe(7)
    }
    for (const [index, duplicate] of requests.slice(1).entries()) {
      const node = index % 2 === 0 ? a : b
      const merged = await node.request("POST", `/feedback/v1/feature-requests/${duplicate.id}/merge`, {
        token: t.owner.token,
        body: { intoId: requests[0]!.id }
      })
      expect(merged.status, merged.text).toBe(200)
      expect(await voteCount(a, requests[0]!.id)).toBe(7)
      expect(await voteCount(b, duplicate.id)).toBe(0)
      expect((await b.request("GET", `/feedback/v1/feature-requests/${duplicate.id}`, { token: t.owner.token })).body.mergedInto).toBe(
        requests[0]!.id
      )
    }
  })

  it("a follower on one node sees a board's changes made through the other", async () => {
    const board = await createBoard(a, t)
    const ticket = await b.request("POST", `/feedback/v1/boards/${board.id}/stream-ticket`, { token: t.viewer.token })
    const client = await rawClient(ticket.body.url)
    expect((await client.subscribe("board", board.id)).type).toBe("subscribed")
    const request = await createRequest(a, t.member.token, board.id, { title: "Across nodes" })
    const created = await client.inbox.next((f) => f.type === "request.created")
    expect(created.data).toMatchObject({ entityId: request.id, title: "Across nodes" })
    client.close()
  })
})
