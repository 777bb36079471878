/**
 * Customer asks found by the language model (issue 24): with LLM_* set, the
 * call's numbered sentences go to the model through the LLM adapter Lens
 * uses (here a local fake OpenAI-compatible server) and its JSON answer picks
 * the asks, including ones no rule would find; a member's sentence the model
 * picks is still not a customer's. When the model's answer is unusable, the
 * rules find the asks instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ASKS_PROMPT } from "../../actors/hub/summarizer/ModelAsks.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { fakeServer, json, settled, type User, workspaceWith } from "./support/calls.ts"

const saved = Object.fromEntries(["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"].map((name) => [name, process.env[name]]))
const CUSTOMER = "carol@customer.example"
let atrium: TestServer
let model: Awaited<ReturnType<typeof fakeServer>>
let modelMode: "ok" | "broken" = "ok"
let alice: User
let bob: User
let workspaceId: string

const completion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content } }]
})

/** The asks prompt's numbered sentences that mention a spreadsheet: what this fake model takes for asks. */
const spreadsheetSentences = (transcript: string) =>
  transcript.split("\n").flatMap((line) => {
    const match = /^\[(\d+)\] [^:]+: (.*)$/.exec(line)
    return match !== null && /spreadsheet/i.test(match[2]!) ? [Number(match[1])] : []
  })

beforeAll(async () => {
  model = await fakeServer((request, response) => {
    if (request.url !== "/v1/chat/completions" || request.headers.authorization !== "Bearer llm-key") return json(response, 401, {})
    const [system, user] = request.body.messages as Array<{ content: string }>
    if (system!.content !== ASKS_PROMPT) {
      // The summarizer's call: a plain version.
      return json(
        response,
        200,
        completion(JSON.stringify({ summary: "A call", keyPoints: [], actionItems: [], enhancedNotes: "## Notes" }))
      )
    }
    if (modelMode === "broken") return json(response, 200, completion("I could not decide."))
    const asks = spreadsheetSentences(user!.content).map((sentence) => ({ sentence, kind: "complaint" }))
    json(response, 200, completion(`\`\`\`json\n${JSON.stringify({ asks })}\n\`\`\``))
  })
  Object.assign(process.env, { LLM_BASE_URL: `${model.url}/v1`, LLM_API_KEY: "llm-key", LLM_MODEL: "fake-model" })
  atrium = await startAtrium()
  ;[alice, bob] = await Promise.all(["Alice", "Bob"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice!, [bob!])
  const board = await atrium.request("POST", "/feedback/v1/boards", {
    token: alice.token,
    body: { workspaceId, name: "Ideas", slug: `ideas-${Date.now().toString(36)}`, visibility: "public" }
  })
  expect(board.status).toBe(201)
}, 240_000)
afterAll(async () => {
  await atrium?.close()
  await model?.close()
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const proposalsOf = async (callId: number) => {
  for (let i = 0; i < 400; i++) {
    const listed = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/lens/proposals?status=proposed`, { token: bob.token })
    const found = listed.body.items.filter((p: any) => p.call?.callId === callId)
    if (found.length > 0) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the call's proposals never appeared")
}

const recordCall = async (name: string, segments: ReadonlyArray<{ speaker: string; startMs: number; endMs: number; text: string }>) => {
  const created = await atrium.request("POST", "/hub/v1/recordings", {
    token: alice.token,
    body: { workspaceId, name, attendeeEmails: [bob.email, CUSTOMER], transcript: { format: "segments", segments } }
  })
  expect(created.status, created.text).toBe(202)
  expect(await settled(atrium, alice.token, created.body.id)).toMatchObject({ status: "ready" })
  return created.body as { id: number; callId: number }
}

describe("customer asks by the language model", () => {
  it("proposes the asks the model picks among the numbered sentences, a customer's only, even where no rule would", async () => {
    const complaint = "Our finance team lives in spreadsheets, and every invoice only comes out as a PDF."
    const call = await recordCall("Carol's renewal", [
      { speaker: "Alice", startMs: 0, endMs: 3000, text: "Thanks for joining, Carol." },
      { speaker: "Carol", startMs: 3100, endMs: 9000, text: complaint },
      { speaker: "Bob", startMs: 9100, endMs: 12000, text: "We could ship a spreadsheet export next quarter." },
      { speaker: "Carol", startMs: 12100, endMs: 15000, text: "The weather has been lovely this week." }
    ])
    const found = await proposalsOf(call.callId)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({
      operationId: "createFeatureRequestLite",
      call: { speakerEmail: CUSTOMER, said: complaint, startMs: 3100, endMs: 9000 }
    })
    const asked = model.requests.filter((r) => r.body?.messages?.[0]?.content === ASKS_PROMPT)
    expect(asked).toHaveLength(1)
    expect(asked[0]!.body.messages[1].content).toBe(
      [
        "Transcript:",
        "[1] Alice: Thanks for joining, Carol.",
        `[2] Carol: ${complaint}`,
        "[3] Bob: We could ship a spreadsheet export next quarter.",
        "[4] Carol: The weather has been lovely this week."
      ].join("\n")
    )
  })

  it("falls back to the rules when the model's answer is not the JSON asked for", async () => {
    modelMode = "broken"
    try {
      const call = await recordCall("Carol's check-in", [
        { speaker: "Alice", startMs: 0, endMs: 3000, text: "Good to see you again." },
        { speaker: "Carol", startMs: 3100, endMs: 8000, text: "Could you add a dark mode to the dashboard?" }
      ])
      const found = await proposalsOf(call.callId)
      expect(found.map((p: any) => p.call.said)).toEqual(["Could you add a dark mode to the dashboard?"])
    } finally {
      modelMode = "ok"
    }
  })
})
