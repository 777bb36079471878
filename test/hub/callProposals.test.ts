/**
 * From calls to requests (issue 24): a processed call's customer asks — an
 * outside attendee's sentences asking for a capability — become proposals
 * (a vote on behalf of the customer for the similar request, or a new
 * request); a member's own sentences never do. Confirming applies it with the
 * confirming member's credentials (the vote counted for the customer's
 * e-mail, an internal note linking the transcript moment); rejecting writes
 * nothing. Lens answers "what did customers ask for this month" citing the
 * call moments and the requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { settled, type User, workspaceWith } from "./support/calls.ts"

let atrium: TestServer
let alice: User
let bob: User
let workspaceId: string
let boardId: string
let boardSlug: string
/** The board's key: proposals and answers name requests workspace-wide (IDEAS-1), not per board (FR-1). */
let boardKey: string
let darkModeId: string
let callId: number
let recordingId: number

const CUSTOMER = "carol@customer.example"

const segments = [
  {
    speaker: "Alice",
    startMs: 0,
    endMs: 4000,
    text: "Thanks for joining, Carol. It would be great if we could hear how your team uses the app."
  },
  { speaker: "Carol", startMs: 4100, endMs: 9000, text: "Could you add a dark mode to the dashboard? My team works at night." },
  { speaker: "Bob", startMs: 9100, endMs: 14000, text: "We really need a better export feature for our own reports too." },
  { speaker: "Carol", startMs: 14100, endMs: 19000, text: "Also, it would be great if we could export invoices to CSV." },
  { speaker: "Alice", startMs: 19100, endMs: 23000, text: "I'll send the notes by Friday." }
]

const proposals = (user: User, status?: string) =>
  atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/lens/proposals${status ? `?status=${status}` : ""}`, { token: user.token })

const decide = (user: User, proposalId: string, decision: "confirm" | "reject") =>
  atrium.request("POST", `/hub/v1/lens/proposals/${proposalId}/decision`, { token: user.token, body: { decision } })

const feedbackCounts = async () => {
  const [row] = await atrium.sql<{ requests: number; votes: number; comments: number }>(
    `SELECT (SELECT count(*)::int FROM feedback_requests WHERE board_id = $1) AS requests,
            (SELECT count(*)::int FROM feedback_votes WHERE board_id = $1) AS votes,
            (SELECT count(*)::int FROM feedback_comments WHERE board_id = $1) AS comments`,
    [boardId]
  )
  return row!
}

beforeAll(async () => {
  atrium = await startAtrium()
  ;[alice, bob] = await Promise.all(["Alice", "Bob"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice!, [bob!])
  boardSlug = `ideas-${Date.now().toString(36)}`
  const board = await atrium.request("POST", "/feedback/v1/boards", {
    token: alice.token,
    body: { workspaceId, name: "Ideas", slug: boardSlug, visibility: "public" }
  })
  expect(board.status).toBe(201)
  boardId = board.body.id
  boardKey = board.body.key
  const request = await atrium.request("POST", `/feedback/v1/boards/${boardId}/feature-requests`, {
    token: alice.token,
    body: { title: "Dark mode for the dashboard" }
  })
  expect(request.status).toBe(201)
  darkModeId = request.body.id
  const created = await atrium.request("POST", "/hub/v1/recordings", {
    token: alice.token,
    body: {
      workspaceId,
      name: "Carol onboarding",
      attendeeEmails: [bob.email, CUSTOMER],
      transcript: { format: "segments", segments }
    }
  })
  expect(created.status).toBe(202)
  callId = created.body.callId
  recordingId = created.body.id
  expect(await settled(atrium, alice.token, recordingId)).toMatchObject({ status: "ready" })
}, 240_000)
afterAll(() => atrium?.close())

/** The call's proposals, once processing has stored them (they follow the call's "ready"). */
const callProposals = async () => {
  for (let i = 0; i < 400; i++) {
    const listed = await proposals(bob, "proposed")
    const fromCall = listed.body.items.filter((p: any) => p.call?.callId === callId)
    if (fromCall.length > 0) return fromCall
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the call's proposals never appeared")
}

/** A processed call with one outside attendee in which `said` is said, and its first proposal once stored. */
const customerCall = async (name: string, attendee: string, said: ReadonlyArray<(typeof segments)[number]>) => {
  const created = await atrium.request("POST", "/hub/v1/recordings", {
    token: alice.token,
    body: { workspaceId, name, attendeeEmails: [attendee], transcript: { format: "segments", segments: said } }
  })
  expect(created.status).toBe(202)
  await settled(atrium, alice.token, created.body.id)
  let proposal: any
  for (let i = 0; i < 400 && proposal === undefined; i++) {
    proposal = (await proposals(bob, "proposed")).body.items.find((p: any) => p.call?.callId === created.body.callId)
    if (proposal === undefined) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { created, proposal }
}

describe("from calls to requests", () => {
  it("offers each of the customer's two asks as a proposal, and none of the members' sentences", async () => {
    const found = await callProposals()
    expect(found).toHaveLength(2)
    const vote = found.find((p: any) => p.operationId === "voteFeatureRequestLite")
    const create = found.find((p: any) => p.operationId === "createFeatureRequestLite")
    expect(vote).toMatchObject({
      answerId: null,
      status: "proposed",
      title: `Add a vote from ${CUSTOMER} to request ${boardKey}-1 "Dark mode for the dashboard" (similar)`,
      input: { workspaceId, requestRef: darkModeId, onBehalfOfEmail: CUSTOMER },
      call: {
        callId,
        recordingId,
        callName: "Carol onboarding",
        startMs: 4100,
        endMs: 9000,
        speakerEmail: CUSTOMER,
        said: "Could you add a dark mode to the dashboard?",
        boardId,
        requestId: darkModeId
      }
    })
    expect(create).toMatchObject({
      status: "proposed",
      title: 'Create request "Also, it would be great if we could export invoices to CSV." on board Ideas',
      input: { workspaceId, board: boardSlug, onBehalfOfEmail: CUSTOMER },
      call: { startMs: 14100, speakerEmail: CUSTOMER, requestId: null }
    })
    expect(create.input.description).toContain(`/w/${workspaceId}/meetings/${callId}?t=14100`)
    // Bob's and Alice's own asks ("we really need…", "it would be great if…") are the team's, not a customer's.
    expect(found.every((p: any) => p.call.speakerEmail === CUSTOMER)).toBe(true)
    // Nothing reached the board yet.
    expect(await feedbackCounts()).toEqual({ requests: 1, votes: 0, comments: 0 })
    // Every member of the workspace sees them.
    expect((await proposals(alice)).body.items.filter((p: any) => p.call?.callId === callId)).toHaveLength(2)
  })

  it("confirming one adds the customer's vote to the matching request, with a note linking the moment; rejecting the other writes nothing", async () => {
    const found = await callProposals()
    const vote = found.find((p: any) => p.operationId === "voteFeatureRequestLite")
    const create = found.find((p: any) => p.operationId === "createFeatureRequestLite")

    const confirmed = await decide(bob, vote.id, "confirm")
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({ id: vote.id, status: "applied" })
    expect(confirmed.body.decidedAt).not.toBeNull()
    const votes = await atrium.sql<{ requestId: string; email: string; castBy: string; userId: string | null }>(
      `SELECT request_id AS "requestId", customer_email AS email, cast_by AS "castBy", user_id AS "userId" FROM feedback_votes WHERE board_id = $1`,
      [boardId]
    )
    expect(votes).toEqual([{ requestId: darkModeId, email: CUSTOMER, castBy: bob.userId, userId: null }])
    const notes = await atrium.sql<{ body: string; internal: boolean; authorId: string }>(
      `SELECT body, internal, author_id AS "authorId" FROM feedback_comments WHERE request_id = $1`,
      [darkModeId]
    )
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ internal: true, authorId: bob.userId })
    expect(notes[0]!.body).toContain(`/w/${workspaceId}/meetings/${callId}?t=4100`)
    expect(notes[0]!.body).toContain("Could you add a dark mode to the dashboard?")

    const before = await feedbackCounts()
    const rejected = await decide(alice, create.id, "reject")
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({ id: create.id, status: "rejected", result: null })
    expect(await feedbackCounts()).toEqual(before)
    expect(before).toEqual({ requests: 1, votes: 1, comments: 1 })

    // Decided once: a second decision is refused and writes nothing.
    expect((await decide(alice, vote.id, "confirm")).status).toBe(409)
    expect((await decide(bob, create.id, "confirm")).status).toBe(409)
    expect(await feedbackCounts()).toEqual(before)
    expect((await proposals(bob, "proposed")).body.items.filter((p: any) => p.call?.callId === callId)).toEqual([])
  })

  it("a user outside the workspace can neither see nor decide its call proposals", async () => {
    const stranger = await signUp(atrium, "Mallory")
    const [any] = (await proposals(alice)).body.items.filter((p: any) => p.call?.callId === callId)
    expect((await proposals(stranger)).status).toBe(404)
    expect([403, 404]).toContain((await decide(stranger, any.id, "reject")).status)
  })

  it("Lens answers what customers asked for this month, citing the call moments and the request", async () => {
    const reply = await atrium.request("POST", "/hub/lens/chat", {
      token: alice.token,
      body: { workspaceId, message: "What did customers ask for this month?" }
    })
    expect(reply.status).toBe(200)
    expect(reply.body.trace.route).toBe("customer_asks")
    const citations = reply.body.citations
    expect(citations).toContainEqual(
      expect.objectContaining({
        sourceType: "transcript",
        sourceId: String(callId),
        title: "Carol onboarding",
        span: { startMs: 4100, endMs: 9000 }
      })
    )
    expect(citations).toContainEqual(
      expect.objectContaining({ sourceType: "request", sourceId: darkModeId, title: `${boardKey}-1: Dark mode for the dashboard` })
    )
    // The rejected ask is not offered as something customers still want.
    expect(citations.filter((c: any) => c.sourceType === "transcript")).toHaveLength(1)
    expect(reply.body.answer).toContain(CUSTOMER)
    expect(reply.body.answer).toContain(`${boardKey}-1 "Dark mode for the dashboard" [`)
  })
  it("confirming a new-request proposal creates the request, linking the moment, with the customer's vote", async () => {
    const { created, proposal } = await customerCall("Acme check-in", "dave.smith@acme.example", [
      { speaker: "Alice", startMs: 0, endMs: 3000, text: "Good to see you, Dave." },
      { speaker: "Dave Smith", startMs: 3100, endMs: 8000, text: "Is there a way to schedule reports every Monday morning?" }
    ])
    expect(proposal).toMatchObject({
      operationId: "createFeatureRequestLite",
      call: { speakerEmail: "dave.smith@acme.example", startMs: 3100, requestId: null }
    })
    const confirmed = await decide(bob, proposal.id, "confirm")
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.status).toBe("applied")
    const requestId = confirmed.body.result.request.id
    const [request] = await atrium.sql<{ title: string; markdown: string; authorId: string }>(
      `SELECT title, description_markdown AS markdown, author_id AS "authorId" FROM feedback_requests WHERE id = $1`,
      [requestId]
    )
    expect(request).toMatchObject({ title: "Is there a way to schedule reports every Monday morning?", authorId: bob.userId })
    expect(request!.markdown).toContain(`/w/${workspaceId}/meetings/${created.body.callId}?t=3100`)
    const votes = await atrium.sql<{ email: string; castBy: string }>(
      `SELECT customer_email AS email, cast_by AS "castBy" FROM feedback_votes WHERE request_id = $1`,
      [requestId]
    )
    expect(votes).toEqual([{ email: "dave.smith@acme.example", castBy: bob.userId }])
  })

  it("a confirmation that failed half-way is finished by confirming again: one request, one vote, the whole result", async () => {
    const customer = "erin@partner.example"
    const { proposal } = await customerCall("Partner sync", customer, [
      { speaker: "Alice", startMs: 0, endMs: 3000, text: "Welcome, Erin." },
      { speaker: "Erin", startMs: 3100, endMs: 8000, text: "Could you add a Gantt chart for our project timelines?" }
    ])
    expect(proposal).toMatchObject({ operationId: "createFeatureRequestLite" })
    const requestsTitled = () =>
      atrium.sql<{ id: string }>("SELECT id FROM feedback_requests WHERE board_id = $1 AND title = $2", [boardId, proposal.call.said])
    const votesOf = () => atrium.sql("SELECT 1 FROM feedback_votes WHERE board_id = $1 AND customer_email = $2", [boardId, customer])

    // The database refuses this customer's vote: the request is created, then the vote fails.
    await atrium.sql(
      `CREATE FUNCTION refuse_erin_vote() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.customer_email = '${customer}' THEN RAISE EXCEPTION 'vote refused by the test'; END IF; RETURN NEW; END $$`
    )
    await atrium.sql("CREATE TRIGGER refuse_erin_vote BEFORE INSERT ON feedback_votes FOR EACH ROW EXECUTE FUNCTION refuse_erin_vote()")
    try {
      const failed = await decide(bob, proposal.id, "confirm")
      expect(failed.status).toBeGreaterThanOrEqual(400)
      expect(await requestsTitled()).toHaveLength(1)
      expect(await votesOf()).toEqual([])
      // Still undecided: it may be confirmed again.
      expect((await proposals(bob, "proposed")).body.items.map((p: any) => p.id)).toContain(proposal.id)
    } finally {
      await atrium.sql("DROP TRIGGER refuse_erin_vote ON feedback_votes")
      await atrium.sql("DROP FUNCTION refuse_erin_vote()")
    }

    const retried = await decide(bob, proposal.id, "confirm")
    expect(retried.status, retried.text).toBe(200)
    expect(retried.body.status).toBe("applied")
    const [request] = await requestsTitled()
    expect(await requestsTitled()).toHaveLength(1)
    expect(retried.body.result.request.id).toBe(request!.id)
    expect(await votesOf()).toHaveLength(1)
  })
})
